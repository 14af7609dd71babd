/**
 * PostgreSQL, for a bot run as several shard processes (docs/scaling.md): the one place that opens connections to
 * it. One pool per process, which Prisma's client uses through @prisma/adapter-pg, and from which the cache bus's
 * listening connection (cache-bus.ts) and the contests' turns (locks.ts) take theirs. The migrations are applied by
 * the bot itself (postgres-migrations.ts), on a pool of their own opened here for that step only.
 */
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { AsyncQueue } from '@sapphire/async-queue';
import pg from 'pg';
import { PrismaClient as PostgresClient } from '../generated/prisma-postgres/client.js';
import { redactPasswords } from '../log.js';
import type { Database } from './database-client.js';
import { TURN_CONNECTIONS } from './locks.js';
import { TransactionEndedError } from './unavailable.js';

export type PostgresPool = pg.Pool;

/** Connections for the bot's queries per process. A shard process answers a few interactions at a time; 10 leave room for bursts. */
const QUERY_CONNECTIONS = 10;
/** The cache bus's listening connection. */
const LISTENER_CONNECTIONS = 1;

/** No statement runs longer than this, nor waits longer for a lock: a stuck query ends in an error, not a hang. */
export const STATEMENT_TIMEOUT_MS = 5_000;
/**
 * A transaction's whole run, from Prisma's side: longer than any one statement may take, so a statement that waits
 * is ended by the server first (and its transaction rolled back there), never by Prisma's timer while it still runs.
 */
const TRANSACTION_TIMEOUT_MS = 3 * STATEMENT_TIMEOUT_MS;
/** A transaction left open (a crashed handler between two statements) is ended by the server after this. */
const IDLE_IN_TRANSACTION_MS = 30_000;

/** A pool on `databaseUrl` with the bot's session settings; `max` connections. */
export function postgresPool(databaseUrl: string, max: number, applicationName = 'tactalk-bot', timeouts = true): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: 2 * STATEMENT_TIMEOUT_MS,
    ...(timeouts ? { statement_timeout: STATEMENT_TIMEOUT_MS, lock_timeout: STATEMENT_TIMEOUT_MS, idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS } : {}),
    application_name: applicationName,
    // A connection the network dropped without a word is noticed by the operating system in time.
    keepAlive: true,
    // Timestamps are stored without a zone, as UTC wall time (as Prisma writes them); the session says so too. Each
    // distinct statement is prepared once per connection (statementName below), and planned for its values each
    // time: after five runs PostgreSQL would otherwise keep a generic plan, blind to the member and the LIMIT, which
    // sorted all of a member's rolls for one page of /log (~70 ms against 0.25 ms; docs/performance.md).
    options: '-c TimeZone=UTC -c plan_cache_mode=force_custom_plan',
  });
  // An idle connection the server closed (a restart, a failover) is dropped and replaced; without a listener the
  // error would end the process.
  pool.on('error', () => undefined);
  return pool;
}

type PgAdapter = Awaited<ReturnType<PrismaPg['connect']>>;
type PgTransaction = Awaited<ReturnType<PgAdapter['startTransaction']>>;
type PgQuery = Parameters<PgAdapter['queryRaw']>[0];

/**
 * A transaction's statements, one at a time and never after its end. Prisma's query plans may run an `include`'s
 * reads at once, which on one pg client is deprecated (and an error from pg 9); and a statement of a plan still
 * under way when the transaction ended would otherwise be sent on the same connection after the ROLLBACK, outside
 * any transaction, or on a connection already given back.
 */
class OrderedTransaction implements PgTransaction {
  readonly provider: PgTransaction['provider'];
  readonly adapterName: string;
  readonly options: PgTransaction['options'];
  private readonly queue = new AsyncQueue();
  private ended = false;

  constructor(private readonly inner: PgTransaction) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
    this.options = inner.options;
  }

  private async inOrder<T>(query: PgQuery, run: () => Promise<T>): Promise<T> {
    await this.queue.wait();
    try {
      if (this.ended) throw new TransactionEndedError();
      const verb = query.sql.trim().toUpperCase();
      // After COMMIT or ROLLBACK nothing more belongs to this transaction, whether they succeeded or not.
      if (verb === 'COMMIT' || verb === 'ROLLBACK') this.ended = true;
      return await run();
    } finally {
      this.queue.shift();
    }
  }

  queryRaw(query: PgQuery) {
    return this.inOrder(query, () => this.inner.queryRaw(query));
  }

  executeRaw(query: PgQuery) {
    return this.inOrder(query, () => this.inner.executeRaw(query));
  }

  commit(): Promise<void> {
    this.ended = true;
    return this.inner.commit();
  }

  rollback(): Promise<void> {
    this.ended = true;
    return this.inner.rollback();
  }
}

/** Prisma's pg adapter with each transaction's statements in order (OrderedTransaction). */
function orderedTransactions(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => new OrderedTransaction(await start(isolationLevel));
    return adapter;
  };
  return factory;
}

/** Each distinct statement is prepared once per connection, under a name derived from its text. */
function statementName(query: PgQuery): string {
  return `p${createHash('sha1').update(query.sql).digest('base64url').slice(0, 20)}`;
}

export async function openPostgres(databaseUrl: string): Promise<{ db: Database; pool: pg.Pool }> {
  const pool = postgresPool(databaseUrl, QUERY_CONNECTIONS + TURN_CONNECTIONS + LISTENER_CONNECTIONS);
  const client = new PostgresClient({
    adapter: orderedTransactions(new PrismaPg(pool, { statementNameGenerator: statementName })),
    // A transaction waits for a connection up to maxWait; once begun, the statement timeout bounds each statement.
    transactionOptions: { maxWait: 2 * STATEMENT_TIMEOUT_MS, timeout: TRANSACTION_TIMEOUT_MS },
  });
  try {
    // Reach the server now, so that a database that cannot be reached fails the start-up rather than the first
    // interaction. Prisma starts in the background as the store opens (database.ts, warmUp).
    await pool.query('SELECT 1');
  } catch (error) {
    await client.$disconnect().catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw new Error(`could not connect to the PostgreSQL database of DATABASE_URL (${redactPasswords(databaseUrl)}): ${(error as Error).message}`, { cause: error });
  }
  // Same models, same API (database.ts): the store uses the SQLite client's type for both.
  return { db: client as unknown as Database, pool };
}
