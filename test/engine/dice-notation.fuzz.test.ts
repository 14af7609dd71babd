// 5,000 random expressions, from notation fragments and junk: evaluating one never throws anything but our
// UserError, never rolls more dice than the limit that bounds its time, and what it gives always fits the embed.
// (How long a roll takes is for the bench, not for a test on a shared machine.)
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';
import { DICE_NOTATION_LIMITS, loadDiceNotation, notationDice, notationEngine, rollDiceNotation } from '../../src/engine/dice-notation.js';
import { UserError } from '../../src/errors.js';
import { diceReply } from '../../src/views/dice.js';
import { DISCORD_LIMITS } from '../../src/views/limits.js';

// The library is loaded on first use (src/engine/dice-notation.ts); these tests call it directly.
beforeAll(loadDiceNotation);

const COUNT = 5_000;

const random = seedrandom('dice-notation-fuzz');
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (max: number) => Math.floor(random() * (max + 1));

function number(): string {
  return pick([
    () => String(int(9)),
    () => String(int(120)),
    () => String(int(2000)),
    () => '9'.repeat(1 + int(40)), // huge
    () => `${int(9)}.${int(99)}`,
    () => '0',
    () => `-${int(20)}`,
    () => '1e308',
  ])();
}

const COMPARE = ['=', '!=', '<', '>', '<=', '>=', '<>'];
const MODIFIERS = [
  () => `kh${number()}`,
  () => `kl${number()}`,
  () => `k${number()}`,
  () => `dh${number()}`,
  () => `dl${number()}`,
  () => `d${number()}`,
  () => '!',
  () => '!!',
  () => '!p',
  () => '!!p',
  () => `!${pick(COMPARE)}${number()}`,
  () => 'r',
  () => `r${pick(COMPARE)}${number()}`,
  () => `ro${pick(COMPARE)}${number()}`,
  () => 'u',
  () => 'uo',
  () => `${pick(COMPARE)}${number()}`,
  () => `${pick(COMPARE)}${number()}f${pick(COMPARE)}${number()}`,
  () => `cs${pick(COMPARE)}${number()}`,
  () => `cf${pick(COMPARE)}${number()}`,
  () => `min${number()}`,
  () => `max${number()}`,
  () => pick(['s', 'sa', 'sd']),
];

function die(): string {
  const count = random() < 0.2 ? '' : number();
  const sides = pick([() => number(), () => '%', () => 'F', () => 'F.1', () => 'F.2', () => pick(['6', '20', '10'])])();
  const modifiers = Array.from({ length: int(3) }, () => pick(MODIFIERS)()).join('');
  return `${count}${pick(['d', 'D'])}${sides}${modifiers}`;
}

const FUNCTIONS = ['floor', 'ceil', 'round', 'abs', 'sqrt', 'log', 'exp', 'sin', 'max', 'min', 'pow', 'sign'];
const OPERATORS = ['+', '-', '*', '/', '%', '^', '**'];

function term(depth: number): string {
  if (depth > 4) return pick([die, number])();
  return pick([
    die,
    die,
    number,
    () => `(${expression(depth + 1)})`,
    () => `{${Array.from({ length: 1 + int(2) }, () => expression(depth + 1)).join(',')}}${random() < 0.5 ? pick(MODIFIERS)() : ''}`,
    () => `${pick(FUNCTIONS)}(${expression(depth + 1)}${random() < 0.3 ? `,${expression(depth + 1)}` : ''})`,
  ])();
}

function expression(depth = 0): string {
  let text = term(depth);
  for (let index = int(3); index > 0; index--) text += `${random() < 0.2 ? ' ' : ''}${pick(OPERATORS)}${random() < 0.2 ? ' ' : ''}${term(depth)}`;
  return text;
}

const JUNK = ['@everyone', '<@123>', '`', '```', '||', '**', '~~', '#', '//', '/*', '*/', '[', ']', '\u0000', '\n', '\t', '\u202e', 'é', '🎲', '𝟙', '١', 'Ｄ', '\\', '"', "'", '$', '{', '}', '(', ')', ',', ';', ' ', 'NaN', 'Infinity', 'undefined', '__proto__', 'constructor'];

