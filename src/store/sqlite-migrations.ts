/**
 * SQLite's start-up migration step: `prisma migrate deploy` over the file, run only when the file lacks a migration.
 * PostgreSQL's counterpart is postgres-migrations.ts.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { projectFolder } from './project-folder.js';
import { databaseFile } from './sqlite-file-guard.js';

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
