/**
 * The PostgreSQL of `npm run bench`'s PostgreSQL rows: a throwaway server of the run's own (Debian's binaries, as
 * the scale suite starts one: test/helpers/postgres-server.ts, fsync off), one new migrated database per bot, stopped
 * with the run. Without PostgreSQL installed the rows say so instead of failing the run.
 */
import { randomBytes } from 'node:crypto';
import { migrateDatabase } from '../src/store/database.js';
import { FakeDiscord, type SandboxInteractionRequest } from '../src/sandbox/fake-discord.js';
import type { ChildBot } from '../test/helpers/child-bot.js';
import { adminQuery, postgresBinaries, startPostgresServer, type PostgresServer } from '../test/helpers/postgres-server.js';
import { PLAYERS, ROLL, startOurs, type Target } from './challenge-latency.js';
import { spawnShardedBot } from './processes.js';

export const NOT_INSTALLED = 'n/a (PostgreSQL not installed)';

export interface BenchPostgres {
  /** A new database on the server, migrated by the bot's own applier. */
  newDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** The run's PostgreSQL, or null when it is not installed (and TEST_POSTGRES_URL names no server). */
export async function startBenchPostgres(): Promise<BenchPostgres | null> {
  if (!postgresBinaries() && !process.env.TEST_POSTGRES_URL?.trim()) return null;
  const server: PostgresServer = await startPostgresServer();
  return {
    async newDatabase() {
      const name = `bench_${randomBytes(6).toString('hex')}`;
      await adminQuery(server.adminUrl, `CREATE DATABASE ${name}`);
      const url = server.urlOf(name);
      await migrateDatabase(url);
      return url;
    },
    stop: () => server.stop(),
  };
}

/** Our bot as startOurs makes it (the same sheets, the same players), on a new PostgreSQL database. */
export async function startOursOnPostgres(postgres: BenchPostgres): Promise<Target> {
  return startOurs({ url: await postgres.newDatabase(), name: 'Tac Talk bot on PostgreSQL' });
}

// ---- throughput with shard processes ------------------------------------------------------------------------------

/** Servers the players are spread over (half on each shard when there are two), the same in every run. */
const SERVERS = 2;

export interface ShardThroughput {
  shards: number;
  /** /roll challenge answered per second, the median of the runs. */
  perSecond: number[];
  problems: string[];
}

/**
 * The bot as a sharded deployment runs it (`SHARD_COUNT=<shards> npm start` over a new PostgreSQL database: the
 * ShardingManager and one OS process per shard, test/helpers/child-bot.ts) against a fake Discord with that many
 * shards in this process. The PLAYERS, each with a sheet in one of SERVERS servers, keep one /roll challenge in flight
 * each until `count` were answered; `runs` times.
 */
export async function shardThroughput(postgres: BenchPostgres, shards: number, count: number, runs: number, settleMs: number): Promise<ShardThroughput> {
  const fake = new FakeDiscord({ shards, maxConcurrency: 16, settleMs });
  await fake.start();
  const problems: string[] = [];
  let bot: ChildBot | undefined;
  try {
    const servers = Array.from({ length: SERVERS }, (_, i) => `Table ${i}`);
    for (const server of servers) fake.guild(server);
    bot = await spawnShardedBot(fake, { databaseUrl: await postgres.newDatabase(), shards, readyTimeoutMs: 120_000 });
    const deadline = Date.now() + 60_000;
    while (servers.some((server) => fake.commands(server).length === 0)) {
      if (Date.now() > deadline) throw new Error(`the shard processes did not register their servers' commands:\n${bot.tail(20)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const serverOf = (user: string) => servers[PLAYERS.indexOf(user) % SERVERS]!;
    for (const user of PLAYERS) {
      for (const request of [
        { user, command: 'sheet create', options: { name: `Operator ${user}` } },
        { user, command: 'sheet skill set', options: { name: 'Climbing', level: 40 } },
        { user, command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } },
      ] satisfies SandboxInteractionRequest[]) {
        const result = await fake.interact({ ...request, guild: serverOf(user) });
        if (result.errors.length > 0 || result.responses.length === 0) throw new Error(`setup /${request.command} failed: ${JSON.stringify(result)}`);
      }
    }
    const loop = async (total: number): Promise<number> => {
      let sent = 0;
      const started = performance.now();
      await Promise.all(
        PLAYERS.map(async (user) => {
          while (sent < total) {
            sent++;
            const result = await fake.interact({ ...ROLL, user, guild: serverOf(user) }).catch((error: unknown) => ({ errors: [String(error)], firstResponseMs: undefined }));
            if (result.errors.length > 0 || result.firstResponseMs === undefined) problems.push(`shards ${shards}: ${result.errors.join('; ') || 'no callback'}`);
          }
        }),
      );
      return (total / (performance.now() - started)) * 1000;
    };
    await loop(Math.min(count, 200)); // warm-up: every process's first rolls
    problems.length = 0;
    const perSecond: number[] = [];
    for (let run = 0; run < runs; run++) perSecond.push(await loop(count));
    const wrongShard = fake.violations.filter((violation) => /shard/i.test(String(violation)));
    if (wrongShard.length > 0) problems.push(`${wrongShard.length} answers from the wrong shard, first: ${String(wrongShard[0])}`);
    return { shards, perSecond, problems };
  } finally {
    await bot?.kill('SIGTERM');
    await fake.stop();
  }
}
