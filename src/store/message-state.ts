/**
 * The rows that are one message's stored state (a contest, a roll request or intent, an initiative tracker). Every
 * change of one is this compare-and-set on `version`: a save that lost a race changes nothing and says so, so two
 * presses at the same moment, in one process or two, move the state exactly once. With the roll the new state shows,
 * both land in one transaction: never a state showing a roll that is not stored, nor a roll of a press that lost.
 *
 * Prisma's raw UPDATE: a state is a few kilobytes of JSON, which a model query carries through Prisma's query
 * compiler and the raw statement does not (a contest step's compare-and-set ~80 µs against ~140 µs;
 * docs/performance.md). It writes what the model's `updateMany` does, `updatedAt` included.
 */
import { Prisma } from '../generated/prisma/client.js';
import { transaction } from './database.js';
import type { Database } from './database-client.js';
import { insertRoll, type RollEntry } from './rolls.js';

/**
 * A row whose message is not in the channel yet counts toward a limit only this long after it was made: long enough
 * for its message to be posted, so starts at once cannot pass a limit; past it, a row whose message never reached
 * the channel (the reply failed, the bot died) locks nobody.
 */
export const POSTING_GRACE_MS = 60_000;

/** Rows made since this moment (by the bot's clock `now`) may still be on their way to the channel. */
export function stillPosting(now: Date): Date {
  return new Date(now.getTime() - POSTING_GRACE_MS);
}

export type MessageStateTable = 'Contest' | 'RollRequest' | 'InitiativeTracker';

/** A stored state as it was read: the version a change was decided from. */
export interface VersionedRow {
  id: number;
  guildId: string;
  version: number;
}

/** The columns a change sets beside the state (each table's own: a contest's phase and expiry, a request's phase …). */
export type StateColumns = Partial<Record<'phase' | 'dispatcherId' | 'messageId', string | null> & { expiresAt: Date }>;

export interface SaveOptions {
  /** The roll the new state shows, written in the same transaction. */
  roll?: RollEntry;
  /** Only while the row is still in this phase (a contest's draft posted once). */
  phase?: string;
  /** What else the change writes in its transaction, only if it won (the journal's entries for it). */
  also?: (tx: Prisma.TransactionClient) => Promise<unknown>;
}

/** The new state, only on the version it was decided from: true when this change won. */
export async function saveIfUnchanged(db: Database, table: MessageStateTable, row: VersionedRow, state: unknown, columns: StateColumns, options: SaveOptions = {}): Promise<boolean> {
  const set = Object.entries(columns)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => Prisma.sql`, ${Prisma.raw(`"${column}"`)} = ${value}`);
  const others = set.length > 0 ? Prisma.join(set, '') : Prisma.empty;
  const inPhase = options.phase === undefined ? Prisma.empty : Prisma.sql` AND "phase" = ${options.phase}`;
  const change = (writer: Pick<Database, '$executeRaw'>) =>
    writer.$executeRaw`UPDATE ${Prisma.raw(`"${table}"`)} SET "state" = ${JSON.stringify(state)}, "version" = "version" + 1, "updatedAt" = ${new Date()}${others} WHERE "id" = ${row.id} AND "guildId" = ${row.guildId} AND "version" = ${row.version}${inPhase}`;
  const { roll, also } = options;
  if (!roll && !also) return (await change(db)) === 1;
  return transaction(db, async (tx) => {
    if ((await change(tx)) !== 1) return false;
    if (roll) await insertRoll(tx, roll);
    if (also) await also(tx);
    return true;
  });
}
