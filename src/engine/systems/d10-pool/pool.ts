/**
 * d10 pools read by the highest die with matches (RULES 5, seed 004): basic and advanced (additive, subtractive)
 * skill rolls, partial and solid successes, the stress rules and rolling zero dice. Pure: inputs and an Rng in.
 */
import { UserError } from '../../../errors.js';
import type { Rng } from '../../rng.js';
import type { Modifier } from '../tactalk/challenge.js';
import { aimingTerm, validateAimPhases } from './actions.js';

export const POOL_DICE_MIN = -20;
export const POOL_DICE_MAX = 30;

/** Where a roll's number came from: a skill or an attribute of the rolling sheet, by its name there. */
export interface SheetEntryRef {
  name: string;
  kind: 'skill' | 'attribute';
}
export const TARGET_NUMBER_MIN = 1;
export const TARGET_NUMBER_MAX = 100;
export const POOL_MODIFIER_LIMIT = 50;
export const SECONDARY_LEVEL_MAX = 50;
export const SITUATIONS_MAX = 10;
export const SITUATION_NAME_MAX = 60;

/** What went wrong before the TN is even looked at (only under stress). */
export type Mishap =
  /** A majority of the dice show 1: the attempt fails automatically. */
  | 'automatic failure'
  /** Every die shows 1. */
  | 'botch'
  /** Rolling zero dice: the one die shows 1 or 2. */
  | 'critical failure';

export type Verdict = 'solid success' | 'success' | 'partial success' | 'failure';

/** The dice read: one die (the highest) + 1 for each other die showing the same. */
export interface PoolReading {
  /** Every die, as rolled, in order. */
  faces: number[];
  /** Fewer than one die was asked for: one die was rolled under the zero-dice rule. */
  zeroDice: boolean;
  highest: number;
  /** The other dice equal to the highest, each +1. */
  matches: number;
  /** highest + matches. */
  natural: number;
  ones: number;
  mishap: Mishap | null;
  /** Zero dice, under stress, and the die shows 1: worse than a normal botch (the seed). */
  worseThanBotch: boolean;
}

export interface PoolInput {
  /** How many d10; zero or fewer rolls one die under the zero-dice rule. */
  dice: number;
  /** The target number; null when the result itself is wanted (e.g. a subtractive roll setting allies' TN). */
  targetNumber: number | null;
  modifier: number;
  /** Not a stressful situation: no automatic failure, no botch, no critical failure on zero dice. */
  calm: boolean;
  /**
   * The seed's conditional modifiers: situations that each take one die away, named as the table names them (the
   * seed's list of them is cut off). Absent in rolls stored before they existed: none.
   */
  situations?: string[];
  /** Phases spent aiming before this roll: +1 each, at most 3 add. Absent in older rolls: 0. */
  aimPhases?: number;
  /** Trying and missing is not safe (a chasm, not a sand pit): no partial success, a near miss fails. */
  unsafe?: boolean;
  /** The sample action this roll is: a fastdraw (success or failure only). */
  action?: 'fastdraw';
  /** The character who rolled: the roller's sheet (their active one, or an NPC). Absent when rolled without one. */
  sheet?: { id: number; name: string };
  /** The skill or attribute of that sheet whose number is `dice`; absent when the dice were given as a number. */
  pool?: SheetEntryRef;
}

export interface AdvancedInput extends PoolInput {
  /** The level of the secondary skill. */
  secondary: number;
  mode: 'additive' | 'subtractive';
  /** Halve the secondary level (rounded down) before adding it; additive only. */
  halve: boolean;
  /** The skill of the sheet whose level is `secondary`; absent when the level was given as a number. */
  secondaryFrom?: SheetEntryRef;
}

export interface PoolResult {
  input: PoolInput;
  reading: PoolReading;
  /** Everything added to the natural reading: the secondary skill, the modifier. */
  terms: Modifier[];
  result: number;
  /** Against the TN; null without a TN. A mishap is always a failure. */
  verdict: Verdict | null;
  /** Success or solid success; null without a TN. */
  success: boolean | null;
}

function checkInteger(value: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UserError(`${what} must be a whole number from ${min} to ${max}; ${value} is not.`);
  }
}

export function validatePoolInput(input: PoolInput): void {
  checkInteger(input.dice, POOL_DICE_MIN, POOL_DICE_MAX, 'The number of dice');
  if (input.targetNumber !== null) checkInteger(input.targetNumber, TARGET_NUMBER_MIN, TARGET_NUMBER_MAX, 'The target number (TN)');
  checkInteger(input.modifier, -POOL_MODIFIER_LIMIT, POOL_MODIFIER_LIMIT, 'The modifier');
  validateSituations(input.situations ?? []);
  validateAimPhases(input.aimPhases ?? 0);
  if (input.action !== undefined && input.action !== 'fastdraw') throw new UserError('The only action rolled this way is `fastdraw`.');
  if (input.action === 'fastdraw' && input.targetNumber === null) throw new UserError('A fastdraw is rolled against a target number: add `tn`.');
}

