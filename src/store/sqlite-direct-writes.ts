/**
 * SQLite's DirectWrites: a connection of the bot's own for the one write on the path of every roll. Through Prisma
 * an INSERT costs about 0.7 ms of compiling and interpreting the query, most of what a /roll costs the bot; a
 * statement prepared once runs in microseconds. It only runs single statements (never inside a transaction),
 * waiting for a lock like every Prisma statement does, and stores values as Prisma does (a Date as `sqliteDate`, a
 * boolean as 0/1). sqlite.ts opens its connection.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { insertStatement, type DirectWrites } from './database.js';
import type { HeldGuard } from './sqlite-file-guard.js';
import { whileLocked } from './sqlite-locks.js';

export class SqliteDirectWrites implements DirectWrites {
  private readonly prepared = new Map<string, BetterSqlite3.Statement>();

  constructor(
    private readonly connection: BetterSqlite3.Database,
    private readonly file: HeldGuard,
  ) {}

  /** SQLite's errors come as better-sqlite3's SqliteError (with `code`). */
  insert(table: string, columns: readonly string[], values: readonly unknown[]): Promise<void> {
    const sql = insertStatement(table, columns, () => '?');
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
    });
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
