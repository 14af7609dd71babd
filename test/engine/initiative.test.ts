// The initiative tracker's reducer: the order each rule gives, Next and Previous across rounds and phases, and
// whose turn it is kept sensible when combatants come and go.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import {
  addCombatant,
  beginRolledCycle,
  changeInitiative,
  COMBATANTS_MAX,
  currentCombatant,
  manualRule,
  newTracker,
  nextTurn,
  orderOf,
  phaseClock,
  previousTurn,
  removeCombatant,
  type InitiativeRule,
  type InitiativeSource,
  type StepOutcome,
  type TrackerState,
} from '../../src/engine/initiative.js';
import { D10_PHASE_RULE } from '../../src/engine/systems/d10-pool/initiative.js';
import { CHASE_RULE, DEBATE_RULE, MELEE_RULE } from '../../src/engine/systems/result-points/initiative.js';
import { toldSync } from '../helpers/told.js';

const VALUE: InitiativeSource = { kind: 'value', value: 0, code: null };

function tracker(rule: InitiativeRule, entries: Array<[string, number]>): TrackerState {
  return entries.reduce(
    (state, [name, total]) => addCombatant(state, { key: `npc:${name}`, name, playerId: null, sheetId: null, source: VALUE, total, dice: null, rollId: null }),
    newTracker(rule, 'dispatcher'),
  );
}

const names = (state: TrackerState, cycle?: number) => orderOf(state, cycle).map((entry) => entry.combatant.name);
const turn = (state: TrackerState) => currentCombatant(state)?.name ?? null;

function stepped(outcome: StepOutcome): TrackerState {
  if (!('state' in outcome)) throw new Error(`expected a step, got a roll for ${outcome.rollFor}`);
  return outcome.state;
}
const next = (state: TrackerState) => stepped(nextTurn(state));

describe('the order', () => {
  it('melee and debate: highest first; a tie goes to who joined first', () => {
    expect(names(tracker(MELEE_RULE, [['A', 9], ['B', 13], ['C', 9], ['D', 11]]))).toEqual(['B', 'D', 'A', 'C']);
    expect(names(tracker(DEBATE_RULE, [['A', 3], ['B', 18]]))).toEqual(['B', 'A']);
  });

  it('a chase: position 1 leads and acts first; a d10 pool: lowest first (seed 004)', () => {
    expect(names(tracker(CHASE_RULE, [['Pursuer', 2], ['Leader', 1], ['Last', 3]]))).toEqual(['Leader', 'Pursuer', 'Last']);
    expect(names(tracker(D10_PHASE_RULE, [['Earl', 21], ['Leroy', 16]]))).toEqual(['Leroy', 'Earl']);
  });

  it('a manual order (systems whose seed has no initiative rule): highest first', () => {
    expect(names(tracker(manualRule('tactalk'), [['A', 1], ['B', 7]]))).toEqual(['B', 'A']);
  });
});

describe('Next and Previous', () => {
  it('Begin gives the turn to the first; Next goes down the order and wraps to the next round', () => {
    let state = tracker(MELEE_RULE, [['A', 10], ['B', 12], ['C', 8]]);
    expect(state.cycle).toBe(0);
    state = next(state);
    expect([state.cycle, turn(state)]).toEqual([1, 'B']);
    state = next(next(state));
    expect([state.cycle, turn(state)]).toEqual([1, 'C']);
    state = next(state);
    expect([state.cycle, turn(state)]).toEqual([2, 'B']);
  });

  it('Previous goes back up the order and into the round before; not before the first turn, nor before the beginning', () => {
    let state = next(tracker(MELEE_RULE, [['A', 10], ['B', 12]]));
    expect(() => previousTurn(state)).toThrow(/first turn of the first round/);
    expect(() => previousTurn(tracker(MELEE_RULE, [['A', 1]]))).toThrow(/has not begun/);
    state = next(next(state));
    expect([state.cycle, turn(state)]).toEqual([2, 'B']);
    state = previousTurn(state);
    expect([state.cycle, turn(state)]).toEqual([1, 'A']);
    state = previousTurn(state);
    expect([state.cycle, turn(state)]).toEqual([1, 'B']);
  });

  it('nobody to begin with is a clear refusal', () => {
    expect(() => nextTurn(newTracker(MELEE_RULE, 'd'))).toThrow(UserError);
  });
});

