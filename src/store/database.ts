/**
 * The database the bot runs on, chosen by DATABASE_URL: `file:` → SQLite (sqlite.ts, the embedded default),
 * `postgresql://` → PostgreSQL (postgres.ts, for several shard processes). Both are one Prisma client over the same
 * models, and the store above sees no difference but the few facts named here.
 */
import { isPostgresUrl } from '../config.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { PostgresPool } from './postgres.js';

/**
 * The client the store talks to. Typed as the SQLite client: the PostgreSQL one (generated from the same models by
 * `npm run schema:postgres`) has the same model API, plus options for PostgreSQL only that the store does not use.
 */
export type Database = PrismaClient;

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
 * database: Prisma's P2002 from a model query, P2010 with the adapter's unique violation from raw SQL, and the
 * driver's own code from DirectWrites (SQLite's SQLITE_CONSTRAINT_PRIMARYKEY, PostgreSQL's unique_violation 23505).
 */
export function isIdClash(error: unknown): boolean {
  const { code, meta } = error as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  return (
    code === 'P2002' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505' ||
    (code === 'P2010' && meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation')
  );
}

/**
 * The store's own connection for the one write on the path of every roll: a statement prepared once, since Prisma's
 * query pipeline is most of what a roll costs (rolls.ts). Single statements only, never inside a transaction.
 */
export interface DirectWrites {
  /** Inserts one row; a Date and a boolean are stored as Prisma stores them. Errors are the driver's own. */
  insert(table: string, columns: readonly string[], values: readonly unknown[]): Promise<void>;
  close(): Promise<void>;
}

/** The direct writes' statement: `INSERT INTO "Roll" ("id", …) VALUES (…)`, each value the dialect's `placeholder`. */
export function insertStatement(table: string, columns: readonly string[], placeholder: (index: number) => string): string {
  return `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map((_, index) => placeholder(index)).join(', ')})`;
}

export interface OpenDatabase {
  db: Database;
  dialect: Dialect;
  direct: DirectWrites;
  /** PostgreSQL's connection pool (for LISTEN/NOTIFY and advisory locks); null on SQLite. */
  pool: PostgresPool | null;
  close(): Promise<void>;
}

// Each database's driver and Prisma client are loaded when it is opened: a bot on SQLite never loads PostgreSQL's
// (about 150 ms of a cold start), and the other way round.

export async function openDatabase(databaseUrl: string): Promise<OpenDatabase> {
  if (dialectOf(databaseUrl) === 'postgresql') {
    const { openPostgres } = await import('./postgres.js');
    const { db, direct, pool } = await openPostgres(databaseUrl);
    return {
      db,
      dialect: 'postgresql',
      direct,
      pool,
      close: async () => {
        await direct.close();
        await db.$disconnect();
        await pool.end();
      },
    };
  }
  const { openSqlite } = await import('./sqlite.js');
  const { db, direct } = await openSqlite(databaseUrl);
  return {
    db,
    dialect: 'sqlite',
    direct,
    pool: null,
    close: async () => {
      await direct.close();
      await db.$disconnect();
    },
  };
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

/** Prisma's "write conflict or deadlock, please retry" (P2034), which the PostgreSQL adapter reports for 40001 and 40P01. */
function isWriteConflict(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2034';
}

/**
 * Runs `work` as one serializable transaction: it sees and changes the database as if nothing else ran meanwhile,
 * on both databases. SQLite gets that by running one writer at a time (sqlite.ts); PostgreSQL by failing one of two
 * transactions that overlap, which is run again here, from the start, after a short random pause. So `work` must
 * only touch the database through `tx` and have no other effect. Inside it, write through `tx`, never the client.
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
