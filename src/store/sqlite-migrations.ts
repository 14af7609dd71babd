/**
 * SQLite's start-up migration step, applied by the bot itself (migrations.ts, shared with PostgreSQL's
 * postgres-migrations.ts) from prisma/migrations, only when the file lacks a migration. It runs on a connection
 * opened as the store's is (sqlite.ts), through the same driver adapter, and closed before the store opens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type AppliedMigration, applyMigrations, migrationNames, type MigrationTarget, projectMigrations, RECORD_MIGRATION } from './migrations.js';
import { connectSqlite } from './sqlite.js';
import { statement, type SqlDriverAdapter } from './sqlite-adapter.js';
import { databaseFile } from './sqlite-file-guard.js';
import { whileLocked } from './sqlite-locks.js';

const COMMITTED_FOLDER = 'prisma/migrations';

export function sqliteMigrationsFolder(): string {
  return projectMigrations(COMMITTED_FOLDER);
}

/** Prisma's own definition of its bookkeeping table on SQLite, so `prisma migrate deploy` and `status` agree with us. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** A time as Prisma's SQLite adapter writes it: ISO 8601 with an explicit +00:00. */
const stamp = (): string => new Date().toISOString().replace('Z', '+00:00');

/** The rows of a query as objects, by column name. */
async function rowsOf<Row>(connection: SqlDriverAdapter, sql: string): Promise<Row[]> {
  const { columnNames, rows } = await connection.queryRaw(statement(sql));
  return rows.map((row) => Object.fromEntries(columnNames.map((name, index) => [name, row[index]])) as Row);
}

async function appliedRows(connection: SqlDriverAdapter): Promise<AppliedMigration[]> {
  const [table] = await rowsOf(connection, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'");
  if (!table) return [];
  return rowsOf<AppliedMigration>(connection, 'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"');
}

/**
 * The migrations (folder names under prisma/migrations) that the file at `file` has not applied yet; all of them
 * for a new file (which is not created). Writes nothing.
 */
export async function pendingMigrations(file: string, folder = sqliteMigrationsFolder()): Promise<string[]> {
  if (!fs.existsSync(file)) return migrationNames(folder);
  const connection = await connectSqlite(file);
  try {
    const applied = new Set((await connection.exclusively(appliedRows)).filter((row) => row.finished_at && !row.rolled_back_at).map((row) => row.migration_name));
    return migrationNames(folder).filter((name) => !applied.has(name));
  } finally {
    await connection.dispose();
  }
}

/**
 * Applies the pending migrations to the file of `databaseUrl`, creating it and its folder if missing; says what it
 * did. Foreign keys are off for the run (Prisma's table redefinitions turn them off around a DROP TABLE, which
 * inside a transaction would be ignored) and checked before each migration commits.
 */
export async function migrateSqlite(databaseUrl: string, folder = sqliteMigrationsFolder()): Promise<string> {
  const file = databaseFile(databaseUrl);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const opened = await connectSqlite(file);
  try {
    return await opened.exclusively(async (connection) => {
      await connection.executeRaw(statement('PRAGMA foreign_keys = OFF'));
      const target: MigrationTarget = {
        database: `the SQLite file ${file}`,
        committedFolder: COMMITTED_FOLDER,
        appliedRows: () => appliedRows(connection),
        apply: async (migration, id) => {
          const startedAt = stamp();
          try {
            // Another program holding the file is waited for, as the bot waits for it (sqlite-locks.ts).
            await whileLocked(() => connection.executeRaw(statement('BEGIN IMMEDIATE')));
          } catch (error) {
            throw new Error(`${(error as Error).message} (another program has the file open: close it and start again)`, { cause: error });
          }
          try {
            await connection.executeScript(MIGRATIONS_TABLE);
            await connection.executeScript(migration.sql);
            const broken = await connection.queryRaw(statement('PRAGMA foreign_key_check'));
            if (broken.rows.length > 0) throw new Error(`${broken.rows.length} rows would break a foreign key`);
            await connection.executeRaw(statement(`${RECORD_MIGRATION} VALUES (?, ?, ?, ?, ?, 1)`, id, migration.checksum, migration.name, startedAt, stamp()));
            await connection.executeRaw(statement('COMMIT'));
          } catch (error) {
            await connection.executeRaw(statement('ROLLBACK')).catch(() => undefined);
            throw error;
          }
        },
      };
      return applyMigrations(folder, target);
    });
  } finally {
    await opened.dispose();
  }
}
