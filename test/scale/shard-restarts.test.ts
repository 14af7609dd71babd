// The shard manager's restarts as Discord's gateway limits would have them: a cluster that keeps dying is respawned
// after ever longer waits, so a minute of crashes costs a handful of IDENTIFYs rather than one per second; respawns
// stop before they would spend the last of the day's session starts, and say why and until when; SIGTERM while the
// clusters are still logging in stops them all cleanly. The fake Discord refuses IDENTIFYs past its daily budget and
// closer than 5 s in one bucket (paceIdentifies), recording each as a violation, as Discord would refuse them.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import type { FakeDiscordOptions } from '../../src/sandbox/types.js';
import { ChildBot, shardsRunning, isAlive, type LogLine } from '../helpers/child-bot.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { adminQuery } from '../helpers/postgres-server.js';
import { textOf } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

let fake: FakeDiscord | undefined;
let bot: ChildBot | undefined;

afterEach(async () => {
  await bot?.kill('SIGKILL');
  await fake?.stop();
  bot = undefined;
  fake = undefined;
});

async function startFake(options: FakeDiscordOptions): Promise<FakeDiscord> {
  fake = new FakeDiscord({ paceIdentifies: true, ...options });
  await fake.start();
  return fake;
}

function botEnv(discord: FakeDiscord, databaseUrl: string, env: Record<string, string>): Record<string, string> {
  return { DISCORD_TOKEN: discord.token, DISCORD_APPLICATION_ID: discord.applicationId, DISCORD_API: discord.restApi, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env };
}

/** The manager's lines about cluster `id`. */
function clusterLines(manager: ChildBot, id: number, message: RegExp): LogLine[] {
  return manager.logs.filter((line) => line.cluster === id && typeof line.pid === 'number' && message.test(line.msg ?? '') && line.shards !== undefined);
}

function currentPid(manager: ChildBot, id: number): number {
  return clusterLines(manager, id, /process \d+ spawned/).at(-1)!.pid as number;
}

function serverOn(discord: FakeDiscord, shard: number): string {
  for (let i = 0; ; i++) if (discord.shardOf(`Restart Table ${i}`) === shard) return `Restart Table ${i}`;
}

describe('a cluster in a crash loop', () => {
  it('is respawned after 5 s, then 10 s, 20 s …, making only a handful of IDENTIFYs, and runs again once it can', async () => {
    const discord = await startFake({ shards: 2, maxConcurrency: 1 });
    const databaseUrl = await freshPostgresUrl();
    const database = new URL(databaseUrl).pathname.slice(1);
    bot = await ChildBot.spawn({
      env: botEnv(discord, databaseUrl, { SHARD_COUNT: '2', SHARDS_PER_PROCESS: '1' }),
      readyWhen: shardsRunning,
      readyTimeoutMs: 120_000,
    });
    const manager = bot;
    const server = serverOn(discord, 1);
    // The slash list first: registering it needs the database this test is about to close.
    await until(() => discord.commands(server).length > 0, () => `the slash list:\n${manager.tail(30)}`);
    const identifiesBefore = discord.gatewayCounts.identifies;
    expect(identifiesBefore).toBe(2);

    // The database refuses every new connection (as a PostgreSQL that is down or full would): cluster 1's process,
    // killed, cannot start again, and dies as soon as it tries to open its store.
    await adminQuery(inject('postgresAdminUrl'), `ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    try {
      process.kill(currentPid(manager, 1), 'SIGKILL');
      await manager.waitForLog(() => clusterLines(manager, 1, /died/).length >= 3, 120_000, 'three deaths of cluster 1 in a row');
    } finally {
      await adminQuery(inject('postgresAdminUrl'), `ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    }
    const deaths = clusterLines(manager, 1, /died/);
    expect(deaths.map((line) => line.deaths)).toEqual([1, 2, 3]);
    // Each wait at least ~1.7 times the one before (doubling, with up to a fifth added at random).
    const waits = deaths.map((line) => line.respawnInMs as number);
    expect(waits[0]).toBeGreaterThanOrEqual(5_000);
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]! * 1.6);
    // Two respawns so far: whatever they cost, far from one IDENTIFY per second, and none refused by Discord's rules.
    expect(clusterLines(manager, 1, /process \d+ spawned/)).toHaveLength(3);
    expect(discord.gatewayCounts.identifies - identifiesBefore).toBeLessThanOrEqual(2);
    expect(discord.gatewayCounts.identifyRefusals).toBe(0);
    expect(discord.violations).toEqual([]);

    // The database is back: the next respawn comes up, and shard 1's servers are answered again.
    await manager.waitForLog(() => clusterLines(manager, 1, /: ready$/).length >= 2, 120_000, 'cluster 1 ready again');
    await until(() => discord.liveShards().includes(1), 'shard 1 on the gateway again');
    const roll = await discord.interact({ user: 'mike', guild: server, command: 'roll dice', options: { expression: '1d6' } });
    expect(roll.errors).toEqual([]);
    expect(roll.responses.map(textOf).join('\n')).toContain('🎲 1d6');
    expect(discord.violations).toEqual([]);
  }, 240_000);
});

