/**
 * PostgreSQL, for a bot run as several shard processes (docs/scaling.md): opens the Prisma client over a pg pool
 * through @prisma/adapter-pg, and the store's prepared statements on the same pool (postgres-direct-writes.ts: the
 * roll log's INSERT, a contest step's reload and compare-and-set). The migrations are applied by the bot itself:
 * postgres-migrations.ts.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient as PostgresClient } from '../generated/prisma-postgres/client.js';
import type { Database, DirectWrites } from './database.js';
import { PostgresDirectWrites } from './postgres-direct-writes.js';

export type PostgresPool = pg.Pool;

/** Connections per process. A shard process answers a few interactions at a time; 10 leave room for bursts. */
const POOL_SIZE = 10;
/** No statement runs longer than this: a stuck query (or a lock never released) ends in an error, not a hang. */
export const STATEMENT_TIMEOUT_MS = 10_000;
/** A transaction left open (a crashed handler between two statements) is ended by the server after this. */
const IDLE_IN_TRANSACTION_MS = 30_000;

function poolOf(databaseUrl: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: STATEMENT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    lock_timeout: STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    application_name: 'tactalk-bot',
    // Timestamps are stored without a zone, as UTC wall time (as Prisma writes them); the session says so too.
    options: '-c TimeZone=UTC',
  });
  // An idle connection the server closed (a restart, a failover) is dropped and replaced; without a listener the
  // error would end the process.
  pool.on('error', () => undefined);
  return pool;
}

export async function openPostgres(databaseUrl: string): Promise<{ db: Database; direct: DirectWrites; pool: pg.Pool }> {
  const pool = poolOf(databaseUrl, POOL_SIZE);
  const client = new PostgresClient({
    adapter: new PrismaPg(pool),
    // A transaction waits for a connection up to maxWait; once begun, the statement timeout bounds each statement.
    transactionOptions: { maxWait: STATEMENT_TIMEOUT_MS, timeout: STATEMENT_TIMEOUT_MS },
  });
  try {
    // Reach the server now, so that a database that cannot be reached fails the start-up rather than the first
    // interaction. Prisma connects on its first query (its query compiler loads then, sqlite.ts says why).
    await pool.query('SELECT 1');
  } catch (error) {
    await client.$disconnect().catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw new Error(`could not connect to the PostgreSQL database of DATABASE_URL (${redacted(databaseUrl)}): ${(error as Error).message}`, { cause: error });
  }
  // Same models, same API (database.ts): the store uses the SQLite client's type for both.
  return { db: client as unknown as Database, direct: new PostgresDirectWrites(pool), pool };
}

/** The URL without its password, for messages and logs. */
export function redacted(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgresql://…';
  }
}
