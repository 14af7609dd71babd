/** The environment, read once, checked, typed, with defaults. A bad value stops start-up with a clear message. */
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { LOG_LEVELS, redactPasswords, type LogLevel } from './log.js';

export interface Config {
  /** Absent → sandbox mode: a fake Discord on 127.0.0.1. */
  discordToken: string | null;
  applicationId: string | null;
  /**
   * The REST base of a Discord-compatible API (a fake Discord in tests, a proxy); absent → the real Discord. The
   * gateway URL is asked from this API, so one variable moves both.
   */
  discordApi: string | null;
  /** The one server `npm run deploy` registers in; absent → every server the bot is in (never globally). */
  deployGuildId: string | null;
  databaseUrl: string;
  logLevel: LogLevel;
  sandboxPort: number;
  /**
   * SHARD_COUNT: how many shards the bot runs in all (on every machine together), or 'auto' for the count Discord's
   * /gateway/bot recommends. null (unset) → one process with no sharding options, the default.
   */
  shardCount: number | 'auto' | null;
  /** SHARD_IDS: the shards this machine runs, ascending; null → every shard of SHARD_COUNT. */
  shardIds: number[] | null;
  /**
   * The shards of this process when the shard manager spawned it as one of its clusters (CLUSTER_MANAGER=true,
   * SHARD_LIST, TOTAL_SHARDS, CLUSTER): the process then runs the bot for those shards only. null in every other process.
   */
  managedShards: { ids: number[]; count: number; cluster: number } | null;
  /**
   * SHARDS_PER_PROCESS: how many of this machine's shards one bot process runs (a cluster), or 'auto' (the default):
   * this machine's shards spread evenly over one process per core. Read only with SHARD_COUNT.
   */
  shardsPerProcess: number | 'auto';
}

/** `npm run proxy`'s settings (src/rest-proxy.ts): the one REST queue every bot process of a deployment sends through. */
export interface ProxyConfig {
  /** Where the proxy listens: REST_PROXY_HOST (default 127.0.0.1; 0.0.0.0 to serve other machines) and REST_PROXY_PORT (default 8790). */
  host: string;
  port: number;
  /** Where it sends: DISCORD_API (a fake Discord in tests), absent → the real Discord. */
  discordApi: string | null;
  logLevel: LogLevel;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * An entry point's settings (`load` is loadConfig or loadProxyConfig): a bad one is said in one line, with any
 * password in it hidden, and the process ends with 1, with no stack or JSON for someone who only mistyped a value.
 */
export function settingsOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${redactPasswords(error.message)}`);
    process.exit(1);
  }
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

/** The variables the bot reads whose silent absence would do harm: the sandbox instead of Discord, another database. */
const GUARDED_NAMES = ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID', 'DISCORD_GUILD_ID', 'DISCORD_API', 'DATABASE_URL'];

/** Edits (insertions, deletions, substitutions, swaps of neighbours) between two names. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name a set variable was probably meant to be: DISCORD_TOKNE, discord_token, DISCORD_BOT_TOKEN (as other
 * bots call it). A misspelt DISCORD_TOKEN is worse than a missing one: the bot starts the sandbox on the real database.
 */
function meantName(name: string): string | null {
  if (GUARDED_NAMES.includes(name)) return null;
  const upper = name.toUpperCase();
  if (upper.includes('DISCORD') && upper.includes('TOKEN')) return 'DISCORD_TOKEN';
  let best: { known: string; distance: number } | null = null;
  for (const known of GUARDED_NAMES) {
    const distance = editDistance(upper, known);
    if (distance <= 2 && (!best || distance < best.distance)) best = { known, distance };
  }
  return best?.known ?? null;
}

function refuseMisspeltNames(env: NodeJS.ProcessEnv): void {
  for (const [name, value] of Object.entries(env)) {
    if (!value?.trim()) continue;
    const meant = meantName(name);
    // Beside the right name (a host that sets both DISCORD_TOKEN and DISCORD_BOT_TOKEN) the other one changes nothing.
    if (meant && !optional(env, meant)) throw new ConfigError(`${name} is set, but the bot reads ${meant}: rename it to ${meant} (in .env or the environment).`);
  }
}

/**
 * The SQLite file a `file:` URL names, as an absolute path (relative ones from the working directory). Options after
 * "?" are refused rather than taken as part of the file name: the bot opens the file itself, and a read-only one
 * (mode=ro, immutable=1) cannot run it, since every roll is written.
 */
export function sqliteFileOf(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) {
    throw new ConfigError(`DATABASE_URL must be a SQLite file URL such as file:./data/bot.db or a PostgreSQL one such as postgresql://user:password@host:5432/tactalk, not "${redactPasswords(databaseUrl)}".`);
  }
  const [file = '', query] = databaseUrl.slice('file:'.length).split(/\?(.*)/s);
  if (query !== undefined) {
    const options = new URLSearchParams(query);
    const given = redactPasswords(`?${query}`);
    const readOnly = options.get('mode') === 'ro' || ['1', 'true', 'yes', 'on'].includes(options.get('immutable') ?? '');
    const example = `file:${file || './data/bot.db'}`;
    if (readOnly) {
      throw new ConfigError(`DATABASE_URL asks for a read-only database ("${given}"), but the bot writes every roll, sheet and contest, so it cannot run on one. Use ${example} on a file the bot may write.`);
    }
    throw new ConfigError(`DATABASE_URL takes the file only, without options after "?" ("${given}" is not supported). Use ${example}.`);
  }
  if (!file) throw new ConfigError('DATABASE_URL names no file: write it as file:./data/bot.db or file:/absolute/path/bot.db.');
  return path.resolve(file);
}

