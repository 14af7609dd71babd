/**
 * Two stores on one PostgreSQL database, as two bot processes, changing one value at the same moment: PostgreSQL
 * fails one of two overlapping serializable transactions, and the store runs it again (transaction() in
 * src/store/database.ts), so every change counts and nobody is told the database is busy.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { twoProcessStores } from '../helpers/database.js';

let a: Store;
let b: Store;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ a, b, close } = await twoProcessStores());
});
afterEach(() => close());

it('twenty hits on one Health at once, through two processes, all count', async () => {
  const owner = { guildId: '100', ownerId: 'gm' };
  const brute = await a.operators.create(owner, 'Brute', 'd100-tactics');
  await a.operators.setAttribute(brute, 'Health', 100);
  const hits = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? a : b).operators.changeAttribute(brute, 'Health', (health) => health - 3));
  const results = await Promise.allSettled(hits);
  expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
  const row = await a.db.attribute.findFirstOrThrow({ where: { operatorId: brute.id, name: 'Health' } });
  expect(row.value).toBe(100 - 20 * 3);
});
