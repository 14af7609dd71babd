/** The roll log (RULES 6.3): every roll with who, where, what, the seed, the dice and the result, under a short id. */
import { createHash, randomBytes } from 'node:crypto';
import { invocationJson, readInvocation, type RollInvocation } from '../engine/invocation.js';
import { Refused } from '../engine/refusals.js';
import { seedOrigin } from '../engine/commitment.js';
import { calibrationOf } from '../engine/replay.js';
import { Prisma } from '../generated/prisma/client.js';
import { isIdClash, transaction } from './database.js';
import type { Database } from './database-client.js';
import { noteRollSeed } from './seed-notes.js';
import { readStoredJson } from './stored-json.js';

export interface RollRecordInput {
  guildId: string;
  channelId: string;
  userId: string;
  kind: string;
  system?: string;
  inputs: unknown;
  seed: string;
  dice: unknown;
  result: unknown;
  total: number | null;
  challengeLevel: number | null;
  success: boolean | null;
  /** A Dispatcher's secret roll: only Dispatchers see its result in /log. Kept in the inputs JSON (no column). */
  secret?: boolean;
  /** The NPC a Dispatcher rolled for. Kept in the inputs JSON (no column). */
  npc?: string;
  /**
   * A roll a member typed (or repeated with Roll again, or rolled by a saved roll's name): what was typed, kept for
   * Roll again, and the id `record` stores it under (known before, for the answer's button).
   */
  typed?: { typed: RollInvocation; rollId: string };
  /** A blind roll: its result is for Dispatchers until one reveals it (src/engine/blind.ts). */
  blind?: boolean;
}

export interface StoredRoll extends Omit<RollRecordInput, 'system' | 'secret' | 'npc' | 'typed' | 'blind'> {
  id: string;
  /** What the member typed for it; null (or absent) for a roll made by a press, or before rolls kept it. */
  invocation?: RollInvocation | null;
  system: string;
  createdAt: Date;
  secret: boolean;
  /** Rolled against a CL hidden from the player (RULES 1.5): only Dispatchers see its numbers. */
  hiddenChallengeLevel: boolean;
  npc: string | null;
  blind: boolean;
  /** When a Dispatcher revealed a blind roll to the channel; null while it is hidden (and for every other roll). */
  revealedAt: Date | null;
}

/** Where a page of the roll log starts or ends: rolls are ordered by (createdAt, id). */
export interface RollCursor {
  createdAt: Date;
  id: string;
}

/** A page of the roll log, newest first, and whether there are newer / older rolls beyond it. */
export interface RollPage {
  rolls: StoredRoll[];
  newer: boolean;
  older: boolean;
}

/** The inputs as stored: with the secret / NPC facts folded in, so no column is needed for them. */
function storedInputs(roll: RollRecordInput): unknown {
  if (!roll.secret && roll.npc === undefined) return roll.inputs;
  if (typeof roll.inputs !== 'object' || roll.inputs === null || Array.isArray(roll.inputs)) {
    throw new Error('only a roll with inputs as an object can be marked secret or as an NPC roll');
  }
  return { ...roll.inputs, ...(roll.secret ? { secret: true } : {}), ...(roll.npc !== undefined ? { npc: roll.npc } : {}) };
}

/*
 * A page of the roll log is Prisma's raw query: a page after a cursor is "(createdAt, id) before the cursor's", which
 * as a model query is an OR of two conditions that neither database keeps to the index. On PostgreSQL with 1M rolls,
 * /log user:X of a member with 100,000 rolls took ~230 ms a page that way, its "newer" check reading every one of
 * the member's rolls; as one row comparison the index (guildId, userId, createdAt, id) takes it in order
 * (docs/performance.md).
 */
const olderThan = (cursor: RollCursor) => Prisma.sql` AND ("createdAt", "id") < (${cursor.createdAt}, ${cursor.id})`;
const newerThan = (cursor: RollCursor) => Prisma.sql` AND ("createdAt", "id") > (${cursor.createdAt}, ${cursor.id})`;
const NEWEST_FIRST = Prisma.sql` ORDER BY "createdAt" DESC, "id" DESC`;
const OLDEST_FIRST = Prisma.sql` ORDER BY "createdAt" ASC, "id" ASC`;

/** A result's post begun and not yet known to have reached the channel (Roll.messageId holds the mark). */
const POSTING_MARK = 'posting:';

/** Short ids people can read aloud: 8 characters, no look-alikes (0/o, 1/l/i). */
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
export const ROLL_ID_PATTERN = /^[23456789abcdefghjkmnpqrstuvwxyz]{8}$/;

/** A new roll id from the operating system's randomness (the bot's; tests fix theirs through openStore). */
export function randomRollId(): string {
  return rollIdOf(randomBytes(8));
}

