/**
 * Contests between two Operators (RULES 1.6): the consent flow as a pure state machine, the resolution of a
 * round, and the exact odds of each outcome. The store persists the state; the command turns presses into
 * actions. Nothing here knows about Discord.
 */
import { z } from 'zod';
import { UserError } from '../../../errors.js';
import { d100Schema, rollD100 } from '../../dice.js';
import { nameKey } from '../../names.js';
import type { Rng } from '../../rng.js';
import { modifierSchema, skillAptitudeSchema, type Modifier } from './challenge.js';

const contestSideNameSchema = z.enum(['challenger', 'opponent']);
export type ContestSideName = z.infer<typeof contestSideNameSchema>;
const contestRoleSchema = z.enum(['attacker', 'defender']);
export type ContestRole = z.infer<typeof contestRoleSchema>;
/**
 * `draft`: stored, its opening message not yet known to be in the channel. Not open: a contest nobody may have seen
 * must not take a player's open-contest slot, and a crash before its message is posted leaves only a draft behind.
 */
const contestPhaseSchema = z.enum(['draft', 'proposed', 'countered', 'roles', 'skills', 'tied', 'resolved', 'ended', 'expired']);
export type ContestPhase = z.infer<typeof contestPhaseSchema>;

export const CONTEST_LIMITS = {
  intentLength: 300,
  stakesLength: 500,
  openPerUser: 3,
  rounds: 10,
  /** Skills in one side's linked roll: each part is a line of that side's field on the message, which has room for 5. */
  linkedParts: 5,
} as const;

export const OPEN_PHASES: readonly ContestPhase[] = ['proposed', 'countered', 'roles', 'skills', 'tied'];

/**
 * One skill of a side the Dispatcher made a Linked Challenge Roll (RULES 1.3 inside a contest): its own archetypes,
 * its conditions and its own modifier, added to the side's archetypes and situational modifier.
 */
const contestLinkedPartSchema = z.object({
  skill: skillAptitudeSchema,
  archetypeModifiers: z.array(modifierSchema),
  conditionModifiers: z.array(modifierSchema),
  situationalModifier: z.number(),
});
export type ContestLinkedPart = z.infer<typeof contestLinkedPartSchema>;

/** After a tie, what a player chose: both accept → the tie stands; both want another round → a new round. */
const tieChoiceSchema = z.enum(['accept', 'another']);
export type TieChoice = z.infer<typeof tieChoiceSchema>;

const contestSideSchema = z.object({
  userId: z.string(),
  /**
   * The player's name on the server when the contest began: the challenged player is named by it until they accept
   * and their Operator is known. Absent in contests stored before.
   */
  player: z.string().optional(),
  /** The Operator taking part: the challenger's at the start, the opponent's once they accept. */
  operator: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** What happens to the other side if this side wins. */
  stakes: z.string(),
  role: contestRoleSchema.nullable(),
  skill: skillAptitudeSchema.nullable(),
  /**
   * Set when the Dispatcher decided a Linked Challenge Roll should be made instead of this side's one skill: then
   * `skill` is null and the side rolls one D100 per part. Absent in contests stored before linked sides existed.
   */
  linked: z.array(contestLinkedPartSchema).nullable().optional(),
  /** Set when a Dispatcher replaced the skill this side picked (by another skill or by a linked roll). */
  disputed: z.boolean(),
  archetypeModifiers: z.array(modifierSchema),
  conditionModifiers: z.array(modifierSchema),
  situationalModifier: z.number(),
  ready: z.boolean(),
  /** Skills rolled in earlier rounds of this contest: they cannot be chosen again. */
  usedSkills: z.array(z.string()),
  /** After a tie: what this side chose, until both choose the same. */
  tieChoice: tieChoiceSchema.nullable().optional(),
  /** This side changed its choice after a tie at least once (the message says so: a choice never changes silently). */
  tieChoiceChanged: z.boolean().optional(),
  /** Contests stored before a tie needed both players' choice: true meant "another round". */
  wantsAnotherRound: z.boolean().optional(),
});
export type ContestSide = z.infer<typeof contestSideSchema>;

/** One D100 of a side: a side with one skill rolls one, a linked side one per skill. */
const contestPartRollSchema = z.object({
  skill: skillAptitudeSchema,
  /** The sum's terms (for the result embed): own skill (house rule only), archetypes, conditions, situational. */
  terms: z.array(modifierSchema),
  /** The other side's aptitude (its highest, when the other side is linked). */
  challengeLevel: z.number(),
  d100: d100Schema,
  result: z.number(),
  success: z.boolean(),
});
export type ContestPartRoll = z.infer<typeof contestPartRollSchema>;

const contestSingleRollSchema = contestPartRollSchema.extend({ role: contestRoleSchema });
export type ContestSingleRoll = z.infer<typeof contestSingleRollSchema>;

/** A linked side's roll: every part resolved on its own, in order; the side succeeds only if every part does. */
const contestLinkedRollSchema = z.object({
  role: contestRoleSchema,
  challengeLevel: z.number(),
  linked: z.array(contestPartRollSchema),
  succeeded: z.number(),
  success: z.boolean(),
});
export type ContestLinkedRoll = z.infer<typeof contestLinkedRollSchema>;

const contestSideRollSchema = z.union([contestLinkedRollSchema, contestSingleRollSchema]);
export type ContestSideRoll = z.infer<typeof contestSideRollSchema>;

export function isLinkedRoll(side: ContestSideRoll): side is ContestLinkedRoll {
  return 'linked' in side && Array.isArray(side.linked);
}

/** A side's dice, in the order they were rolled. */
export function partsOf(side: ContestSideRoll): ContestPartRoll[] {
  return isLinkedRoll(side) ? side.linked : [side];
}

