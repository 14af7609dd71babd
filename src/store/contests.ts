/**
 * Contests in the database. Every change is a compare-and-set on `version`: a save that lost a race changes
 * nothing and says so, so two presses at the same moment move the state exactly once.
 */
import { contestStateSchema, OPEN_PHASES, postContest, type ContestPhase, type ContestState } from '../engine/systems/tactalk/contest.js';
import { isRowId, storedDate, type Database, type DirectStatement, type DirectWrites } from './database.js';
import type { Turns } from './locks.js';
import { rollInsert, type RollEntry } from './rolls.js';
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

/** A Contest row as Prisma or the direct statements read it; `expiresAt` as the driver gives it (`storedDate`). */
type ContestRow = { id: number; guildId: string; channelId: string; messageId: string | null; version: number; state: string; expiresAt: unknown };

function fromRow(row: ContestRow): StoredContest {
  return { id: row.id, guildId: row.guildId, channelId: row.channelId, messageId: row.messageId, version: row.version, state: readStored(contestStateSchema, row.state, { table: 'Contest', id: row.id, column: 'state' }), expiresAt: storedDate(row.expiresAt) };
}

/*
 * A step's statements (its reload, its compare-and-set, the open-contest count, a new contest) run on the store's
 * direct statements, prepared once, not through Prisma, which compiles each query anew (1–2 ms each, several a
 * step; database.ts). They write what Prisma's `create`/`updateMany` would, `updatedAt` included. So does the
 * expiry sweep's read, which runs as the bot starts (servers.ts says why). The limit's list stays with Prisma.
 */
const CONTEST_COLUMNS = '"id", "guildId", "channelId", "messageId", "version", "state", "expiresAt"';

/** The compare-and-set: the new state, only on the version it was decided from (and `phase`, when given). */
function compareAndSetStatement(contest: StoredContest, state: ContestState, set: { expiresAt?: Date; messageId?: string | null }, phase?: ContestPhase): DirectStatement {
  const columns = ['"state" = ?', '"phase" = ?', '"version" = "version" + 1', '"updatedAt" = ?'];
  const values: unknown[] = [JSON.stringify(state), state.phase, new Date()];
  for (const [column, value] of Object.entries(set)) {
    if (value === undefined || value === null) continue;
    columns.push(`"${column}" = ?`);
    values.push(value);
  }
  return {
    sql: `UPDATE "Contest" SET ${columns.join(', ')} WHERE "id" = ? AND "version" = ?${phase ? ' AND "phase" = ?' : ''}`,
    values: [...values, contest.id, contest.version, ...(phase ? [phase] : [])],
  };
}

export class ContestStore {
  constructor(
    private readonly db: Database,
    private readonly turns: Turns,
    private readonly direct: DirectWrites,
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
    const now = new Date();
    const [row] = await this.direct.rows<{ id: number }>({
      sql: 'INSERT INTO "Contest" ("guildId", "channelId", "challengerId", "opponentId", "phase", "version", "state", "expiresAt", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING "id"',
      values: [input.guildId, input.channelId, input.state.challenger.userId, input.state.opponent.userId, input.state.phase, JSON.stringify(input.state), input.expiresAt, now, now],
    });
    return { id: row!.id, guildId: input.guildId, channelId: input.channelId, messageId: null, version: 0, state: input.state, expiresAt: input.expiresAt };
  }

  /**
   * The draft's opening message is in the channel: the contest becomes proposed, on that message, in one
   * compare-and-set. Null when it was posted or changed since it was read (another press got there first).
   */
  async post(draft: StoredContest, messageId: string | null): Promise<StoredContest | null> {
    const state = postContest(draft.state);
    const changed = await this.direct.run(compareAndSetStatement(draft, state, { messageId }, 'draft'));
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
    const [row] = await this.direct.rows<ContestRow>({ sql: `SELECT ${CONTEST_COLUMNS} FROM "Contest" WHERE "id" = ? AND "guildId" = ?`, values: [id, guildId] });
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
    const change = compareAndSetStatement(contest, state, { expiresAt });
    const won = roll ? await this.direct.changeAll([change, rollInsert(roll)]) : (await this.direct.run(change)) === 1;
    return won ? { ...contest, state, expiresAt, version: contest.version + 1 } : null;
  }

  /** How many contests a user takes part in that are still open, on this server. */
  async openCount(guildId: string, userId: string): Promise<number> {
    // Cast: PostgreSQL's COUNT is a bigint, which its driver gives as text.
    const [row] = await this.direct.rows<{ open: number }>({
      sql: `SELECT CAST(COUNT(*) AS INTEGER) AS "open" FROM "Contest" WHERE "guildId" = ? AND "phase" IN (${OPEN_PHASES.map(() => '?').join(', ')}) AND ("challengerId" = ? OR "opponentId" = ?)`,
      values: [guildId, ...OPEN_PHASES, userId, userId],
    });
    return row!.open;
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
   * servers `owns` accepts (this process's shards; the others are swept by their own process). A row whose state no
   * longer reads goes to `unreadable` and is passed over, so one damaged contest does not stop every other one expiring.
   */
  async overdue(now: Date, limit = 100, owns: (guildId: string) => boolean = () => true, unreadable: (id: number, error: unknown) => void = () => {}): Promise<StoredContest[]> {
    const found: StoredContest[] = [];
    for (let skip = 0; found.length < limit; skip += OVERDUE_PAGE) {
      const rows = await this.direct.rows<ContestRow>({
        sql: `SELECT ${CONTEST_COLUMNS} FROM "Contest" WHERE "phase" IN (${EXPIRING_PHASES.map(() => '?').join(', ')}) AND "expiresAt" <= ? ORDER BY "expiresAt" ASC, "id" ASC LIMIT ? OFFSET ?`,
        values: [...EXPIRING_PHASES, now, OVERDUE_PAGE, skip],
      });
      for (const row of rows) {
        if (found.length >= limit || !owns(row.guildId)) continue;
        try {
          found.push(fromRow(row));
        } catch (error) {
          unreadable(row.id, error);
        }
      }
      if (rows.length < OVERDUE_PAGE) break;
    }
    return found;
  }
}
