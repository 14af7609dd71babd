import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { ROLL_ID_PATTERN } from '../../src/store/rolls.js';
import { onPostgres, freshStoreEachTest } from '../helpers/database.js';
import { challengeRoll } from '../helpers/rolls.js';
import { told } from '../helpers/told.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

function roll(total: number) {
  return challengeRoll({ result: { total }, total, success: total >= 90 });
}

describe('the roll log', () => {
  it('stores every roll under a short readable id and gives it back whole', async () => {
    const id = await store.rolls.record(roll(98));
    expect(id).toMatch(ROLL_ID_PATTERN);
    expect(await store.rolls.find('g', id)).toMatchObject({ id, userId: 'mike', seed: 'abc', dice: { tens: 4, ones: 8 }, total: 98, success: true });
    await expect(store.rolls.require('g', ` ${id.toUpperCase()} `)).resolves.toMatchObject({ id });
    expect(await told(store.rolls.require('g', 'nope'))).toMatch(/no roll with the id `nope`/);
  });

  it('lists the latest rolls newest first, even within one millisecond', async () => {
    const ids = [];
    for (let index = 0; index < 5; index++) ids.push(await store.rolls.record(roll(index)));
    expect((await store.rolls.latestOfAllServers(3)).map((stored) => stored.id)).toEqual(ids.reverse().slice(0, 3));
  });

  it('stores a roll exactly as Prisma would, so dates, booleans and empty totals read back alike', async () => {
    const before = Date.now();
    const id = await store.rolls.record({ ...roll(98), total: null, success: null });
    const after = Date.now();
    const created = await store.db.roll.create({
      data: { id: 'bycreate', guildId: 'g', channelId: 'c', userId: 'mike', kind: 'challenge', inputs: '{}', seed: 'abc', dice: '{}', result: '{}', success: false, createdAt: new Date() },
    });
    if (onPostgres) {
      // The same column types as Prisma's own insert gives (a boolean left NULL, not a 0/1 or a text), read back alike below.
      const columns = (rowId: string) =>
        store.db.$queryRaw<{ dateType: string; successType: string; successIsNull: boolean }[]>`
          SELECT pg_typeof("createdAt")::text AS "dateType", pg_typeof("success")::text AS "successType", "success" IS NULL AS "successIsNull" FROM "Roll" WHERE "id" = ${rowId}`;
      const [ours] = await columns(id);
      const [prismas] = await columns(created.id);
      expect(ours).toEqual({ ...prismas, successIsNull: true });
      expect(ours!.dateType).toBe('timestamp without time zone');
      expect(ours!.successType).toBe('boolean');
    } else {
      const columns = (rowId: string) =>
        store.db.$queryRaw<{ createdAt: string; dateType: string; successType: string }[]>`
          SELECT ("createdAt" || '') AS "createdAt", typeof("createdAt") AS "dateType", typeof("success") AS "successType" FROM "Roll" WHERE "id" = ${rowId}`;
      const [ours] = await columns(id);
      const [prismas] = await columns(created.id);
      expect(ours!.dateType).toBe(prismas!.dateType);
      const shape = (text: string) => text.replace(/\d/g, '9');
      expect(shape(ours!.createdAt)).toBe(shape(prismas!.createdAt));
      expect(ours!.successType).toBe('null');
    }
    const stored = await store.db.roll.findUnique({ where: { id } });
    expect(stored).toMatchObject({ total: null, success: null, challengeLevel: 90 });
    expect(stored!.createdAt).toBeInstanceOf(Date);
    // Read back as the instant it was written, to the millisecond (the store's first roll takes the clock's time).
    expect(stored!.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(stored!.createdAt.getTime()).toBeLessThanOrEqual(after);
    expect(await store.rolls.recordOnce('takenid2', roll(12))).toBe(true);
    expect((await store.db.roll.findUnique({ where: { id: 'takenid2' } }))!.success).toBe(false);
    expect(await store.rolls.recordOnce('takenid2', roll(12))).toBe(false);
  });
});