const contestRoundSchema = z.object({
  number: z.number(),
  rollId: z.string().nullable(),
  /** The message the round's result was posted as (the contest message links to it); absent until it is posted. */
  resultMessageId: z.string().nullable().optional(),
  challenger: contestSideRollSchema,
  opponent: contestSideRollSchema,
  /**
   * `nobody`: both failed with a defender in the contest: the attacker's intent fails and the defender's stated outcome
   * does not happen either (RULES 1.6, reading revised). Rounds rolled before that reading gave it to the defender,
   * and are kept as they were decided.
   */
  winner: z.enum(['challenger', 'opponent', 'tie', 'nobody']),
});
export type ContestRound = z.infer<typeof contestRoundSchema>;
export type ContestWinner = ContestRound['winner'];

/**
 * How a round in which both sides fail is read when one side defends. The seed names a winner only when one or both
 * succeed, so since issue 23 nobody wins (`nobody`); rounds rolled before were read as a win for the defender
 * (`defender`): their stored rolls carry no reading and replay under that one, as they were decided.
 */
export type BothFailReading = 'nobody' | 'defender';
/** The reading new rounds are rolled under, stored with each round's roll. */
export const BOTH_FAIL_READING: BothFailReading = 'nobody';

/**
 * Why a contest ended without a winner, as data: its message words it (src/views/contest/words.ts). `by`: the name of
 * the one who acted, as it was then. The names of the sides, and the choices made after a tie, are read from the state.
 */
const contestEndSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('declined'), by: z.string() }),
  /** The challenger did not agree to the challenged player's terms. */
  z.object({ kind: z.literal('not-agreed'), by: z.string() }),
  z.object({ kind: z.literal('withdrew'), by: z.string() }),
  z.object({ kind: z.literal('both-defenders') }),
  z.object({ kind: z.literal('cancelled'), by: z.string() }),
  z.object({ kind: z.literal('tie-accepted') }),
  /** Both asked for another round after `rounds` tied rounds, the most a contest plays. */
  z.object({ kind: z.literal('tie-rounds'), rounds: z.number() }),
  /** A side with no skill left accepted the tie alone. */
  z.object({ kind: z.literal('no-skill-left'), side: contestSideNameSchema }),
  /** Nobody moved in time; `tied`: while the players chose after a tie. */
  z.object({ kind: z.literal('expired'), tied: z.boolean() }),
]);
export type ContestEnd = z.infer<typeof contestEndSchema>;

/**
 * Why both players must confirm again, as data: a player picked another skill, or the Dispatcher disputed a skill, made
 * a roll linked or changed modifiers (`who`: whose, by name). `byAgreeing`: the challenger had not agreed yet, and
 * confirms by agreeing. `cleared`: the sides that had confirmed.
 */
const contestNoticeSchema = z.object({
  kind: z.enum(['picked', 'disputed', 'linked', 'modifiers']),
  who: z.string(),
  /** The skill picked (`picked`). */
  skill: skillAptitudeSchema.optional(),
  byAgreeing: z.boolean(),
  cleared: z.array(contestSideNameSchema),
});
export type ContestNotice = z.infer<typeof contestNoticeSchema>;

/** One of a Dispatcher's changes, as data (`by`: the Dispatcher; `who`: whose roll), for the message's list of them. */
const contestChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('disputed'), by: z.string(), who: z.string(), before: z.array(skillAptitudeSchema), after: skillAptitudeSchema }),
  z.object({ kind: z.literal('linked'), by: z.string(), who: z.string(), before: z.array(skillAptitudeSchema), after: z.array(skillAptitudeSchema) }),
  z.object({ kind: z.literal('modifiers'), by: z.string(), who: z.string(), archetypes: z.array(modifierSchema), situational: z.number() }),
]);
export type ContestChange = z.infer<typeof contestChangeSchema>;

/** A contest as the store keeps it: every shape stored since contests began reads. */
export const contestStateSchema = z.object({
  phase: contestPhaseSchema,
  intent: z.string(),
  challenger: contestSideSchema,
  opponent: contestSideSchema,
  /** House rule `contest_adds_own_skill`: each side also adds its own aptitude to its roll. */
  addsOwnSkill: z.boolean(),
  rounds: z.array(contestRoundSchema),
  /**
   * Why the contest ended without a winner (declined, withdrawn, both defenders, cancelled, tie accepted). A sentence
   * in contests stored before it was data: shown as it is.
   */
  endReason: z.union([z.string(), contestEndSchema]).nullable(),
  /** What a Dispatcher changed, in order, shown on the message (sentences in contests stored before: shown as they are). */
  changes: z.array(z.union([z.string(), contestChangeSchema])),
  /** The step an expired contest was at, so its message can show that step's buttons, disabled. */
  expiredAt: contestPhaseSchema.optional(),
  /**
   * The roles are chosen privately (the challenger's with `/contest start`, the opponent's in the Accept form) and
   * shown only with the first roll, so neither choice can sway the other. Absent in contests stored before: those
   * chose roles openly on the message, which showed them once both had chosen.
   */
  secretRoles: z.boolean().optional(),
  /**
   * Why the players' confirmations were cleared, until they are given again: never cleared silently. A sentence in
   * contests stored before it was data: shown as it is.
   */
  notice: z.union([z.string(), contestNoticeSchema]).nullable().optional(),
});
export type ContestState = z.infer<typeof contestStateSchema>;

/** What a player chooses in one go: their role, their skill (with its conditions) and the archetypes they add. */
export interface ContestChoice {
  role: ContestRole;
  skill: { name: string; level: number };
  conditionModifiers: Modifier[];
  archetypeModifiers: Modifier[];
}

/** Who is acting on the contest. */
export interface ContestActor {
  userId: string;
  isDispatcher: boolean;
  name: string;
}

