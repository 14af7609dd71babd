/**
 * The shard manager: with SHARD_COUNT set, `npm start` runs discord.js's ShardingManager over the bot's own entry
 * point, one OS process per shard of SHARD_IDS (default all), and respawns one that dies. This process never logs in
 * to the gateway and never opens the store: it applies pending migrations once, spawns, watches and stops.
 */
import { REST } from '@discordjs/rest';
import { Routes, ShardingManager, type RESTGetAPIGatewayBotResult, type Shard } from 'discord.js';
import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../log.js';

/** How the sharded sandbox tells its shard processes the scope of their slash lists (a new fake each run). */
export const COMMANDS_SCOPE_ARG = '--commands-scope=';

export interface ShardManagerOptions {
  token: string;
  databaseUrl: string;
  log: Logger;
  /** REST base of a Discord-compatible API (a fake Discord); absent → discord.com. */
  restApi?: string;
  /** The shard count of the whole bot, or 'auto' for /gateway/bot's recommendation. */
  count: number | 'auto';
  /** The shards this machine runs; null → all of them. */
  ids: number[] | null;
  /** The entry point each shard process runs (default the one this process was started with). */
  entry?: string;
  /** Variables each shard process gets beyond this process's environment (the sandbox's fake Discord). */
  env?: Record<string, string>;
  /** Arguments after the entry point (the sandbox's command scope, see main.ts). */
  shardArgs?: string[];
}

export interface RunningShards {
  count: number;
  ids: number[];
  /** The pid of each shard's process now, by shard id (absent while one respawns). */
  pids(): Map<number, number>;
  stop(): Promise<void>;
}

/** Discord lets a bot start `max_concurrency` sessions every 5 s; discord.js's own spacing is 5.5 s for 1. */
const IDENTIFY_WINDOW_MS = 5_500;
/** How long a shard process may take to log in before its spawn counts as failed (discord.js's default is 30 s). */
const READY_TIMEOUT_MS = 90_000;
/** How long a shard process has to stop cleanly after SIGTERM before it is killed. */
const STOP_GRACE_MS = 15_000;

export async function startShardManager(options: ShardManagerOptions): Promise<RunningShards> {
  const { log } = options;
  const gateway = await askGateway(options);
  const count = options.count === 'auto' ? gateway?.shards : options.count;
  if (count === undefined) throw new Error(`SHARD_COUNT=auto needs Discord's /gateway/bot, which did not answer (see the warning above): set SHARD_COUNT to a number.`);
  const ids = options.ids ?? Array.from({ length: count }, (_, id) => id);
  const outside = ids.filter((id) => id >= count);
  if (outside.length > 0) throw new Error(`SHARD_IDS names shard${outside.length > 1 ? 's' : ''} ${outside.join(', ')}, but Discord recommends ${count} shards (SHARD_COUNT=auto): the shards are 0 to ${count - 1}.`);
  const maxConcurrency = Math.max(1, gateway?.session_start_limit.max_concurrency ?? 1);
  if (gateway && gateway.session_start_limit.remaining < ids.length) {
    log.warn({ sessionStartLimit: gateway.session_start_limit }, `Discord allows ${gateway.session_start_limit.remaining} more session starts before its daily limit resets; ${ids.length} shards need one each`);
  }

  // Once, before any shard starts: the shards then open a database that is already up to date.
  // Loaded here only: the database's clients are the largest part of a process, and the manager needs them this once.
  const { migrateDatabase } = await import('../store/database.js');
  await migrateDatabase(options.databaseUrl);
  log.info('database migrations applied');

  const entry = options.entry ?? process.argv[1]!;
  // The shard processes run like this one (npm start's memory flags, tsx for the TypeScript source).
  const execArgv = [...process.execArgv];
  if (/\.[mc]?ts$/.test(entry) && !execArgv.some((arg) => arg.includes('tsx'))) execArgv.push('--import', 'tsx');
  const manager = new ShardingManager(entry, {
    totalShards: count,
    shardList: ids,
    mode: 'process',
    respawn: true,
    token: options.token,
    execArgv,
    shardArgs: options.shardArgs ?? [],
  });
  let stopping = false;
  manager.on('shardCreate', (shard: Shard) => {
    // mode 'process': every child is a ChildProcess, its environment built from `env` when it is spawned.
    Object.assign(shard.env as NodeJS.ProcessEnv, options.env ?? {});
    shard.on('spawn', (spawned) => {
      const child = spawned as ChildProcess;
      log.info({ shard: shard.id, pid: child.pid }, `shard ${shard.id} of ${count}: process ${child.pid} spawned`);
    });
    shard.on('ready', () => log.info({ shard: shard.id, pid: shard.process?.pid }, `shard ${shard.id} of ${count}: ready`));
    shard.on('death', (died) => {
      const child = died as ChildProcess;
      const how = { shard: shard.id, pid: child.pid, exitCode: child.exitCode, signal: child.signalCode };
      if (stopping) log.info(how, `shard ${shard.id} of ${count}: process ${child.pid} stopped`);
      else log.warn(how, `shard ${shard.id} of ${count}: process ${child.pid} died (${child.signalCode ?? `exit code ${child.exitCode}`}); respawning it`);
    });
    shard.on('error', (error: Error) => log.error({ err: error, shard: shard.id }, `shard ${shard.id} of ${count}: could not be respawned`));
  });

  const pids = () => new Map([...manager.shards.values()].flatMap((shard) => (shard.process?.pid ? [[shard.id, shard.process.pid] as [number, number]] : [])));
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    manager.respawn = false;
    await Promise.all([...manager.shards.values()].map((shard) => stopShardProcess(shard.process)));
  };

  const delay = Math.ceil(IDENTIFY_WINDOW_MS / maxConcurrency);
  log.info({ shards: ids, count, delayMs: delay }, `spawning ${ids.length} shard process${ids.length > 1 ? 'es' : ''} (shards ${ids.join(', ')} of ${count}), ${delay} ms apart`);
  try {
    await manager.spawn({ amount: count, delay, timeout: READY_TIMEOUT_MS });
  } catch (error) {
    await stop();
    throw error;
  }
  log.info({ shards: ids, count, pids: Object.fromEntries(pids()) }, `shards running: ${ids.join(', ')} of ${count}`);
  return { count, ids, pids, stop };
}

/** /gateway/bot: the recommended shard count and the session start limit; null (warned) when it cannot be had. */
async function askGateway(options: ShardManagerOptions): Promise<RESTGetAPIGatewayBotResult | null> {
  const rest = new REST({ ...(options.restApi ? { api: options.restApi } : {}) }).setToken(options.token);
  try {
    return (await rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
  } catch (error) {
    if (options.count === 'auto') throw new Error(`SHARD_COUNT=auto: Discord's /gateway/bot did not answer (${String((error as Error)?.message ?? error)}); check DISCORD_TOKEN, or set SHARD_COUNT to a number.`);
    options.log.warn({ err: error }, 'could not read the session start limit from /gateway/bot; shard processes start 5.5 s apart');
    return null;
  }
}

async function stopShardProcess(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
