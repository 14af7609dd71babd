/** Per-server settings. A server that never changed anything gets the defaults. */
import { z } from 'zod';
import { SYSTEM_IDS, type SystemId } from '../engine/systems/index.js';
import { processLocalBus, type CacheBus } from './cache-bus.js';
import { isIdClash } from './database.js';
import type { Database } from './database-client.js';
import { ReadCache } from './read-cache.js';
import { readStored } from './stored-json.js';

/** The `playedSystems` column: system ids; one the bot no longer knows is left out when read. */
const playedSystemsSchema = z.array(z.string());

export interface ServerSettings {
  guildId: string;
  dispatcherRoleId: string | null;
  contestTimeoutMinutes: number;
  contestAddsOwnSkill: boolean;
  /** House rule `flanking_needs_own_crit`: a d100 tactics attacker flanking checks Crit only with Crit above 0. */
  flankingNeedsOwnCrit: boolean;
  defaultSystem: string;
  /** Whether players may make their own `/roll challenge` with a CL they choose. */
  playerChallengeRolls: boolean;
  /** When the bot first posted its welcome here; null until then. */
  welcomedAt: Date | null;
  /** JSON array of the system ids this server plays; null means all of them. */
  playedSystems: string | null;
  /** A digest of the command set last registered in this server. */
  commandsDigest: string | null;
}

/**
 * What makes a Dispatcher on a server, as its settings say (src/discord/permissions.ts applies it). `roleName` is
 * null when the configured role no longer exists.
 */
export type DispatcherRule = { kind: 'role'; roleId: string; roleName: string | null } | { kind: 'default' };

/** Read on every Dispatcher check and contest step, changed by hand now and then: worth keeping in memory. */
const CACHED_SERVERS = 10_000;

/** A server that never changed anything. */
const defaultSettings = (guildId: string): ServerSettings => ({
  guildId,
  dispatcherRoleId: null,
  contestTimeoutMinutes: 15,
  contestAddsOwnSkill: false,
  flankingNeedsOwnCrit: false,
  defaultSystem: 'tactalk',
  playerChallengeRolls: true,
  welcomedAt: null,
  playedSystems: null,
  commandsDigest: null,
});

/** The settings' columns, all but the key: what `update` may change. */
const SETTING_COLUMNS = Object.keys(defaultSettings('')).filter((column) => column !== 'guildId') as Array<keyof Omit<ServerSettings, 'guildId'>>;

/** The settings' columns as Prisma selects them. */
const SETTINGS_FIELDS = Object.fromEntries(['guildId', ...SETTING_COLUMNS].map((column) => [column, true])) as Record<keyof ServerSettings, true>;

export class ServerStore {
  /** Under the server's id, which is also the one tag a write drops it by. */
  private readonly cache: ReadCache<string, ServerSettings>;

  constructor(
    private readonly db: Database,
    private readonly bus: CacheBus = processLocalBus(),
  ) {
    this.cache = new ReadCache({ maxEntries: CACHED_SERVERS, ttlMs: bus.timing.entryTtlMs, now: bus.timing.now });
    bus.join('servers', { forget: (guildId) => this.forget(guildId as string), setCaching: (on) => this.cache.setCaching(on) });
  }

  private forget(guildId: string): void {
    this.cache.invalidate(guildId);
  }

  /** After a write (committed or not): forgets the server's settings here, then tells the other processes. */
  private async changed(guildId: string): Promise<void> {
    this.forget(guildId);
    await this.bus.announce('servers', guildId);
  }

  async settings(guildId: string): Promise<ServerSettings> {
    return { ...(await this.cache.read(guildId, () => this.stored(guildId))) };
  }

  private async stored(guildId: string): Promise<ServerSettings> {
    return (await this.db.server.findUnique({ where: { guildId }, select: SETTINGS_FIELDS })) ?? defaultSettings(guildId);
  }

  /**
   * Marks the server welcomed at `at` unless it already was: true for exactly one caller per server, however many
   * first interactions race (the row is created by the first, the others see it set).
   */
  async claimWelcome(guildId: string, at: Date): Promise<boolean> {
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const { count } = await this.db.server.updateMany({ where: { guildId, welcomedAt: null }, data: { welcomedAt: at } });
        if (count === 1) return true;
        if (await this.db.server.findUnique({ where: { guildId }, select: { guildId: true } })) return false;
        try {
          await this.db.server.create({ data: { guildId, welcomedAt: at } });
          return true;
        } catch (error) {
          // Another interaction made the row meanwhile (welcomed, or a /config change): look again.
          if (!isIdClash(error)) throw error;
        }
      }
      return false;
    } finally {
      await this.changed(guildId);
    }
  }

  /** Changes some settings (a server with no row yet gets one, the rest defaults). */
  async update(guildId: string, changes: Partial<Omit<ServerSettings, 'guildId'>>): Promise<ServerSettings> {
    const data = Object.fromEntries(SETTING_COLUMNS.filter((column) => changes[column] !== undefined).map((column) => [column, changes[column]]));
    try {
      return await this.db.server.upsert({ where: { guildId }, create: { guildId, ...data }, update: data, select: SETTINGS_FIELDS });
    } finally {
      await this.changed(guildId);
    }
  }
}

/** The systems a server plays; every one when it never chose (null), or when none it chose is known any more. */
export function playedSystems(settings: Pick<ServerSettings, 'guildId' | 'playedSystems'>): SystemId[] {
  if (settings.playedSystems === null) return [...SYSTEM_IDS];
  const chosen = readStored(playedSystemsSchema, settings.playedSystems, { table: 'Server', id: settings.guildId, column: 'playedSystems' });
  const ids = SYSTEM_IDS.filter((id) => chosen.includes(id));
  return ids.length > 0 ? ids : [...SYSTEM_IDS];
}

/** The column's value for a choice: null when it is every system, so a system the bot learns later is played too. */
export function playedSystemsColumn(ids: readonly SystemId[]): string | null {
  const known = SYSTEM_IDS.filter((id) => ids.includes(id));
  return known.length === SYSTEM_IDS.length ? null : JSON.stringify(known);
}
