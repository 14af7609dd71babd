/**
 * Start-up: config → migrate → store → client. With DISCORD_TOKEN the bot logs in to Discord; without it, it
 * starts the sandbox (a fake Discord on 127.0.0.1) so it can be tried locally. Ctrl-C / SIGTERM stop it cleanly.
 * With SHARD_COUNT this process is the shard manager instead (src/discord/shards.ts), and each shard process it
 * spawns runs this file again as one shard of the bot.
 */
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, redactPasswords, type Logger } from './log.js';

// Loaded for the mode this process runs in only: a shard manager then carries no commands, store or fake Discord.
const bot = () => import('./bot.js');
const sandboxes = () => import('./sandbox/sandbox.js');

async function start(config: Config, log: Logger): Promise<() => Promise<void>> {
  if (config.managedShards && config.discordToken) {
    const shards = config.managedShards;
    const { COMMANDS_SCOPE_ARG } = await import('./discord/shards.js');
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
    log.info({ pid: process.pid }, `bot running as shard ${shards.ids.join(', ')} of ${shards.count}; it registers its servers' slash lists itself`);
    return running.stop;
  }
  if (config.discordToken && config.shardCount !== null) {
    const { startShardManager } = await import('./discord/shards.js');
    const shards = await startShardManager({
      token: config.discordToken,
      databaseUrl: config.databaseUrl,
      log,
      count: config.shardCount,
      ids: config.shardIds,
      ...(config.discordApi ? { restApi: config.discordApi } : {}),
    });
    return shards.stop;
  }
  if (!config.discordToken && typeof config.shardCount === 'number') {
    const sandbox = await (await sandboxes()).startShardedSandbox({ port: config.sandboxPort, databaseUrl: config.databaseUrl, log, shards: config.shardCount });
    const shards = `${config.shardCount} shard${config.shardCount === 1 ? '' : 's'}`;
    log.info(`no DISCORD_TOKEN: running the sandbox against a fake Discord with ${shards}, one process each`);
    console.log(`Sandbox ready: ${sandbox.url} (${shards})`);
    console.log(`Open ${sandbox.url} in a browser, or use the JSON API (docs/sandbox.md); its servers are spread over the shards.`);
    return sandbox.stop;
  }
  if (config.discordToken) {
    const running = await (await bot()).startBot({ token: config.discordToken, databaseUrl: config.databaseUrl, log, ...(config.discordApi ? { restApi: config.discordApi } : {}) });
    log.info('bot running; it registers each server\'s slash list itself (`npm run deploy` re-registers them by hand)');
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
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${redactPasswords(error.message)}`);
      process.exit(1);
    }
    throw error;
  }
  // A shard process's every line says which shards it runs: they all write to the manager's terminal.
  const log = config.managedShards ? createLogger(config.logLevel).child({ shards: config.managedShards.ids }) : createLogger(config.logLevel);
  let stop: () => Promise<void>;
  try {
    stop = await start(config, log);
  } catch (error) {
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
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'unclean shutdown');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // A shard process whose manager is gone (killed, crashed) stops too: a new manager spawns the shard again, and two
  // processes running one shard would both answer its servers.
  if (config.managedShards) process.on('disconnect', () => shutdown('the shard manager is gone'));
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));
}

void main();
