import { NumberGenerator } from '@dice-roller/rpg-dice-roller';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DICE_NOTATION_LIMITS,
  notationDice,
  notationEngine,
  notationTotal,
  rollDiceNotation,
  type DiceNotationResult,
  type RollPart,
  type RolledDie,
  loadDiceNotation,
} from '../../src/engine/dice-notation.js';
import { UserError } from '../../src/errors.js';

// The library is loaded on first use (src/engine/dice-notation.ts); these tests call it directly.
beforeAll(loadDiceNotation);

const roll = (expression: string, seed = 'notation-seed', label: string | null = null) => rollDiceNotation({ expression, label }, notationEngine(seed));

/** Every die of a roll's parts, in order. */
function diceOf(parts: RollPart[]): RolledDie[] {
  return parts.flatMap((part) => (part.type === 'dice' ? part.dice : part.type === 'group' ? diceOf(part.parts) : []));
}

function only(result: DiceNotationResult): { dice: RolledDie[]; total: number } {
  expect(result.rolls).toHaveLength(1);
  return { dice: diceOf(result.rolls[0]!.parts), total: result.rolls[0]!.total };
}

const sum = (dice: RolledDie[]) => dice.reduce((total, die) => total + die.value, 0);
const counted = (dice: RolledDie[]) => dice.filter((die) => die.counted);

/** The first seed (of 200) whose roll of `expression` satisfies `found`: to exercise a rare case on fixed seeds. */
function seedWhere(expression: string, found: (result: DiceNotationResult) => boolean): DiceNotationResult {
  for (let index = 0; index < 200; index++) {
    const result = roll(expression, `search-${index}`);
    if (found(result)) return result;
  }
  throw new Error(`no seed found for ${expression}`);
}

/** The UserError message a bad expression gets; fails if it throws anything else or nothing. */
function refusal(expression: string, label: string | null = null): string {
  try {
    rollDiceNotation({ expression, label }, notationEngine('refused'));
  } catch (error) {
    expect(error, expression).toBeInstanceOf(UserError);
    return (error as UserError).message;
  }
  throw new Error(`${expression} was rolled`);
}

describe('seeded notation rolls (RULES 6.3)', () => {
  it('gives the same dice and totals for the same seed, other dice for another seed', () => {
    for (const expression of ['4d6kh3+2', '10d6!', '6d6>=6f=1', '3#1d20+5', '{2d6,1d8}kh1', '4dF+d%']) {
      expect(roll(expression, 'same')).toEqual(roll(expression, 'same'));
    }
    expect(notationDice(roll('10d6', 'one'))).not.toEqual(notationDice(roll('10d6', 'two')));
  });

  it('puts the library engine back after rolling, even after a refusal', () => {
    const before: unknown = NumberGenerator.generator.engine;
    roll('2d6');
    expect(() => roll('1d6!>0')).toThrow(UserError);
    expect(NumberGenerator.generator.engine).toBe(before);
  });

  it('reads upper case and spaces as the same expression', () => {
    expect(roll('4D6 KH3 + 2', 'case').rolls).toEqual(roll('4d6kh3+2', 'case').rolls);
    expect(roll('4DF', 'fudge').rolls).toEqual(roll('4dF', 'fudge').rolls);
  });

  it('stores the dice per roll and a total only for a single whole-number roll', () => {
    const result = roll('3#2d6');
    expect(notationDice(result)).toEqual(result.rolls.map((one) => diceOf(one.parts).map((die) => die.value)));
    expect(notationTotal(result)).toBeNull();
    expect(notationTotal(roll('2d6+1'))).toBe(only(roll('2d6+1')).total);
    expect(notationTotal(roll('1d6/4', 'seven'))).toBe(Number.isInteger(only(roll('1d6/4', 'seven')).total) ? only(roll('1d6/4', 'seven')).total : null);
  });

  it('draws d100s through the library without bias: chi-square over 10^6 rolls passes at p > 0.001 (RULES 6.4)', () => {
    const generator = NumberGenerator.generator;
    const before: unknown = generator.engine;
    const counts = new Array<number>(101).fill(0);
    try {
      for (let seedIndex = 0; seedIndex < 100; seedIndex++) {
        generator.engine = notationEngine(`chi-square-notation-${seedIndex}`);
        for (let i = 0; i < 10_000; i++) counts[generator.integer(1, 100)]!++;
      }
    } finally {
      generator.engine = before;
    }
    expect(counts[0]).toBe(0);
    const chiSquare = counts.slice(1).reduce((total, observed) => total + (observed - 10_000) ** 2 / 10_000, 0);
    expect(chiSquare).toBeLessThan(148.23); // 99 degrees of freedom, p = 0.001
  });
});

