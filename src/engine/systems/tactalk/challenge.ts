/**
 * Tac Talk challenge rolls (RULES 1.2) and linked challenge rolls (RULES 1.3).
 * Pure: inputs and an Rng in, a plain result out.
 */
import { UserError } from '../../../errors.js';
import { rollD100, type D100 } from '../../dice.js';
import type { Rng } from '../../rng.js';

export const CHALLENGE_LEVEL_MIN = 0;
export const CHALLENGE_LEVEL_MAX = 200;
export const SKILL_LEVEL_MIN = 0;
export const SKILL_LEVEL_MAX = 100;
/** A situational modifier beyond this is a typo, not a situation. */
export const SITUATIONAL_MODIFIER_LIMIT = 200;

/** A named term of the sum: an archetype modifier or a condition. */
export interface Modifier {
  name: string;
  value: number;
}

export interface ChallengeInput {
  /** The skill tested and its level (the aptitude). */
  skill: { name: string; level: number };
  archetypeModifiers: Modifier[];
  conditionModifiers: Modifier[];
  situationalModifier: number;
  challengeLevel: number;
  /** Roll even when the outcome is certain (a Dispatcher's choice, e.g. for NPCs). */
  force: boolean;
  /** The player does not know the CL: certain outcomes are not announced, the roll is made (RULES 1.5). */
  hidden: boolean;
}

interface ChallengeCommon {
  input: ChallengeInput;
  /** S + ΣA + ΣC + M: everything but the die. */
  base: number;
  success: boolean;
  /** How many of the 100 faces of the D100 succeed: the exact chance of success, in percent. */
  successFaces: number;
}

export interface RolledChallenge extends ChallengeCommon {
  outcome: 'rolled';
  d100: D100;
  result: number;
  /** result − CL; ≥ 0 on success. */
  margin: number;
}

export interface GuaranteedChallenge extends ChallengeCommon {
  outcome: 'guaranteed';
  /** The lowest result the D100 could give: base + 1. */
  boundary: number;
}

export interface ImpossibleChallenge extends ChallengeCommon {
  outcome: 'impossible';
  /** The highest result the D100 could give: base + 100. */
  boundary: number;
}

export type ChallengeResult = RolledChallenge | GuaranteedChallenge | ImpossibleChallenge;

export function challengeBase(input: ChallengeInput): number {
  const sum = (modifiers: Modifier[]) => modifiers.reduce((total, modifier) => total + modifier.value, 0);
  return input.skill.level + sum(input.archetypeModifiers) + sum(input.conditionModifiers) + input.situationalModifier;
}

/** How many D100 faces d satisfy base + d ≥ CL. */
export function successFaces(base: number, challengeLevel: number): number {
  const lowestSucceedingFace = Math.max(1, challengeLevel - base);
  return Math.max(0, Math.min(100, 101 - lowestSucceedingFace));
}

export function validateChallengeInput(input: ChallengeInput): void {
  const { challengeLevel, skill, situationalModifier } = input;
  if (!Number.isInteger(challengeLevel) || challengeLevel < CHALLENGE_LEVEL_MIN || challengeLevel > CHALLENGE_LEVEL_MAX) {
    throw new UserError(
      `The Challenge Level must be a whole number from ${CHALLENGE_LEVEL_MIN} to ${CHALLENGE_LEVEL_MAX}; ${challengeLevel} is not.`,
    );
  }
  if (!Number.isInteger(skill.level) || skill.level < SKILL_LEVEL_MIN || skill.level > SKILL_LEVEL_MAX) {
    throw new UserError(`A skill level must be a whole number from ${SKILL_LEVEL_MIN} to ${SKILL_LEVEL_MAX}; ${skill.level} is not.`);
  }
  if (!Number.isInteger(situationalModifier) || Math.abs(situationalModifier) > SITUATIONAL_MODIFIER_LIMIT) {
    throw new UserError(
      `The modifier must be a whole number from -${SITUATIONAL_MODIFIER_LIMIT} to +${SITUATIONAL_MODIFIER_LIMIT}; ${situationalModifier} is not.`,
    );
  }
}

/**
 * Result = D100 + S + ΣA + ΣC + M; success ⇔ Result ≥ CL (ties go to the Operator).
 * A certain outcome is not rolled unless forced or the CL is hidden.
 */
export function resolveChallenge(input: ChallengeInput, rng: Rng): ChallengeResult {
  validateChallengeInput(input);
  const base = challengeBase(input);
  const faces = successFaces(base, input.challengeLevel);
  const mayShortCut = !input.force && !input.hidden;
  if (mayShortCut && faces === 100) {
    return { outcome: 'guaranteed', input, base, success: true, successFaces: faces, boundary: base + 1 };
  }
  if (mayShortCut && faces === 0) {
    return { outcome: 'impossible', input, base, success: false, successFaces: faces, boundary: base + 100 };
  }
  const d100 = rollD100(rng);
  const result = base + d100.value;
  const margin = result - input.challengeLevel;
  return { outcome: 'rolled', input, base, success: margin >= 0, successFaces: faces, d100, result, margin };
}

export interface LinkedChallengeResult {
  results: ChallengeResult[];
  succeeded: number;
}

/**
 * Each challenge of a linked roll is resolved on its own, in order, from the one rng (RULES 1.3). Its CLs may be
 * hidden; what a linked roll may not have is an investigation (RULES 1.5), which is the caller's to refuse.
 */
export function resolveLinkedChallenge(inputs: ChallengeInput[], rng: Rng): LinkedChallengeResult {
  if (inputs.length < 2) throw new UserError('A linked roll needs at least two challenge rolls, separated by `;`.');
  const results = inputs.map((input) => resolveChallenge(input, rng));
  return { results, succeeded: results.filter((result) => result.success).length };
}
