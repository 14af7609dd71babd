/**
 * d6 pools with successes, banes and pushing (RULES 4, seed 003): skill + attribute + gear dice, modifiers that
 * remove skill dice first, then gear, then attribute; each 6 a success, each 1 a bane; one push per roll.
 */
import { UserError } from '../../../errors.js';
import { nameKey } from '../../names.js';
import type { Rng } from '../../rng.js';

export type Attribute = 'STR' | 'AGI' | 'WIT' | 'EMP';

/** The thirteen core skills and the attribute each is rolled with. */
export const D6_SKILLS: ReadonlyArray<{ name: string; attribute: Attribute }> = [
  { name: 'Force', attribute: 'STR' },
  { name: 'Melee', attribute: 'STR' },
  { name: 'Stamina', attribute: 'STR' },
  { name: 'Marksmanship', attribute: 'AGI' },
  { name: 'Mobility', attribute: 'AGI' },
  { name: 'Stealth', attribute: 'AGI' },
  { name: 'Crafting', attribute: 'WIT' },
  { name: 'Defiance', attribute: 'WIT' },
  { name: 'Observation', attribute: 'WIT' },
  { name: 'Survival', attribute: 'WIT' },
  { name: 'Medical', attribute: 'EMP' },
  { name: 'Insight', attribute: 'EMP' },
  { name: 'Persuasion', attribute: 'EMP' },
];

/** The seed's difficulty list. */
export const DIFFICULTIES: ReadonlyArray<{ name: string; modifier: number }> = [
  { name: 'Trivial', modifier: 3 },
  { name: 'Simple', modifier: 2 },
  { name: 'Easy', modifier: 1 },
  { name: 'Average', modifier: 0 },
  { name: 'Demanding', modifier: -1 },
  { name: 'Hard', modifier: -2 },
  { name: 'Formidable', modifier: -3 },
];

/** The conditions a push may cost (the seed names Exhausted, Angry, Frightened "such as"; the rest are ours). */
export const PUSH_CONDITIONS = ['Exhausted', 'Angry', 'Frightened', 'Battered', 'Sick', 'Confused'] as const;
/**
 * What a push costs a character who already suffers every condition of the list: the seed's "broken character",
 * whom Medical gets "back on their feet". A −1 condition like the others.
 */
export const BROKEN = 'Broken';
/** Each condition is −1 on later rolls until removed. */
export const CONDITION_MODIFIER = -1;

/**
 * The conditions a push can cost a character who already suffers `suffered` (names as on the sheet): one they do not
 * have yet, since "for each condition you have" a second Angry is no cost at all. Once they have every condition of
 * the list, only Broken; once they are Broken too, none: nothing is left to pay with, so they cannot push.
 */
export function pushCosts(suffered: readonly string[]): string[] {
  const had = new Set(suffered.map(nameKey));
  const left = PUSH_CONDITIONS.filter((name) => !had.has(nameKey(name)));
  if (left.length > 0) return left;
  return had.has(nameKey(BROKEN)) ? [] : [BROKEN];
}

export const SKILL_LEVEL_MAX = 5;
export const ATTRIBUTE_MAX = 10;
export const GEAR_MAX = 10;
export const HELPERS_MAX = 3;
export const MODIFIER_LIMIT = 10;
/** The most dice one roll may hold (5 skill + 10 attribute + 10 gear + modifiers stays below it). */
export const POOL_DICE_MAX = 40;

export type DieSource = 'skill' | 'gear' | 'attribute';

/** The external factors the seed lists for Stealth: each +1 or −1 to the roll. */
export const STEALTH_FACTORS: ReadonlyArray<{ name: string; text: string; value: number }> = [
  { name: 'blend in', text: 'You blend into your surroundings', value: 1 },
  { name: 'dark', text: 'The area is dark or dimly lit', value: 1 },
  { name: 'crowded', text: 'The area is crowded or noisy', value: 1 },
  { name: 'distracted', text: 'Your opponent is distracted by something', value: 1 },
  { name: 'stand out', text: 'You stand out against the surroundings', value: -1 },
  { name: 'no cover', text: 'There is nothing to hide behind', value: -1 },
];

/**
 * The opposed rolls the skills name: Stealth against Observation ("if your opponent is actively looking for you"),
 * Persuasion against Insight ("if your opponent is actively trying to resist you").
 */
export const OPPOSED_SKILL: Readonly<Record<string, string>> = { Stealth: 'Observation', Persuasion: 'Insight' };

