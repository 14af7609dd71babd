/**
 * The driver adapter Prisma talks to on SQLite: better-sqlite3's, on one connection, with transactions and
 * statements taking turns (a statement from another interaction must never land inside someone else's open
 * transaction, where a rollback would take it along), lock conflicts with other programs waited out
 * (sqlite-locks.ts), and every write refused once the file is gone (sqlite-file-guard.ts). sqlite.ts opens it.
 */
import type { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { HeldGuard } from './sqlite-file-guard.js';
import { mayWrite } from './sqlite-file-guard.js';
import { BUSY_WAIT_BUDGET_MS, TransactionTurns, whileLocked } from './sqlite-locks.js';
import { TransactionEndedError } from './unavailable.js';

// The adapter's types, from the adapter itself (the package that declares them is not a direct dependency).
export type SqlDriverAdapter = Awaited<ReturnType<PrismaBetterSqlite3['connect']>>;
type SqlTransaction = Awaited<ReturnType<SqlDriverAdapter['startTransaction']>>;
export type SqlQuery = Parameters<SqlDriverAdapter['queryRaw']>[0];
type IsolationLevel = Parameters<SqlDriverAdapter['startTransaction']>[0];

/** A statement in the driver adapter's shape, with text or whole-number values for its `?`s, in order. */
export const statement = (sql: string, ...args: Array<string | number>): SqlQuery => ({
  sql,
  args,
  argTypes: args.map((arg) => ({ scalarType: typeof arg === 'number' ? 'int' : 'string', arity: 'scalar' }) as const),
});

class LockAwareTransaction implements SqlTransaction {
  readonly provider: SqlTransaction['provider'];
  readonly adapterName: string;
  // Prisma sends COMMIT / ROLLBACK itself as statements, then calls commit() / rollback().
  readonly options = { usePhantomQuery: false };
  private ended = false;

  constructor(
    private readonly connection: SqlDriverAdapter,
    private readonly release: () => void,
  ) {
    this.provider = connection.provider;
    this.adapterName = connection.adapterName;
  }

  /** Nothing of a transaction runs after it ended: on the one connection it would run outside it. */
  private open(): void {
    if (this.ended) throw new TransactionEndedError();
  }

  queryRaw(query: SqlQuery) {
    this.open();
    return this.connection.queryRaw(query);
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    this.open();
    const verb = query.sql.trim().toUpperCase();
    if (verb !== 'COMMIT' && verb !== 'ROLLBACK') return this.connection.executeRaw(query);
    try {
      return verb === 'COMMIT' ? await whileLocked(() => this.connection.executeRaw(query)) : await this.connection.executeRaw(query);
    } catch (error) {
      // A COMMIT that failed for good leaves the transaction open: it is rolled back, so the connection is free.
      await this.connection.executeRaw(statement('ROLLBACK')).catch(() => undefined);
      this.end();
      throw error;
    }
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.release();
  }

  commit(): Promise<void> {
    this.end();
    return Promise.resolve();
  }

  rollback(): Promise<void> {
    this.end();
    return Promise.resolve();
  }
}

/**
 * One better-sqlite3 connection. A transaction holds the turn from BEGIN IMMEDIATE to its end; a statement outside
 * one takes the turn for its own run, so it waits for an open transaction to end like any other writer. So inside a
 * `$transaction` callback, read and write through `tx`: a query through the client would wait for the transaction
 * that waits for it, until the transaction's timeout.
 */
export class LockAwareAdapter implements SqlDriverAdapter {
  readonly provider: SqlDriverAdapter['provider'];
  readonly adapterName: string;
  private readonly turns = new TransactionTurns();

  constructor(
    private readonly connection: SqlDriverAdapter,
    private readonly file: HeldGuard,
  ) {
    this.provider = connection.provider;
    this.adapterName = connection.adapterName;
  }

  /**
   * Runs one statement outside any transaction, in its turn. Another program's lock is waited out between attempts
   * without holding the turn: reads (which WAL lets through) and the bot's other statements go on meanwhile.
   */
  private single<T>(query: SqlQuery, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const deadline = started + BUSY_WAIT_BUDGET_MS;
    return whileLocked(
      async () => {
        const release = await this.turns.take(deadline, started);
        try {
          // Prisma writes with RETURNING through queryRaw too.
          if (mayWrite(query.sql)) this.file.guard.check();
          return await run();
        } finally {
          release();
        }
      },
      deadline,
      started,
    );
  }

  queryRaw(query: SqlQuery) {
    return this.single(query, () => this.connection.queryRaw(query));
  }

  executeRaw(query: SqlQuery) {
    return this.single(query, () => this.connection.executeRaw(query));
  }

  /** Not retried: a script that met the lock halfway has run its first statements. */
  executeScript(script: string) {
    return this.connection.executeScript(script);
  }

  /**
   * Runs `work` on the connection itself, with no other statement of this adapter in between: for the migration
   * step (sqlite-migrations.ts), which runs its own transaction, waiting out other programs' locks itself.
   */
  async exclusively<T>(work: (connection: SqlDriverAdapter) => Promise<T>): Promise<T> {
    const started = performance.now();
    const release = await this.turns.take(started + BUSY_WAIT_BUDGET_MS, started);
    try {
      this.file.guard.check();
      return await work(this.connection);
    } finally {
      release();
    }
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<SqlTransaction> {
    // SQLite has one level; refuse any other as Prisma's adapter does.
    if (isolationLevel && isolationLevel !== 'SERIALIZABLE') return this.connection.startTransaction(isolationLevel);
    const started = performance.now();
    const deadline = started + BUSY_WAIT_BUDGET_MS;
    let release = (): void => undefined;
    // BEGIN IMMEDIATE takes the write lock first, so a transaction never fails halfway on another program's lock. While
    // that program holds it, the turn is given back between attempts, so reads go on.
    await whileLocked(
      async () => {
        release = await this.turns.take(deadline, started);
        try {
          // Checked once per transaction, at its start: whatever it writes is committed a moment later.
          this.file.guard.check();
          await this.connection.executeRaw(statement('BEGIN IMMEDIATE'));
        } catch (error) {
          release();
          throw error;
        }
      },
      deadline,
      started,
    );
    return new LockAwareTransaction(this.connection, release);
  }

  async dispose(): Promise<void> {
    this.file.release();
    await this.connection.dispose();
  }
}
