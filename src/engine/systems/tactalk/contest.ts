/**
 * Contests between two Operators (RULES 1.6): the consent flow as a pure state machine, the resolution of a
 * round, and the exact odds of each outcome. The store persists the state; the command turns presses into
 * actions. Nothing here knows about Discord.
 */
import { UserError } from '../../../errors.js';
import { rollD100, type D100 } from '../../dice.js';
import { nameKey } from '../../names.js';
import type { Rng } from '../../rng.js';
import type { Modifier } from './challenge.js';

export type ContestSideName = 'challenger' | 'opponent';
export type ContestRole = 'attacker' | 'defender';
/**
 * `draft`: stored, its opening message not yet known to be in the channel. Not open: a contest nobody may have seen
 * must not take a player's open-contest slot, and a crash before its message is posted leaves only a draft behind.
 */
export type ContestPhase = 'draft' | 'proposed' | 'countered' | 'roles' | 'skills' | 'tied' | 'resolved' | 'ended' | 'expired';

export const CONTEST_LIMITS = {
  intentLength: 300,
  stakesLength: 500,
  openPerUser: 3,
  rounds: 10,
} as const;

export const OPEN_PHASES: readonly ContestPhase[] = ['proposed', 'countered', 'roles', 'skills', 'tied'];

export interface ContestSide {
  userId: string;
  /** The Operator taking part: the challenger's at the start, the opponent's once they accept. */
  operator: { id: number; name: string } | null;
  /** What happens to the other side if this side wins. */
  stakes: string;
  role: ContestRole | null;
  skill: { name: string; level: number } | null;
  /** Set when a Dispatcher replaced the skill this side picked. */
  disputed: boolean;
  archetypeModifiers: Modifier[];
  conditionModifiers: Modifier[];
  situationalModifier: number;
  ready: boolean;
  /** Skills rolled in earlier rounds of this contest: they cannot be chosen again. */
  usedSkills: string[];
  /** After a tie: this side wants another round. */
  wantsAnotherRound: boolean;
}

export interface ContestSideRoll {
  d100: D100;
  /** The other side's aptitude. */
  challengeLevel: number;
  result: number;
  success: boolean;
  /** The sum's terms (for the result embed): own skill (house rule only), archetypes, conditions, situational. */
  terms: Modifier[];
}

export interface ContestRound {
  number: number;
  rollId: string | null;
  challenger: ContestSideRoll & { skill: { name: string; level: number }; role: ContestRole };
  opponent: ContestSideRoll & { skill: { name: string; level: number }; role: ContestRole };
  winner: ContestSideName | 'tie';
}

export interface ContestState {
  phase: ContestPhase;
  intent: string;
  challenger: ContestSide;
  opponent: ContestSide;
  /** House rule `contest_adds_own_skill`: each side also adds its own aptitude to its roll. */
  addsOwnSkill: boolean;
  rounds: ContestRound[];
  /** Why the contest ended without a winner (declined, withdrawn, both defenders, cancelled, tie accepted). */
  endReason: string | null;
  /** What a Dispatcher changed, in order, shown on the message. */
  changes: string[];
  /** The step an expired contest was at, so its message can show that step's buttons, disabled. */
  expiredAt?: ContestPhase;
}

/** Who is acting on the contest. */
export interface ContestActor {
  userId: string;
  isDispatcher: boolean;
  name: string;
}

export type ContestAction =
  | { type: 'accept'; stakes: string; operator: { id: number; name: string } }
  | { type: 'decline' }
  | { type: 'agree' }
  | { type: 'withdraw' }
  | { type: 'chooseRole'; role: ContestRole }
  | { type: 'chooseSkill'; skill: { name: string; level: number }; conditionModifiers: Modifier[] }
  | { type: 'ready' }
  | { type: 'dispute'; side: ContestSideName; skill: { name: string; level: number }; conditionModifiers: Modifier[] }
  | { type: 'setModifiers'; side: ContestSideName; archetypeModifiers: Modifier[]; situationalModifier: number }
  | { type: 'cancel' }
  | { type: 'anotherRound' }
  | { type: 'acceptTie' }
  | { type: 'expire' };

