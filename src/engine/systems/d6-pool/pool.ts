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
/** Each condition is −1 on later rolls until removed. */
export const CONDITION_MODIFIER = -1;

export const SKILL_LEVEL_MAX = 5;
export const ATTRIBUTE_MAX = 10;
export const GEAR_MAX = 10;
export const HELPERS_MAX = 3;
export const MODIFIER_LIMIT = 10;
/** The most dice one roll may hold (5 skill + 10 attribute + 10 gear + modifiers stays below it). */
export const POOL_DICE_MAX = 40;

export type DieSource = 'skill' | 'gear' | 'attribute';

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

/** What the roll log stores when a push's condition is picked (kind `pool-condition`, no dice). */
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

