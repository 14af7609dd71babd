import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivePostgresSchema, writePostgres } from '../../prisma/postgres.js';

const fix = 'run `npm run schema:postgres` (or `npm run migration:new -- <name>`, which runs it) and commit prisma/postgres';

/** Every file under `folder`, by its path relative to it. */
function files(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(folder, file)] = fs.readFileSync(file, 'utf8');
  }
  return out;
}

/** A copy of the repository's prisma folder (its schema, migrations and PostgreSQL folder) in a temporary one. */
function copyOfPrisma(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-postgres-schema-'));
  fs.cpSync(path.resolve('prisma'), path.join(root, 'prisma'), { recursive: true });
  return root;
}

describe('the PostgreSQL schema, derived from prisma/schema.prisma', () => {
  it('is up to date: deriving it again changes nothing in prisma/postgres', () => {
    const root = copyOfPrisma();
    const result = writePostgres(root);
    expect(result, `prisma/postgres is out of date with prisma/schema.prisma: ${fix}`).toEqual({ schemaChanged: false });
    expect(files(path.join(root, 'prisma', 'postgres')), `prisma/postgres differs from what is derived: ${fix}`).toEqual(
      files(path.resolve('prisma', 'postgres')),
    );
  });

  // Once later migrations exist, their chain is checked against a real PostgreSQL by the scale suite (issue 14).
  const committed = fs.readdirSync(path.resolve('prisma/postgres/migrations'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  it.skipIf(committed.length !== 1)('derived from nothing, gives the committed baseline migration', () => {
    const root = copyOfPrisma();
    fs.rmSync(path.join(root, 'prisma', 'postgres'), { recursive: true });
    expect(writePostgres(root).migration).toBe(path.join('prisma', 'postgres', 'migrations', committed[0]!.name));
    expect(files(path.join(root, 'prisma', 'postgres', 'migrations')), `prisma/postgres/migrations differs: ${fix}`).toEqual(
      files(path.resolve('prisma', 'postgres', 'migrations')),
    );
  }, 20_000);

  it('has the same models, with the PostgreSQL provider and a client of its own', () => {
    const sqlite = fs.readFileSync(path.resolve('prisma/schema.prisma'), 'utf8');
    const postgres = fs.readFileSync(path.resolve('prisma/postgres/schema.prisma'), 'utf8');
    const models = (schema: string) => schema.slice(schema.indexOf('\nmodel '));
    expect(models(postgres)).toBe(models(sqlite));
    expect(postgres).toMatch(/datasource db \{\s*provider\s*=\s*"postgresql"/);
    expect(postgres).toContain('output                 = "../../src/generated/prisma-postgres"');
    expect(fs.readFileSync(path.resolve('prisma/postgres/migrations/migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');
  });

  it('refuses a schema it does not know how to derive, naming what it expected', () => {
    expect(() => derivePostgresSchema('datasource db {\n  provider = "sqlite"\n}\n')).toThrow(/generator output/);
  });

  it('gives a change to the models a PostgreSQL migration named after the newest SQLite migration', () => {
    const root = copyOfPrisma();
    const schema = path.join(root, 'prisma', 'schema.prisma');
    fs.writeFileSync(schema, fs.readFileSync(schema, 'utf8').replace('  commandsDigest         String?\n', '  commandsDigest         String?\n  motto                  String?\n'));
    expect(() => writePostgres(root)).toThrow(/npm run migration:new/);

    fs.mkdirSync(path.join(root, 'prisma', 'migrations', '29991231000000_motto'));
    expect(writePostgres(root)).toEqual({ schemaChanged: true, migration: path.join('prisma', 'postgres', 'migrations', '29991231000000_motto') });
    const sql = fs.readFileSync(path.join(root, 'prisma', 'postgres', 'migrations', '29991231000000_motto', 'migration.sql'), 'utf8');
    expect(sql).toMatch(/ALTER TABLE "Server" ADD COLUMN\s+"motto" TEXT;/);
    expect(writePostgres(root)).toEqual({ schemaChanged: false });
  }, 20_000);

  it('follows a change to a comment with the schema alone, no migration', () => {
    const root = copyOfPrisma();
    const schema = path.join(root, 'prisma', 'schema.prisma');
    fs.writeFileSync(schema, fs.readFileSync(schema, 'utf8').replace('/// Every roll the bot made', '/// Every roll the bot has made'));
    expect(writePostgres(root)).toEqual({ schemaChanged: true });
    expect(fs.readFileSync(path.join(root, 'prisma', 'postgres', 'schema.prisma'), 'utf8')).toContain('/// Every roll the bot has made');
  }, 20_000);
});