/**
 * Why an action was refused. `notYours`: the actor may not do this (anyone else's press); `dispatcherOnly`: only a
 * Dispatcher may (the answer then says which role that takes on the server); `over`: the contest has ended;
 * `notNow`: this step is past (a late or double press); `invalid`: the actor may, but not with these values.
 */
export class ContestRefusal extends UserError {
  constructor(
    readonly reason: 'notYours' | 'dispatcherOnly' | 'over' | 'notNow' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

export function other(side: ContestSideName): ContestSideName {
  return side === 'challenger' ? 'opponent' : 'challenger';
}

function newSide(userId: string, operator: ContestSide['operator'], stakes: string): ContestSide {
  return {
    userId,
    operator,
    stakes,
    role: null,
    skill: null,
    disputed: false,
    archetypeModifiers: [],
    conditionModifiers: [],
    situationalModifier: 0,
    ready: false,
    usedSkills: [],
    wantsAnotherRound: false,
  };
}

export function checkContestText(what: 'intent' | 'stakes', text: string): string {
  const trimmed = text.trim();
  const max = what === 'intent' ? CONTEST_LIMITS.intentLength : CONTEST_LIMITS.stakesLength;
  if (trimmed.length === 0) throw new UserError(`The ${what} cannot be empty: say clearly what ${what === 'intent' ? 'you try to do' : 'happens'}.`);
  if (trimmed.length > max) throw new UserError(`The ${what} may be at most ${max} characters; yours has ${trimmed.length}.`);
  return trimmed;
}

/** A new contest, as a draft: `postContest` proposes it once its opening message is in the channel. */
export function proposeContest(input: {
  challengerId: string;
  opponentId: string;
  challengerOperator: { id: number; name: string };
  intent: string;
  stakes: string;
  addsOwnSkill: boolean;
}): ContestState {
  if (input.challengerId === input.opponentId) throw new UserError('You cannot contest yourself. Pick another player.');
  return {
    phase: 'draft',
    intent: checkContestText('intent', input.intent),
    challenger: newSide(input.challengerId, input.challengerOperator, checkContestText('stakes', input.stakes)),
    opponent: newSide(input.opponentId, null, ''),
    addsOwnSkill: input.addsOwnSkill,
    rounds: [],
    endReason: null,
    changes: [],
  };
}

/** The opening message is in the channel: the challenged player may now answer. */
export function postContest(state: ContestState): ContestState {
  if (state.phase !== 'draft') throw new ContestRefusal('notNow', 'This contest is already posted.');
  return { ...state, phase: 'proposed' };
}

/** Which side the actor plays, if any. */
export function sideOf(state: ContestState, userId: string): ContestSideName | null {
  if (state.challenger.userId === userId) return 'challenger';
  if (state.opponent.userId === userId) return 'opponent';
  return null;
}

const STEP_PAST = 'This step of the contest is already handled; nothing changed.';

function requireSide(state: ContestState, actor: ContestActor, only?: ContestSideName): ContestSideName {
  const side = sideOf(state, actor.userId);
  if (side === null) throw new ContestRefusal('notYours', 'This is not your contest; only its two players can press that.');
  if (only && side !== only) {
    throw new ContestRefusal('notYours', only === 'opponent' ? 'Only the challenged player can answer this.' : 'Only the challenger can answer this.');
  }
  return side;
}

function requireDispatcher(actor: ContestActor): void {
  if (!actor.isDispatcher) throw new ContestRefusal('dispatcherOnly', 'Only a Dispatcher can do that.');
}

function requirePhase(state: ContestState, ...phases: ContestPhase[]): void {
  if (state.phase === 'draft') throw new ContestRefusal('notNow', 'This contest is not posted yet; try again in a moment.');
  if (!OPEN_PHASES.includes(state.phase)) throw new ContestRefusal('over', 'This contest is over.');
  if (!phases.includes(state.phase)) throw new ContestRefusal('notNow', STEP_PAST);
}

function withSide(state: ContestState, side: ContestSideName, change: Partial<ContestSide>): ContestState {
  return { ...state, [side]: { ...state[side], ...change } };
}

function unready(state: ContestState): ContestState {
  return { ...state, challenger: { ...state.challenger, ready: false }, opponent: { ...state.opponent, ready: false } };
}

function end(state: ContestState, reason: string): ContestState {
  return { ...state, phase: 'ended', endReason: reason };
}

function assertSkillFree(side: ContestSide, skillName: string): void {
  if (side.usedSkills.some((used) => nameKey(used) === nameKey(skillName))) {
    throw new ContestRefusal('invalid', `**${skillName}** was already rolled in this contest; pick another skill.`);
  }
}

/**
 * One step of the flow. Returns the new state; rolls with `rng` when this action makes both sides ready.
 * Throws a ContestRefusal when the actor may not act, or not now: the caller then changes nothing.
 */
export function applyContestAction(state: ContestState, action: ContestAction, actor: ContestActor, rng: Rng): ContestState {
  switch (action.type) {
    case 'accept': {
      requireSide(state, actor, 'opponent');
      requirePhase(state, 'proposed');
      return { ...withSide(state, 'opponent', { operator: action.operator, stakes: checkContestText('stakes', action.stakes) }), phase: 'countered' };
    }
    case 'decline': {
      requireSide(state, actor, 'opponent');
      requirePhase(state, 'proposed');
      return end(state, `${actor.name} declined. The challenger must choose a different course of action.`);
    }
    case 'agree': {
      requireSide(state, actor, 'challenger');
      requirePhase(state, 'countered');
      return { ...state, phase: 'roles' };
    }
    case 'withdraw': {
      requireSide(state, actor, 'challenger');
      requirePhase(state, 'countered');
      return end(state, `${actor.name} did not agree to the terms. The challenger must choose a different course of action.`);
    }
    case 'chooseRole': {
      const side = requireSide(state, actor);
      requirePhase(state, 'roles');
      const next = withSide(state, side, { role: action.role });
      const { challenger, opponent } = next;
      if (challenger.role === null || opponent.role === null) return next;
      if (challenger.role === 'defender' && opponent.role === 'defender') {
        return end(next, 'Both players are defenders: there is no reason for a contest. The challenger must choose a different course of action.');
      }
      return { ...next, phase: 'skills' };
    }
    case 'chooseSkill': {
      const side = requireSide(state, actor);
      requirePhase(state, 'skills');
      if (state[side].disputed) throw new ContestRefusal('invalid', 'The Dispatcher chose your skill for this round; it stands.');
      assertSkillFree(state[side], action.skill.name);
      return unready(withSide(state, side, { skill: action.skill, conditionModifiers: action.conditionModifiers }));
    }
    case 'dispute': {
      requireDispatcher(actor);
      requirePhase(state, 'skills');
      assertSkillFree(state[action.side], action.skill.name);
      const before = state[action.side].skill;
      const who = state[action.side].operator?.name ?? action.side;
      const next = withSide(state, action.side, { skill: action.skill, conditionModifiers: action.conditionModifiers, disputed: true });
      return unready({
        ...next,
        changes: [...state.changes, `${actor.name} disputed ${who}'s skill: ${before ? `${before.name} ${before.level} → ` : ''}${action.skill.name} ${action.skill.level}`],
      });
    }
    case 'setModifiers': {
      requireDispatcher(actor);
      requirePhase(state, 'skills');
      const who = state[action.side].operator?.name ?? action.side;
      const terms = [...action.archetypeModifiers.map((modifier) => `${modifier.name} ${signedNumber(modifier.value)}`), ...(action.situationalModifier ? [`situational ${signedNumber(action.situationalModifier)}`] : [])];
      const next = withSide(state, action.side, { archetypeModifiers: action.archetypeModifiers, situationalModifier: action.situationalModifier });
      return unready({ ...next, changes: [...state.changes, `${actor.name} set ${who}'s modifiers: ${terms.length ? terms.join(', ') : 'none'}`] });
    }
    case 'cancel': {
      requireDispatcher(actor);
      requirePhase(state, 'proposed', 'countered', 'roles', 'skills', 'tied');
      return end(state, `Cancelled by the Dispatcher ${actor.name}.`);
    }
    case 'ready': {
      const side = requireSide(state, actor);
      requirePhase(state, 'skills');
      if (!state[side].skill) throw new ContestRefusal('invalid', 'Pick your skill first, then press Ready.');
      if (state[side].ready) throw new ContestRefusal('notNow', 'You are already ready; waiting for the other player.');
      const next = withSide(state, side, { ready: true });
      return next.challenger.ready && next.opponent.ready ? rollRound(next, rng) : next;
    }
    case 'anotherRound': {
      const side = requireSide(state, actor);
      requirePhase(state, 'tied');
      if (state[side].wantsAnotherRound) throw new ContestRefusal('notNow', 'You already asked for another round; waiting for the other player.');
      const next = withSide(state, side, { wantsAnotherRound: true });
      if (!(next.challenger.wantsAnotherRound && next.opponent.wantsAnotherRound)) return next;
      if (state.rounds.length >= CONTEST_LIMITS.rounds) {
        return end(next, `After ${CONTEST_LIMITS.rounds} tied rounds the contest stops as a tie: decide the outcome together.`);
      }
      const fresh = (s: ContestSide): ContestSide => ({ ...s, skill: null, disputed: false, archetypeModifiers: [], conditionModifiers: [], situationalModifier: 0, ready: false, wantsAnotherRound: false });
      return { ...next, phase: 'skills', challenger: fresh(next.challenger), opponent: fresh(next.opponent) };
    }
    case 'acceptTie': {
      requireSide(state, actor);
      requirePhase(state, 'tied');
      return end(state, `${actor.name} accepted the tie: the players decide the outcome together.`);
    }
    case 'expire': {
      // A draft may have been shown (a crash between its message and its posting): it expires as the proposal
      // that message shows.
      if (state.phase === 'draft') return { ...state, phase: 'expired', expiredAt: 'proposed', endReason: 'Nobody acted in time: the contest expired.' };
      requirePhase(state, ...OPEN_PHASES);
      return { ...state, phase: 'expired', expiredAt: state.phase, endReason: 'Nobody acted in time: the contest expired.' };
    }
  }
}

function signedNumber(value: number): string {
  return value < 0 ? `−${-value}` : `+${value}`;
}

/** The terms a side adds to its D100 (its own skill only under the house rule). */
export function rollTerms(state: ContestState, side: ContestSideName): Modifier[] {
  const own = state[side];
  return [
    ...(state.addsOwnSkill && own.skill ? [{ name: own.skill.name, value: own.skill.level }] : []),
    ...own.archetypeModifiers,
    ...own.conditionModifiers,
    ...(own.situationalModifier !== 0 ? [{ name: 'situational', value: own.situationalModifier }] : []),
  ];
}

/** What a side adds to its D100, and the CL it must reach (the other side's aptitude). */
export function sideTarget(state: ContestState, side: ContestSideName): { base: number; challengeLevel: number } {
  const theirs = state[other(side)].skill;
  return { base: rollTerms(state, side).reduce((sum, term) => sum + term.value, 0), challengeLevel: theirs?.level ?? 0 };
}

/** Both succeed or both fail: the single defender wins; two attackers tie. */
export function contestWinner(
  challenger: { success: boolean; role: ContestRole },
  opponent: { success: boolean; role: ContestRole },
): ContestSideName | 'tie' {
  if (challenger.success !== opponent.success) return challenger.success ? 'challenger' : 'opponent';
  if (challenger.role === 'defender' && opponent.role === 'attacker') return 'challenger';
  if (opponent.role === 'defender' && challenger.role === 'attacker') return 'opponent';
  return 'tie';
}

/** Everything a round's roll needs, as stored in the roll log: replaying it needs only this and the seed. */
export interface ContestRollSideInput {
  skill: { name: string; level: number };
  role: ContestRole;
  terms: Modifier[];
  challengeLevel: number;
}
export interface ContestRollInput {
  challenger: ContestRollSideInput;
  opponent: ContestRollSideInput;
}
export type ContestRollResult = Omit<ContestRound, 'number' | 'rollId'>;

export function contestRollInput(state: ContestState): ContestRollInput {
  const side = (name: ContestSideName): ContestRollSideInput => ({
    skill: state[name].skill!,
    role: state[name].role!,
    terms: rollTerms(state, name),
    challengeLevel: sideTarget(state, name).challengeLevel,
  });
  return { challenger: side('challenger'), opponent: side('opponent') };
}

/** Both sides roll at once: the challenger's D100 first, then the opponent's, from the one generator. */
export function resolveContestRoll(input: ContestRollInput, rng: Rng): ContestRollResult {
  const rollSide = (side: ContestRollSideInput) => {
    const d100 = rollD100(rng);
    const result = d100.value + side.terms.reduce((sum, term) => sum + term.value, 0);
    return { ...side, d100, result, success: result >= side.challengeLevel };
  };
  const challenger = rollSide(input.challenger);
  const opponent = rollSide(input.opponent);
  return { challenger, opponent, winner: contestWinner(challenger, opponent) };
}

function rollRound(state: ContestState, rng: Rng): ContestState {
  const rolled = resolveContestRoll(contestRollInput(state), rng);
  const round: ContestRound = { number: state.rounds.length + 1, rollId: null, ...rolled };
  const used = (side: ContestSide): ContestSide => ({ ...side, usedSkills: [...side.usedSkills, side.skill!.name] });
  return {
    ...state,
    phase: rolled.winner === 'tie' ? 'tied' : 'resolved',
    challenger: used(state.challenger),
    opponent: used(state.opponent),
    rounds: [...state.rounds, round],
  };
}

/** The exact chances of the current choices, in ten-thousandths (every pair of D100 faces counted once). */
export interface ContestOdds {
  challengerWins: number;
  opponentWins: number;
  tie: number;
}

function faces(base: number, challengeLevel: number): number {
  return Math.max(0, Math.min(100, 101 - Math.max(1, challengeLevel - base)));
}

export function contestOdds(state: ContestState): ContestOdds | null {
  const { challenger, opponent } = state;
  if (!challenger.skill || !opponent.skill || !challenger.role || !opponent.role) return null;
  const c = sideTarget(state, 'challenger');
  const o = sideTarget(state, 'opponent');
  const cFaces = faces(c.base, c.challengeLevel);
  const oFaces = faces(o.base, o.challengeLevel);
  const odds: ContestOdds = { challengerWins: 0, opponentWins: 0, tie: 0 };
  // The four (success, success) combinations, each weighted by how many face pairs give it.
  for (const cSuccess of [true, false]) {
    for (const oSuccess of [true, false]) {
      const pairs = (cSuccess ? cFaces : 100 - cFaces) * (oSuccess ? oFaces : 100 - oFaces);
      const winner = contestWinner({ success: cSuccess, role: challenger.role }, { success: oSuccess, role: opponent.role });
      if (winner === 'challenger') odds.challengerWins += pairs;
      else if (winner === 'opponent') odds.opponentWins += pairs;
      else odds.tie += pairs;
    }
  }
  return odds;
}
