/**
 * What a kind of stored roll registers so it can be rolled again from its seed (RULES 6.3): how its stored inputs
 * are read (its zod schema, through `inputsOf`), how the roll is re-derived, how its dice compare with the stored
 * ones; and the registry such kinds make (`replayRegistry`). Each system declares its own kinds next to its engine
 * (src/engine/systems/<system>/replay.ts, listed in its declaration); src/engine/replay.ts builds the bot's registry
 * from the system list.
 */
import { z } from 'zod';
import { seededRng, type Rng } from './rng.js';
import { closestProblem, pathText } from './schema.js';

/** A stored roll rolled again: `kind` names the roll it shows as, which may differ from the stored kind. */
export interface Replayed<K extends string = string> {
  kind: K;
  result: unknown;
  dice: unknown;
}

export interface ReplayKind<I = unknown, Out extends Replayed = Replayed> {
  /** The stored inputs read back from the roll log, checked: throws a ReplayInputError saying what does not fit. */
  parse(inputs: unknown): I;
  /** The roll again from its inputs and seed, as the bot made it. */
  rederive(inputs: I, seed: string): Out;
  /** The same roll made where the bot makes it when that is not this thread (generic notation). */
  rederiveOffThread?(inputs: I, seed: string): Promise<Out>;
  /** Whether the dice rolled again are the stored ones; without it, the two compare as JSON. */
  diceMatch?(rederived: Out, storedDice: unknown): boolean;
  /**
   * What `/stats` weighs a roll by: the exact chance of the verdict the roll log stores as its success (the chance
   * the bot shows before or with the roll), and its one D100 face. Without it, neither: a kind with no verdict.
   */
  calibration?(rolled: Out): Partial<Calibration>;
}

/** A roll's exact chance of success (0–1, null: no verdict) and its D100 face (null: none, or more than one). */
export interface Calibration {
  odds: number | null;
  d100: number | null;
}

export const NO_CALIBRATION: Calibration = { odds: null, d100: null };

/** A count of equally likely outcomes as a chance from 0 to 1 (exact to a double's precision). */
export const fractionOf = (count: bigint, outcomes: bigint): number => Number(count) / Number(outcomes);

/** Most kinds roll on the seeded generator: only the roll itself differs from kind to kind. */
export function seeded<I, Out extends Replayed>(
  parse: (inputs: unknown) => I,
  roll: (inputs: I, rng: Rng) => Out,
  calibration?: (rolled: Out) => Partial<Calibration>,
): ReplayKind<I, Out> {
  return { parse, rederive: (inputs, seed) => roll(inputs, seededRng(seed)), ...(calibration ? { calibration } : {}) };
}

/** Stored inputs that do not fit their kind: a roll log row written by hand, or by a version that stored another shape. */
export class ReplayInputError extends Error {
  constructor(
    readonly kind: string,
    readonly path: string,
    readonly expected: string,
  ) {
    super(`The stored inputs of this ${kind} roll cannot be replayed: ${path} should be ${expected}.`);
    this.name = 'ReplayInputError';
  }
}

/** What a value should be, in the words replay messages use; other issues keep their schema's own words. */
const TYPE_WORDS: Partial<Record<string, string>> = { number: 'a number', string: 'a string', boolean: 'true or false', object: 'an object', array: 'a list' };

