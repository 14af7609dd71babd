/**
 * The bot's command list: every slash command whole and every context menu, registered once, globally, for every
 * server (one request however many servers; Discord shows global commands everywhere at once). Which rule systems
 * a server plays (`/config systems`) is applied when a command arrives, not in the list (played-here.ts). The list is
 * registered only when its digest differs from the one stored for this Discord and application, so a restart reads
 * one row and sends nothing.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Routes, type REST, type RESTPostAPIChatInputApplicationCommandsJSONBody, type RESTPostAPIContextMenuApplicationCommandsJSONBody } from 'discord.js';
import type { Logger } from '../log.js';
import type { ServerStore } from '../store/servers.js';
import type { CommandRegistrationStore } from '../store/command-registrations.js';
import type { SweptShards } from '../store/shards.js';
import type { BotCommand, BotContextMenu } from './command.js';

type Definition = RESTPostAPIChatInputApplicationCommandsJSONBody;
/** What one bulk registration carries: the slash commands, then the context-menu commands (types 2 and 3). */
type ListEntry = Definition | RESTPostAPIContextMenuApplicationCommandsJSONBody;

/** The one list registered for every server: the slash commands whole, then the context menus (types 2 and 3). */
export function globalCommandList(commands: readonly BotCommand[], menus: readonly BotContextMenu[]): ListEntry[] {
  return [...commands.map((command): Definition => command.data.toJSON()), ...menus.map((menu) => menu.data.toJSON())];
}

/** What a registration is known by: where (which Discord, which application) and what. */
function digestOf(scope: string, body: readonly ListEntry[]): string {
  return createHash('sha256').update(JSON.stringify({ scope, body })).digest('hex');
}

/** What a start (or `npm run deploy`) did with the global list. */
export type RegistrationOutcome = { kind: 'registered'; commands: number } | { kind: 'unchanged'; commands: number };

export interface CommandListOptions {
  rest: REST;
  /** Known once the client is ready. */
  applicationId(): string;
  commands: readonly BotCommand[];
  menus: readonly BotContextMenu[];
  registrations: CommandRegistrationStore;
  log: Logger;
  /**
   * The Discord the list is registered at, part of the stored scope: another API, or a fresh fake Discord (which
   * knows no commands), registers anew even where the database remembers a list.
   */
  scope: string;
  now?: () => Date;
}

export class CommandList {
  constructor(private readonly options: CommandListOptions) {}

  /** The row the digest is kept in: `<scope> <application id>`. */
  private scopeKey(): string {
    return `${this.options.scope} ${this.options.applicationId()}`;
  }

  /**
   * Registers the global list unless its digest is the stored one (`force`: even then, `npm run deploy`). `signal`
   * cuts a registration short (the bot stopping): the request leaves discord.js's queue, no digest is written, and
   * the next start registers again.
   */
  async register(options: { force?: boolean; signal?: AbortSignal } = {}): Promise<RegistrationOutcome> {
    const { rest, registrations, log } = this.options;
    const body = globalCommandList(this.options.commands, this.options.menus);
    const scope = this.scopeKey();
    const digest = digestOf(scope, body);
    if (!options.force && (await registrations.digest(scope)) === digest) return { kind: 'unchanged', commands: body.length };
    await rest.put(Routes.applicationCommands(this.options.applicationId()), { body, ...(options.signal ? { signal: options.signal } : {}) });
    options.signal?.throwIfAborted();
    await registrations.recordRegistered(scope, digest, (this.options.now ?? (() => new Date()))());
    log.info({ commands: body.length }, 'global command list registered');
    return { kind: 'registered', commands: body.length };
  }
}

/** Waits between attempts of a registration that failed for a cause that passes (the database, Discord's 5xx, the network). */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 300_000;

/**
 * `register`, tried again with a doubling wait (5 s up to 5 min) until it is done or `signal` stops it: a bot that
 * started while its database or Discord had a moment of trouble would otherwise serve an old list until its next
 * start, which in a sharded bot may be weeks away. A list Discord refuses (a 4xx other than 429) is not tried again:
 * the same list would be refused again, and each try would count against the day's command creates.
 */