describe('notation features (RULES 6.2)', () => {
  it('keeps and drops the highest or lowest: 4d6kh3 keeps 3 of 4, and the kept sum is the total', () => {
    const cases: Array<[string, number, 'high' | 'low']> = [
      ['4d6kh3', 3, 'high'],
      ['4d6k3', 3, 'high'],
      ['4d6kl1', 1, 'low'],
      ['4d6dl1', 3, 'high'],
      ['4d6dh1', 3, 'low'],
      ['2d20kh1', 1, 'high'],
      ['2d20kl1', 1, 'low'],
    ];
    for (const [expression, kept, which] of cases) {
      for (const seed of ['k1', 'k2', 'k3']) {
        const { dice, total } = only(roll(expression, seed));
        const keep = counted(dice);
        const dropped = dice.filter((die) => !die.counted);
        expect(keep, expression).toHaveLength(kept);
        expect(dropped.every((die) => die.marks.includes('dropped')), expression).toBe(true);
        expect(total, expression).toBe(sum(keep));
        if (dropped.length > 0) {
          if (which === 'high') expect(Math.min(...keep.map((die) => die.value))).toBeGreaterThanOrEqual(Math.max(...dropped.map((die) => die.value)));
          else expect(Math.max(...keep.map((die) => die.value))).toBeLessThanOrEqual(Math.min(...dropped.map((die) => die.value)));
        }
      }
    }
    const { dice, total } = only(roll('4d6kh3+2'));
    expect(total).toBe(sum(counted(dice)) + 2);
  });

  it('explodes: a 6 adds a die, marked; compounding and penetrating too', () => {
    const exploded = seedWhere('3d6!', (result) => diceOf(result.rolls[0]!.parts).some((die) => die.marks.includes('exploded')));
    const { dice, total } = only(exploded);
    const marked = dice.filter((die) => die.marks.includes('exploded'));
    expect(marked.every((die) => die.value === 6)).toBe(true);
    expect(dice).toHaveLength(3 + marked.length);
    expect(total).toBe(sum(dice));

    const compounded = only(seedWhere('3d6!!', (result) => diceOf(result.rolls[0]!.parts).some((die) => die.marks.includes('compounded'))));
    expect(compounded.dice).toHaveLength(3);
    const big = compounded.dice.find((die) => die.marks.includes('compounded'))!;
    expect(big.value).toBeGreaterThan(6);
    expect(big.marks).not.toContain('exploded');

    const penetrated = only(seedWhere('2d6!p', (result) => diceOf(result.rolls[0]!.parts).some((die) => die.marks.includes('penetrated'))));
    expect(penetrated.total).toBe(sum(penetrated.dice));

    const onFive = only(seedWhere('4d6!>=5', (result) => diceOf(result.rolls[0]!.parts).some((die) => die.value === 5 && die.marks.includes('exploded'))));
    expect(onFive.dice.filter((die) => die.marks.includes('exploded')).every((die) => die.value >= 5)).toBe(true);
  });

  it('rerolls: r<3 rerolls until 3 or more, ro once', () => {
    for (const seed of ['r1', 'r2', 'r3', 'r4']) {
      const { dice } = only(roll('6d6r<3', seed));
      expect(dice).toHaveLength(6);
      expect(dice.every((die) => die.value >= 3)).toBe(true);
    }
    const rerolled = only(seedWhere('4d6r<3', (result) => diceOf(result.rolls[0]!.parts).some((die) => die.marks.includes('rerolled'))));
    const die = rerolled.dice.find((one) => one.marks.includes('rerolled'))!;
    expect(die.initial).toBeLessThan(3);
    const once = only(seedWhere('6d6ro<3', (result) => diceOf(result.rolls[0]!.parts).some((one) => one.marks.includes('rerolled'))));
    expect(once.dice).toHaveLength(6);
  });

  it('counts successes and subtracts failures: 6d6>=6f=1', () => {
    for (const seed of ['s1', 's2', 's3', 's4', 's5']) {
      const result = roll('6d6>=6f=1', seed);
      expect(result.countsSuccesses).toBe(true);
      const { dice, total } = only(result);
      const successes = dice.filter((die) => die.value === 6);
      const failures = dice.filter((die) => die.value === 1);
      expect(total).toBe(successes.length - failures.length);
      expect(successes.every((die) => die.marks.includes('success'))).toBe(true);
      expect(failures.every((die) => die.marks.includes('failure'))).toBe(true);
    }
    expect(roll('2d6+3').countsSuccesses).toBe(false);
  });

  it('rolls percentile and fudge dice', () => {
    for (const seed of ['p1', 'p2', 'p3']) {
      const percentile = only(roll('d%', seed));
      expect(percentile.dice).toHaveLength(1);
      expect(percentile.total).toBeGreaterThanOrEqual(1);
      expect(percentile.total).toBeLessThanOrEqual(100);
      const fudge = only(roll('4dF', seed));
      expect(fudge.dice).toHaveLength(4);
      expect(fudge.dice.every((die) => [-1, 0, 1].includes(die.value))).toBe(true);
      expect(fudge.total).toBe(sum(fudge.dice));
    }
  });

  it('does arithmetic and math functions', () => {
    const twice = only(roll('2d6*2-1'));
    expect(twice.total).toBe(sum(twice.dice) * 2 - 1);
    const halved = only(roll('floor(3d6/2)'));
    expect(halved.total).toBe(Math.floor(sum(halved.dice) / 2));
    const grouped = only(roll('(1d4+1)*3'));
    expect(grouped.total).toBe((sum(grouped.dice) + 1) * 3);
    expect(only(roll('max(1d6,1d8)')).dice).toHaveLength(2);
  });

  it('keeps the best of a roll group', () => {
    const result = roll('{2d6,1d8}kh1', 'group');
    const [group] = result.rolls[0]!.parts;
    expect(group).toMatchObject({ type: 'group', rollGroup: true });
    const members = (group as Extract<RollPart, { type: 'group' }>).parts as Array<Extract<RollPart, { type: 'group' }>>;
    expect(members).toHaveLength(2);
    const values = members.map((member) => sum(diceOf(member.parts)));
    expect(members.filter((member) => member.counted)).toHaveLength(1);
    expect(only(result).total).toBe(Math.max(...values));
  });

  it('rolls 3#1d20+5 three times, each with its own total', () => {
    const result = roll('3#1d20+5');
    expect(result.rolls).toHaveLength(3);
    for (const one of result.rolls) {
      const dice = diceOf(one.parts);
      expect(dice).toHaveLength(1);
      expect(one.total).toBe(dice[0]!.value + 5);
      expect(one.notation).toBe('1d20+5');
    }
    expect(new Set(result.rolls.map((one) => one.total)).size).toBeGreaterThan(1);
  });

  it('keeps the label and the expression as typed', () => {
    expect(roll(' 2d6 + 1 ', 'x', 'Fireball @everyone').input).toEqual({ expression: '2d6 + 1', label: 'Fireball @everyone' });
  });
});

