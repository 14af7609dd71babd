import { describe, expect, it } from 'vitest';
import { parseSheetFile } from '../../src/engine/sheet-file.js';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';
import { told } from '../helpers/told.js';

const mike = { guildId: 'guild-1', ownerId: 'mike' };
const sasha = { guildId: 'guild-1', ownerId: 'sasha' };
const mikeElsewhere = { guildId: 'guild-2', ownerId: 'mike' };

let store: Store;
freshStoreEachTest((opened) => (store = opened));

describe('Operator sheets in SQLite', () => {
  it('keeps sheets per user per server, the newest one active', async () => {
    await store.operators.create(mike, 'Troy');
    await store.operators.create(mike, 'Backup Troy');
    await store.operators.create(sasha, 'Kat');
    expect((await store.operators.active(mike, 'tactalk'))?.name).toBe('Backup Troy');
    expect((await store.operators.list(mike)).map((sheet) => sheet.name)).toEqual(['Backup Troy', 'Troy']);
    expect((await store.operators.active(sasha, 'tactalk'))?.name).toBe('Kat');
    expect(await store.operators.list(mikeElsewhere)).toEqual([]);
    await store.operators.use(mike, '  troy ');
    expect((await store.operators.active(mike, 'tactalk'))?.name).toBe('Troy');
  });

  it('refuses a second sheet with the same name, whatever the case', async () => {
    await store.operators.create(mike, 'Troy');
    expect(await told(store.operators.create(mike, 'TROY'))).toMatch(/already have a sheet named \*\*Troy\*\*/);
    await expect(store.operators.create(sasha, 'Troy')).resolves.toMatchObject({ name: 'Troy' });
  });

  it('stores skills, archetypes and conditions, and updates by case-insensitive name', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    expect(await store.operators.setSkill(troy, 'Climbing', 40)).toBeNull();
    expect(await store.operators.setSkill(troy, 'climbing', 45)).toBe(40);
    await store.operators.setArchetype(troy, 'Acuity', 10);
    await store.operators.setCondition(troy, { name: 'Wounded', modifier: -10, skills: null, expiresAt: null }, new Date());
    const sheet = await store.operators.requireActive(mike, 'tactalk');
    expect(sheet.skills).toEqual([{ name: 'climbing', level: 45 }]);
    expect(sheet.archetypes).toEqual([{ name: 'Acuity', modifier: 10 }]);
    expect(sheet.conditions).toEqual([{ name: 'Wounded', modifier: -10, skills: null, expiresAt: null }]);
    expect(await store.operators.remove('skill', troy, 'CLIMBING')).toBe('climbing');
    expect(await store.operators.remove('skill', troy, 'Climbing')).toBeNull();
  });

  it('enforces the limits on sheets and skills', async () => {
    for (let index = 0; index < 10; index++) await store.operators.create(mike, `Operator ${index}`);
    expect(await told(store.operators.create(mike, 'One too many'))).toMatch(/already have 10 sheets/);
    const sheet = await store.operators.requireActive(mike, 'tactalk');
    for (let index = 0; index < 100; index++) await store.operators.setSkill(sheet, `Skill ${index}`, 10);
    expect(await told(store.operators.setSkill(sheet, 'Skill 100', 10))).toMatch(/at most 100 skills/);
    await expect(store.operators.setSkill(sheet, 'Skill 5', 20)).resolves.toBe(10);
  });

  it('deletes only a sheet the user owns', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    expect(await store.operators.delete(sasha, troy.id)).toBeNull();
    expect((await store.operators.delete(mike, troy.id))?.name).toBe('Troy');
    expect(await store.operators.list(mike)).toEqual([]);
  });

  it('imports a sheet, and a refused import leaves the existing sheet exactly as it was', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    await store.operators.setSkill(troy, 'Climbing', 40);
    const imported = parseSheetFile(JSON.stringify({ name: 'troy', skills: [{ name: 'Driving', level: 55 }] }));
    expect(await told(store.operators.import(mike, imported, false))).toMatch(/already have a sheet named \*\*Troy\*\*.*Nothing was changed/);
    expect((await store.operators.requireActive(mike, 'tactalk')).skills).toEqual([{ name: 'Climbing', level: 40 }]);
    const { sheet, replaced } = await store.operators.import(mike, imported, true);
    expect(replaced).toBe(true);
    expect(sheet.skills).toEqual([{ name: 'Driving', level: 55 }]);
    expect((await store.operators.list(mike)).length).toBe(1);
  });

  it('answers repeated reads from memory, and every change shows on the next read', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    await store.operators.setSkill(troy, 'Climbing', 40);
    // Warm every kind of read, then change the sheet behind each of them.
    await store.operators.active(mike, 'tactalk');
    await store.operators.get(troy.guildId, troy.id);
    await store.operators.byNameOrActive(mike, 'troy', null);
    await store.operators.setSkill(troy, 'Climbing', 55);
    await store.operators.setArchetype(troy, 'Acuity', 10);
    await store.operators.setCondition(troy, { name: 'Winded', modifier: -5, skills: null, expiresAt: null }, new Date());
    await store.operators.setAttribute(troy, 'Health', 12);
    await store.operators.setNotes(troy, 'On the roof');
    for (const sheet of [await store.operators.active(mike, 'tactalk'), await store.operators.get(troy.guildId, troy.id), await store.operators.byNameOrActive(mike, 'Troy', null)]) {
      expect(sheet).toMatchObject({ notes: 'On the roof', skills: [{ name: 'Climbing', level: 55 }], archetypes: [{ name: 'Acuity', modifier: 10 }] });
      expect(sheet!.conditions.map((condition) => condition.name)).toEqual(['Winded']);
      expect(sheet!.attributes).toEqual([{ name: 'Health', value: 12 }]);
    }
    await store.operators.remove('skill', troy, 'climbing');
    expect((await store.operators.active(mike, 'tactalk'))!.skills).toEqual([]);

    const renamed = await store.operators.rename(mike, null, 'Troy Two');
    expect(renamed.sheet.name).toBe('Troy Two');
    expect(await told(store.operators.byNameOrActive(mike, 'Troy', null))).toMatch(/no sheet named \*\*Troy\*\*/);
    expect((await store.operators.active(mike, 'tactalk'))!.name).toBe('Troy Two');

    const backup = await store.operators.create(mike, 'Backup');
    expect((await store.operators.active(mike, 'tactalk'))!.id).toBe(backup.id);
    await store.operators.use(mike, 'Troy Two');
    expect((await store.operators.active(mike, 'tactalk'))!.id).toBe(troy.id);
    await store.operators.delete(mike, troy.id);
    // The only Tac Talk sheet left stands in for the active one, which was deleted.
    expect((await store.operators.active(mike, 'tactalk'))!.id).toBe(backup.id);
    expect(await store.operators.get(troy.guildId, troy.id)).toBeNull();
    await store.operators.create(mike, 'Fresh');
    expect((await store.operators.active(mike, 'tactalk'))!.name).toBe('Fresh');
  });

  it('gives each caller its own copy: changing a sheet read does not change the stored one', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    await store.operators.setSkill(troy, 'Climbing', 40);
    const first = (await store.operators.active(mike, 'tactalk'))!;
    first.skills[0]!.level = 99;
    first.skills.push({ name: 'Forged', level: 1 });
    first.name = 'Not Troy';
    expect(await store.operators.active(mike, 'tactalk')).toMatchObject({ name: 'Troy', skills: [{ name: 'Climbing', level: 40 }] });
  });

  it('sees a sheet another user of the same store just created, and keeps servers apart', async () => {
    expect(await store.operators.active(mike, 'tactalk')).toBeNull();
    await store.operators.create(mike, 'Troy');
    expect((await store.operators.active(mike, 'tactalk'))!.name).toBe('Troy');
    expect(await store.operators.active(mikeElsewhere, 'tactalk')).toBeNull();
    await store.operators.create(mikeElsewhere, 'Other Troy');
    expect((await store.operators.active(mike, 'tactalk'))!.name).toBe('Troy');
  });
});