const oneOf = (values: readonly unknown[]): string => `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;

function expectedOf(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type') return TYPE_WORDS[issue.expected];
  if (issue.code === 'invalid_value') return oneOf(issue.values);
  // A discriminated union's tag that names none of its shapes (an opposition's `kind`).
  if (issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)) return oneOf(issue.options);
  return undefined;
}

/** The stored value at an issue's path; undefined where the path leads nowhere. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((inner, key) => (typeof inner === 'object' && inner !== null ? Reflect.get(inner, key) : undefined), value);
}

const describe = (value: unknown): string => (value === undefined ? 'missing' : JSON.stringify(value)?.slice(0, 40) ?? String(value));

/**
 * A kind's parse function: the stored inputs read through the kind's schema, which gives their type. Its objects are
 * loose (`z.looseObject`): fields the schema does not name are kept, since the result shows the inputs as stored. What
 * does not fit throws a ReplayInputError naming the first problem's path and what should be there.
 */
export function inputsOf<S extends z.ZodType>(kind: string, schema: S): (inputs: unknown) => z.output<S> {
  return (inputs) => {
    const parsed = schema.safeParse(inputs, { error: expectedOf });
    if (parsed.success) return parsed.data;
    const { path, message } = closestProblem(parsed.error);
    throw new ReplayInputError(kind, pathText(['inputs', ...path]), `${message} (it is ${describe(valueAt(inputs, path))})`);
  };
}

// Each kind's inputs and result have their own types; in a set of kinds they are read only through their own entry.
type AnyReplayKind = ReplayKind<any, Replayed>;

/** Kinds of stored rolls by the name the roll log stores them under. */
export type ReplayKinds = Record<string, AnyReplayKind>;

/** What a set of kinds re-derives as: each kind's result, `kind` naming the roll it shows as. */
export type RederivedBy<K extends ReplayKinds> = { [P in keyof K]: ReturnType<K[P]['rederive']> }[keyof K];

type UnionToIntersection<U> = (U extends unknown ? (each: U) => void : never) extends (all: infer I) => void ? I : never;

/** Every kind the listed systems declare, as one set. */
export type KindsOfSystems<S extends ReadonlyArray<{ replays: ReplayKinds }>> = Extract<UnionToIntersection<S[number]['replays']>, ReplayKinds>;

export interface ReplayRegistry<K extends ReplayKinds> {
  /** Every kind it replays: a stored roll of any other kind is replayed by none. */
  kinds: ReadonlyArray<keyof K & string>;
  /** Whether a replay gave the dice the roll log holds. */
  diceMatch(rederived: RederivedBy<K>, storedDice: unknown): boolean;
  /** Rolls a stored roll again where the bot rolls it: on the notation thread for a kind that rolls there, else here. */
  replayRoll(kind: string, inputs: unknown, seed: string): Promise<RederivedBy<K>>;
  /** Rolls a stored roll again on this thread from its inputs and seed. */
  rederive(kind: string, inputs: unknown, seed: string): RederivedBy<K>;
  /** A roll's odds and D100 as its kind reads them from the roll made again; none for a kind without a verdict. */
  calibration(kind: string, inputs: unknown, seed: string): Calibration;
}

/** Dice that compare as JSON: how a kind's dice match unless it says otherwise. */
export const sameJson = (rederived: Replayed, storedDice: unknown): boolean => JSON.stringify(rederived.dice) === JSON.stringify(storedDice);

/**
 * The registry of the kinds that belong to no system and of every kind the systems declare, built from those
 * declarations alone. Two declarations of one kind would leave a stored roll two ways to replay: refused here.
 */
export function replayRegistry<G extends ReplayKinds, const S extends ReadonlyArray<{ id: string; replays: ReplayKinds }>>(general: G, systems: S): ReplayRegistry<G & KindsOfSystems<S>> {
  type Kinds = G & KindsOfSystems<S>;
  const byKind = new Map<string, AnyReplayKind>(Object.entries(general));
  for (const system of systems) {
    for (const [kind, replay] of Object.entries(system.replays)) {
      if (byKind.has(kind)) throw new Error(`The roll kind "${kind}" of ${system.id} is declared twice.`);
      byKind.set(kind, replay);
    }
  }
  const kinds = [...byKind.keys()] as Array<keyof Kinds & string>;

  // The registry's entries differ in their input and result types; looked up by a stored string, they are used as one.
  function replayKindOf(kind: string): ReplayKind<unknown, RederivedBy<Kinds>> {
    // A Map, not an object's keys: a roll of kind "toString" is unknown too.
    const replay = byKind.get(kind);
    if (!replay) throw new Error(`No replay for rolls of kind "${kind}": the kinds that replay are ${kinds.join(', ')}.`);
    return replay as ReplayKind<unknown, RederivedBy<Kinds>>;
  }

  return {
    kinds,
    diceMatch(rederived, storedDice) {
      const { diceMatch: match = sameJson } = replayKindOf(rederived.kind);
      return match(rederived, storedDice);
    },
    async replayRoll(kind, inputs, seed) {
      const replay = replayKindOf(kind);
      const parsed = replay.parse(inputs);
      return replay.rederiveOffThread ? replay.rederiveOffThread(parsed, seed) : replay.rederive(parsed, seed);
    },
    rederive(kind, inputs, seed) {
      const replay = replayKindOf(kind);
      return replay.rederive(replay.parse(inputs), seed);
    },
    calibration(kind, inputs, seed) {
      // Rolled again rather than read from the stored result: the odds come from the engine's own typed result,
      // whichever command stored it and in whatever shape it kept the result.
      const replay = byKind.get(kind);
      if (!replay?.calibration) return NO_CALIBRATION;
      try {
        return { ...NO_CALIBRATION, ...replay.calibration(replay.rederive(replay.parse(inputs), seed)) };
      } catch {
        // A roll is never refused for the sake of its statistics: inputs that do not roll again (a row shaped by
        // hand, an older shape) are kept with no odds, and /stats leaves them out.
        return NO_CALIBRATION;
      }
    },
  };
}
