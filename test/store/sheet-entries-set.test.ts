// `setEntries`: a list of skills, archetypes and attributes set in one transaction (`/sheet set`), all or nothing.
import { describe, expect, it } from 'vitest';
import { isRefused } from '../../src/engine/refusals.js';
import { EntryRefused } from '../../src/store/operators.js';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';

const mike = { guildId: 'guild-1', ownerId: 'mike' };
const CYRILLIC_ES = '\u0421';

describe('setting a list of entries at once', () => {
  let store: Store;
  freshStoreEachTest((opened) => (store = opened));

  it('adds new entries, changes those already there, and answers each one’s number before', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    await store.operators.setSkill(troy, 'Climbing', 40);
    const before = await store.operators.setEntries(troy, [
      { kind: 'skill', name: 'climbing', value: 45 },
      { kind: 'skill', name: 'CQC', value: 37 },
      { kind: 'archetype', name: 'Acuity', value: 10 },
    ]);
    expect(before).toEqual([40, null, null]);
    const sheet = (await store.operators.get(mike.guildId, troy.id))!;
    expect(sheet.skills).toEqual([
      { name: 'CQC', level: 37 },
      { name: 'climbing', level: 45 },
    ]);
    expect(sheet.archetypes).toEqual([{ name: 'Acuity', modifier: 10 }]);
  });

  it('writes nothing when one entry is refused, and names the entry by its index', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    await store.operators.setSkill(troy, 'Climbing', 40);
    const refused = await store.operators
      .setEntries(troy, [
        { kind: 'skill', name: 'Climbing', value: 50 },
        { kind: 'skill', name: 'CQC', value: 37 },
        { kind: 'skill', name: `${CYRILLIC_ES}limbing`, value: 45 },
      ])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EntryRefused);
    expect((refused as EntryRefused).index).toBe(2);
    expect((refused as EntryRefused).refusal).toEqual({ kind: 'name-looks-alike', list: 'skill', name: `${CYRILLIC_ES}limbing`, existing: 'Climbing' });
    expect((await store.operators.get(mike.guildId, troy.id))!.skills).toEqual([{ name: 'Climbing', level: 40 }]);
  });

  it('counts the list’s new entries against the sheet’s limit', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    const archetypes = Array.from({ length: 26 }, (_, index) => ({ kind: 'archetype' as const, name: `Archetype ${index + 1}`, value: 1 }));
    const refused = await store.operators.setEntries(troy, archetypes).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EntryRefused);
    expect((refused as EntryRefused).index).toBe(25);
    expect((refused as EntryRefused).refusal).toEqual({ kind: 'entry-limit', entry: 'archetype', most: 25 });
    expect((await store.operators.get(mike.guildId, troy.id))!.archetypes).toEqual([]);
  });

  it('refuses a sheet deleted meanwhile', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    await store.operators.delete(mike, troy.id);
    const refused = await store.operators.setEntries(troy, [{ kind: 'skill', name: 'CQC', value: 37 }]).catch((error: unknown) => error);
    expect(isRefused(refused) && refused.refusal).toEqual({ kind: 'sheet-gone' });
  });
});
