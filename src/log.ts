/** One pino logger: pretty on a terminal, JSON lines otherwise. Children carry guild, user and interaction id. */
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

export function createLogger(level: LogLevel, pretty = Boolean(process.stdout.isTTY)): Logger {
  return pino({
    level,
    base: undefined,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  });
}