/** The moves made by a press alone, with no values to give: the button is the whole move. */
const PLAIN_MOVES = ['decline', 'agree', 'withdraw', 'cancel', 'ready', 'anotherRound', 'acceptTie'] as const;
export type PlainMove = (typeof PLAIN_MOVES)[number];

/** The plain moves that need to know whether the presser's sheet has a skill left to pick (`noSkillLeft`). */
export const READS_SKILLS_LEFT: readonly PlainMove[] = ['ready', 'anotherRound', 'acceptTie'];

export type ContestAction =
  | { type: 'accept'; stakes: string; operator: { id: number; name: string }; choice?: ContestChoice }
  /** `noSkillLeft`: the presser's sheet has no skill not yet rolled in this contest (read by the command at the press). */
  | { type: PlainMove; noSkillLeft?: boolean }
  | { type: 'chooseRole'; role: ContestRole }
  | { type: 'chooseSkill'; skill: { name: string; level: number }; conditionModifiers: Modifier[]; archetypeModifiers?: Modifier[] }
  | { type: 'dispute'; side: ContestSideName; skill: { name: string; level: number }; conditionModifiers: Modifier[] }
  | { type: 'disputeLinked'; side: ContestSideName; parts: ContestLinkedPart[] }
  | { type: 'setModifiers'; side: ContestSideName; archetypeModifiers: Modifier[]; situationalModifier: number }
  | { type: 'expire' };

/**
 * What a contest refuses, as data: src/views/contest/words.ts words it (`contestRefusalText`). Names are as the words
 * need them, taken when refused.
 */
export type ContestRefusalData =
  /** The presser plays neither side. */
  | { kind: 'not-a-player' }
  /** Only `side` answers this step. */
  | { kind: 'only-side'; side: ContestSideName }
  /** Only a Dispatcher may; `adjust`: the press was the Dispatcher's form. */
  | { kind: 'dispatcher-only'; adjust: boolean }
  | { kind: 'not-posted' }
  | { kind: 'already-posted' }
  | { kind: 'over' }
  /** This step is past (a late or double press). */
  | { kind: 'step-past' }
  /** Withdrawing after the dice rolled. */
  | { kind: 'dice-rolled' }
  /** The challenger confirms by agreeing. */
  | { kind: 'agree-instead' }
  | { kind: 'pick-skill-first' }
  | { kind: 'already-ready' }
  /** After a tie, the choice this side already made; `other`: the other side, by name. */
  | { kind: 'already-chose'; choice: TieChoice; other: string }
  /** A side whose sheet has no skill it has not rolled: `next` is what it pressed, `instead` what else it can do. */
  | { kind: 'no-skill-left'; who: string; rolled: string[]; next: 'another' | 'ready'; instead: 'accept-tie' | 'withdraw' | null }
  | { kind: 'skill-set-by-dispatcher' }
  | { kind: 'skill-rolled'; skill: string }
  | { kind: 'linked-too-few' }
  | { kind: 'linked-too-many'; most: number; count: number }
  | { kind: 'linked-twice'; skill: string }
  /** A side's skill menu, pressed by someone else; `owner`: that side's Operator, when known. */
  | { kind: 'not-your-menu'; owner: string | null }
  /** A side's sheet was deleted; `operator`: its name, when known. */
  | { kind: 'sheet-gone'; operator: string | null }
  /** The Dispatcher's form before both skills are known, or once the dice rolled; `over`: the contest has ended. */
  | { kind: 'not-adjustable'; over: boolean };

export type ContestRefusalKind = ContestRefusalData['kind'];

/**
 * Why, in a word, for whoever answers. `notYours`: the actor may not do this (anyone else's press); `dispatcherOnly`:
 * only a Dispatcher may (the answer then says which role that takes on the server); `over`: the contest has ended;
 * `notNow`: this step is past (a late or double press); `invalid`: the actor may, but not with these values.
 */
export type ContestRefusalReason = 'notYours' | 'dispatcherOnly' | 'over' | 'notNow' | 'invalid';

function reasonOf(refusal: ContestRefusalData): ContestRefusalReason {
  switch (refusal.kind) {
    case 'not-a-player':
    case 'only-side':
    case 'not-your-menu':
      return 'notYours';
    case 'dispatcher-only':
      return 'dispatcherOnly';
    case 'over':
      return 'over';
    case 'not-adjustable':
      return refusal.over ? 'over' : 'notNow';
    case 'not-posted':
    case 'already-posted':
    case 'step-past':
    case 'dice-rolled':
    case 'agree-instead':
    case 'already-ready':
    case 'already-chose':
      return 'notNow';
    case 'pick-skill-first':
    case 'no-skill-left':
    case 'skill-set-by-dispatcher':
    case 'skill-rolled':
    case 'linked-too-few':
    case 'linked-too-many':
    case 'linked-twice':
    case 'sheet-gone':
      return 'invalid';
  }
}

/** A refusal on its way to the user: its message is for logs; the user reads the view's words. */
export class ContestRefusal extends UserError {
  readonly reason: ContestRefusalReason;

  constructor(readonly refusal: ContestRefusalData) {
    super(`contest refused: ${JSON.stringify(refusal)}`);
    this.reason = reasonOf(refusal);
  }
}

export function other(side: ContestSideName): ContestSideName {
  return side === 'challenger' ? 'opponent' : 'challenger';
}

