/**
 * Moving an install from SQLite to PostgreSQL (`npm run db:copy -- <sqlite url> <postgresql url>`, docs/scaling.md):
 * every table of the bot's SQLite file copied into a new PostgreSQL database, ids kept, then the counts compared
 * table by table.
 *
 * Rows go through the two Prisma clients the bot itself uses (the SQLite one reads, the PostgreSQL one writes), not
 * raw SQL: a DateTime, a Boolean or a null reaches PostgreSQL exactly as the bot would have written it there, with
 * no second reading of how SQLite stores them (Prisma's own text format for dates, 0/1 for booleans). The tables
 * are Prisma's models (Prisma.ModelName, so a new model is copied with no change here); their order, primary keys
 * and sequences are read from the migrated PostgreSQL database itself, which the same schema built.
 *
 * The whole copy is one PostgreSQL transaction: a copy that fails (or whose counts differ) leaves the target as
 * empty as it was, and can simply be run again.
 */
import fs from 'node:fs';
import { Prisma as SqlitePrisma } from '../generated/prisma/client.js';
import { redactPasswords } from '../log.js';
import { dialectOf, migrateDatabase, openDatabase } from './database.js';
import type { Database } from './database-client.js';
import { openStore } from './index.js';
import { databaseFile } from './sqlite-file-guard.js';

/** Rows read and written at a time: a roll log of millions of rows is never in memory at once. */
export const COPY_BATCH = 500;
/** The copy is one transaction; a large roll log may take long, and nothing else is meant to use the target meanwhile. */
const COPY_TRANSACTION_MS = 6 * 60 * 60 * 1000;

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

export interface CopyReport {
  tables: TableCount[];
  /** Whether every table has as many rows in the target as in the source. */
  matches: boolean;
}

/** A copy that could not be made; its message says what would be right. Nothing was written to the target. */
export class CopyRefused extends Error {}

interface TableShape {
  model: string;
  primaryKey: string;
  /** The column a SERIAL sequence fills (the id), or null (Server, Roll: ids the bot makes). */
  serial: string | null;
  /** The tables this one's foreign keys point at. */
  references: string[];
}

type Delegate = {
  findMany(args: { where?: object; orderBy: object; take: number }): Promise<Array<Record<string, unknown>>>;
  createMany(args: { data: Array<Record<string, unknown>> }): Promise<{ count: number }>;
  count(): Promise<number>;
};

function delegateOf(db: unknown, model: string): Delegate {
  return (db as Record<string, Delegate>)[model.charAt(0).toLowerCase() + model.slice(1)]!;
}

/** Each model's primary key, serial column and foreign keys, as the migrated PostgreSQL database has them. */
async function tableShapes(target: Database, models: readonly string[]): Promise<TableShape[]> {
  const tables = await target.$queryRawUnsafe<Array<{ table: string }>>(
    `SELECT table_name::text AS "table" FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
  );
  const unknown = tables.map((row) => row.table).filter((table) => !models.includes(table));
  const missing = models.filter((model) => !tables.some((row) => row.table === model));
  if (unknown.length > 0 || missing.length > 0) {
    throw new CopyRefused(`the PostgreSQL database's tables do not match this version of the bot (${[...missing.map((table) => `missing ${table}`), ...unknown.map((table) => `unknown ${table}`)].join(', ')}): copy into a new, empty database`);
  }
  const keys = await target.$queryRawUnsafe<Array<{ table: string; column: string }>>(
    `SELECT c.conrelid::regclass::text AS "table", a.attname::text AS "column"
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.contype = 'p' AND c.connamespace = current_schema()::regnamespace`,
  );
  const foreign = await target.$queryRawUnsafe<Array<{ table: string; references: string }>>(
    `SELECT conrelid::regclass::text AS "table", confrelid::regclass::text AS "references"
       FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace`,
  );
  const unquote = (name: string) => name.replace(/^"|"$/g, '');
  const shapes: TableShape[] = [];
  for (const model of models) {
    const primary = keys.filter((key) => unquote(key.table) === model);
    if (primary.length !== 1) throw new CopyRefused(`the table ${model} has no single-column primary key in the PostgreSQL database; the copy keys its batches on one`);
    const primaryKey = primary[0]!.column;
    const [row] = await target.$queryRawUnsafe<Array<{ sequence: string | null }>>(`SELECT pg_get_serial_sequence($1, $2)::text AS sequence`, `"${model}"`, primaryKey);
    const sequence = row?.sequence ?? null;
    shapes.push({
      model,
      primaryKey,
      serial: sequence ? primaryKey : null,
      references: foreign.filter((key) => unquote(key.table) === model).map((key) => unquote(key.references)).filter((table) => table !== model),
    });
  }
  return dependencyOrder(shapes);
}

/** Referenced tables before the tables that reference them (a Skill's Operator is there before the Skill). */
function dependencyOrder(shapes: TableShape[]): TableShape[] {
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  while (ordered.length < shapes.length) {
    const ready = shapes.filter((shape) => !placed.has(shape.model) && shape.references.every((table) => placed.has(table)));
    if (ready.length === 0) throw new CopyRefused('the tables\' foreign keys form a cycle; the copy cannot order them');
    for (const shape of ready) {
      ordered.push(shape);
      placed.add(shape.model);
    }
  }
  return ordered;
}

