/**
 * SQLite, the embedded default: opens the PrismaClient over one file through the lock-aware driver adapter
 * (sqlite-adapter.ts: lock waits in sqlite-locks.ts, the deleted-file guard in sqlite-file-guard.ts) and the roll
 * log's own connection (sqlite-direct-writes.ts), each with the same settings. Migrations: sqlite-migrations.ts.
 * PostgreSQL's counterpart is postgres.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import BetterSqlite3 from 'better-sqlite3';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Database, DirectWrites } from './database.js';
import { LockAwareAdapter, statement, type SqlDriverAdapter } from './sqlite-adapter.js';
import { SqliteDirectWrites } from './sqlite-direct-writes.js';
import { acquireGuard, databaseFile } from './sqlite-file-guard.js';
import { BUSY_WAIT_BUDGET_MS, SQLITE_BUSY_TIMEOUT_MS, whileLocked } from './sqlite-locks.js';

/**
 * Set on every connection. `synchronous = NORMAL` is SQLite's advice for WAL: a commit is safe once it is in the
 * WAL file, which survives the process being killed; only a power cut can lose the last commits (FULL would also
 * wait for the disk on every commit, a third of a /roll's time here).
 */
const CONNECTION_PRAGMAS = ['foreign_keys = ON', 'synchronous = NORMAL'];

/** Connects Prisma to the file: the adapter's two connections, the file's guard, the settings. */
class LockAwareAdapterFactory {
  readonly provider = 'sqlite' as const;
  readonly adapterName: string;
  private readonly base: PrismaBetterSQLite3;

  constructor(private readonly file: string) {
    this.base = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: SQLITE_BUSY_TIMEOUT_MS });
    this.adapterName = this.base.adapterName;
  }

  async connect(): Promise<SqlDriverAdapter> {
    const statements = await this.base.connect();
    const transactions = await this.base.connect().catch(async (error: unknown) => {
      await statements.dispose();
      throw error;
    });
    // After connecting: the file exists now (SQLite creates a missing one), and its identity is the one to keep.
    const adapter = new LockAwareAdapter(statements, transactions, acquireGuard(this.file));
    try {
      // WAL lets readers go on while one writer writes (and is kept in the file); the rest is per connection.
      await adapter.queryRaw(statement('PRAGMA journal_mode = WAL'));
      for (const connection of [statements, transactions]) {
        for (const pragma of CONNECTION_PRAGMAS) {
          await whileLocked(() => connection.executeRaw(statement(`PRAGMA ${pragma}`)));
        }
      }
    } catch (error) {
      await adapter.dispose();
      throw error;
    }
    return adapter;
  }
}

export async function openSqlite(databaseUrl: string): Promise<{ db: Database; direct: DirectWrites }> {
  const file = databaseFile(databaseUrl);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const prisma = new PrismaClient({
    adapter: new LockAwareAdapterFactory(file),
    transactionOptions: {
      // Prisma's default maxWait (2 s) would give up on a transaction queued behind a held lock before our own wait
      // does; ours ends at BUSY_WAIT_BUDGET_MS with a clear answer, so Prisma's only backs it up.
      maxWait: BUSY_WAIT_BUDGET_MS + 5_000,
      // Once begun, a transaction holds the write lock and meets no lock conflict; this only bounds a stuck one.
      timeout: 10_000,
    },
  });
  // The store's own connection opens the file now, so a file that cannot be opened fails the start-up rather than the
  // first interaction. Prisma connects on its first query: its query compiler then loads when a command needs it,
  // not on every start (servers.ts). WAL is a setting of the file, kept once set; the adapter sets it again.
  const connection = new BetterSqlite3(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  connection.pragma('journal_mode = WAL');
  for (const pragma of CONNECTION_PRAGMAS) connection.pragma(pragma);
  return { db: prisma, direct: new SqliteDirectWrites(connection, acquireGuard(file)) };
}
