/** Tac Talk's stored rolls, rolled again from their seeds: challenges, linked challenges and contest rounds. */
import { arrayOf, boolean, either, inputsOf, modifier, number, object, oneOf, seeded, string } from '../../replay-kind.js';
import { resolveChallenge, resolveLinkedChallenge, type ChallengeInput, type ChallengeResult, type LinkedChallengeResult } from './challenge.js';
import { partsOf, resolveContestRoll, type ContestRollInput, type ContestRollResult } from './contest.js';

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

const skill = object({ name: string, level: number });
const challenge = object({
  skill,
  archetypeModifiers: arrayOf(modifier),
  conditionModifiers: arrayOf(modifier),
  situationalModifier: number,
  challengeLevel: number,
  force: boolean,
  hidden: boolean,
});
const role = oneOf('attacker', 'defender');
// Rounds stored before linked sides existed hold a single skill: that shape is still the one-skill side's.
const contestSide = either(
  [
    { when: (side) => 'linked' in side, check: object({ role, challengeLevel: number, linked: arrayOf(object({ skill, terms: arrayOf(modifier) })) }) },
    { when: () => true, check: object({ skill, role, terms: arrayOf(modifier), challengeLevel: number }) },
  ],
  'a side with one skill or linked skills',
);

export const tactalkReplays = {
  challenge: seeded(inputsOf<ChallengeInput>('challenge', challenge), (inputs, rng) => {
    const result = resolveChallenge(inputs, rng);
    return { kind: 'challenge' as const, result, dice: challengeDice(result) };
  }),
  linked: seeded(inputsOf<ChallengeInput[]>('linked', arrayOf(challenge)), (inputs, rng) => {
    const result = resolveLinkedChallenge(inputs, rng);
    return { kind: 'linked' as const, result, dice: linkedDice(result) };
  }),
  contest: seeded(inputsOf<ContestRollInput>('contest', object({ challenger: contestSide, opponent: contestSide })), (inputs, rng) => {
    const result = resolveContestRoll(inputs, rng);
    return { kind: 'contest' as const, result, dice: contestDice(result) };
  }),
};
