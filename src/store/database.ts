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

/** One statement for DirectWrites: SQL with `?` for each value, in order (each dialect numbers them as it must). */
export interface DirectStatement {
  sql: string;
  values: readonly unknown[];
}

/**
 * The store's own connection for the statements on the path of every roll and every contest step, each prepared
 * once: Prisma 6 compiles every query anew (about 1–2 ms each), most of what a roll or a press costs otherwise
 * (rolls.ts, contests.ts). Values go in as Prisma writes them (a Date, a boolean); errors are the driver's own
 * (`isIdClash` knows them). On SQLite a statement meeting another writer's lock waits as Prisma's do (sqlite-locks.ts).
 */
export interface DirectWrites {
  /** Runs one statement; how many rows it changed. */
  run(statement: DirectStatement): Promise<number>;
  /** The rows one statement returns. A DateTime column comes as the driver gives it: read it with `storedDate`. */
  rows<Row>(statement: DirectStatement): Promise<Row[]>;
  /**
   * Runs the statements in order in one transaction, as long as each changes a row: true when all did; when one
   * changes none (a compare-and-set that lost), false and none of them stays.
   */
  changeAll(statements: readonly DirectStatement[]): Promise<boolean>;
  close(): Promise<void>;
}

/** `INSERT INTO "Roll" ("id", …) VALUES (?, …)`. */
export function insertStatement(table: string, columns: readonly string[], values: readonly unknown[]): DirectStatement {
  return { sql: `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, values };
}

/** A Boolean column as a direct read returns it: PostgreSQL's driver gives a boolean, SQLite the 0 or 1 written. */
export function storedBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === 1n;
}

/**
 * A DateTime column as a direct read returns it: PostgreSQL's driver gives a Date (postgres-direct-writes.ts reads
 * it as UTC); SQLite gives what was written: Prisma's ISO text, milliseconds from older files, or SQLite's own
 * `YYYY-MM-DD HH:MM:SS` (UTC, no zone).
 */
export function storedDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  const text = String(value);
  return new Date(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
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
