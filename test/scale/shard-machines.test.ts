// Shards on several machines: two shard managers, as two machines would run them over one PostgreSQL database, each
// with SHARD_IDS naming its half of the bot's shards (one with SHARD_COUNT=auto, the count the fake Discord's
// /gateway/bot recommends). Each serves its own shard's servers only, and only the machine running shard 0 clears
// the global commands an older version left.
import { REST } from '@discordjs/rest';
import { Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { ChildBot } from '../helpers/child-bot.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { textOf } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

let fake: FakeDiscord;
let databaseUrl: string;
const machines: ChildBot[] = [];
/** servers[shard]: a server on that shard. */
let servers: string[];

beforeAll(async () => {
  fake = new FakeDiscord({ shards: 2, maxConcurrency: 16 });
  await fake.start();
  servers = [0, 1].map((shard) => {
    for (let i = 0; ; i++) if (fake.shardOf(`Machine Table ${i}`) === shard) return `Machine Table ${i}`;
  });
  databaseUrl = await freshPostgresUrl();
  // A global command an older version of the bot registered (before each server had its own list).
  const rest = new REST({ api: fake.restApi }).setToken(fake.token);
  await rest.put(Routes.applicationCommands(fake.applicationId), { body: [{ name: 'old-roll', description: 'An older version’s roll', type: 1 }] });
});

afterAll(async () => {
  for (const machine of machines) await machine.stop();
  await fake?.stop();
});

async function startMachine(env: Record<string, string>): Promise<ChildBot> {
  const machine = await ChildBot.spawn({
    env: { DISCORD_TOKEN: fake.token, DISCORD_APPLICATION_ID: fake.applicationId, DISCORD_API: fake.restApi, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
    readyWhen: (line) => /^shards running/.test(line.msg ?? ''),
    readyTimeoutMs: 120_000,
  });
  machines.push(machine);
  await machine.waitForLog((line) => /^bot running as shard/.test(line.msg ?? ''), 30_000, 'its shard process running');
  return machine;
}

describe('two machines, each running its SHARD_IDS of SHARD_COUNT=2', () => {
  it('each machine runs and answers its own shard only; the one with shard 0 clears the old global commands', async () => {
    const second = await startMachine({ SHARD_COUNT: '2', SHARD_IDS: '1' });
    expect(second.logs.find((line) => /^shards running/.test(line.msg ?? ''))).toMatchObject({ shards: [1], count: 2 });
    expect(fake.liveShards()).toEqual([1]);
    await until(() => fake.commands(servers[1]).length > 1, 'the slash list of the shard-1 server');
    // Shard 0's servers have nobody yet: Discord (the fake) cannot deliver their interactions.
    await expect(fake.interact({ user: 'mike', guild: servers[0], command: 'old-roll' })).rejects.toThrow(/not connected to the fake gateway as shard 0 of 2/);
    expect(second.logs.some((line) => /^global commands removed/.test(line.msg ?? ''))).toBe(false);
    expect(fake.commands(servers[1]).map((command) => (command as { name: string }).name)).toContain('old-roll');

    const first = await startMachine({ SHARD_COUNT: 'auto', SHARD_IDS: '0' });
    expect(first.logs.find((line) => /^shards running/.test(line.msg ?? ''))).toMatchObject({ shards: [0], count: 2 });
    expect(fake.liveShards()).toEqual([0, 1]);
    await first.waitForLog((line) => /^global commands removed/.test(line.msg ?? ''), 10_000, 'the old global commands removed');
    await until(() => fake.commands(servers[0]).length > 0, 'the slash list of the shard-0 server');
    for (const server of servers) expect(fake.commands(server).map((command) => (command as { name: string }).name)).not.toContain('old-roll');

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
