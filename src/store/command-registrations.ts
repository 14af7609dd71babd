/**
 * What the bot registered as its global command list, per Discord and application (src/discord/slash-list.ts): the
 * digest of the list, so a start whose list is the same registers nothing and reads one row, whatever the number of
 * servers. Also the servers an older version gave a list of their own (their `commandsDigest`), which the bot
 * clears once: Discord would show those commands beside the global ones.
 */
import type { Dialect } from './database.js';
import type { Database } from './database-client.js';
import { shardCondition, type SweptShards } from './shards.js';

export class CommandRegistrationStore {
  constructor(
    private readonly db: Database,
    private readonly dialect: Dialect,
  ) {}

  /** The digest of the list last registered at `scope`; null when none was (or it was cut short). */
  async digest(scope: string): Promise<string | null> {
    const row = await this.db.commandRegistration.findUnique({ where: { scope }, select: { digest: true } });
    return row?.digest ?? null;
  }

  /** Written only once Discord has taken the list: a registration cut short leaves the old digest, and is done again. */
  async recordRegistered(scope: string, digest: string, at: Date): Promise<void> {
    await this.db.commandRegistration.upsert({ where: { scope }, create: { scope, digest, registeredAt: at }, update: { digest, registeredAt: at } });
  }

  /**
   * The servers of `shards` (null: every server) that still have a list of their own from an older version, in one
   * query. They are few after the first start of this version, and none after the next.
   */
  async serversWithOwnLists(shards: SweptShards | null): Promise<string[]> {
    const owned = shards ? ` AND ${shardCondition(this.dialect, shards)}` : '';
    const rows = await this.db.$queryRawUnsafe<Array<{ guildId: string }>>(`SELECT "guildId" FROM "Server" WHERE "commandsDigest" IS NOT NULL${owned} ORDER BY "guildId"`);
    return rows.map((row) => row.guildId);
  }
}
