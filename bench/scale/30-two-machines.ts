/**
 * Two machines, one bot token (issue 26): two shard managers (SHARD_COUNT=2, SHARD_IDS 0 and 1, a process tree each)
 * over one PostgreSQL, against a fake Discord that enforces Discord's global limit (50 requests a second, interaction
 * endpoints aside), first through one `npm run proxy` (src/rest-proxy.ts, its own process), then each machine
 * straight at the fake, as before the proxy. In each: a burst (Dispatchers calling for rolls in both machines' servers
 * at once, each a channel post), then a global 429 given to one machine's post while both keep posting. Beside them,
 * two REST queues (two @discordjs/rest instances, as two processes have) each sending GETs as fast as they can, with
 * and without the proxy: the bot's own work on this 2-core machine stays under 50 a second, these do not.
 */
import { REST } from '@discordjs/rest';
import { Routes } from 'discord.js';
import { pino } from 'pino';
import { startRestProxy } from '../../src/discord/rest-proxy.js';
import { FakeDiscord, type SandboxInteractionResult } from '../../src/sandbox/fake-discord.js';
import { GLOBAL_429_IN_FLIGHT_MS, GLOBAL_REQUESTS_PER_SECOND } from '../../src/sandbox/fake-traffic.js';
import { ChildBot, shardsRunning, fakeDiscordEnv, tellFakeWhenHandled } from '../../test/helpers/child-bot.js';
import { until } from '../../test/helpers/until.js';
import { NOT_INSTALLED, startBenchPostgres, type BenchPostgres } from '../postgres.js';
import type { ScaleRow } from './row.js';

const BURST_PER_SERVER = 60;
const IN_FLIGHT_PER_SERVER = 30;
const DURING_429_PER_SERVER = 30;
const RETRY_AFTER_MS = 3000;
const QUEUE_REQUESTS = 150;
const HOP_REQUESTS = 300;
const SHEET = { name: 'Troy', skills: [{ name: 'Climbing', level: 30 }] };
const LIMIT_GOAL = `≤ ${GLOBAL_REQUESTS_PER_SECOND} req/s`;

interface Run {
  burst: { peak: number; globalRequests: number; posts: number; seconds: number; limitHits: number; failed: number };
  global429: { countedDuringWindow: number; fromOtherMachine: number; afterInFlight: number; limitHits: number; violations: number; postsAfter: number; failed: number; peakAfter: number };
}

