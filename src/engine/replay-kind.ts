/**
 * What a kind of stored roll registers so it can be rolled again from its seed (RULES 6.3): how its stored inputs
 * are read (its zod schema, through `inputsOf`), how the roll is re-derived, how its dice compare with the stored
 * ones. Each system registers its own kinds next to its engine (src/engine/systems/<system>/replay.ts);
 * src/engine/replay.ts gathers them.
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
}

/** Most kinds roll on the seeded generator: only the roll itself differs from kind to kind. */
export function seeded<I, Out extends Replayed>(parse: (inputs: unknown) => I, roll: (inputs: I, rng: Rng) => Out): ReplayKind<I, Out> {
  return { parse, rederive: (inputs, seed) => roll(inputs, seededRng(seed)) };
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
