/**
 * The one PrismaClient of the process, over SQLite through the better-sqlite3 driver adapter,
 * and the start-up migration step.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '../generated/prisma/client.js';

export type Database = PrismaClient;

/**
 * Whether `id` can be a row id (a positive 32-bit Int, as Prisma's `Int` takes). Ids parsed from a custom_id or
 * typed text may be NaN, fractional or huge; Prisma throws on those instead of finding nothing.
 */
export function isRowId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;
}

/** The folder with package.json and prisma/: two up from here in the sources, three in the built dist/. */
function findProjectRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(folder, 'prisma', 'schema.prisma'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error('cannot find the project folder (with prisma/schema.prisma) above the code');
    folder = parent;
  }
  return folder;
}

const projectRoot = findProjectRoot();

/** `file:./data/bot.db` → the absolute file path (relative paths are taken from the working directory). */
export function databaseFile(databaseUrl: string): string {
  const file = databaseUrl.replace(/^file:/, '');
  return path.resolve(file);
}

export async function openDatabase(databaseUrl: string): Promise<Database> {
  const file = databaseFile(databaseUrl);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 5000 }) });
  // WAL lets readers go on while one writer writes; the busy timeout makes a second writer wait, not fail.
  await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await prisma.$queryRawUnsafe('PRAGMA busy_timeout = 5000');
  await prisma.$executeRawUnsafe('PRAGMA foreign_keys = ON');
  return prisma;
}

/**
 * Applies pending migrations with `prisma migrate deploy` (the JavaScript schema engine, see prisma.config.ts).
 * Creates the file and its folder if missing.
 */
export async function migrateDatabase(databaseUrl: string): Promise<string> {
  const file = databaseFile(databaseUrl);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const cli = path.join(projectRoot, 'node_modules', 'prisma', 'build', 'index.js');
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'migrate', 'deploy'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: `file:${file}`, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    timeout: 120_000,
  });
  return stdout;
}
