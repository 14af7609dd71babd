/**
 * Contests in the database. Every change is a compare-and-set on `version`: a save that lost a race changes
 * nothing and says so, so two presses at the same moment move the state exactly once.
 */
import { contestStateSchema, OPEN_PHASES, postContest, type ContestPhase, type ContestState } from '../engine/systems/tactalk/contest.js';
import { isRowId, type Database, type Dialect } from './database.js';
import type { Turns } from './locks.js';
import { compareAndSet, type RollEntry } from './rolls.js';
import { readStored } from './stored-json.js';

/** What the expiry sweep looks at: open contests, and drafts (whose message may never have been posted). */
const EXPIRING_PHASES: readonly ContestPhase[] = ['draft', ...OPEN_PHASES];

/** Overdue contests are read this many at a time. */
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

/** The servers whose contests a process sweeps: those of its shards, `(guild_id >> 22) % count` (src/bot.ts). */
export interface SweptShards {
  ids: readonly number[];
  count: number;
}

const CONTEST_FIELDS = { id: true, guildId: true, channelId: true, messageId: true, version: true, state: true, expiresAt: true } as const;
type ContestRow = { id: number; guildId: string; channelId: string; messageId: string | null; version: number; state: string; expiresAt: Date };

function fromRow(row: ContestRow): StoredContest {
  return { ...row, state: readStored(contestStateSchema, row.state, { table: 'Contest', id: row.id, column: 'state' }) };
}

/**
 * Whether a server's id falls to one of `shards`, in SQL: Prisma cannot say `(guild_id >> 22) % count`, so the
 * sweep's page is a raw query (on Prisma's own connection). A guild id that is not a number is no shard's.
 */
function shardCondition(dialect: Dialect, shards: SweptShards): string {
  const ids = shards.ids.map((id) => Math.trunc(id)).join(', ');
  const count = Math.trunc(shards.count);
  return dialect === 'postgresql'
    ? `("guildId" ~ '^[0-9]{1,20}$' AND mod(div("guildId"::numeric, 4194304), ${count}) IN (${ids}))`
    : `("guildId" <> '' AND "guildId" NOT GLOB '*[^0-9]*' AND length("guildId") <= 19 AND ((CAST("guildId" AS INTEGER) >> 22) % ${count}) IN (${ids}))`;
}

export class ContestStore {
  constructor(
    private readonly db: Database,
    private readonly turns: Turns,
    private readonly dialect: Dialect,
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
      select: { id: true },
    });
    return { id: row.id, guildId: input.guildId, channelId: input.channelId, messageId: null, version: 0, state: input.state, expiresAt: input.expiresAt };
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
    const row = await this.db.contest.findUnique({ where: { id, guildId }, select: CONTEST_FIELDS });
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
