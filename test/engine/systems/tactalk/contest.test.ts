import { describe, expect, it } from 'vitest';
import { rollD100 } from '../../../../src/engine/dice.js';
import { seededRng } from '../../../../src/engine/rng.js';
import {
  BOTH_FAIL_READING,
  ContestRefusal,
  applyContestAction,
  contestOdds,
  contestWinner,
  postContest,
  proposeContest,
  OPEN_PHASES,
  partsOf,
  resolveContestRoll,
  type ContestAction,
  type ContestActor,
  type ContestPhase,
  type ContestRole,
  type ContestState,
} from '../../../../src/engine/systems/tactalk/contest.js';
import { inWords, told } from '../../../helpers/contest-words.js';
import { scriptedD100 } from '../../../helpers/dice.js';

const kat: ContestActor = { userId: 'sasha', isDispatcher: false, name: 'Kat' };
const troy: ContestActor = { userId: 'mike', isDispatcher: false, name: 'Troy' };
const dispatcher: ContestActor = { userId: 'dee', isDispatcher: true, name: 'Dee' };
const bystander: ContestActor = { userId: 'eve', isDispatcher: false, name: 'Eve' };
const noDice = scriptedD100();
const STEP_PAST_TEXT = 'This step of the contest is already handled; nothing changed.';

function draft(addsOwnSkill = false): ContestState {
  return proposeContest({
    challengerId: 'sasha',
    opponentId: 'mike',
    challengerOperator: { id: 1, name: 'Kat' },
    intent: 'Disarm Troy',
    stakes: 'Troy is disarmed',
    addsOwnSkill,
  });
}

/** A contest whose opening message is in the channel. */
function proposed(addsOwnSkill = false): ContestState {
  return postContest(draft(addsOwnSkill));
}

function act(state: ContestState, actor: ContestActor, action: ContestAction, rng = noDice): ContestState {
  return inWords(() => applyContestAction(state, action, actor, rng));
}

/** The flow up to the skills step, with the given roles. */
function atSkills(katRole: ContestRole, troyRole: ContestRole, addsOwnSkill = false): ContestState {
  let state = act(proposed(addsOwnSkill), troy, { type: 'accept', stakes: 'Kat is kicked', operator: { id: 2, name: 'Troy' } });
  state = act(state, kat, { type: 'agree' });
  state = act(state, kat, { type: 'chooseRole', role: katRole });
  return act(state, troy, { type: 'chooseRole', role: troyRole });
}

function withSkills(state: ContestState, katSkill: number, troySkill: number): ContestState {
  let next = act(state, kat, { type: 'chooseSkill', skill: { name: 'CQC', level: katSkill }, conditionModifiers: [] });
  next = act(next, troy, { type: 'chooseSkill', skill: { name: 'Shotgun Handling', level: troySkill }, conditionModifiers: [] });
  return next;
}

function rollBoth(state: ContestState, katDie: number, troyDie: number): ContestState {
  const ready = act(state, kat, { type: 'ready' });
  return act(ready, troy, { type: 'ready' }, scriptedD100(katDie, troyDie));
}