function newSide(userId: string, operator: ContestSide['operator'], stakes: string, player?: string): ContestSide {
  return {
    userId,
    ...(player ? { player } : {}),
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
    tieChoice: null,
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
  /** The players' names on the server, to name the challenged player before their Operator is known. */
  challengerName?: string;
  opponentName?: string;
  intent: string;
  stakes: string;
  addsOwnSkill: boolean;
  /** The challenger's role, skill and archetypes, chosen with `/contest start`. */
  choice?: ContestChoice;
}): ContestState {
  if (input.challengerId === input.opponentId) throw new UserError('You cannot contest yourself. Pick another player.');
  const challenger = newSide(input.challengerId, input.challengerOperator, checkContestText('stakes', input.stakes), input.challengerName);
  return {
    phase: 'draft',
    intent: checkContestText('intent', input.intent),
    challenger: input.choice ? withChoice(challenger, input.choice) : challenger,
    opponent: newSide(input.opponentId, null, '', input.opponentName),
    addsOwnSkill: input.addsOwnSkill,
    rounds: [],
    endReason: null,
    changes: [],
    ...(input.choice ? { secretRoles: true } : {}),
  };
}

function withChoice(side: ContestSide, choice: ContestChoice): ContestSide {
  return { ...side, role: choice.role, skill: choice.skill, conditionModifiers: choice.conditionModifiers, archetypeModifiers: choice.archetypeModifiers };
}

/** Whether the roles are still secret: chosen privately and no round rolled yet (RULES 1.6 reading: see `secretRoles`). */
export function rolesSecret(state: ContestState): boolean {
  return state.secretRoles === true && state.rounds.length === 0 && !['ended', 'expired'].includes(state.phase);
}

/**
 * Who must act for the contest to go on: the challenged player to answer, the challenger to agree, each player who
 * has not chosen a role or confirmed, each player who has not chosen after a tie (both, when they disagree).
 */
export function waitingOn(state: ContestState): ContestSideName[] {
  const sides = ['challenger', 'opponent'] as const;
  switch (state.phase) {
    case 'proposed':
      return ['opponent'];
    case 'countered':
      return state.opponent.ready || chosenSkills(state.opponent).length === 0 ? ['challenger'] : ['challenger', 'opponent'];
    case 'roles':
      return sides.filter((side) => state[side].role === null);
    case 'skills': {
      // After a tie a player may accept it instead of picking a skill: then they wait for the other.
      const open = sides.filter((side) => !state[side].ready && tieChoiceOf(state[side]) !== 'accept');
      // One is ready, the other accepts the tie: they disagree, and either may give in.
      return open.length ? open : [...sides];
    }
    case 'tied': {
      const open = sides.filter((side) => tieChoiceOf(state[side]) === null);
      return open.length ? open : [...sides];
    }
    default:
      return [];
  }
}

/** The opening message is in the channel: the challenged player may now answer. */
export function postContest(state: ContestState): ContestState {
  if (state.phase !== 'draft') throw new ContestRefusal({ kind: 'already-posted' });
  return { ...state, phase: 'proposed' };
}

/** Which side the actor plays, if any. */
export function sideOf(state: ContestState, userId: string): ContestSideName | null {
  if (state.challenger.userId === userId) return 'challenger';
  if (state.opponent.userId === userId) return 'opponent';
  return null;
}

/** A Dispatcher adjusts once both sides' skills are known and until the dice roll: before the challenger agrees, or while confirming. */
export const ADJUSTABLE: readonly ContestPhase[] = ['countered', 'skills'];

function bothConfirmed(state: ContestState): boolean {
  const { challenger, opponent } = state;
  return challenger.ready && opponent.ready && chosenSkills(challenger).length > 0 && chosenSkills(opponent).length > 0;
}

/** Why the contest refuses a move at its step now; null when the step takes it. */
function phaseRefusal(state: ContestState, phases: readonly ContestPhase[]): ContestRefusalData | null {
  if (state.phase === 'draft') return { kind: 'not-posted' };
  if (!OPEN_PHASES.includes(state.phase)) return { kind: 'over' };
  return phases.includes(state.phase) ? null : { kind: 'step-past' };
}

function withSide(state: ContestState, side: ContestSideName, change: Partial<ContestSide>): ContestState {
  return { ...state, [side]: { ...state[side], ...change } };
}

function unready(state: ContestState): ContestState {
  return { ...state, challenger: { ...state.challenger, ready: false }, opponent: { ...state.opponent, ready: false } };
}

/**
 * A change that alters the odds clears both confirmations, and says so and why: a confirmation never vanishes
 * silently. Before the challenger agreed, their Agree is their confirmation.
 */
function confirmAgain(state: ContestState, why: Pick<ContestNotice, 'kind' | 'who' | 'skill'>): ContestState {
  const cleared = (['challenger', 'opponent'] as const).filter((side) => state[side].ready);
  return { ...unready(state), notice: { ...why, byAgreeing: state.phase === 'countered', cleared } };
}

function end(state: ContestState, reason: ContestEnd): ContestState {
  return { ...state, phase: 'ended', endReason: reason };
}

function assertSkillFree(side: ContestSide, skillName: string): void {
  if (side.usedSkills.some((used) => nameKey(used) === nameKey(skillName))) throw new ContestRefusal({ kind: 'skill-rolled', skill: skillName });
}

/** The skills a side rolls this round: its one skill, or its linked roll's skills in order. */
export function chosenSkills(side: ContestSide): { name: string; level: number }[] {
  if (side.linked) return side.linked.map((part) => part.skill);
  return side.skill ? [side.skill] : [];
}

/**
 * The aptitude a side tells the other, which is the Challenge Level of the other side's roll (RULES 1.6). A linked
 * side tells the highest of its skills: the other side's one roll must overcome the whole complex action, each skill
 * it is made of, as the linked side must succeed at every part.
 */
export function aptitudeOf(side: ContestSide): number | null {
  const skills = chosenSkills(side);
  return skills.length ? Math.max(...skills.map((skill) => skill.level)) : null;
}

