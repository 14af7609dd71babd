/**
 * Start-up: config → migrate → store → client. With DISCORD_TOKEN the bot logs in to Discord; without it, it
 * starts the sandbox (a fake Discord on 127.0.0.1) so it can be tried locally. Ctrl-C / SIGTERM stop it cleanly.
 */
import { startBot } from './bot.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { startSandbox } from './sandbox/sandbox.js';

async function start(config: Config, log: Logger): Promise<() => Promise<void>> {
  if (config.discordToken) {
    const bot = await startBot({ token: config.discordToken, databaseUrl: config.databaseUrl, log, ...(config.discordApi ? { restApi: config.discordApi } : {}) });
    log.info('bot running; it registers each server\'s slash list itself (`npm run deploy` re-registers them by hand)');
    return bot.stop;
  }
  const sandbox = await startSandbox({ port: config.sandboxPort, databaseUrl: config.databaseUrl, log });
  log.info('no DISCORD_TOKEN: running the sandbox against a fake Discord');
  console.log(`Sandbox ready: ${sandbox.url}`);
  console.log(`Open ${sandbox.url} in a browser to play in a Discord-like #table channel, or use the JSON API`);
  console.log('(docs/sandbox.md), e.g.');
  console.log(`  curl -s -X POST ${sandbox.url}/api/interactions -H 'content-type: application/json' -d '{"user":"mike","command":"sheet create","options":{"name":"Troy"}}'`);
  return sandbox.stop;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  let stop: () => Promise<void>;
  try {
    stop = await start(config, log);
  } catch (error) {
    log.fatal({ err: error }, 'could not start');
    process.exit(1);
  }
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
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));
}

void main();
