// A player's list of sheets is kept in memory (a contest's Accept asks for it on every press): it must stay what the
// database holds after every kind of change, in this process and, on PostgreSQL, in another one.
import { describe, expect, it } from 'vitest';
import { parseSheetFile } from '../../src/engine/sheet-file.js';
import type { Store } from '../../src/store/index.js';
import { onPostgres, twoProcessStores, freshStoreEachTest } from '../helpers/database.js';

const mike = { guildId: 'guild-1', ownerId: 'mike' };
const sasha = { guildId: 'guild-1', ownerId: 'sasha' };

const names = async (store: Store, owner = mike) => (await store.operators.list(owner)).map((sheet) => `${sheet.name}${sheet.active ? '*' : ''}`);

describe('a player’s list of sheets', () => {
  let store: Store;
  freshStoreEachTest((opened) => (store = opened));

  it('follows every change to the player’s sheets, and to no one else’s', async () => {
    expect(await names(store)).toEqual([]);
    const troy = await store.operators.create(mike, 'Troy');
    expect(await names(store)).toEqual(['Troy*']);
    await store.operators.create(mike, 'Backup');
    expect(await names(store)).toEqual(['Backup*', 'Troy']);
    await store.operators.use(mike, 'troy');
    expect(await names(store)).toEqual(['Backup', 'Troy*']);
    await store.operators.setSkill(troy, 'Climbing', 40);
    expect((await store.operators.list(mike)).find((sheet) => sheet.id === troy.id)?.skills).toEqual([{ name: 'Climbing', level: 40 }]);
    await store.operators.remove('skill', troy, 'climbing');
    expect((await store.operators.list(mike)).find((sheet) => sheet.id === troy.id)?.skills).toEqual([]);
    await store.operators.rename(mike, 'Troy', 'Troy II');
    expect(await names(store)).toEqual(['Backup', 'Troy II*']);
    await store.operators.create(sasha, 'Kat');
    expect(await names(store)).toEqual(['Backup', 'Troy II*']);
    const imported = parseSheetFile(JSON.stringify({ name: 'Imported', skills: [{ name: 'Driving', level: 30 }] }));
    await store.operators.import(mike, imported, false);
    expect(await names(store)).toEqual(['Backup', 'Imported*', 'Troy II']);
    await store.operators.delete(mike, troy.id);
    expect(await names(store)).toEqual(['Backup', 'Imported*']);
  });

  it('gives each caller its own copy: changing one leaves the kept list as stored', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    await store.operators.setSkill(troy, 'Climbing', 40);
    const [first] = await store.operators.list(mike);
    first!.name = 'Scribbled';
    first!.skills[0]!.level = 99;
    expect(await store.operators.list(mike)).toMatchObject([{ name: 'Troy', skills: [{ name: 'Climbing', level: 40 }] }]);
  });
});

describe.runIf(onPostgres)('a player’s list of sheets across the processes of one PostgreSQL database', () => {
  it('is read changed in one process once another changed a sheet on it', async () => {
    const { a, b, close } = await twoProcessStores();
    try {
      const troy = await a.operators.create(mike, 'Troy');
      expect(await names(b)).toEqual(['Troy*']);
      await a.operators.setSkill(troy, 'Climbing', 40);
      await a.operators.create(mike, 'Backup');
      const deadline = Date.now() + 5_000;
      let seen = await b.operators.list(mike);
      while (seen.length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen = await b.operators.list(mike);
      }
      expect(seen.map((sheet) => sheet.name)).toEqual(['Backup', 'Troy']);
      expect(seen.find((sheet) => sheet.id === troy.id)?.skills).toEqual([{ name: 'Climbing', level: 40 }]);
    } finally {
      await close();
    }
  });
});