/** A linked roll in a contest: 2 to 5 skills, each once, none rolled in an earlier round. */
function checkLinkedParts(side: ContestSide, parts: ContestLinkedPart[]): void {
  if (parts.length < 2) throw new ContestRefusal({ kind: 'linked-too-few' });
  if (parts.length > CONTEST_LIMITS.linkedParts) throw new ContestRefusal({ kind: 'linked-too-many', most: CONTEST_LIMITS.linkedParts, count: parts.length });
  const seen = new Set<string>();
  for (const part of parts) {
    const key = nameKey(part.skill.name);
    if (seen.has(key)) throw new ContestRefusal({ kind: 'linked-twice', skill: part.skill.name });
    seen.add(key);
    assertSkillFree(side, part.skill.name);
  }
}

/**
 * A side in words: its Operator's name, else (the challenged player, before they accept) the player's name, else, in a
 * contest stored before players' names were kept, its part in the contest.
 */
export function sideName(state: ContestState, side: ContestSideName): string {
  return state[side].operator?.name ?? state[side].player ?? (side === 'challenger' ? 'the challenger' : 'the challenged player');
}

/** Whether a later round may be asked for or picked in: the last round was a tie between two attackers. */
function afterTie(state: ContestState): boolean {
  return state.rounds.at(-1)?.winner === 'tie';
}

/** A side whose sheet has no skill it has not rolled in this contest, and what it can do instead. */
function noSkillLeft(state: ContestState, side: ContestSideName, next: 'another' | 'ready'): ContestRefusalData {
  // After a tie the tie can be accepted; before the dice first roll (a contest of the previous version picking its
  // first skills on the message) the challenger can still withdraw.
  const instead = afterTie(state) ? 'accept-tie' : side === 'challenger' && state.rounds.length === 0 ? 'withdraw' : null;
  return { kind: 'no-skill-left', who: sideName(state, side), rolled: state[side].usedSkills, next, instead };
}

/** What a side chose after a tie; a contest stored before both had to choose knew only "another round". */
export function tieChoiceOf(side: ContestSide): TieChoice | null {
  return side.tieChoice ?? (side.wantsAnotherRound ? 'another' : null);
}

/** A move before its values are known: an action's type, or the Dispatcher's form as a whole (`adjust`). */
export type ContestMove = ContestAction['type'] | 'adjust';

/** Whether the Dispatcher may adjust: once both skills are known (both sides' sheets with them), until the dice roll. */
function adjustable(state: ContestState): boolean {
  // A side the Dispatcher made a linked roll has no one skill: its parts are its skills.
  const known = state.challenger.operator && state.opponent.operator && (state.phase !== 'countered' || (chosenSkills(state.challenger).length > 0 && chosenSkills(state.opponent).length > 0));
  return ADJUSTABLE.includes(state.phase) && Boolean(known);
}

/**
 * Whether `actor` may make this move on the contest as it is now: null when they may, else why not. It answers who
 * may press, and when, and what the state allows (a side whose skill the Dispatcher set picks none), before a form
 * asks for the values; the values an action carries (a skill rolled before, a linked roll's parts, the stakes) are
 * checked when it is applied. An action's `noSkillLeft` (read from the presser's sheet) is taken into account.
 */
export function contestRefusal(state: ContestState, actor: ContestActor, move: ContestMove | ContestAction): ContestRefusalData | null {
  const type = typeof move === 'string' ? move : move.type;
  const skillLeft = !(typeof move === 'object' && 'noSkillLeft' in move && move.noSkillLeft);
  const side = sideOf(state, actor.userId);
  const player = (only?: ContestSideName): ContestRefusalData | null =>
    side === null ? { kind: 'not-a-player' } : only && side !== only ? { kind: 'only-side', side: only } : null;
  const dispatcher = (adjust = false): ContestRefusalData | null => (actor.isDispatcher ? null : { kind: 'dispatcher-only', adjust });
  const at = (...phases: ContestPhase[]) => phaseRefusal(state, phases);
  switch (type) {
    case 'accept':
    case 'decline':
      return player('opponent') ?? at('proposed');
    case 'agree':
      return player('challenger') ?? at('countered');
    case 'withdraw':
      return player('challenger') ?? at('proposed', 'countered', 'roles', 'skills') ?? (state.rounds.length > 0 ? { kind: 'dice-rolled' } : null);
    case 'chooseRole':
      return player() ?? at('roles');
    case 'chooseSkill':
      return player() ?? at('skills') ?? (state[side!].disputed ? { kind: 'skill-set-by-dispatcher' } : null);
    case 'dispute':
    case 'disputeLinked':
    case 'setModifiers':
      return dispatcher() ?? at(...ADJUSTABLE);
    case 'adjust':
      return dispatcher(true) ?? (adjustable(state) ? null : { kind: 'not-adjustable', over: !OPEN_PHASES.includes(state.phase) });
    case 'cancel':
      return dispatcher() ?? at(...OPEN_PHASES);
    case 'ready': {
      const refused = player() ?? at('countered', 'skills');
      if (refused) return refused;
      if (state.phase === 'countered' && side === 'challenger') return { kind: 'agree-instead' };
      if (chosenSkills(state[side!]).length === 0) return skillLeft ? { kind: 'pick-skill-first' } : noSkillLeft(state, side!, 'ready');
      return state[side!].ready ? { kind: 'already-ready' } : null;
    }
    case 'anotherRound':
    case 'acceptTie': {
      // After both asked for another round, the tie may still be accepted instead of picking a skill (RULES 1.6:
      // "choose new Skills to continue the Contest or accept the tie").
      const refused = player() ?? (type === 'acceptTie' && state.phase === 'skills' && afterTie(state) ? at('skills') : at('tied'));
      if (refused) return refused;
      const choice: TieChoice = type === 'acceptTie' ? 'accept' : 'another';
      if (tieChoiceOf(state[side!]) === choice) return { kind: 'already-chose', choice, other: state[other(side!)].operator?.name ?? 'the other player' };
      // Another round needs a new skill from each side; a side with none left cannot ask for one.
      return choice === 'another' && !skillLeft ? noSkillLeft(state, side!, 'another') : null;
    }
    case 'expire':
      // A draft may have been shown (a crash between its message and its posting): it expires as the proposal
      // that message shows.
      return state.phase === 'draft' ? null : at(...OPEN_PHASES);
  }
}