describe('who wins a contest (RULES 1.6)', () => {
  it.each([
    [true, false, 'attacker', 'defender', 'challenger'],
    [false, true, 'attacker', 'defender', 'opponent'],
    [true, false, 'attacker', 'attacker', 'challenger'],
    [true, true, 'attacker', 'defender', 'opponent'],
    [false, false, 'attacker', 'defender', 'nobody'],
    [true, true, 'defender', 'attacker', 'challenger'],
    [false, false, 'defender', 'attacker', 'nobody'],
    [true, true, 'attacker', 'attacker', 'tie'],
    [false, false, 'attacker', 'attacker', 'tie'],
  ] as const)('challenger success %s, opponent success %s, roles %s/%s → %s', (cs, os, cr, or, winner) => {
    expect(contestWinner({ success: cs, role: cr }, { success: os, role: or }, BOTH_FAIL_READING)).toBe(winner);
  });

  it('both fail against a defender: nobody wins, the attacker’s intent fails and the defender’s outcome does not happen', () => {
    const state = rollBoth(withSkills(atSkills('attacker', 'defender'), 37, 35), 1, 1);
    expect(state.phase).toBe('resolved');
    expect(state.rounds[0]).toMatchObject({ challenger: { success: false }, opponent: { success: false }, winner: 'nobody' });
    // Two attackers who both fail tie, as when both succeed.
    expect(rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 1, 1)).toMatchObject({ phase: 'tied', rounds: [{ winner: 'tie' }] });
  });

  it('a round rolled before the reading changed replays as it was decided: both failing went to the defender', () => {
    const input = {
      challenger: { skill: { name: 'CQC', level: 37 }, role: 'attacker' as const, terms: [], challengeLevel: 35 },
      opponent: { skill: { name: 'Shotgun Handling', level: 35 }, role: 'defender' as const, terms: [], challengeLevel: 37 },
    };
    expect(resolveContestRoll({ ...input, bothFail: 'defender' }, scriptedD100(1, 1)).winner).toBe('opponent');
    expect(resolveContestRoll({ ...input, bothFail: 'nobody' }, scriptedD100(1, 1)).winner).toBe('nobody');
  });
});

