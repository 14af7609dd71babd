/**
 * Registering the commands in many servers (issue 26): the bot as a sharded deployment runs it (`npm start`'s entry
 * with SHARD_COUNT=3 over a throwaway PostgreSQL) against a fake Discord holding SERVERS servers, started four times
 * on the same database:
 * - a first start (nothing registered yet): the global list registered once, by the process with shard 0;
 * - a restart with nothing changed: nothing registered;
 * - a new version whose command list differs (the stored digest is made an older version's): registered once, and
 *   every server has it;
 * - an upgrade from a version that registered a list in each server: OLD_LISTS servers' lists cleared once, in the
 *   background, at most 10 a second per process.
 * Each row: REST calls to the command routes, every REST call, the peak of requests a second Discord's global limit
 * counts (all processes together: the fake is one Discord), and the time from spawn to every shard connected and to
 * the commands in place. The bot is waited for through the fake (its shards connected, its command writes) and the
 * bot's own registration line, not the shard manager's wording.
 */
import { performance } from 'node:perf_hooks';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { openStore } from '../../src/store/index.js';
import { NOT_INSTALLED, startBenchPostgres } from '../postgres.js';
import { spawnShardedBot } from '../processes.js';
import type { ScaleRow } from './row.js';

const SERVERS = 5_000;
const SHARDS = 3;
/** Servers with a list of their own from an older version, in the upgrade run. */
const OLD_LISTS = 1_500;
const TIMEOUT_MS = 600_000;

interface Run {
  /** REST calls to /applications/…/commands. */
  commandCalls: number;
  /** Writes to the global list. */
  globalWrites: number;
  calls: number;
  peakPerSecond: number;
  /** From spawn to every shard connected. */
  shardsMs: number;
  /** From spawn to the commands in place (the global list registered or found unchanged, and old lists cleared). */
  commandsMs: number;
}

const REGISTRATION_LINE = /^global command list (registered|unchanged)/;

/** One start of the bot: spawned, measured until its commands are in place (`done`), stopped with SIGTERM. */
async function startOnce(fake: FakeDiscord, databaseUrl: string, done: () => boolean | Promise<boolean> = () => true): Promise<Run> {
  fake.traffic.reset();
  const globalBefore = fake.commandWrites('global');
  const bot = await spawnShardedBot(fake, {
    databaseUrl,
    shards: SHARDS,
    // Any first line: what follows is waited for through the fake, whatever the shard manager logs.
    readyWhen: () => true,
    readyTimeoutMs: TIMEOUT_MS,
  });
  try {
    await bot.until(() => fake.liveShards().length === SHARDS, `${SHARDS} shards connected`, TIMEOUT_MS);
    const shardsMs = performance.now() - bot.startedAt;
    await bot.until(() => bot.logs.some((line) => REGISTRATION_LINE.test(line.msg ?? '')), 'the global list registered or found unchanged', TIMEOUT_MS);
    await bot.until(done, 'the commands in place', TIMEOUT_MS);
    const commandsMs = performance.now() - bot.startedAt;
    const traffic = fake.traffic.summary();
    return {
      commandCalls: traffic.byTarget.commands ?? 0,
      globalWrites: fake.commandWrites('global') - globalBefore,
      calls: traffic.total,
      peakPerSecond: traffic.peakPerSecond,
      shardsMs,
      commandsMs,
    };
  } finally {
    await bot.stop(30_000);
    await bot.until(() => fake.liveShards().length === 0, 'every shard gone', TIMEOUT_MS).catch(() => undefined);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function rowsOf(what: string, run: Run, extra: Record<string, unknown> = {}): ScaleRow[] {
  const where = `${SERVERS.toLocaleString('en')} servers on ${SHARDS} shards`;
  return [
    {
      row: `${what}, ${where}: command registration`,
      figure: `${run.commandCalls} command calls (${run.globalWrites} global list writes), ${run.calls} REST calls in all, peak ${run.peakPerSecond} req/s`,
      // Discord's global limit, over every process together (the fake counts them all).
      goal: '≤ 50 req/s',
      met: run.peakPerSecond <= 50,
      details: { ...run, ...extra },
    },
    {
      row: `${what}, ${where}: time from spawn`,
      figure: `every shard connected ${seconds(run.shardsMs)}, commands in place ${seconds(run.commandsMs)}`,
    },
  ];
}

export async function measure(): Promise<ScaleRow[]> {
  const postgres = await startBenchPostgres();
  if (!postgres) return [{ row: 'command registration, 5,000 servers on 3 shards', figure: NOT_INSTALLED }];
  const fake = new FakeDiscord({ shards: SHARDS, maxConcurrency: 16 });
  await fake.start();
  try {
    const made = performance.now();
    const servers = Array.from({ length: SERVERS }, (_, i) => fake.guild(`Server ${i}`).id);
    console.error(`10-registration: ${SERVERS} servers made in the fake in ${seconds(performance.now() - made)}`);
    const databaseUrl = await postgres.newDatabase();
    const rows: ScaleRow[] = [];

    const first = await startOnce(fake, databaseUrl);
    rows.push(...rowsOf('first start', first));

    const restart = await startOnce(fake, databaseUrl);
    rows.push(...rowsOf('restart, nothing changed', restart));

    // A new version: the digest stored is an older list's.
    const store = await openStore(databaseUrl);
    await store.db.commandRegistration.updateMany({ data: { digest: 'an older version’s list' } });
    await store.close();
    const changed = await startOnce(fake, databaseUrl);
    rows.push(...rowsOf('a changed command list', changed, { serversWithIt: servers.filter((server) => fake.commands(server).length > 0).length }));

    // An upgrade from per-server lists: OLD_LISTS servers have their digest kept, as the older version left them.
    const old = servers.slice(0, OLD_LISTS);
    const upgrade = await openStore(databaseUrl);
    for (const guildId of old) await upgrade.servers.update(guildId, { commandsDigest: 'an older version’s list' });
    const left = () => upgrade.db.server.count({ where: { commandsDigest: { not: null } } });
    const upgraded = await startOnce(fake, databaseUrl, async () => (await left()) === 0);
    await upgrade.close();
    rows.push(
      ...rowsOf(`upgrade from per-server lists (${OLD_LISTS.toLocaleString('en')} of them cleared)`, upgraded, {
        clearedWrites: old.reduce((sum, server) => sum + fake.commandWrites(server), 0),
      }),
    );
    return rows;
  } finally {
    await fake.stop();
    await postgres.stop();
  }
}