/**
 * One step of the flow. Returns the new state; rolls with `rng` when this action makes both sides ready.
 * Throws a ContestRefusal when the actor may not act, or not now (`contestRefusal`), or not with these values: the
 * caller then changes nothing.
 */
export function applyContestAction(state: ContestState, action: ContestAction, actor: ContestActor, rng: Rng): ContestState {
  const refusal = contestRefusal(state, actor, action);
  if (refusal) throw new ContestRefusal(refusal);
  const side = sideOf(state, actor.userId);
  switch (action.type) {
    case 'accept': {
      const answered = withSide(state, 'opponent', { operator: action.operator, stakes: checkContestText('stakes', action.stakes) });
      if (!action.choice) return { ...answered, phase: 'countered' };
      assertSkillFree(state.opponent, action.choice.skill.name);
      // Sending the form is the opponent's confirmation of their choices: nothing is left for them to press.
      const next: ContestState = { ...answered, opponent: { ...withChoice(answered.opponent, action.choice), ready: true }, phase: 'countered' };
      if (next.challenger.role === 'defender' && next.opponent.role === 'defender') return end(next, { kind: 'both-defenders' });
      return next;
    }
    case 'decline':
      return end(state, { kind: 'declined', by: actor.name });
    case 'agree': {
      // A contest proposed before roles and skills were chosen up front picks them on the message, as it always did.
      if (state.challenger.role === null || state.opponent.role === null) return { ...state, phase: 'roles' };
      // Agreeing is the challenger's confirmation: unless a Dispatcher's change awaits the opponent's, the dice roll now.
      const agreed = { ...withSide(state, 'challenger', { ready: true }), phase: 'skills' as const };
      return bothConfirmed(agreed) ? rollRound(agreed, rng) : agreed;
    }
    case 'withdraw':
      return end(state, { kind: state.phase === 'countered' ? 'not-agreed' : 'withdrew', by: actor.name });
    case 'chooseRole': {
      const next = withSide(state, side!, { role: action.role });
      const { challenger, opponent } = next;
      if (challenger.role === null || opponent.role === null) return next;
      if (challenger.role === 'defender' && opponent.role === 'defender') return end(next, { kind: 'both-defenders' });
      return { ...next, phase: 'skills' };
    }
    case 'chooseSkill': {
      assertSkillFree(state[side!], action.skill.name);
      const who = state[side!].operator?.name ?? actor.name;
      const picked = withSide(state, side!, {
        skill: action.skill,
        conditionModifiers: action.conditionModifiers,
        ...(action.archetypeModifiers ? { archetypeModifiers: action.archetypeModifiers } : {}),
      });
      // Nobody had confirmed: nothing to clear, nothing to say.
      if (!state.challenger.ready && !state.opponent.ready) return picked;
      return confirmAgain(picked, { kind: 'picked', who, skill: action.skill });
    }
    case 'dispute': {
      assertSkillFree(state[action.side], action.skill.name);
      const who = state[action.side].operator?.name ?? action.side;
      const before = chosenSkills(state[action.side]);
      const next = withSide(state, action.side, { skill: action.skill, linked: null, conditionModifiers: action.conditionModifiers, disputed: true });
      return confirmAgain({ ...next, changes: [...state.changes, { kind: 'disputed', by: actor.name, who, before, after: action.skill }] }, { kind: 'disputed', who });
    }
    case 'disputeLinked': {
      checkLinkedParts(state[action.side], action.parts);
      const who = state[action.side].operator?.name ?? action.side;
      const before = chosenSkills(state[action.side]);
      const next = withSide(state, action.side, { skill: null, linked: action.parts, conditionModifiers: [], disputed: true });
      const after = chosenSkills(next[action.side]);
      return confirmAgain({ ...next, changes: [...state.changes, { kind: 'linked', by: actor.name, who, before, after }] }, { kind: 'linked', who });
    }
    case 'setModifiers': {
      const who = state[action.side].operator?.name ?? action.side;
      const next = withSide(state, action.side, { archetypeModifiers: action.archetypeModifiers, situationalModifier: action.situationalModifier });
      const change: ContestChange = { kind: 'modifiers', by: actor.name, who, archetypes: action.archetypeModifiers, situational: action.situationalModifier };
      return confirmAgain({ ...next, changes: [...state.changes, change] }, { kind: 'modifiers', who });
    }
    case 'cancel':
      return end(state, { kind: 'cancelled', by: actor.name });
    case 'ready': {
      const next = withSide(state, side!, { ready: true });
      return bothConfirmed(next) ? rollRound(next, rng) : next;
    }
    case 'anotherRound':
    case 'acceptTie': {
      const choice: TieChoice = action.type === 'acceptTie' ? 'accept' : 'another';
      const before = tieChoiceOf(state[side!]);
      const next = withSide(state, side!, { tieChoice: choice, tieChoiceChanged: state[side!].tieChoiceChanged === true || before !== null, wantsAnotherRound: undefined });
      // The contest cannot go on without a new skill from this side: accepting is the only way left, and it ends it.
      if (choice === 'accept' && action.noSkillLeft) return end(next, { kind: 'no-skill-left', side: side! });
      if (tieChoiceOf(next[other(side!)]) !== choice) return next;
      if (choice === 'accept') return end(next, { kind: 'tie-accepted' });
      if (state.rounds.length >= CONTEST_LIMITS.rounds) return end(next, { kind: 'tie-rounds', rounds: CONTEST_LIMITS.rounds });
      const fresh = (s: ContestSide): ContestSide => ({
        ...s,
        skill: null,
        linked: null,
        disputed: false,
        archetypeModifiers: [],
        conditionModifiers: [],
        situationalModifier: 0,
        ready: false,
        tieChoice: null,
        tieChoiceChanged: false,
        wantsAnotherRound: undefined,
      });
      return { ...next, phase: 'skills', notice: null, challenger: fresh(next.challenger), opponent: fresh(next.opponent) };
    }
    case 'expire': {
      // An unsettled tie stays a tie the bot never resolved; the choices made so far are kept on the message.
      const expiredAt = state.phase === 'draft' ? 'proposed' : state.phase;
      return { ...state, phase: 'expired', expiredAt, endReason: { kind: 'expired', tied: state.phase === 'tied' } };
    }
  }
}

