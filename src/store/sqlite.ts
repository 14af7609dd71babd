/**
 * SQLite, the embedded default: opens the PrismaClient over one connection to one file, through the lock-aware
 * driver adapter (sqlite-adapter.ts: lock waits in sqlite-locks.ts, the deleted-file guard in sqlite-file-guard.ts).
 * Migrations: sqlite-migrations.ts. PostgreSQL's counterpart is postgres.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Database } from './database-client.js';
import { LockAwareAdapter, statement, type SqlDriverAdapter } from './sqlite-adapter.js';
import { acquireGuard, databaseFile } from './sqlite-file-guard.js';
import { BUSY_WAIT_BUDGET_MS, SQLITE_BUSY_TIMEOUT_MS, whileLocked } from './sqlite-locks.js';
import { errorChain } from './unavailable.js';

/**
 * Set on the connection. WAL lets readers go on while one writer writes (and is kept in the file); `synchronous =
 * NORMAL` is SQLite's advice for WAL: a commit is safe once it is in the WAL file, which survives the process being
 * killed; only a power cut can lose the last commits (FULL would also wait for the disk on every commit, a third of
 * a /roll's time here).
 */
const CONNECTION_PRAGMAS = ['journal_mode = WAL', 'foreign_keys = ON', 'synchronous = NORMAL'];

/** How many distinct statements the connection keeps prepared: every query shape the bot makes, with room to spare. */
const PREPARED_STATEMENTS = 500;

/**
 * Prisma's adapter prepares every statement anew, about a sixth of a query's cost on SQLite (~20 µs of ~130 µs,
 * docs/performance.md); prepared once and kept, each runs with its values instead. The adapter binds values with
 * `bind()`, which a kept statement allows only once, so it is given a bound view of the kept statement.
 * Leaves the connection as it is if the adapter's driver is not where it keeps it (another adapter version).
 */
function keepPrepared(connection: SqlDriverAdapter): void {
  const driver = (connection as unknown as { client?: BetterSqlite3.Database }).client;
  if (!driver || typeof driver.prepare !== 'function' || typeof driver.pragma !== 'function') return;
  const prepare = driver.prepare.bind(driver);
  const kept = new Map<string, BetterSqlite3.Statement>();
  driver.prepare = ((sql: string) => {
    let statement = kept.get(sql);
    if (statement) {
      // Most recently used last: the first one is the one to forget.
      kept.delete(sql);
    } else {
      statement = prepare(sql);
      if (kept.size >= PREPARED_STATEMENTS) kept.delete(kept.keys().next().value!);
    }
    kept.set(sql, statement);
    const ready = statement;
    return {
      reader: ready.reader,
      bind: (values: unknown[]) => ({
        reader: ready.reader,
        run: () => ready.run(values),
        columns: () => ready.columns(),
        raw: () => ({ all: () => ready.raw(true).all(values) }),
      }),
    };
  }) as unknown as typeof driver.prepare;
}

/**
 * The database file cannot be written (no write permission for the bot's user, an immutable file, a read-only disk):
 * SQLite opens such a file read-only without a word, and every roll, sheet and contest would then fail. The bot
 * does not start on it; the message names the file and what to do.
 */
export class DatabaseFileNotWritableError extends Error {
  constructor(
    readonly file: string,
    readonly code: string,
    cause: unknown,
  ) {
    const uid = process.getuid?.();
    super(
      `the SQLite file ${file} cannot be written (${code}), and the bot writes every roll, sheet and contest, so it does not start on it. ` +
        `Let the user the bot runs as${uid === undefined ? '' : ` (uid ${uid})`} write the file and its folder (chown / chmod u+w; chattr -i if the file is immutable; ` +
        'remount its disk read-write if it is read-only), or set DATABASE_URL to a file the bot may write.',
      { cause },
    );
  }
}

/** The first SQLite result code in an error's chain (better-sqlite3's `code`, the adapter's `originalCode`). */
function sqliteCodeOf(error: unknown): string | null {
  for (const record of errorChain(error)) {
    for (const field of ['originalCode', 'code']) {
      const code = record[field];
      if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
    }
  }
  return null;
}

/**
 * Refuses a file the connection cannot write: a write in a transaction that is rolled back (the version number set
 * to the value it has), so nothing changes. A write lock another program holds means the file is written: the
 * check does not wait for it.
 */
async function checkWritable(connection: SqlDriverAdapter, file: string): Promise<void> {
  const version = Number((await connection.queryRaw(statement('PRAGMA user_version'))).rows[0]?.[0] ?? 0);
  await connection.executeRaw(statement('BEGIN'));
  try {
    await connection.executeRaw(statement(`PRAGMA user_version = ${version}`));
  } catch (error) {
    const code = sqliteCodeOf(error);
    if (code && /^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/.test(code)) throw new DatabaseFileNotWritableError(file, code, error);
    if (!code || !/^SQLITE_(BUSY|LOCKED)/.test(code)) throw error;
  } finally {
    await connection.executeRaw(statement('ROLLBACK')).catch(() => undefined);
  }
}

/**
 * Opens a connection to the file with its settings, and its guard: the store's one connection, or the migration
 * step's (sqlite-migrations.ts), which is closed before the store opens. A file the bot cannot write is refused
 * (DatabaseFileNotWritableError).
 */
export async function connectSqlite(file: string): Promise<LockAwareAdapter> {
  const connection: SqlDriverAdapter = await new PrismaBetterSqlite3({ url: `file:${file}`, timeout: SQLITE_BUSY_TIMEOUT_MS }).connect();
  keepPrepared(connection);
  // After connecting: the file exists now (SQLite creates a missing one), and its identity is the one to keep.
  const adapter = new LockAwareAdapter(connection, acquireGuard(file));
  try {
    for (const pragma of CONNECTION_PRAGMAS) await whileLocked(() => connection.queryRaw(statement(`PRAGMA ${pragma}`)));
    await checkWritable(connection, file);
  } catch (error) {
    await adapter.dispose();
    throw error;
  }
  return adapter;
}

export async function openSqlite(databaseUrl: string): Promise<{ db: Database; connection: LockAwareAdapter; close(): Promise<void> }> {
  const file = databaseFile(databaseUrl);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // The connection opens now, so a file that cannot be opened fails the start-up rather than the first interaction;
  // Prisma takes it when it starts (in the background as the store opens: database.ts, warmUp).
  const connection = await connectSqlite(file);
  let taken = false;
  const prisma = new PrismaClient({
    adapter: {
      provider: 'sqlite',
      adapterName: connection.adapterName,
      connect: async () => {
        // Prisma connects again after $disconnect only in tests that reuse a client; the file's one connection is
        // opened anew then.
        if (taken) return connectSqlite(file);
        taken = true;
        return connection;
      },
    },
    transactionOptions: {
      // Prisma's default maxWait (2 s) would give up on a transaction queued behind a held lock before our own wait
      // does; ours ends at BUSY_WAIT_BUDGET_MS with a clear answer, so Prisma's only backs it up.
      maxWait: BUSY_WAIT_BUDGET_MS + 5_000,
      // Once begun, a transaction holds the write lock and meets no lock conflict; this only bounds a stuck one.
      timeout: 10_000,
    },
  });
  return {
    db: prisma,
    connection,
    close: async () => {
      await prisma.$disconnect();
      // Never taken by Prisma (no query was made): closed here.
      if (!taken) await connection.dispose();
    },
  };
}
