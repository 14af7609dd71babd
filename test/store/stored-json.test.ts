import { describe, expect, it } from 'vitest';
import { newTracker } from '../../src/engine/initiative.js';
import { MELEE_RULE } from '../../src/engine/systems/result-points/initiative.js';
import { proposeContest } from '../../src/engine/systems/tactalk/contest.js';
import { SYSTEM_IDS } from '../../src/engine/systems/index.js';
import { UserError } from '../../src/errors.js';
import { playedSystems } from '../../src/store/servers.js';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

const GUILD = 'g';

async function storedContest(): Promise<number> {
  const state = proposeContest({ challengerId: 'sasha', opponentId: 'mike', challengerOperator: { id: 1, name: 'Kat' }, intent: 'Disarm Troy', stakes: 'Troy is disarmed', addsOwnSkill: false });
  const contest = await store.contests.create({ guildId: GUILD, channelId: 'c', state, expiresAt: new Date('2031-03-14T20:15:00Z') });
  return contest.id;
}

/** What reading a damaged row throws: our bug or a damaged database, so a plain Error (logged), never a UserError. */
async function failure(read: () => Promise<unknown>): Promise<Error> {
  const error = await read().then(
    () => null,
    (thrown: unknown) => thrown as Error,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(UserError);
  return error!;
}

const failureText = async (read: () => Promise<unknown>): Promise<string> => (await failure(read)).message;

describe('a damaged stored row', () => {
  it('a contest whose state lost a field fails naming the table, the row and the path', async () => {
    const id = await storedContest();
    const row = await store.db.contest.findUniqueOrThrow({ where: { id } });
    const state = JSON.parse(row.state) as { challenger: Record<string, unknown> };
    delete state.challenger.usedSkills;
    await store.db.contest.update({ where: { id }, data: { state: JSON.stringify(state) } });

    const error = await failure(() => store.contests.find(GUILD, id));
    expect(error.message).toMatch(new RegExp(`^Contest row ${id}: \`state\\.challenger\\.usedSkills\` does not read as stored: `));
  });

  it('an overdue contest that no longer reads is passed over (and told), so the others still expire', async () => {
    const damaged = await storedContest();
    const sound = await storedContest();
    await store.db.contest.update({ where: { id: damaged }, data: { state: '{"phase":' } });
    const passedOver: Array<{ id: number; message: string }> = [];
    const overdue = await store.contests.overdue(new Date('2031-03-15T00:00:00Z'), undefined, undefined, (id, error) => passedOver.push({ id, message: (error as Error).message }));
    expect(overdue.map((contest) => contest.id)).toEqual([sound]);
    expect(passedOver).toEqual([{ id: damaged, message: expect.stringMatching(new RegExp(`^Contest row ${damaged}: `)) }]);
  });

  it('a contest whose state is not JSON at all fails naming the row and the column', async () => {
    const id = await storedContest();
    await store.db.contest.update({ where: { id }, data: { state: '{"phase": "proposed",' } });
    expect((await failure(() => store.contests.find(GUILD, id))).message).toMatch(new RegExp(`^Contest row ${id}: \`state\` is not JSON`));
  });

  it('a roll request whose phase is no phase fails naming the path', async () => {
    const row = await store.db.rollRequest.create({
      data: { guildId: GUILD, channelId: 'c', dispatcherId: 'dee', playerId: 'mike', phase: 'open', state: JSON.stringify({ kind: 'challenge', dispatcherId: 'dee', playerId: 'mike', phase: 'lost' }) },
    });
    expect((await failure(() => store.rollRequests.find(GUILD, row.id))).message).toMatch(new RegExp(`^RollRequest row ${row.id}: \`state\\.phase\` does not read as stored`));
  });

  it('a server whose played systems are not a list fails naming the server', () => {
    expect(() => playedSystems({ guildId: GUILD, playedSystems: '{"tactalk": true}' })).toThrow(/^Server row g: `playedSystems` does not read as stored/);
  });
});

describe('older stored shapes still read', () => {
  it('a roll request stored before the conversation reads with no intent, no consequence and no Outcome Roll', async () => {
    const old = { kind: 'challenge', dispatcherId: 'dee', playerId: 'mike', parts: [{ skill: 'Climbing', archetypes: [], situationalModifier: 0, challengeLevel: 120 }], hidden: false, investigationTable: null, phase: 'open', investigation: null, result: null };
    const row = await store.db.rollRequest.create({ data: { guildId: GUILD, channelId: 'c', dispatcherId: 'dee', playerId: 'mike', phase: 'open', state: JSON.stringify(old) } });
    const read = await store.rollRequests.find(GUILD, row.id);
    expect(read?.state).toEqual({ ...old, operatorName: null, intent: null, outcome: null, consequence: null, consequenceTable: null, consequenceRoll: null, formDraft: null, pingMessageId: null, blind: false });
  });

  it('a contest stored before linked sides, tie choices and secret roles reads as stored', async () => {
    const id = await storedContest();
    const stored = JSON.parse((await store.db.contest.findUniqueOrThrow({ where: { id } })).state) as Record<string, unknown>;
    expect(stored).not.toHaveProperty('secretRoles');
    expect((await store.contests.find(GUILD, id))?.state).toEqual(stored);
  });

  it('played systems naming a system the bot no longer knows read as the ones it knows; none known is every system', () => {
    expect(playedSystems({ guildId: GUILD, playedSystems: '["d6-pool", "retired-system"]' })).toEqual(['d6-pool']);
    expect(playedSystems({ guildId: GUILD, playedSystems: '["retired-system"]' })).toEqual([...SYSTEM_IDS]);
  });
});

describe('a damaged stored row, in the stores of trackers, tables, sheets and rolls', () => {
  it('a tracker whose combatant has no key fails naming the path', async () => {
    const started = await store.initiatives.start(GUILD, 'c', newTracker(MELEE_RULE, 'gm'));
    if (!('created' in started)) throw new Error('expected a new tracker');
    const id = started.created.id;
    const state = { ...newTracker(MELEE_RULE, 'gm'), combatants: [{ name: 'Troy', playerId: null, sheetId: null, source: { kind: 'position', position: 1 }, joined: 0, marks: [] }] };
    await store.db.initiativeTracker.update({ where: { id }, data: { state: JSON.stringify(state) } });
    expect(await failureText(() => store.initiatives.find(GUILD, id))).toMatch(new RegExp(`^InitiativeTracker row ${id}: \`state\\.combatants\\[0\\]\\.key\` does not read as stored`));
  });

  it('a table whose row reveals something unknown fails naming the path', async () => {
    await store.tables.save(GUILD, { name: 'Reload', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 100, text: 'a', next: null, reveals: null }] });
    const row = await store.db.outcomeTable.findFirstOrThrow({ where: { guildId: GUILD } });
    await store.db.outcomeTable.update({ where: { id: row.id }, data: { rows: JSON.stringify([{ min: 1, max: 100, text: 'a', next: null, reveals: 'everything' }]) } });
    expect(await failureText(() => store.tables.find(GUILD, 'Reload'))).toMatch(new RegExp(`^OutcomeTable row ${row.id}: \`rows\\[0\\]\\.reveals\` does not read as stored`));
  });

  it("a condition whose skills are not a list of names fails naming the condition's row", async () => {
    const sheet = await store.db.operator.create({ data: { guildId: GUILD, ownerId: 'mike', name: 'Troy', nameKey: 'troy' } });
    const condition = await store.db.condition.create({ data: { operatorId: sheet.id, name: 'Wounded', nameKey: 'wounded', modifier: -10, skillKeys: '["climbing", 5]' } });
    expect(await failureText(() => store.operators.get(GUILD, sheet.id))).toMatch(new RegExp(`^Condition row ${condition.id}: \`skillKeys\\[1\\]\` does not read as stored`));
  });

  it('a roll whose dice are not JSON fails naming the roll', async () => {
    const id = await store.rolls.record({ guildId: GUILD, channelId: 'c', userId: 'mike', kind: 'dice', inputs: {}, seed: 's', dice: [], result: {}, total: null, challengeLevel: null, success: null });
    await store.db.roll.update({ where: { id }, data: { dice: '[1, 2' } });
    expect(await failureText(() => store.rolls.find(GUILD, id))).toMatch(new RegExp(`^Roll row ${id}: \`dice\` is not JSON`));
  });
});