describe('the daily session start limit', () => {
  it('stops respawning before the last starts of the day are spent, says why and when it resets, and breaks no limit', async () => {
    // 4 session starts a day: 2 at start-up, 1 respawn, and then the reserve (10%, at least 1) is all that is left.
    const discord = await startFake({ shards: 2, maxConcurrency: 16, sessionStartsPerDay: 4 });
    bot = await ChildBot.spawn({
      env: botEnv(discord, await freshPostgresUrl(), { SHARD_COUNT: '2', SHARDS_PER_PROCESS: '1' }),
      readyWhen: shardsRunning,
      readyTimeoutMs: 120_000,
    });
    const manager = bot;
    process.kill(currentPid(manager, 1), 'SIGKILL');
    await manager.waitForLog(() => clusterLines(manager, 1, /: ready$/).length >= 2, 120_000, 'cluster 1 respawned and ready');
    expect(discord.gatewayCounts.identifies).toBe(3);

    process.kill(currentPid(manager, 1), 'SIGKILL');
    const refused = await manager.waitForLog((line) => line.cluster === 1 && /is not respawned/.test(line.msg ?? ''), 120_000, 'the respawn refused');
    expect(refused.level).toBe(50);
    expect(refused.msg).toMatch(
      /^cluster 1 \(shard 1 of 2\) is not respawned: Discord allows 1 more session start today \(of 4\), its 1 shard would leave less than the 1 kept for restarts by hand; trying again when the limit resets, in [\d.]+ s \(\d{4}-\d\d-\d\dT/,
    );
    expect(refused).toMatchObject({ sessionStartLimit: { total: 4, remaining: 1, reserve: 1 }, resetInMs: expect.any(Number) });
    expect(clusterLines(manager, 1, /process \d+ spawned/)).toHaveLength(2);
    // Shard 0 plays on; nothing was asked of Discord that it would have refused.
    expect(discord.liveShards()).toEqual([0]);
    expect(discord.gatewayCounts).toMatchObject({ identifies: 3, identifyRefusals: 0 });
    expect(discord.violations).toEqual([]);
    expect(manager.running).toBe(true);
  }, 240_000);
});

describe('SIGTERM while the clusters are still logging in', () => {
  it('ends the manager with exit code 0 and every cluster process gone, each stopped by SIGTERM alone', async () => {
    // max_concurrency 1: four shards log in one every 5.5 s, so most are still waiting for their turn.
    const discord = await startFake({ shards: 4, maxConcurrency: 1 });
    bot = await ChildBot.spawn({
      env: botEnv(discord, await freshPostgresUrl(), { SHARD_COUNT: '4', SHARDS_PER_PROCESS: '2' }),
      readyWhen: (line) => /^spawning 2 processes/.test(line.msg ?? ''),
      readyTimeoutMs: 120_000,
    });
    const manager = bot;
    await manager.waitForLog(() => clusterLines(manager, 0, /spawned/).length + clusterLines(manager, 1, /spawned/).length === 2, 30_000, 'both cluster processes spawned');
    await until(() => discord.gatewayCounts.identifies >= 1, 'the first shard logged in');
    const pids = [currentPid(manager, 0), currentPid(manager, 1)];
    expect(manager.logs.some(shardsRunning)).toBe(false);

    const exit = await manager.kill('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    const stopped = [0, 1].flatMap((id) => clusterLines(manager, id, /stopped/));
    expect(stopped.map((line) => line.pid).sort()).toEqual([...pids].sort());
    expect(stopped.map((line) => line.signal)).toEqual([null, null]);
    expect(manager.logs.some((line) => /did not stop within|could not stop within|died/.test(line.msg ?? ''))).toBe(false);
    await until(() => pids.every((pid) => !isAlive(pid)), 'the cluster processes gone');
    expect(discord.violations).toEqual([]);
  }, 180_000);
});
