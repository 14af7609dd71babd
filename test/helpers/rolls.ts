import type { RollRecordInput } from '../../src/store/rolls.js';

/**
 * A challenge roll as the roll log records it, for store tests: Climbing 40 against CL 90, tens 4 and ones 8, a
 * success. A test states only what it varies (who, where, the total, secret or blind).
 */
export function challengeRoll(facts: Partial<RollRecordInput> = {}): RollRecordInput {
  return {
    guildId: 'g',
    channelId: 'c',
    userId: 'mike',
    kind: 'challenge',
    inputs: { skill: { name: 'Climbing', level: 40 }, challengeLevel: 90 },
    seed: 'abc',
    dice: { tens: 4, ones: 8 },
    result: { total: 98 },
    total: 98,
    challengeLevel: 90,
    success: true,
    ...facts,
  };
}
