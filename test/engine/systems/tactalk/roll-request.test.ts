// A challenge roll as a conversation, in the engine: who may do what at each step, and what each step leaves.
import { describe, expect, it } from 'vitest';
import {
  RollRequestRefusal,
  callForRoll,
  cancelRollRequest,
  checkConsequenceRoll,
  checkInvestigation,
  declineRoll,
  grantWithoutRoll,
  investigationTableNames,
  mayRollConsequence,
  newRollRequest,
  normalizeRollRequest,
  recordConsequenceRoll,
  recordRoll,
  stateIntent,
  withdrawIntent,
  type RollCall,
  type RollRequestState,
} from '../../../../src/engine/systems/tactalk/roll-request.js';
import { UserError } from '../../../../src/errors.js';

const CLIMB: RollCall = {
  kind: 'challenge',
  parts: [{ skill: 'Climbing', archetypes: [], situationalModifier: 0, challengeLevel: 120 }],
  hidden: false,
  investigationTable: null,
  consequence: 'Troy falls.',
  consequenceTable: 'Fall Damage',
};
const DISPATCHER = { userId: 'dee', isDispatcher: true };

function stated(): RollRequestState {
  return stateIntent({ playerId: 'mike', operatorName: 'Troy', intent: ' scale the building ', outcome: 'Troy is on the balcony' });
}

function result(succeeded: number, total = 1): NonNullable<RollRequestState['result']> {
  return { rollId: 'abcdefgh', succeeded, total, operatorName: 'Troy', results: [] };
}

describe('a stated intent', () => {
  it('keeps the words trimmed and waits for a Dispatcher; empty or overlong words are refused', () => {
    const state = stated();
    expect(state).toMatchObject({ phase: 'stated', intent: 'scale the building', dispatcherId: '', parts: [] });
    expect(() => stateIntent({ playerId: 'mike', operatorName: 'Troy', intent: '  ', outcome: 'x' })).toThrow('The intent cannot be empty');
    expect(() => stateIntent({ playerId: 'mike', operatorName: 'Troy', intent: 'x', outcome: 'y'.repeat(301) })).toThrow('at most 300 characters');
  });

  it('only a Dispatcher calls for a roll or grants it without one; only the player withdraws it', () => {
    expect(() => callForRoll(stated(), { userId: 'mike', isDispatcher: false }, CLIMB)).toThrow(RollRequestRefusal);
    expect(() => grantWithoutRoll(stated(), { userId: 'mike', isDispatcher: false })).toThrow('Only a Dispatcher');
    expect(() => withdrawIntent(stated(), 'sasha')).toThrow('for <@mike> only');
    expect(callForRoll(stated(), DISPATCHER, CLIMB)).toMatchObject({ phase: 'open', dispatcherId: 'dee', consequenceTable: 'Fall Damage', intent: 'scale the building' });
    expect(grantWithoutRoll(stated(), DISPATCHER).phase).toBe('granted');
    expect(withdrawIntent(stated(), 'mike').phase).toBe('withdrawn');
    // Once answered, it is not answered again, nor withdrawn.
    const open = callForRoll(stated(), DISPATCHER, CLIMB);
    expect(() => callForRoll(open, DISPATCHER, CLIMB)).toThrow('already called for a roll');
    expect(() => withdrawIntent(grantWithoutRoll(stated(), DISPATCHER), 'mike')).toThrow('no roll');
  });

  it('cannot be rolled or declined before a roll is called for', () => {
    expect(() => declineRoll(stated(), 'mike')).toThrow('No roll has been called for yet');
    expect(() => recordRoll(stated(), 'mike', result(0))).toThrow('No roll has been called for yet');
  });
});

