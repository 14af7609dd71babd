import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/store/database.js';
import { databaseFile } from '../../src/store/sqlite-file-guard.js';
import { pendingMigrations } from '../../src/store/sqlite-migrations.js';
import { freshDatabaseUrl } from '../helpers/database.js';

const allMigrations = fs
  .readdirSync(path.resolve('prisma/migrations'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('migrations at start-up', () => {
  it('finds every migration pending for a new file, and none for a migrated one', () => {
    const missing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-migrations-')), 'new.db');
    expect(pendingMigrations(missing)).toEqual(allMigrations);
    expect(pendingMigrations(databaseFile(freshDatabaseUrl()))).toEqual([]);
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

  it('sees a migration the file has not applied', () => {
    const file = databaseFile(freshDatabaseUrl());
    const db = new BetterSqlite3(file);
    db.prepare('DELETE FROM _prisma_migrations WHERE migration_name = ?').run(allMigrations.at(-1));
    db.close();
    expect(pendingMigrations(file)).toEqual([allMigrations.at(-1)]);
  });
});