describe('rolling a contest round', () => {
  it('uses each side’s skill as the other side’s CL, not its own (seed: Kat CQC 37 vs Troy Shotgun 35, both succeed → Troy)', () => {
    const state = rollBoth(withSkills(atSkills('attacker', 'defender'), 37, 35), 40, 50);
    expect(state.phase).toBe('resolved');
    const round = state.rounds[0]!;
    expect(round.challenger).toMatchObject({ challengeLevel: 35, result: 40, success: true });
    expect(round.opponent).toMatchObject({ challengeLevel: 37, result: 50, success: true });
    expect(round.winner).toBe('opponent');
  });

  it('adds archetype, condition and situational modifiers to the side’s own roll', () => {
    let state = withSkills(atSkills('attacker', 'defender'), 37, 35);
    state = act(state, dispatcher, { type: 'setModifiers', side: 'challenger', archetypeModifiers: [{ name: 'Dexterity', value: 10 }], situationalModifier: -3 });
    const round = rollBoth(state, 20, 1).rounds[0]!;
    expect(round.challenger).toMatchObject({ result: 27, success: false });
  });

  it('with the house rule contest_adds_own_skill, adds the side’s own skill as well', () => {
    const round = rollBoth(withSkills(atSkills('attacker', 'defender', true), 37, 35), 10, 10).rounds[0]!;
    expect(round.challenger).toMatchObject({ result: 47, challengeLevel: 35, success: true });
    expect(round.opponent).toMatchObject({ result: 45, challengeLevel: 37, success: true });
  });

  it('a tie between two attackers waits for both to want another round, with skills not used before', () => {
    let state = rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 90, 90);
    expect(state.phase).toBe('tied');
    state = act(state, kat, { type: 'anotherRound' });
    expect(state.phase).toBe('tied');
    state = act(state, troy, { type: 'anotherRound' });
    expect(state.phase).toBe('skills');
    expect(state.challenger.skill).toBeNull();
    expect(() => act(state, kat, { type: 'chooseSkill', skill: { name: 'cqc', level: 37 }, conditionModifiers: [] })).toThrow(/already rolled in this contest/);
  });

  it('a tie is accepted only when both players accept it (seed: "accept the tie and mutually decide on the outcome")', () => {
    const tied = rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 1, 1);
    const one = act(tied, troy, { type: 'acceptTie' });
    expect(one).toMatchObject({ phase: 'tied', opponent: { tieChoice: 'accept' }, challenger: { tieChoice: null } });
    expect(() => act(one, troy, { type: 'acceptTie' })).toThrow('You already accept the tie; waiting for Kat.');
    const both = act(one, kat, { type: 'acceptTie' });
    expect(told(both)).toMatchObject({ phase: 'ended', endReason: 'Kat and Troy accepted the tie: the players decide the outcome together.' });
  });

  it('after a tie a player may change their choice until both agree; a disagreement keeps the tie open', () => {
    const tied = rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 1, 1);
    const disagree = act(act(tied, kat, { type: 'acceptTie' }), troy, { type: 'anotherRound' });
    expect(disagree).toMatchObject({ phase: 'tied', challenger: { tieChoice: 'accept' }, opponent: { tieChoice: 'another' } });
    // Kat changes her mind: her choice is replaced, Troy's is kept, and both now want another round.
    const round2 = act(disagree, kat, { type: 'anotherRound' });
    expect(round2.phase).toBe('skills');
    expect([round2.challenger.tieChoice, round2.opponent.tieChoice]).toEqual([null, null]);
    // Or Troy changes his: both accept.
    const accepted = act(disagree, troy, { type: 'acceptTie' });
    expect(accepted.phase).toBe('ended');
    expect(accepted.opponent.tieChoiceChanged).toBe(true);
    expect(accepted.challenger.tieChoiceChanged).toBeFalsy();
  });

  it('a tie that expires stays a tie with no outcome agreed, and says what each player had chosen', () => {
    const tied = act(rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 1, 1), kat, { type: 'acceptTie' });
    const expired = act(tied, bystander, { type: 'expire' });
    expect(expired).toMatchObject({ phase: 'expired', expiredAt: 'tied' });
    expect(told(expired).endReason).toBe('Nobody acted in time: the contest expired. The round stays a tie with no outcome agreed (Kat accepted the tie; Troy had not chosen).');
  });

  it('after 10 tied rounds, both asking for another stops the contest as a tie', () => {
    let state = atSkills('attacker', 'attacker');
    for (let round = 1; round <= 10; round++) {
      state = act(state, kat, { type: 'chooseSkill', skill: { name: `Kat skill ${round}`, level: 10 }, conditionModifiers: [] });
      state = act(state, troy, { type: 'chooseSkill', skill: { name: `Troy skill ${round}`, level: 10 }, conditionModifiers: [] });
      state = rollBoth(state, 90, 90);
      expect(state.phase).toBe('tied');
      state = act(act(state, kat, { type: 'anotherRound' }), troy, { type: 'anotherRound' });
    }
    expect(told(state)).toMatchObject({ phase: 'ended', endReason: 'After 10 tied rounds the contest stops as a tie: decide the outcome together.' });
  });

  it('a tie stored before both had to choose (wantsAnotherRound) still counts that choice', () => {
    const tied = rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 1, 1);
    const legacy: ContestState = { ...tied, challenger: { ...tied.challenger, tieChoice: undefined, wantsAnotherRound: true } };
    expect(act(legacy, troy, { type: 'anotherRound' }).phase).toBe('skills');
  });

  it('after both asked for another round, the tie may still be accepted instead of picking: by both, or by a side with no skill left alone', () => {
    const tied = rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 90, 90);
    const round2 = act(act(tied, kat, { type: 'anotherRound' }), troy, { type: 'anotherRound' });
    expect(round2.phase).toBe('skills');
    const one = act(round2, troy, { type: 'acceptTie' });
    expect(one).toMatchObject({ phase: 'skills', opponent: { tieChoice: 'accept' } });
    expect(told(act(one, kat, { type: 'acceptTie' }))).toMatchObject({ phase: 'ended', endReason: 'Kat and Troy accepted the tie: the players decide the outcome together.' });
    // Kat has no skill left that she has not rolled: her acceptance alone ends it, the contest cannot go on.
    const alone = act(round2, kat, { type: 'acceptTie', noSkillLeft: true });
    expect(alone.phase).toBe('ended');
    expect(told(alone).endReason).toBe('Kat has no skill left that was not rolled in this contest, so it cannot go on: Kat accepted the tie, which stands. The players decide the outcome together.');
    // Troy accepted but then both picked and were ready: the round is rolled, and the next tie starts with no choice.
    let played = act(one, kat, { type: 'chooseSkill', skill: { name: 'Climbing', level: 10 }, conditionModifiers: [] });
    played = act(played, troy, { type: 'chooseSkill', skill: { name: 'Athletics', level: 10 }, conditionModifiers: [] });
    played = rollBoth(played, 90, 90);
    expect(played).toMatchObject({ phase: 'tied', opponent: { tieChoice: null }, challenger: { tieChoice: null } });
    // Accepting a tie needs one: not in a first round.
    expect(() => act(withSkills(atSkills('attacker', 'attacker'), 37, 35), kat, { type: 'acceptTie' })).toThrow(STEP_PAST_TEXT);
  });

  it('a side with no skill left is told what it can do instead of being asked to pick one', () => {
    const tied = rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 90, 90);
    const help = 'Kat has no skill left that was not rolled in this contest (rolled: **CQC**), and a skill is never rolled twice in a contest. Add one to Kat\'s sheet with `/sheet skill set` and';
    expect(() => act(tied, kat, { type: 'anotherRound', noSkillLeft: true })).toThrow(`${help} press **Another round** again, or press **Accept the tie**: with no skill left, that ends the contest as a tie.`);
    const round2 = act(act(tied, kat, { type: 'anotherRound' }), troy, { type: 'anotherRound' });
    expect(() => act(round2, kat, { type: 'ready', noSkillLeft: true })).toThrow(`${help} press **Ready** again: the menu then offers it, or press **Accept the tie**`);
    expect(() => act(round2, kat, { type: 'ready' })).toThrow('Pick your skill in the menu first, then press Ready.');
  });

  it('both defenders end the contest before any skill is picked', () => {
    const state = atSkills('defender', 'defender');
    expect(state.phase).toBe('ended');
    expect(told(state).endReason).toContain('no reason for a contest');
  });

  it('replays a round from the same inputs and seed', () => {
    const input = {
      challenger: { skill: { name: 'CQC', level: 37 }, role: 'attacker' as const, terms: [], challengeLevel: 35 },
      opponent: { skill: { name: 'Shotgun Handling', level: 35 }, role: 'defender' as const, terms: [], challengeLevel: 37 },
    };
    expect(resolveContestRoll({ ...input, bothFail: 'nobody' }, seededRng('s'))).toEqual(resolveContestRoll({ ...input, bothFail: 'nobody' }, seededRng('s')));
  });
});

