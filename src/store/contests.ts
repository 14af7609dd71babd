/**
 * Contests in the database. Every change is a compare-and-set on `version`: a save that lost a race changes
 * nothing and says so, so two presses at the same moment move the state exactly once.
 */
import { contestStateSchema, OPEN_PHASES, postContest, type ContestPhase, type ContestState } from '../engine/systems/tactalk/contest.js';
import { Prisma } from '../generated/prisma/client.js';
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
const CONTEST_COLUMNS = Prisma.raw(Object.keys(CONTEST_FIELDS).map((column) => `"${column}"`).join(', '));
type ContestRow = { id: number; guildId: string; channelId: string; messageId: string | null; version: number; state: string; expiresAt: Date };

/*
 * A step's reload and its compare-and-set are Prisma's raw queries: a contest's state is a few kilobytes of JSON,
 * which a model query carries through Prisma's query compiler, and the raw statement does not (a reload ~40 µs
 * against ~130 µs, a compare-and-set ~80 µs against ~140 µs; docs/performance.md). They read and write what the
 * model queries do, `updatedAt` included (test/store/contest-steps.test.ts).
 */

/** The compare-and-set: the new state, only on the version it was decided from (and `phase`, when given). */
function setIfUnchanged(writer: Pick<Database, '$executeRaw'>, contest: StoredContest, state: ContestState, set: { expiresAt?: Date; messageId?: string | null }, phase?: ContestPhase): Promise<number> {
  const expiresAt = set.expiresAt ? Prisma.sql`, "expiresAt" = ${set.expiresAt}` : Prisma.empty;
  const messageId = set.messageId ? Prisma.sql`, "messageId" = ${set.messageId}` : Prisma.empty;
  const inPhase = phase ? Prisma.sql` AND "phase" = ${phase}` : Prisma.empty;
  return writer.$executeRaw`UPDATE "Contest" SET "state" = ${JSON.stringify(state)}, "phase" = ${state.phase}, "version" = "version" + 1, "updatedAt" = ${new Date()}${expiresAt}${messageId} WHERE "id" = ${contest.id} AND "version" = ${contest.version}${inPhase}`;
}

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
    const changed = await setIfUnchanged(this.db, draft, state, { messageId }, 'draft');
    return changed === 1 ? { ...draft, state, messageId: messageId ?? draft.messageId, version: draft.version + 1 } : null;
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
    const won = await compareAndSet(this.db, async (writer) => ({ count: await setIfUnchanged(writer, contest, state, { expiresAt }) }), roll);
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
