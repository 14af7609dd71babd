/**
 * `npm run proxy` (in the Docker image: `node dist/src/rest-proxy.js`): the one REST queue of a deployment
 * (src/discord/rest-proxy.ts, docs/scaling.md "One REST queue"), its settings read and checked, stopped by SIGTERM or
 * SIGINT.
 */
import { pathToFileURL } from 'node:url';
import { loadProxyConfig, settingsOrExit } from './config.js';
import { startRestProxy, type RunningRestProxy } from './discord/rest-proxy.js';
import { createLogger } from './log.js';

async function main(): Promise<void> {
  const config = settingsOrExit(loadProxyConfig);
  const log = createLogger(config.logLevel);
  let proxy: RunningRestProxy;
  try {
    proxy = await startRestProxy(config, log);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      console.error(`Configuration error: the REST proxy cannot listen on ${config.host}:${config.port} (${String(code)}). Set REST_PROXY_HOST and REST_PROXY_PORT to an address of this machine and a free port.`);
      process.exit(1);
    }
    log.fatal({ err: error }, 'REST proxy could not start');
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    proxy
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'unclean shutdown');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
