/**
 * Generic dice notation (RULES 6.2): `4d6kh3+2`, `6d6>=6f=1`, `3#1d20+5`…, rolled by `@dice-roller/rpg-dice-roller`
 * on our seeded generator, so a stored roll replays to the same dice (RULES 6.3).
 *
 * The library's random engine is a global: `rollDiceNotation` sets it, rolls and puts the previous one back, all
 * synchronously, so no other roll can run in between. Every problem with an expression, the library's errors
 * included, becomes a UserError that says what is wrong and shows a valid example.
 *
 * The bot never loads the library on its own thread: it rolls through `dice-notation-thread.ts`, which runs this
 * module on a worker thread. Tests call it here directly, after `loadDiceNotation()`.
 */
import type * as DiceRoller from '@dice-roller/rpg-dice-roller';
import seedrandom from 'seedrandom';
import { UserError } from '../errors.js';

export const DICE_NOTATION_LIMITS = {
  /** Characters in the expression as typed. */
  expressionLength: 100,
  /** Characters in a label. */
  labelLength: 100,
  /** Dice written in the command, repeats included: `3#40d6` is 120. */
  dice: 100,
  /** Sides of one die. */
  sides: 1000,
  /** `N#…`: how many times the expression may be rolled. */
  repeat: 10,
  /** Dice actually rolled, explosions and rerolls included: what bounds the time a roll can take. */
  diceRolled: 1000,
} as const;

export interface DiceNotationInput {
  /** The expression as the user typed it (trimmed). */
  expression: string;
  label: string | null;
}

/** What the library's random engine needs: signed 32-bit integers. */
export interface NotationEngine {
  next(): number;
}

/** The library's engine over seedrandom's ARC4 stream (the same stream as `seededRng`), from a roll's seed. */
export function notationEngine(seed: string): NotationEngine {
  const source = seedrandom(seed);
  return { next: () => source.int32() };
}

/** What happened to a die, in our words (the library's modifier names, translated). */
export type DieMark =
  | 'dropped'
  | 'exploded'
  | 'compounded'
  | 'penetrated'
  | 'rerolled'
  | 'success'
  | 'failure'
  | 'critical-success'
  | 'critical-failure'
  | 'raised'
  | 'lowered'
  | 'unique';

const MARKS: Record<string, DieMark> = {
  drop: 'dropped',
  explode: 'exploded',
  compound: 'compounded',
  penetrate: 'penetrated',
  're-roll': 'rerolled',
  're-roll-once': 'rerolled',
  'target-success': 'success',
  'target-failure': 'failure',
  'critical-success': 'critical-success',
  'critical-failure': 'critical-failure',
  min: 'raised',
  max: 'lowered',
  unique: 'unique',
  'unique-once': 'unique',
};

export interface RolledDie {
  /** The face it shows (after rerolls, compounding, min/max). */
  value: number;
  /** The face first rolled: differs from `value` when the die was rerolled or changed. */
  initial: number;
  marks: DieMark[];
  /** Whether it counts toward the total (a dropped die does not). */
  counted: boolean;
}

/** One piece of a rolled expression, in order: operators and numbers as text, dice, and `{…}` roll groups. */
export type RollPart =
  | { type: 'text'; text: string }
  | { type: 'dice'; dice: RolledDie[] }
  | { type: 'group'; rollGroup: boolean; parts: RollPart[]; marks: DieMark[]; counted: boolean };

export interface NotationRoll {
  /** The expression as the library read it (normalised: no spaces, lower case). */
  notation: string;
  parts: RollPart[];
  total: number;
}

export interface DiceNotationResult {
  input: DiceNotationInput;
  /** `N#…` gives N rolls, each with its own total. */
  rolls: NotationRoll[];
  /** The expression counts successes (`>=6`, `f=1`): its total is a number of successes. */
  countsSuccesses: boolean;
}

const EXAMPLE = 'For example: `4d6kh3+2`, `2d20kl1`, `3d6!`, `6d6>=6f=1`, `3#1d20+5`.';

function refuse(problem: string, example = EXAMPLE): never {
  throw new UserError(`${problem} ${example}`);
}

/** An expression as the library reads it: no whitespace, lower case except the fudge die's `F`. */
export function normaliseNotation(expression: string): string {
  return expression.replace(/\s+/g, '').toLowerCase().replace(/df/g, 'dF');
}

/** `3#1d20+5` → 3 and `1d20+5`; a plain expression is rolled once. */
function splitRepeat(notation: string): { repeat: number; notation: string } {
  const match = /^(\d+)#(.*)$/.exec(notation);
  if (!match) return { repeat: 1, notation };
  const repeat = Number(match[1]);
  if (!Number.isSafeInteger(repeat) || repeat < 1 || repeat > DICE_NOTATION_LIMITS.repeat) {
    refuse(`\`${match[1]!.slice(0, 12)}#\` repeats the roll ${repeat < 1 ? 'no' : 'too many'} times: from 1 to ${DICE_NOTATION_LIMITS.repeat}.`, 'For example: `3#1d20+5` rolls 1d20+5 three times.');
  }
  if (match[2] === '') refuse('Nothing follows the `#`.', 'For example: `3#1d20+5` rolls 1d20+5 three times.');
  return { repeat, notation: match[2]! };
}

