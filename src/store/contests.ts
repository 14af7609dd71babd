/**
 * Contests in the database. Every change is a compare-and-set on `version`: a save that lost a race changes
 * nothing and says so, so two presses at the same moment move the state exactly once.
 */
import { contestStateSchema, OPEN_PHASES, postContest, roundRollInput, sideName, type ContestPhase, type ContestRound, type ContestState } from '../engine/systems/tactalk/contest.js';
import { contestJournal } from '../engine/journal.js';
import { contestDice } from '../engine/systems/tactalk/replay.js';
import { Prisma } from '../generated/prisma/client.js';
import { isIdClash, isRowId, transaction, type Dialect } from './database.js';
import type { Database } from './database-client.js';
import type { Turns } from './locks.js';
import { journalWork } from './journal.js';
import { saveIfUnchanged, stillPosting } from './message-state.js';
import { type RollEntry, type RollLog, type RollRecordInput } from './rolls.js';
import { shardCondition, type SweptShards } from './shards.js';
import { readStored } from './stored-json.js';

/** What the expiry sweep looks at: open contests, and drafts (whose message may never have been posted). */
const EXPIRING_PHASES: readonly ContestPhase[] = ['draft', ...OPEN_PHASES];

/** Overdue contests are read this many at a time. */
const OVERDUE_PAGE = 200;

/** New roll ids a rolled round is tried under before an id taken every time is an error. */
const ROLL_ID_TRIES = 5;

/** Who made a move on a contest, and where, and the seed it rolled with: a round it rolls is theirs in the roll log. */
export interface ContestMoveMade {
  by: Pick<RollRecordInput, 'guildId' | 'channelId' | 'userId'>;
  seed: string;
}

export interface StoredContest {
  id: number;
  guildId: string;
  channelId: string;
  messageId: string | null;
  version: number;
  state: ContestState;
  expiresAt: Date;
}

export interface NewContest {
  guildId: string;
  channelId: string;
  state: ContestState;
  expiresAt: Date;
}

const CONTEST_FIELDS = { id: true, guildId: true, channelId: true, messageId: true, version: true, state: true, expiresAt: true } as const;
const CONTEST_COLUMNS = Prisma.raw(Object.keys(CONTEST_FIELDS).map((column) => `"${column}"`).join(', '));
type ContestRow = { id: number; guildId: string; channelId: string; messageId: string | null; version: number; state: string; expiresAt: Date };

/*
 * A step's reload is Prisma's raw query: a contest's state is a few kilobytes of JSON, which a model query carries
 * through Prisma's query compiler, and the raw statement does not (~40 µs against ~130 µs; docs/performance.md).
 * It reads what the model query does (test/store/contest-steps.test.ts).
 */

function fromRow(row: ContestRow): StoredContest {
  return { ...row, state: readStored(contestStateSchema, row.state, { table: 'Contest', id: row.id, column: 'state' }) };
}

export class ContestStore {
  constructor(
    private readonly db: Database,
    private readonly turns: Turns,
    private readonly dialect: Dialect,
    private readonly rolls: RollLog,
  ) {}

  /**
   * Runs `work` (a press, from its reload to its message's update; an expiry) while no other bot process runs work
   * on the same contest (on PostgreSQL: an advisory lock; the wait is bounded by the lock timeout). The caller keeps
   * its own in-memory turn as well: this only holds other processes off. The compare-and-set stays the truth.
   */
  inTurn<T>(id: number, work: () => Promise<T>): Promise<T> {
    return isRowId(id) ? this.turns.inTurn('contest', id, work) : work();
  }

  /**
   * A new contest, as a draft until its opening is in the channel, unless either player already takes part in `most`
   * contests: open ones, and drafts still being posted (a draft whose opening never got there counts for
   * POSTING_GRACE_MS only, by the bot's clock `now`). The count and the insert are one transaction, so starts at once
   * never open more than `most`; `{ full }` names the player who has them.
   */
  async start(input: NewContest, most: number, now: Date): Promise<StoredContest | { full: string }> {
    const { guildId, state } = input;
    return transaction(this.db, async (tx) => {
      for (const userId of [state.challenger.userId, state.opponent.userId]) {
        const takesPart = { OR: [{ challengerId: userId }, { opponentId: userId }] };
        const holding = { OR: [{ phase: { in: [...OPEN_PHASES] } }, { phase: 'draft', createdAt: { gt: stillPosting(now) } }] };
        if ((await tx.contest.count({ where: { guildId, AND: [takesPart, holding] } })) >= most) return { full: userId };
      }
      return this.create(input, now, tx);
    });
  }

  /** A new contest as a draft, with no limit (`start` keeps the players' limit). */
  async create(input: NewContest, now = new Date(), writer: Pick<Database, 'contest'> = this.db): Promise<StoredContest> {
    const { guildId, channelId, state, expiresAt } = input;
    const row = await writer.contest.create({
      data: { guildId, channelId, challengerId: state.challenger.userId, opponentId: state.opponent.userId, phase: state.phase, state: JSON.stringify(state), expiresAt, createdAt: now },
      select: { id: true },
    });
    return { id: row.id, guildId, channelId, messageId: null, version: 0, state, expiresAt };
  }

  /** A draft whose opening could not be posted: gone at once, so the player's retry is the only contest that counts. */
  async forgetDraft(draft: StoredContest): Promise<void> {
    await this.db.contest.deleteMany({ where: { id: draft.id, guildId: draft.guildId, phase: 'draft' } });
  }

