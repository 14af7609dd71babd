/**
 * Start-up: config → migrate → store → client. With DISCORD_TOKEN the bot logs in to Discord; without it, it
 * starts the sandbox (a fake Discord on 127.0.0.1) so it can be tried locally. Ctrl-C / SIGTERM stop it cleanly.
 * With SHARD_COUNT this process is the shard manager instead (src/discord/shards.ts), and each cluster process it
 * spawns runs this file again as some shards of the bot (SHARDS_PER_PROCESS).
 */
import { setFlagsFromString } from 'node:v8';
import { loadConfig, settingsOrExit, type Config } from './config.js';
import { createLogger, type Logger } from './log.js';

// Loaded for the mode this process runs in only: a shard manager then carries no commands, store or fake Discord.
const bot = () => import('./bot.js');
const sandboxes = () => import('./sandbox/sandbox.js');

/** How long a cluster process may take to stop before it exits anyway: within the manager's 5 s before SIGKILL. */
const CLUSTER_STOP_LIMIT_MS = 4_000;

/**
 * Starts this process's part; `stoppable` is given the way to stop it as soon as there is one (the shard manager's
 * before its clusters are ready, so that SIGTERM during start-up stops what has started).
 */
async function start(config: Config, log: Logger, stoppable: (stop: () => Promise<void>) => void): Promise<() => Promise<void>> {
  if (config.managedShards && config.discordToken) {
    const shards = config.managedShards;
    const [{ COMMANDS_SCOPE_ARG }, { reportClusterReady }] = await Promise.all([import('./discord/shards.js'), import('./discord/client.js')]);
    const scope = process.argv.find((arg) => arg.startsWith(COMMANDS_SCOPE_ARG))?.slice(COMMANDS_SCOPE_ARG.length);
    // The manager applied the migrations before spawning this process.
    const running = await (await bot()).startBot({
      token: config.discordToken,
      databaseUrl: config.databaseUrl,
      log,
      migrate: false,
      shards,
      ...(config.discordApi ? { restApi: config.discordApi } : {}),
      ...(scope ? { commandsScope: scope } : {}),
    });
    log.info(
      { pid: process.pid, cluster: shards.cluster },
      `bot running as shard${shards.ids.length > 1 ? 's' : ''} ${shards.ids.join(', ')} of ${shards.count}${shards.ids.includes(0) ? '; it registers the global command list when it changed' : ''}`,
    );
    reportClusterReady(running.client);
    return running.stop;
  }
  if (config.discordToken && config.shardCount !== null) {
    const { launchShardManager } = await import('./discord/shards.js');
    const shards = await launchShardManager({
      token: config.discordToken,
      databaseUrl: config.databaseUrl,
      log,
      count: config.shardCount,
      ids: config.shardIds,
      shardsPerProcess: config.shardsPerProcess,
      ...(config.discordApi ? { restApi: config.discordApi } : {}),
    });
    stoppable(shards.stop);
    await shards.ready;
    return shards.stop;
  }
  if (!config.discordToken && typeof config.shardCount === 'number') {
    const sandbox = await (await sandboxes()).startShardedSandbox({ port: config.sandboxPort, databaseUrl: config.databaseUrl, log, shards: config.shardCount });
    const shards = `${config.shardCount} shard${config.shardCount === 1 ? '' : 's'}`;
    const processes = sandbox.shards.clusters.length;
    log.info(`no DISCORD_TOKEN: running the sandbox against a fake Discord with ${shards}, in ${processes} process${processes === 1 ? '' : 'es'}`);
    console.log(`Sandbox ready: ${sandbox.url} (${shards})`);
    console.log(`Open ${sandbox.url} in a browser, or use the JSON API (docs/sandbox.md); its servers are spread over the shards.`);
    return sandbox.stop;
  }
  if (config.discordToken) {
    const running = await (await bot()).startBot({ token: config.discordToken, databaseUrl: config.databaseUrl, log, ...(config.discordApi ? { restApi: config.discordApi } : {}) });
    log.info('bot running; it registers its global command list when it changed (`npm run deploy` registers it by hand)');
    return running.stop;
  }
  const sandbox = await (await sandboxes()).startSandbox({ port: config.sandboxPort, databaseUrl: config.databaseUrl, log });
  log.info('no DISCORD_TOKEN: running the sandbox against a fake Discord');
  console.log(`Sandbox ready: ${sandbox.url}`);
  console.log(`Open ${sandbox.url} in a browser to play in a Discord-like #table channel, or use the JSON API`);
  console.log('(docs/sandbox.md), e.g.');
  console.log(`  curl -s -X POST ${sandbox.url}/api/interactions -H 'content-type: application/json' -d '{"user":"mike","command":"sheet create","options":{"name":"Troy"}}'`);
  return sandbox.stop;
}

