/** The environment, read once, checked, typed, with defaults. A bad value stops start-up with a clear message. */
import 'dotenv/config';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  /** Absent → sandbox mode: a fake Discord on 127.0.0.1. */
  discordToken: string | null;
  applicationId: string | null;
  /**
   * The REST base of a Discord-compatible API (a fake Discord in tests, a proxy); absent → the real Discord. The
   * gateway URL is asked from this API, so one variable moves both.
   */
  discordApi: string | null;
  /** Where `npm run deploy` registers commands; absent → globally. */
  deployGuildId: string | null;
  databaseUrl: string;
  logLevel: LogLevel;
  sandboxPort: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const SNOWFLAKE = /^\d{15,21}$/;

function optional(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const discordToken = optional(env, 'DISCORD_TOKEN');
  const applicationId = optional(env, 'DISCORD_APPLICATION_ID');
  const deployGuildId = optional(env, 'DISCORD_GUILD_ID');
  if (discordToken && !applicationId) {
    throw new ConfigError('DISCORD_APPLICATION_ID is missing: with DISCORD_TOKEN set, the bot needs its application id (Developer Portal → General Information).');
  }
  for (const [name, value] of [['DISCORD_APPLICATION_ID', applicationId], ['DISCORD_GUILD_ID', deployGuildId]] as const) {
    if (value && !SNOWFLAKE.test(value)) throw new ConfigError(`${name} must be a Discord id (15–21 digits), not "${value}".`);
  }
  const discordApi = optional(env, 'DISCORD_API');
  if (discordApi && !isHttpUrl(discordApi)) {
    throw new ConfigError(`DISCORD_API must be an http(s) URL such as http://127.0.0.1:8787/api, not "${discordApi}". Leave it unset for the real Discord.`);
  }
  const databaseUrl = optional(env, 'DATABASE_URL') ?? 'file:./data/bot.db';
  if (!databaseUrl.startsWith('file:')) {
    throw new ConfigError(`DATABASE_URL must be a SQLite file URL such as file:./data/bot.db, not "${databaseUrl}".`);
  }
  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}".`);
  const portText = optional(env, 'SANDBOX_PORT') ?? '8787';
  const sandboxPort = Number(portText);
  if (!/^\d+$/.test(portText) || sandboxPort > 65535) {
    throw new ConfigError(`SANDBOX_PORT must be a port number from 0 to 65535 (0 picks a free one), not "${portText}".`);
  }
  return { discordToken, applicationId, discordApi, deployGuildId, databaseUrl, logLevel, sandboxPort };
}
