// The bot's own PostgreSQL migration applier (src/store/postgres.ts, migratePostgres) on a real PostgreSQL: a new
// database migrated from nothing has every table of the schema; shard processes starting together apply each
// migration once; a changed migration file and a broken migration stop the start-up and leave nothing half done.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma-postgres/client.js';
import { migrateDatabase, openDatabase } from '../../src/store/database.js';
import { migratePostgres, postgresMigrationsFolder } from '../../src/store/postgres-migrations.js';
import { adminQuery } from '../helpers/postgres-server.js';

/** A new database on the scale suite's server, with nothing in it. */
async function emptyDatabase(): Promise<string> {
  const admin = inject('postgresAdminUrl');
  const name = `migrate_${randomBytes(6).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** A copy of the committed migrations, to change without touching the project's. */
function migrationsCopy(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-migrations-'));
  fs.cpSync(postgresMigrationsFolder(), folder, { recursive: true });
  return folder;
}

/** A migration of a test's own, after the committed ones, in a copy of the folder. */
function addMigration(folder: string, name: string, sql: string): void {
  fs.mkdirSync(path.join(folder, name));
  fs.writeFileSync(path.join(folder, name, 'migration.sql'), sql);
}

function committedMigrations(): string[] {
  return fs.readdirSync(postgresMigrationsFolder(), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
}

/** Every column the committed migrations create, table → column → PostgreSQL's name for its type. */
function columnsOfMigrations(): Map<string, Map<string, string>> {
  const types: Record<string, string> = { TEXT: 'text', INTEGER: 'integer', SERIAL: 'integer', BOOLEAN: 'boolean', 'TIMESTAMP(3)': 'timestamp without time zone', DOUBLE: 'double precision' };
  const tables = new Map<string, Map<string, string>>();
  for (const name of committedMigrations()) {
    const sql = fs.readFileSync(path.join(postgresMigrationsFolder(), name, 'migration.sql'), 'utf8');
    for (const [, table, body] of sql.matchAll(/CREATE TABLE "(\w+)" \(([\s\S]*?)\n\);/g)) {
      const columns = new Map<string, string>();
      for (const [, column, type] of body!.matchAll(/^\s+"(\w+)" ([A-Z]+(?:\(\d+\))?)/gm)) columns.set(column!, types[type!] ?? type!);
      tables.set(table!, columns);
    }
    // Prisma aligns the column with spaces after ADD COLUMN in PostgreSQL's migrations, and adds several columns to one
    // table in one statement, each on a line of its own.
    for (const [, table, changes] of sql.matchAll(/ALTER TABLE "(\w+)" ([\s\S]*?);/g)) {
      for (const [, column, type] of changes!.matchAll(/ADD COLUMN\s+"(\w+)"\s+([A-Z]+(?:\(\d+\))?)/g)) tables.get(table!)?.set(column!, types[type!] ?? type!);
    }
  }
  return tables;
}

describe('PostgreSQL migrations applied by the bot', () => {
  it('a new database migrated from nothing has every table and column of the schema, and a second run applies nothing', async () => {
    const url = await emptyDatabase();
    expect(await migrateDatabase(url)).toBe(`Applied ${committedMigrations().length} migration${committedMigrations().length === 1 ? '' : 's'}: ${committedMigrations().join(', ')}.`);

    const columns = await query<{ table_name: string; column_name: string; data_type: string }>(
      url,
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const inDatabase = new Map<string, Map<string, string>>();
    for (const row of columns) {
      if (!inDatabase.has(row.table_name)) inDatabase.set(row.table_name, new Map());
      inDatabase.get(row.table_name)!.set(row.column_name, row.data_type);
    }
    // One table per model of the schema, no more.
    expect([...inDatabase.keys()].sort()).toEqual(Object.values(Prisma.ModelName).sort());
    // Every column with the type the migrations give it.
    const expected = columnsOfMigrations();
    for (const [table, tableColumns] of inDatabase) expect(Object.fromEntries(tableColumns), table).toEqual(Object.fromEntries(expected.get(table)!));

    // The PostgreSQL client reads and writes every model: every field has its column.
    const { db, close } = await openDatabase(url);
    try {
      for (const model of Object.values(Prisma.ModelName)) {
        const delegate = (db as unknown as Record<string, { findMany(): Promise<unknown[]> }>)[model.charAt(0).toLowerCase() + model.slice(1)]!;
        expect(await delegate.findMany(), model).toEqual([]);
      }
      const sheet = await db.operator.create({ data: { guildId: 'g', name: 'Troy', nameKey: 'troy' } });
      expect(sheet).toMatchObject({ id: 1, system: 'tactalk', active: false, notes: '' });
    } finally {
      await close();
    }

    expect(await migrateDatabase(url)).toBe('No pending migrations to apply.');
    const rows = await query<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows.map((row) => row.migration_name)).toEqual(committedMigrations());
  });

  it('shard processes migrating at the same moment apply each migration once', async () => {
    const url = await emptyDatabase();
    // Several migrations, so that a second applier that did not wait would find some applied and others not.
    const folder = migrationsCopy();
    addMigration(folder, '20991231000001_later', 'CREATE TABLE "Later" ("id" SERIAL PRIMARY KEY);\n');
    addMigration(folder, '20991231000002_latest', 'ALTER TABLE "Later" ADD COLUMN "note" TEXT;\n');

    const outcomes = await Promise.all(Array.from({ length: 4 }, () => migratePostgres(url, folder)));
    // Exactly one of them applied everything; the others waited for it and found nothing left.
    expect(outcomes.filter((outcome) => outcome.startsWith('Applied'))).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'No pending migrations to apply.')).toHaveLength(3);
    const rows = await query<{ migration_name: string; runs: string }>(url, 'SELECT migration_name, count(*) AS runs FROM "_prisma_migrations" GROUP BY migration_name ORDER BY migration_name');
    expect(rows).toEqual([...committedMigrations(), '20991231000001_later', '20991231000002_latest'].map((name) => ({ migration_name: name, runs: '1' })));
  });

  it('refuses a migration file changed after it was applied, naming the file', async () => {
    const url = await emptyDatabase();
    const folder = migrationsCopy();
    await migratePostgres(url, folder);
    const [first] = committedMigrations();
    fs.appendFileSync(path.join(folder, first!, 'migration.sql'), '\n-- an edit after the fact\n');
    await expect(migratePostgres(url, folder)).rejects.toThrow(`the migration ${first} was changed after it was applied`);
    await expect(migratePostgres(url, folder)).rejects.toThrow(`prisma/postgres/migrations/${first}/migration.sql`);
  });

  it('a migration that fails leaves nothing of it applied and no row, and the ones before it stay', async () => {
    const url = await emptyDatabase();
    const folder = migrationsCopy();
    addMigration(folder, '20991231000001_broken', 'CREATE TABLE "HalfDone" ("id" SERIAL PRIMARY KEY);\nALTER TABLE "Operator" ADD COLUMN "level" INTEGER;\nALTER TABLE "NoSuchTable" ADD COLUMN "x" TEXT;\n');
    addMigration(folder, '20991231000002_after', 'CREATE TABLE "After" ("id" SERIAL PRIMARY KEY);\n');

    await expect(migratePostgres(url, folder)).rejects.toThrow(/could not apply the migration 20991231000001_broken .*"NoSuchTable".*Nothing of it was applied/);
    const tables = await query<{ table_name: string }>(url, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    expect(tables.map((row) => row.table_name)).not.toContain('HalfDone');
    expect(tables.map((row) => row.table_name)).not.toContain('After');
    const operatorColumns = await query<{ column_name: string }>(url, `SELECT column_name FROM information_schema.columns WHERE table_name = 'Operator'`);
    expect(operatorColumns.map((row) => row.column_name)).not.toContain('level');
    const rows = await query<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows.map((row) => row.migration_name)).toEqual(committedMigrations());

    // Mended, the next start applies it and what follows.
    fs.writeFileSync(path.join(folder, '20991231000001_broken', 'migration.sql'), 'CREATE TABLE "HalfDone" ("id" SERIAL PRIMARY KEY);\n');
    expect(await migratePostgres(url, folder)).toBe('Applied 2 migrations: 20991231000001_broken, 20991231000002_after.');
  });
});