/**
 * The sandbox's port taken by another program (often a sandbox already running) or not allowed: what to set instead,
 * rather than Node's error and stack. Null for any other failure.
 */
function sandboxPortProblem(error: unknown, port: number): string | null {
  const code = (error as { code?: unknown; syscall?: unknown } | null)?.code;
  if ((error as { syscall?: unknown } | null)?.syscall !== 'listen') return null;
  const instead = 'Set SANDBOX_PORT to a free port (e.g. `SANDBOX_PORT=8788 npm start`), or to 0 to take any free one.';
  if (code === 'EADDRINUSE') return `port ${port} on 127.0.0.1 is already in use (by another program, or a sandbox already running), so the sandbox cannot listen there. ${instead}`;
  if (code === 'EACCES') return `the sandbox may not listen on port ${port} on 127.0.0.1 (ports below 1024 need extra rights). ${instead}`;
  return null;
}

async function main(): Promise<void> {
  const config = settingsOrExit(loadConfig);
  // A cluster process's every line says which shards it runs: they all write to the manager's terminal.
  const shards = config.managedShards;
  const log = shards ? createLogger(config.logLevel).child({ shards: shards.ids, cluster: shards.cluster }) : createLogger(config.logLevel);
  // Listened for from the start: SIGTERM while a cluster logs in, or while the manager waits for its clusters, stops
  // what has started (the default would end this process at once, without a word, and leave no one to stop the rest).
  let stop: (() => Promise<void>) | null = null;
  let stopping = false;
  const finish = (): void => {
    if (!stop) {
      // Nothing to stop yet (loading, migrating, logging in): ending here loses nothing.
      process.exit(0);
    }
    // A cluster process never outlasts the manager's patience: it would be killed in the middle of whatever it does.
    const limit = shards
      ? setTimeout(() => {
          log.error(`could not stop within ${CLUSTER_STOP_LIMIT_MS / 1000} s; exiting anyway`);
          process.exit(1);
        }, CLUSTER_STOP_LIMIT_MS)
      : undefined;
    limit?.unref();
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'unclean shutdown');
        process.exit(1);
      });
  };
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    finish();
  };
  const stoppable = (fn: () => Promise<void>): void => {
    stop = fn;
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // A cluster process whose manager is gone (killed, crashed) stops too: a new manager spawns its shards again, and
  // two processes running one shard would both answer its servers.
  if (shards) process.on('disconnect', () => shutdown('the shard manager is gone'));
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));
  try {
    const started = await start(config, log, stoppable);
    stop = started;
  } catch (error) {
    if (stopping) return;
    const port = config.discordToken ? null : sandboxPortProblem(error, config.sandboxPort);
    if (port) {
      console.error(`Configuration error: ${port}`);
      process.exit(1);
    }
    log.fatal({ err: error }, 'could not start');
    process.exit(1);
  }
  // A small young generation and modest heap growth from here on (10,000 sheets: ~170 MB rather than ~300 MB), not
  // during the start, where V8's size-first choices cost ~100 ms of loading and the small young generation ~20 ms
  // of garbage collection (docs/performance.md).
  setFlagsFromString('--optimize-for-size --max-semi-space-size=2');
}

void main();
