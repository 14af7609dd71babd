// Custom ids the bot never issued, with ids that are no row id (NaN, fractional, beyond a 32-bit Int): the bot
// refuses them politely instead of failing in the database (found by the reliability fuzz, issue 7). An id that is
// not a whole number is not one the command reads (src/views/component-id.ts): the router asks for the command
// again; a whole number that names no row is the store's "no longer exists".
import { afterEach, beforeEach, expect, it } from 'vitest';
import { freshStore } from '../helpers/database.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await startTestSandbox();
});
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

it.each([
  ['%00', 'older version of the bot'],
  ['abc', 'older version of the bot'],
  ['1.5', 'older version of the bot'],
  ['-1', 'older version of the bot'],
  ['9007199254740993', 'older version of the bot'],
  ['', 'older version of the bot'],
  ['4294967296', 'This contest no longer exists'],
])('a forged contest form with the id "%s" is refused politely', async (id, refusal) => {
  const response = await sandbox.one({ user: 'eve', modal: `contest:acceptform:${id}`, fields: { stakes: 'x', operator: 'y' } });
  expect(response).toMatchObject({ kind: 'reply', ephemeral: true });
  expect(response.content).toContain(refusal);
});

it.each([
  ['%00', 'older version of the bot'],
  ['2147483648', 'This roll request no longer exists'],
])('a forged roll request form with the id "%s" is refused politely', async (id, refusal) => {
  const response = await sandbox.one({ user: 'eve', modal: `dispatch:roll:${id}`, fields: {} });
  expect(response).toMatchObject({ kind: 'reply', ephemeral: true });
  expect(response.content).toContain(refusal);
});

it('the stores find nothing, rather than throw, for ids that cannot be a row id', async () => {
  const store = await freshStore();
  try {
    for (const id of [Number.NaN, 1.5, -1, 0, 2 ** 31, 2 ** 53]) {
      expect(await store.contests.find('1', id)).toBeNull();
      expect(await store.rollRequests.find('1', id)).toBeNull();
      expect(await store.operators.get('1', id)).toBeNull();
      expect(await store.operators.delete({ guildId: '1', ownerId: '2' }, id)).toBeNull();
    }
  } finally {
    await store.close();
  }
});