describe('the odds shown before the roll', () => {
  /** Counts all 100×100 pairs of D100 faces through the same resolution the roll uses. */
  function bruteForce(state: ContestState) {
    const counts = { challengerWins: 0n, opponentWins: 0n, tie: 0n, nobody: 0n, outOf: 10_000n };
    for (let c = 1; c <= 100; c++) {
      for (let o = 1; o <= 100; o++) {
        const ready = act(state, kat, { type: 'ready' });
        const round = act(ready, troy, { type: 'ready' }, scriptedD100(c, o)).rounds.at(-1)!;
        if (round.winner === 'challenger') counts.challengerWins++;
        else if (round.winner === 'opponent') counts.opponentWins++;
        else if (round.winner === 'nobody') counts.nobody++;
        else counts.tie++;
      }
    }
    return counts;
  }

  it.each([
    ['attacker', 'defender', 37, 35, 0, false],
    ['attacker', 'attacker', 37, 35, 0, false],
    ['defender', 'attacker', 80, 5, 12, false],
    ['attacker', 'defender', 37, 35, 0, true],
    ['attacker', 'attacker', 100, 0, -20, true],
  ] as const)('%s vs %s, skills %i and %i, modifier %i, own skill added %s: exact', (katRole, troyRole, katSkill, troySkill, modifier, ownSkill) => {
    let state = withSkills(atSkills(katRole, troyRole, ownSkill), katSkill, troySkill);
    state = act(state, dispatcher, { type: 'setModifiers', side: 'challenger', archetypeModifiers: [], situationalModifier: modifier });
    const odds = contestOdds(state)!;
    expect(odds).toEqual(bruteForce(state));
    expect(odds.challengerWins + odds.opponentWins + odds.tie + odds.nobody).toBe(10_000n);
  });
});

