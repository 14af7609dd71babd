/**
 * The bot's own migration step, for both databases: each folder of a migrations folder is applied once, in name
 * order, in a transaction of its own together with the row Prisma's `migrate deploy` would write in
 * `_prisma_migrations` (the same table, the same checksum), so `prisma migrate status` and `deploy` agree with what
 * the bot did. A migration is all there or not at all.
 *
 * Why not Prisma's CLI: Prisma 7's runs its schema engine only as a native binary it downloads, which many hosts
 * cannot reach; and it cost a second Node process and ~1.3 s of a first start, where applying the SQL here takes ~15 ms.
 * What differs between the databases (the connection, the lock, the placeholders, the foreign-key check) is in
 * sqlite-migrations.ts and postgres-migrations.ts; this file reads the folder and decides what to apply.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectFolder } from './project-folder.js';

export interface Migration {
  /** The folder's name, e.g. 20261124044402_welcome_and_played_systems. */
  name: string;
  sql: string;
  /** What Prisma records: the SHA-256 of the file, in hex. */
  checksum: string;
}

/** A row of `_prisma_migrations`, as either database reads it (the times only tell whether they are set). */
export interface AppliedMigration {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/** The columns of the row written with each migration; each dialect adds its VALUES (id, checksum, name, times, 1). */
export const RECORD_MIGRATION = 'INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count")';

/** One database as the applier sees it: what it has applied, and how to apply one more. */
export interface MigrationTarget {
  /** How the database is named in messages: "the PostgreSQL database", "the SQLite file /srv/bot.db". */
  database: string;
  /** The committed folder of this database's migrations, relative to the project, named in the refusal of an edited one. */
  committedFolder: string;
  /** The rows of `_prisma_migrations`; none while the table does not exist. */
  appliedRows(): Promise<AppliedMigration[]> | AppliedMigration[];
  /** Runs the migration's SQL and writes its row (RECORD_MIGRATION with `id`), in one transaction. */
  apply(migration: Migration, id: string): Promise<void> | void;
}

/** The migration folders' names under `folder`, in the order they apply. */
export function migrationNames(folder: string): string[] {
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export function migrationsIn(folder: string): Migration[] {
  return migrationNames(folder).map((name) => {
    const sql = fs.readFileSync(path.join(folder, name, 'migration.sql'), 'utf8');
    return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
  });
}

/** The migrations `rows` do not show applied. Refuses a database another tool left half-migrated, or an applied migration edited since. */
export function pendingOf(migrations: Migration[], rows: AppliedMigration[], target: Pick<MigrationTarget, 'database' | 'committedFolder'>): Migration[] {
  const failed = rows.filter((row) => !row.finished_at && !row.rolled_back_at).map((row) => row.migration_name);
  if (failed.length > 0) {
    throw new Error(`${target.database} has migrations that were started and never finished (${failed.join(', ')}), by another tool; mark them rolled back (prisma migrate resolve) after checking the schema, then start again`);
  }
  const applied = new Map(rows.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => [row.migration_name, row.checksum]));
  return migrations.filter((migration) => {
    const checksum = applied.get(migration.name);
    if (checksum === undefined) return true;
    if (checksum !== migration.checksum) {
      throw new Error(`the migration ${migration.name} was changed after it was applied to ${target.database} (its checksum differs): restore ${target.committedFolder}/${migration.name}/migration.sql as it was, and write changes as a new migration (npm run migration:new)`);
    }
    return false;
  });
}

/** Applies what `target` lacks of the migrations in `folder`, one transaction each, stopping at the first that fails; says what it did. */
export async function applyMigrations(folder: string, target: MigrationTarget): Promise<string> {
  const pending = pendingOf(migrationsIn(folder), await target.appliedRows(), target);
  for (const migration of pending) {
    try {
      await target.apply(migration, randomUUID());
    } catch (error) {
      throw new Error(`could not apply the migration ${migration.name} to ${target.database}: ${failureOf(error)}. Nothing of it was applied.`, { cause: error });
    }
  }
  return pending.length === 0 ? 'No pending migrations to apply.' : `Applied ${pending.length} migration${pending.length === 1 ? '' : 's'}: ${pending.map((migration) => migration.name).join(', ')}.`;
}

/**
 * What went wrong, in words: the driver adapter's errors carry the database's own words in their cause (`{ kind:
 * 'TableDoesNotExist', table: 'X' }`, or `{ kind: 'sqlite', message }`), their message only the kind.
 */
function failureOf(error: unknown): string {
  const message = (error as Error).message;
  const cause = (error as { cause?: Record<string, unknown> }).cause;
  if (typeof cause !== 'object' || cause === null || typeof cause.kind !== 'string') return message;
  const details = Object.entries(cause).filter(([key, value]) => key !== 'kind' && typeof value === 'string' && value !== '');
  return details.length === 0 ? message : `${cause.kind} (${details.map(([key, value]) => `${key}: ${value}`).join(', ')})`;
}

/** A migrations folder of the project, e.g. `prisma/migrations`, as an absolute path. */
export function projectMigrations(relative: string): string {
  return path.join(projectFolder(), relative);
}
