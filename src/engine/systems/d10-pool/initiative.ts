/**
 * Initiative with d10 pools (seed 004, "Time" and "Actions"): "Actions are declared in order of Initiative, lowest
 * to highest", and "At the beginning of phase 2, Initiative is rolled": rolled again at the start of every phase
 * (3 s; a round is 2 phases, a turn 2 rounds).
 * Where the seed is silent: it never says how an Initiative total is made, only that Leroy "has an Initiative total
 * of 16" and Earl "totals 21". We read it as a skill roll of this system: an initiative pool of d10s read as every
 * pool is (the highest die + 1 for each other die showing it, src/engine/systems/d10-pool/pool.ts) plus a modifier
 * (totals like 16 and 21 need one). Initiative is not a success or failure, so the stress rules (a majority of 1s,
 * a botch) do not apply; zero or fewer dice still roll one die. Ties go to who joined first.
 */
import { UserError } from '../../../errors.js';
import type { InitiativeRule } from '../../initiative-rule.js';
import type { Rng } from '../../rng.js';
import { POOL_DICE_MAX, POOL_DICE_MIN, POOL_MODIFIER_LIMIT, readPool, rollPoolDice, type PoolReading } from './pool.js';

export const D10_PHASE_RULE: InitiativeRule<'d10-pool'> = { id: 'd10-phase', system: 'd10-pool', first: 'lowest', cycle: 'phase', rolled: 'each cycle' };

/** One combatant's initiative pool. */
export interface InitiativePool {
  name: string;
  /** How many d10: zero or fewer still rolls one. */
  dice: number;
  modifier: number;
}

export interface PhaseInitiativeInput {
  /** The phase these totals are for. */
  phase: number;
  entries: InitiativePool[];
}

export interface PhaseInitiativeEntry extends InitiativePool {
  reading: PoolReading;
  /** The reading + the modifier: the Initiative total. */
  total: number;
}

export interface PhaseInitiativeResult {
  phase: number;
  entries: PhaseInitiativeEntry[];
}

/** A pool as typed: its dice (−20…30) and modifier (±50), the limits of every d10 pool. */
export function initiativePool(name: string, diceText: string, modifier: number): InitiativePool {
  const trimmed = diceText.trim();
  const dice = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isInteger(dice) || dice < POOL_DICE_MIN || dice > POOL_DICE_MAX) {
    throw new UserError(`The initiative pool is a number of d10s from ${POOL_DICE_MIN} to ${POOL_DICE_MAX} (e.g. \`3\`, with \`modifier\` for what is added); \`${trimmed.slice(0, 20)}\` is not.`);
  }
  if (!Number.isInteger(modifier) || Math.abs(modifier) > POOL_MODIFIER_LIMIT) {
    throw new UserError(`The initiative modifier is a whole number from −${POOL_MODIFIER_LIMIT} to ${POOL_MODIFIER_LIMIT}; ${modifier} is not.`);
  }
  return { name, dice, modifier };
}

/** Rolls every entry's pool, in order: the Initiative totals of one phase. */
export function rollPhaseInitiative(input: PhaseInitiativeInput, rng: Rng): PhaseInitiativeResult {
  return {
    phase: input.phase,
    entries: input.entries.map((entry) => {
      const reading = readPool(rollPoolDice(entry.dice, rng), { zeroDice: entry.dice < 1, calm: true });
      return { ...entry, reading, total: reading.natural + entry.modifier };
    }),
  };
}

/** The dice as the roll log stores them: each entry's faces. */
export function phaseInitiativeDice(result: PhaseInitiativeResult): number[][] {
  return result.entries.map((entry) => entry.reading.faces);
}
