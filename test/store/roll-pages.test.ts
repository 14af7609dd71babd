import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';
import { challengeRoll } from '../helpers/rolls.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

function roll(userId: string, guildId = 'g') {
  return challengeRoll({ guildId, userId, result: {} });
}

describe('a page of the roll log', () => {
  it('lists one server’s rolls newest first, by cursor both ways, and says whether more lie beyond', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 7; index++) ids.push(await store.rolls.record(roll(index % 2 === 0 ? 'mike' : 'sasha')));
    await store.rolls.record(roll('mike', 'another server'));
    const newest = [...ids].reverse();

    const first = await store.rolls.page('g', { limit: 3 });
    expect(first.rolls.map((r) => r.id)).toEqual(newest.slice(0, 3));
    expect(first).toMatchObject({ newer: false, older: true });
    const cursorOf = (r: { createdAt: Date; id: string }) => ({ createdAt: r.createdAt, id: r.id });
    const second = await store.rolls.page('g', { limit: 3, before: cursorOf(first.rolls.at(-1)!) });
    expect(second.rolls.map((r) => r.id)).toEqual(newest.slice(3, 6));
    expect(second).toMatchObject({ newer: true, older: true });
    const third = await store.rolls.page('g', { limit: 3, before: cursorOf(second.rolls.at(-1)!) });
    expect(third.rolls.map((r) => r.id)).toEqual(newest.slice(6));
    expect(third).toMatchObject({ newer: true, older: false });
    const back = await store.rolls.page('g', { limit: 3, after: cursorOf(third.rolls[0]!) });
    expect(back.rolls.map((r) => r.id)).toEqual(newest.slice(3, 6));
    expect(back).toMatchObject({ newer: true, older: true });

    const mikes = await store.rolls.page('g', { userId: 'mike', limit: 10 });
    expect(mikes.rolls.map((r) => r.id)).toEqual(ids.filter((_, index) => index % 2 === 0).reverse());
    expect(mikes).toMatchObject({ newer: false, older: false });
    expect((await store.rolls.page('nowhere', { limit: 10 })).rolls).toEqual([]);
  });

  it('keeps the secret and NPC marks inside the inputs JSON and reads them back', async () => {
    const secret = await store.rolls.record({ ...roll('dee'), secret: true, npc: 'Thug' });
    const plain = await store.rolls.record(roll('mike'));
    expect(await store.rolls.find('g', secret)).toMatchObject({ secret: true, npc: 'Thug', inputs: { skill: { name: 'Climbing' }, secret: true, npc: 'Thug' } });
    expect(await store.rolls.find('g', plain)).toMatchObject({ secret: false, npc: null });
    expect((await store.rolls.find('g', plain))!.inputs).not.toHaveProperty('secret');
    await expect(store.rolls.record({ ...roll('dee'), inputs: [1, 2], secret: true })).rejects.toThrow(/inputs as an object/);
  });
});