/** A roll id from 8 bytes: each picks one of the id's letters. */
export function rollIdOf(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 8), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

/**
 * The id a roll made *from* another one gets (e.g. the next table of an outcome roll): the same parent and label
 * always give the same id, so whether that roll was already made is a look-up in the roll log.
 */
export function derivedRollId(parentId: string, label: string): string {
  return rollIdOf(createHash('sha256').update(`${parentId}:${label}`).digest());
}

/** A roll's row in the log: ready to be written, or as read back. */
export interface RollEntry {
  id: string;
  guildId: string;
  channelId: string;
  userId: string;
  kind: string;
  system: string;
  inputs: string;
  seed: string;
  dice: string;
  result: string;
  total: number | null;
  challengeLevel: number | null;
  success: boolean | null;
  createdAt: Date;
  /** The exact chance of success the roll had, and its D100 face (`/stats`): from its kind, never typed by a caller. */
  odds: number | null;
  d100: number | null;
  /** JSON: what the member typed (RollInvocation), for Roll again; null for a roll made by a press. */
  invocation: string | null;
  /** The session whose committed secret the seed derives from, and its index there (commit and reveal): read from the seed. */
  sessionId: number | null;
  seedIndex: number | null;
  /** A blind roll, and when a Dispatcher revealed it (src/engine/blind.ts). */
  blind: boolean;
  revealedAt: Date | null;
}

/** The roll log's columns: the one list every INSERT and page of the log uses. */
const ROLL_COLUMNS = ['id', 'guildId', 'channelId', 'userId', 'kind', 'system', 'inputs', 'seed', 'dice', 'result', 'total', 'challengeLevel', 'success', 'createdAt', 'odds', 'd100', 'invocation', 'sessionId', 'seedIndex', 'blind', 'revealedAt'] as const;
const ROLL_COLUMN_LIST = Prisma.raw(ROLL_COLUMNS.map((column) => `"${column}"`).join(', '));

/**
 * Writes a roll's row, on its own (`writer` is the client) or inside another change's transaction (`writer` is that
 * transaction). Prisma's raw INSERT: it is on the path of every roll's reply and of a contest's rolling step, where a
 * model `create` costs about twice as much (it reads the row back) and `createMany` four times (it opens a
 * transaction), most of what a /roll costs the bot (docs/performance.md). The adapters store a Date and a boolean
 * as `create` does (test/store/rolls.test.ts).
 */
export async function insertRoll(writer: Pick<Database, '$executeRaw'>, row: RollEntry): Promise<void> {
  await writer.$executeRaw`INSERT INTO "Roll" (${ROLL_COLUMN_LIST}) VALUES (${Prisma.join(ROLL_COLUMNS.map((column) => row[column]))})`;
}

export class RollLog {
  /** Rolls made within one millisecond still list in the order they were made. */
  private lastCreatedAt = 0;
  /** The typed rolls this process recorded: whether a handler's answer has a roll to offer again, without a read. */
  private readonly recordedTyped = new WeakSet<object>();

  constructor(
    private readonly db: Database,
    /** Where new roll ids come from: random, or a fixed sequence in tests, so a run is the same twice. */
    readonly newId: () => string = randomRollId,
  ) {}

  /** Whether `typed` made its roll here, keeping what was typed (an invocation too long to keep is not kept). */
  madeAndKept(typed: { typed: RollInvocation; rollId: string }): boolean {
    return this.recordedTyped.has(typed) && invocationJson(typed.typed) !== null;
  }

  private nextCreatedAt(): Date {
    this.lastCreatedAt = Math.max(Date.now(), this.lastCreatedAt + 1);
    return new Date(this.lastCreatedAt);
  }

  /**
   * A roll as the log stores it, for a write that must land with another change or not at all: pass it to the
   * store's change that writes it in its transaction (a contest's or roll request's `save`, `changeAttribute`).
   */
  entry(id: string, roll: RollRecordInput): RollEntry {
    // Every roll's row is made here: its odds come from its kind once, not from each of the commands that roll.
    const { odds, d100 } = calibrationOf(roll.kind, roll.inputs, roll.seed);
    // Read from the seed here, for every roll at once: a seed derived from a session names its session and index.
    const origin = seedOrigin(roll.seed);
    noteRollSeed(id, roll.seed);
    return {
      id,
      guildId: roll.guildId,
      channelId: roll.channelId,
      userId: roll.userId,
      kind: roll.kind,
      system: roll.system ?? 'tactalk',
      inputs: JSON.stringify(storedInputs(roll)),
      seed: roll.seed,
      dice: JSON.stringify(roll.dice),
      result: JSON.stringify(roll.result),
      total: roll.total,
      challengeLevel: roll.challengeLevel,
      success: roll.success,
      createdAt: this.nextCreatedAt(),
      // A verdict's odds only: a row whose success is not stored has nothing to weigh them against.
      odds: roll.success === null ? null : odds,
      d100,
      invocation: roll.typed ? invocationJson(roll.typed.typed) : null,
      sessionId: origin?.sessionId ?? null,
      seedIndex: origin?.seedIndex ?? null,
      blind: roll.blind === true,
      revealedAt: null,
    };
  }