/** Persuasion's stakes ("what you want to achieve"), stated before the roll: one line. */
export const STAKES_MAX = 200;

export interface PoolModifier {
  name: string;
  value: number;
}

export interface D6PoolInput {
  skill: string;
  attribute: Attribute;
  skillLevel: number;
  attributeValue: number;
  gear: number;
  /** Difficulty, help, the typed modifier, the sheet's conditions: each one named, all cumulative. */
  modifiers: PoolModifier[];
  /** The sheet rolled from (a push's condition goes there); null when rolled without one. */
  sheet: { id: number; name: string } | null;
  /** An opposed roll (the active party's): who opposes, with which skill. Absent on a plain roll. */
  opposed?: OpposedBy;
  /** The opponent's roll (kind `pool-opposed`): the active party's roll it answers. */
  against?: string;
  /** What the roller wants to achieve, stated before the roll (Persuasion must state it). */
  stakes?: string;
}

export interface OpposedBy {
  userId: string;
  skill: string;
  attribute: Attribute;
}

export interface PoolComposition {
  skill: number;
  gear: number;
  attribute: number;
}

export interface D6Die {
  source: DieSource;
  face: number;
}

export interface Tally {
  sixes: number;
  banes: number;
  /** max(0, sixes − banes). */
  successes: number;
}

export interface D6PoolResult extends Tally {
  input: D6PoolInput;
  /** The pool before modifiers (skill level, gear, attribute). */
  base: PoolComposition;
  modifier: number;
  /** The pool rolled, after modifiers. */
  pool: PoolComposition;
  /** Skill dice first, then gear, then attribute. Empty when the pool is empty: nothing is rolled. */
  dice: D6Die[];
  empty: boolean;
  success: boolean;
}

export function findD6Skill(typed: string): { name: string; attribute: Attribute } | undefined {
  const key = nameKey(typed);
  return D6_SKILLS.find((skill) => nameKey(skill.name) === key);
}

export function difficultyModifier(typed: string): PoolModifier {
  const key = nameKey(typed);
  const difficulty = DIFFICULTIES.find((entry) => nameKey(entry.name) === key);
  if (!difficulty) throw new UserError(`Unknown difficulty **${typed.slice(0, 40)}**: pick one of ${DIFFICULTIES.map((entry) => entry.name).join(', ')}.`);
  return { name: difficulty.name, value: difficulty.modifier };
}

/** Help from others: +1 per helper, at most three helpers (+3). */
export function helpModifier(helpers: number): PoolModifier {
  if (!Number.isInteger(helpers) || helpers < 0 || helpers > HELPERS_MAX) {
    throw new UserError(`At most ${HELPERS_MAX} people can help with one roll (+${HELPERS_MAX}); ${helpers} is too many.`);
  }
  return { name: `help (${helpers})`, value: helpers };
}

/**
 * The Stealth factors typed as a list (`dark, crowded`): each one named in the sum with its +1 or −1. Only for
 * Stealth; a factor named twice counts once (it is one fact about the scene).
 */
export function stealthModifiers(skill: string, typed: string): PoolModifier[] {
  const names = typed.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
  if (names.length === 0) return [];
  const list = STEALTH_FACTORS.map((factor) => `${factor.name} (${factor.value > 0 ? '+' : '−'}1)`).join(', ');
  if (skill !== 'Stealth') throw new UserError(`Factors are the Stealth roll's (${list}); ${skill} has none: use \`modifier\` instead.`);
  const found = new Map<string, PoolModifier>();
  for (const name of names) {
    const factor = STEALTH_FACTORS.find((entry) => nameKey(entry.name) === nameKey(name));
    if (!factor) throw new UserError(`**${name.slice(0, 40)}** is not a Stealth factor: pick from ${list}, separated by commas.`);
    found.set(factor.name, { name: factor.name, value: factor.value });
  }
  return [...found.values()];
}

/** The stakes as typed, checked: Persuasion must state them (the seed: "before you roll, you must state the stakes"). */
export function checkedStakes(skill: string, typed: string | null | undefined): string | undefined {
  const stakes = typed?.replace(/\s+/g, ' ').trim() ?? '';
  if (stakes.length > STAKES_MAX) throw new UserError(`The stakes are one line of at most ${STAKES_MAX} characters; yours has ${stakes.length}.`);
  if (stakes.length === 0) {
    if (skill === 'Persuasion') throw new UserError('Persuasion needs its stakes stated before the roll: add `stakes:` (what you want to achieve, within reason).');
    return undefined;
  }
  return stakes;
}

