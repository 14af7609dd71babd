// A contest side the Dispatcher made a Linked Challenge Roll (seed 000 "Resolving Contests": "or a Linked Challenge
// Roll should be made instead"; RULES 1.3 and 1.6): one D100 per skill, each against the other side's aptitude,
// each reported; the side succeeds only if every part does; the other side's CL is the linked side's highest
// aptitude. And the odds shown before the roll, exact over every way the dice can fall.
import { describe, expect, it } from 'vitest';
import { diceForD100, rollD100 } from '../../../../src/engine/dice.js';
import { rederive } from '../../../../src/engine/replay.js';
import { seededRng } from '../../../../src/engine/rng.js';
import {
  applyContestAction,
  contestOdds,
  contestRollInput,
  isLinkedRoll,
  postContest,
  proposeContest,
  resolveContestRoll,
  type ContestAction,
  type ContestActor,
  type ContestLinkedPart,
  type ContestRole,
  type ContestSideName,
  type ContestState,
  type ContestLinkedRoll,
  type ContestSingleRoll,
} from '../../../../src/engine/systems/tactalk/contest.js';
import { inWords, told } from '../../../helpers/contest-words.js';
import { scriptedD100 } from '../../../helpers/dice.js';

const kat: ContestActor = { userId: 'sasha', isDispatcher: false, name: 'Kat' };
const troy: ContestActor = { userId: 'mike', isDispatcher: false, name: 'Troy' };
const dee: ContestActor = { userId: 'dee', isDispatcher: true, name: 'Dee' };
const noDice = scriptedD100();

function act(state: ContestState, actor: ContestActor, action: ContestAction, rng = noDice): ContestState {
  return inWords(() => applyContestAction(state, action, actor, rng));
}

function part(name: string, level: number, extra: Partial<ContestLinkedPart> = {}): ContestLinkedPart {
  return { skill: { name, level }, archetypeModifiers: [], conditionModifiers: [], situationalModifier: 0, ...extra };
}

/** Kat (CQC 37) against Troy (CQC 40), at the skills step with the given roles. */
function atSkills(katRole: ContestRole, troyRole: ContestRole, addsOwnSkill = false): ContestState {
  let state = postContest(proposeContest({ challengerId: 'sasha', opponentId: 'mike', challengerOperator: { id: 1, name: 'Kat' }, intent: 'Stop the van', stakes: 'Troy crashes', addsOwnSkill }));
  state = act(state, troy, { type: 'accept', stakes: 'Kat is run over', operator: { id: 2, name: 'Troy' } });
  state = act(state, kat, { type: 'agree' });
  state = act(state, kat, { type: 'chooseRole', role: katRole });
  state = act(state, troy, { type: 'chooseRole', role: troyRole });
  state = act(state, kat, { type: 'chooseSkill', skill: { name: 'CQC', level: 37 }, conditionModifiers: [] });
  return act(state, troy, { type: 'chooseSkill', skill: { name: 'CQC', level: 40 }, conditionModifiers: [] });
}

/** The Dispatcher decides Troy must shoot and drive: Handgun Handling 40 and Driving 30, a linked roll. */
function troyLinked(state: ContestState, parts = [part('Handgun Handling', 40), part('Driving', 30)]): ContestState {
  return act(state, dee, { type: 'disputeLinked', side: 'opponent', parts });
}

function rollWith(state: ContestState, ...dice: number[]): ContestState {
  return act(act(state, kat, { type: 'ready' }), troy, { type: 'ready' }, scriptedD100(...dice));
}

