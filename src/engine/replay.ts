/**
 * Re-deriving a stored roll from its seed (RULES 6.3): the same inputs and the same seed give the same dice,
 * so anyone can check a roll instead of taking it on trust. Every kind of roll the bot stores is registered here,
 * each system's kinds next to its engine (systems/<system>/replay.ts), so a system's stored shapes and the engine
 * that reads them change together; this file holds only the kinds that belong to no system.
 */
import { z } from 'zod';
import { rollDiceNotationOffThread } from './dice-notation-thread.js';
import { notationDice, notationEngine, rollDiceNotation, type DiceNotationInput, type DiceNotationResult } from './dice-notation.js';
import { inputsOf, seeded, type ReplayKind, type Replayed } from './replay-kind.js';
import { d100TacticsReplays } from './systems/d100-tactics/replay.js';
import { d10PoolReplays } from './systems/d10-pool/replay.js';
import { d6PoolReplays } from './systems/d6-pool/replay.js';
import { resultPointsReplays } from './systems/result-points/replay.js';
import { storedModifier, tactalkReplays } from './systems/tactalk/replay.js';
import { resolveOutcomeRoll, type OutcomeRollInput, type OutcomeRollResult } from './tables.js';

export { challengeDice, contestDice, linkedDice } from './systems/tactalk/replay.js';
export { ReplayInputError } from './replay-kind.js';

/** An outcome roll's dice as stored: a d100 as its two 2D10 dice, any other die as its face. */
export function outcomeDice(result: OutcomeRollResult): Array<{ tens: number; ones: number } | { value: number }> {
  return result.roll.dice.map((die) => (die.d100 ? { tens: die.d100.tens, ones: die.d100.ones } : { value: die.value }));
}

const sameJson = (rederived: Replayed, storedDice: unknown): boolean => JSON.stringify(rederived.dice) === JSON.stringify(storedDice);

// Generic notation rolls on the library's engine, built from the same seed; the bot rolls it on the notation thread.
const dice: ReplayKind<DiceNotationInput, { kind: 'dice'; result: DiceNotationResult; dice: ReturnType<typeof notationDice> }> = {
  parse: inputsOf('dice', z.looseObject({ expression: z.string(), label: z.string().nullable() })),
  rederive(inputs, seed) {
    const result = rollDiceNotation(inputs, notationEngine(seed));
    return { kind: 'dice', result, dice: notationDice(result) };
  },
  async rederiveOffThread(inputs, seed) {
    const result = await rollDiceNotationOffThread(inputs, seed);
    return { kind: 'dice', result, dice: notationDice(result) };
  },
};

// The stored inputs hold the table as it was rolled, so a later change to the table does not matter.
const outcomeInputs = z.looseObject({
  table: z.looseObject({
    name: z.string(),
    die: z.string(),
    asks: z.string().optional(),
    skill: z.string().nullable().optional(),
    rows: z.array(z.looseObject({ min: z.number(), max: z.number(), text: z.string() })),
  }),
  modifiers: z.array(storedModifier),
});

const outcome = seeded(
  // A cast (through unknown, as TypeScript asks when a type lacks fields the other requires): OutcomeRollInput
  // is a table as rolled today; one stored before a table's `asks` and `skill`, or its rows' `next` and `reveals`,
  // lacks them, and the roll reads none of them (only the die and the rows' ranges).
  inputsOf('outcome', outcomeInputs) as unknown as (inputs: unknown) => OutcomeRollInput,
  (inputs, rng) => {
    const result = resolveOutcomeRoll(inputs, rng);
    return { kind: 'outcome' as const, result, dice: outcomeDice(result) };
  },
);

const REPLAYS = {
  dice,
  outcome: {
    ...outcome,
    // Investigations stored before their dice took the outcome shape hold the table's die rolls as the engine
    // returns them (`{ value, d100 }`): the same dice, in a longer shape.
    diceMatch: (rederived, storedDice) => sameJson(rederived, storedDice) || JSON.stringify(rederived.result.roll.dice) === JSON.stringify(storedDice),
  } satisfies typeof outcome,
  ...tactalkReplays,
  ...resultPointsReplays,
  ...d10PoolReplays,
  ...d6PoolReplays,
  ...d100TacticsReplays,
};

/** Every kind of roll the bot stores: a kind the registry lacks cannot be stored by mistake and replayed by none. */
export type RollKind = keyof typeof REPLAYS;
export const ROLL_KINDS = Object.keys(REPLAYS) as RollKind[];

/** A stored roll rolled again; `kind` is the kind it shows as (points spent show as their check, and so on). */
export type Rederived = { [K in RollKind]: ReturnType<(typeof REPLAYS)[K]['rederive']> }[RollKind];

// The registry's entries differ in their input and result types; looked up by a stored string, they are used as one.
type AnyReplayKind = ReplayKind<unknown, Rederived>;

function replayKindOf(kind: string): AnyReplayKind {
  // `in` would find the object's own prototype: a roll of kind "toString" is unknown too.
  if (!Object.hasOwn(REPLAYS, kind)) throw new Error(`No replay for rolls of kind "${kind}": the kinds that replay are ${ROLL_KINDS.join(', ')}.`);
  return REPLAYS[kind as RollKind] as unknown as AnyReplayKind;
}

/** Whether a replay gave the dice the roll log holds. */
export function diceMatch(rederived: Rederived, storedDice: unknown): boolean {
  const { diceMatch: match = sameJson } = replayKindOf(rederived.kind);
  return match(rederived, storedDice);
}

/**
 * Rolls a stored roll again, as the bot does: generic notation on the notation thread (its library never loads on
 * the bot's thread), every other kind here with `rederive`.
 */
export async function replayRoll(kind: string, inputs: unknown, seed: string): Promise<Rederived> {
  const replay = replayKindOf(kind);
  const parsed = replay.parse(inputs);
  return replay.rederiveOffThread ? replay.rederiveOffThread(parsed, seed) : replay.rederive(parsed, seed);
}

/** Rolls a stored roll again from its inputs and seed; generic notation needs `loadDiceNotation()` on this thread. */
export function rederive(kind: string, inputs: unknown, seed: string): Rederived {
  const replay = replayKindOf(kind);
  return replay.rederive(replay.parse(inputs), seed);
}
