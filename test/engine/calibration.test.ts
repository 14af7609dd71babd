// /stats' statistics against cases worked by hand: the exact count of successes, its two-sided p-value, the
// chi-square of the D100 faces, and the words a p-value is said in.
import { describe, expect, it } from 'vitest';
import { calibrate, chanceWords, chiSquarePValue, d100Histogram, oddsBands, poissonBinomial, twoSidedPValue, uniformity } from '../../src/engine/calibration.js';

describe('the count of successes (Poisson-binomial)', () => {
  it('two rolls at 90 % and 80 %: P(0) = 0.1·0.2, P(1) = 0.9·0.2 + 0.1·0.8, P(2) = 0.9·0.8', () => {
    const pmf = poissonBinomial([0.9, 0.8]);
    expect([...pmf].map((p) => Number(p.toFixed(12)))).toEqual([0.02, 0.26, 0.72]);
    // No success: the lower tail is 0.02, doubled 0.04; one: min(0.28, 0.98) doubled; two: the upper tail 0.72 doubled, capped.
    expect(twoSidedPValue(pmf, 0)).toBeCloseTo(0.04, 12);
    expect(twoSidedPValue(pmf, 1)).toBeCloseTo(0.56, 12);
    expect(twoSidedPValue(pmf, 2)).toBe(1);
  });

  it('certain rolls shift the count and add no doubt', () => {
    expect([...poissonBinomial([1, 0.5, 0])]).toEqual([0, 0.5, 0.5, 0]);
    expect(twoSidedPValue(poissonBinomial([1, 1]), 2)).toBe(1);
  });

  it('a fair coin ten times, no success: 2 · 2⁻¹⁰', () => {
    expect(twoSidedPValue(poissonBinomial(new Array(10).fill(0.5)), 0)).toBeCloseTo(2 / 1024, 15);
  });

  it('matches the binomial for equal odds (20 rolls at 30 %, 12 successes: upper tail summed by hand)', () => {
    const choose = (n: number, k: number) => { let c = 1; for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i; return c; };
    let upper = 0;
    for (let k = 12; k <= 20; k++) upper += choose(20, k) * 0.3 ** k * 0.7 ** (20 - k);
    expect(twoSidedPValue(poissonBinomial(new Array(20).fill(0.3)), 12)).toBeCloseTo(2 * upper, 12);
  });

  it('calibrate sums the odds, counts the successes and weighs the difference', () => {
    const result = calibrate([{ odds: 0.9, success: false }, { odds: 0.8, success: false }]);
    expect(result).toMatchObject({ rolls: 2, got: 0 });
    expect(result.expected).toBeCloseTo(1.7, 12);
    expect(result.spread).toBeCloseTo(Math.sqrt(0.09 + 0.16), 12);
    expect(result.pValue).toBeCloseTo(0.04, 12);
  });

  it('refuses a chance outside 0–1 and more rolls than it weighs', () => {
    expect(() => poissonBinomial([1.2])).toThrow('a chance is from 0 to 1');
    expect(() => calibrate(new Array(10_001).fill({ odds: 0.5, success: true }))).toThrow('at most 10000 rolls');
  });
});

describe('the D100 faces against an even die (chi-square)', () => {
  it('bins faces in tens, 100 in the last', () => {
    expect(d100Histogram([1, 10, 11, 55, 91, 100])).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    expect(() => d100Histogram([0])).toThrow('a D100 shows 1–100');
  });

  it('p-values agree with the tables: 2 degrees of freedom is e^(−x/2); 9 degrees at 16.919 is 5 %, at 21.666 is 1 %', () => {
    expect(chiSquarePValue(4, 2)).toBeCloseTo(Math.exp(-2), 12);
    expect(chiSquarePValue(16.919, 9)).toBeCloseTo(0.05, 4);
    expect(chiSquarePValue(21.666, 9)).toBeCloseTo(0.01, 4);
    expect(chiSquarePValue(0, 9)).toBe(1);
  });

  it('an even spread scores 0; all faces in one bin scores 9n', () => {
    expect(uniformity(new Array(10).fill(7))).toEqual({ statistic: 0, pValue: 1 });
    const lopsided = uniformity([50, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(lopsided.statistic).toBeCloseTo(450, 10);
    expect(lopsided.pValue).toBeLessThan(1e-80);
  });
});

describe('the rolls by bands of their odds (the chart)', () => {
  it('puts each roll in its band of 20 %, 100 % in the last, with its expected and got successes', () => {
    const bands = oddsBands([{ odds: 0.1, success: true }, { odds: 0.2, success: false }, { odds: 0.55, success: true }, { odds: 1, success: true }]);
    expect(bands.map((band) => band.from)).toEqual([0, 20, 40, 60, 80]);
    expect(bands.map((band) => band.rolls)).toEqual([1, 1, 1, 0, 1]);
    expect(bands.map((band) => band.got)).toEqual([1, 0, 1, 0, 1]);
    expect(bands[1]!.expected).toBeCloseTo(0.2, 12);
  });
});

describe('a p-value in words', () => {
  it('says chance, unusual with odds, or far beyond chance', () => {
    expect(chanceWords(0.5)).toBe('well within chance');
    expect(chanceWords(0.1)).toBe('within chance (about 1 in 10 would be this far off)');
    expect(chanceWords(0.025)).toBe('unusual: about 1 in 40');
    expect(chanceWords(0.00123)).toBe('unusual: about 1 in 810');
    expect(chanceWords(0.0001)).toBe('very unusual: about 1 in 10,000');
    expect(chanceWords(1e-9)).toBe('far beyond chance: under 1 in a million');
  });
});