describe('a linked side in a contest', () => {
  it('rolls one D100 per skill, in order, each against the other side’s aptitude; the other side’s CL is its highest aptitude', () => {
    // Kat's one D100 first (55), then Troy's parts: Handgun Handling 37 → success, Driving 20 → failure.
    const round = rollWith(troyLinked(atSkills('attacker', 'defender')), 55, 37, 20).rounds[0]!;
    const kat = round.challenger as ContestSingleRoll;
    const troy = round.opponent as ContestLinkedRoll;
    expect(kat).toMatchObject({ challengeLevel: 40, result: 55, success: true });
    expect(isLinkedRoll(troy)).toBe(true);
    expect(troy.linked).toEqual([
      expect.objectContaining({ skill: { name: 'Handgun Handling', level: 40 }, challengeLevel: 37, result: 37, success: true }),
      expect.objectContaining({ skill: { name: 'Driving', level: 30 }, challengeLevel: 37, result: 20, success: false }),
    ]);
    // The seed: "even though Troy failed his Linked Challenge Roll for Handgun Handling and Driving, because he succeeded
    // the Handgun Handling portion…": one failed part fails the linked roll, and the succeeded part is kept.
    expect(troy).toMatchObject({ succeeded: 1, success: false });
    expect(round.winner).toBe('challenger');
  });

  it('succeeds only when every part succeeds; then, as the defender, it wins a double success', () => {
    const round = rollWith(troyLinked(atSkills('attacker', 'defender')), 90, 37, 99).rounds[0]!;
    expect(round.opponent).toMatchObject({ succeeded: 2, success: true });
    expect(round.challenger.success).toBe(true);
    expect(round.winner).toBe('opponent');
  });

  it('adds to each part the side’s archetypes and situational modifier, the part’s own (an archetype named twice adds once), and the part skill’s conditions', () => {
    let state = troyLinked(atSkills('attacker', 'attacker'), [
      part('Handgun Handling', 40, { archetypeModifiers: [{ name: 'Acuity', value: 5 }, { name: 'Grit', value: 10 }], situationalModifier: -10 }),
      part('Driving', 30, { conditionModifiers: [{ name: 'Concussed', value: -5 }] }),
    ]);
    state = act(state, dee, { type: 'setModifiers', side: 'opponent', archetypeModifiers: [{ name: 'Grit', value: 10 }], situationalModifier: 3 });
    const troy = rollWith(state, 50, 50, 50).rounds[0]!.opponent as ContestLinkedRoll;
    expect(troy.linked[0]!.terms).toEqual([{ name: 'Grit', value: 10 }, { name: 'Acuity', value: 5 }, { name: 'situational', value: -7 }]);
    expect(troy.linked[0]!.result).toBe(58);
    expect(troy.linked[1]!.terms).toEqual([{ name: 'Grit', value: 10 }, { name: 'Concussed', value: -5 }, { name: 'situational', value: 3 }]);
    expect(troy.linked[1]!.result).toBe(58);
  });

  it('with the house rule contest_adds_own_skill, each part adds its own skill', () => {
    const troy = rollWith(troyLinked(atSkills('attacker', 'defender', true)), 1, 1, 1).rounds[0]!.opponent as ContestLinkedRoll;
    expect(troy.linked.map((one) => one.result)).toEqual([41, 31]);
    expect(troy.linked.map((one) => one.challengeLevel)).toEqual([37, 37]);
  });

  it('both sides may be linked: each side’s CL is the other’s highest aptitude', () => {
    let state = troyLinked(atSkills('attacker', 'attacker'));
    state = act(state, dee, { type: 'disputeLinked', side: 'challenger', parts: [part('CQC', 37), part('Climbing', 55), part('Stealth', 45)] });
    const round = rollWith(state, 60, 70, 80, 55, 54).rounds[0]!;
    expect((round.challenger as ContestLinkedRoll).linked.map((one) => [one.challengeLevel, one.success])).toEqual([[40, true], [40, true], [40, true]]);
    expect((round.opponent as ContestLinkedRoll).linked.map((one) => [one.challengeLevel, one.success])).toEqual([[55, true], [55, false]]);
    expect(round.winner).toBe('challenger');
  });

  it('marks every skill of the linked roll as used: none of them can be chosen again in a later round', () => {
    const tied = rollWith(troyLinked(atSkills('attacker', 'attacker')), 99, 99, 99);
    expect(tied.phase).toBe('tied');
    expect(tied.opponent.usedSkills).toEqual(['Handgun Handling', 'Driving']);
    const next = act(act(tied, kat, { type: 'anotherRound' }), troy, { type: 'anotherRound' });
    expect(next.opponent.linked).toBeNull();
    expect(() => act(next, troy, { type: 'chooseSkill', skill: { name: 'driving', level: 30 }, conditionModifiers: [] })).toThrow('**driving** was already rolled in this contest; pick another skill.');
    expect(() => troyLinked(next, [part('Athletics', 30), part('Handgun Handling', 40)])).toThrow('**Handgun Handling** was already rolled in this contest');
  });
});

