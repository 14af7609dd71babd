/**
 * Reads against a large database: `/log user:X`, `/roll replay` and the skill autocomplete of `/roll challenge`, with
 * 1,000,000 rolls and 100,000 sheets in the database, on SQLite and on PostgreSQL. The bot runs as startOurs makes it
 * (bench/challenge-latency.ts); the rows are then made in the bot's database by SQL (a few seconds), so each run makes
 * its database anew rather than keeping a file of over a gigabyte between runs.
 *
 * - Rolls: 1,000,000 over 1,000 servers; the sandbox's own server (mike's) holds 40 % of them, mike 100,000 of
 *   those; a roll a minute apart, over about two years. Each is a copy of a real `/roll challenge` of mike's (its
 *   inputs, seed, dice and result), under its own id, so any of them replays.
 * - Sheets: 100,000, each with two skills; 10,000 of them in the sandbox's server, owned by members with one sheet each.
 * - `/log user:mike` reads a member with 100,000 rolls, `/log user:player1` one with 20 (made by the bot), `/log` the
 *   whole server's 400,000; each is one page, newest first, with the "older" and "newer" checks. `/roll replay` takes a random roll of the server each
 *   time. The autocomplete is each time another member's first, so the sheet is read from the database, not the cache.
 */
import type { Database } from '../src/store/database-client.js';
import type { Store } from '../src/store/index.js';
import { PLAYERS, ROLL, type Target } from './challenge-latency.js';
import { summarize, type Summary } from './stats.js';

export const LARGE_ROLLS = Number(process.env.BENCH_LARGE_ROLLS ?? 1_000_000);
export const LARGE_SHEETS = Number(process.env.BENCH_LARGE_SHEETS ?? 100_000);
/** Requests of each kind measured, after as many to warm up. */
const REQUESTS = 200;
/** Rows a statement makes. */
const CHUNK = 50_000;
const WARM_UP = 50;
/** The roll log's alphabet (src/store/rolls.ts): generated ids must read as ids a user can type. */
/** A member with a sheet (startOurs gives every one of PLAYERS one) and 20 rolls. */
const FEW = PLAYERS[1]!;
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

export interface LargeDatabaseFigures {
  engine: string;
  generateSeconds: number;
  logMany: Summary;
  logFew: Summary;
  logServer: Summary;
  replay: Summary;
  autocomplete: Summary;
  problems: string[];
}

type Dialect = Store['dialect'];

/** `n`'s 8-character roll id in SQL: base 31 over the roll log's alphabet (never a real id: those are random). */
function idExpression(n: string): string {
  // Integer division on both databases (the operands are integers).
  return Array.from({ length: 8 }, (_, place) => `substr(CAST('${ALPHABET}' AS TEXT), CAST(((${n} / ${31 ** place}) % 31) + 1 AS INTEGER), 1)`).join(' || ');
}

/** A snowflake-like id in SQL, from a prefix digit and a number (the fake Discord takes numeric user ids as they are). */
const snowflake = (prefix: string, n: string, dialect: Dialect): string =>
  dialect === 'postgresql' ? `'${prefix}' || lpad((${n})::text, 17, '0')` : `'${prefix}' || printf('%017d', ${n})`;

