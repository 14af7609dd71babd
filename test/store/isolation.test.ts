// Server isolation (issue 11): every look-up by id takes the server the interaction came from, and an id of another
// server is not found, exactly like an id never used — and nothing of that server changes.
import { describe, expect, it } from 'vitest';
import { proposeContest } from '../../src/engine/systems/tactalk/contest.js';
import { newRollRequest } from '../../src/engine/systems/tactalk/roll-request.js';
import type { Store } from '../../src/store/index.js';
import { npcOwner } from '../../src/store/operators.js';
import { freshStoreEachTest } from '../helpers/database.js';
import { challengeRoll } from '../helpers/rolls.js';
import { told } from '../helpers/told.js';

const HOME = 'guild-home';
const ELSEWHERE = 'guild-elsewhere';
const mike = { guildId: HOME, ownerId: 'mike' };

let store: Store;
freshStoreEachTest((opened) => (store = opened));

async function homeRoll(secret = false): Promise<string> {
  return store.rolls.record(
    challengeRoll({
      guildId: HOME,
      userId: 'dee',
      inputs: { skill: { name: 'Stealth', level: 50 }, challengeLevel: 120, hidden: true },
      dice: { tens: 7, ones: 3 },
      result: { total: 123 },
      total: 123,
      challengeLevel: 120,
      secret,
    }),
  );
}

describe('an id from another server', () => {
  it('finds no roll, and the typed id is refused as one that does not exist', async () => {
    const id = await homeRoll(true);
    expect(await store.rolls.find(HOME, id)).not.toBeNull();
    expect(await store.rolls.find(ELSEWHERE, id)).toBeNull();
    const missing = await store.rolls.require(ELSEWHERE, 'zzzzzzzz').catch((error: Error) => error.message);
    const foreign = await store.rolls.require(ELSEWHERE, id).catch((error: Error) => error.message);
    expect(foreign).toBe(String(missing).replace('zzzzzzzz', id));
  });

  it('finds no sheet and changes none of its entries', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    await store.operators.setSkill(troy, 'Climbing', 40);
    await store.operators.setAttribute(troy, 'Health', 20);
    await store.operators.setNotes(troy, 'on the roof');
    const forged = { id: troy.id, guildId: ELSEWHERE };
    expect(await store.operators.get(ELSEWHERE, troy.id)).toBeNull();
    expect(await told(store.operators.setSkill(forged, 'Climbing', 99))).toMatch(/no longer exists/);
    expect(await told(store.operators.setSkill(forged, 'Flying', 99))).toMatch(/no longer exists/);
    expect(await told(store.operators.setArchetype(forged, 'Acuity', 10))).toMatch(/no longer exists/);
    expect(await told(store.operators.setAttribute(forged, 'Health', 1))).toMatch(/no longer exists/);
    expect(await told(store.operators.setCondition(forged, { name: 'Wounded', modifier: -10, skills: null, expiresAt: null }, new Date()))).toMatch(/no longer exists/);
    expect(await told(store.operators.setNotes(forged, 'stolen'))).toMatch(/no longer exists/);
    expect(await told(store.operators.changeAttribute(forged, 'Health', () => 0))).toMatch(/no longer exists/);
    expect(await store.operators.remove('skill', forged, 'Climbing')).toBeNull();
    expect(await store.operators.delete({ guildId: ELSEWHERE, ownerId: 'mike' }, troy.id)).toBeNull();
    expect(await store.operators.get(HOME, troy.id)).toMatchObject({
      name: 'Troy',
      notes: 'on the roof',
      skills: [{ name: 'Climbing', level: 40 }],
      archetypes: [],
      conditions: [],
      attributes: [{ name: 'Health', value: 20 }],
    });
  });

  it('finds no NPC of another server by name or id', async () => {
    const thug = await store.operators.create(npcOwner(HOME), 'Thug');
    expect(await store.operators.get(ELSEWHERE, thug.id)).toBeNull();
    expect(await told(store.operators.byNameOrActive(npcOwner(ELSEWHERE), 'Thug', null))).toMatch(/no NPC named \*\*Thug\*\*/);
  });

  it('finds no contest and no roll request', async () => {
    const contest = await store.contests.create({
      guildId: HOME,
      channelId: 'c',
      state: proposeContest({ challengerId: 'sasha', opponentId: 'mike', challengerOperator: { id: 1, name: 'Kat' }, intent: 'Disarm Troy', stakes: 'Troy is disarmed', addsOwnSkill: false }),
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(await store.contests.find(HOME, contest.id)).not.toBeNull();
    expect(await store.contests.find(ELSEWHERE, contest.id)).toBeNull();
    const request = await store.rollRequests.create(
      HOME,
      'c',
      newRollRequest({ kind: 'challenge', dispatcherId: 'dee', playerId: 'mike', parts: [{ skill: 'Climbing', challengeLevel: 120, archetypes: [], situationalModifier: 0 }], hidden: true, investigationTable: null, consequence: null, consequenceTable: null, intent: 'Scale the wall', outcome: 'Troy is on the roof' }),
    );
    expect(await store.rollRequests.find(HOME, request.id)).not.toBeNull();
    expect(await store.rollRequests.find(ELSEWHERE, request.id)).toBeNull();
  });

  it('finds no outcome table of another server, and deletes none', async () => {
    await store.tables.save(HOME, { name: 'Fall Damage', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 100, text: 'Ouch', next: null, reveals: null }] });
    expect(await store.tables.find(ELSEWHERE, 'Fall Damage')).toBeNull();
    expect(await store.tables.delete(ELSEWHERE, 'Fall Damage')).toBe(false);
    expect(await store.tables.find(HOME, 'Fall Damage')).not.toBeNull();
  });
});
