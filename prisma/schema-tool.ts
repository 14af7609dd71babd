/**
 * Prisma 6.19's CLI (the dev dependency `prisma-schema-tool`), for what needs a schema engine: `migrate diff`, which
 * writes a new migration (new-migration.ts, postgres.ts), and `migrate status`, with which a test checks that the
 * bot's own migration bookkeeping is Prisma's. Prisma 7's CLI runs its schema engine only as a native binary that it
 * downloads, which many hosts (and these machines) cannot; 6.19's runs as WebAssembly through a driver adapter
 * (schema-tool.config.ts). The bot itself never runs it: it applies its migrations itself (src/store/migrations.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repository, 'node_modules', 'prisma-schema-tool', 'build', 'index.js');
const config = path.join(repository, 'prisma', 'schema-tool.config.ts');

/**
 * 6.19 wants a `url` in the datasource, which Prisma 7 moved to the config; the copies it reads get one. (The query
 * engine it would otherwise fetch is never loaded by these commands: any existing file stands in for it.)
 */
function forTool(schema: string): string {
  if (/datasource db \{[^}]*\burl\s*=/.test(schema)) return schema;
  return schema.replace(/(datasource db \{[^}]*?)\n\}/, '$1\n  url      = env("DATABASE_URL")\n}');
}

/** Runs the 6.19 CLI with `args`; its standard output. */
export function schemaTool(args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, [cli, ...args, '--config', config], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PRISMA_QUERY_ENGINE_LIBRARY: cli, PRISMA_HIDE_UPDATE_MESSAGE: '1', ...env },
  });
}

/** The SQL that takes a database from the schema `from` (null: an empty database) to `to`, for their provider. */
export function schemaDiff(from: string | null, to: string): string {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-schema-'));
  try {
    const write = (name: string, schema: string): string => {
      const file = path.join(scratch, name);
      fs.writeFileSync(file, forTool(schema));
      return file;
    };
    const source = from === null ? ['--from-empty'] : ['--from-schema-datamodel', write('from.prisma', from)];
    const url = /provider\s*=\s*"postgresql"/.test(to) ? 'postgresql://localhost/tactalk' : 'file::memory:';
    return schemaTool(['migrate', 'diff', ...source, '--to-schema-datamodel', write('to.prisma', to), '--script'], { DATABASE_URL: url });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Prisma's `migrate status` or `migrate deploy` of the SQLite file at `databaseUrl`, against prisma/migrations. */
export function migrateCommand(command: 'status' | 'deploy', databaseUrl: string): string {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-schema-'));
  try {
    const schema = path.join(scratch, 'schema.prisma');
    fs.writeFileSync(schema, forTool(fs.readFileSync(path.join(repository, 'prisma', 'schema.prisma'), 'utf8')));
    fs.cpSync(path.join(repository, 'prisma', 'migrations'), path.join(scratch, 'migrations'), { recursive: true });
    return schemaTool(['migrate', command, '--schema', schema], { DATABASE_URL: databaseUrl });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