export async function registerUntilDone(list: CommandList, log: Logger, signal: AbortSignal): Promise<RegistrationOutcome | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await list.register({ signal });
    } catch (error) {
      if (signal.aborted) return null;
      const status = (error as { status?: unknown } | null)?.status;
      if (typeof status === 'number' && status >= 400 && status < 500 && status !== 429) {
        log.error({ err: error }, 'Discord refused the global command list; the next start tries again');
        return null;
      }
      const waitMs = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (attempt - 1));
      log.warn({ err: error, attempt, retryInMs: waitMs }, `the global command list was not registered; trying again in ${Math.round(waitMs / 1000)} s`);
      await sleep(waitMs, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return null;
    }
  }
}

/** Discord's answer when the bot is no longer in the server: its commands there went with it. */
const GONE_CODES = new Set([10004 /* Unknown Guild */, 50001 /* Missing Access */]);

function discordCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

export interface OwnListsOptions {
  rest: REST;
  applicationId: string;
  registrations: CommandRegistrationStore;
  servers: ServerStore;
  /** This process's shards (null: every server). */
  shards: SweptShards | null;
  /** Servers cleared too, though the database does not know they have a list (`npm run deploy`'s DISCORD_GUILD_ID). */
  named?: string[];
  log: Logger;
  /** Stops between servers and cuts the request under way (the bot stopping); the rest wait for the next start. */
  signal?: AbortSignal;
  /**
   * Whether the bot is still in the server (the gateway's servers); absent: asked of Discord. A server it left took
   * the bot's commands there with it: forgotten without a request.
   */
  isIn?: (guildId: string) => boolean;
  /**
   * Milliseconds between two servers' requests (default 0). Every process of a sharded bot clears its own servers at
   * once, and Discord's limit of 50 requests a second is one for the whole bot: the bot's start leaves most of it to
   * the answers.
   */
  intervalMs?: number;
}

/**
 * Clears the lists an older version registered in each server (its `commandsDigest`), once: Discord would show
 * them beside the global list, every command twice. One query finds them; each is cleared (an empty list, which
 * creates nothing) in turn, at the pace of discord.js's queue, and forgotten once Discord took it. A failure is
 * tried again at the next start.
 */
export async function retireServerLists(options: OwnListsOptions): Promise<{ cleared: number; failed: number }> {
  const { rest, servers, log, signal } = options;
  const known = new Set(await options.registrations.serversWithOwnLists(options.shards));
  const guildIds = [...new Set([...(options.named ?? []), ...known])];
  // Only a server the database knows has a list has one to forget: a named one gets no settings row for it.
  const forget = async (guildId: string): Promise<void> => {
    if (known.has(guildId)) await servers.update(guildId, { commandsDigest: null });
  };
  let cleared = 0;
  let failed = 0;
  let sent = 0;
  for (const guildId of guildIds) {
    if (signal?.aborted) break;
    if (options.isIn && !options.isIn(guildId)) {
      await forget(guildId);
      cleared += 1;
      continue;
    }
    if (sent > 0 && options.intervalMs) await sleep(options.intervalMs, undefined, signal ? { signal } : {}).catch(() => undefined);
    if (signal?.aborted) break;
    sent += 1;
    try {
      await rest.put(Routes.applicationGuildCommands(options.applicationId, guildId), { body: [], ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) break;
      if (!GONE_CODES.has(discordCode(error) ?? 0)) {
        failed += 1;
        log.warn({ err: error, guildId }, "the server's own command list, left by an older version, was not cleared; tried again at the next start");
        continue;
      }
    }
    await forget(guildId);
    cleared += 1;
  }
  if (guildIds.length > 0) log.info({ cleared, failed, left: guildIds.length - cleared - failed }, "servers' own command lists from an older version cleared: the global list serves them");
  return { cleared, failed };
}