export interface CopyOptions {
  /** Told each table as it is done (the command prints it). */
  progress?: (message: string) => void;
  batchSize?: number;
}

/**
 * Copies the SQLite database at `sourceUrl` (`file:…`, an existing file; migrated and re-keyed first, as the bot
 * does when it opens it) into the PostgreSQL database at `targetUrl` (which must exist; migrated from nothing here
 * if needed, and refused if any table has a row). Throws CopyRefused on a refusal; returns the counts otherwise.
 * When the counts differ, nothing is kept in the target and `matches` is false.
 */
export async function copySqliteToPostgres(sourceUrl: string, targetUrl: string, options: CopyOptions = {}): Promise<CopyReport> {
  const progress = options.progress ?? (() => undefined);
  const batchSize = options.batchSize ?? COPY_BATCH;
  if (dialectOf(sourceUrl) !== 'sqlite') throw new CopyRefused(`the source must be the bot's SQLite file (file:./data/bot.db), not ${redactPasswords(sourceUrl)}`);
  if (dialectOf(targetUrl) !== 'postgresql') throw new CopyRefused(`the target must be a PostgreSQL database (postgresql://user:password@host:5432/name), not ${redactPasswords(targetUrl)}`);
  const file = databaseFile(sourceUrl);
  if (!fs.existsSync(file)) throw new CopyRefused(`there is no SQLite database at ${file}: give the DATABASE_URL the bot runs with (file:./data/bot.db by default)`);

  // The source as the bot would open it: pending migrations applied and names re-keyed, so it has every column the
  // PostgreSQL schema has.
  progress(`source ${file}: ${await migrateDatabase(sourceUrl)}`);
  const source = await openStore(sourceUrl);
  try {
    progress(`target ${redactPasswords(targetUrl)}: ${await migrateDatabase(targetUrl)}`);
    const target = await openDatabase(targetUrl);
    try {
      const models = Object.values(SqlitePrisma.ModelName);
      const shapes = await tableShapes(target.db, models);
      return await target.db.$transaction(
        async (tx) => {
          for (const shape of shapes) {
            const rows = await delegateOf(tx, shape.model).count();
            if (rows > 0) {
              throw new CopyRefused(`the PostgreSQL database is not empty: the table ${shape.model} has ${rows} row${rows === 1 ? '' : 's'}. The copy only fills a new, empty database (nothing is merged or overwritten): create one (CREATE DATABASE …) or empty this one (DROP SCHEMA public CASCADE; CREATE SCHEMA public;) and run the copy again`);
            }
          }
          for (const shape of shapes) {
            const from = delegateOf(source.db, shape.model);
            const to = delegateOf(tx, shape.model);
            let copied = 0;
            let after: unknown = undefined;
            for (;;) {
              // Keyset pages in primary-key order: each page is a fresh query, so memory stays at one page.
              const page = await from.findMany({ ...(after === undefined ? {} : { where: { [shape.primaryKey]: { gt: after } } }), orderBy: { [shape.primaryKey]: 'asc' }, take: batchSize });
              if (page.length === 0) break;
              await to.createMany({ data: page });
              copied += page.length;
              after = page.at(-1)![shape.primaryKey];
              if (page.length < batchSize) break;
            }
            if (shape.serial) {
              // Ids were written as they were, so the sequence never moved: the next row would get id 1 again.
              await tx.$queryRawUnsafe(`SELECT setval(pg_get_serial_sequence('"${shape.model}"', '${shape.serial}'), coalesce(max("${shape.serial}"), 1), max("${shape.serial}") IS NOT NULL) FROM "${shape.model}"`);
            }
            progress(`copied ${shape.model}: ${copied} row${copied === 1 ? '' : 's'}`);
          }
          const tables: TableCount[] = [];
          for (const shape of shapes) {
            tables.push({ table: shape.model, source: await delegateOf(source.db, shape.model).count(), target: await delegateOf(tx, shape.model).count() });
          }
          const report = { tables, matches: tables.every((row) => row.source === row.target) };
          // Counts that differ (the bot still writing to the file?) keep nothing: the target stays empty for a re-run.
          if (!report.matches) throw new CountsDiffer(report);
          return report;
        },
        { maxWait: 10_000, timeout: COPY_TRANSACTION_MS },
      );
    } catch (error) {
      if (error instanceof CountsDiffer) return error.report;
      throw error;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

class CountsDiffer extends Error {
  constructor(readonly report: CopyReport) {
    super('the counts differ');
  }
}

/** The counts as a table for the terminal: table, source, target, and which differ. */
export function countsTable(report: CopyReport): string {
  const width = Math.max(5, ...report.tables.map((row) => row.table.length));
  const lines = [`${'table'.padEnd(width)}  ${'SQLite'.padStart(9)}  ${'PostgreSQL'.padStart(10)}`];
  for (const row of report.tables) {
    lines.push(`${row.table.padEnd(width)}  ${String(row.source).padStart(9)}  ${String(row.target).padStart(10)}${row.source === row.target ? '' : '  ← differs'}`);
  }
  return lines.join('\n');
}
