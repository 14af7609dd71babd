/**
 * Quick checks with die codes and result points (RULES 3, seed 002): standing, against a difficulty, against a
 * fixed or an active resistance, with boost and penalty dice from combined actions, and the effect roll that follows
 * a successful check. Pure: inputs and an Rng in.
 */
import { UserError } from '../../../errors.js';
import { closestNames } from '../../names.js';
import type { Rng } from '../../rng.js';
import {
  CHECK_DICE_MAX,
  fixedResistance,
  formatDieCode,
  parseDieCode,
  rollDieCode,
  type CodeRoll,
  type DieCode,
} from './die-code.js';

/** A band of the seed's benchmark tables: the effectiveness of result points, or a difficulty. */
export interface Band {
  name: string;
  min: number;
  max: number;
  meaning: string;
}

/** The result points table: 1–5 Minimal … 26–30 Overwhelming; above 30 is still Overwhelming. */
export const EFFECTIVENESS: readonly Band[] = [
  { name: 'Minimal', min: 1, max: 5, meaning: 'Effective in the smallest possible quantity or degree.' },
  { name: 'Adequate', min: 6, max: 10, meaning: 'Effective enough to provide measurable results.' },
  { name: 'Moderate', min: 11, max: 15, meaning: 'Effective enough to provide a range of results.' },
  { name: 'Complete', min: 16, max: 20, meaning: 'Effective enough that there is no deficiency.' },
  { name: 'Excessive', min: 21, max: 25, meaning: 'So effective that additional results occur.' },
  { name: 'Overwhelming', min: 26, max: 30, meaning: 'So effective that the results are not easily undone.' },
];

/** The difficulty benchmarks: a name alone means the middle of its band (RULES 3: Moderate 11–15 → 13). */
export const DIFFICULTIES: readonly Band[] = [
  { name: 'Very Easy', min: 1, max: 5, meaning: 'This task does not require preparation.' },
  { name: 'Easy', min: 6, max: 10, meaning: 'This task does not require training.' },
  { name: 'Moderate', min: 11, max: 15, meaning: 'This task requires some training or skill.' },
  { name: 'Difficult', min: 16, max: 20, meaning: 'This task requires specialized training or skill.' },
  { name: 'Very Difficult', min: 21, max: 25, meaning: 'This task requires extensive and specialized training.' },
  { name: 'Heroic', min: 26, max: 30, meaning: 'This task requires unusual and specific training.' },
];

export const DIFFICULTY_MIN = 1;
export const DIFFICULTY_MAX = 99;

/** The effectiveness of result points: none for 0 or less, Overwhelming above 30. */
export function effectivenessOf(points: number): Band | null {
  if (points <= 0) return null;
  return EFFECTIVENESS.find((band) => points <= band.max) ?? EFFECTIVENESS[EFFECTIVENESS.length - 1]!;
}

/** The value a difficulty named alone takes: the middle of its band (Very Easy 3 … Heroic 28). */
export function bandMiddle(band: Band): number {
  return (band.min + band.max) / 2;
}

/** The difficulty band of this name (as stored on a check), or null. */
export function difficultyNamed(name: string): Band | null {
  return DIFFICULTIES.find((band) => letters(band.name) === letters(name)) ?? null;
}

/** The benchmark a difficulty number falls in; null above 30 (beyond Heroic). */
export function difficultyBandOf(value: number): Band | null {
  return DIFFICULTIES.find((band) => value >= band.min && value <= band.max) ?? null;
}

export type Opposition =
  | { kind: 'standing' }
  /**
   * `name` when the difficulty was given by name: its value is then the middle of its band. Checks stored before
   * that reading hold the top of the band, and are resolved with the value they hold.
   */
  | { kind: 'difficulty'; value: number; name: string | null }
  /**
   * Fixed resistance: 3·N + P of the opposing rank, or a value given outright (`code` null). `conceded` names an
   * opponent who conceded the scene and so resists only with the fixed value of the die code given as active.
   */
  | { kind: 'fixed'; value: number; code: DieCode | null; conceded?: string; ability?: string }
  /** Active resistance: the opponent rolls their die code. */
  | { kind: 'active'; code: DieCode; ability?: string };