describe('the Dispatcher makes a side linked', () => {
  it('shows the change, holds the side’s skill (the player cannot pick another) and makes both players press Ready again', () => {
    const ready = act(atSkills('attacker', 'defender'), troy, { type: 'ready' });
    const linked = troyLinked(ready);
    expect(told(linked).changes).toEqual(["Dee made Troy's roll a linked roll: CQC 40 → Handgun Handling 40 + Driving 30"]);
    expect(linked.opponent).toMatchObject({ skill: null, disputed: true, ready: false });
    expect(linked.challenger.ready).toBe(false);
    expect(() => act(linked, troy, { type: 'chooseSkill', skill: { name: 'CQC', level: 40 }, conditionModifiers: [] })).toThrow('The Dispatcher chose your skill for this round');
    // A single skill disputed afterwards replaces the linked roll.
    const single = act(linked, dee, { type: 'dispute', side: 'opponent', skill: { name: 'Athletics', level: 30 }, conditionModifiers: [] });
    expect(single.opponent).toMatchObject({ skill: { name: 'Athletics', level: 30 }, linked: null });
    expect(told(single).changes.at(-1)).toBe("Dee disputed Troy's skill: Handgun Handling 40 + Driving 30 → Athletics 30");
  });

  it('refuses fewer than 2 or more than 5 skills, a skill named twice, and a player making the change', () => {
    const state = atSkills('attacker', 'defender');
    expect(() => troyLinked(state, [part('Driving', 30)])).toThrow('A linked roll needs at least two skills');
    expect(() => troyLinked(state, ['A', 'B', 'C', 'D', 'E', 'F'].map((name) => part(name, 10)))).toThrow('at most 5 skills; this one has 6');
    expect(() => troyLinked(state, [part('Driving', 30), part('driving', 30)])).toThrow('**driving** is named twice in the linked roll');
    expect(() => act(state, troy, { type: 'disputeLinked', side: 'opponent', parts: [part('A', 1), part('B', 2)] })).toThrow('Only a Dispatcher');
  });
});

