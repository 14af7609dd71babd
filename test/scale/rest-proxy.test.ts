// One REST queue for the whole bot: two "machines" (two shard managers, SHARD_COUNT=2, SHARD_IDS 0 and 1) send every
// REST call through one `npm run proxy` (src/rest-proxy.ts, run as its own process as the script runs it) to a fake
// Discord that enforces Discord's global limit. Both are made to post in their channels at once (Dispatchers calling
// for rolls, each a channel message); together they stay within 50 requests a second. A global 429 given to one
// machine's post holds the other machine too: nothing counted reaches Discord until it ends, and the work then
// completes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, type SandboxInteractionResult } from '../../src/sandbox/fake-discord.js';
import { GLOBAL_REQUESTS_PER_SECOND } from '../../src/sandbox/fake-traffic.js';
import { ChildBot, shardsRunning, fakeDiscordEnv, tellFakeWhenHandled } from '../helpers/child-bot.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { textOf } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const SHEET = { name: 'Troy', skills: [{ name: 'Climbing', level: 30 }] };

let fake: FakeDiscord;
let proxy: ChildBot;
let proxyUrl: string;
const machines: ChildBot[] = [];
/** servers[shard]: a server on that shard. */
let servers: string[];

beforeAll(async () => {
  fake = new FakeDiscord({ shards: 2, maxConcurrency: 16, enforceGlobalLimit: true, botSaysWhenDone: true });
  await fake.start();
  servers = [0, 1].map((shard) => {
    for (let i = 0; ; i++) if (fake.shardOf(`Proxy Table ${i}`) === shard) return `Proxy Table ${i}`;
  });
  proxy = await ChildBot.spawn({
    entry: 'src/rest-proxy.ts',
    env: { DISCORD_API: fake.restApi, REST_PROXY_HOST: '127.0.0.1', REST_PROXY_PORT: '0', LOG_LEVEL: 'info' },
    readyWhen: (line) => /^REST proxy listening on/.test(line.msg ?? ''),
  });
  proxyUrl = /listening on (http:\/\/\S+),/.exec(proxy.logs.find((line) => /^REST proxy listening on/.test(line.msg ?? ''))!.msg!)![1]!;
  const databaseUrl = await freshPostgresUrl();
  for (const shard of [0, 1]) {
    const machine = await ChildBot.spawn({
      env: {
        ...fakeDiscordEnv(fake),
        DISCORD_API: proxyUrl,
        DATABASE_URL: databaseUrl,
        SHARD_COUNT: '2',
        SHARD_IDS: String(shard),
        // Debug: the router's "interaction handled" line tells the fake the bot is done with each interaction.
        LOG_LEVEL: 'debug',
      },
      readyWhen: shardsRunning,
      readyTimeoutMs: 120_000,
      onLog: tellFakeWhenHandled(fake),
    });
    machines.push(machine);
    await machine.waitForLog((line) => /^bot running as shard/.test(line.msg ?? ''), 30_000, 'its shard process running');
  }
  for (const server of servers) {
    await until(() => fake.commands(server).length > 0, `the slash list of ${server}`);
    const imported = await fake.interact({ user: 'mike', guild: server, command: 'sheet import', options: { file: { filename: 'sheet.json', content: JSON.stringify(SHEET) } } });
    expect(imported.responses.map((response) => response.content ?? '').join(' ')).toContain('Imported');
  }
});

afterAll(async () => {
  for (const machine of machines) await machine.stop();
  await proxy?.stop();
  await fake?.stop();
});

/** A Dispatcher calls for a roll: the bot posts the request in the server's channel (a global-limit request). */
function callForRoll(server: string, tag: string): Promise<SandboxInteractionResult> {
  return fake.interact({ ...DISPATCHER, guild: server, command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', cl: 100, intent: `climb ${tag}`, outcome: 'on the roof' } });
}

/** `count` calls in `server`, `inFlight` at a time, as players keep a table busy. */
async function keepBusy(server: string, count: number, inFlight: number, tag: string): Promise<SandboxInteractionResult[]> {
  const results: SandboxInteractionResult[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const n = next++;
        results.push(await callForRoll(server, `${tag} ${n}`));
      }
    }),
  );
  return results;
}

/** The request posted in the channel for each call, by its intent. */
function posted(server: string, tag: string): number {
  return fake.messages(fake.guild(server).channelId).filter((message) => !message.interaction && textOf(message).includes(`climb ${tag} `)).length;
}

describe('two machines through one REST proxy', () => {
  it('stay together within 50 requests a second while both post as fast as they can', async () => {
    fake.traffic.reset();
    const perServer = 60;
    const results = (await Promise.all(servers.map((server) => keepBusy(server, perServer, 30, 'burst')))).flat();
    for (const result of results) expect(result.errors).toEqual([]);
    for (const server of servers) expect(posted(server, 'burst')).toBe(perServer);

    const summary = fake.traffic.summary();
    expect(summary.byTarget['channel-message']).toBeGreaterThanOrEqual(2 * perServer);
    expect(summary.peakPerSecond).toBeLessThanOrEqual(GLOBAL_REQUESTS_PER_SECOND);
    // Both machines' requests came through the proxy under their own names.
    const shardsSeen = new Set(fake.traffic.all((request) => request.global).map((request) => request.shards?.join(',')));
    expect(shardsSeen).toEqual(new Set(['0', '1']));
    expect(fake.globalLimitHits).toEqual([]);
    expect(fake.shardCounts).toEqual({ wrongShard: 0, unattributed: 0 });
    expect(fake.violations).toEqual([]);
  });

  it("a global 429 given to one machine's post holds both machines until it ends; then all their work is done", async () => {
    fake.traffic.reset();
    fake.faults.add({ method: 'POST', target: 'channel-message', path: `/channels/${fake.guild(servers[0]).channelId}/`, status: 429, global: true, retryAfterMs: 4000, times: 1 });
    const held = callForRoll(servers[0]!, 'held 0');
    await until(() => fake.faults.injected.length === 1, 'the global 429 given to shard 0');
    const given = fake.faults.injected[0]!;
    const windowEnd = given.at + given.retryAfterMs!;

    // Both machines are asked for more posts than a second allows while it runs: they wait, then go out 50 a second.
    const perServer = 30;
    const more = servers.map((server) => keepBusy(server, perServer, perServer, `during ${server}`));
    const results = [await held, ...(await Promise.all(more)).flat()];
    for (const result of results) expect(result.errors).toEqual([]);
    expect(posted(servers[0]!, 'held')).toBe(1);
    for (const server of servers) expect(posted(server, `during ${server}`)).toBe(perServer);

    const counted = fake.traffic.all((request) => request.global && request.at > given.at);
    expect(counted.filter((request) => request.at < windowEnd)).toEqual([]);
    // The other machine did have posts to send, and sent them after the 429 ended.
    expect(counted.filter((request) => request.shards?.includes(1) && request.target === 'channel-message').length).toBeGreaterThanOrEqual(perServer);
    expect(fake.traffic.summary().peakPerSecond).toBeLessThanOrEqual(GLOBAL_REQUESTS_PER_SECOND);
    expect(fake.globalLimitHits).toEqual([]);
    expect(fake.violations).toEqual([]);
    expect(proxy.logs.filter((line) => /^global rate limit from Discord/.test(line.msg ?? ''))).toHaveLength(1);
  });
});