const DICE_LIMIT_MESSAGE = `At most ${DICE_NOTATION_LIMITS.dice} dice per roll, repeats included (\`3#40d6\` is 120).`;

/** Plain text for a library error: what is wrong, where. */
function describeLibraryError(error: unknown, notation: string): string {
  const shown = `\`${notation}\``;
  if (!(error instanceof Error)) return `I can't read ${shown}.`;
  const syntax = error as Error & { location?: { start?: { offset?: number } }; found?: string | null };
  if (error.name === 'SyntaxError' && syntax.location?.start?.offset !== undefined) {
    const at = syntax.location.start.offset;
    if (syntax.found === null || syntax.found === undefined) return `I can't read ${shown}: it ends too early, something is missing at the end.`;
    const hint = syntax.found === '#' ? ' A repeat count goes first, as in `3#1d20+5`.' : '';
    return `I can't read ${shown}: \`${syntax.found}\` at character ${at + 1} does not fit there.${hint}`;
  }
  if (error instanceof RangeError && /qty/.test(error.message)) return DICE_LIMIT_MESSAGE;
  if (error.name === 'DieActionValueError') return `I can't roll ${shown}: a die needs at least 2 possible faces to explode or be rerolled.`;
  if (error.name === 'CompareOperatorError') return `I can't read ${shown}: a comparison is one of \`=\`, \`!=\`, \`<\`, \`>\`, \`<=\`, \`>=\`.`;
  if (error instanceof TypeError && /Sub expression/.test(error.message)) return `I can't read ${shown}: roll groups \`{…}\` cannot be nested.`;
  return `I can't read ${shown}: ${error.message.slice(0, 200)}.`;
}

/** Runs a call into the library; anything it throws becomes a UserError naming the problem. */
function library<T>(notation: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof TooManyDiceRolled || error instanceof UserError) throw error;
    refuse(describeLibraryError(error, notation));
  }
}

/** Counts the dice an expression writes and checks their sides, before anything is rolled. */
function checkDice(tokens: unknown[], notation: string): number {
  const { Dice, RollGroup } = lib();
  let count = 0;
  for (const token of tokens) {
    if (token instanceof RollGroup) {
      for (const expression of token.expressions) count += checkDice(expression, notation);
    } else if (token instanceof Dice.StandardDice) {
      const sides: unknown = token.sides;
      if (typeof sides === 'number' && sides > DICE_NOTATION_LIMITS.sides) {
        refuse(`A die has at most ${DICE_NOTATION_LIMITS.sides} sides; \`${token.notation}\` has ${sides}.`, 'For example: `1d100`, `d%` or `1d1000`.');
      }
      count += token.qty;
    }
  }
  return count;
}

/** True when the expression counts successes (a target modifier on some dice or roll group). */
function countsSuccesses(tokens: unknown[]): boolean {
  const { Dice, RollGroup } = lib();
  return tokens.some((token) => {
    if (token instanceof RollGroup) return token.modifiers?.has('target') === true || token.expressions.some(countsSuccesses);
    return token instanceof Dice.StandardDice && token.modifiers?.has('target') === true;
  });
}

class TooManyDiceRolled extends Error {}

let diceRoller: typeof DiceRoller | null = null;

/**
 * Loads the library before the first expression is checked or rolled, on the thread that will roll. It brings mathjs
 * along: about 100 MB and a second or more of synchronous module evaluation, so the bot does this only on its
 * notation thread (`dice-notation-thread.ts`), and only once a notation roll asks for it.
 */
export async function loadDiceNotation(): Promise<void> {
  diceRoller ??= await import('@dice-roller/rpg-dice-roller');
}

function lib(): typeof DiceRoller {
  if (!diceRoller) throw new Error('dice notation used before loadDiceNotation() finished');
  return diceRoller;
}

function marksOf(modifiers: Set<string>): DieMark[] {
  const marks = new Set<DieMark>();
  for (const name of modifiers) {
    const mark = MARKS[name];
    if (mark) marks.add(mark);
  }
  // The library marks a compounded or penetrated die as exploded too; one mark says it.
  if (marks.has('compounded') || marks.has('penetrated')) marks.delete('exploded');
  return [...marks];
}