/** The terms a side adds to its D100 (its own skill only under the house rule); a linked side: see `partTerms`. */
export function rollTerms(state: ContestState, side: ContestSideName): Modifier[] {
  const own = state[side];
  return [
    ...(state.addsOwnSkill && own.skill ? [{ name: own.skill.name, value: own.skill.level }] : []),
    ...own.archetypeModifiers,
    ...own.conditionModifiers,
    ...(own.situationalModifier !== 0 ? [{ name: 'situational', value: own.situationalModifier }] : []),
  ];
}

/**
 * The terms one part of a linked side adds to its D100: its own skill (house rule only), the side's archetypes and
 * the part's own (an archetype named for both adds once, as on any one roll), the part skill's conditions, and one
 * situational modifier, the side's plus the part's.
 */
export function partTerms(state: ContestState, side: ContestSideName, part: ContestLinkedPart): Modifier[] {
  const own = state[side];
  const sideArchetypes = new Set(own.archetypeModifiers.map((modifier) => nameKey(modifier.name)));
  const situational = own.situationalModifier + part.situationalModifier;
  return [
    ...(state.addsOwnSkill ? [{ name: part.skill.name, value: part.skill.level }] : []),
    ...own.archetypeModifiers,
    ...part.archetypeModifiers.filter((modifier) => !sideArchetypes.has(nameKey(modifier.name))),
    ...part.conditionModifiers,
    ...(situational !== 0 ? [{ name: 'situational', value: situational }] : []),
  ];
}

/** Each D100 a side will roll: its skill and the terms added to it (one for a side with one skill). */
export function sideParts(state: ContestState, side: ContestSideName): { skill: { name: string; level: number }; terms: Modifier[] }[] {
  const own = state[side];
  if (own.linked) return own.linked.map((part) => ({ skill: part.skill, terms: partTerms(state, side, part) }));
  return own.skill ? [{ skill: own.skill, terms: rollTerms(state, side) }] : [];
}

/** What a side adds to its D100, and the CL it must reach (the other side's aptitude). */
export function sideTarget(state: ContestState, side: ContestSideName): { base: number; challengeLevel: number } {
  return { base: rollTerms(state, side).reduce((sum, term) => sum + term.value, 0), challengeLevel: aptitudeOf(state[other(side)]) ?? 0 };
}

/**
 * Who wins a round (RULES 1.6): the one side that succeeded; both succeed → the single defender; two attackers who
 * both succeed or both fail → a tie; an attacker and a defender who both fail → nobody (the attacker's intent fails,
 * the defender's stated outcome does not happen either). `bothFail` `defender` is the reading rounds were rolled under
 * before: both failing went to the defender too.
 */
export function contestWinner(
  challenger: { success: boolean; role: ContestRole },
  opponent: { success: boolean; role: ContestRole },
  bothFail: BothFailReading,
): ContestWinner {
  if (challenger.success !== opponent.success) return challenger.success ? 'challenger' : 'opponent';
  if (challenger.role === opponent.role) return 'tie';
  if (!challenger.success && bothFail === 'nobody') return 'nobody';
  return challenger.role === 'defender' ? 'challenger' : 'opponent';
}

/**
 * Everything a round's roll needs, as stored in the roll log: replaying it needs only this and the seed. A side with
 * one skill keeps the shape rounds were stored in before linked sides existed, so those replay unchanged.
 */
export interface ContestRollSingleInput {
  skill: { name: string; level: number };
  role: ContestRole;
  terms: Modifier[];
  challengeLevel: number;
}
export interface ContestRollLinkedInput {
  role: ContestRole;
  challengeLevel: number;
  linked: { skill: { name: string; level: number }; terms: Modifier[] }[];
}
export type ContestRollSideInput = ContestRollSingleInput | ContestRollLinkedInput;
export interface ContestRollInput {
  challenger: ContestRollSideInput;
  opponent: ContestRollSideInput;
  /** How both failing is read: stored with every round rolled since the reading changed (older rolls: `defender`). */
  bothFail: BothFailReading;
}
export type ContestRollResult = Omit<ContestRound, 'number' | 'rollId'>;

export function contestRollInput(state: ContestState): ContestRollInput {
  const side = (name: ContestSideName): ContestRollSideInput => {
    const role = state[name].role!;
    const challengeLevel = sideTarget(state, name).challengeLevel;
    if (state[name].linked) return { role, challengeLevel, linked: sideParts(state, name) };
    return { skill: state[name].skill!, role, terms: rollTerms(state, name), challengeLevel };
  };
  return { challenger: side('challenger'), opponent: side('opponent'), bothFail: BOTH_FAIL_READING };
}

/**
 * The inputs a round just rolled was rolled from, as the roll log keeps them: rolled again with its seed, they give
 * the round. Only what the roll needs: a linked side as its parts, a side with one skill in the shape rounds always had.
 */