// `ability`: the opponent's ability whose rank is `code`, when it was named from their sheet (absent: typed as a die code).

/** Reads a die code option: the die code typed, or (where a sheet is there to read) the ability it names and its rank. */
export type CodeReader = (text: string, what: string) => { code: DieCode; ability?: string };

/** Die codes only: nothing is read from a sheet. */
export const dieCodeOnly: CodeReader = (text, what) => ({ code: parseDieCode(text, what) });

export interface CodeCheckInput {
  code: DieCode;
  /** The roller's ability whose rank is `code`, when it was named from their sheet (absent: typed as a die code). */
  ability?: string;
  /** Helpers enhancing the check: their dice are rolled and added (RULES 3, combined actions). */
  boost: DieCode[];
  /** Helpers blunting the check: their dice are rolled and subtracted. */
  penalty: DieCode[];
  against: Opposition;
  /** The effect roll (e.g. damage) a successful check is followed by; rolled only when the result points are above 0. */
  effect?: DieCode;
}

export interface CodeCheckResult {
  input: CodeCheckInput;
  roll: CodeRoll;
  boosts: CodeRoll[];
  penalties: CodeRoll[];
  /** The roller's total: the die code + every boost − every penalty. */
  total: number;
  /** The opponent's roll against an active resistance. */
  opponent: CodeRoll | null;
  /** The difficulty or resistance value the total is compared with; null for a standing check. */
  opposition: number | null;
  /** total − opposition; a standing check's result points are its total. */
  resultPoints: number;
  /** Opposed: result points > 0. Standing: null (there is nothing to fail against). */
  success: boolean | null;
  /** The result points on the effectiveness table; null when they are 0 or less (no effect / failure). */
  effectiveness: Band | null;
  /** The effect roll, made after every other die and only when the check succeeded (result points above 0). */
  effect: CodeRoll | null;
}

const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

/** A difficulty as typed: a number (1–99), taken exactly, or a benchmark name (`very easy` … `heroic`), the middle of its band. */
export function parseDifficulty(text: string): Opposition & { kind: 'difficulty' } {
  const trimmed = text.trim();
  if (/^[+-]?\d+$/.test(trimmed)) {
    const value = Number(trimmed);
    if (value < DIFFICULTY_MIN || value > DIFFICULTY_MAX) {
      throw new UserError(`A difficulty is a number from ${DIFFICULTY_MIN} to ${DIFFICULTY_MAX} or a name (very easy … heroic); ${value} is not.`);
    }
    return { kind: 'difficulty', value, name: null };
  }
  const band = difficultyNamed(trimmed);
  if (!band) {
    const suggestions = closestNames(trimmed, DIFFICULTIES.map((candidate) => candidate.name), 2);
    throw new UserError(
      `\`${trimmed.slice(0, 30)}\` is not a difficulty. Give a number (1–${DIFFICULTY_MAX}) or one of ${DIFFICULTIES.map((candidate) => candidate.name.toLowerCase()).join(', ')}` +
        `${suggestions.length > 0 ? `. Did you mean **${suggestions[0]!.toLowerCase()}**?` : '.'}`,
    );
  }
  return { kind: 'difficulty', value: bandMiddle(band), name: band.name };
}

/** A fixed resistance as typed: the opposing rank as a die code (3·N + P), or the value itself (1–99). */
export function parseFixedResistance(text: string, read: CodeReader = dieCodeOnly): Opposition & { kind: 'fixed' } {
  const trimmed = text.trim();
  if (/^[+-]?\d+$/.test(trimmed)) {
    const value = Number(trimmed);
    if (value < 1 || value > DIFFICULTY_MAX) throw new UserError(`A fixed resistance is a die code (e.g. \`3D+2\`) or a number from 1 to ${DIFFICULTY_MAX}; ${value} is not.`);
    return { kind: 'fixed', value, code: null };
  }
  const { code, ability } = read(trimmed, 'resistance');
  return { kind: 'fixed', value: fixedResistance(code), code, ...(ability ? { ability } : {}) };
}