describe('a roll called for', () => {
  it('a direct call must state the intent and the outcome', () => {
    expect(() => newRollRequest({ ...CLIMB, dispatcherId: 'dee', playerId: 'mike', intent: '', outcome: 'x' })).toThrow(UserError);
    expect(newRollRequest({ ...CLIMB, dispatcherId: 'dee', playerId: 'mike', intent: 'climb', outcome: 'up' }).phase).toBe('open');
  });

  it('a linked roll allows no investigation and needs two parts', () => {
    expect(() => newRollRequest({ ...CLIMB, kind: 'linked', dispatcherId: 'dee', playerId: 'mike', intent: 'a', outcome: 'b' })).toThrow('at least two');
    const twoParts = [...CLIMB.parts, { skill: 'Driving', archetypes: [], situationalModifier: 0, challengeLevel: 90 }];
    expect(() => newRollRequest({ ...CLIMB, kind: 'linked', parts: twoParts, investigationTable: 'Investigation: Climbing', dispatcherId: 'dee', playerId: 'mike', intent: 'a', outcome: 'b' })).toThrow('no investigation');
    const linked = newRollRequest({ ...CLIMB, kind: 'linked', parts: twoParts, hidden: true, dispatcherId: 'dee', playerId: 'mike', intent: 'a', outcome: 'b' });
    expect(() => checkInvestigation(linked, 'mike')).toThrow('A linked roll allows no investigation.');
  });

  it('only the player declines; a declined request is neither rolled nor cancelled', () => {
    const open = callForRoll(stated(), DISPATCHER, CLIMB);
    expect(() => declineRoll(open, 'sasha')).toThrow('for <@mike> only');
    const declined = declineRoll(open, 'mike');
    expect(declined.phase).toBe('declined');
    expect(declined.result).toBeNull();
    expect(() => recordRoll(declined, 'mike', result(1))).toThrow('declined');
    expect(() => cancelRollRequest(declined, true)).toThrow('declined');
  });
});

describe("a failure's Outcome Roll", () => {
  const open = () => callForRoll(stated(), DISPATCHER, CLIMB);

  it('is offered after a failure with a consequence table, to the player, once', () => {
    const failed = recordRoll(open(), 'mike', result(0));
    expect(mayRollConsequence(failed)).toBe(true);
    expect(() => checkConsequenceRoll(failed, 'sasha')).toThrow('for <@mike> only');
    const made = recordConsequenceRoll(failed, 'mike', { rollId: 'zzzzzzzz', table: 'Fall Damage', result: 57, rowText: 'A broken leg.' });
    expect(mayRollConsequence(made)).toBe(false);
    expect(() => recordConsequenceRoll(made, 'mike', { rollId: 'yyyyyyyy', table: 'Fall Damage', result: 3, rowText: '' })).toThrow('already made: roll zzzzzzzz');
  });

  it('a linked roll with any part failed counts as failed; a full success or no table offers nothing', () => {
    expect(mayRollConsequence(recordRoll(open(), 'mike', result(1, 2)))).toBe(true);
    expect(mayRollConsequence(recordRoll(open(), 'mike', result(1)))).toBe(false);
    expect(() => checkConsequenceRoll(recordRoll(open(), 'mike', result(1)), 'mike')).toThrow('The roll succeeded');
    const noTable = callForRoll(stated(), DISPATCHER, { ...CLIMB, consequenceTable: null });
    expect(mayRollConsequence(recordRoll(noTable, 'mike', result(0)))).toBe(false);
    expect(() => checkConsequenceRoll(open(), 'mike')).toThrow('has not been made');
  });
});

it('a request stored before the conversation reads back with no intent, no consequence and no Outcome Roll', () => {
  const old = normalizeRollRequest({
    kind: 'challenge',
    dispatcherId: 'dee',
    playerId: 'mike',
    parts: CLIMB.parts,
    hidden: false,
    investigationTable: null,
    phase: 'open',
    investigation: null,
    result: null,
  });
  expect(old).toMatchObject({ intent: null, outcome: null, consequence: null, consequenceTable: null, consequenceRoll: null, operatorName: null });
  expect(mayRollConsequence(recordRoll(old, 'mike', result(0)))).toBe(false);
});

describe('the investigation table of a hidden challenge', () => {
  it('is the one named, else the skill’s own, else one for every skill, else the shipped example, best first', () => {
    expect(investigationTableNames({ ...CLIMB, investigationTable: null })).toEqual(['Investigation: Climbing', 'Investigation', 'Investigation (example)']);
    expect(investigationTableNames({ ...CLIMB, investigationTable: 'Walls' })).toEqual(['Walls', 'Investigation: Climbing', 'Investigation', 'Investigation (example)']);
  });
});
