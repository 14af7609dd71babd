import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { ROLL_ID_PATTERN } from '../../src/store/rolls.js';
import { freshStore } from '../helpers/database.js';

let store: Store;
beforeEach(async () => {
  store = await freshStore();
});
afterEach(async () => {
  await store.close();
});

function roll(total: number) {
  return {
    guildId: 'g',
    channelId: 'c',
    userId: 'mike',
    kind: 'challenge',
    inputs: { skill: { name: 'Climbing', level: 40 } },
    seed: 'abc',
    dice: { tens: 4, ones: 8 },
    result: { total },
    total,
    challengeLevel: 90,
    success: total >= 90,
  };
}

describe('the roll log', () => {
  it('stores every roll under a short readable id and gives it back whole', async () => {
    const id = await store.rolls.record(roll(98));
    expect(id).toMatch(ROLL_ID_PATTERN);
    expect(await store.rolls.find(id)).toMatchObject({ id, userId: 'mike', seed: 'abc', dice: { tens: 4, ones: 8 }, total: 98, success: true });
    await expect(store.rolls.require(` ${id.toUpperCase()} `)).resolves.toMatchObject({ id });
    await expect(store.rolls.require('nope')).rejects.toThrow(/no roll with the id `nope`/);
  });

  it('lists the latest rolls newest first, even within one millisecond', async () => {
    const ids = [];
    for (let index = 0; index < 5; index++) ids.push(await store.rolls.record(roll(index)));
    expect((await store.rolls.latest(3)).map((stored) => stored.id)).toEqual(ids.reverse().slice(0, 3));
  });
});
