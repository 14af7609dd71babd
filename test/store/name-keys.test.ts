// Names keyed before keys were NFKC (issue 11) are re-keyed once when the database is opened, so they stay reachable.
import { afterEach, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { freshDatabaseUrl } from '../helpers/database.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
});

it('a skill stored under its old key ("ｃｌｉｍｂｉｎｇ") is found by the name typed plainly after the next start', async () => {
  const url = freshDatabaseUrl();
  store = await openStore(url);
  const troy = await store.operators.create({ guildId: 'g', ownerId: 'mike' }, 'Troy');
  // As an earlier version stored it: the name as typed, the key only lower-cased.
  await store.db.skill.create({ data: { operatorId: troy.id, name: 'Ｃｌｉｍｂｉｎｇ', nameKey: 'ｃｌｉｍｂｉｎｇ', level: 40 } });
  await store.db.$executeRawUnsafe('PRAGMA user_version = 0');
  await store.close();

  store = await openStore(url);
  expect(await store.operators.setSkill(troy, 'Climbing', 45)).toBe(40);
  expect((await store.operators.get('g', troy.id))!.skills).toEqual([{ name: 'Climbing', level: 45 }]);
  expect(await store.operators.remove('skill', troy, 'climbing')).toBe('Climbing');
});
