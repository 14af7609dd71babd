/**
 * SQLite, the embedded default: the PrismaClient over one file through the better-sqlite3 driver adapter (waiting
 * out other programs' locks without freezing the process, refusing writes to a file deleted under the bot), the
 * roll log's prepared INSERT, and the start-up migration step. PostgreSQL's counterpart is postgres.ts.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import BetterSqlite3 from 'better-sqlite3';
import { sqliteFileOf } from '../config.js';
import { UserError } from '../errors.js';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Database, DirectWrites } from './database.js';
import { projectFolder } from './project-folder.js';

/**
 * `file:./data/bot.db` → the absolute file path (relative paths are taken from the working directory). Options after
 * "?" are refused with a clear message (see sqliteFileOf), not made part of the file name.
 */
export function databaseFile(databaseUrl: string): string {
  return sqliteFileOf(databaseUrl);
}

// ---- the file deleted or replaced under the running bot ---------------------------------------------------------
//
// SQLite keeps writing to the file it opened, even once its name is gone: a deleted database goes on taking writes
// that vanish when the process ends, and the bot would confirm every one of them. So the name is checked to still
// point at the file that was opened (device and inode) before every write, about two microseconds of stat(2); a
// write on a file that is gone is refused, and whoever watches the database (the bot's log) hears of it once.

/** The database file is no longer where the bot opened it: shown to the user as is, and nothing is saved. */
export class DatabaseFileGoneError extends UserError {
  constructor(readonly file: string) {
    super('The bot’s database file has disappeared (deleted or replaced while the bot was running), so this was not saved. Please tell whoever runs the bot.');
  }
}

export function isDatabaseFileGoneError(error: unknown): error is DatabaseFileGoneError {
  return error instanceof DatabaseFileGoneError;
}

