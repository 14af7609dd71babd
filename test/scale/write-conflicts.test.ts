/**
 * Two bot processes on one PostgreSQL database serving one server, as two machines briefly both running its shard
 * would (docs/scaling.md): two members make and delete sheets at the same moment through both processes, round after
 * round, until PostgreSQL has failed at least 30 of each process's serializable transactions as write conflicts.
 * Every conflict is run again, never answered "the database is busy"; no connection is left checked out or in a
 * transaction; afterwards both processes answer rolls at once, and each stops by itself, cleanly, on SIGTERM.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, type SandboxInteractionRequest, type SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { databaseTroubleReply } from '../../src/views/messages.js';
import { ChildBot, fakeDiscordEnv, type ChildExit } from '../helpers/child-bot.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { textOf } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const SERVER = 'Write Conflicts';
const MEMBERS = ['mike', 'sasha'];
const CONFLICTS_PER_PROCESS = 30;
/** Rounds at most: a round makes a few conflicts per process, so this is far more than the test needs. */
const MAX_ROUNDS = 100;
/** One process's PostgreSQL pool (src/store/postgres.ts: queries, contest turns, the cache listener). */
const POOL_SIZE = 21;
/**
 * Only a hang guard: a clean shutdown takes well under a second. A connection left checked out kept the pool, and so
 * SIGTERM, waiting for ever; the bot has no timer that would end it otherwise.
 */
const SIGTERM_HANG_MS = 60_000;
const BUSY = databaseTroubleReply('busy').content!;
const COUNTER = path.join(import.meta.dirname, '..', 'helpers', 'write-conflict-counter.mjs');

interface BotProcess {
  name: string;
  fake: FakeDiscord;
  bot: ChildBot;
  /** Where write-conflict-counter.mjs writes a line per write conflict PostgreSQL reported to this process. */
  conflictLog: string;
}

let databaseUrl: string;
const processes: BotProcess[] = [];
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-conflicts-'));

// Each process logs in to a fake Discord of its own: a fake, like Discord, delivers a server's interactions to one
// session only. The fakes derive server and user ids from their names, so "Write Conflicts" and mike are the same
// server and member in both, and both processes write that server's rows.
async function startProcess(name: string): Promise<BotProcess> {
  const fake = new FakeDiscord();
  await fake.start();
  fake.guild(SERVER);
  const conflictLog = path.join(folder, `${name}.conflicts`);
  const bot = await ChildBot.spawn({
    env: {
      ...fakeDiscordEnv(fake),
      DATABASE_URL: databaseUrl,
      // debug: the router's "interaction handled" line, which act() waits for.
      LOG_LEVEL: 'debug',
      WRITE_CONFLICT_LOG: conflictLog,
    },
    nodeArgs: ['--import', COUNTER],
  });
  return { name, fake, bot, conflictLog };
}

beforeAll(async () => {
  databaseUrl = await freshPostgresUrl();
  processes.push(...(await Promise.all(['one', 'two'].map(startProcess))));
  for (const { fake } of processes) await until(() => fake.commands(SERVER).length > 0, 'the global command list, which each process registers at its own fake Discord');
}, 120_000);

afterAll(async () => {
  for (const { bot, fake } of processes) {
    await bot.kill('SIGKILL');
    await fake.stop();
  }
  fs.rmSync(folder, { recursive: true, force: true });
});

function conflictsOf(botProcess: BotProcess): number {
  return fs.readFileSync(botProcess.conflictLog, 'utf8').split('\n').filter(Boolean).length;
}

/**
 * Acts in the server through one process and returns the bot's answers (a deferral left out): there must be one,
 * and none may be "busy".
 */
async function act(botProcess: BotProcess, request: SandboxInteractionRequest): Promise<SandboxResponse[]> {
  const { id } = await botProcess.fake.interact({ ...request, guild: SERVER });
  const what = `${JSON.stringify(request)} through process ${botProcess.name}`;
  // The router's closing line is the sure sign the bot is done: an answer it had to defer is edited in later.
  await botProcess.bot.waitForLog((line) => line.msg === 'interaction handled' && line.interactionId === id, 30_000, `the end of ${what}`);
  const { responses, errors } = botProcess.fake.answersTo(id)!;
  expect(errors, `Discord rules broken by ${what}`).toEqual([]);
  const answers = responses.filter((response) => response.kind !== 'deferred');
  expect(answers.length, `answers to ${what}`).toBeGreaterThan(0);
  for (const answer of answers) expect(textOf(answer), `an answer to ${what}`).not.toContain(BUSY);
  return answers;
}

/** Every member in every process at the same moment. */
function everyoneAtOnce<T>(step: (botProcess: BotProcess, member: string) => Promise<T>): Promise<T[]> {
  return Promise.all(processes.flatMap((botProcess) => MEMBERS.map((member) => step(botProcess, member))));
}