function junk(): string {
  return pick([
    () => pick(JUNK),
    () => String.fromCharCode(int(0xffff)),
    () => String.fromCodePoint(0x1f300 + int(500)),
    () => Array.from({ length: 1 + int(8) }, () => String.fromCharCode(32 + int(94))).join(''),
  ])();
}

/** Mutates a string: inserts junk, deletes or duplicates a slice. */
function mutate(text: string): string {
  const at = int(text.length);
  return pick([
    () => text.slice(0, at) + junk() + text.slice(at),
    () => text.slice(0, at) + text.slice(at + 1 + int(3)),
    () => text.slice(0, at) + text.slice(at, at + 1 + int(10)).repeat(1 + int(5)) + text.slice(at),
  ])();
}

/** A die as players write it: small counts, usual sides, at most two modifiers with small numbers. */
function plausibleDie(): string {
  const small = () => String(1 + int(6));
  const modifier = pick([
    () => `kh${small()}`,
    () => `kl${small()}`,
    () => `dl${small()}`,
    () => '!',
    () => '!!',
    () => '!p',
    () => `r<${small()}`,
    () => `ro=${small()}`,
    () => `>=${small()}`,
    () => `>=${small()}f=1`,
    () => `cs=${small()}`,
    () => `min${small()}`,
    () => '',
  ]);
  return `${1 + int(9)}d${pick(['4', '6', '8', '10', '12', '20', '100', '%', 'F'])}${modifier()}${random() < 0.3 ? modifier() : ''}`;
}

function plausible(): string {
  const terms = Array.from({ length: 1 + int(3) }, () => pick([plausibleDie, plausibleDie, () => String(int(20)), () => `{${plausibleDie()},${plausibleDie()}}kh1`, () => `floor(${plausibleDie()}/2)`])());
  const body = terms.reduce((text, next) => `${text}${pick(['+', '-', '*', ' + '])}${next}`);
  return random() < 0.2 ? `${1 + int(4)}#${body}` : body;
}

function fuzzExpression(): string {
  let text = pick([
    plausible,
    plausible,
    plausible,
    () => expression(),
    () => expression(),
    () => `${number()}#${expression()}`,
    () => `${int(12)}#${die()}`,
    () => die(),
    () => Array.from({ length: 1 + int(6) }, junk).join(''),
    () => '('.repeat(int(60)) + die() + ')'.repeat(int(60)),
    () => '{'.repeat(int(10)) + die() + '}'.repeat(int(10)),
    () => Array.from({ length: 1 + int(40) }, () => die()).join('+'),
  ])();
  for (let index = random() < 0.5 ? 0 : int(3); index > 0; index--) text = mutate(text);
  return text;
}

describe('dice notation under fuzzing', () => {
  it(`evaluates ${COUNT} random expressions: only UserErrors, never past the dice limit, every result fits Discord`, () => {
    let rolled = 0;
    const surprises: string[] = [];
    for (let index = 0; index < COUNT; index++) {
      const text = fuzzExpression();
      const label = random() < 0.2 ? junk().repeat(1 + int(30)) : null;
      try {
        const result = rollDiceNotation({ expression: text, label }, notationEngine(`fuzz-${index}`));
        rolled++;
        expect(result.rolls.length).toBeGreaterThan(0);
        expect(result.rolls.every((roll) => Number.isFinite(roll.total))).toBe(true);
        expect(notationDice(result).flat().length).toBeLessThanOrEqual(DICE_NOTATION_LIMITS.diceRolled);
        const embed = diceReply(result, 'abcdefgh').embeds![0]!;
        expect(embed.title!.length).toBeLessThanOrEqual(DISCORD_LIMITS.embedTitle);
        expect(embed.description!.length).toBeLessThanOrEqual(DISCORD_LIMITS.embedDescription);
      } catch (error) {
        if (!(error instanceof UserError)) surprises.push(`${JSON.stringify(text)}: ${String(error)}`);
        else if (!/For example/.test(error.message)) surprises.push(`${JSON.stringify(text)}: no example in ${error.message}`);
      }
    }
    expect(surprises).toEqual([]);
    // The fuzz must reach the roller, not only the parser's refusals.
    expect(rolled).toBeGreaterThan(COUNT / 10);
  });
});