function identityOf(file: string): string | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}` : null;
}

class DatabaseFileGuard {
  readonly listeners = new Set<(problem: string) => void>();
  users = 0;
  private readonly opened: string | null;
  private reported = false;

  constructor(readonly file: string) {
    this.opened = identityOf(file);
  }

  /** Throws DatabaseFileGoneError when the name no longer leads to the opened file. */
  check(): void {
    if (identityOf(this.file) === this.opened) {
      // Moved back where it was: the same file again, so writes are safe again (and a new loss is reported anew).
      this.reported = false;
      return;
    }
    if (!this.reported) {
      this.reported = true;
      const problem = `the database file ${this.file} was deleted or replaced while the bot was running: writes are refused from now on, since they would be lost when the bot stops. Restore the file at that path (or stop the bot; a restart starts on whatever file is there then).`;
      for (const listener of this.listeners) listener(problem);
    }
    throw new DatabaseFileGoneError(this.file);
  }
}

/** One guard per file, shared by the Prisma connections and DirectWrites of every open store on it. */
const guards = new Map<string, DatabaseFileGuard>();

function acquireGuard(file: string): { guard: DatabaseFileGuard; release: () => void } {
  let guard = guards.get(file);
  if (!guard) {
    guard = new DatabaseFileGuard(file);
    guards.set(file, guard);
  }
  guard.users++;
  const held = guard;
  let released = false;
  return {
    guard: held,
    release: () => {
      if (released) return;
      released = true;
      if (--held.users === 0 && guards.get(file) === held) guards.delete(file);
    },
  };
}

/**
 * Calls `onGone` (once per loss) when a write finds the database file of an open store deleted or replaced. Returns
 * the unsubscribe. The file must be open (openStore) first.
 */
export function watchDatabaseFile(databaseUrl: string, onGone: (problem: string) => void): () => void {
  const guard = guards.get(databaseFile(databaseUrl));
  if (!guard) throw new Error(`no open database on ${databaseFile(databaseUrl)} to watch`);
  guard.listeners.add(onGone);
  return () => guard.listeners.delete(onGone);
}

/** Reads cannot lose anything (they see the file as it was); everything else may write. */
const READ_ONLY_STATEMENT = /^\s*(SELECT|PRAGMA)\b/i;

// ---- waiting for a locked database without freezing the process ------------------------------------------------
//
// better-sqlite3 is synchronous: with SQLite's own busy timeout, a statement that meets another process's write lock
// sleeps inside the call, and the whole event loop with it (no other interaction, no gateway heartbeat, no timer to
// defer an interaction in time). So SQLite gives up at once (busy timeout 0) and the wait happens here, between
// attempts, on timers. Where it is safe to try again:
// - a statement outside a transaction: one that failed with SQLITE_BUSY / SQLITE_LOCKED changed nothing;
// - BEGIN IMMEDIATE: a transaction takes the write lock before its first statement, so it either starts with the
//   lock (and then meets no busy error: in WAL mode only writers block writers) or has done nothing. A deferred
//   BEGIN would read first and could fail at its first write with SQLITE_BUSY_SNAPSHOT, which no retry can mend;
// - COMMIT: SQLite keeps the transaction open when COMMIT fails with SQLITE_BUSY.

/**
 * Set on every connection. `synchronous = NORMAL` is SQLite's advice for WAL: a commit is safe once it is in the
 * WAL file, which survives the process being killed; only a power cut can lose the last commits (FULL would also
 * wait for the disk on every commit, a third of a /roll's time here).
 */
const CONNECTION_PRAGMAS = ['foreign_keys = ON', 'synchronous = NORMAL'];

/** How long a caller may wait for the database in all, before being told it is busy. */
export const BUSY_WAIT_BUDGET_MS = 10_000;
/** SQLite's own (synchronous, event-loop-freezing) wait: none; see above. */
const SQLITE_BUSY_TIMEOUT_MS = 0;
/** Pause between attempts: doubles from the first to the last, with jitter so waiters do not move in step. */
const RETRY_FIRST_MS = 4;
const RETRY_MAX_MS = 50;

/** The database stayed locked (by another program) for longer than the bot waits: shown to the user as is. */
export class DatabaseBusyError extends UserError {
  constructor(readonly waitedMs: number) {
    super('The bot’s database is busy right now (another program is holding it), so this could not be done. Please try again in a moment.');
  }
}

export function isDatabaseBusyError(error: unknown): error is DatabaseBusyError {
  return error instanceof DatabaseBusyError;
}

/**
 * A lock conflict as the adapter reports it: SQLITE_BUSY becomes a DriverAdapterError whose cause carries the
 * original code; the extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_…) are not mapped and arrive as
 * better-sqlite3's own SqliteError with `code`.
 */
export function isLockConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, cause } = error as { code?: unknown; cause?: { originalCode?: unknown } };
  const original = typeof cause === 'object' && cause !== null ? cause.originalCode : undefined;
  return [code, original].some((value) => typeof value === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(value));
}

/** Runs `attempt` until it gets past lock conflicts or `deadline` (performance.now()) passes. */
async function whileLocked<T>(attempt: () => Promise<T>, deadline: number, started = performance.now()): Promise<T> {
  for (let pause = RETRY_FIRST_MS; ; pause = Math.min(pause * 2, RETRY_MAX_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isLockConflict(error)) throw error;
      const left = deadline - performance.now();
      if (left <= 0) throw new DatabaseBusyError(Math.round(performance.now() - started));
      await sleep(Math.min(left, pause * (0.75 + Math.random() / 2)));
    }
  }
}

// The adapter's types, from the adapter itself (the package that declares them is not a direct dependency).
type SqlDriverAdapter = Awaited<ReturnType<PrismaBetterSQLite3['connect']>>;
type SqlTransaction = Awaited<ReturnType<SqlDriverAdapter['startTransaction']>>;
type SqlQuery = Parameters<SqlDriverAdapter['queryRaw']>[0];
type IsolationLevel = Parameters<SqlDriverAdapter['startTransaction']>[0];

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** One transaction at a time on the transaction connection, first come first served, each waiting until its deadline. */
class TransactionTurns {
  private busy = false;
  private readonly queue: Array<() => void> = [];

  async take(deadline: number, started: number): Promise<() => void> {
    if (!this.busy) this.busy = true;
    else {
      // The releasing holder hands its turn straight to the first in line: `busy` stays set between the two.
      await new Promise<void>((resolve, reject) => {
        const turn = (): void => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.queue.splice(this.queue.indexOf(turn), 1);
          reject(new DatabaseBusyError(Math.round(performance.now() - started)));
        }, Math.max(0, deadline - performance.now()));
        this.queue.push(turn);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.busy = false;
    };
  }
}

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
      return verb === 'COMMIT' ? await whileLocked(() => this.connection.executeRaw(query), performance.now() + BUSY_WAIT_BUDGET_MS) : await this.connection.executeRaw(query);
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
 * The adapter Prisma talks to: two better-sqlite3 connections to the same file. Transactions run one at a time on
 * their own connection, so a statement from another interaction can never land inside someone else's open
 * transaction (one connection would run it there, and a rollback would take it along). Lock conflicts are waited
 * out as described above; a write outside a transaction waits for an open one to commit like any other writer. So
 * inside a `$transaction` callback, write through `tx`: a write through the client would wait for the transaction
 * that waits for it, until the transaction's timeout.
 */
class LockAwareAdapter implements SqlDriverAdapter {
  readonly provider: SqlDriverAdapter['provider'];
  readonly adapterName: string;
  private readonly turns = new TransactionTurns();

  constructor(
    private readonly statements: SqlDriverAdapter,
    private readonly transactions: SqlDriverAdapter,
    private readonly file: { guard: DatabaseFileGuard; release: () => void },
  ) {
    this.provider = statements.provider;
    this.adapterName = statements.adapterName;
  }

  queryRaw(query: SqlQuery) {
    return whileLocked(async () => {
      // Prisma writes with RETURNING through queryRaw too.
      if (!READ_ONLY_STATEMENT.test(query.sql)) this.file.guard.check();
      return this.statements.queryRaw(query);
    }, performance.now() + BUSY_WAIT_BUDGET_MS);
  }

  executeRaw(query: SqlQuery) {
    return whileLocked(async () => {
      if (!READ_ONLY_STATEMENT.test(query.sql)) this.file.guard.check();
      return this.statements.executeRaw(query);
    }, performance.now() + BUSY_WAIT_BUDGET_MS);
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
          await whileLocked(() => connection.executeRaw(statement(`PRAGMA ${pragma}`)), performance.now() + BUSY_WAIT_BUDGET_MS);
        }
      }
    } catch (error) {
      await adapter.dispose();
      throw error;
    }
    return adapter;
  }
}

/**
 * A connection of the bot's own for the one write on the path of every roll. Through Prisma an INSERT costs about
 * 0.7 ms of compiling and interpreting the query, most of what a /roll costs the bot; a statement prepared once runs
 * in microseconds. It only runs single statements (never inside a transaction), waiting for a lock like every
 * Prisma statement does, and stores values as Prisma does (a Date as `sqliteDate`, a boolean as 0/1).
 */
class SqliteDirectWrites implements DirectWrites {
  private readonly connection: BetterSqlite3.Database;
  private readonly prepared = new Map<string, BetterSqlite3.Statement>();
  private readonly file: { guard: DatabaseFileGuard; release: () => void };

  constructor(file: string) {
    this.connection = new BetterSqlite3(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    for (const pragma of CONNECTION_PRAGMAS) this.connection.pragma(pragma);
    this.file = acquireGuard(file);
  }

  /** SQLite's errors come as better-sqlite3's SqliteError (with `code`). */
  insert(table: string, columns: readonly string[], values: readonly unknown[]): Promise<void> {
    const sql = `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.prepared.set(sql, statement);
    }
    const ready = statement;
    const stored = values.map(storedValue);
    return whileLocked(async () => {
      this.file.guard.check();
      ready.run(...stored);
    }, performance.now() + BUSY_WAIT_BUDGET_MS);
  }

  async close(): Promise<void> {
    this.file.release();
    this.connection.close();
  }
}