/** The rows, made by SQL in the bot's database through Prisma's raw query. */
async function generate(db: Database, dialect: Dialect, guildId: string, mikeId: string, template: Record<string, unknown>): Promise<void> {
  // In slices of CHUNK rows: each statement stays well inside the store's statement timeout on PostgreSQL.
  const inSlices = async (count: number, body: string, values: string[] = []): Promise<void> => {
    for (let from = 0; from < count; from += CHUNK) {
      const to = Math.min(count, from + CHUNK) - 1;
      const sql =
        dialect === 'postgresql'
          ? body.replace('FROM n', `FROM generate_series(${from}, ${to}) AS n(i)`)
          : `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to}) ${body.replace(/\$\d/g, '?')}`;
      await db.$executeRawUnsafe(sql, ...values);
    }
  };
  // A roll a minute apart, the newest now.
  const createdAt =
    dialect === 'postgresql'
      ? `(now() AT TIME ZONE 'UTC') - ((${LARGE_ROLLS} - i) * interval '1 minute')`
      : `strftime('%Y-%m-%dT%H:%M:%S', 'now', '-' || (${LARGE_ROLLS} - i) || ' minutes') || '.000+00:00'`;
  const guild = `CASE WHEN i % 5 < 2 THEN '${guildId}' ELSE ${snowflake('8', 'i % 999', dialect)} END`;
  const user = `CASE WHEN i % 10 = 0 THEN '${mikeId}' ELSE ${snowflake('6', 'i % 4999', dialect)} END`;
  const success = dialect === 'postgresql' ? `${template.success === null ? 'NULL' : template.success ? 'true' : 'false'}` : `${template.success === null ? 'NULL' : template.success ? 1 : 0}`;
  const values = [template.channelId, template.kind, template.system, template.inputs, template.seed, template.dice, template.result].map(String);
  await inSlices(
    LARGE_ROLLS,
    `INSERT INTO "Roll" ("id", "guildId", "channelId", "userId", "kind", "system", "inputs", "seed", "dice", "result", "total", "challengeLevel", "success", "createdAt")
     SELECT ${idExpression('i')}, ${guild}, $1, ${user}, $2, $3, $4, $5, $6, $7, ${Number(template.total)}, ${Number(template.challengeLevel)}, ${success}, ${createdAt} FROM n`,
    values,
  );
  // 10 % of the sheets in the sandbox's server, one per member (the autocomplete's members); the rest elsewhere.
  const now = dialect === 'postgresql' ? `(now() AT TIME ZONE 'UTC')` : `strftime('%Y-%m-%dT%H:%M:%S', 'now') || '.000+00:00'`;
  const active = dialect === 'postgresql' ? 'true' : '1';
  await inSlices(
    LARGE_SHEETS,
    `INSERT INTO "Operator" ("guildId", "ownerId", "name", "nameKey", "system", "active", "notes", "createdAt", "updatedAt")
       SELECT CASE WHEN i % 10 = 0 THEN '${guildId}' ELSE ${snowflake('8', 'i % 999', dialect)} END, ${snowflake('7', 'i', dialect)}, 'Sheet ' || i, 'sheet ' || i, 'tactalk', ${active}, '', ${now}, ${now} FROM n`,
  );
  for (const [name, level] of [['Climbing', 40], ['CQC', 35]] as const) {
    await db.$executeRawUnsafe(`INSERT INTO "Skill" ("operatorId", "name", "nameKey", "level") SELECT "id", '${name}', '${name.toLowerCase()}', ${level} FROM "Operator" WHERE "name" LIKE 'Sheet %'`);
  }
}

async function timed(target: Target, requests: () => Parameters<Target['fake']['interact']>[0], problems: string[]): Promise<Summary> {
  const times: number[] = [];
  for (let index = 0; index < WARM_UP + REQUESTS; index++) {
    const result = await target.fake.interact(requests());
    if (result.errors.length > 0) problems.push(result.errors.join('; '));
    else if (result.firstResponseMs === undefined) problems.push(`no answer: ${JSON.stringify(result.responses).slice(0, 200)}`);
    else if (index >= WARM_UP) times.push(result.firstResponseMs);
  }
  return summarize(times);
}

/** Fills `target`'s database (a bot as startOurs makes it), then measures the three reads. */
export async function largeDatabase(target: Target): Promise<LargeDatabaseFigures> {
  if (!target.store) throw new Error(`${target.name} has no database to fill`);
  const { db, dialect } = target.store;
  const problems: string[] = [];
  const guild = target.fake.guild();
  const mikeId = target.fake.user('mike').id;
  await target.fake.interact(ROLL);
  for (let index = 0; index < 20; index++) await target.fake.interact({ ...ROLL, user: FEW });
  const template = await db.roll.findFirst({ where: { userId: mikeId }, orderBy: { createdAt: 'desc' } });
  if (!template) throw new Error('no roll of mike to copy');
  const started = performance.now();
  await generate(db, dialect, guild.id, mikeId, template as unknown as Record<string, unknown>);
  const generateSeconds = (performance.now() - started) / 1000;
  const replayIds = (await db.roll.findMany({ where: { guildId: guild.id }, select: { id: true }, take: 5000, skip: Math.floor(LARGE_ROLLS / 10) })).map((row) => row.id);
  let member = 0;
  const figures: LargeDatabaseFigures = {
    engine: dialect === 'postgresql' ? 'PostgreSQL' : 'SQLite',
    generateSeconds,
    logMany: await timed(target, () => ({ user: 'dora', roles: ['Dispatcher'], command: 'log', options: { user: 'mike' } }), problems),
    logFew: await timed(target, () => ({ user: 'dora', roles: ['Dispatcher'], command: 'log', options: { user: FEW } }), problems),
    logServer: await timed(target, () => ({ user: 'dora', roles: ['Dispatcher'], command: 'log' }), problems),
    replay: await timed(target, () => ({ user: 'mike', command: 'roll replay', options: { id: replayIds[Math.floor(Math.random() * replayIds.length)]! } }), problems),
    // Members with a sheet in this server: ownerIds 7…, every tenth sheet (generate).
    autocomplete: await timed(target, () => ({ user: `7${String(10 * member++).padStart(17, '0')}`, command: 'roll challenge', options: { skill: 'Cl' }, focused: 'skill' }), problems),
    problems,
  };
  return figures;
}