/** Both machines, through `api` (the proxy, or the fake itself), and the bursts. */
async function measureMachines(postgres: BenchPostgres, viaProxy: boolean, enforceGlobalLimit: boolean): Promise<Run> {
  const fake = new FakeDiscord({ shards: 2, maxConcurrency: 16, enforceGlobalLimit, botSaysWhenDone: true, handledTimeoutMs: 120_000 });
  await fake.start();
  const processes: ChildBot[] = [];
  try {
    let api = fake.restApi;
    if (viaProxy) {
      const proxy = await ChildBot.spawn({
        entry: 'src/rest-proxy.ts',
        env: { DISCORD_API: fake.restApi, REST_PROXY_PORT: '0', LOG_LEVEL: 'info' },
        readyWhen: (line) => /^REST proxy listening on/.test(line.msg ?? ''),
      });
      processes.push(proxy);
      api = /listening on (http:\/\/\S+),/.exec(proxy.logs.find((line) => /^REST proxy listening on/.test(line.msg ?? ''))!.msg!)![1]!;
    }
    const databaseUrl = await postgres.newDatabase();
    for (const shard of [0, 1]) {
      const machine = await ChildBot.spawn({
        env: { ...fakeDiscordEnv(fake), DISCORD_API: api, DATABASE_URL: databaseUrl, SHARD_COUNT: '2', SHARD_IDS: String(shard), LOG_LEVEL: 'debug' },
        readyWhen: shardsRunning,
        readyTimeoutMs: 120_000,
        onLog: tellFakeWhenHandled(fake),
      });
      processes.push(machine);
      await machine.waitForLog((line) => /^bot running as shard/.test(line.msg ?? ''), 60_000, 'its shard process running');
    }
    const servers = [0, 1].map((shard) => {
      for (let i = 0; ; i++) if (fake.shardOf(`Bench Table ${i}`) === shard) return `Bench Table ${i}`;
    });
    for (const server of servers) {
      await until(() => fake.commands(server).length > 0, `the slash list of ${server}`, 60_000);
      await fake.interact({ user: 'mike', guild: server, command: 'sheet import', options: { file: { filename: 'sheet.json', content: JSON.stringify(SHEET) } } });
    }
    const call = (server: string, tag: string): Promise<SandboxInteractionResult> =>
      fake.interact({ user: 'dee', roles: ['dispatcher'], guild: server, command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', cl: 100, intent: `climb ${tag}`, outcome: 'on the roof' } });
    const keepBusy = async (server: string, count: number, inFlight: number, tag: string): Promise<SandboxInteractionResult[]> => {
      const results: SandboxInteractionResult[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < count) results.push(await call(server, `${tag} ${next++}`).catch((error: unknown) => ({ errors: [String(error)] }) as unknown as SandboxInteractionResult));
        }),
      );
      return results;
    };
    const failures = (results: SandboxInteractionResult[]): number => results.filter((result) => result.errors.length > 0).length;

    fake.traffic.reset();
    const started = performance.now();
    const burst = (await Promise.all(servers.map((server) => keepBusy(server, BURST_PER_SERVER, IN_FLIGHT_PER_SERVER, `burst ${server}`)))).flat();
    const seconds = (performance.now() - started) / 1000;
    const burstSummary = fake.traffic.summary();
    const burstHits = fake.globalLimitHits.length;

    fake.traffic.reset();
    const violationsBefore = fake.violations.length;
    fake.faults.add({ method: 'POST', target: 'channel-message', path: `/channels/${fake.guild(servers[0]).channelId}/`, status: 429, global: true, retryAfterMs: RETRY_AFTER_MS, times: 1 });
    const held = call(servers[0]!, 'held');
    await until(() => fake.faults.injected.length === 1, 'the global 429', 60_000);
    const given = fake.faults.injected[0]!;
    const during = (await Promise.all([held.then((result) => [result]), ...servers.map((server) => keepBusy(server, DURING_429_PER_SERVER, DURING_429_PER_SERVER, `during ${server}`))])).flat();
    const windowEnd = given.at + RETRY_AFTER_MS;
    const inWindow = fake.traffic.all((request) => request.global && request.at > given.at && request.at < windowEnd);
    const after = fake.traffic.all((request) => request.global && request.at >= windowEnd);
    return {
      burst: {
        peak: burstSummary.peakPerSecond,
        globalRequests: burstSummary.globalTotal,
        posts: burstSummary.byTarget['channel-message'] ?? 0,
        seconds,
        limitHits: burstHits,
        failed: failures(burst),
      },
      global429: {
        countedDuringWindow: inWindow.length,
        fromOtherMachine: inWindow.filter((request) => request.shards?.includes(1)).length,
        // Past the time a request sent before the 429 was read could still be on its way.
        afterInFlight: inWindow.filter((request) => request.at > given.at + GLOBAL_429_IN_FLIGHT_MS).length,
        limitHits: fake.globalLimitHits.length - burstHits,
        violations: fake.violations.length - violationsBefore,
        postsAfter: after.filter((request) => request.target === 'channel-message').length,
        failed: failures(during),
        peakAfter: fake.traffic.summary((request) => request.at >= windowEnd).peakPerSecond,
      },
    };
  } finally {
    for (const child of processes.reverse()) await child.stop();
    await fake.stop();
  }
}

/** Two REST queues sending QUEUE_REQUESTS GETs each at once: the peak the fake saw, and its 429s. */
async function measureQueues(viaProxy: boolean, enforceGlobalLimit: boolean): Promise<{ peak: number; seconds: number; limitHits: number; violations: number }> {
  const fake = new FakeDiscord({ enforceGlobalLimit });
  await fake.start();
  const proxy = viaProxy ? await startRestProxy({ host: '127.0.0.1', port: 0, discordApi: fake.restApi, logLevel: 'silent' }, pino({ level: 'silent' })) : null;
  try {
    const queues = ['0', '1'].map((shard) => new REST({ api: proxy?.url ?? fake.restApi, userAgentAppendix: `shards/${shard}` }).setToken(fake.token));
    const started = performance.now();
    await Promise.all(queues.flatMap((queue) => Array.from({ length: QUEUE_REQUESTS }, () => queue.get(Routes.user('@me')))));
    const seconds = (performance.now() - started) / 1000;
    return { peak: fake.traffic.summary().peakPerSecond, seconds, limitHits: fake.globalLimitHits.length, violations: fake.violations.length };
  } finally {
    await proxy?.stop();
    await fake.stop();
  }
}

