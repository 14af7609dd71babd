/**
 * Rolls that must be made at most once, such as a step of a cumulative roll: stored under an id derived from what
 * they continue (`derivedRollId`), so a second press, in this process or another, finds the id taken.
 */
import type { Database } from './database.js';
import type { RollRecordInput } from './rolls.js';

/**
 * Stores the roll under exactly `id`; false (and nothing stored) when a roll with that id exists already.
 * Unlike `RollLog.record`, a clash is never retried under another id: the clash is the answer.
 */
export async function recordRollOnce(db: Database, id: string, roll: Omit<RollRecordInput, 'secret' | 'npc'>): Promise<boolean> {
  try {
    await db.roll.create({
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
        createdAt: new Date(),
      },
    });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return false;
    throw error;
  }
}