/**
 * The opposition from the options: at most one of difficulty, resistance (fixed) and opponent (active). `read` reads
 * a resistance's or an opponent's die code (from the opposing sheet where there is one).
 */
export function oppositionFrom(options: { difficulty?: string | null; resistance?: string | null; opponent?: string | null }, read: CodeReader = dieCodeOnly): Opposition {
  const given = (['difficulty', 'resistance', 'opponent'] as const).filter((name) => {
    const value = options[name];
    return value !== null && value !== undefined && value.trim() !== '';
  });
  if (given.length > 1) {
    throw new UserError(
      `Give only one of \`difficulty\`, \`resistance\` (fixed) and \`opponent\` (active resistance), not ${given.map((name) => `\`${name}\``).join(' and ')}.`,
    );
  }
  if (given[0] === 'difficulty') return parseDifficulty(options.difficulty!);
  if (given[0] === 'resistance') return parseFixedResistance(options.resistance!, read);
  if (given[0] === 'opponent') {
    const { code, ability } = read(options.opponent!, 'opponent’s die code');
    return { kind: 'active', code, ...(ability ? { ability } : {}) };
  }
  return { kind: 'standing' };
}

/**
 * The resistance of an opponent who conceded the scene (seed 002: "that opponent can only use fixed resistance
 * values"): an active resistance becomes the fixed value of the same die code; any other opposition stands.
 */
export function concededResistance(against: Opposition, opponent: string): Opposition {
  if (against.kind !== 'active') return against;
  return { kind: 'fixed', value: fixedResistance(against.code), code: against.code, conceded: opponent, ...(against.ability ? { ability: against.ability } : {}) };
}

/** Every die the check throws, the opponent's included. */
export function checkDiceCount(input: CodeCheckInput): number {
  const count = (codes: DieCode[]) => codes.reduce((sum, code) => sum + code.dice, 0);
  return (
    input.code.dice +
    count(input.boost) +
    count(input.penalty) +
    (input.against.kind === 'active' ? input.against.code.dice : 0) +
    (input.effect ? input.effect.dice : 0)
  );
}

export function validateCodeCheck(input: CodeCheckInput): void {
  const dice = checkDiceCount(input);
  if (dice > CHECK_DICE_MAX) {
    throw new UserError(`That check would throw ${dice} dice (yours, the helpers', the opponent's and the effect roll's); at most ${CHECK_DICE_MAX}.`);
  }
  const { against } = input;
  if ((against.kind === 'difficulty' || against.kind === 'fixed') && (!Number.isInteger(against.value) || against.value < 1 || against.value > DIFFICULTY_MAX)) {
    throw new UserError(`A difficulty or resistance is a number from 1 to ${DIFFICULTY_MAX}; ${against.value} is not.`);
  }
}

/**
 * Rolls the die code, then each boost, then each penalty, then the opponent, then (on a success) the effect roll:
 * that order, so a seed replays, and a check stored before effect rolls existed throws the same dice.
 * Result points = total − difficulty or resistance (a standing check's are its total); ≤ 0 fails.
 */
export function resolveCodeCheck(input: CodeCheckInput, rng: Rng): CodeCheckResult {
  validateCodeCheck(input);
  const roll = rollDieCode(input.code, rng);
  const boosts = input.boost.map((code) => rollDieCode(code, rng));
  const penalties = input.penalty.map((code) => rollDieCode(code, rng));
  const sum = (rolls: CodeRoll[]) => rolls.reduce((total, each) => total + each.total, 0);
  const total = roll.total + sum(boosts) - sum(penalties);
  const { against } = input;
  const opponent = against.kind === 'active' ? rollDieCode(against.code, rng) : null;
  const opposition = against.kind === 'standing' ? null : against.kind === 'active' ? opponent!.total : against.value;
  const resultPoints = opposition === null ? total : total - opposition;
  const effect = input.effect && resultPoints > 0 ? rollDieCode(input.effect, rng) : null;
  return {
    input,
    roll,
    boosts,
    penalties,
    total,
    opponent,
    opposition,
    resultPoints,
    success: opposition === null ? null : resultPoints > 0,
    effectiveness: effectivenessOf(resultPoints),
    effect,
  };
}

