/**
 * What a kind of stored roll registers so it can be rolled again from its seed (RULES 6.3): how its stored inputs
 * are checked, how the roll is re-derived, how its dice compare with the stored ones. Each system registers its own
 * kinds next to its engine (src/engine/systems/<system>/replay.ts); src/engine/replay.ts gathers them.
 */
import { seededRng, type Rng } from './rng.js';

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

/** Checks a value at a path (`inputs.skill.level`); throws a ShapeMismatch naming the path and what was expected. */
export type Check = (value: unknown, path: string) => void;

class ShapeMismatch extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
  ) {
    super(`${path} should be ${expected}`);
  }
}

const describe = (value: unknown): string => (value === undefined ? 'missing' : JSON.stringify(value)?.slice(0, 40) ?? String(value));

function primitive(expected: string, test: (value: unknown) => boolean): Check {
  return (value, path) => {
    if (!test(value)) throw new ShapeMismatch(path, `${expected} (it is ${describe(value)})`);
  };
}

export const number = primitive('a number', (value) => typeof value === 'number' && Number.isFinite(value));
export const string = primitive('a string', (value) => typeof value === 'string');
export const boolean = primitive('true or false', (value) => typeof value === 'boolean');

export function oneOf(...values: readonly string[]): Check {
  return primitive(`one of ${values.map((value) => `"${value}"`).join(', ')}`, (value) => typeof value === 'string' && values.includes(value));
}

export function nullable(check: Check): Check {
  return (value, path) => {
    if (value !== null) check(value, path);
  };
}

/** A field rolls stored before it existed do not have. */
export function optional(check: Check): Check {
  return (value, path) => {
    if (value !== undefined) check(value, path);
  };
}

export function arrayOf(check: Check): Check {
  return (value, path) => {
    if (!Array.isArray(value)) throw new ShapeMismatch(path, `a list (it is ${describe(value)})`);
    value.forEach((item, index) => check(item, `${path}[${index}]`));
  };
}

/** An object with at least these fields; others are kept, since the result shows the inputs as stored. */
export function object(fields: Record<string, Check>): Check {
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeMismatch(path, `an object (it is ${describe(value)})`);
    for (const [name, check] of Object.entries(fields)) check((value as Record<string, unknown>)[name], `${path}.${name}`);
  };
}

/** One of several shapes, told apart by `when` (a side with one skill or linked skills, an opposition's kind). */
export function either(alternatives: ReadonlyArray<{ when: (value: Record<string, unknown>) => boolean; check: Check }>, expected: string): Check {
  return (value, path) => {
    object({})(value, path);
    const alternative = alternatives.find((candidate) => candidate.when(value as Record<string, unknown>));
    if (!alternative) throw new ShapeMismatch(path, `${expected} (it is ${describe(value)})`);
    alternative.check(value, path);
  };
}

export const modifier = object({ name: string, value: number });

/**
 * A kind's parse function: the inputs checked against `check`, then typed as `I`. The inputs are returned as stored,
 * not rebuilt, so a replay's result holds them exactly as the roll did.
 */
export function inputsOf<I>(kind: string, check: Check): (inputs: unknown) => I {
  return (inputs) => {
    try {
      check(inputs, 'inputs');
    } catch (error) {
      if (error instanceof ShapeMismatch) throw new ReplayInputError(kind, error.path, error.expected);
      throw error;
    }
    return inputs as I;
  };
}
