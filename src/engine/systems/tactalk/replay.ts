/** Tac Talk's stored rolls, rolled again from their seeds: challenges, linked challenges and contest rounds. */
import { z } from 'zod';
import { inputsOf, seeded } from '../../replay-kind.js';
import { resolveChallenge, resolveLinkedChallenge, type ChallengeResult, type LinkedChallengeResult } from './challenge.js';
import { partsOf, resolveContestRoll, type ContestRollResult } from './contest.js';

/** The dice a challenge showed, as stored: null when no roll was needed. */
export function challengeDice(result: ChallengeResult): { tens: number; ones: number } | null {
  return result.outcome === 'rolled' ? { tens: result.d100.tens, ones: result.d100.ones } : null;
}

export function linkedDice(linked: LinkedChallengeResult): Array<{ tens: number; ones: number } | null> {
  return linked.results.map(challengeDice);
}

/** A contest round's dice, challenger first: one per side, or one per part of a linked side, in the order rolled. */
export function contestDice(result: ContestRollResult): Array<{ tens: number; ones: number }> {
  return [result.challenger, result.opponent].flatMap(partsOf).map((part) => ({ tens: part.d100.tens, ones: part.d100.ones }));
}

/** A named term of a sum as rolls store it: an archetype, a condition, a table's modifier, a tactics bonus. */
export const storedModifier = z.looseObject({ name: z.string(), value: z.number() });
const terms = z.array(storedModifier);
const skill = z.looseObject({ name: z.string(), level: z.number() });
const challenge = z.looseObject({
  skill,
  archetypeModifiers: terms,
  conditionModifiers: terms,
  situationalModifier: z.number(),
  challengeLevel: z.number(),
  force: z.boolean(),
  hidden: z.boolean(),
});
const role = z.enum(['attacker', 'defender']);
// Rounds stored before linked sides existed hold a single skill: that shape is still the one-skill side's. A side
// holding `linked` is read as linked only (the one-skill shape refuses it), as the engine rolls it.
const contestSide = z.union(
  [
    z.looseObject({ role, challengeLevel: z.number(), linked: z.array(z.looseObject({ skill, terms })) }),
    z.looseObject({ skill, role, terms, challengeLevel: z.number(), linked: z.never().optional() }),
  ],
  { error: 'a side with one skill or linked skills' },
);

export const tactalkReplays = {
  challenge: seeded(
    inputsOf('challenge', challenge),
    (inputs, rng) => {
      const result = resolveChallenge(inputs, rng);
      return { kind: 'challenge' as const, result, dice: challengeDice(result) };
    },
    // The faces that succeed, as the challenge shows them ("Chance of success"); linked rolls and contest rounds
    // store no single verdict (success is null), so they carry no odds.
    ({ result }) => ({ odds: result.successFaces / 100, d100: result.outcome === 'rolled' ? result.d100.value : null }),
  ),
  linked: seeded(inputsOf('linked', z.array(challenge)), (inputs, rng) => {
    const result = resolveLinkedChallenge(inputs, rng);
    return { kind: 'linked' as const, result, dice: linkedDice(result) };
  }),
  // Rounds rolled before the reading of both failing changed carry none: they replay under the one they were decided
  // by (the defender won). Rounds since also carry the Operators' names, which the replay shows.
  contest: seeded(
    inputsOf(
      'contest',
      z.looseObject({
        challenger: contestSide,
        opponent: contestSide,
        bothFail: z.enum(['nobody', 'defender']).optional(),
        names: z.looseObject({ challenger: z.string(), opponent: z.string() }).optional(),
      }),
    ),
    ({ bothFail = 'defender', names, ...inputs }, rng) => {
      const result = resolveContestRoll({ ...inputs, bothFail }, rng);
      return { kind: 'contest' as const, result, dice: contestDice(result), bothFail, names: names ?? null };
    },
  ),
};