/**
 * What a check puts on a condition track: the effect roll's total when the check has one (seed 002: the effect roll
 * "determines the primary results"), else its result points ("result points are then spent on conditions").
 * Nothing (0) for a failed check or an effect roll of 0 or less.
 */
export function pointsToSpend(result: CodeCheckResult): number {
  if (result.resultPoints <= 0) return 0;
  if (result.input.effect) return Math.max(0, result.effect?.total ?? 0);
  return result.resultPoints;
}

/** Exact counts of every value of the result points over all the dice's faces (6^dice outcomes). */
export interface PointsDistribution {
  /** The lowest possible result points; counts[i] is how many outcomes give min + i. */
  min: number;
  counts: bigint[];
  outcomes: bigint;
}

/** The exact distribution of the result points, by convolution (the dice are at most 60, so this is cheap). */
export function resultPointsDistribution(input: CodeCheckInput): PointsDistribution {
  validateCodeCheck(input);
  let min = 0;
  let counts: bigint[] = [1n];
  const addDice = (code: DieCode, sign: 1 | -1) => {
    for (let die = 0; die < code.dice; die++) {
      const next: bigint[] = new Array<bigint>(counts.length + 5).fill(0n);
      counts.forEach((count, index) => {
        if (count === 0n) return;
        for (let face = 0; face < 6; face++) {
          // +die: faces 1..6 shift the lowest by +1; −die: faces −6..−1 shift it by −6.
          next[index + face] = next[index + face]! + count;
        }
      });
      counts = next;
      min += sign === 1 ? 1 : -6;
    }
    min += sign * code.pips;
  };
  addDice(input.code, 1);
  input.boost.forEach((code) => addDice(code, 1));
  input.penalty.forEach((code) => addDice(code, -1));
  // The effect roll comes after the verdict, so it has no part in the result points.
  const { against } = input;
  if (against.kind === 'active') addDice(against.code, -1);
  else if (against.kind !== 'standing') min -= against.value;
  return { min, counts, outcomes: 6n ** BigInt(checkDiceCount(input) - (input.effect?.dice ?? 0)) };
}

/** How many outcomes give more than `points` result points (more than 0: success / an effect). */
export function outcomesAbove(distribution: PointsDistribution, points: number): bigint {
  return distribution.counts.reduce((sum, count, index) => (distribution.min + index > points ? sum + count : sum), 0n);
}

/** `3D+2`, or `Blaster 3D+2` for a die code read from an ability of a sheet. */
export function namedCode(code: DieCode, ability?: string): string {
  return ability ? `${ability} ${formatDieCode(code)}` : formatDieCode(code);
}

export function describeOpposition(against: Opposition): string {
  switch (against.kind) {
    case 'standing':
      return 'standing check';
    case 'difficulty':
      return against.name ? `difficulty ${against.name} (${against.value})` : `difficulty ${against.value}`;
    case 'fixed':
      return against.code ? `fixed resistance ${against.value} (${namedCode(against.code, against.ability)})` : `fixed resistance ${against.value}`;
    case 'active':
      return `active resistance ${namedCode(against.code, against.ability)}`;
  }
}

/**
 * The dice of a check as the roll log stores them: every die of every roll, in the order they were thrown. `effect`
 * is there only for a check that names an effect roll, so checks stored before it existed still match on replay.
 */
export function codeCheckDice(result: CodeCheckResult): { roll: number[]; boosts: number[][]; penalties: number[][]; opponent: number[] | null; effect?: number[] | null } {
  return {
    roll: result.roll.dice,
    boosts: result.boosts.map((each) => each.dice),
    penalties: result.penalties.map((each) => each.dice),
    opponent: result.opponent?.dice ?? null,
    ...(result.input.effect ? { effect: result.effect?.dice ?? null } : {}),
  };
}
