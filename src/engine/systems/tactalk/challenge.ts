/**
 * Tac Talk challenge rolls (RULES 1.2) and linked challenge rolls (RULES 1.3).
 * Pure: inputs and an Rng in, a plain result out.
 */
import { z } from 'zod';
import { UserError } from '../../../errors.js';
import { d100Schema, rollD100 } from '../../dice.js';
import type { Rng } from '../../rng.js';

export const CHALLENGE_LEVEL_MIN = 0;
export const CHALLENGE_LEVEL_MAX = 200;
export const SKILL_LEVEL_MIN = 0;
export const SKILL_LEVEL_MAX = 100;
/** A situational modifier beyond this is a typo, not a situation. */
export const SITUATIONAL_MODIFIER_LIMIT = 200;

/** A named term of the sum: an archetype modifier or a condition. */
export const modifierSchema = z.object({ name: z.string(), value: z.number() });
export type Modifier = z.infer<typeof modifierSchema>;

/** A skill as a roll uses it: its name and level (the aptitude). */
export const skillAptitudeSchema = z.object({ name: z.string(), level: z.number() });

export const challengeInputSchema = z.object({
  /** The skill tested and its level (the aptitude). */
  skill: skillAptitudeSchema,
  archetypeModifiers: z.array(modifierSchema),
  conditionModifiers: z.array(modifierSchema),
  situationalModifier: z.number(),
  challengeLevel: z.number(),
  /** Roll even when the outcome is certain (a Dispatcher's choice, e.g. for NPCs). */
  force: z.boolean(),
  /** The player does not know the CL: certain outcomes are not announced, the roll is made (RULES 1.5). */
  hidden: z.boolean(),
});
export type ChallengeInput = z.infer<typeof challengeInputSchema>;

const challengeCommonSchema = z.object({
  input: challengeInputSchema,
  /** S + ΣA + ΣC + M: everything but the die. */
  base: z.number(),
  success: z.boolean(),
  /** How many of the 100 faces of the D100 succeed: the exact chance of success, in percent. */
  successFaces: z.number(),
});

const rolledChallengeSchema = challengeCommonSchema.extend({
  outcome: z.literal('rolled'),
  d100: d100Schema,
  result: z.number(),
  /** result − CL; ≥ 0 on success. */
  margin: z.number(),
});
export type RolledChallenge = z.infer<typeof rolledChallengeSchema>;

const guaranteedChallengeSchema = challengeCommonSchema.extend({
  outcome: z.literal('guaranteed'),
  /** The lowest result the D100 could give: base + 1. */
  boundary: z.number(),
});
export type GuaranteedChallenge = z.infer<typeof guaranteedChallengeSchema>;

const impossibleChallengeSchema = challengeCommonSchema.extend({
  outcome: z.literal('impossible'),
  /** The highest result the D100 could give: base + 100. */
  boundary: z.number(),
});
export type ImpossibleChallenge = z.infer<typeof impossibleChallengeSchema>;

export const challengeResultSchema = z.discriminatedUnion('outcome', [rolledChallengeSchema, guaranteedChallengeSchema, impossibleChallengeSchema]);
export type ChallengeResult = z.infer<typeof challengeResultSchema>;

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
