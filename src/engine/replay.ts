/**
 * Re-deriving a stored roll from its seed (RULES 6.3): the same inputs and the same seed give the same dice,
 * so anyone can check a roll instead of taking it on trust. Every kind of roll the bot stores is registered here:
 * each system's kinds come with its declaration (systems/<system>/index.ts, from its replay.ts next to its engine),
 * so a system's stored shapes and the engine that reads them change together; this file holds only the kinds that
 * belong to no system.
 */
import { z } from 'zod';
import { d100FromDice } from './dice.js';
import { rollDiceNotationOffThread } from './dice-notation-thread.js';
import { notationDice, notationEngine, rollDiceNotation, type DiceNotationInput, type DiceNotationResult } from './dice-notation.js';
import { inputsOf, replayRegistry, sameJson, seeded, type KindsOfSystems, type RederivedBy, type ReplayKind } from './replay-kind.js';
import { SYSTEMS } from './systems/index.js';
import { storedModifier } from './systems/tactalk/replay.js';
import { resolveOutcomeRoll, type OutcomeRollInput, type OutcomeRollResult } from './tables.js';

export { challengeDice, contestDice, linkedDice } from './systems/tactalk/replay.js';
export { ReplayInputError } from './replay-kind.js';

/** An outcome roll's dice as stored: a d100 as its two 2D10 dice, any other die as its face. */
export function outcomeDice(result: OutcomeRollResult): Array<{ tens: number; ones: number } | { value: number }> {
  return result.roll.dice.map((die) => (die.d100 ? { tens: die.d100.tens, ones: die.d100.ones } : { value: die.value }));
}

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

const OUTSIDE_SYSTEMS = {
  dice,
  outcome: {
    ...outcome,
    // Investigations stored before their dice took the outcome shape hold the table's die rolls as the engine
    // returns them (`{ value, d100 }`): the same dice, in a longer shape.
    diceMatch: (rederived, storedDice) => sameJson(rederived, storedDice) || JSON.stringify(rederived.result.roll.dice) === JSON.stringify(storedDice),
    // No verdict; a table rolled on one D100 gives its face to the histogram.
    calibration: ({ dice }) => {
      const d100s = dice.filter((die) => 'tens' in die);
      return dice.length === 1 && d100s.length === 1 ? { d100: d100FromDice(d100s[0]!.tens, d100s[0]!.ones).value } : {};
    },
  } satisfies typeof outcome,
};

const REPLAYS = replayRegistry(OUTSIDE_SYSTEMS, SYSTEMS);
type Kinds = typeof OUTSIDE_SYSTEMS & KindsOfSystems<typeof SYSTEMS>;

/** Every kind of roll the bot stores: a kind the registry lacks cannot be stored by mistake and replayed by none. */
export type RollKind = keyof Kinds & string;
export const ROLL_KINDS: readonly RollKind[] = REPLAYS.kinds;

/** A stored roll rolled again; `kind` is the kind it shows as (points spent show as their check, and so on). */
export type Rederived = RederivedBy<Kinds>;

/** Whether a replay gave the dice the roll log holds. */
export const diceMatch = REPLAYS.diceMatch;

/**
 * Rolls a stored roll again, as the bot does: generic notation on the notation thread (its library never loads on
 * the bot's thread), every other kind here with `rederive`.
 */
export const replayRoll = REPLAYS.replayRoll;

/** Rolls a stored roll again from its inputs and seed; generic notation needs `loadDiceNotation()` on this thread. */
export const rederive = REPLAYS.rederive;

/** A roll's exact odds and D100 face as the roll log keeps them for `/stats`: none for a kind without them. */
export const calibrationOf = REPLAYS.calibration;