// ---- conditional modifiers: situations that take a die away -----------------------------------------------------

function situationKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function validateSituations(situations: string[]): void {
  if (situations.length > SITUATIONS_MAX) {
    throw new UserError(`At most ${SITUATIONS_MAX} situations can take dice away from one roll; ${situations.length} were named.`);
  }
  const seen = new Set<string>();
  for (const name of situations) {
    const key = situationKey(name);
    if (key.length === 0) throw new UserError('A situation needs a name.');
    if (name.length > SITUATION_NAME_MAX) {
      throw new UserError(`A situation's name is at most ${SITUATION_NAME_MAX} characters; "${name.slice(0, 20)}…" has ${name.length}.`);
    }
    if (/^[+-]?\d+$/.test(key)) {
      throw new UserError(`Name each situation that takes a die away (e.g. \`in the dark, wounded\`), not a number ("${name}"). To roll fewer dice, lower \`dice\`.`);
    }
    // The same situation twice is still one situation: it takes one die, so naming it twice is a slip.
    if (seen.has(key)) throw new UserError(`"${name.trim()}" is named twice; each situation takes one die away once.`);
    seen.add(key);
  }
}

/** `in the dark, wounded` (or `;`-separated) → the names, trimmed; empty text → none. */
export function parseSituations(text: string | null | undefined): string[] {
  if (!text) return [];
  const names = text
    .split(/[,;]/)
    .map((name) => name.trim().replace(/\s+/g, ' '))
    .filter((name) => name.length > 0);
  validateSituations(names);
  return names;
}

/** The dice a roll asks for once each situation has taken one away; zero or fewer is the zero-dice rule. */
export function poolSize(input: Pick<PoolInput, 'dice' | 'situations'>): number {
  return input.dice - (input.situations?.length ?? 0);
}

/** Whether a near miss may be a partial success: not when missing is unsafe, nor on a fastdraw. */
export function partialAllowed(input: Pick<PoolInput, 'unsafe' | 'action'>): boolean {
  return !input.unsafe && input.action !== 'fastdraw';
}

export function validateAdvancedInput(input: AdvancedInput): void {
  validatePoolInput(input);
  checkInteger(input.secondary, 0, SECONDARY_LEVEL_MAX, 'The secondary skill level');
  if (input.mode !== 'additive' && input.mode !== 'subtractive') throw new UserError('The mode is `additive` or `subtractive`.');
  if (input.halve && input.mode !== 'additive') throw new UserError('Only an additive roll halves the secondary skill; leave `halve` out of a subtractive roll.');
  if (input.action !== undefined) throw new UserError('A fastdraw is a basic roll, not an advanced one.');
}

/** How many dice are actually thrown: zero or fewer still throws one. */
export function diceThrown(dice: number): number {
  return Math.max(1, dice);
}

/** The stress rules (off when calm): zero dice fail critically on 1 or 2; all 1s botch; a majority of 1s fails. */
export function stressMishap(facts: { thrown: number; ones: number; highest: number; zeroDice: boolean }, calm: boolean): Mishap | null {
  if (calm) return null;
  if (facts.zeroDice) return facts.highest <= 2 ? 'critical failure' : null;
  if (facts.ones === facts.thrown) return 'botch';
  if (2 * facts.ones > facts.thrown) return 'automatic failure';
  return null;
}

/** Reads faces: highest + matches, and the stress rules (unless calm). */
export function readPool(faces: number[], options: { zeroDice: boolean; calm: boolean }): PoolReading {
  if (faces.length === 0) throw new Error('a pool reads at least one die');
  const highest = Math.max(...faces);
  const matches = faces.filter((face) => face === highest).length - 1;
  const ones = faces.filter((face) => face === 1).length;
  const mishap = stressMishap({ thrown: faces.length, ones, highest, zeroDice: options.zeroDice }, options.calm);
  return {
    faces,
    zeroDice: options.zeroDice,
    highest,
    matches,
    natural: highest + matches,
    ones,
    mishap,
    worseThanBotch: mishap === 'critical failure' && highest === 1,
  };
}

export function rollPoolDice(dice: number, rng: Rng): number[] {
  return Array.from({ length: diceThrown(dice) }, () => rng.int(10) + 1);
}

/**
 * Against a TN: ≥ TN succeeds; > 1.5·TN is a solid success; short of the TN by at most 25 % of it
 * (TN − result ≤ 0.25·TN) is a partial success; below that, a failure. Integer arithmetic, no rounding.
 */
export function verdictOf(result: number, targetNumber: number, partial = true): Verdict {
  if (2 * result > 3 * targetNumber) return 'solid success';
  if (result >= targetNumber) return 'success';
  if (partial && 4 * (targetNumber - result) <= targetNumber) return 'partial success';
  return 'failure';
}

