// The fake Discord shards as Discord does: GET /gateway/bot names the shard count, IDENTIFY must name a valid
// `shard: [id, count]`, each guild's events (READY's list, GUILD_CREATE, INTERACTION_CREATE) go only to its shard
// `(guild_id >> 22) % count`, and an answer from a shard the interaction was not sent to is a violation. Two real
// discord.js clients run shard 0 and shard 1 of 2, as two processes of a sharded bot would.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, Events, GatewayIntentBits, Routes, type ChatInputCommandInteraction, type Interaction } from 'discord.js';
import WebSocket from 'ws';
import { FakeDiscord, shardOf } from '../../src/sandbox/fake-discord.js';

const SHARDS = 2;

let fake: FakeDiscord;
const clients: Client[] = [];

beforeEach(async () => {
  // The clients here say when they are done with each interaction, as the sandbox's bot does: interact() waits for that.
  // Each shard is a client of its own, logged in at once: a max_concurrency of 16 (a large bot's) puts them in
  // buckets of their own, so Discord's pace of one IDENTIFY per bucket per 5 s allows both.
  fake = new FakeDiscord({ shards: SHARDS, maxConcurrency: 16, botSaysWhenDone: true });
  await fake.start();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.destroy();
  await fake.stop();
});

/** Guild names whose guilds fall on each shard: `perShard` of each. */
function guildNames(perShard: number): string[][] {
  const names: string[][] = Array.from({ length: SHARDS }, () => []);
  for (let i = 0; names.some((list) => list.length < perShard); i++) {
    const name = `Shard Test ${i}`;
    const list = names[fake.shardOf(name)]!; // creates the guild
    if (list.length < perShard) list.push(name);
  }
  return names;
}

/** A real discord.js client running shard `id` of SHARDS, its REST labelled with its shard as a sharded bot's is. */
async function startShard(id: number, options: { label?: boolean } = {}): Promise<Client> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    shards: [id],
    shardCount: SHARDS,
    rest: { api: fake.restApi, ...(options.label === false ? {} : { userAgentAppendix: `shards/${id}` }) },
  });
  clients.push(client);
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(fake.token);
  await ready;
  return client;
}

async function registerPing(client: Client): Promise<void> {
  await client.rest.put(Routes.applicationCommands(fake.applicationId), { body: [{ name: 'ping', description: 'Which shard answers', type: 1 }] });
}

/** Answers /ping with the shard's id; returns the guild ids of the interactions it received. */
function answerPings(client: Client, shard: number): string[] {
  const seen: string[] = [];
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    seen.push(interaction.guildId ?? 'none');
    if (interaction.isChatInputCommand()) void interaction.reply({ content: `shard ${shard}` }).finally(() => fake.interactionHandled(interaction.id));
  });
  return seen;
}