/** One REST call after another (so no limit is near): the milliseconds each took, median and 95th percentile. */
async function measureHop(viaProxy: boolean): Promise<{ medianMs: number; p95Ms: number }> {
  const fake = new FakeDiscord();
  await fake.start();
  const proxy = viaProxy ? await startRestProxy({ host: '127.0.0.1', port: 0, discordApi: fake.restApi, logLevel: 'silent' }, pino({ level: 'silent' })) : null;
  try {
    const rest = new REST({ api: proxy?.url ?? fake.restApi }).setToken(fake.token);
    const times: number[] = [];
    for (let i = 0; i < HOP_REQUESTS; i++) {
      const started = performance.now();
      await rest.get(Routes.channel(fake.channelId));
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { medianMs: times[Math.floor(times.length / 2)]!, p95Ms: times[Math.floor(times.length * 0.95)]! };
  } finally {
    await proxy?.stop();
    await fake.stop();
  }
}

/** Where the machines send, and whether the fake refuses what passes the limit. */
const SETUPS = [
  { viaProxy: true, enforce: true, how: 'through one proxy' },
  { viaProxy: false, enforce: true, how: 'each straight at Discord (no proxy), the limit enforced' },
  { viaProxy: false, enforce: false, how: 'each straight at Discord (no proxy), nothing refused: what they send' },
] as const;

export async function measure(): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  const [straight, proxied] = [await measureHop(false), await measureHop(true)];
  rows.push({
    row: `one REST call (GET /channels/:id, ${HOP_REQUESTS} one after another): straight vs through the proxy`,
    figure: `median ${straight.medianMs.toFixed(2)} ms vs ${proxied.medianMs.toFixed(2)} ms; 95th percentile ${straight.p95Ms.toFixed(2)} ms vs ${proxied.p95Ms.toFixed(2)} ms`,
    details: { straight, proxied },
  });
  for (const { viaProxy, enforce, how } of SETUPS) {
    const queues = await measureQueues(viaProxy, enforce);
    rows.push({
      row: `two REST queues, ${QUEUE_REQUESTS} GETs each at once, ${how}: peak`,
      figure: `${queues.peak} req/s, ${queues.seconds.toFixed(1)} s, ${queues.limitHits} global 429s, ${queues.violations} violations`,
      // The rows without the proxy are the baseline it is measured against: what it prevents, not a goal missed.
      ...(viaProxy ? { goal: LIMIT_GOAL, met: queues.peak <= GLOBAL_REQUESTS_PER_SECOND } : {}),
      details: { viaProxy, enforce, ...queues },
    });
  }
  const postgres = await startBenchPostgres();
  if (!postgres) return [...rows, { row: 'two machines (SHARD_IDS 0 and 1) bursting', figure: NOT_INSTALLED }];
  try {
    for (const { viaProxy, enforce, how } of SETUPS) {
      const { burst, global429 } = await measureMachines(postgres, viaProxy, enforce);
      rows.push({
        row: `two machines, ${2 * BURST_PER_SERVER} /dispatch posts (${IN_FLIGHT_PER_SERVER} in flight per machine), ${how}: combined peak`,
        figure: `${burst.peak} req/s; ${burst.globalRequests} counted requests (${burst.posts} posts) in ${burst.seconds.toFixed(1)} s; ${burst.limitHits} global 429s; ${burst.failed} interactions failed`,
        ...(viaProxy ? { goal: LIMIT_GOAL, met: burst.peak <= GLOBAL_REQUESTS_PER_SECOND } : {}),
        details: { viaProxy, enforce, ...burst },
      });
      rows.push({
        row: `global 429 (${RETRY_AFTER_MS / 1000} s) given to machine 0's post while both post ${DURING_429_PER_SERVER} more, ${how}: counted requests during it`,
        figure: `${global429.countedDuringWindow} (${global429.fromOtherMachine} from machine 1, ${global429.afterInFlight} later than ${GLOBAL_429_IN_FLIGHT_MS} ms); ${global429.limitHits} more global 429s; ${global429.violations} violations; then ${global429.postsAfter} posts at peak ${global429.peakAfter} req/s; ${global429.failed} interactions failed`,
        ...(viaProxy ? { goal: '0', met: global429.countedDuringWindow === 0 } : {}),
        details: { viaProxy, enforce, ...global429 },
      });
    }
  } finally {
    await postgres.stop();
  }
  return rows;
}
