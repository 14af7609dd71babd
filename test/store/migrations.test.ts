import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateCommand } from '../../prisma/schema-tool.js';
import { migrateDatabase } from '../../src/store/database.js';
import { databaseFile } from '../../src/store/sqlite-file-guard.js';
import { migrateSqlite, pendingMigrations, sqliteMigrationsFolder } from '../../src/store/sqlite-migrations.js';
import { freshDatabaseUrl } from '../helpers/database.js';

const allMigrations = fs
  .readdirSync(path.resolve('prisma/migrations'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

function newFileUrl(): string {
  return `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-migrations-')), 'new.db')}`;
}

/** A copy of the committed migrations, to change without touching the project's, with `extra` ones after them. */
function migrationsCopy(extra: Record<string, string> = {}): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-migrations-'));
  fs.cpSync(sqliteMigrationsFolder(), folder, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) {
    fs.mkdirSync(path.join(folder, name));
    fs.writeFileSync(path.join(folder, name, 'migration.sql'), sql);
  }
  return folder;
}

function tables(url: string): string[] {
  const db = new BetterSqlite3(databaseFile(url), { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name);
  } finally {
    db.close();
  }
}

describe('migrations at start-up', () => {
  it('finds every migration pending for a new file, and none for a migrated one', async () => {
    const missing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-migrations-')), 'new.db');
    expect(await pendingMigrations(missing)).toEqual(allMigrations);
    expect(await pendingMigrations(databaseFile(freshDatabaseUrl()))).toEqual([]);
  });

  it('starts without the migration tool when nothing is pending, even while another program holds the file open', async () => {
    const url = freshDatabaseUrl();
    const other = new BetterSqlite3(databaseFile(url));
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      expect(await migrateDatabase(url)).toBe('No pending migrations to apply.');
    } finally {
      other.close();
    }
  });

  it('sees a migration the file has not applied', async () => {
    const file = databaseFile(freshDatabaseUrl());
    const db = new BetterSqlite3(file);
    db.prepare('DELETE FROM _prisma_migrations WHERE migration_name = ?').run(allMigrations.at(-1));
    db.close();
    expect(await pendingMigrations(file)).toEqual([allMigrations.at(-1)]);
  });

  it('migrates a new file in-process so that Prisma\'s own `migrate status` and `deploy` find it up to date', async () => {
    const url = newFileUrl();
    expect(await migrateDatabase(url)).toBe(`Applied ${allMigrations.length} migration${allMigrations.length === 1 ? '' : 's'}: ${allMigrations.join(', ')}.`);
    expect(await migrateDatabase(url)).toBe('No pending migrations to apply.');
    // Prisma's own bookkeeping, read by its CLI (the version with a schema engine that runs here, prisma/schema-tool.ts).
    expect(migrateCommand('status', url)).toContain('Database schema is up to date!');
    expect(migrateCommand('deploy', url)).toContain('No pending migrations to apply.');
  });

  it('refuses a migration file changed after it was applied, naming the file', async () => {
    const url = newFileUrl();
    const folder = migrationsCopy();
    await migrateSqlite(url, folder);
    fs.appendFileSync(path.join(folder, allMigrations[0]!, 'migration.sql'), '\n-- an edit after the fact\n');
    await expect(migrateSqlite(url, folder)).rejects.toThrow(`the migration ${allMigrations[0]} was changed after it was applied`);
    await expect(migrateSqlite(url, folder)).rejects.toThrow(`prisma/migrations/${allMigrations[0]}/migration.sql`);
  });

  it('a migration that fails leaves nothing of it applied and no row, and the ones before it stay; mended, the next start applies it', async () => {
    const url = newFileUrl();
    const folder = migrationsCopy({
      '20991231000001_broken': 'CREATE TABLE "HalfDone" ("id" INTEGER PRIMARY KEY);\nALTER TABLE "NoSuchTable" ADD COLUMN "x" TEXT;\n',
      '20991231000002_after': 'CREATE TABLE "After" ("id" INTEGER PRIMARY KEY);\n',
    });
    await expect(migrateSqlite(url, folder)).rejects.toThrow(/could not apply the migration 20991231000001_broken .*NoSuchTable.*Nothing of it was applied/);
    expect(tables(url)).toContain('Operator');
    expect(tables(url)).not.toContain('HalfDone');
    expect(tables(url)).not.toContain('After');
    expect(await pendingMigrations(databaseFile(url), folder)).toEqual(['20991231000001_broken', '20991231000002_after']);

    fs.writeFileSync(path.join(folder, '20991231000001_broken', 'migration.sql'), 'CREATE TABLE "HalfDone" ("id" INTEGER PRIMARY KEY);\n');
    expect(await migrateSqlite(url, folder)).toBe('Applied 2 migrations: 20991231000001_broken, 20991231000002_after.');
  });

  it('refuses a migration that would leave a row pointing at nothing', async () => {
    const url = newFileUrl();
    const folder = migrationsCopy({ '20991231000001_orphan': 'INSERT INTO "Skill" ("operatorId", "name", "nameKey", "level") VALUES (999, \'Climbing\', \'climbing\', 40);\n' });
    await expect(migrateSqlite(url, folder)).rejects.toThrow(/could not apply the migration 20991231000001_orphan .*foreign key.*Nothing of it was applied/);
    expect(await pendingMigrations(databaseFile(url), folder)).toEqual(['20991231000001_orphan']);
  });
});