describe('the odds of a linked side, before the roll', () => {
  const DICE_OF = Array.from({ length: 101 }, (_, value) => diceForD100(value === 0 ? 100 : value));
  /** scriptedD100 without its per-call set-up: a million of them are rolled below. */
  function facesRng(values: number[]) {
    let draw = 0;
    return { int: () => (draw % 2 === 0 ? DICE_OF[values[draw++ >> 1]!]!.tens : DICE_OF[values[draw++ >> 1]!]!.ones) };
  }

  /** Every way the dice can fall (100^dice tuples), each through the same resolution the roll uses. */
  function bruteForce(state: ContestState, dice: number) {
    const counts = { challengerWins: 0n, opponentWins: 0n, tie: 0n, nobody: 0n, outOf: 100n ** BigInt(dice) };
    const input = contestRollInput(state);
    const values = new Array<number>(dice).fill(1);
    for (;;) {
      const { winner } = resolveContestRoll(input, facesRng(values));
      if (winner === 'challenger') counts.challengerWins++;
      else if (winner === 'opponent') counts.opponentWins++;
      else if (winner === 'nobody') counts.nobody++;
      else counts.tie++;
      let digit = 0;
      while (digit < dice && values[digit] === 100) values[digit++] = 1;
      if (digit === dice) return counts;
      values[digit]!++;
    }
  }

  it.each([
    ['opponent', 'attacker', 'defender', 0],
    ['opponent', 'attacker', 'attacker', -15],
    ['challenger', 'defender', 'attacker', 25],
  ] as const)('%s linked (2 skills), %s vs %s, situational %i: exact over all 100³ ways', (linkedSide: ContestSideName, katRole, troyRole, modifier) => {
    let state = atSkills(katRole, troyRole);
    state = act(state, dee, { type: 'disputeLinked', side: linkedSide, parts: [part('Handgun Handling', 40, { situationalModifier: modifier }), part('Driving', 30, { conditionModifiers: [{ name: 'Concussed', value: -5 }] })] });
    const odds = contestOdds(state)!;
    expect(odds).toEqual(bruteForce(state, 3));
    expect(odds.challengerWins + odds.opponentWins + odds.tie + odds.nobody).toBe(1_000_000n);
  });

  it('by hand: Troy linked (Handgun Handling 40, Driving 30, defender) against Kat (CQC 37, attacker)', () => {
    // Kat needs 40 (Troy's highest aptitude): 61 faces of 100. Each of Troy's parts needs 37: 64 faces, so both parts
    // 64 × 64 = 4096 of 10 000. Kat wins only when she succeeds and Troy fails: 61 × (10 000 − 4096) = 360 144 of 10^6.
    // Troy wins when he succeeds: 100 × 4096 = 409 600. Both fail: 39 × 5904 = 230 256, and nothing changes.
    const odds = contestOdds(troyLinked(atSkills('attacker', 'defender')))!;
    expect(odds).toEqual({ challengerWins: 360_144n, opponentWins: 409_600n, tie: 0n, nobody: 230_256n, outOf: 1_000_000n });
  });

  it('two linked sides of five skills: ten D100s, 10^20 ways, counted exactly', () => {
    let state = atSkills('attacker', 'attacker');
    const five = (prefix: string) => [1, 2, 3, 4, 5].map((n) => part(`${prefix} ${n}`, 20 + n));
    state = act(state, dee, { type: 'disputeLinked', side: 'challenger', parts: five('K') });
    state = act(state, dee, { type: 'disputeLinked', side: 'opponent', parts: five('T') });
    const odds = contestOdds(state)!;
    // Each part needs 25 (the other side's highest): 76 faces; five parts: 76^5 of 100^5 ways.
    const succeed = 76n ** 5n;
    const fail = 100n ** 5n - succeed;
    expect(odds).toEqual({ challengerWins: succeed * fail, opponentWins: fail * succeed, tie: succeed * succeed + fail * fail, nobody: 0n, outOf: 100n ** 10n });
  });
});

describe('replaying a linked contest roll', () => {
  it('the same inputs and seed give the same dice: the challenger’s first, then each part of the linked side', () => {
    const state = troyLinked(atSkills('attacker', 'defender'));
    const input = contestRollInput(state);
    expect(input.opponent).toEqual({
      role: 'defender',
      challengeLevel: 37,
      linked: [
        { skill: { name: 'Handgun Handling', level: 40 }, terms: [] },
        { skill: { name: 'Driving', level: 30 }, terms: [] },
      ],
    });
    const rng = seededRng('linked-seed');
    const dice = [rollD100(rng), rollD100(rng), rollD100(rng)].map(({ tens, ones }) => ({ tens, ones }));
    const replayed = rederive('contest', JSON.parse(JSON.stringify(input)), 'linked-seed');
    expect(replayed.dice).toEqual(dice);
    expect(replayed.result).toEqual(resolveContestRoll(input, seededRng('linked-seed')));
  });

  it('a round stored before linked sides existed (one skill a side) replays as it always did: two dice', () => {
    const stored = {
      contestId: 4,
      round: 1,
      challenger: { skill: { name: 'CQC', level: 37 }, role: 'attacker', terms: [], challengeLevel: 35 },
      opponent: { skill: { name: 'Shotgun Handling', level: 35 }, role: 'defender', terms: [], challengeLevel: 37 },
    };
    const rng = seededRng('old-seed');
    const [c, o] = [rollD100(rng), rollD100(rng)];
    const replayed = rederive('contest', stored, 'old-seed');
    expect(replayed.dice).toEqual([{ tens: c.tens, ones: c.ones }, { tens: o.tens, ones: o.ones }]);
    expect(replayed.result).toMatchObject({ challenger: { d100: c, success: c.value >= 35 }, opponent: { d100: o, success: o.value >= 37 } });
  });
});