/** Opens a raw gateway connection, sends IDENTIFY with `shard`, and resolves with the close code. */
function identifyCloseCode(shard: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${fake.port}/gateway?v=10&encoding=json`);
    ws.on('message', (data) => {
      const payload = JSON.parse(String(data)) as { op: number };
      if (payload.op === 10) {
        ws.send(JSON.stringify({ op: 2, d: { token: fake.token, intents: 1, properties: {}, ...(shard === undefined ? {} : { shard }) } }));
      } else if (payload.op === 0) {
        ws.terminate();
        reject(new Error(`IDENTIFY with shard ${JSON.stringify(shard)} was accepted`));
      }
    });
    ws.on('close', (code) => resolve(code));
    ws.on('error', reject);
  });
}

describe('a sharded fake Discord', () => {
  it('answers GET /gateway/bot with its shard count and a session start limit that counts IDENTIFYs', async () => {
    const get = async (): Promise<{ shards: number; session_start_limit: Record<string, number> }> => {
      const res = await fetch(`${fake.restApi}/v10/gateway/bot`, { headers: { authorization: `Bot ${fake.token}` } });
      return (await res.json()) as { shards: number; session_start_limit: Record<string, number> };
    };
    const before = await get();
    expect(before.shards).toBe(SHARDS);
    expect(before.session_start_limit).toEqual({ total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 16 });
    await startShard(0);
    const after = await get();
    expect(after.session_start_limit.remaining).toBe(999);
    expect(after.session_start_limit.reset_after).toBeGreaterThan(23 * 3600_000);
  });

  it('refuses an IDENTIFY without a valid shard: 4011 Sharding required, 4010 Invalid shard', async () => {
    expect(await identifyCloseCode(undefined)).toBe(4011);
    expect(await identifyCloseCode([0, 1])).toBe(4011);
    expect(await identifyCloseCode([0, 3])).toBe(4010);
    expect(await identifyCloseCode([2, 2])).toBe(4010);
    expect(await identifyCloseCode([-1, 2])).toBe(4010);
    expect(await identifyCloseCode('0')).toBe(4010);
    expect(fake.gatewayCounts.shardRefusals).toBe(6);
    expect(fake.violations).toHaveLength(6);
    expect(fake.violations[0]).toMatch(/IDENTIFY: shard null refused, the fake runs 2 shard\(s\) \(closed with 4011 Sharding required\)/);
  });

  it("gives each shard only its guilds (READY, GUILD_CREATE) and only their interactions", async () => {
    const names = guildNames(2);
    const shard0 = await startShard(0);
    const shard1 = await startShard(1);
    expect(fake.liveShards()).toEqual([0, 1]);
    const byShard = (shard: number): string[] =>
      fake.guilds().filter((g) => shardOf(g.id, SHARDS) === shard).map((g) => g.id).sort();
    expect([...shard0.guilds.cache.keys()].sort()).toEqual(byShard(0));
    expect([...shard1.guilds.cache.keys()].sort()).toEqual(byShard(1));
    expect(byShard(0).length).toBeGreaterThanOrEqual(2);
    expect(byShard(1).length).toBeGreaterThanOrEqual(2);

    // A guild the bot joins while connected is announced to its shard only.
    const joined = { 0: [] as string[], 1: [] as string[] };
    shard0.on(Events.GuildCreate, (guild) => joined[0].push(guild.id));
    shard1.on(Events.GuildCreate, (guild) => joined[1].push(guild.id));
    let late = '';
    for (let i = 0; ; i++) {
      late = `Late Guild ${i}`;
      if (fake.shardOf(late) === 1) break; // creates it
    }
    const lateId = fake.guild(late).id;
    await expect.poll(() => shard1.guilds.cache.has(lateId)).toBe(true);
    expect(joined[1]).toContain(lateId);
    expect(joined[0]).not.toContain(lateId);
    expect(shard0.guilds.cache.has(lateId)).toBe(false);

    await registerPing(shard0);
    const seen = [answerPings(shard0, 0), answerPings(shard1, 1)];
    for (const [shard, list] of names.entries()) {
      for (const guild of list) {
        const result = await fake.interact({ user: 'mike', guild, command: 'ping' });
        expect(result.errors).toEqual([]);
        expect(result.responses.map((r) => r.content)).toEqual([`shard ${shard}`]);
        expect(fake.interactionShard(result.id)).toMatchObject({ shard, answeredBy: [[shard]] });
      }
    }
    expect(seen[0]).toEqual(names[0]!.map((name) => fake.guild(name).id));
    expect(seen[1]).toEqual(names[1]!.map((name) => fake.guild(name).id));
    expect(fake.shardCounts).toEqual({ wrongShard: 0, unattributed: 0 });
    expect(fake.violations).toEqual([]);
  });

  it('counts a violation when a shard answers an interaction that was sent to another shard', async () => {
    const names = guildNames(1);
    const shard0 = await startShard(0);
    const shard1 = await startShard(1);
    await registerPing(shard0);
    // Shard 1 does not answer: it hands the interaction's id and token to shard 0 (as a bot sharing state across
    // processes might), and shard 0 answers it.
    shard1.on(Events.InteractionCreate, (interaction: Interaction) => {
      const { id, token } = interaction as ChatInputCommandInteraction;
      void shard0.rest.post(Routes.interactionCallback(id, token), { body: { type: 4, data: { content: 'shard 0 (wrongly)' } }, auth: false }).finally(() => fake.interactionHandled(id));
    });
    const result = await fake.interact({ user: 'mike', guild: names[1]![0]!, command: 'ping' });
    // Discord takes the answer (it cannot tell processes apart); the fake records whose it was.
    expect(result.responses.map((r) => r.content)).toEqual(['shard 0 (wrongly)']);
    expect(result.errors).toEqual([expect.stringMatching(/callback: answered by shard 0, but the interaction was sent to shard 1/)]);
    expect(fake.violations).toEqual(result.errors);
    expect(fake.shardCounts).toEqual({ wrongShard: 1, unattributed: 0 });
    expect(fake.interactionShard(result.id)).toMatchObject({ shard: 1, answeredBy: [[0]] });
  });

  it("counts answers whose caller does not name its shards as unattributed, not as violations", async () => {
    const names = guildNames(1);
    const shard0 = await startShard(0, { label: false });
    await startShard(1, { label: false });
    await registerPing(shard0);
    answerPings(shard0, 0);
    const result = await fake.interact({ user: 'mike', guild: names[0]![0]!, command: 'ping' });
    expect(result.responses.map((r) => r.content)).toEqual(['shard 0']);
    expect(fake.interactionShard(result.id)).toMatchObject({ shard: 0, answeredBy: [null] });
    expect(fake.shardCounts).toEqual({ wrongShard: 0, unattributed: 1 });
    expect(fake.violations).toEqual([]);
  });

  it('refuses an interaction in a guild whose shard no client runs', async () => {
    const names = guildNames(1);
    await registerPing(await startShard(0));
    await expect(fake.interact({ user: 'mike', guild: names[1]![0]!, command: 'ping' })).rejects.toThrow(/not connected to the fake gateway as shard 1 of 2/);
  });
});
