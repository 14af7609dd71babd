/**
 * PostgreSQL failures that are nobody's doing but the database's load or reachability: a statement or lock wait
 * that ran out, no free connection in time, a connection lost. The user is told the database is busy or out of
 * reach and to try again in a moment (src/views/messages.ts words it), the operator gets a warning. And a write the
 * database refused for want of space or permission, on either database (`databaseUnwritable`): the user is told
 * nothing was saved and to tell the admin, the operator gets an error with the database's own code.
 *
 * They reach the store in several shapes: pg's own error (the lock pool, the roll log's direct insert), and Prisma's
 * wrapping of it (a DriverAdapterError with the driver's code, a known request error with a P-code and the
 * adapter's error in its meta). The whole chain is looked through.
 */

export type DatabaseTrouble = 'busy' | 'unreachable';

/**
 * A statement of a transaction that had already ended (ran out of time, or failed) is not sent: on its connection it
 * would run outside any transaction. It carries Prisma's own code for a transaction that ran out of time (P2028), so
 * the user hears that the database is busy, as Prisma's own refusal of such a transaction says.
 */
export class TransactionEndedError extends Error {
  readonly code = 'P2028';

  constructor() {
    super('a statement of a transaction that had already ended was not sent');
  }
}

/**
 * PostgreSQL's SQLSTATEs: query_canceled (statement_timeout), lock_not_available (lock_timeout), too many
 * connections, and serialization failure / deadlock (reaching here only once `transaction` ran out of retries: many
 * changes to one row at once).
 */
const BUSY_STATES = new Set(['57014', '55P03', '53300', '40001', '40P01']);
/** admin_shutdown, crash_shutdown, cannot_connect_now, and the connection exceptions (class 08). */
const UNREACHABLE_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
/** The adapter's kinds, and the P-codes Prisma gives them. */
const BUSY_KINDS = new Set(['SocketTimeout', 'TooManyConnections', 'TransactionWriteConflict', 'P1008', 'P2024', 'P2028', 'P2034', 'P2037']);
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'P1001', 'P1002', 'P1017']);
/** pg and pg-pool say these in words only. */
const BUSY_WORDS = [/timeout exceeded when trying to connect/i, /Unable to start a transaction in the given time/i, /Query read timeout/i];
const UNREACHABLE_WORDS = [/Connection terminated/i, /Client has encountered a connection error/i, /ECONNREFUSED|ECONNRESET/];

function troubleOf(error: Record<string, unknown>): DatabaseTrouble | null {
  for (const field of ['code', 'originalCode', 'kind']) {
    const value = error[field];
    if (typeof value !== 'string') continue;
    if (BUSY_STATES.has(value) || BUSY_KINDS.has(value)) return 'busy';
    if (UNREACHABLE_STATES.has(value) || UNREACHABLE_KINDS.has(value)) return 'unreachable';
  }
  const message = typeof error.message === 'string' ? error.message : '';
  if (BUSY_WORDS.some((words) => words.test(message))) return 'busy';
  if (UNREACHABLE_WORDS.some((words) => words.test(message))) return 'unreachable';
  return null;
}

/**
 * The error and every error it wraps, as PostgreSQL's failures reach the store in several shapes: pg's own error,
 * the adapter's DriverAdapterError (its `cause`), and Prisma's known request error (its `meta.driverAdapterError`).
 */
export function* errorChain(error: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const record = next as Record<string, unknown>;
    yield record;
    queue.push(record.cause, (record.meta as Record<string, unknown> | undefined)?.driverAdapterError);
  }
}

/**
 * Why the database refused a write that nobody can retry away: the disk is full, the database (its file, its disk,
 * a PostgreSQL standby) is read-only, or the disk failed. The operator must act; the user is told nothing was saved.
 */
export type UnwritableReason = 'full' | 'read-only' | 'disk-error';

export interface DatabaseUnwritable {
  reason: UnwritableReason;
  /** The database's own code, as the operator looks it up: SQLITE_FULL, SQLITE_READONLY_…, SQLITE_IOERR_…, 53100… */
  code: string;
}

/**
 * SQLite's result codes (better-sqlite3's `code`, the adapter's `originalCode`; the extended ones too, such as
 * SQLITE_IOERR_WRITE or SQLITE_READONLY_DBMOVED) and PostgreSQL's SQLSTATEs: disk_full, read_only_sql_transaction,
 * io_error.
 */
const UNWRITABLE_CODES: Array<[RegExp, UnwritableReason]> = [
  [/^(SQLITE_FULL|53100)$/, 'full'],
  [/^(SQLITE_READONLY(_\w+)?|25006)$/, 'read-only'],
  [/^(SQLITE_IOERR(_\w+)?|58030)$/, 'disk-error'],
];

/** The database refused a write for want of space or permission (`DatabaseUnwritable`), anywhere in the chain; else null. */
export function databaseUnwritable(error: unknown): DatabaseUnwritable | null {
  for (const record of errorChain(error)) {
    for (const field of ['originalCode', 'code']) {
      const code = record[field];
      if (typeof code !== 'string') continue;
      const known = UNWRITABLE_CODES.find(([pattern]) => pattern.test(code));
      if (known) return { reason: known[1], code };
    }
  }
  return null;
}

/** Whether `error` is the database's load ('busy') or reach ('unreachable'), not a fault of the bot's; else null. */
export function databaseTrouble(error: unknown): DatabaseTrouble | null {
  for (const record of errorChain(error)) {
    const trouble = troubleOf(record);
    if (trouble) return trouble;
  }
  return null;
}