describe('limits and bad notation', () => {
  it('accepts everything up to the limits', () => {
    expect(only(roll('100d6')).dice).toHaveLength(100);
    expect(only(roll('1d1000')).total).toBeLessThanOrEqual(1000);
    expect(roll('10#10d6').rolls).toHaveLength(10);
    const longest = `1d6${'+1'.repeat(48)}0`;
    expect(longest).toHaveLength(DICE_NOTATION_LIMITS.expressionLength);
    expect(only(roll(longest)).total).toBe(sum(only(roll(longest)).dice) + 57);
    // 100 dice exploding on anything above 1 roll about 600 dice: within the bound.
    expect(diceOf(roll('100d6!>1').rolls[0]!.parts).length).toBeGreaterThan(100);
  });

  it('refuses past a limit with a clear message, before rolling', () => {
    const cases: Array<[string, string]> = [
      ['101d6', 'At most 100 dice per roll, repeats included'],
      ['60d6+41d8', '`60d6+41d8` has 101'],
      ['1000d6', 'At most 100 dice per roll'],
      ['3#40d6', '`3#40d6` has 120'],
      ['1d1001', 'A die has at most 1000 sides; `1d1001` has 1001'],
      ['11#1d6', '`11#` repeats the roll too many times: from 1 to 10'],
      ['0#1d6', 'from 1 to 10'],
      [`1d6+${'1'.repeat(97)}`, 'An expression has at most 100 characters; this one has 101'],
    ];
    const untouchable = { next: (): number => { throw new Error('rolled a die before checking the limits'); } };
    for (const [expression, message] of cases) {
      let error: unknown;
      try {
        rollDiceNotation({ expression, label: null }, untouchable);
      } catch (caught) {
        error = caught;
      }
      expect(error, expression).toBeInstanceOf(UserError);
      expect((error as Error).message, expression).toContain(message);
      expect((error as Error).message, expression).toMatch(/`\S*\d*d\d+\S*`/); // shows a valid example
    }
    expect(refusal('2d6', 'x'.repeat(101))).toContain('A label has at most 100 characters');
  });

  it('bounds explosions and rerolls that would run away', () => {
    for (const expression of ['1d6!>0', '1d6!!>=1', '1d6r>0', '10d2u', '2d20!>=1']) {
      expect(refusal(expression), expression).toContain(`would roll more than ${DICE_NOTATION_LIMITS.diceRolled} dice`);
    }
  });

  it('turns every bad expression into a UserError that says what is wrong and shows an example', () => {
    const cases: Array<[string, string]> = [
      ['', 'Type an expression to roll'],
      ['4d6x', '`x` at character 4 does not fit there'],
      ['1d6+', 'it ends too early'],
      ['d0', '`0` at character 2'],
      ['1d6#3', 'A repeat count goes first'],
      ['2d6 [fire]', 'put a description in the `label` option'],
      ['{{1d6}}', 'roll groups `{…}` cannot be nested'],
      ['1d1!', 'a die needs at least 2 possible faces'],
      ['1d6/0', 'does not give a usable number'],
      ['2^9999', 'does not give a usable number'],
      ['log(0)', 'does not give a usable number'],
      ['@everyone', '`@` at character 1'],
      ['🎲', 'does not fit there'],
    ];
    for (const [expression, message] of cases) {
      const text = refusal(expression);
      expect(text, expression).toContain(message);
      expect(text, expression).toMatch(/For example: `/);
    }
  });
});
