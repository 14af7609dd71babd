/**
 * The SQLite file deleted or replaced under the running bot.
 *
 * SQLite keeps writing to the file it opened, even once its name is gone: a deleted database goes on taking writes
 * that vanish when the process ends, and the bot would confirm every one of them. So the name is checked to still
 * point at the file that was opened (device and inode) before every write, about two microseconds of stat(2); a
 * write on a file that is gone is refused, and whoever watches the database (the bot's log) hears of it once.
 *
 * Loads no driver: the bot's start-up and its error handling use it on either database.
 */
import fs from 'node:fs';
import { sqliteFileOf } from '../config.js';
import { UserError } from '../errors.js';

/**
 * `file:./data/bot.db` → the absolute file path (relative paths are taken from the working directory). Options after
 * "?" are refused with a clear message (see sqliteFileOf), not made part of the file name.
 */
export function databaseFile(databaseUrl: string): string {
  return sqliteFileOf(databaseUrl);
}

/** The database file is no longer where the bot opened it: shown to the user as is, and nothing is saved. */
export class DatabaseFileGoneError extends UserError {
  constructor(readonly file: string) {
    super('The bot’s database file has disappeared (deleted or replaced while the bot was running), so this was not saved. Please tell whoever runs the bot.');
  }
}

function identityOf(file: string): string | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}` : null;
}

export class DatabaseFileGuard {
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

/** A connection's hold on its file's guard; `release` when the connection closes. */
export interface HeldGuard {
  guard: DatabaseFileGuard;
  release: () => void;
}

/** One guard per file, shared by the connections of every open store on it. */
const guards = new Map<string, DatabaseFileGuard>();

/** The guard of `file`, as it is now: call once the file is open (SQLite creates a missing one). */
export function acquireGuard(file: string): HeldGuard {
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

/** Whether `sql` may write: reads cannot lose anything (they see the file as it was), everything else may. */
export function mayWrite(sql: string): boolean {
  return !/^\s*(SELECT|PRAGMA)\b/i.test(sql);
}