/**
 * What the successes of a plain roll give, where the skill lists it (only Insight does): null otherwise. Insight:
 * a success reveals the NPC's current, most powerful emotion; several also tell whether they are lying.
 */
export function skillExtras(skill: string, successes: number): string | null {
  if (skill !== 'Insight' || successes < 1) return null;
  const emotion = "the Operator reveals the NPC's current, most powerful emotion (hate, fear, contempt, love…)";
  return successes >= 2 ? `${emotion}, and whether they are lying (not what about, nor the truth).` : `${emotion}.`;
}

export function validateD6Input(input: D6PoolInput): void {
  const whole = (value: number, min: number, max: number, what: string) => {
    if (!Number.isInteger(value) || value < min || value > max) throw new UserError(`${what} must be a whole number from ${min} to ${max}; ${value} is not.`);
  };
  whole(input.skillLevel, 0, SKILL_LEVEL_MAX, `The skill level of ${input.skill} (d6 skills are 0–${SKILL_LEVEL_MAX})`);
  whole(input.attributeValue, 0, ATTRIBUTE_MAX, `${input.attribute}`);
  whole(input.gear, 0, GEAR_MAX, 'Gear dice');
  for (const modifier of input.modifiers) whole(modifier.value, -MODIFIER_LIMIT, MODIFIER_LIMIT, `The modifier ${modifier.name}`);
}

/**
 * The pool after modifiers: a positive total adds base dice to the skill dice (the seed: "always apply modifiers
 * to your skills"); a negative one removes skill dice first, then gear, then attribute dice, never below none.
 */
export function composePool(base: PoolComposition, modifier: number): PoolComposition {
  if (modifier >= 0) return { ...base, skill: base.skill + modifier };
  let toRemove = -modifier;
  const take = (available: number) => {
    const removed = Math.min(available, toRemove);
    toRemove -= removed;
    return available - removed;
  };
  const skill = take(base.skill);
  const gear = take(base.gear);
  const attribute = take(base.attribute);
  return { skill, gear, attribute };
}

export function poolSize(pool: PoolComposition): number {
  return pool.skill + pool.gear + pool.attribute;
}

export function tally(faces: readonly number[]): Tally {
  const sixes = faces.filter((face) => face === 6).length;
  const banes = faces.filter((face) => face === 1).length;
  return { sixes, banes, successes: Math.max(0, sixes - banes) };
}

const rollD6 = (rng: Rng) => rng.int(6) + 1;

export function resolveD6Pool(input: D6PoolInput, rng: Rng): D6PoolResult {
  validateD6Input(input);
  const base: PoolComposition = { skill: input.skillLevel, gear: input.gear, attribute: input.attributeValue };
  const modifier = input.modifiers.reduce((sum, term) => sum + term.value, 0);
  const pool = composePool(base, modifier);
  if (poolSize(pool) > POOL_DICE_MAX) throw new UserError(`That is ${poolSize(pool)} dice; one roll holds at most ${POOL_DICE_MAX}.`);
  const sources: DieSource[] = [
    ...Array<DieSource>(pool.skill).fill('skill'),
    ...Array<DieSource>(pool.gear).fill('gear'),
    ...Array<DieSource>(pool.attribute).fill('attribute'),
  ];
  const dice = sources.map((source) => ({ source, face: rollD6(rng) }));
  const counted = tally(dice.map((die) => die.face));
  return { input, base, modifier, pool, dice, empty: dice.length === 0, ...counted, success: counted.successes > 0 };
}

export interface PushInput {
  /** The roll pushed, and its dice as they stood. */
  rollId: string;
  /** The attribute of the roll pushed, to name its dice. */
  attribute: Attribute;
  dice: D6Die[];
}

export interface PushedDie extends D6Die {
  /** The face before the push. */
  before: number;
  rerolled: boolean;
}

export interface PushResult extends Tally {
  input: PushInput;
  dice: PushedDie[];
  rerolled: number;
  success: boolean;
}

/** A die a push re-rolls: neither a bane (1) nor a success (6). */
export function pushable(face: number): boolean {
  return face !== 1 && face !== 6;
}

