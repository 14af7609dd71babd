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
import { partsOf, resolveContestRoll, type ContestRollInput, type ContestRollResult } from './systems/tactalk/contest.js';
import { resolveOutcomeRoll, type OutcomeRollInput, type OutcomeRollResult } from './tables.js';
import { notationDice, notationEngine, rollDiceNotation, type DiceNotationInput, type DiceNotationResult } from './dice-notation.js';
import { rollDiceNotationOffThread } from './dice-notation-thread.js';
import { codeCheckDice, resolveCodeCheck, type CodeCheckInput, type CodeCheckResult } from './systems/result-points/check.js';
import type { SceneRecord } from './systems/result-points/scene.js';
import { poolDice, resolveAdvancedRoll, resolvePoolRoll, type AdvancedInput, type PoolInput, type PoolResult } from './systems/d10-pool/pool.js';
import { resolveCumulativeStep, type CumulativeStepInput, type CumulativeStepResult } from './systems/d10-pool/cumulative.js';
import { d6Faces, resolveD6Pool, resolvePush, resolveTieBreak, tieBreakFaces, type D6PoolInput, type D6PoolResult, type PoolConditionRecord, type PushInput, type PushResult, type TieBreakInput, type TieBreakResult } from './systems/d6-pool/pool.js';
import { attackDice, checkDice, resolveAttack, resolveCheck, resolvePsi, rollDamage, type AttackInput, type AttackResult, type CheckInput, type CheckResult, type DamageInput, type DamageRoll, type PsiInput, type PsiResult } from './systems/d100-tactics/tactics.js';
import { debateInitiativeDice, rollDebateInitiative, type DebateInitiativeInput, type DebateInitiativeResult } from './systems/result-points/initiative.js';
import { phaseInitiativeDice, rollPhaseInitiative, type PhaseInitiativeInput, type PhaseInitiativeResult } from './systems/d10-pool/initiative.js';
import { resolveReaction, resolveSocial, type ReactionInput, type ReactionResult, type SocialInput, type SocialResult } from './systems/d100-tactics/tactics.js';

/** Every kind of roll the bot stores, each of which `rederive` (or `replayRoll`) can roll again. */
export const ROLL_KINDS = [
  'dice',
  'challenge',
  'linked',
  'contest',
  'outcome',
  'code',
  'code-spend',
  'code-scene',
  'd10',
  'd10-advanced',
  'd10-extended',
  'pool',
  'pool-opposed',
  'pool-push',
  'pool-condition',
  'pool-tiebreak',
  'check',
  'attack',
  'attack-applied',
  'damage',
  'psi',
  'social',
  'reaction',
  'code-initiative',
  'd10-initiative',
] as const;

export type RollKind = (typeof ROLL_KINDS)[number];

/** The dice a challenge showed, as stored: null when no roll was needed. */
export function challengeDice(result: ChallengeResult): { tens: number; ones: number } | null {
  return result.outcome === 'rolled' ? { tens: result.d100.tens, ones: result.d100.ones } : null;
}

export function linkedDice(linked: LinkedChallengeResult): Array<{ tens: number; ones: number } | null> {
  return linked.results.map(challengeDice);
}

export type Rederived =
  | { kind: 'dice'; result: DiceNotationResult; dice: ReturnType<typeof notationDice> }
  | { kind: 'challenge'; result: ChallengeResult; dice: ReturnType<typeof challengeDice> }
  | { kind: 'linked'; result: LinkedChallengeResult; dice: ReturnType<typeof linkedDice> }
  | { kind: 'contest'; result: ContestRollResult; dice: ReturnType<typeof contestDice> }
  | { kind: 'outcome'; result: OutcomeRollResult; dice: ReturnType<typeof outcomeDice> }
  | { kind: 'code'; result: CodeCheckResult; dice: ReturnType<typeof codeCheckDice> }
  | { kind: 'code-scene'; result: SceneRecord; dice: never[] }
  | { kind: 'd10'; result: PoolResult; dice: number[] }
  | { kind: 'd10-advanced'; result: PoolResult; dice: number[] }
  | { kind: 'd10-extended'; result: CumulativeStepResult; dice: number[] }
  | { kind: 'pool'; result: D6PoolResult; dice: number[] }
  | { kind: 'pool-opposed'; result: D6PoolResult; dice: number[] }
  | { kind: 'pool-push'; result: PushResult; dice: number[] }
  | { kind: 'pool-condition'; result: PoolConditionRecord; dice: never[] }
  | { kind: 'pool-tiebreak'; result: TieBreakResult; dice: ReturnType<typeof tieBreakFaces> }
  | { kind: 'check'; result: CheckResult; dice: ReturnType<typeof checkDice> }
  | { kind: 'attack'; result: AttackResult; dice: ReturnType<typeof attackDice> }
  | { kind: 'damage'; result: DamageRoll; dice: number[] }
  | { kind: 'psi'; result: PsiResult; dice: ReturnType<typeof checkDice> }
  | { kind: 'social'; result: SocialResult; dice: ReturnType<typeof checkDice> }
  | { kind: 'reaction'; result: ReactionResult; dice: ReturnType<typeof checkDice> }
  | { kind: 'code-initiative'; result: DebateInitiativeResult; dice: number[][] }
  | { kind: 'd10-initiative'; result: PhaseInitiativeResult; dice: number[][] };

