// Several shards in one process: SHARD_COUNT=4 with SHARDS_PER_PROCESS=2 over PostgreSQL runs two cluster processes
// (shards 0–1 and 2–3), each one discord.js client for its two shards and one database pool. Every server on every
// shard is answered, by the process running its shard. The fake Discord has max_concurrency 2 and refuses an
// IDENTIFY closer than 5 s to the last of its bucket (shard_id % 2), as Discord does: shards 0 and 2 share a bucket
// but not a process, so only the manager's IDENTIFY queue keeps them apart. SIGTERM under load stops it all cleanly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { ChildBot, shardsRunning, fakeDiscordEnv, isAlive, tellFakeWhenHandled, type LogLine } from '../helpers/child-bot.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { textOf } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const SHARDS = 4;

let fake: FakeDiscord;
let bot: ChildBot;
/** servers[shard]: a server on that shard. */
let servers: string[];

beforeAll(async () => {
  fake = new FakeDiscord({ shards: SHARDS, maxConcurrency: 2, paceIdentifies: true, botSaysWhenDone: true });
  await fake.start();
  servers = Array.from({ length: SHARDS }, (_, shard) => {
    for (let i = 0; ; i++) if (fake.shardOf(`Cluster Table ${i}`) === shard) return `Cluster Table ${i}`;
  });
  bot = await ChildBot.spawn({
    env: {
      ...fakeDiscordEnv(fake),
      DATABASE_URL: await freshPostgresUrl(),
      SHARD_COUNT: String(SHARDS),
      SHARDS_PER_PROCESS: '2',
      LOG_LEVEL: 'debug',
    },
    onLog: tellFakeWhenHandled(fake),
    readyWhen: shardsRunning,
    readyTimeoutMs: 120_000,
  });
  // Each process's own line may reach the shared output after the manager's.
  await bot.waitForLog(() => runningLines().length === 2, 30_000, 'both cluster processes running');
  for (const server of servers) await until(() => fake.commands(server).length > 0, () => `the slash list of ${server}:\n${bot.tail(30)}`);
}, 180_000);

afterAll(async () => {
  await bot?.kill('SIGKILL');
  await fake?.stop();
});

function runningLines(): LogLine[] {
  return bot.logs.filter((line) => /^bot running as shards? /.test(line.msg ?? ''));
}

describe('4 shards in 2 cluster processes', () => {
  it('runs two processes of two shards each, logged in within Discord’s IDENTIFY pace', () => {
    const running = runningLines();
    expect(running.map((line) => line.shards).sort()).toEqual([[0, 1], [2, 3]]);
    expect(new Set(running.map((line) => line.pid)).size).toBe(2);
    expect(running.every((line) => line.pid !== bot.pid)).toBe(true);
    expect(bot.logs.find(shardsRunning)).toMatchObject({ shards: [0, 1, 2, 3], count: SHARDS, clusters: 2 });
    expect(fake.liveShards()).toEqual([0, 1, 2, 3]);
    expect(fake.gatewayCounts).toMatchObject({ identifies: SHARDS, identifyRefusals: 0 });
    expect(fake.violations).toEqual([]);
  });

  it('answers a server on every shard, each from the process running its shard', async () => {
    const processOf = new Map(runningLines().flatMap((line) => (line.shards as number[]).map((shard) => [shard, line.shards as number[]] as const)));
    for (const [shard, server] of servers.entries()) {
      const result = await fake.interact({ user: 'mike', guild: server, command: 'roll dice', options: { expression: '1d20' } });
      expect(result.errors).toEqual([]);
      expect(result.responses.map(textOf).join('\n')).toContain('🎲 1d20');
      const routed = fake.interactionShard(result.id);
      expect(routed?.shard).toBe(shard);
      expect(routed!.answeredBy.length).toBeGreaterThan(0);
      for (const caller of routed!.answeredBy) expect(caller).toEqual(processOf.get(shard));
    }
    expect(fake.shardCounts).toEqual({ wrongShard: 0, unattributed: 0 });
    expect(fake.violations).toEqual([]);
  });

  it('stops every cluster process on SIGTERM under load, each cleanly, with exit code 0', async () => {
    const pids = runningLines().map((line) => line.pid as number);
    expect(pids.filter(isAlive)).toHaveLength(2);
    // Rolls on every shard still under way when SIGTERM comes; whether they are answered is not the point here.
    const handledBefore = bot.logs.filter((line) => line.msg === 'interaction handled').length;
    const load = Array.from({ length: 40 }, (_, i) =>
      fake.interact({ user: `player${i}`, guild: servers[i % SHARDS], command: 'roll dice', options: { expression: '3d6' } }).catch(() => undefined),
    );
    await bot.waitForLog(() => bot.logs.filter((line) => line.msg === 'interaction handled').length > handledBefore, 30_000, 'the load under way');
    const exit = await bot.kill('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    const stopped = bot.logs.filter((line) => /^cluster \d \(shards \d, \d of 4\): process \d+ stopped/.test(line.msg ?? ''));
    expect(stopped.map((line) => line.pid).sort()).toEqual([...pids].sort());
    expect(stopped.map((line) => ({ exitCode: line.exitCode, signal: line.signal }))).toEqual([
      { exitCode: 0, signal: null },
      { exitCode: 0, signal: null },
    ]);
    expect(bot.logs.some((line) => /did not stop within|could not stop within|died/.test(line.msg ?? ''))).toBe(false);
    await until(() => pids.every((pid) => !isAlive(pid)), 'the cluster processes gone');
    // Those left unanswered wait for the fake's own deadline; stopping the fake (afterAll) ends them.
    void load;
  });
});