/** Pushing: every die showing neither 1 nor 6 is re-rolled, in order; every die counts after the push. */
export function resolvePush(input: PushInput, rng: Rng): PushResult {
  const dice = input.dice.map((die) =>
    pushable(die.face) ? { source: die.source, face: rollD6(rng), before: die.face, rerolled: true } : { ...die, before: die.face, rerolled: false },
  );
  const counted = tally(dice.map((die) => die.face));
  return { input, dice, rerolled: dice.filter((die) => die.rerolled).length, ...counted, success: counted.successes > 0 };
}

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/**
 * The exact chance that n dice give at least one net success (more sixes than ones), as favourable faces over
 * 6^n: sum over s sixes and o < s ones of C(n, s)·C(n − s, o)·4^(n − s − o).
 */
export function successChance(n: number): { favourable: bigint; total: bigint } {
  let favourable = 0n;
  for (let sixes = 1; sixes <= n; sixes++) {
    for (let ones = 0; ones < sixes && sixes + ones <= n; ones++) {
      favourable += binomial(n, sixes) * binomial(n - sixes, ones) * 4n ** BigInt(n - sixes - ones);
    }
  }
  return { favourable, total: 6n ** BigInt(n) };
}

/** The condition a push cost, as the roll log stores it with the push (kind `pool-condition`, no dice). */
export interface PoolConditionRecord {
  rollId: string;
  sheet: { id: number; name: string };
  condition: string;
}

/** The dice as the roll log stores them: the faces, in order. */
export function d6Faces(dice: readonly D6Die[]): number[] {
  return dice.map((die) => die.face);
}

/**
 * An opposed roll (RULES 4, seed 003): each of the opponent's net successes cancels one of the active party's; the
 * active party wins with successes left over; a tie (equal successes, 0 against 0 too) fails for the active party.
 */
export interface OpposedOutcome {
  /** The active party's net successes (after the push, when pushed). */
  active: number;
  opponent: number;
  /** Active successes the opponent's cancel: min(active, opponent). */
  cancelled: number;
  /** Active successes left: max(0, active − opponent). */
  left: number;
  tie: boolean;
  /** The active party wins. */
  win: boolean;
}

export function opposedOutcome(active: number, opponent: number): OpposedOutcome {
  const left = Math.max(0, active - opponent);
  return { active, opponent, cancelled: Math.min(active, opponent), left, tie: active === opponent, win: left > 0 };
}

/** The outcome as it stands: the active party's final successes (the push's, when pushed) against the opponent's. */
export function opposedResult(active: D6PoolResult, push: PushResult | undefined, opponent: D6PoolResult): OpposedOutcome {
  return opposedOutcome((push ?? active).successes, opponent.successes);
}


/** How many times one opposed roll's tie may be re-rolled: a tie that stands after this many stays a tie. */
export const TIE_BREAKS_MAX = 10;

/**
 * Breaking a tie (seed 003: "if a tie needs to be broken, re-roll the opposed roll to determine the outcome"): both
 * pools rolled again as they were first rolled (the same inputs), the active party's first. `round` counts from 1.
 */
export interface TieBreakInput {
  rollId: string;
  round: number;
  active: D6PoolInput;
  opponent: D6PoolInput;
}

export interface TieBreakResult {
  input: TieBreakInput;
  active: D6PoolResult;
  opponent: D6PoolResult;
  outcome: OpposedOutcome;
}

export function resolveTieBreak(input: TieBreakInput, rng: Rng): TieBreakResult {
  if (!Number.isInteger(input.round) || input.round < 1 || input.round > TIE_BREAKS_MAX) {
    throw new UserError(`A tie is re-rolled at most ${TIE_BREAKS_MAX} times; round ${input.round} is not one of them.`);
  }
  const active = resolveD6Pool(input.active, rng);
  const opponent = resolveD6Pool(input.opponent, rng);
  return { input, active, opponent, outcome: opposedOutcome(active.successes, opponent.successes) };
}

/** A tie-break's dice as the roll log stores them: each side's faces. */
export function tieBreakFaces(result: TieBreakResult): { active: number[]; opponent: number[] } {
  return { active: d6Faces(result.active.dice), opponent: d6Faces(result.opponent.dice) };
}

/**
 * The outcome of an opposed roll as it stands: the last tie-break's when the tie was re-rolled (the re-roll
 * "determines the outcome"), else the active party's final successes (pushed, when pushed) against the opponent's.
 */
export function opposedStanding(active: D6PoolResult, push: PushResult | undefined, opponent: D6PoolResult, tieBreaks: readonly TieBreakResult[]): OpposedOutcome {
  const last = tieBreaks.at(-1);
  return last ? last.outcome : opposedResult(active, push, opponent);
}
