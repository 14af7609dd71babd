// Shards on several machines: two shard managers, as two machines would run them over one PostgreSQL database, each
// with SHARD_IDS naming its half of the bot's shards (one with SHARD_COUNT=auto, the count the fake Discord's
// /gateway/bot recommends). Each serves its own shard's servers only; only the machine running shard 0 registers the
// global command list, and each clears the server lists an older version left in its own shard's servers.
import { REST } from '@discordjs/rest';
import { Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { openStore } from '../../src/store/index.js';
import { ChildBot, shardsRunning, fakeDiscordEnv } from '../helpers/child-bot.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { textOf } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

let fake: FakeDiscord;
let databaseUrl: string;
const machines: ChildBot[] = [];
/** servers[shard]: a server on that shard. */
let servers: string[];

beforeAll(async () => {
  fake = new FakeDiscord({ shards: 2, maxConcurrency: 16, paceIdentifies: true });
  await fake.start();
  servers = [0, 1].map((shard) => {
    for (let i = 0; ; i++) if (fake.shardOf(`Machine Table ${i}`) === shard) return `Machine Table ${i}`;
  });
  databaseUrl = await freshPostgresUrl();
  // The list an older version of the bot registered in each server, its digest kept with the server's settings.
  const rest = new REST({ api: fake.restApi }).setToken(fake.token);
  const store = await openStore(databaseUrl);
  for (const server of servers) {
    await rest.put(Routes.applicationGuildCommands(fake.applicationId, fake.guild(server).id), { body: [{ name: 'old-roll', description: 'An older version’s roll', type: 1 }] });
    await store.servers.update(fake.guild(server).id, { commandsDigest: 'an older version’s list' });
  }
  await store.close();
});

const offeredNames = (server: string) => fake.commands(server).map((command) => (command as { name: string }).name);

afterAll(async () => {
  for (const machine of machines) await machine.stop();
  await fake?.stop();
});

async function startMachine(env: Record<string, string>): Promise<ChildBot> {
  const machine = await ChildBot.spawn({
    env: { ...fakeDiscordEnv(fake), DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
    readyWhen: shardsRunning,
    readyTimeoutMs: 120_000,
  });
  machines.push(machine);
  await machine.waitForLog((line) => /^bot running as shard/.test(line.msg ?? ''), 30_000, 'its cluster process running');
  return machine;
}

describe('two machines, each running its SHARD_IDS of SHARD_COUNT=2', () => {
  it('each machine runs and answers its own shard only; the one with shard 0 registers the global list, each clears its own servers’ old lists', async () => {
    const second = await startMachine({ SHARD_COUNT: '2', SHARD_IDS: '1' });
    expect(second.logs.find(shardsRunning)).toMatchObject({ shards: [1], count: 2 });
    expect(fake.liveShards()).toEqual([1]);
    // The shard-1 machine clears its server's old list, and only that one; it registers nothing globally.
    await until(() => fake.commandWrites(servers[1]) === 2, 'the old list of the shard-1 server cleared');
    expect(offeredNames(servers[1]!)).toEqual([]);
    expect(offeredNames(servers[0]!)).toEqual(['old-roll']);
    expect(fake.commandWrites('global')).toBe(0);
    // Shard 0's servers have nobody yet: Discord (the fake) cannot deliver their interactions.
    await expect(fake.interact({ user: 'mike', guild: servers[0], command: 'old-roll' })).rejects.toThrow(/not connected to the fake gateway as shard 0 of 2/);

    const first = await startMachine({ SHARD_COUNT: 'auto', SHARD_IDS: '0' });
    expect(first.logs.find(shardsRunning)).toMatchObject({ shards: [0], count: 2 });
    expect(fake.liveShards()).toEqual([0, 1]);
    await first.waitForLog((line) => /^global command list registered/.test(line.msg ?? ''), 30_000, 'the global command list registered');
    await until(() => fake.commandWrites(servers[0]) === 2, 'the old list of the shard-0 server cleared');
    expect(fake.commandWrites('global')).toBe(1);
    expect(fake.commandWrites(servers[1])).toBe(2);
    for (const server of servers) {
      expect(offeredNames(server)).toContain('roll');
      expect(offeredNames(server)).not.toContain('old-roll');
    }

    for (const [shard, server] of servers.entries()) {
      const result = await fake.interact({ user: 'mike', guild: server, command: 'roll dice', options: { expression: '1d20' } });
      expect(result.errors).toEqual([]);
      expect(result.responses.map(textOf).join('\n')).toContain('🎲 1d20');
      expect(fake.interactionShard(result.id)).toMatchObject({ shard, answeredBy: expect.arrayContaining([[shard]]) });
      expect(fake.interactionShard(result.id)!.answeredBy.every((caller) => caller?.length === 1 && caller[0] === shard)).toBe(true);
    }
    expect(fake.shardCounts).toEqual({ wrongShard: 0, unattributed: 0 });
    expect(fake.violations).toEqual([]);
  });
});
