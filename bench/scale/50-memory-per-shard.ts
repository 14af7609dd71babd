/**
 * Memory and database connections per shard (issue 26): the bot as a sharded deployment runs it (`npm start`'s
 * entry over a throwaway PostgreSQL, each run a new database) against a fake Discord with that many shards and
 * max_concurrency 16 (so start-up is quick), with one server per shard (and, in the last two runs, 1,000: a
 * real shard's share, whose guilds discord.js keeps in memory). For each combination of shards and processes
 * (SHARDS_PER_PROCESS = shards / processes): once every cluster is ready and the global command list is in place,
 * a roll is played in every server, then a burst of rolls at once over every server; then the resident memory
 * (VmRSS) of the manager and of each cluster process, and the PostgreSQL connections open on the run's database
 * (pg_stat_activity), per process and per shard. A pool holds at most 21 connections (src/store/postgres.ts); idle
 * ones close after 10 s, so right after the burst is near the most a process opens.
 */
import fs from 'node:fs';
import pg from 'pg';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { tellFakeWhenHandled, type ChildBot } from '../../test/helpers/child-bot.js';
import { NOT_INSTALLED, startBenchPostgres, type BenchPostgres } from '../postgres.js';
import { spawnShardedBot } from '../processes.js';
import type { ScaleRow } from './row.js';

/** Shards, processes, and servers on each shard (a real shard holds ~1,000: what the last two rows weigh). */
const COMBINATIONS: [shards: number, processes: number, serversPerShard: number][] = [
  [1, 1, 1],
  [4, 1, 1],
  [4, 2, 1],
  [4, 4, 1],
  [16, 1, 1],
  [16, 2, 1],
  [16, 4, 1],
  [4, 1, 1_000],
  [4, 4, 1_000],
];
const BURST_PER_SERVER = 8;
const REGISTRATION_LINE = /^global command list (registered|unchanged)/;

function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function connectionsOn(databaseUrl: string): Promise<number> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM pg_stat_activity WHERE datname = $1', [database]);
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}

interface Run {
  shards: number;
  processes: number;
  serversPerShard: number;
  managerMb: number;
  clusterMb: number[];
  connections: number;
  startMs: number;
}

async function runOnce(postgres: BenchPostgres, shards: number, processes: number, serversPerShard: number): Promise<Run> {
  const fake = new FakeDiscord({ shards, maxConcurrency: 16, paceIdentifies: true, botSaysWhenDone: true });
  await fake.start();
  // The first server of each shard is played in; the others are only there, as most of a shard's servers are.
  const servers: string[] = [];
  const onShard = Array.from({ length: shards }, () => 0);
  for (let i = 0; onShard.some((count) => count < serversPerShard); i++) {
    const shard = fake.shardOf(`Memory Table ${i}`);
    if (onShard[shard]! === 0) servers.push(`Memory Table ${i}`);
    onShard[shard]!++;
  }
  const databaseUrl = await postgres.newDatabase();
  let bot: ChildBot | undefined;
  try {
    bot = await spawnShardedBot(fake, { databaseUrl, shards, shardsPerProcess: shards / processes, logLevel: 'debug', onLog: tellFakeWhenHandled(fake), readyTimeoutMs: 300_000 });
    const manager = bot;
    const startMs = manager.startupMs;
    const running = () => manager.logs.filter((line) => /^bot running as shards? /.test(line.msg ?? ''));
    await manager.until(() => running().length === processes, 'every cluster process running', 300_000);
    await manager.until(() => manager.logs.some((line) => REGISTRATION_LINE.test(line.msg ?? '')), 'the global command list', 300_000);
    await manager.until(() => servers.every((server) => fake.commands(server).length > 0), 'the commands offered', 300_000);
    for (const server of servers) {
      const result = await fake.interact({ user: 'mike', guild: server, command: 'roll dice', options: { expression: '1d20' } });
      if (result.errors.length > 0) throw new Error(`a roll in ${server}: ${result.errors.join('; ')}`);
    }
    await Promise.all(
      servers.flatMap((server) =>
        Array.from({ length: BURST_PER_SERVER }, (_, i) => fake.interact({ user: `player${i}`, guild: server, command: 'roll dice', options: { expression: '3d6' } })),
      ),
    );
    const connections = await connectionsOn(databaseUrl);
    const clusterMb = running().map((line) => rssMb(line.pid as number) ?? NaN);
    return { shards, processes, serversPerShard, managerMb: rssMb(manager.pid) ?? NaN, clusterMb, connections, startMs };
  } finally {
    await bot?.stop(30_000);
    await fake.stop();
  }
}

const mb = (value: number): string => `${Math.round(value)} MB`;

export async function measure(): Promise<ScaleRow[]> {
  const postgres = await startBenchPostgres();
  if (!postgres) return [{ row: 'memory and connections per shard', figure: NOT_INSTALLED }];
  const rows: ScaleRow[] = [];
  try {
    for (const [shards, processes, serversPerShard] of COMBINATIONS) {
      const run = await runOnce(postgres, shards, processes, serversPerShard);
      const what = `${shards} shard${shards > 1 ? 's' : ''}${serversPerShard > 1 ? ` of ${serversPerShard.toLocaleString('en')} servers` : ''} in ${processes} process${processes > 1 ? 'es' : ''}`;
      const clusters = run.clusterMb.reduce((sum, one) => sum + one, 0);
      const perProcess = clusters / processes;
      console.error(`50-memory-per-shard: ${what}: ${run.clusterMb.map(mb).join(', ')}; manager ${mb(run.managerMb)}; ${run.connections} connections`);
      rows.push({
        row: `${what}: memory (VmRSS)`,
        figure: `${mb(perProcess)} per process, ${mb(clusters / shards)} per shard; manager ${mb(run.managerMb)}; ${mb(clusters + run.managerMb)} in all`,
        details: { ...run },
      });
      rows.push({
        row: `${what}: PostgreSQL connections after a burst of ${BURST_PER_SERVER * shards} rolls`,
        figure: `${run.connections} open (${(run.connections / processes).toFixed(1)} per process, ${(run.connections / shards).toFixed(1)} per shard); at most ${21 * processes} (21 per process)`,
      });
    }
    return rows;
  } finally {
    await postgres.stop();
  }
}
