// What /stats reads of the roll log: the newest rolls of a scope up to its bound (10,000), oldest first, with what players may
// not see left out for them (a blind roll not yet revealed, a secret roll, a hidden CL) and kept for Dispatchers.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

/** A roll row as the roll log writes it, with its odds and face given. */
function row(index: number, facts: { userId?: string; odds?: number | null; success?: boolean | null; d100?: number | null; inputs?: object; blind?: boolean; revealedAt?: Date | null; createdAt?: Date } = {}) {
  return {
    id: `r${String(index).padStart(7, '0')}`,
    guildId: 'g',
    channelId: 'c',
    userId: facts.userId ?? 'mike',
    kind: 'challenge',
    system: 'tactalk',
    inputs: JSON.stringify(facts.inputs ?? { hidden: false }),
    seed: 's',
    dice: '{}',
    result: '{}',
    success: facts.success === undefined ? true : facts.success,
    odds: facts.odds === undefined ? 0.5 : facts.odds,
    d100: facts.d100 === undefined ? 50 : facts.d100,
    blind: facts.blind ?? false,
    revealedAt: facts.revealedAt ?? null,
    createdAt: facts.createdAt ?? new Date(Date.UTC(2026, 0, 1) + index * 1000),
  };
}

describe('the rolls /stats weighs', () => {
  it('the newest rolls of the scope up to the bound, oldest first, saying that older ones were left out', async () => {
    // The bound is CALIBRATION_ROLLS_MAX (10,000); a smaller one here, so the test need not write 10,001 rows.
    const bound = 50;
    await store.db.roll.createMany({ data: Array.from({ length: bound + 1 }, (_, index) => row(index, { odds: index === 0 ? 0.01 : 0.5, d100: index + 1 })) });
    const read = await store.stats.rolls({ guildId: 'g' }, { dispatcher: false, limit: bound });
    expect(read.capped).toBe(true);
    expect(read.weighed).toHaveLength(bound);
    // The oldest roll (odds 0.01) is the one left out; the first kept is the second made.
    expect(read.weighed.every((roll) => roll.odds === 0.5)).toBe(true);
    expect(read.faces[0]).toBe(2);
    expect(read.faces.at(-1)).toBe(bound + 1);
    const all = await store.stats.rolls({ guildId: 'g' }, { dispatcher: false, limit: bound + 1 });
    expect([all.capped, all.weighed.length]).toEqual([false, bound + 1]);
  });

  it('leaves out for a player what only Dispatchers see; keeps a revealed blind roll; a member, faces without odds', async () => {
    await store.db.roll.createMany({
      data: [
        row(1),
        row(2, { blind: true }),
        row(3, { blind: true, revealedAt: new Date() }),
        row(4, { inputs: { hidden: false, secret: true } }),
        row(5, { inputs: { hidden: true } }),
        row(6, { odds: null, success: null, d100: 77 }),
        row(7, { userId: 'sasha' }),
        row(8, { odds: null, success: null, d100: null }),
      ],
    });
    const player = await store.stats.rolls({ guildId: 'g', userId: 'mike' }, { dispatcher: false });
    expect(player.weighed).toHaveLength(2);
    expect(player.faces).toEqual([50, 50, 77]);
    const dispatcher = await store.stats.rolls({ guildId: 'g', userId: 'mike' }, { dispatcher: true });
    expect(dispatcher.weighed).toHaveLength(5);
    expect(dispatcher.capped).toBe(false);
    expect((await store.stats.rolls({ guildId: 'other' }, { dispatcher: true })).weighed).toEqual([]);
  });

  it("an NPC's rolls by the name they keep (a name with LIKE's own characters taken literally), a span of time", async () => {
    await store.db.roll.createMany({
      data: [
        row(1, { inputs: { hidden: false, npc: 'Orc_1%' } }),
        row(2, { inputs: { hidden: false, npc: 'OrcX1%' } }),
        row(3, { createdAt: new Date(Date.UTC(2026, 5, 1)) }),
      ],
    });
    expect((await store.stats.rolls({ guildId: 'g', npc: 'Orc_1%' }, { dispatcher: true })).weighed).toHaveLength(1);
    expect((await store.stats.rolls({ guildId: 'g', notNpc: true }, { dispatcher: true })).weighed).toHaveLength(1);
    expect((await store.stats.rolls({ guildId: 'g', from: new Date(Date.UTC(2026, 4, 1)), to: null }, { dispatcher: true })).weighed).toHaveLength(1);
  });
});