describe('the contest state machine refuses what a step does not accept', () => {
  const accept: ContestAction = { type: 'accept', stakes: 'x', operator: { id: 2, name: 'Troy' } };
  const actions: Array<[string, ContestAction]> = [
    ['accept', accept],
    ['decline', { type: 'decline' }],
    ['agree', { type: 'agree' }],
    ['withdraw', { type: 'withdraw' }],
    ['chooseRole', { type: 'chooseRole', role: 'attacker' }],
    ['chooseSkill', { type: 'chooseSkill', skill: { name: 'Driving', level: 10 }, conditionModifiers: [] }],
    ['ready', { type: 'ready' }],
    ['dispute', { type: 'dispute', side: 'opponent', skill: { name: 'Driving', level: 10 }, conditionModifiers: [] }],
    ['disputeLinked', { type: 'disputeLinked', side: 'opponent', parts: [{ skill: { name: 'Driving', level: 10 }, archetypeModifiers: [], conditionModifiers: [], situationalModifier: 0 }, { skill: { name: 'Handgun Handling', level: 20 }, archetypeModifiers: [], conditionModifiers: [], situationalModifier: 0 }] }],
    ['setModifiers', { type: 'setModifiers', side: 'opponent', archetypeModifiers: [], situationalModifier: 5 }],
    ['cancel', { type: 'cancel' }],
    ['anotherRound', { type: 'anotherRound' }],
    ['acceptTie', { type: 'acceptTie' }],
  ];
  /** What each step accepts, and from whom. */
  const accepted: Record<ContestPhase, string[]> = {
    draft: [],
    // The challenger may withdraw at every step before the dice first roll; a Dispatcher adjusts from the counter-terms on.
    proposed: ['accept', 'decline', 'withdraw', 'cancel'],
    countered: ['agree', 'withdraw', 'dispute', 'disputeLinked', 'setModifiers', 'cancel'],
    roles: ['chooseRole', 'withdraw', 'cancel'],
    skills: ['chooseSkill', 'ready', 'withdraw', 'dispute', 'disputeLinked', 'setModifiers', 'cancel'],
    tied: ['anotherRound', 'acceptTie', 'cancel'],
    resolved: [],
    ended: [],
    expired: [],
  };
  const states: Array<[ContestPhase, ContestState]> = [
    ['draft', draft()],
    ['proposed', proposed()],
    ['countered', act(proposed(), troy, accept)],
    ['roles', act(act(proposed(), troy, accept), kat, { type: 'agree' })],
    ['skills', withSkills(atSkills('attacker', 'defender'), 37, 35)],
    ['tied', rollBoth(withSkills(atSkills('attacker', 'attacker'), 37, 35), 90, 90)],
    ['resolved', rollBoth(withSkills(atSkills('attacker', 'defender'), 37, 35), 90, 90)],
    ['ended', act(proposed(), troy, { type: 'decline' })],
    ['expired', act(proposed(), bystander, { type: 'expire' })],
  ];

  for (const [phase, state] of states) {
    it(`in ${phase}: accepts only ${accepted[phase].join(', ') || 'nothing'}, and nothing from a bystander`, () => {
      expect(state.phase).toBe(phase);
      for (const [name, action] of actions) {
        const actors = [kat, troy, dispatcher];
        const anyoneMay = actors.some((actor) => {
          try {
            act(state, actor, action, scriptedD100(50, 50));
            return true;
          } catch (error) {
            expect(error, `${phase} / ${name}`).toBeInstanceOf(ContestRefusal);
            return false;
          }
        });
        expect(anyoneMay, `${phase} / ${name}`).toBe(accepted[phase].includes(name));
        if (name !== 'cancel') {
          expect(() => act(state, bystander, action, scriptedD100(50, 50)), `bystander ${phase} / ${name}`).toThrow(ContestRefusal);
        }
      }
      expect(() => act(state, { ...bystander }, { type: 'cancel' })).toThrow(ContestRefusal);
    });
  }

  it('refuses the wrong player: only the opponent answers, only the challenger agrees, only a Dispatcher disputes or cancels', () => {
    expect(() => act(proposed(), kat, accept)).toThrow(/Only the challenged player/);
    expect(() => act(act(proposed(), troy, accept), troy, { type: 'agree' })).toThrow(/Only the challenger/);
    const skills = withSkills(atSkills('attacker', 'defender'), 37, 35);
    expect(() => act(skills, kat, { type: 'dispute', side: 'opponent', skill: { name: 'Driving', level: 1 }, conditionModifiers: [] })).toThrow(/Only a Dispatcher/);
    expect(() => act(skills, troy, { type: 'cancel' })).toThrow(/Only a Dispatcher/);
  });

  it('a Dispatcher’s change makes both players confirm Ready again', () => {
    const ready = act(withSkills(atSkills('attacker', 'defender'), 37, 35), kat, { type: 'ready' });
    expect(ready.challenger.ready).toBe(true);
    const changed = act(ready, dispatcher, { type: 'setModifiers', side: 'opponent', archetypeModifiers: [], situationalModifier: 5 });
    expect(changed.challenger.ready).toBe(false);
    expect(told(changed).changes).toEqual(['Dee set Troy\'s modifiers: situational +5']);
  });

  it('a new contest is a draft until its message is posted: not open, nobody can act on it, and it is posted once', () => {
    const fresh = draft();
    expect(fresh.phase).toBe('draft');
    expect(OPEN_PHASES).not.toContain('draft');
    expect(() => act(fresh, troy, accept)).toThrow(/not posted yet/);
    const posted = postContest(fresh);
    expect(posted).toEqual({ ...fresh, phase: 'proposed' });
    expect(() => postContest(posted)).toThrow(ContestRefusal);
    expect(act(posted, troy, accept).phase).toBe('countered');
  });

  it('a draft left unposted expires as the proposal its message would show', () => {
    const expired = act(draft(), bystander, { type: 'expire' });
    expect(told(expired)).toMatchObject({ phase: 'expired', expiredAt: 'proposed', endReason: 'Nobody acted in time: the contest expired.' });
    expect(() => act(expired, bystander, { type: 'expire' })).toThrow(/over/);
  });

  it('refuses to contest yourself, and empty or overlong terms', () => {
    const base = { challengerOperator: { id: 1, name: 'Kat' }, intent: 'x', stakes: 'y', addsOwnSkill: false };
    expect(() => proposeContest({ ...base, challengerId: 'a', opponentId: 'a' })).toThrow(/cannot contest yourself/);
    expect(() => proposeContest({ ...base, challengerId: 'a', opponentId: 'b', intent: ' ' })).toThrow(/intent cannot be empty/);
    expect(() => proposeContest({ ...base, challengerId: 'a', opponentId: 'b', stakes: 'x'.repeat(501) })).toThrow(/at most 500 characters/);
  });

  it('the dice a seed gives are the ones the round shows', () => {
    const seed = 'round-seed';
    const rng = seededRng(seed);
    const dice = [rollD100(rng), rollD100(rng)];
    let state = act(withSkills(atSkills('attacker', 'defender'), 37, 35), kat, { type: 'ready' });
    state = act(state, troy, { type: 'ready' }, seededRng(seed));
    expect([state.rounds[0]!.challenger, state.rounds[0]!.opponent].flatMap(partsOf).map((part) => part.d100)).toEqual(dice);
  });
});