/** `postgresql://…` or `postgres://…`: the bot runs on PostgreSQL (docs/scaling.md); anything else is a SQLite file. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//i.test(databaseUrl);
}

/** A PostgreSQL URL the pg driver can use: a host and a database name. */
function checkPostgresUrl(databaseUrl: string): void {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new ConfigError('DATABASE_URL is not a valid PostgreSQL URL: write it as postgresql://user:password@host:5432/database (a password with @, : or / must be percent-encoded).');
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new ConfigError('DATABASE_URL names no PostgreSQL host: write it as postgresql://user:password@host:5432/database.');
  if (url.pathname.replace(/^\//, '') === '') throw new ConfigError('DATABASE_URL names no PostgreSQL database: add it after the host, as in postgresql://user:password@host:5432/tactalk.');
}

/** The most shards one setting may name: far beyond any bot's need (Discord's cap is 2,500 servers a shard). */
const MAX_SHARDS = 10_000;

function shardCountOf(env: NodeJS.ProcessEnv): number | 'auto' | null {
  const text = optional(env, 'SHARD_COUNT');
  if (text === null) return null;
  if (text.toLowerCase() === 'auto') return 'auto';
  const count = Number(text);
  if (!/^\d+$/.test(text) || count < 1 || count > MAX_SHARDS) {
    throw new ConfigError(`SHARD_COUNT must be a whole number of shards from 1 to ${MAX_SHARDS}, or auto for the count Discord recommends, not "${text}".`);
  }
  return count;
}

/** "0,2,5", "0-3" or both ("0-3,8"): ascending, each id once. */
function shardIdsOf(env: NodeJS.ProcessEnv, count: number | 'auto' | null): number[] | null {
  const text = optional(env, 'SHARD_IDS');
  if (text === null) return null;
  if (count === null) {
    throw new ConfigError(`SHARD_IDS is set ("${text}") but SHARD_COUNT is not: set SHARD_COUNT to the number of shards on all machines together, e.g. SHARD_COUNT=4 SHARD_IDS=0-1 on one machine and SHARD_COUNT=4 SHARD_IDS=2-3 on the other.`);
  }
  const ids: number[] = [];
  for (const part of text.split(',').map((piece) => piece.trim())) {
    const range = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!range) throw new ConfigError(`SHARD_IDS must list shard ids and ranges such as 0,2,5 or 0-3, not "${text}" ("${part}" is neither).`);
    const first = Number(range[1]);
    const last = Number(range[2] ?? range[1]);
    if (last < first) throw new ConfigError(`SHARD_IDS has the range "${part}" backwards: write it as ${last}-${first}.`);
    if (last >= MAX_SHARDS) throw new ConfigError(`SHARD_IDS names shard ${last}; shard ids are below SHARD_COUNT (at most ${MAX_SHARDS}).`);
    for (let id = first; id <= last; id++) {
      if (ids.includes(id)) throw new ConfigError(`SHARD_IDS names shard ${id} twice ("${text}"): list each shard once.`);
      ids.push(id);
    }
  }
  if (typeof count === 'number') {
    const outside = ids.filter((id) => id >= count);
    if (outside.length > 0) {
      throw new ConfigError(`SHARD_IDS names shard${outside.length > 1 ? 's' : ''} ${outside.join(', ')}, but with SHARD_COUNT=${count} the shards are 0 to ${count - 1}.`);
    }
  }
  return ids.sort((a, b) => a - b);
}

function shardsPerProcessOf(env: NodeJS.ProcessEnv, count: number | 'auto' | null): number | 'auto' {
  const text = optional(env, 'SHARDS_PER_PROCESS');
  if (text === null || text.toLowerCase() === 'auto') return 'auto';
  if (count === null) {
    throw new ConfigError(`SHARDS_PER_PROCESS is set ("${text}") but SHARD_COUNT is not: it groups shards into processes, so set SHARD_COUNT too (e.g. SHARD_COUNT=16 SHARDS_PER_PROCESS=4), or unset it.`);
  }
  const perProcess = Number(text);
  if (!/^\d+$/.test(text) || perProcess < 1 || perProcess > MAX_SHARDS) {
    throw new ConfigError(`SHARDS_PER_PROCESS must be a whole number of shards from 1 to ${MAX_SHARDS}, or auto (this machine's shards spread over one process per core), not "${text}".`);
  }
  return perProcess;
}

/**
 * The shards of a cluster process the shard manager spawned (discord-hybrid-sharding's ClusterManager,
 * src/discord/shards.ts): it sets CLUSTER_MANAGER=true, SHARD_LIST ("0,1,2"), TOTAL_SHARDS and CLUSTER.
 */
function managedShardsOf(env: NodeJS.ProcessEnv): { ids: number[]; count: number; cluster: number } | null {
  if (env.CLUSTER_MANAGER !== 'true' || env.SHARD_LIST === undefined) return null;
  const refuse = (): never => {
    throw new ConfigError(
      `SHARD_LIST="${env.SHARD_LIST}", TOTAL_SHARDS="${env.TOTAL_SHARDS}" and CLUSTER="${env.CLUSTER}" from the shard manager do not name shards of that count ` +
        '(CLUSTER_MANAGER=true is for the processes the bot\'s shard manager starts; unset it).',
    );
  };
  const whole = (text: string | undefined): number => (text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : NaN);
  const ids = env.SHARD_LIST.split(',').map(whole);
  const count = whole(env.TOTAL_SHARDS);
  const cluster = whole(env.CLUSTER);
  if (!Number.isInteger(count) || !Number.isInteger(cluster) || ids.length === 0 || !ids.every((id) => Number.isInteger(id) && id < count) || new Set(ids).size !== ids.length) refuse();
  return { ids, count, cluster };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Only the real environment takes .env, so that a test's own env is all the test sees.
  if (env === process.env) loadDotenv({ quiet: true });
  refuseMisspeltNames(env);
  const discordToken = optional(env, 'DISCORD_TOKEN');
  const applicationId = optional(env, 'DISCORD_APPLICATION_ID');
  const deployGuildId = optional(env, 'DISCORD_GUILD_ID');
  const discordApi = optional(env, 'DISCORD_API');
  if (!discordToken) {
    // Any of these says the bot is meant for a Discord; without a token it would quietly run the sandbox instead.
    const meantForDiscord = (['DISCORD_APPLICATION_ID', 'DISCORD_GUILD_ID', 'DISCORD_API'] as const).filter((name) => optional(env, name));
    if (meantForDiscord.length > 0) {
      const state = env.DISCORD_TOKEN === undefined ? 'missing' : 'empty';
      throw new ConfigError(
        `DISCORD_TOKEN is ${state}, but ${meantForDiscord.join(' and ')} ${meantForDiscord.length > 1 ? 'are' : 'is'} set, so the bot is meant to log in to Discord. ` +
          `Set DISCORD_TOKEN (Developer Portal → your application → Bot → Reset Token), or unset ${meantForDiscord.join(' and ')} to run the sandbox.`,
      );
    }
  }
  if (discordToken && !applicationId) {
    throw new ConfigError('DISCORD_APPLICATION_ID is missing: with DISCORD_TOKEN set, the bot needs its application id (Developer Portal → General Information).');
  }
  for (const [name, value] of [['DISCORD_APPLICATION_ID', applicationId], ['DISCORD_GUILD_ID', deployGuildId]] as const) {
    if (value && !SNOWFLAKE.test(value)) throw new ConfigError(`${name} must be a Discord id (15–21 digits), not "${value}".`);
  }
  if (discordApi && !isHttpUrl(discordApi)) {
    throw new ConfigError(`DISCORD_API must be an http(s) URL such as http://127.0.0.1:8787/api, not "${discordApi}". Leave it unset for the real Discord.`);
  }
  const databaseUrl = optional(env, 'DATABASE_URL') ?? 'file:./data/bot.db';
  if (isPostgresUrl(databaseUrl)) checkPostgresUrl(databaseUrl);
  else sqliteFileOf(databaseUrl);
  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}".`);
  const portText = optional(env, 'SANDBOX_PORT') ?? '8787';
  const sandboxPort = Number(portText);
  if (!/^\d+$/.test(portText) || sandboxPort > 65535) {
    throw new ConfigError(`SANDBOX_PORT must be a port number from 0 to 65535 (0 picks a free one), not "${portText}".`);
  }
  const shardCount = shardCountOf(env);
  const shardIds = shardIdsOf(env, shardCount);
  if (shardCount !== null && shardCount !== 1 && !isPostgresUrl(databaseUrl)) {
    throw new ConfigError(
      `SHARD_COUNT=${env.SHARD_COUNT?.trim()} runs the shards in several processes (SHARDS_PER_PROCESS shards each), and several processes cannot share one SQLite file (${redactPasswords(databaseUrl)}). ` +
        'Use PostgreSQL (DATABASE_URL=postgresql://user:password@host:5432/tactalk; docs/scaling.md says how to copy an SQLite database there), or unset SHARD_COUNT to run one process.',
    );
  }
  if (!discordToken && shardCount === 'auto') {
    throw new ConfigError('SHARD_COUNT=auto asks Discord how many shards the bot needs, but without DISCORD_TOKEN the bot runs the sandbox: set SHARD_COUNT to a number (e.g. 2) to run the sandbox sharded.');
  }
  if (!discordToken && shardIds !== null) {
    throw new ConfigError('SHARD_IDS picks the shards of one machine among several, but without DISCORD_TOKEN the bot runs the sandbox, which runs every shard: unset SHARD_IDS.');
  }
  const managedShards = managedShardsOf(env);
  const shardsPerProcess = shardsPerProcessOf(env, shardCount);
  return { discordToken, applicationId, discordApi, deployGuildId, databaseUrl, logLevel, sandboxPort, shardCount, shardIds, managedShards, shardsPerProcess };
}

export function loadProxyConfig(env: NodeJS.ProcessEnv = process.env): ProxyConfig {
  if (env === process.env) loadDotenv({ quiet: true });
  const discordApi = optional(env, 'DISCORD_API');
  if (discordApi && !isHttpUrl(discordApi)) {
    throw new ConfigError(`DISCORD_API must be an http(s) URL such as http://127.0.0.1:8787/api, not "${discordApi}". Leave it unset for the real Discord.`);
  }
  const host = optional(env, 'REST_PROXY_HOST') ?? '127.0.0.1';
  const portText = optional(env, 'REST_PROXY_PORT') ?? '8790';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new ConfigError(`REST_PROXY_PORT must be a port number from 0 to 65535 (0 picks a free one), not "${portText}".`);
  }
  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}".`);
  return { host, port, discordApi, logLevel };
}
