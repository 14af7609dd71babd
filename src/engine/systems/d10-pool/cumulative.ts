/**
 * Cumulative rolls (RULES 5, seed 004's third advanced roll): several basic rolls whose results add up toward a
 * high total, or whose successes add up toward a count (a solid success counts as two). One step at a time: each
 * step is a roll of its own, with the running state before it in its inputs, so any step replays from its seed.
 */
import { UserError } from '../../../errors.js';
import type { Rng } from '../../rng.js';
import { resolvePoolRoll, validatePoolInput, type PoolInput, type PoolResult } from './pool.js';
import type { SheetEntryRef } from './pool.js';

export const CUMULATIVE_TARGET_MAX = 1000;
export const CUMULATIVE_COUNT_MAX = 20;
export const CUMULATIVE_ROLLS_MAX = 25;
export const CUMULATIVE_ROLLS_DEFAULT = 10;

export interface CumulativeProgress {
  /** The sum of the results so far. */
  total: number;
  /** Successes so far (a solid success counts two). */
  successes: number;
}

/** What ended the cumulative roll. */
export type CumulativeEnd = 'target reached' | 'count reached' | 'botched' | 'out of rolls';

export interface CumulativeSettings {
  dice: number;
  /** Each roll's TN: needed to count successes; without it a roll only adds its result. */
  targetNumber: number | null;
  modifier: number;
  calm: boolean;
  /** Situations that take one die from every roll (the seed's conditional modifiers); absent in older rolls. */
  situations?: string[];
  /** The running total to reach (the "very high TN"), or null. */
  target: number | null;
  /** The successes to reach, or null. At least one of target and count. */
  count: number | null;
  /** The most rolls allowed; the roll fails when they are used up. */
  maxRolls: number;
  /** The character who rolls (absent without a sheet, and in older rolls): every step carries it. */
  sheet?: { id: number; name: string };
  /** The skill or attribute of that sheet whose number is `dice`; absent when the dice were given as a number. */
  pool?: SheetEntryRef;
}

export interface CumulativeStepInput extends CumulativeSettings {
  /** The roll id of step 1: every step of one cumulative roll carries it. */
  cumulativeId: string;
  /** 1-based. */
  step: number;
  before: CumulativeProgress;
}

export interface CumulativeStepResult {
  input: CumulativeStepInput;
  roll: PoolResult;
  /** What this roll added: nothing after a mishap; never less than nothing. */
  gained: CumulativeProgress;
  after: CumulativeProgress;
  /** Why the cumulative roll ended with this step; null when another roll may follow. */
  end: CumulativeEnd | null;
}

function checkInteger(value: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UserError(`${what} must be a whole number from ${min} to ${max}; ${value} is not.`);
  }
}

export function validateCumulativeSettings(settings: CumulativeSettings): void {
  validatePoolInput(poolInputOf(settings));
  if (settings.target === null && settings.count === null) {
    throw new UserError('A cumulative roll needs a goal: `target` (a total the results add up to) or `count` (successes needed, with `tn`), or both.');
  }
  if (settings.target !== null) checkInteger(settings.target, 1, CUMULATIVE_TARGET_MAX, 'The target total');
  if (settings.count !== null) {
    checkInteger(settings.count, 1, CUMULATIVE_COUNT_MAX, 'The count of successes');
    if (settings.targetNumber === null) throw new UserError('Counting successes needs each roll’s target number: add `tn`.');
  }
  checkInteger(settings.maxRolls, 1, CUMULATIVE_ROLLS_MAX, 'The number of rolls');
}

/** One roll of the cumulative roll, as a basic roll's inputs. */
export function poolInputOf(settings: CumulativeSettings): PoolInput {
  const input: PoolInput = { dice: settings.dice, targetNumber: settings.targetNumber, modifier: settings.modifier, calm: settings.calm };
  return settings.situations && settings.situations.length > 0 ? { ...input, situations: settings.situations } : input;
}

/** The successes a roll counts: a solid success two, a success one. */
export function successesOf(roll: PoolResult): number {
  if (roll.verdict === 'solid success') return 2;
  return roll.verdict === 'success' ? 1 : 0;
}

/**
 * One step: a basic roll; a mishap adds nothing (a botch or critical failure also ends the roll); otherwise the
 * result (never below 0) adds to the total and its successes to the count. The roll ends when a goal is reached,
 * on a botch, or when the last allowed roll was made.
 */
export function resolveCumulativeStep(input: CumulativeStepInput, rng: Rng): CumulativeStepResult {
  validateCumulativeSettings(input);
  checkInteger(input.step, 1, input.maxRolls, 'The step');
  const roll = resolvePoolRoll(poolInputOf(input), rng);
  const gained: CumulativeProgress = roll.reading.mishap ? { total: 0, successes: 0 } : { total: Math.max(0, roll.result), successes: successesOf(roll) };
  const after: CumulativeProgress = { total: input.before.total + gained.total, successes: input.before.successes + gained.successes };
  let end: CumulativeEnd | null = null;
  if (input.target !== null && after.total >= input.target) end = 'target reached';
  else if (input.count !== null && after.successes >= input.count) end = 'count reached';
  else if (roll.reading.mishap === 'botch' || roll.reading.mishap === 'critical failure') end = 'botched';
  else if (input.step >= input.maxRolls) end = 'out of rolls';
  return { input, roll, gained, after, end };
}

/** The inputs of the step after `previous`: the same settings, the running state carried over. */
export function nextStepInput(previous: CumulativeStepResult): CumulativeStepInput {
  if (previous.end !== null) throw new UserError(`This cumulative roll is over (${previous.end}).`);
  return { ...previous.input, step: previous.input.step + 1, before: previous.after };
}

export function reachedGoal(end: CumulativeEnd | null): boolean {
  return end === 'target reached' || end === 'count reached';
}