/** A value as Prisma's SQLite adapter writes it: a DateTime as ISO 8601 with an explicit +00:00, a Boolean as 0/1. */
function storedValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace('Z', '+00:00');
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
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
  // Connect now, so that a file that cannot be opened fails the start-up rather than the first interaction.
  await prisma.$connect();
  return { db: prisma, direct: new SqliteDirectWrites(file) };
}

/**
 * The migrations (folder names under prisma/migrations) that the file at `file` has not applied yet; all of them
 * for a new file. Read directly, in a moment: most starts find nothing to do and need not pay for the CLI.
 */
export function pendingMigrations(file: string): string[] {
  const folder = path.join(projectFolder(), 'prisma', 'migrations');
  const all = fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  if (!fs.existsSync(file)) return all;
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return all;
    const applied = new Set(
      (db.prepare('SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL').all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    return all.filter((name) => !applied.has(name));
  } finally {
    db.close();
  }
}

/**
 * Applies pending migrations with `prisma migrate deploy` (the JavaScript schema engine, see prisma.config.ts),
 * creating the file and its folder if missing. Skipped when nothing is pending: the CLI costs about two seconds of
 * every start, and fails outright while any other program has the file open.
 */
export async function migrateSqlite(databaseUrl: string): Promise<string> {
  const file = databaseFile(databaseUrl);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const pending = pendingMigrations(file);
  if (pending.length === 0) return 'No pending migrations to apply.';
  const cli = path.join(projectFolder(), 'node_modules', 'prisma', 'build', 'index.js');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'migrate', 'deploy'], {
      cwd: projectFolder(),
      env: { ...process.env, DATABASE_URL: `file:${file}`, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
      timeout: 120_000,
    });
    return stdout;
  } catch (error) {
    const output = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n').slice(-6).join('\n');
    throw new Error(
      `could not apply the database migrations (${pending.join(', ')}) to ${file}. If another program has the file open, close it and start again.\n${output}`,
      { cause: error },
    );
  }
}
