/**
 * PostgreSQL's start-up migration step, applied by the bot itself: Prisma 6.19's `migrate deploy` cannot run over
 * the adapter (prisma/orm#27403). SQLite's counterpart is sqlite-migrations.ts.
 *
 * Each folder of prisma/postgres/migrations (written by `npm run schema:postgres` from the one schema) is applied
 * once, in name order, in a transaction of its own together with the row Prisma's `migrate deploy` would write in
 * `_prisma_migrations`: DDL is transactional in PostgreSQL, so a migration is all there or not at all. The whole run
 * holds an advisory lock, so shard processes started together apply each migration once: the others wait, then find
 * nothing left. Why this and not postgrator or node-pg-migrate: docs/scaling.md.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { redacted } from './postgres.js';
import { projectFolder } from './project-folder.js';

/** Prisma's own definition of its bookkeeping table (so a later `prisma migrate deploy` finds everything applied). */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** The advisory lock key of the migration step (any constant the bot uses for nothing else). */
const MIGRATION_LOCK = 7_236_410_001;

export function postgresMigrationsFolder(): string {
  return path.join(projectFolder(), 'prisma', 'postgres', 'migrations');
}

interface Migration {
  name: string;
  sql: string;
  /** What Prisma records: the SHA-256 of the file, in hex. */
  checksum: string;
}

function migrationsOnDisk(folder: string): Migration[] {
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(folder, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** Applies the pending migrations to the database at `databaseUrl` (which must exist); says what it did. */
export async function migratePostgres(databaseUrl: string, folder = postgresMigrationsFolder()): Promise<string> {
  const migrations = migrationsOnDisk(folder);
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'tactalk-bot migrations', options: '-c TimeZone=UTC' });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`could not connect to the PostgreSQL database of DATABASE_URL (${redacted(databaseUrl)}) to apply its migrations: ${(error as Error).message}`, { cause: error });
  }
  try {
    // Waits for another process's run to finish (no statement timeout on this connection: a first migration of a
    // large copy may take a while).
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(MIGRATIONS_TABLE);
    const rows = (await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    )).rows;
    const applied = new Map(rows.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => [row.migration_name, row.checksum]));
    const failed = rows.filter((row) => !row.finished_at && !row.rolled_back_at).map((row) => row.migration_name);
    if (failed.length > 0) {
      throw new Error(`the PostgreSQL database has migrations that were started and never finished (${failed.join(', ')}), by another tool; mark them rolled back (prisma migrate resolve) after checking the schema, then start again`);
    }
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`the migration ${migration.name} was changed after it was applied to this PostgreSQL database (its checksum differs): restore prisma/postgres/migrations/${migration.name}/migration.sql as it was, and write changes as a new migration (npm run migration:new)`);
        }
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(
          'INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count") VALUES ($1, $2, $3, now(), now(), 1)',
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`could not apply the migration ${migration.name} to the PostgreSQL database: ${(error as Error).message}. Nothing of it was applied.`, { cause: error });
      }
      done.push(migration.name);
    }
    return done.length === 0 ? 'No pending migrations to apply.' : `Applied ${done.length} migration${done.length === 1 ? '' : 's'}: ${done.join(', ')}.`;
  } finally {
    // Ending the session releases the advisory lock too.
    await client.end().catch(() => undefined);
  }
}