  private async insert(id: string, roll: RollRecordInput): Promise<void> {
    await insertRoll(this.db, this.entry(id, roll));
  }

  /**
   * Stores a roll under a new id. A roll whose id must be known first (shown by a state saved with it) or that must
   * be made at most once goes through `entry` in that state's transaction, or `recordOnce`.
   */
  async record(roll: RollRecordInput): Promise<string> {
    if (roll.typed) {
      // Its id is the one its answer's Roll again names, or a Roll again's own (one roll per press): never another.
      if (await this.recordOnce(roll.typed.rollId, roll)) {
        this.recordedTyped.add(roll.typed);
        return roll.typed.rollId;
      }
      throw new Refused({ kind: 'already-rolled-again' });
    }
    for (let attempt = 0; ; attempt++) {
      const id = this.newId();
      try {
        await this.insert(id, roll);
        return id;
      } catch (error) {
        // A clash of random ids is astronomically rare; anything else is a real failure.
        if (attempt >= 3 || !isIdClash(error)) throw error;
      }
    }
  }

  /**
   * Stores a roll that must be made at most once (a step of a cumulative roll, a push, applying damage) under
   * exactly `id`, usually a `derivedRollId`. False, and nothing stored, when that id is taken: a second press, in
   * this process or another, finds it so. The clash is the answer; it is never retried under another id.
   */
  async recordOnce(id: string, roll: RollRecordInput): Promise<boolean> {
    try {
      await this.insert(id, roll);
      return true;
    } catch (error) {
      if (isIdClash(error)) return false;
      throw error;
    }
  }

  /**
   * `recordOnce`, unless one of the rolls `unless` names is stored (a push voids a tie's re-roll decided without
   * it): checked in the same transaction, so of two such rolls made at once only one lands.
   */
  async recordOnceUnless(id: string, roll: RollRecordInput, unless: readonly string[]): Promise<'recorded' | 'already made' | 'voided'> {
    if (unless.length === 0) return (await this.recordOnce(id, roll)) ? 'recorded' : 'already made';
    try {
      return await transaction(this.db, async (tx) => {
        if ((await tx.roll.count({ where: { id: { in: [...unless] } } })) > 0) return 'voided';
        await insertRoll(tx, this.entry(id, roll));
        return 'recorded';
      });
    } catch (error) {
      if (isIdClash(error)) return 'already made';
      throw error;
    }
  }

  /** A roll of this server by its id; a roll of another server is not found, exactly as an id never used. */
  async find(guildId: string, id: string): Promise<StoredRoll | null> {
    const row = await this.db.roll.findUnique({ where: { id, guildId } });
    return row ? fromRow(row) : null;
  }

  /**
   * Where a result posted on its own (a next table's roll, a request's consequence) stands: in the channel as a
   * message; begun and not known to have ended (`pending`, the mark its post left: the bot may have died after
   * Discord took it, before it learnt the message); or never begun (null).
   */
  async posting(guildId: string, id: string): Promise<{ messageId: string } | { pending: string } | null> {
    const row = await this.db.roll.findUnique({ where: { id, guildId }, select: { messageId: true } });
    if (!row?.messageId) return null;
    return row.messageId.startsWith(POSTING_MARK) ? { pending: row.messageId } : { messageId: row.messageId };
  }

  /**
   * Marks a result's post as begun, if it still stands as `from` (never begun, or the pending mark read before):
   * the new mark, or null when another press marked or posted it first.
   */
  async claimPosting(guildId: string, id: string, from: string | null): Promise<string | null> {
    const mark = `${POSTING_MARK}${randomBytes(6).toString('hex')}`;
    const { count } = await this.db.roll.updateMany({ where: { id, guildId, messageId: from }, data: { messageId: mark } });
    return count === 1 ? mark : null;
  }

  /** Records the message a result was posted as, over the mark its post left; false when another press recorded one. */
  async markPosted(guildId: string, id: string, mark: string, messageId: string): Promise<boolean> {
    const { count } = await this.db.roll.updateMany({ where: { id, guildId, messageId: mark }, data: { messageId } });
    return count === 1;
  }

