/**
 * Writes a new migration: `npm run migration:new -- <name>`.
 * `prisma migrate dev` cannot run with the driver adapter, so the SQL is the diff between the schema as it was
 * when the latest migration was committed and prisma/schema.prisma now. The PostgreSQL schema and its migration of
 * the same name follow (prisma/postgres.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writePostgres } from './postgres.js';
import { schemaDiff } from './schema-tool.js';

const name = (process.argv[2] ?? '').trim().toLowerCase().replace(/[^a-z0-9]+/g, '_');
if (!name) {
  console.error('usage: npm run migration:new -- <name>');
  process.exit(1);
}
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const lastMigrationCommit = git('log', '-1', '--format=%H', '--', 'prisma/migrations');
if (!lastMigrationCommit) throw new Error('no committed migration to start from');
const previous = git('show', `${lastMigrationCommit}:prisma/schema.prisma`);
const sql = schemaDiff(previous, fs.readFileSync('prisma/schema.prisma', 'utf8'));
if (/This is an empty migration/.test(sql)) {
  console.log('The schema has not changed since the latest migration; nothing written.');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const folder = path.join('prisma', 'migrations', `${stamp}_${name}`);
fs.mkdirSync(folder, { recursive: true });
fs.writeFileSync(path.join(folder, 'migration.sql'), sql);
const postgres = writePostgres();
console.log(
  `Wrote ${folder}/migration.sql${postgres.migration ? ` and ${postgres.migration}/migration.sql` : ''}; ` +
    'review them, then commit them with the schema and prisma/postgres.',
);
