/**
 * The database the bot runs on, chosen by DATABASE_URL: `file:` → SQLite (sqlite.ts, the embedded default),
 * `postgresql://` → PostgreSQL (postgres.ts, for several shard processes). Both are one Prisma client over the same
 * models, and the store above sees no difference but the few facts named here.
 */
import { isPostgresUrl } from '../config.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Database } from './database-client.js';
import type { PostgresPool } from './postgres.js';
import type { SqlDriverAdapter } from './sqlite-adapter.js';
import { errorChain } from './unavailable.js';

export type Dialect = 'sqlite' | 'postgresql';

export function dialectOf(databaseUrl: string): Dialect {
  return isPostgresUrl(databaseUrl) ? 'postgresql' : 'sqlite';
}

/**
 * Whether `id` can be a row id (a positive 32-bit Int, as Prisma's `Int` takes). Ids parsed from a custom_id or
 * typed text may be NaN, fractional or huge; Prisma throws on those instead of finding nothing.
 */
export function isRowId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;
}

/**
 * Whether `error` says a row's id (or another unique key) is taken, in every shape that reaches the store on either
 * database: Prisma's P2002 from a model query, and P2010 with the adapter's unique violation from a raw query.
 */
export function isIdClash(error: unknown): boolean {
  const { code, meta } = error as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  return code === 'P2002' || (code === 'P2010' && meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation');
}

export interface OpenDatabase {
  db: Database;
  dialect: Dialect;
  /** PostgreSQL's connection pool (for LISTEN/NOTIFY and advisory locks); null on SQLite. */
  pool: PostgresPool | null;
  /** SQLite's one connection, as Prisma's client uses it (for the start-up's maintenance, name-keys.ts); null on PostgreSQL. */
  sqlite: SqlDriverAdapter | null;
  close(): Promise<void>;
}

// Each database's driver and Prisma client are loaded when it is opened: a bot on SQLite never loads PostgreSQL's
// (about 150 ms of a cold start), and the other way round.

export async function openDatabase(databaseUrl: string): Promise<OpenDatabase> {
  if (dialectOf(databaseUrl) === 'postgresql') {
    const { openPostgres } = await import('./postgres.js');
    const { db, pool } = await openPostgres(databaseUrl);
    const warming = warmUp(db);
    return {
      db,
      dialect: 'postgresql',
      pool,
      sqlite: null,
      close: async () => {
        await warming;
        await db.$disconnect();
        await pool.end();
      },
    };
  }
  const { openSqlite } = await import('./sqlite.js');
  const { db, connection, close } = await openSqlite(databaseUrl);
  const warming = warmUp(db);
  return {
    db,
    dialect: 'sqlite',
    pool: null,
    sqlite: connection,
    close: async () => {
      await warming;
      await close();
    },
  };
}

/**
 * Starts Prisma's client (its query compiler, ~60–80 ms) in the background: a bot opens its store while the gateway
 * handshake waits for Discord, and its first command then finds Prisma ready. A failure here is met again, and
 * answered, by the first query.
 */
function warmUp(db: Database): Promise<void> {
  return db.$connect().catch(() => undefined);
}

/** Applies the migrations the database has not applied yet, creating it (SQLite: the file) if needed. */
export async function migrateDatabase(databaseUrl: string): Promise<string> {
  if (dialectOf(databaseUrl) === 'postgresql') return (await import('./postgres-migrations.js')).migratePostgres(databaseUrl);
  return (await import('./sqlite-migrations.js')).migrateSqlite(databaseUrl);
}

/**
 * How often a transaction that lost to a concurrent one (PostgreSQL's serialization failure, a deadlock) is run:
 * twenty changes at once to one sheet went through with 10 attempts and backing off, where 5 quick ones left a third
 * of them "busy". The pauses double up to 100 ms, with jitter so the losers do not meet again; about half a second
 * at most in all, well inside an interaction's time.
 */
const TRANSACTION_ATTEMPTS = 10;
const CONFLICT_PAUSE_FIRST_MS = 2;
const CONFLICT_PAUSE_MAX_MS = 100;

/** PostgreSQL's serialization_failure and deadlock_detected. */
const CONFLICT_STATES = new Set(['40001', '40P01']);
/** Prisma's P2034 and the driver adapter's kind for them. */
const CONFLICT_KINDS = new Set(['P2034', 'TransactionWriteConflict']);

/**
 * Whether `error` is a write conflict or deadlock that running the transaction again can resolve, wherever it was
 * raised: at a statement Prisma reports P2034; at COMMIT the adapter's own error arrives (kind
 * TransactionWriteConflict, or the driver's SQLSTATE), possibly wrapped (`errorChain`).
 */
export function isWriteConflict(error: unknown): boolean {
  for (const record of errorChain(error)) {
    for (const field of ['code', 'kind', 'originalCode']) {
      const value = record[field];
      if (typeof value === 'string' && (CONFLICT_KINDS.has(value) || CONFLICT_STATES.has(value))) return true;
    }
  }
  return false;
}

/**
 * Runs `work` as one serializable transaction: it sees and changes the database as if nothing else ran meanwhile,
 * on both databases. SQLite gets that by running one writer at a time (sqlite-adapter.ts); PostgreSQL by failing one
 * of two transactions that overlap, at a statement or at COMMIT, which is run again here, from the start, after a
 * short random pause. So `work` must only touch the database through `tx` and have no other effect. Inside it,
 * read and write through `tx`, never the client: on SQLite the client waits for this transaction to end.
 */
export async function transaction<T>(db: Database, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(work, { isolationLevel: 'Serializable' });
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isWriteConflict(error)) throw error;
      const pause = Math.min(CONFLICT_PAUSE_MAX_MS, CONFLICT_PAUSE_FIRST_MS * 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
    }
  }
}