  /**
   * The draft's opening message is in the channel: the contest becomes proposed, on that message, in one
   * compare-and-set. Null when it was posted or changed since it was read (another press got there first).
   */
  async post(draft: StoredContest, messageId: string | null): Promise<StoredContest | null> {
    const state = postContest(draft.state);
    const posted = await saveIfUnchanged(this.db, 'Contest', draft, state, { phase: state.phase, messageId: messageId ?? undefined }, { phase: 'draft' });
    return posted ? { ...draft, state, messageId: messageId ?? draft.messageId, version: draft.version + 1 } : null;
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
    const [row] = await this.db.$queryRaw<ContestRow[]>`SELECT ${CONTEST_COLUMNS} FROM "Contest" WHERE "id" = ${id} AND "guildId" = ${guildId}`;
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
    const also = journalWork(contest, contestJournal(contest.id, contest.state, state), roll);
    const won = await saveIfUnchanged(this.db, 'Contest', contest, state, { phase: state.phase, expiresAt }, { roll, also });
    return won ? { ...contest, state, expiresAt, version: contest.version + 1 } : null;
  }

  /**
   * Saves a move as `save` does. A move that rolled a round (the new state has one more) gets its roll in the roll
   * log with it, in the same transaction: the round under a new roll id, which the state shows, rolled by `made.by`
   * with `made.seed`. An id already taken saves nothing, and the move is saved again under another one.
   */
  async saveMove(contest: StoredContest, state: ContestState, expiresAt: Date, made: ContestMoveMade): Promise<StoredContest | null> {
    const rolled = state.rounds.length > contest.state.rounds.length ? state.rounds.at(-1)! : null;
    if (!rolled) return this.save(contest, state, expiresAt);
    for (let attempt = 1; ; attempt++) {
      const round: ContestRound = { ...rolled, rollId: this.rolls.newId() };
      const withRoll: ContestState = { ...state, rounds: [...state.rounds.slice(0, -1), round] };
      try {
        return await this.save(contest, withRoll, expiresAt, this.roundEntry(contest.id, withRoll, round, made));
      } catch (error) {
        if (!(isIdClash(error) && attempt < ROLL_ID_TRIES)) throw error;
      }
    }
  }

  /** A round's roll as the roll log keeps it: for /roll replay and /log, the reading both failing was decided by, and the Operators' names. */
  private roundEntry(contestId: number, state: ContestState, round: ContestRound, made: ContestMoveMade): RollEntry {
    const names = { challenger: sideName(state, 'challenger'), opponent: sideName(state, 'opponent') };
    return this.rolls.entry(round.rollId!, {
      ...made.by,
      kind: 'contest',
      inputs: { contestId, round: round.number, ...roundRollInput(round), names },
      seed: made.seed,
      dice: contestDice(round),
      result: round,
      total: null,
      challengeLevel: null,
      success: null,
    });
  }

  /** How many contests a user takes part in that are still open, on this server. */
  async openCount(guildId: string, userId: string): Promise<number> {
    return this.db.contest.count({ where: { guildId, phase: { in: [...OPEN_PHASES] }, OR: [{ challengerId: userId }, { opponentId: userId }] } });
  }

  /** The open contests a user takes part in on this server, oldest first (the limit's refusal links to them). */
  async openOf(guildId: string, userId: string, limit = 10): Promise<StoredContest[]> {
    const rows = await this.db.contest.findMany({
      where: { guildId, phase: { in: [...OPEN_PHASES] }, OR: [{ challengerId: userId }, { opponentId: userId }] },
      orderBy: { id: 'asc' },
      take: limit,
      select: CONTEST_FIELDS,
    });
    return rows.map(fromRow);
  }

  /**
   * Open contests whose step ran out before `now`, and drafts left as long, oldest first: up to `limit` of those on
   * the servers of `shards` (this process's; the others are swept by their own process; null: every server). Read a
   * page at a time after the last one read (by expiry, then id), never counting past rows again. A row whose state
   * no longer reads goes to `unreadable` and is passed over, so one damaged contest does not stop every other one
   * expiring.
   */
  async overdue(now: Date, limit = 100, shards: SweptShards | null = null, unreadable: (id: number, error: unknown) => void = () => {}): Promise<StoredContest[]> {
    const found: StoredContest[] = [];
    const phases = EXPIRING_PHASES.map((phase) => `'${phase}'`).join(', ');
    const owned = shards ? ` AND ${shardCondition(this.dialect, shards)}` : '';
    let after: { expiresAt: Date; id: number } | null = null;
    while (found.length < limit) {
      const since = after ? ' AND ("expiresAt" > ? OR ("expiresAt" = ? AND "id" > ?))' : '';
      const sql = `SELECT "id" FROM "Contest" WHERE "phase" IN (${phases}) AND "expiresAt" <= ?${since}${owned} ORDER BY "expiresAt" ASC, "id" ASC LIMIT ${OVERDUE_PAGE}`;
      let index = 0;
      const numbered = this.dialect === 'postgresql' ? sql.replace(/\?/g, () => `$${++index}`) : sql;
      const page: Array<{ id: number | bigint }> = await this.db.$queryRawUnsafe<Array<{ id: number | bigint }>>(numbered, now, ...(after ? [after.expiresAt, after.expiresAt, after.id] : []));
      if (page.length === 0) break;
      const rows: ContestRow[] = await this.db.contest.findMany({ where: { id: { in: page.map((row) => Number(row.id)) } }, orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }], select: CONTEST_FIELDS });
      for (const row of rows) {
        after = { expiresAt: row.expiresAt, id: row.id };
        if (found.length >= limit) continue;
        try {
          found.push(fromRow(row));
        } catch (error) {
          unreadable(row.id, error);
        }
      }
      if (page.length < OVERDUE_PAGE) break;
    }
    return found;
  }
}
