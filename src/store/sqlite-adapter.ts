/**
 * The driver adapter Prisma talks to on SQLite: better-sqlite3's, with lock conflicts waited out (sqlite-locks.ts),
 * transactions run one at a time on a connection of their own, and every write refused once the file is gone
 * (sqlite-file-guard.ts). sqlite.ts opens it.
 */
import type { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import type { HeldGuard } from './sqlite-file-guard.js';
import { mayWrite } from './sqlite-file-guard.js';
import { BUSY_WAIT_BUDGET_MS, TransactionTurns, whileLocked } from './sqlite-locks.js';

// The adapter's types, from the adapter itself (the package that declares them is not a direct dependency).
export type SqlDriverAdapter = Awaited<ReturnType<PrismaBetterSQLite3['connect']>>;
type SqlTransaction = Awaited<ReturnType<SqlDriverAdapter['startTransaction']>>;
type SqlQuery = Parameters<SqlDriverAdapter['queryRaw']>[0];
type IsolationLevel = Parameters<SqlDriverAdapter['startTransaction']>[0];

export const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

class LockAwareTransaction implements SqlTransaction {
  readonly provider: SqlTransaction['provider'];
  readonly adapterName: string;
  // Prisma sends COMMIT / ROLLBACK itself as statements, then calls commit() / rollback().
  readonly options = { usePhantomQuery: false };

  constructor(
    private readonly connection: SqlDriverAdapter,
    private readonly release: () => void,
  ) {
    this.provider = connection.provider;
    this.adapterName = connection.adapterName;
  }

  queryRaw(query: SqlQuery) {
    return this.connection.queryRaw(query);
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    const verb = query.sql.trim().toUpperCase();
    if (verb !== 'COMMIT' && verb !== 'ROLLBACK') return this.connection.executeRaw(query);
    try {
      return verb === 'COMMIT' ? await whileLocked(() => this.connection.executeRaw(query)) : await this.connection.executeRaw(query);
    } catch (error) {
      // Prisma releases the connection only after a successful COMMIT / ROLLBACK statement; one that failed would
      // leave the connection inside this transaction and every later transaction waiting for it.
      await this.connection.executeRaw(statement('ROLLBACK')).catch(() => undefined);
      this.release();
      throw error;
    }
  }

  commit(): Promise<void> {
    this.release();
    return Promise.resolve();
  }

  rollback(): Promise<void> {
    this.release();
    return Promise.resolve();
  }
}

/**
 * Two better-sqlite3 connections to the same file. Transactions run one at a time on their own connection, so a
 * statement from another interaction can never land inside someone else's open transaction (one connection would
 * run it there, and a rollback would take it along). Lock conflicts are waited out (sqlite-locks.ts); a write
 * outside a transaction waits for an open one to commit like any other writer. So inside a `$transaction` callback,
 * write through `tx`: a write through the client would wait for the transaction that waits for it, until the
 * transaction's timeout.
 */
export class LockAwareAdapter implements SqlDriverAdapter {
  readonly provider: SqlDriverAdapter['provider'];
  readonly adapterName: string;
  private readonly turns = new TransactionTurns();

  constructor(
    private readonly statements: SqlDriverAdapter,
    private readonly transactions: SqlDriverAdapter,
    private readonly file: HeldGuard,
  ) {
    this.provider = statements.provider;
    this.adapterName = statements.adapterName;
  }

  queryRaw(query: SqlQuery) {
    return whileLocked(async () => {
      // Prisma writes with RETURNING through queryRaw too.
      if (mayWrite(query.sql)) this.file.guard.check();
      return this.statements.queryRaw(query);
    });
  }

  executeRaw(query: SqlQuery) {
    return whileLocked(async () => {
      if (mayWrite(query.sql)) this.file.guard.check();
      return this.statements.executeRaw(query);
    });
  }

  /** Not retried: a script that met the lock halfway has run its first statements. (Prisma uses it for migrations.) */
  executeScript(script: string) {
    return this.statements.executeScript(script);
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<SqlTransaction> {
    // SQLite has one level; let the adapter refuse any other as it always did.
    if (isolationLevel && isolationLevel !== 'SERIALIZABLE') return this.transactions.startTransaction(isolationLevel);
    const started = performance.now();
    const deadline = started + BUSY_WAIT_BUDGET_MS;
    const release = await this.turns.take(deadline, started);
    try {
      await whileLocked(
        async () => {
          // Checked once per transaction, at its start: whatever it writes is committed a moment later.
          this.file.guard.check();
          return this.transactions.executeRaw(statement('BEGIN IMMEDIATE'));
        },
        deadline,
        started,
      );
    } catch (error) {
      release();
      throw error;
    }
    return new LockAwareTransaction(this.transactions, release);
  }

  async dispose(): Promise<void> {
    this.file.release();
    try {
      await this.statements.dispose();
    } finally {
      await this.transactions.dispose();
    }
  }
}
