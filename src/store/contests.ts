/**
 * Contests in the database. Every change is a compare-and-set on `version`: a save that lost a race changes
 * nothing and says so, so two presses at the same moment move the state exactly once.
 */
import { contestStateSchema, OPEN_PHASES, postContest, type ContestPhase, type ContestState } from '../engine/systems/tactalk/contest.js';
import { isRowId, type Database } from './database.js';
import { processLocalTurns, type Turns } from './locks.js';
import { compareAndSet, type RollEntry } from './rolls.js';
import { readStored } from './stored-json.js';

/** What the expiry sweep looks at: open contests, and drafts (whose message may never have been posted). */
const EXPIRING_PHASES: readonly ContestPhase[] = ['draft', ...OPEN_PHASES];

/** Overdue contests are read this many at a time, until enough of this process's servers are found. */
const OVERDUE_PAGE = 200;

export interface StoredContest {
  id: number;
  guildId: string;
  channelId: string;
  messageId: string | null;
  version: number;
  state: ContestState;
  expiresAt: Date;
}

function fromRow(row: { id: number; guildId: string; channelId: string; messageId: string | null; version: number; state: string; expiresAt: Date }): StoredContest {
  return { id: row.id, guildId: row.guildId, channelId: row.channelId, messageId: row.messageId, version: row.version, state: readStored(contestStateSchema, row.state, { table: 'Contest', id: row.id, column: 'state' }), expiresAt: row.expiresAt };
}

export class ContestStore {
  constructor(
    private readonly db: Database,
    private readonly turns: Turns = processLocalTurns(),
  ) {}

  /**
   * Runs `work` (a press, from its reload to its message's update; an expiry) while no other bot process runs work
   * on the same contest (on PostgreSQL: an advisory lock; the wait is bounded by the lock timeout). The caller keeps
   * its own in-memory turn as well: this only holds other processes off. The compare-and-set stays the truth.
   */
  inTurn<T>(id: number, work: () => Promise<T>): Promise<T> {
    return isRowId(id) ? this.turns.inTurn('contest', id, work) : work();
  }

  async create(input: { guildId: string; channelId: string; state: ContestState; expiresAt: Date }): Promise<StoredContest> {
    const row = await this.db.contest.create({
      data: {
        guildId: input.guildId,
        channelId: input.channelId,
        challengerId: input.state.challenger.userId,
        opponentId: input.state.opponent.userId,
        phase: input.state.phase,
        state: JSON.stringify(input.state),
        expiresAt: input.expiresAt,
      },
    });
    return fromRow(row);
  }

  /**
   * The draft's opening message is in the channel: the contest becomes proposed, on that message, in one
   * compare-and-set. Null when it was posted or changed since it was read (another press got there first).
   */
  async post(draft: StoredContest, messageId: string | null): Promise<StoredContest | null> {
    const state = postContest(draft.state);
    const { count } = await this.db.contest.updateMany({
      where: { id: draft.id, version: draft.version, phase: 'draft' },
      data: { state: JSON.stringify(state), phase: state.phase, version: { increment: 1 }, ...(messageId ? { messageId } : {}) },
    });
    return count === 1 ? { ...draft, state, messageId: messageId ?? draft.messageId, version: draft.version + 1 } : null;
  }

  /**
   * Records the message a contest is shown on, if none is recorded yet (a crash can come between posting it and
   * storing its id). Not a change of the contest, so no new version: a press racing with it still saves.
   */
  async fillMessage(contest: StoredContest, messageId: string): Promise<StoredContest> {
    if (contest.messageId) return contest;
    await this.db.contest.updateMany({ where: { id: contest.id, messageId: null }, data: { messageId } });
    return { ...contest, messageId };
  }

  /** A contest of this server; one of another server is not found, exactly as an id never used. */
  async find(guildId: string, id: number): Promise<StoredContest | null> {
    if (!isRowId(id)) return null;
    const row = await this.db.contest.findUnique({ where: { id, guildId } });
    return row ? fromRow(row) : null;
  }

  /**
   * Saves the new state only if nobody saved since `contest` was read.
   * Returns the saved contest, or null when another change won the race.
   * With `roll` (the round this state rolled, whose id the state shows), the roll lands in the roll log in the same
   * transaction: a crash or a failed insert never leaves a round whose roll is missing, nor a roll of a round that
   * lost the race. A failed insert (e.g. its id is taken) throws and saves nothing.
   */
  async save(contest: StoredContest, state: ContestState, expiresAt: Date, roll?: RollEntry): Promise<StoredContest | null> {
    const where = { id: contest.id, version: contest.version };
    const data = { state: JSON.stringify(state), phase: state.phase, version: { increment: 1 }, expiresAt };
    const won = await compareAndSet(this.db, (writer) => writer.contest.updateMany({ where, data }), roll);
    return won ? { ...contest, state, expiresAt, version: contest.version + 1 } : null;
  }

  /** How many contests a user takes part in that are still open, on this server. */
  async openCount(guildId: string, userId: string): Promise<number> {
    return this.db.contest.count({
      where: { guildId, phase: { in: [...OPEN_PHASES] }, OR: [{ challengerId: userId }, { opponentId: userId }] },
    });
  }

  /** The open contests a user takes part in on this server, oldest first (the limit's refusal links to them). */
  async openOf(guildId: string, userId: string, limit = 10): Promise<StoredContest[]> {
    const rows = await this.db.contest.findMany({
      where: { guildId, phase: { in: [...OPEN_PHASES] }, OR: [{ challengerId: userId }, { opponentId: userId }] },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(fromRow);
  }

  /**
   * Open contests whose step ran out before `now`, and drafts left as long, oldest first: up to `limit` of those on
   * servers `owns` accepts (this process's shards; the others are swept by their own process).
   */
  async overdue(now: Date, limit = 100, owns: (guildId: string) => boolean = () => true): Promise<StoredContest[]> {
    const found: StoredContest[] = [];
    for (let skip = 0; found.length < limit; skip += OVERDUE_PAGE) {
      const rows = await this.db.contest.findMany({
        where: { phase: { in: [...EXPIRING_PHASES] }, expiresAt: { lte: now } },
        orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
        skip,
        take: OVERDUE_PAGE,
      });
      for (const row of rows) if (found.length < limit && owns(row.guildId)) found.push(fromRow(row));
      if (rows.length < OVERDUE_PAGE) break;
    }
    return found;
  }
}