function partsOf(results: ReadonlyArray<unknown>): RollPart[] {
  const { Results } = lib();
  return results.map((item): RollPart => {
    if (item instanceof Results.RollResults) {
      return {
        type: 'dice',
        dice: item.rolls.map((die) => ({ value: die.value, initial: die.initialValue, marks: marksOf(die.modifiers), counted: die.useInTotal })),
      };
    }
    if (item instanceof Results.ResultGroup) {
      return { type: 'group', rollGroup: item.isRollGroup, parts: partsOf(item.results), marks: marksOf(item.modifiers), counted: item.useInTotal };
    }
    return { type: 'text', text: String(item) };
  });
}

/** Checks an expression and its limits without rolling; returns what rolling needs. */
export function checkDiceNotation(input: DiceNotationInput): { notation: string; repeat: number; countsSuccesses: boolean } {
  const expression = input.expression.trim();
  if (expression === '') refuse('Type an expression to roll.');
  if (expression.length > DICE_NOTATION_LIMITS.expressionLength) {
    refuse(`An expression has at most ${DICE_NOTATION_LIMITS.expressionLength} characters; this one has ${expression.length}.`);
  }
  if (input.label !== null && input.label.length > DICE_NOTATION_LIMITS.labelLength) {
    refuse(`A label has at most ${DICE_NOTATION_LIMITS.labelLength} characters; this one has ${input.label.length}.`, 'For example: `Fireball damage`.');
  }
  const { repeat, notation } = splitRepeat(normaliseNotation(expression));
  // The library would read these as descriptions and ignore them: `1d6#3` must not quietly roll 1d6 once.
  if (/#|\/\/|\/\*|\[|\]/.test(notation)) {
    refuse(
      `I can't read \`${notation}\`: \`#\`, \`//\`, \`/*\` and \`[…]\` are not part of a roll here. A repeat count goes first (\`3#1d20+5\`); put a description in the \`label\` option.`,
      'For example: `3#1d20+5` with the label `Attacks`.',
    );
  }
  const tokens = library(notation, () => lib().Parser.parse(notation) as unknown[]);
  const dice = checkDice(tokens, notation) * repeat;
  if (dice > DICE_NOTATION_LIMITS.dice) refuse(`${DICE_LIMIT_MESSAGE} \`${expression}\` has ${dice}.`, 'For example: `10d6`, or `3#4d6kh3`.');
  return { notation, repeat, countsSuccesses: countsSuccesses(tokens) };
}

/**
 * Rolls an expression on `engine` (build it with `notationEngine(seed)`): the same input and seed always give the
 * same dice. Throws a UserError for anything wrong with the expression or past a limit.
 */
export function rollDiceNotation(input: DiceNotationInput, engine: NotationEngine): DiceNotationResult {
  const checked = checkDiceNotation(input);
  let rolled = 0;
  const counting: NotationEngine = {
    next() {
      // One draw is one die (the library rejects a draw only with a probability of at most 2^-22 per die).
      if (++rolled > DICE_NOTATION_LIMITS.diceRolled) throw new TooManyDiceRolled();
      return engine.next();
    },
  };
  const { DiceRoll, NumberGenerator } = lib();
  const generator = NumberGenerator.generator;
  const previous: unknown = generator.engine;
  const rolls: DiceRoller.DiceRoll[] = [];
  // Synchronous from here to the `finally`: the library's engine is global.
  generator.engine = counting;
  try {
    for (let index = 0; index < checked.repeat; index++) rolls.push(library(checked.notation, () => new DiceRoll(checked.notation)));
  } catch (error) {
    if (error instanceof TooManyDiceRolled) {
      refuse(
        `Explosions and rerolls in \`${checked.notation}\` would roll more than ${DICE_NOTATION_LIMITS.diceRolled} dice. Make the condition rarer.`,
        'For example: `3d6!` explodes on a 6 only, `4d6r<2` rerolls 1s.',
      );
    }
    throw error;
  } finally {
    generator.engine = previous;
  }
  return {
    input: { expression: input.expression.trim(), label: input.label },
    countsSuccesses: checked.countsSuccesses,
    rolls: rolls.map((roll) => {
      const total = roll.total;
      if (!Number.isFinite(total) || Math.abs(total) > Number.MAX_SAFE_INTEGER) {
        refuse(`\`${checked.notation}\` does not give a usable number (a division by zero, or a number too large).`);
      }
      return { notation: checked.notation, parts: partsOf(roll.rolls), total };
    }),
  };
}

/** The dice of a roll as stored in the roll log: per roll, every die's face in order. */
export function notationDice(result: DiceNotationResult): number[][] {
  const faces = (parts: RollPart[]): number[] =>
    parts.flatMap((part) => (part.type === 'dice' ? part.dice.map((die) => die.value) : part.type === 'group' ? faces(part.parts) : []));
  return result.rolls.map((roll) => faces(roll.parts));
}

/** The one total worth a column in the roll log: a single roll's whole-number total. */
export function notationTotal(result: DiceNotationResult): number | null {
  const [only] = result.rolls;
  return result.rolls.length === 1 && only && Number.isSafeInteger(only.total) ? only.total : null;
}
