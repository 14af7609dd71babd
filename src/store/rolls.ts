/** The roll log (RULES 6.3): every roll with who, where, what, the seed, the dice and the result, under a short id. */
import { randomBytes } from 'node:crypto';
import { UserError } from '../errors.js';
import type { Database } from './database.js';

export interface RollRecordInput {
  guildId: string;
  channelId: string;
  userId: string;
  kind: string;
  system?: string;
  inputs: unknown;
  seed: string;
  dice: unknown;
  result: unknown;
  total: number | null;
  challengeLevel: number | null;
  success: boolean | null;
}

export interface StoredRoll extends Omit<RollRecordInput, 'system'> {
  id: string;
  system: string;
  createdAt: Date;
}

/** Short ids people can read aloud: 8 characters, no look-alikes (0/o, 1/l/i). */
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
export const ROLL_ID_PATTERN = /^[23456789abcdefghjkmnpqrstuvwxyz]{8}$/;

export function newRollId(): string {
  const bytes = randomBytes(8);
  return Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

export class RollLog {
  /** Rolls made within one millisecond still list in the order they were made. */
  private lastCreatedAt = 0;

  constructor(private readonly db: Database) {}

  private nextCreatedAt(): Date {
    this.lastCreatedAt = Math.max(Date.now(), this.lastCreatedAt + 1);
    return new Date(this.lastCreatedAt);
  }

  /** Stores a roll; `presetId` when the id had to be shown (saved elsewhere) before the roll was stored. */
  async record(roll: RollRecordInput, presetId?: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const id = attempt === 0 && presetId ? presetId : newRollId();
      try {
        await this.db.roll.create({
          data: {
            id,
            guildId: roll.guildId,
            channelId: roll.channelId,
            userId: roll.userId,
            kind: roll.kind,
            system: roll.system ?? 'tactalk',
            inputs: JSON.stringify(roll.inputs),
            seed: roll.seed,
            dice: JSON.stringify(roll.dice),
            result: JSON.stringify(roll.result),
            total: roll.total,
            challengeLevel: roll.challengeLevel,
            success: roll.success,
            createdAt: this.nextCreatedAt(),
          },
        });
        return id;
      } catch (error) {
        // A clash of random ids is astronomically rare; anything else is a real failure.
        if (attempt >= 3 || (error as { code?: string }).code !== 'P2002') throw error;
      }
    }
  }

  async find(id: string): Promise<StoredRoll | null> {
    const row = await this.db.roll.findUnique({ where: { id } });
    return row ? fromRow(row) : null;
  }

  /** A roll by the id a user typed; a clear error when there is none. */
  async require(typedId: string): Promise<StoredRoll> {
    const id = typedId.trim().toLowerCase();
    const roll = ROLL_ID_PATTERN.test(id) ? await this.find(id) : null;
    if (!roll) throw new UserError(`There is no roll with the id \`${typedId.trim().slice(0, 20)}\`. Roll ids are the 8 characters in an embed's footer.`);
    return roll;
  }

  async latest(limit: number): Promise<StoredRoll[]> {
    const rows = await this.db.roll.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
    return rows.map(fromRow);
  }
}

function fromRow(row: {
  id: string;
  guildId: string;
  channelId: string;
  userId: string;
  kind: string;
  system: string;
  inputs: string;
  seed: string;
  dice: string;
  result: string;
  total: number | null;
  challengeLevel: number | null;
  success: boolean | null;
  createdAt: Date;
}): StoredRoll {
  return {
    ...row,
    inputs: JSON.parse(row.inputs) as unknown,
    dice: JSON.parse(row.dice) as unknown,
    result: JSON.parse(row.result) as unknown,
  };
}
