import { describe, expect, it } from 'vitest';
import { d100FromDice, rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { scriptedD100 } from '../helpers/dice.js';

describe('a D100 rolled as 2D10 (RULES 1.1)', () => {
  it('reads the first die as tens and the second as ones', () => {
    expect(d100FromDice(4, 8)).toEqual({ tens: 4, ones: 8, value: 48 });
    expect(d100FromDice(0, 7)).toEqual({ tens: 0, ones: 7, value: 7 });
    expect(d100FromDice(9, 9)).toEqual({ tens: 9, ones: 9, value: 99 });
  });

  it('reads [0][0] as 100, never 0', () => {
    expect(d100FromDice(0, 0)).toEqual({ tens: 0, ones: 0, value: 100 });
    expect(rollD100(scriptedD100(100))).toEqual({ tens: 0, ones: 0, value: 100 });
  });

  it('gives the same dice for the same seed, and different dice for different seeds', () => {
    const first = Array.from({ length: 20 }, ((rng) => () => rollD100(rng).value)(seededRng('table-7')));
    const again = Array.from({ length: 20 }, ((rng) => () => rollD100(rng).value)(seededRng('table-7')));
    const other = Array.from({ length: 20 }, ((rng) => () => rollD100(rng).value)(seededRng('table-8')));
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });
});

describe('the distribution of seeded D100s (RULES 6.4)', () => {
  it('passes a chi-square test against uniform over 10^6 rolls (p > 0.001)', () => {
    const counts = new Array<number>(101).fill(0);
    const rolls = 1_000_000;
    for (let seedIndex = 0; seedIndex < 1000; seedIndex++) {
      const rng = seededRng(`chi-square-${seedIndex}`);
      for (let i = 0; i < rolls / 1000; i++) counts[rollD100(rng).value]!++;
    }
    expect(counts[0]).toBe(0);
    const expected = rolls / 100;
    const chiSquare = counts.slice(1).reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
    // The critical value of chi-square with 99 degrees of freedom at p = 0.001 is 148.23.
    expect(chiSquare).toBeLessThan(148.23);
    expect(Math.min(...counts.slice(1))).toBeGreaterThan(0);
  });

  it('draws each of n integers without modulo bias, even for awkward n', () => {
    const rng = seededRng('awkward');
    const n = 3;
    const counts = [0, 0, 0];
    for (let i = 0; i < 300_000; i++) counts[rng.int(n)]!++;
    const chiSquare = counts.reduce((sum, observed) => sum + (observed - 100_000) ** 2 / 100_000, 0);
    expect(chiSquare).toBeLessThan(13.82); // 2 degrees of freedom, p = 0.001
  });
});
