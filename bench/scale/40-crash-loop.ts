/**
 * A crash loop for 60 s (issue 26): the bot as a sharded deployment runs it (`npm start`'s entry, SHARD_COUNT=2,
 * SHARDS_PER_PROCESS=1, a throwaway PostgreSQL) against a fake Discord with Discord's default pace (max_concurrency 1)
 * that refuses IDENTIFYs past the daily session start limit or closer than 5 s in a bucket (paceIdentifies), as
 * Discord does. Once it runs, the database stops accepting connections and one cluster process is killed: it cannot
 * start again, and for 60 s the manager respawns it as its backoff allows. Counted: the cluster's spawns and deaths,
 * the IDENTIFYs the fake saw and refused, its violations; then how long the cluster takes to come back once the
 * database accepts connections again (at most its current backoff). Before clusters, the ShardingManager respawned
 * such a shard 88 times in 60 s (87 IDENTIFYs, ignoring the 5 s pace).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import type { ChildBot, LogLine } from '../../test/helpers/child-bot.js';
import { adminQuery, postgresBinaries, startPostgresServer } from '../../test/helpers/postgres-server.js';
import { NOT_INSTALLED } from '../postgres.js';
import { spawnShardedBot } from '../processes.js';
import type { ScaleRow } from './row.js';

const WINDOW_MS = 60_000;
const IDENTIFY_GOAL = 8;

export async function measure(): Promise<ScaleRow[]> {
  if (!postgresBinaries() && !process.env.TEST_POSTGRES_URL?.trim()) return [{ row: 'crash loop for 60 s', figure: NOT_INSTALLED }];
  const server = await startPostgresServer();
  const database = `bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(server.adminUrl, `CREATE DATABASE ${database}`);
  const fake = new FakeDiscord({ shards: 2, maxConcurrency: 1, paceIdentifies: true });
  await fake.start();
  let bot: ChildBot | undefined;
  try {
    bot = await spawnShardedBot(fake, { databaseUrl: server.urlOf(database), shards: 2, shardsPerProcess: 1, readyTimeoutMs: 180_000 });
    const manager = bot;
    const ofCluster1 = (message: RegExp) => (line: LogLine) => line.cluster === 1 && typeof line.pid === 'number' && message.test(line.msg ?? '');
    const lines = (message: RegExp) => manager.logs.filter(ofCluster1(message));
    const victim = lines(/process \d+ spawned/).at(-1)!.pid as number;
    const before = { ...fake.gatewayCounts };
    const spawnsBefore = lines(/process \d+ spawned/).length;
    const deathsBefore = lines(/died/).length;

    await adminQuery(server.adminUrl, `ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    process.kill(victim, 'SIGKILL');
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const counts = fake.gatewayCounts;
    const spawns = lines(/process \d+ spawned/).length - spawnsBefore;
    const deaths = lines(/died/).length - deathsBefore;
    const waits = lines(/died/).slice(deathsBefore).map((line) => Math.round((line.respawnInMs as number) / 100) / 10);
    const identifies = counts.identifies - before.identifies;
    const refused = counts.identifyRefusals - before.identifyRefusals;
    const violations = fake.violations.length;

    await adminQuery(server.adminUrl, `ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    const healed = performance.now();
    const readyBefore = lines(/: ready$/).length;
    await manager.until(() => lines(/: ready$/).length > readyBefore, 'cluster 1 ready again', 600_000);
    const backMs = performance.now() - healed;
    // The cluster's own story, for whoever reads the run's output.
    for (const line of manager.logs.filter((one) => one.cluster === 1)) console.error(`40-crash-loop: ${line.msg}`);
    const windowS = ((healed - started) / 1000).toFixed(0);
    return [
      {
        row: `crash loop for ${windowS} s (database refusing connections), 1 of 2 clusters: IDENTIFYs`,
        figure: `${identifies} IDENTIFYs (${refused} refused), ${spawns} respawns, ${deaths} deaths; waits ${waits.map((s) => `${s} s`).join(', ')}`,
        goal: `< ${IDENTIFY_GOAL} IDENTIFYs (was 87)`,
        met: identifies < IDENTIFY_GOAL,
        details: { identifies, refused, spawns, deaths, waitsS: waits, gatewayCounts: counts },
      },
      {
        row: 'crash loop: pacing and budget violations recorded by the fake Discord',
        figure: `${violations}${violations > 0 ? ` (first: ${fake.violations[0]})` : ''}`,
        goal: '0',
        met: violations === 0,
      },
      {
        row: 'crash loop: the cluster back after the database accepts connections again',
        figure: `${(backMs / 1000).toFixed(1)} s (its next respawn's wait, then its start)`,
        details: { backMs },
      },
    ];
  } finally {
    await bot?.stop(30_000);
    await fake.stop();
    await server.stop();
  }
}