function judged(input: PoolInput, reading: PoolReading, terms: Modifier[]): PoolResult {
  const result = reading.natural + terms.reduce((sum, term) => sum + term.value, 0);
  if (input.targetNumber === null) return { input, reading, terms, result, verdict: null, success: null };
  const verdict: Verdict = reading.mishap ? 'failure' : verdictOf(result, input.targetNumber, partialAllowed(input));
  return { input, reading, terms, result, verdict, success: verdict === 'success' || verdict === 'solid success' };
}

/** Aiming, then the modifier: the terms every pool roll may add to its reading. */
function modifierTerms(input: PoolInput): Modifier[] {
  const aiming = aimingTerm(input.aimPhases ?? 0);
  return [...(aiming ? [aiming] : []), ...(input.modifier === 0 ? [] : [{ name: 'modifier', value: input.modifier }])];
}

/** Rolls the pool left after the situations, and reads it. */
function rolledReading(input: PoolInput, rng: Rng): PoolReading {
  const size = poolSize(input);
  return readPool(rollPoolDice(size, rng), { zeroDice: size < 1, calm: input.calm });
}

/** A basic skill roll: Result = highest die + matches + aiming + modifier, against the TN. */
export function resolvePoolRoll(input: PoolInput, rng: Rng): PoolResult {
  validatePoolInput(input);
  return judged(input, rolledReading(input, rng), modifierTerms(input));
}

/** The secondary skill's term: + level, + ⌊level / 2⌋ when halved, or − level when subtractive. */
export function secondaryTerm(input: Pick<AdvancedInput, 'secondary' | 'mode' | 'halve' | 'secondaryFrom'>): Modifier {
  // Named from the sheet: `Tactics (secondary skill)`; given as a number (and every roll stored before): `secondary skill`.
  const named = (how: string) => (input.secondaryFrom ? `${input.secondaryFrom.name} (secondary skill${how ? `, ${how}` : ''})` : `secondary skill${how ? ` (${how})` : ''}`);
  if (input.mode === 'subtractive') return { name: named('subtracted'), value: -input.secondary };
  return input.halve ? { name: named('halved'), value: Math.floor(input.secondary / 2) } : { name: named(''), value: input.secondary };
}

/** An advanced roll: the primary pool rolled as a basic roll, the secondary level added or subtracted. */
export function resolveAdvancedRoll(input: AdvancedInput, rng: Rng): PoolResult {
  validateAdvancedInput(input);
  return judged(input, rolledReading(input, rng), [secondaryTerm(input), ...modifierTerms(input)]);
}

// ---- exact odds ------------------------------------------------------------------------------------------------

/** How many of the 10^dice outcomes give each verdict (a mishap counted apart, not as a failure). */
export interface PoolOdds {
  outcomes: bigint;
  solid: bigint;
  success: bigint;
  partial: bigint;
  failure: bigint;
  mishap: bigint;
}

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

/**
 * Exact odds of a pool against a TN, with `bonus` added to the natural reading (the modifier and any secondary
 * term). `dice` is the pool after the situations. Counts outcomes by the highest face h, how many dice show it (c)
 * and how many of the rest show 1 (k): C(n, c) · C(n − c, k) · (h − 2)^(n − c − k) outcomes read h + c − 1 with k
 * ones (c + k when h is 1). Without `partial` a near miss counts as a failure.
 */
export function poolOdds(dice: number, targetNumber: number, bonus: number, calm: boolean, partial = true): PoolOdds {
  const odds: PoolOdds = { outcomes: 0n, solid: 0n, success: 0n, partial: 0n, failure: 0n, mishap: 0n };
  const n = diceThrown(dice);
  const zeroDice = dice < 1;
  odds.outcomes = 10n ** BigInt(n);
  const add = (count: bigint, natural: number, highest: number, ones: number) => {
    if (stressMishap({ thrown: n, ones, highest, zeroDice }, calm)) {
      odds.mishap += count;
      return;
    }
    const verdict = verdictOf(natural + bonus, targetNumber, partial);
    if (verdict === 'solid success') odds.solid += count;
    else if (verdict === 'success') odds.success += count;
    else if (verdict === 'partial success') odds.partial += count;
    else odds.failure += count;
  };
  for (let highest = 1; highest <= 10; highest++) {
    for (let c = 1; c <= n; c++) {
      const rest = n - c;
      if (highest === 1) {
        if (rest === 0) add(1n, c, highest, c);
        continue;
      }
      for (let k = 0; k <= rest; k++) {
        const others = rest - k;
        // The dice that are neither the highest nor 1 show one of the h − 2 faces between (none when h is 2).
        const count = binomial(n, c) * binomial(rest, k) * BigInt(highest - 2) ** BigInt(others);
        if (count > 0n) add(count, highest + c - 1, highest, k);
      }
    }
  }
  return odds;
}

/** A pool roll's dice as the roll log stores them: every face, in order. */
export function poolDice(result: PoolResult): number[] {
  return result.reading.faces;
}
