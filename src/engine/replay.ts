/**
 * Re-deriving a stored roll from its seed (RULES 6.3): the same inputs and the same seed give the same dice,
 * so anyone can check a roll instead of taking it on trust.
 */
import { seededRng } from './rng.js';
import {
  resolveChallenge,
  resolveLinkedChallenge,
  type ChallengeInput,
  type ChallengeResult,
  type LinkedChallengeResult,
} from './systems/tactalk/challenge.js';
import { resolveContestRoll, type ContestRollInput, type ContestRollResult } from './systems/tactalk/contest.js';
import { resolveOutcomeRoll, type OutcomeRollInput, type OutcomeRollResult } from './tables.js';

export type RollKind = 'challenge' | 'linked' | 'contest' | 'outcome';

/** The dice a challenge showed, as stored: null when no roll was needed. */
export function challengeDice(result: ChallengeResult): { tens: number; ones: number } | null {
  return result.outcome === 'rolled' ? { tens: result.d100.tens, ones: result.d100.ones } : null;
}

export function linkedDice(linked: LinkedChallengeResult): Array<{ tens: number; ones: number } | null> {
  return linked.results.map(challengeDice);
}

export type Rederived =
  | { kind: 'challenge'; result: ChallengeResult; dice: ReturnType<typeof challengeDice> }
  | { kind: 'linked'; result: LinkedChallengeResult; dice: ReturnType<typeof linkedDice> }
  | { kind: 'contest'; result: ContestRollResult; dice: ReturnType<typeof contestDice> }
  | { kind: 'outcome'; result: OutcomeRollResult; dice: ReturnType<typeof outcomeDice> };

/** An outcome roll's dice as stored: a d100 as its two 2D10 dice, any other die as its face. */
export function outcomeDice(result: OutcomeRollResult): Array<{ tens: number; ones: number } | { value: number }> {
  return result.roll.dice.map((die) => (die.d100 ? { tens: die.d100.tens, ones: die.d100.ones } : { value: die.value }));
}

/** A contest round's two dice, challenger first. */
export function contestDice(result: ContestRollResult): Array<{ tens: number; ones: number }> {
  return [result.challenger, result.opponent].map((side) => ({ tens: side.d100.tens, ones: side.d100.ones }));
}

export function rederive(kind: string, inputs: unknown, seed: string): Rederived {
  const rng = seededRng(seed);
  if (kind === 'challenge') {
    const result = resolveChallenge(inputs as ChallengeInput, rng);
    return { kind, result, dice: challengeDice(result) };
  }
  if (kind === 'linked') {
    const result = resolveLinkedChallenge(inputs as ChallengeInput[], rng);
    return { kind, result, dice: linkedDice(result) };
  }
  if (kind === 'contest') {
    const result = resolveContestRoll(inputs as ContestRollInput, rng);
    return { kind, result, dice: contestDice(result) };
  }
  if (kind === 'outcome') {
    // The stored inputs hold the table as it was rolled, so a later change to the table does not matter.
    const result = resolveOutcomeRoll(inputs as OutcomeRollInput, rng);
    return { kind, result, dice: outcomeDice(result) };
  }
  throw new Error(`no replay for rolls of kind ${kind}`);
}
