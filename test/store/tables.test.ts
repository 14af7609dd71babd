// A server's outcome tables on a real temporary SQLite file.
import { describe, expect, it } from 'vitest';
import { TABLE_LIMITS, parseTableCsv, parseTableJson, tableToCsv, tableToJson, type OutcomeTable } from '../../src/engine/tables.js';
import type { Store } from '../../src/store/index.js';
import { ROLL_ID_PATTERN, derivedRollId } from '../../src/store/rolls.js';
import { freshStoreEachTest } from '../helpers/database.js';
import { told } from '../helpers/told.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

function table(name: string, text = 'a'): OutcomeTable {
  return {
    name,
    die: 'd100',
    asks: 'Add your Machine Gun Handling aptitude',
    skill: 'Machine Gun Handling',
    rows: [
      { min: 1, max: 50, text, next: null, reveals: null },
      { min: 51, max: 100, text: 'Übung "macht" den Meister, 🔫', next: 'Fall Damage', reveals: 'band' },
    ],
  };
}

describe('outcome tables in the store', () => {
  it('saves a table and gives it back whole, by any spelling of its name', async () => {
    expect(await store.tables.save('g1', table('Reload'))).toEqual({ replaced: false });
    expect(await store.tables.find('g1', '  reLOAD ')).toEqual(table('Reload'));
    expect(await store.tables.find('g2', 'Reload')).toBeNull();
    expect(await store.tables.names('g1')).toEqual(['Reload']);
  });

  it('replaces the table of the same name and says so', async () => {
    await store.tables.save('g1', table('Reload', 'old'));
    expect(await store.tables.save('g1', table('RELOAD', 'new'))).toEqual({ replaced: true });
    expect(await store.tables.list('g1')).toEqual([table('RELOAD', 'new')]);
  });

  it('deletes a table, and reports a delete of what is not there', async () => {
    await store.tables.save('g1', table('Reload'));
    await store.tables.save('g2', table('Reload'));
    expect(await store.tables.delete('g1', 'reload')).toBe(true);
    expect(await store.tables.delete('g1', 'reload')).toBe(false);
    expect(await store.tables.find('g1', 'Reload')).toBeNull();
    expect(await store.tables.find('g2', 'Reload')).not.toBeNull();
  });

  it('says which names are close when a table is not found', async () => {
    await store.tables.save('g1', table('Reload'));
    expect(await told(store.tables.require('g1', 'Relaod'))).toMatch(/no outcome table named \*\*Relaod\*\*.*Did you mean \*\*Reload\*\*/);
    expect(await told(store.tables.require('g2', 'Reload'))).toMatch(/See `\/table list`/);
  });

  it('holds at most 50 tables a server; the 51st is refused, a replace of one of the 50 is not', async () => {
    for (let i = 0; i < TABLE_LIMITS.tablesPerServer; i++) await store.tables.save('g1', table(`Table ${i}`));
    expect(await told(store.tables.save('g1', table('One too many')))).toMatch('This server has 50 outcome tables, the most allowed. Delete one first. Nothing was changed.');
    expect(await store.tables.find('g1', 'One too many')).toBeNull();
    expect(await store.tables.save('g1', table('Table 7', 'changed'))).toEqual({ replaced: true });
    expect(await store.tables.save('g2', table('One too many'))).toEqual({ replaced: false });
    expect(await store.tables.names('g1')).toHaveLength(50);
  });

  it('export → import → identical, as JSON and as CSV', async () => {
    await store.tables.save('g1', table('Reload'));
    const stored = (await store.tables.find('g1', 'Reload'))!;
    await store.tables.save('g2', parseTableJson(tableToJson(stored)));
    expect(await store.tables.find('g2', 'Reload')).toEqual(stored);
    await store.tables.save('g3', parseTableCsv(tableToCsv(stored), { name: stored.name, asks: stored.asks, skill: stored.skill! }));
    expect(await store.tables.find('g3', 'Reload')).toEqual(stored);
  });

  it('gives the roll of a next table an id derived from its parent roll, so a second press finds it', async () => {
    const id = derivedRollId('abcd2345', 'next');
    expect(id).toMatch(ROLL_ID_PATTERN);
    expect(derivedRollId('abcd2345', 'next')).toBe(id);
    expect(derivedRollId('abcd2346', 'next')).not.toBe(id);
    const roll = { guildId: 'g', channelId: 'c', userId: 'mike', kind: 'outcome', inputs: {}, seed: 's', dice: [], result: {}, total: 1, challengeLevel: null, success: null };
    expect(await store.rolls.recordOnce(id, roll)).toBe(true);
    expect(await store.rolls.recordOnce(id, roll)).toBe(false);
    expect(await store.rolls.find('g', id)).toMatchObject({ id, kind: 'outcome' });
    expect(await store.rolls.find('another server', id)).toBeNull();
  });
});