  /**
   * Reveals a blind roll to everyone: true for the one press that did it, false when it was revealed already (or is
   * not blind), so two Dispatchers' presses at once post its result once.
   */
  async reveal(guildId: string, id: string, at: Date): Promise<boolean> {
    const { count } = await this.db.roll.updateMany({ where: { id, guildId, blind: true, revealedAt: null }, data: { revealedAt: at } });
    return count === 1;
  }

  /** Takes back a reveal whose post never reached the channel, so the next press reveals it again. */
  async unreveal(guildId: string, id: string, at: Date): Promise<void> {
    await this.db.roll.updateMany({ where: { id, guildId, blind: true, revealedAt: at }, data: { revealedAt: null } });
  }

  /** A roll of this server by the id a user typed; a clear error when there is none. */
  async require(guildId: string, typedId: string): Promise<StoredRoll> {
    const id = typedId.trim().toLowerCase();
    const roll = ROLL_ID_PATTERN.test(id) ? await this.find(guildId, id) : null;
    if (!roll) throw new Refused({ kind: 'no-such-roll', typed: typedId.trim().slice(0, 20) });
    return roll;
  }

  /** The newest rolls of every server: for the sandbox's roll list and tests, never for a user's interaction. */
  async latestOfAllServers(limit: number): Promise<StoredRoll[]> {
    const rows = await this.db.roll.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
    return rows.map(fromRow);
  }

  /**
   * A page of one server's rolls (only `userId`'s when given), newest first: the `limit` rolls just older than
   * `before`, or just newer than `after`, or the newest ones when neither is given.
   */
  async page(guildId: string, options: { userId?: string | null; limit: number; before?: RollCursor; after?: RollCursor }): Promise<RollPage> {
    const scope = options.userId ? Prisma.sql`"guildId" = ${guildId} AND "userId" = ${options.userId}` : Prisma.sql`"guildId" = ${guildId}`;
    const select = (where: Prisma.Sql, order: Prisma.Sql, limit: number) =>
      this.db.$queryRaw<RollEntry[]>`SELECT ${ROLL_COLUMN_LIST} FROM "Roll" WHERE ${scope}${where}${order} LIMIT ${limit}`;
    const rows = options.after
      ? (await select(newerThan(options.after), OLDEST_FIRST, options.limit)).reverse()
      : await select(options.before ? olderThan(options.before) : Prisma.empty, NEWEST_FIRST, options.limit);
    const rolls = rows.map(fromRow);
    const newest = rolls[0] ?? options.before;
    const oldest = rolls.at(-1) ?? options.after;
    const exists = async (where: Prisma.Sql, order: Prisma.Sql) => (await this.db.$queryRaw<unknown[]>`SELECT "id" FROM "Roll" WHERE ${scope}${where}${order} LIMIT 1`).length > 0;
    return {
      rolls,
      newer: newest ? await exists(newerThan(newest), OLDEST_FIRST) : false,
      older: oldest ? await exists(olderThan(oldest), NEWEST_FIRST) : false,
    };
  }
}

/**
 * A roll's stored inputs read, and what they say of it: a Dispatcher's `secret:` roll, the NPC it was rolled for, and
 * a hidden CL (marked on each part of a linked roll). Every reader of the roll log takes them from here.
 */
export function rollInputFacts(row: Pick<RollEntry, 'id' | 'inputs'>): { inputs: unknown; secret: boolean; npc: string | null; hiddenChallengeLevel: boolean } {
  const inputs = readStoredJson(row.inputs, { table: 'Roll', id: row.id, column: 'inputs' });
  const facts = typeof inputs === 'object' && inputs !== null && !Array.isArray(inputs) ? (inputs as { secret?: unknown; npc?: unknown }) : {};
  return {
    inputs,
    secret: facts.secret === true,
    npc: typeof facts.npc === 'string' ? facts.npc : null,
    hiddenChallengeLevel: (Array.isArray(inputs) ? inputs : [inputs]).some((input) => (input as { hidden?: unknown } | null)?.hidden === true),
  };
}

/** A stored row (the same columns as a RollEntry) as the roll it records. */
function fromRow(row: RollEntry): StoredRoll {
  const { inputs, secret, npc, hiddenChallengeLevel } = rollInputFacts(row);
  return {
    ...row,
    inputs,
    dice: readStoredJson(row.dice, { table: 'Roll', id: row.id, column: 'dice' }),
    result: readStoredJson(row.result, { table: 'Roll', id: row.id, column: 'result' }),
    invocation: row.invocation === null || row.invocation === undefined ? null : readInvocation(row.invocation),
    secret,
    npc,
    // A raw page may read SQLite's boolean as 0 / 1 and its time as a number or text.
    blind: Boolean(row.blind),
    revealedAt: row.revealedAt === null || row.revealedAt === undefined ? null : new Date(row.revealedAt),
    hiddenChallengeLevel,
  };
}
