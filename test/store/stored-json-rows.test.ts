import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newTracker } from '../../src/engine/initiative.js';
import { MELEE_RULE } from '../../src/engine/systems/result-points/initiative.js';
import { UserError } from '../../src/errors.js';
import type { Store } from '../../src/store/index.js';
import { freshStore } from '../helpers/database.js';

let store: Store;
beforeEach(async () => {
  store = await freshStore();
});
afterEach(async () => {
  await store.close();
});

const GUILD = 'g';

/** What reading a damaged row throws: our bug or a damaged database, so a plain Error (logged), never a UserError. */
async function failure(read: () => Promise<unknown>): Promise<string> {
  const error = await read().then(
    () => null,
    (thrown: unknown) => thrown as Error,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(UserError);
  return error!.message;
}

describe('a damaged stored row, in the stores of trackers, tables, sheets and rolls', () => {
  it('a tracker whose combatant has no key fails naming the path', async () => {
    const started = await store.initiatives.start(GUILD, 'c', newTracker(MELEE_RULE, 'gm'));
    if (!('created' in started)) throw new Error('expected a new tracker');
    const id = started.created.id;
    const state = { ...newTracker(MELEE_RULE, 'gm'), combatants: [{ name: 'Troy', playerId: null, sheetId: null, source: { kind: 'position', position: 1 }, joined: 0, marks: [] }] };
    await store.db.initiativeTracker.update({ where: { id }, data: { state: JSON.stringify(state) } });
    expect(await failure(() => store.initiatives.find(GUILD, id))).toMatch(new RegExp(`^InitiativeTracker row ${id}: \`state\\.combatants\\[0\\]\\.key\` does not read as stored`));
  });

  it('a table whose row reveals something unknown fails naming the path', async () => {
    await store.tables.save(GUILD, { name: 'Reload', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 100, text: 'a', next: null, reveals: null }] });
    const row = await store.db.outcomeTable.findFirstOrThrow({ where: { guildId: GUILD } });
    await store.db.outcomeTable.update({ where: { id: row.id }, data: { rows: JSON.stringify([{ min: 1, max: 100, text: 'a', next: null, reveals: 'everything' }]) } });
    expect(await failure(() => store.tables.find(GUILD, 'Reload'))).toMatch(new RegExp(`^OutcomeTable row ${row.id}: \`rows\\[0\\]\\.reveals\` does not read as stored`));
  });

  it("a condition whose skills are not a list of names fails naming the condition's row", async () => {
    const sheet = await store.db.operator.create({ data: { guildId: GUILD, ownerId: 'mike', name: 'Troy', nameKey: 'troy' } });
    const condition = await store.db.condition.create({ data: { operatorId: sheet.id, name: 'Wounded', nameKey: 'wounded', modifier: -10, skillKeys: '["climbing", 5]' } });
    expect(await failure(() => store.operators.get(GUILD, sheet.id))).toMatch(new RegExp(`^Condition row ${condition.id}: \`skillKeys\\[1\\]\` does not read as stored`));
  });

  it('a roll whose dice are not JSON fails naming the roll', async () => {
    const id = await store.rolls.record({ guildId: GUILD, channelId: 'c', userId: 'mike', kind: 'dice', inputs: {}, seed: 's', dice: [], result: {}, total: null, challengeLevel: null, success: null });
    await store.db.roll.update({ where: { id }, data: { dice: '[1, 2' } });
    expect(await failure(() => store.rolls.find(GUILD, id))).toMatch(new RegExp(`^Roll row ${id}: \`dice\` is not JSON`));
  });
});