describe('coming and going', () => {
  it('a newcomer ahead of the turn acts from the next round; the turn stays', () => {
    let state = next(next(tracker(MELEE_RULE, [['A', 12], ['B', 10], ['C', 8]])));
    expect(turn(state)).toBe('B');
    state = addCombatant(state, { key: 'npc:Fast', name: 'Fast', playerId: null, sheetId: null, source: VALUE, total: 20, dice: null, rollId: null });
    expect(turn(state)).toBe('B');
    state = next(state);
    expect(turn(state)).toBe('C');
    state = next(state);
    expect([state.cycle, turn(state)]).toEqual([2, 'Fast']);
  });

  it('removing whose turn it is passes it to the next; removing the last leaves the round done, and Next begins the next', () => {
    let state = next(tracker(MELEE_RULE, [['A', 12], ['B', 10], ['C', 8]]));
    state = removeCombatant(state, 'npc:A');
    expect([state.cycle, turn(state)]).toEqual([1, 'B']);
    state = next(state);
    state = removeCombatant(state, 'npc:C');
    expect([state.cycle, state.turn]).toEqual([1, null]);
    expect(turn(previousTurn(state))).toBe('B');
    state = next(state);
    expect([state.cycle, turn(state)]).toEqual([2, 'B']);
    // Removing someone else keeps the turn where it is.
    state = addCombatant(state, { key: 'npc:D', name: 'D', playerId: null, sheetId: null, source: VALUE, total: 1, dice: null, rollId: null });
    expect(turn(removeCombatant(state, 'npc:D'))).toBe('B');
  });

  it('a new chase position reorders; whose turn it is does not change', () => {
    let state = next(tracker(CHASE_RULE, [['Raider', 1], ['Troy', 2]]));
    state = changeInitiative(state, 'npc:Troy', { kind: 'position', position: 1 }, 1);
    state = changeInitiative(state, 'npc:Raider', { kind: 'position', position: 2 }, 2);
    expect(names(state)).toEqual(['Troy', 'Raider']);
    expect(turn(state)).toBe('Raider');
    expect(() => changeInitiative(tracker(DEBATE_RULE, [['A', 3]]), 'npc:A', VALUE, 5)).toThrow(/Rolled initiative cannot be set/);
  });

  it(`at most ${COMBATANTS_MAX} combatants, and one name once`, () => {
    const full = tracker(MELEE_RULE, Array.from({ length: COMBATANTS_MAX }, (_, index) => [`N${index}`, index] as [string, number]));
    expect(() => addCombatant(full, { key: 'npc:one more', name: 'One more', playerId: null, sheetId: null, source: VALUE, total: 1, dice: null, rollId: null })).toThrow(/most one tracker holds/);
    const one = tracker(MELEE_RULE, [['Orc', 3]]);
    expect(() => addCombatant(one, { key: 'npc:x', name: ' ORC ', playerId: null, sheetId: null, source: VALUE, total: 1, dice: null, rollId: null })).toThrow(/already a combatant named \*\*Orc\*\*/);
    expect(toldSync(() => addCombatant(one, { key: 'npc:Orc', name: 'Orc', playerId: null, sheetId: null, source: VALUE, total: 1, dice: null, rollId: null }))).toMatch(/already an NPC named/);
  });
});

describe('seed 004: Initiative rolled again at the beginning of each phase', () => {
  const rolled = (entries: Record<string, number>) => new Map(Object.entries(entries).map(([name, total]) => [`npc:${name}`, { total, dice: null, rollId: 'r' }]));

  it('after the last declaration Next asks for the new phase’s roll, and the new totals order it, lowest first', () => {
    let state = next(tracker(D10_PHASE_RULE, [['Leroy', 16], ['Earl', 21]]));
    expect([state.cycle, turn(state)]).toEqual([1, 'Leroy']);
    state = next(state);
    expect(turn(state)).toBe('Earl');
    expect(nextTurn(state)).toEqual({ rollFor: 2 });
    state = beginRolledCycle(state, 2, rolled({ Leroy: 18, Earl: 12 }));
    expect([state.cycle, turn(state)]).toEqual([2, 'Earl']);
    expect(names(state)).toEqual(['Earl', 'Leroy']);
  });

  it('Previous looks one phase back, with that phase’s order; Next returns without rolling again; two phases back is refused', () => {
    let state = next(next(tracker(D10_PHASE_RULE, [['Leroy', 16], ['Earl', 21]])));
    state = beginRolledCycle(state, 2, rolled({ Leroy: 18, Earl: 12 }));
    state = previousTurn(state);
    expect([state.cycle, turn(state)]).toEqual([1, 'Earl']);
    expect(names(state)).toEqual(['Leroy', 'Earl']);
    state = next(state);
    expect([state.cycle, turn(state)]).toEqual([2, 'Earl']);
    state = next(state);
    state = beginRolledCycle(state, 3, rolled({ Leroy: 5, Earl: 9 }));
    expect([state.cycle, turn(state)]).toEqual([3, 'Leroy']);
    state = previousTurn(state);
    expect([state.cycle, turn(state)]).toEqual([2, 'Leroy']);
    state = previousTurn(state);
    expect([state.cycle, turn(state)]).toEqual([2, 'Earl']);
    expect(() => previousTurn(state)).toThrow(/no longer kept: Previous goes back one phase/);
  });

  it('a newcomer while the tracker looks a phase back is rolled for the latest phase and waits for it', () => {
    let state = next(next(tracker(D10_PHASE_RULE, [['Leroy', 16], ['Earl', 21]])));
    state = previousTurn(beginRolledCycle(state, 2, rolled({ Leroy: 18, Earl: 12 })));
    state = addCombatant(state, { key: 'npc:Bartender', name: 'Bartender', playerId: null, sheetId: null, source: { kind: 'pool', dice: 1, modifier: 0 }, total: 3, dice: null, rollId: 'b' });
    expect(names(state)).toEqual(['Leroy', 'Earl']);
    expect(names(next(state))).toEqual(['Bartender', 'Earl', 'Leroy']);
  });

  it('phases of 3 s: a round is 2 phases, a turn 2 rounds, a minute 10 rounds', () => {
    expect(phaseClock(1)).toEqual({ phase: 1, round: 1, turn: 1, startsAt: 0 });
    expect(phaseClock(2)).toEqual({ phase: 2, round: 1, turn: 1, startsAt: 3 });
    expect(phaseClock(4)).toEqual({ phase: 4, round: 2, turn: 1, startsAt: 9 });
    expect(phaseClock(5)).toEqual({ phase: 5, round: 3, turn: 2, startsAt: 12 });
    expect(phaseClock(20)).toMatchObject({ round: 10, turn: 5, startsAt: 57 });
  });
});
