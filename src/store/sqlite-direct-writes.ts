/**
 * SQLite's DirectWrites: a connection of the bot's own for the statements on the path of every roll and contest
 * step. Through Prisma a statement costs about 0.7–2 ms of compiling and interpreting the query, most of what a
 * /roll or a press costs the bot; a statement prepared once runs in microseconds. Each call waits for a lock like
 * every Prisma statement does (a transaction takes the lock first, BEGIN IMMEDIATE, so a retry never repeats half
 * of one), and stores values as Prisma does (a Date as `sqliteDate`, a boolean as 0/1). sqlite.ts opens its
 * connection.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { DirectStatement, DirectWrites } from './database.js';
import type { HeldGuard } from './sqlite-file-guard.js';
import { whileLocked } from './sqlite-locks.js';

/** Thrown inside `changeAll`'s transaction when a statement changed no row: better-sqlite3 rolls back on a throw. */
const UNCHANGED = Symbol('a statement changed no row');

export class SqliteDirectWrites implements DirectWrites {
  private readonly prepared = new Map<string, BetterSqlite3.Statement>();

  constructor(
    private readonly connection: BetterSqlite3.Database,
    private readonly file: HeldGuard,
  ) {}

  private statement(sql: string): BetterSqlite3.Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  /** Runs `work` (synchronous: nothing else runs on the connection meanwhile) on the guarded file, waiting out locks. */
  private locked<T>(work: () => T): Promise<T> {
    return whileLocked(async () => {
      this.file.guard.check();
      return work();
    });
  }


  run({ sql, values }: DirectStatement): Promise<number> {
    const ready = this.statement(sql);
    const stored = values.map(storedValue);
    return this.locked(() => ready.run(...stored).changes);
  }

  rows<Row>({ sql, values }: DirectStatement): Promise<Row[]> {
    const ready = this.statement(sql);
    const stored = values.map(storedValue);
    return this.locked(() => ready.all(...stored) as Row[]);
  }

  changeAll(statements: readonly DirectStatement[]): Promise<boolean> {
    const steps = statements.map(({ sql, values }) => ({ ready: this.statement(sql), stored: values.map(storedValue) }));
    const all = this.connection.transaction(() => {
      for (const { ready, stored } of steps) if (ready.run(...stored).changes === 0) throw UNCHANGED;
    });
    return this.locked(() => {
      try {
        all.immediate();
        return true;
      } catch (error) {
        if (error === UNCHANGED) return false;
        throw error;
      }
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
