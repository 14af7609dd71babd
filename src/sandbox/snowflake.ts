// Snowflake ids for the fake Discord.
//
// Two kinds are needed:
// - stable ids for named things (users, roles, the guild, the channel, commands): derived from the name, so a
//   sandbox restarted on the same database file gives 'mike' the same id as before;
// - increasing ids for things that happen (interactions, messages, attachments): time-based like Discord's, so
//   they sort by creation and never collide with ids stored by an earlier run.
import { createHash } from 'node:crypto';

/** Discord's epoch (2015-01-01T00:00:00.000Z) in ms; snowflake = (ms since epoch) << 22 | worker/process/increment. */
export const DISCORD_EPOCH = 1_420_070_400_000n;

/**
 * A stable 18–19 digit snowflake for a name (case-insensitive). The timestamp part falls between 2018 and
 * 2023, so discord.js's `createdAt` of such a user is plausible, and it cannot clash with the time-based ids
 * the generator below hands out now.
 */
export function stableSnowflake(name: string): string {
  const digest = createHash('sha256').update(name.trim().toLowerCase()).digest();
  const high = digest.readBigUInt64BE(0);
  const low = BigInt(digest.readUInt32BE(8) & 0x3fffff); // 22 bits
  const ms = 100_000_000_000n + (high % 150_000_000_000n);
  return ((ms << 22n) | low).toString();
}

/** Hands out strictly increasing, time-based snowflakes. */
export class SnowflakeGenerator {
  private last = 0n;

  next(): string {
    const now = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
    this.last = now > this.last ? now : this.last + 1n;
    return this.last.toString();
  }
}

/** True for strings that look like a Discord snowflake. */
export function isSnowflake(value: string): boolean {
  return /^\d{15,20}$/.test(value);
}

/** The creation time of a snowflake (ms since the Unix epoch). */
export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}
