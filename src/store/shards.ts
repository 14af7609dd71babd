/**
 * A process's own servers in a sharded bot: those whose events Discord sends to its shards, `(guild_id >> 22) % count`
 * (src/bot.ts). Asked of the database, so a process reads only its own servers' rows (the contest expiry sweep, the
 * servers whose old command lists it clears).
 */
import type { Dialect } from './database.js';

export interface SweptShards {
  ids: readonly number[];
  count: number;
}

/**
 * Whether a row's `"guildId"` falls to one of `shards`, in SQL: Prisma cannot say `(guild_id >> 22) % count`, so a
 * query that needs it is a raw one. A guild id that is not a number is no shard's.
 */
export function shardCondition(dialect: Dialect, shards: SweptShards): string {
  const ids = shards.ids.map((id) => Math.trunc(id)).join(', ');
  const count = Math.trunc(shards.count);
  return dialect === 'postgresql'
    ? `("guildId" ~ '^[0-9]{1,20}$' AND mod(div("guildId"::numeric, 4194304), ${count}) IN (${ids}))`
    : `("guildId" <> '' AND "guildId" NOT GLOB '*[^0-9]*' AND length("guildId") <= 19 AND ((CAST("guildId" AS INTEGER) >> 22) % ${count}) IN (${ids}))`;
}