/** An outcome roll's dice as stored: a d100 as its two 2D10 dice, any other die as its face. */
export function outcomeDice(result: OutcomeRollResult): Array<{ tens: number; ones: number } | { value: number }> {
  return result.roll.dice.map((die) => (die.d100 ? { tens: die.d100.tens, ones: die.d100.ones } : { value: die.value }));
}

/** A contest round's dice, challenger first: one per side, or one per part of a linked side, in the order rolled. */
export function contestDice(result: ContestRollResult): Array<{ tens: number; ones: number }> {
  return [result.challenger, result.opponent].flatMap(partsOf).map((part) => ({ tens: part.d100.tens, ones: part.d100.ones }));
}

/**
 * Whether a replay gave the dice the roll log holds. Investigations stored before their dice took the outcome shape
 * hold the table's die rolls as the engine returns them (`{ value, d100 }`): the same dice, in a longer shape.
 */
export function diceMatch(rederived: Rederived, storedDice: unknown): boolean {
  const stored = JSON.stringify(storedDice);
  if (JSON.stringify(rederived.dice) === stored) return true;
  return rederived.kind === 'outcome' && JSON.stringify(rederived.result.roll.dice) === stored;
}

/**
 * Rolls a stored roll again, as the bot does: generic notation on the notation thread (its library never loads on
 * the bot's thread), every other kind here with `rederive`.
 */
export async function replayRoll(kind: string, inputs: unknown, seed: string): Promise<Rederived> {
  if (kind === 'dice') {
    const result = await rollDiceNotationOffThread(inputs as DiceNotationInput, seed);
    return { kind, result, dice: notationDice(result) };
  }
  return rederive(kind, inputs, seed);
}

/** Rolls a stored roll again from its inputs and seed; generic notation needs `loadDiceNotation()` on this thread. */
export function rederive(kind: string, inputs: unknown, seed: string): Rederived {
  if (kind === 'dice') {
    // Generic notation rolls on the library's engine, built from the same seed.
    const result = rollDiceNotation(inputs as DiceNotationInput, notationEngine(seed));
    return { kind, result, dice: notationDice(result) };
  }
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
  if (kind === 'code' || kind === 'code-spend') {
    // Points spent on a track store the check's inputs, seed and dice: they replay as the check they came from.
    const result = resolveCodeCheck(inputs as CodeCheckInput, rng);
    return { kind: 'code', result, dice: codeCheckDice(result) };
  }
  if (kind === 'code-scene') {
    // A concession, a scene's end or an action point: no dice, stored so each is made once; replays as recorded.
    return { kind, result: inputs as SceneRecord, dice: [] };
  }
  if (kind === 'd10') {
    const result = resolvePoolRoll(inputs as PoolInput, rng);
    return { kind, result, dice: poolDice(result) };
  }
  if (kind === 'd10-advanced') {
    const result = resolveAdvancedRoll(inputs as AdvancedInput, rng);
    return { kind, result, dice: poolDice(result) };
  }
  if (kind === 'd10-extended') {
    // Each step stores the running state before it, so it replays on its own.
    const result = resolveCumulativeStep(inputs as CumulativeStepInput, rng);
    return { kind, result, dice: poolDice(result.roll) };
  }
  if (kind === 'check') {
    const result = resolveCheck(inputs as CheckInput, rng);
    return { kind, result, dice: checkDice(result) };
  }
  if (kind === 'attack' || kind === 'attack-applied') {
    // An applied attack stores the attack's inputs, seed and dice: it replays as the attack it applied.
    const result = resolveAttack(inputs as AttackInput, rng);
    return { kind: 'attack', result, dice: attackDice(result) };
  }
  if (kind === 'damage') {
    const result = rollDamage(inputs as DamageInput, rng);
    return { kind, result, dice: [result.face] };
  }
  if (kind === 'psi') {
    const result = resolvePsi(inputs as PsiInput, rng);
    return { kind, result, dice: checkDice(result.check) };
  }
  if (kind === 'social') {
    const result = resolveSocial(inputs as SocialInput, rng);
    return { kind, result, dice: checkDice(result.check) };
  }
  if (kind === 'reaction') {
    const result = resolveReaction(inputs as ReactionInput, rng);
    return { kind, result, dice: checkDice(result.check) };
  }
  if (kind === 'pool' || kind === 'pool-opposed') {
    const result = resolveD6Pool(inputs as D6PoolInput, rng);
    return { kind, result, dice: d6Faces(result.dice) };
  }
  if (kind === 'pool-push') {
    // A push stores the dice it pushed, so it replays on its own.
    const result = resolvePush(inputs as PushInput, rng);
    return { kind, result, dice: d6Faces(result.dice) };
  }
  if (kind === 'pool-condition') {
    // The condition a push cost: no dice, stored so the pick is made once; it replays as what was picked.
    return { kind, result: inputs as PoolConditionRecord, dice: [] };
  }
  if (kind === 'pool-tiebreak') {
    // Both pools of an opposed roll rolled again from their first inputs, the active party's first.
    const result = resolveTieBreak(inputs as TieBreakInput, rng);
    return { kind, result, dice: tieBreakFaces(result) };
  }
  if (kind === 'code-initiative') {
    const result = rollDebateInitiative(inputs as DebateInitiativeInput, rng);
    return { kind, result, dice: debateInitiativeDice(result) };
  }
  if (kind === 'd10-initiative') {
    const result = rollPhaseInitiative(inputs as PhaseInitiativeInput, rng);
    return { kind, result, dice: phaseInitiativeDice(result) };
  }
  throw new Error(`no replay for rolls of kind ${kind}`);
}
