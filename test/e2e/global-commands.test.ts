// The command list is registered once, globally, whatever the number of servers: a first start sends one request, a
// restart with the same commands none, a changed command set one; the lists an older version registered in each
// server are cleared once, and never again; and a stop during a registration Discord holds does not wait for it.
// The real bot against the fake Discord, which counts every request.
import { REST, Routes } from 'discord.js';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBot, type RunningBot } from '../../src/bot.js';
import type { BotCommand } from '../../src/discord/command.js';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { openStore } from '../../src/store/index.js';
import { toyCommand } from '../fixtures/toy-command.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { until } from '../helpers/until.js';

const SERVERS = 300;

let fake: FakeDiscord;
let databaseUrl: string;
let running: RunningBot | undefined;

beforeEach(async () => {
  fake = new FakeDiscord();
  await fake.start();
  databaseUrl = freshDatabaseUrl();
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  expect(fake.violations).toEqual([]);
  await fake.stop();
});

/** The bot on this test's database and fake Discord, its registration settled (or not awaited: `settled` false). */
async function start(extraCommands: readonly BotCommand[] = [], settled = true): Promise<RunningBot> {
  running = await startBot({ token: fake.token, databaseUrl, log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), restApi: fake.restApi, migrate: false, extraCommands, welcome: false });
  if (settled) {
    await running.commandsReady;
    await running.ownListsCleared;
  }
  return running;
}

async function restart(extraCommands: readonly BotCommand[] = []): Promise<RunningBot> {
  await running?.stop();
  running = undefined;
  return start(extraCommands);
}

/** Every request the bot sent to Discord's command routes since the fake's traffic was last reset. */
const commandRequests = () => fake.traffic.summary().byTarget.commands ?? 0;
const names = (guild?: string) => fake.commands(guild).map((command) => (command as { name: string }).name);

describe('the global command list', () => {
  it(`a first start with ${SERVERS} servers registers once; a restart with the same commands registers nothing; a changed command set registers once`, async () => {
    const servers = Array.from({ length: SERVERS }, (_, i) => fake.guild(`Table ${i}`).id);
    await start();
    expect(fake.commandWrites('global')).toBe(1);
    expect(commandRequests()).toBe(1);
    expect(servers.filter((server) => fake.commandWrites(server) > 0)).toEqual([]);
    for (const server of [servers[0]!, servers[SERVERS - 1]!]) expect(names(server)).toContain('roll');
    expect(fake.contextMenus(servers[7])).toEqual(fake.contextMenus());

    fake.traffic.reset();
    await restart();
    expect(fake.commandWrites('global')).toBe(1);
    expect(commandRequests()).toBe(0);

    // A new version with one command more: its digest differs, so it is registered once, for every server.
    await restart([toyCommand]);
    expect(fake.commandWrites('global')).toBe(2);
    expect(commandRequests()).toBe(1);
    expect(names(servers[42])).toContain('toy');
    await restart([toyCommand]);
    expect(fake.commandWrites('global')).toBe(2);
  });

  it('clears the lists an older version registered in servers once, and never again; a server the bot left is forgotten', async () => {
    const old = ['Old One', 'Old Two', 'Old Three'].map((name) => fake.guild(name).id);
    const kept = fake.guild('Never had one').id;
    const left = '123456789012345678'; // a server the bot is no longer in: Discord answers Missing Access
    const rest = new REST({ api: fake.restApi }).setToken(fake.token);
    const store = await openStore(databaseUrl);
    for (const server of old) {
      await rest.put(Routes.applicationGuildCommands(fake.applicationId, server), { body: [{ name: 'roll', description: 'an older version’s /roll' }] });
      await store.servers.update(server, { commandsDigest: 'an older version’s list' });
    }
    await store.servers.update(left, { commandsDigest: 'an older version’s list' });
    await store.close();

    const bot = await start();
    for (const server of old) {
      expect(fake.commandWrites(server)).toBe(2);
      // Only the global list now: each command once.
      expect(names(server).filter((name) => name === 'roll')).toHaveLength(1);
      expect((await bot.store.servers.settings(server)).commandsDigest).toBeNull();
    }
    expect((await bot.store.servers.settings(left)).commandsDigest).toBeNull();
    expect(fake.commandWrites(kept)).toBe(0);

    fake.traffic.reset();
    await restart();
    expect(old.map((server) => fake.commandWrites(server))).toEqual([2, 2, 2]);
    expect(commandRequests()).toBe(0);
  });

  it('an old list Discord fails to clear is tried again at the next start', async () => {
    const server = fake.guild('Old Table').id;
    const store = await openStore(databaseUrl);
    await store.servers.update(server, { commandsDigest: 'an older version’s list' });
    await store.close();
    const failing = fake.faults.add({ target: 'commands', method: 'PUT', path: `/guilds/${server}/commands`, status: 503 });
    const bot = await start();
    expect((await bot.store.servers.settings(server)).commandsDigest).not.toBeNull();
    failing.remove();
    const again = await restart();
    expect((await again.store.servers.settings(server)).commandsDigest).toBeNull();
  });

  it('a registration Discord fails is tried again while the bot runs, not only at the next start', async () => {
    const server = fake.guild('Table').id;
    // discord.js sends a request 4 times before it gives up on a 5xx: one failed attempt of the bot's.
    fake.faults.add({ target: 'commands', method: 'PUT', path: /^\/applications\/[^/]+\/commands$/, status: 503, times: 4 });
    const bot = await start([], false);
    await bot.commandsReady;
    expect(fake.faults.injected.filter((fault) => fault.status === 503)).toHaveLength(4);
    expect(fake.commandWrites('global')).toBe(1);
    expect(names(server)).toContain('roll');
  });

  it('stop() during a registration Discord holds returns, and the next start registers again', async () => {
    fake.guild('Table');
    // Discord holds the bot back for ten minutes: discord.js waits, in its queue, before it sends the list again.
    const held = fake.faults.add({ target: 'commands', method: 'PUT', status: 429, retryAfterMs: 600_000 });
    const bot = await start([], false);
    await until(() => fake.faults.injected.some((fault) => fault.status === 429), 'the registration held by a 429');
    await bot.stop();
    running = undefined;
    held.remove();
    expect(fake.commandWrites('global')).toBe(0);
    await start();
    expect(fake.commandWrites('global')).toBe(1);
  });
});