export function roundRollInput(round: ContestRollResult): ContestRollInput {
  const side = (roll: ContestSideRoll): ContestRollSideInput =>
    isLinkedRoll(roll)
      ? { role: roll.role, challengeLevel: roll.challengeLevel, linked: roll.linked.map(({ skill, terms }) => ({ skill, terms })) }
      : { skill: roll.skill, role: roll.role, terms: roll.terms, challengeLevel: roll.challengeLevel };
  return { challenger: side(round.challenger), opponent: side(round.opponent), bothFail: BOTH_FAIL_READING };
}

function rollPart(part: { skill: { name: string; level: number }; terms: Modifier[] }, challengeLevel: number, rng: Rng): ContestPartRoll {
  const d100 = rollD100(rng);
  const result = d100.value + part.terms.reduce((sum, term) => sum + term.value, 0);
  return { skill: part.skill, terms: part.terms, challengeLevel, d100, result, success: result >= challengeLevel };
}

/**
 * Both sides roll at once from the one generator: the challenger's D100s first (one, or one per linked part in
 * order), then the opponent's. A linked side's parts are each resolved on their own and all kept (RULES 1.3: a
 * success inside a linked roll is never overturned); the side succeeds at its challenge only if every part does.
 */
export function resolveContestRoll(input: ContestRollInput, rng: Rng): ContestRollResult {
  const rollSide = (side: ContestRollSideInput): ContestSideRoll => {
    if ('linked' in side) {
      const linked = side.linked.map((part) => rollPart(part, side.challengeLevel, rng));
      const succeeded = linked.filter((part) => part.success).length;
      return { role: side.role, challengeLevel: side.challengeLevel, linked, succeeded, success: succeeded === linked.length };
    }
    return { ...rollPart(side, side.challengeLevel, rng), role: side.role };
  };
  const challenger = rollSide(input.challenger);
  const opponent = rollSide(input.opponent);
  return { challenger, opponent, winner: contestWinner(challenger, opponent, input.bothFail) };
}

function rollRound(state: ContestState, rng: Rng): ContestState {
  const rolled = resolveContestRoll(contestRollInput(state), rng);
  const round: ContestRound = { number: state.rounds.length + 1, rollId: null, ...rolled };
  // A tie accepted while picking is moot once both were ready: the next tie starts with no choice made.
  const used = (side: ContestSide): ContestSide => ({
    ...side,
    usedSkills: [...side.usedSkills, ...chosenSkills(side).map((skill) => skill.name)],
    tieChoice: null,
    tieChoiceChanged: false,
  });
  return {
    ...state,
    phase: rolled.winner === 'tie' ? 'tied' : 'resolved',
    notice: null,
    challenger: used(state.challenger),
    opponent: used(state.opponent),
    rounds: [...state.rounds, round],
  };
}

/**
 * The exact chances of the current choices: how many of the equally likely ways the dice can fall (`outOf`, 100 to
 * the power of the number of D100s rolled) give each outcome. A linked side rolls several D100s; they are independent,
 * so the ways a side succeeds are the product of each part's succeeding faces. Bigints: ten D100s are 10^20 ways.
 */
export interface ContestOdds {
  challengerWins: bigint;
  opponentWins: bigint;
  tie: bigint;
  /** Both fail with a defender in the contest: nothing changes. */
  nobody: bigint;
  outOf: bigint;
}

function faces(base: number, challengeLevel: number): number {
  return Math.max(0, Math.min(100, 101 - Math.max(1, challengeLevel - base)));
}

/** Of the 100^parts ways a side's dice can fall, how many succeed (every part reaching its CL). */
function sideSuccessWays(state: ContestState, side: ContestSideName): { succeed: bigint; outOf: bigint } {
  const challengeLevel = aptitudeOf(state[other(side)]) ?? 0;
  const parts = sideParts(state, side);
  const succeed = parts.reduce((ways, part) => ways * BigInt(faces(part.terms.reduce((sum, term) => sum + term.value, 0), challengeLevel)), 1n);
  return { succeed, outOf: 100n ** BigInt(parts.length) };
}

/** Each side's chance to succeed at its own roll, which does not depend on the roles (shown while they are secret). */
export function successChances(state: ContestState): Record<ContestSideName, { succeed: bigint; outOf: bigint }> | null {
  if (!chosenSkills(state.challenger).length || !chosenSkills(state.opponent).length) return null;
  return { challenger: sideSuccessWays(state, 'challenger'), opponent: sideSuccessWays(state, 'opponent') };
}

export function contestOdds(state: ContestState): ContestOdds | null {
  const { challenger, opponent } = state;
  if (!chosenSkills(challenger).length || !chosenSkills(opponent).length || !challenger.role || !opponent.role) return null;
  const c = sideSuccessWays(state, 'challenger');
  const o = sideSuccessWays(state, 'opponent');
  const odds: ContestOdds = { challengerWins: 0n, opponentWins: 0n, tie: 0n, nobody: 0n, outOf: c.outOf * o.outOf };
  // The four (success, success) combinations, each weighted by how many ways the dice give it.
  for (const cSuccess of [true, false]) {
    for (const oSuccess of [true, false]) {
      const ways = (cSuccess ? c.succeed : c.outOf - c.succeed) * (oSuccess ? o.succeed : o.outOf - o.succeed);
      const winner = contestWinner({ success: cSuccess, role: challenger.role }, { success: oSuccess, role: opponent.role }, BOTH_FAIL_READING);
      if (winner === 'challenger') odds.challengerWins += ways;
      else if (winner === 'opponent') odds.opponentWins += ways;
      else if (winner === 'nobody') odds.nobody += ways;
      else odds.tie += ways;
    }
  }
  return odds;
}
