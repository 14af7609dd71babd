// Moving an install: `npm run db:copy` copies the bot's SQLite database (sheets, NPCs, rolls, contests, roll
// requests, tables, an initiative tracker) into a new PostgreSQL database, ids kept, and the bot then runs on it.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { openDatabase } from '../../src/store/database.js';
import type { Database } from '../../src/store/database-client.js';
import { copySqliteToPostgres, CopyRefused } from '../../src/store/copy.js';
import { freshDatabaseUrl, freshPostgresUrl } from '../helpers/database.js';
import { adminQuery } from '../helpers/postgres-server.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

const run = promisify(execFile);
const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const MODELS = Object.values(Prisma.ModelName);

/** A new database on the scale suite's server with nothing in it, not even the migrations. */
async function emptyPostgresUrl(): Promise<string> {
  const admin = inject('postgresAdminUrl');
  const name = `copy_${randomBytes(6).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

const delegate = (db: Database, model: string) =>
  (db as unknown as Record<string, { findMany(args: object): Promise<Array<Record<string, unknown>>>; count(): Promise<number> }>)[model.charAt(0).toLowerCase() + model.slice(1)]!;

let sandbox: TestSandbox | null = null;
afterEach(async () => {
  if (sandbox) {
    expect(sandbox.fake.violations).toEqual([]);
    await sandbox.stop();
    sandbox = null;
  }
});

/**
 * A SQLite database as a table in play leaves it: played through the real bot (sheets, an NPC, rolls), plus the
 * rows whose flows take many presses (contests open and finished, a roll request, a table, a tracker) written
 * through the same client the bot uses. Returns the database and the id of one roll.
 */
async function playedDatabase(): Promise<{ url: string; rollId: string }> {
  const url = freshDatabaseUrl();
  sandbox = await startTestSandbox({ databaseUrl: url, seeds: ['copy-a'] });
  await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Handgun Handling', level: 50 } });
  await sandbox.one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
  await sandbox.one({ user: 'mike', command: 'sheet condition add', options: { name: 'Wounded', modifier: -5 } });
  await sandbox.one({ ...DISPATCHER, command: 'npc create', options: { name: 'Sectoid' } });
  const first = textOf(await sandbox.one({ user: 'mike', command: 'roll challenge', options: { skill: 'handgun handling', cl: 90, archetypes: 'acuity' } }));
  for (const expression of ['1d20', '4d6kh3+2', '2d10']) await sandbox.act({ user: 'mike', command: 'roll dice', options: { expression } });
  const rollId = /Roll (\w{8})/.exec(first)![1]!;
  const guildId = sandbox.fake.guildId;
  await sandbox.stop();
  sandbox = null;

  const { db, close } = await openDatabase(url);
  try {
    const troy = await db.operator.findFirstOrThrow({ where: { name: 'Troy' } });
    await db.attribute.create({ data: { operatorId: troy.id, name: 'Aim', nameKey: 'aim', value: 3 } });
    await db.condition.create({ data: { operatorId: troy.id, name: 'Stunned', nameKey: 'stunned', modifier: -10, skillKeys: JSON.stringify(['handgun handling']), expiresAt: new Date('2026-12-01T10:20:30.456Z') } });
    const later = new Date('2026-11-30T23:59:59.999Z');
    await db.contest.create({ data: { guildId, channelId: 'c1', messageId: 'm1', challengerId: 'u1', opponentId: 'u2', phase: 'accept', version: 2, state: JSON.stringify({ phase: 'accept', note: 'open – “quotes” ✓' }), expiresAt: later } });
    await db.contest.create({ data: { guildId, channelId: 'c1', challengerId: 'u2', opponentId: 'u1', phase: 'finished', version: 9, state: JSON.stringify({ phase: 'finished', rounds: [1, 2] }), expiresAt: later } });
    await db.rollRequest.create({ data: { guildId, channelId: 'c1', dispatcherId: 'u3', playerId: 'u1', phase: 'asked', state: JSON.stringify({ cl: 120, hidden: true }) } });
    await db.outcomeTable.create({ data: { guildId, name: 'Fall Damage', nameKey: 'fall damage', rows: JSON.stringify([{ min: 1, max: 100, text: 'Ouch', next: null, reveals: null }]) } });
    await db.initiativeTracker.create({ data: { guildId, channelId: 'c1', system: 'tactalk', state: JSON.stringify({ order: ['Troy', 'Sectoid'], turn: 0, round: 1 }) } });
    // Issue 25's tables: a saved roll on a sheet and one shared, an NPC's webhook, a journal entry, a closed and an open
    // session (its unique open key), and a roll's odds (a fraction), blind flag and reveal time.
    await db.savedRoll.create({ data: { guildId, operatorId: troy.id, scope: `operator:${troy.id}`, name: 'Breach', nameKey: 'breach', roll: JSON.stringify({ path: 'roll linked' }), createdBy: 'u1' } });
    await db.savedRoll.create({ data: { guildId, scope: 'server', name: 'Shared', nameKey: 'shared', roll: '{}', createdBy: 'u3' } });
    await db.channelWebhook.create({ data: { channelId: 'c1', guildId, webhookId: 'w1', token: 'secret-token' } });
    await db.journalEntry.create({ data: { guildId, channelId: 'c1', userId: 'u1', kind: 'note', details: JSON.stringify({ text: 'Kat pockets the keycard' }), secret: true } });
    await db.playSession.create({ data: { guildId, kind: 'day', day: '2026-11-26', secret: 'a'.repeat(64), commitment: 'b'.repeat(64), closedAt: new Date('2026-11-27T00:00:00.000Z') } });
    await db.playSession.create({ data: { guildId, kind: 'play', title: 'The warehouse', secret: 'c'.repeat(64), commitment: 'd'.repeat(64), openKey: guildId } });
    await db.roll.update({ where: { id: rollId }, data: { odds: 0.58, d100: 62, blind: true, revealedAt: new Date('2026-11-27T01:02:03.004Z') } });
    await db.server.upsert({ where: { guildId }, create: { guildId, welcomedAt: new Date('2026-11-01T01:02:03.004Z'), playerChallengeRolls: false }, update: { welcomedAt: new Date('2026-11-01T01:02:03.004Z'), playerChallengeRolls: false } });
  } finally {
    await close();
  }
  return { url, rollId };
}

async function everyRow(url: string): Promise<Record<string, Array<Record<string, unknown>>>> {
  const { db, close } = await openDatabase(url);
  try {
    const rows: Record<string, Array<Record<string, unknown>>> = {};
    for (const model of MODELS) {
      const key = model === 'Server' ? 'guildId' : model === 'ChannelWebhook' ? 'channelId' : model === 'CommandRegistration' ? 'scope' : 'id';
      rows[model] = await delegate(db, model).findMany({ orderBy: { [key]: 'asc' } });
    }
    return rows;
  } finally {
    await close();
  }
}

describe('copying a SQLite database into PostgreSQL (npm run db:copy)', () => {
  it('copies every table with its ids, dates, booleans, nulls and JSON, moves the sequences, and the bot runs on the copy', async () => {
    const { url, rollId } = await playedDatabase();
    const target = await emptyPostgresUrl();

    // Small batches, so that the roll log and the sheets' rows take several pages each.
    const report = await copySqliteToPostgres(url, target, { batchSize: 2 });
    expect(report.matches).toBe(true);
    expect(report.tables.map((row) => row.table).sort()).toEqual([...MODELS].sort());
    for (const row of report.tables) expect(row.target, row.table).toBe(row.source);
    const counts = Object.fromEntries(report.tables.map((row) => [row.table, row.source]));
    expect(counts).toMatchObject({ Operator: 2, Roll: 4, Contest: 2, RollRequest: 1, OutcomeTable: 1, InitiativeTracker: 1, Skill: 1, Archetype: 1, Attribute: 1, Condition: 2, Server: 1 });

    // Row for row the same: ids, dates to the millisecond, booleans, nulls, JSON text.
    const before = await everyRow(url);
    const after = await everyRow(target);
    expect(after).toEqual(before);
    expect(after.Condition!.find((row) => row.name === 'Stunned')).toMatchObject({ expiresAt: new Date('2026-12-01T10:20:30.456Z'), skillKeys: '["handgun handling"]' });
    expect(after.Server![0]).toMatchObject({ welcomedAt: new Date('2026-11-01T01:02:03.004Z'), playerChallengeRolls: false, dispatcherRoleId: null });
    expect(after.Contest!.map((row) => row.phase).sort()).toEqual(['accept', 'finished']);

    // A new row gets a fresh id, not one of the copied ones.
    const { db, close } = await openDatabase(target);
    try {
      const largest = Math.max(...before.Contest!.map((row) => row.id as number));
      const contest = await db.contest.create({ data: { guildId: 'g', channelId: 'c', challengerId: 'a', opponentId: 'b', phase: 'accept', state: '{}', expiresAt: new Date() } });
      expect(contest.id).toBe(largest + 1);
      const sheet = await db.operator.create({ data: { guildId: 'g', name: 'New', nameKey: 'new' } });
      expect(sheet.id).toBeGreaterThan(Math.max(...before.Operator!.map((row) => row.id as number)));
    } finally {
      await close();
    }

    // The bot on the PostgreSQL database reads the sheet and replays the roll by its id.
    sandbox = await startTestSandbox({ databaseUrl: target });
    const sheet = textOf(await sandbox.one({ user: 'mike', command: 'sheet show' }));
    expect(sheet).toContain('Troy');
    expect(sheet).toContain('Handgun Handling');
    const replay = textOf(await sandbox.one({ user: 'mike', command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain(rollId);
    expect(replay).toContain('Handgun Handling');
  });

  it('accepts a new database that is migrated but empty', async () => {
    const { url } = await playedDatabase();
    const report = await copySqliteToPostgres(url, await freshPostgresUrl());
    expect(report.matches).toBe(true);
    expect(report.tables.find((row) => row.table === 'Roll')).toEqual({ table: 'Roll', source: 4, target: 4 });
  });

  it('refuses a database that has rows, naming the table, and changes nothing in it', async () => {
    const { url } = await playedDatabase();
    const target = await freshPostgresUrl();
    const { db, close } = await openDatabase(target);
    try {
      await db.outcomeTable.create({ data: { guildId: 'g', name: 'Kept', nameKey: 'kept', rows: '[]' } });
      const refusal = copySqliteToPostgres(url, target);
      await expect(refusal).rejects.toBeInstanceOf(CopyRefused);
      await expect(refusal).rejects.toThrow(/table OutcomeTable has 1 row\b.*new, empty database/);
      for (const model of MODELS) expect(await delegate(db, model).count(), model).toBe(model === 'OutcomeTable' ? 1 : 0);
    } finally {
      await close();
    }
  });

  it('npm run db:copy prints the counts table by table and exits 0; run again on the filled database it exits 1 and names the table', async () => {
    const { url } = await playedDatabase();
    const target = await emptyPostgresUrl();
    const { stdout } = await run('npm', ['run', '--silent', 'db:copy', '--', url, target], { cwd: process.cwd() });
    expect(stdout).toMatch(/^Roll\s+4\s+4$/m);
    expect(stdout).toMatch(/^Operator\s+2\s+2$/m);
    expect(stdout).toContain('Every table has as many rows in PostgreSQL as in SQLite');

    const again = await run('npm', ['run', '--silent', 'db:copy', '--', '--from', url, '--to', target], { cwd: process.cwd() }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(again?.code).toBe(1);
    expect(again?.stderr).toMatch(/the table \w+ has \d+ rows?/);
  });
});
