/**
 * PostgreSQL's start-up migration step, applied by the bot itself (migrations.ts says why not Prisma's CLI), on a
 * connection of its own for the step only (postgres.ts opens it). SQLite's counterpart is sqlite-migrations.ts.
 *
 * The folders of prisma/postgres/migrations (written by `npm run schema:postgres` from the one schema) are applied
 * by migrations.ts, which SQLite shares. What is PostgreSQL's own: the whole run holds an advisory lock, so shard
 * processes started together apply each migration once: the others wait, then find nothing left.
 * Why this and not postgrator or node-pg-migrate: docs/scaling.md.
 */
import { applyMigrations, type AppliedMigration, projectMigrations, RECORD_MIGRATION } from './migrations.js';
import { redactPasswords } from '../log.js';
import { postgresPool } from './postgres.js';

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

const COMMITTED_FOLDER = 'prisma/postgres/migrations';

export function postgresMigrationsFolder(): string {
  return projectMigrations(COMMITTED_FOLDER);
}

/** Applies the pending migrations to the database at `databaseUrl` (which must exist); says what it did. */
export async function migratePostgres(databaseUrl: string, folder = postgresMigrationsFolder()): Promise<string> {
  // No statement timeout on this connection: a first migration of a large copy may take a while.
  const pool = postgresPool(databaseUrl, 1, 'tactalk-bot migrations', false);
  let client;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`could not connect to the PostgreSQL database of DATABASE_URL (${redactPasswords(databaseUrl)}) to apply its migrations: ${(error as Error).message}`, { cause: error });
  }
  try {
    // Waits for another process's run to finish.
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(MIGRATIONS_TABLE);
    return await applyMigrations(folder, {
      database: 'the PostgreSQL database',
      committedFolder: COMMITTED_FOLDER,
      appliedRows: async () => (await client.query<AppliedMigration>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"')).rows,
      // DDL is transactional in PostgreSQL: a migration that fails leaves nothing behind.
      apply: async (migration, id) => {
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query(`${RECORD_MIGRATION} VALUES ($1, $2, $3, now(), now(), 1)`, [id, migration.checksum, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      },
    });
  } finally {
    // Ending the session releases the advisory lock too.
    client.release(true);
    await pool.end().catch(() => undefined);
  }
}