/** A member makes a sheet through one process. */
async function makeSheet(botProcess: BotProcess, member: string, name: string): Promise<void> {
  const [created] = await act(botProcess, { user: member, command: 'sheet create', options: { name } });
  expect(textOf(created!)).toContain(`Created **${name}**`);
}

/** A member deletes a sheet through one process: the prompt, then its Delete button. */
async function deleteSheet(botProcess: BotProcess, member: string, name: string): Promise<void> {
  const [prompt] = await act(botProcess, { user: member, command: 'sheet delete', options: { name } });
  const buttons = (prompt!.components[0] as { components: { custom_id: string; label: string }[] }).components;
  const confirm = buttons.find((button) => button.label.startsWith('Delete'))!;
  const [deleted] = await act(botProcess, { user: member, button: confirm.custom_id, message: prompt!.messageId! });
  expect(textOf(deleted!)).toContain(`Deleted **${name}**`);
}

/** Transactions of the test's database PostgreSQL counted as rolled back, in all. */
async function rolledBackTransactions(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ rolled: string }>('SELECT xact_rollback AS rolled FROM pg_stat_database WHERE datname = current_database()');
    return Number(rows[0]!.rolled);
  } finally {
    await client.end();
  }
}

/** The bot's connections (both processes) by state, as PostgreSQL sees them. */
async function botConnections(): Promise<{ state: string | null; query: string }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ state: string | null; query: string }>(
      `SELECT state, query FROM pg_stat_activity WHERE application_name = 'tactalk-bot' AND datname = current_database()`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

describe('two members changing one server through two processes at the same moment, over PostgreSQL', () => {
  it('every write conflict is run again: no member is told the database is busy', async () => {
    const rollbacksBefore = await rolledBackTransactions();
    let rounds = 0;
    while (rounds < MAX_ROUNDS && processes.some((botProcess) => conflictsOf(botProcess) < CONFLICTS_PER_PROCESS)) {
      const round = ++rounds;
      const sheetOf = (botProcess: BotProcess, member: string) => `${member} ${botProcess.name} ${round}`;
      // Making a sheet counts the member's sheets and deactivates the active one; deleting reads and removes one:
      // PostgreSQL's serializable checks fail overlapping ones even for different members' rows of one table.
      await everyoneAtOnce((botProcess, member) => makeSheet(botProcess, member, sheetOf(botProcess, member)));
      await everyoneAtOnce((botProcess, member) => deleteSheet(botProcess, member, sheetOf(botProcess, member)));
    }
    const conflicts = processes.map(conflictsOf);
    for (const count of conflicts) expect(count).toBeGreaterThanOrEqual(CONFLICTS_PER_PROCESS);
    // PostgreSQL's own count agrees: every conflict rolled back a transaction (its statistics arrive within a second or so).
    const total = conflicts.reduce((sum, count) => sum + count, 0);
    await until(async () => (await rolledBackTransactions()) - rollbacksBefore >= total, `PostgreSQL to count ${total} rolled-back transactions`);
    for (const { bot } of processes) expect(bot.logs.filter((line) => line.trouble !== undefined)).toEqual([]);
  }, 5 * 60_000);

  it('then every process answers a roll at once, and no connection is left in a transaction or checked out', async () => {
    const rolls = await everyoneAtOnce((botProcess, member) => act(botProcess, { user: member, command: 'roll challenge', options: { skill: 'Climbing', cl: 90, level: 40 } }));
    for (const [answer] of rolls) expect(textOf(answer!)).toMatch(/check it with \/roll replay id:/);

    // Idle, every one of them (a listener's heartbeat may be running a moment): not "idle in transaction", not stuck
    // "active"; and no more than the two pools hold.
    await until(async () => (await botConnections()).every((connection) => connection.state === 'idle'), 'every bot connection idle').catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await botConnections())}`);
    });
    expect((await botConnections()).length).toBeLessThanOrEqual(processes.length * POOL_SIZE);
  });

  it('and each process exits cleanly by itself on SIGTERM', async () => {
    for (const { bot } of processes) bot.signal('SIGTERM');
    const bound = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), SIGTERM_HANG_MS).unref());
    const exits = await Promise.all(processes.map(({ bot }) => Promise.race<ChildExit | 'still running'>([bot.exited, bound])));
    expect(exits).toEqual(processes.map(() => ({ code: 0, signal: null })));
    // Nothing went wrong on the way: no error logged, nothing printed (a deprecation warning, an uncaught error).
    for (const { bot } of processes) expect(bot.problems()).toEqual([]);
  }, SIGTERM_HANG_MS + 30_000);
});
