/**
 * SQLite's start-up migration step, applied by the bot itself (migrations.ts, shared with PostgreSQL's
 * postgres-migrations.ts) from prisma/migrations, only when the file lacks a migration.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { type AppliedMigration, applyMigrations, migrationNames, type MigrationTarget, projectMigrations, RECORD_MIGRATION } from './migrations.js';
import { databaseFile } from './sqlite-file-guard.js';

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

function appliedRows(db: BetterSqlite3.Database): AppliedMigration[] {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
  if (!table) return [];
  return db.prepare('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"').all() as AppliedMigration[];
}

/**
 * The migrations (folder names under prisma/migrations) that the file at `file` has not applied yet; all of them
 * for a new file. Reads the file only, writes nothing.
 */
export function pendingMigrations(file: string, folder = sqliteMigrationsFolder()): string[] {
  if (!fs.existsSync(file)) return migrationNames(folder);
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const applied = new Set(appliedRows(db).filter((row) => row.finished_at && !row.rolled_back_at).map((row) => row.migration_name));
    return migrationNames(folder).filter((name) => !applied.has(name));
  } finally {
    db.close();
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
  const db = new BetterSqlite3(file, { timeout: 10_000 });
  try {
    db.pragma('foreign_keys = OFF');
    const target: MigrationTarget = {
      database: `the SQLite file ${file}`,
      committedFolder: COMMITTED_FOLDER,
      appliedRows: () => appliedRows(db),
      apply: (migration, id) => {
        const startedAt = stamp();
        db.exec('BEGIN IMMEDIATE');
        try {
          db.exec(MIGRATIONS_TABLE);
          db.exec(migration.sql);
          const broken = db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0) throw new Error(`${broken.length} rows would break a foreign key`);
          db.prepare(`${RECORD_MIGRATION} VALUES (?, ?, ?, ?, ?, 1)`).run(id, migration.checksum, migration.name, startedAt, stamp());
          db.exec('COMMIT');
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          if ((error as { code?: unknown }).code === 'SQLITE_BUSY') (error as Error).message += ' (another program has the file open: close it and start again)';
          throw error;
        }
      },
    };
    return await applyMigrations(folder, target);
  } finally {
    db.close();
  }
}
