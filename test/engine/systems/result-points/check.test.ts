import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src/errors.js';
import { rederive } from '../../../../src/engine/replay.js';
import { seededRng } from '../../../../src/engine/rng.js';
import {
  codeCheckDice,
  concededResistance,
  describeOpposition,
  difficultyBandOf,
  effectivenessOf,
  oppositionFrom,
  outcomesAbove,
  parseDifficulty,
  parseFixedResistance,
  pointsToSpend,
  resolveCodeCheck,
  resultPointsDistribution,
  type CodeCheckInput,
} from '../../../../src/engine/systems/result-points/check.js';
import { fixedResistance, formatDieCode, parseDieCode, parseDieCodeList } from '../../../../src/engine/systems/result-points/die-code.js';
import { allFaces, scriptedFaces } from '../../../helpers/faces.js';

const code = (text: string) => parseDieCode(text);
function check(overrides: Partial<CodeCheckInput> = {}): CodeCheckInput {
  return { code: code('3D+2'), boost: [], penalty: [], against: { kind: 'standing' }, ...overrides };
}

describe('die codes (RULES 3)', () => {
  it('reads ND+P as N six-sided dice and P pips, in any case and spacing', () => {
    expect(parseDieCode('3D+2')).toEqual({ dice: 3, pips: 2 });
    expect(parseDieCode(' 3d + 2 ')).toEqual({ dice: 3, pips: 2 });
    expect(parseDieCode('4D')).toEqual({ dice: 4, pips: 0 });
    expect(parseDieCode('2D-1')).toEqual({ dice: 2, pips: -1 });
    expect(formatDieCode({ dice: 2, pips: -1 })).toBe('2D-1');
    expect(formatDieCode({ dice: 4, pips: 0 })).toBe('4D');
  });

  it('refuses what is not a die code, with the reason', () => {
    expect(() => parseDieCode('3')).toThrow(/not a die code/);
    expect(() => parseDieCode('D+2')).toThrow(/not a die code/);
    expect(() => parseDieCode('3d6')).toThrow(/not a die code/);
    expect(() => parseDieCode('0D')).toThrow(/1 to 30/);
    expect(() => parseDieCode('31D')).toThrow(/1 to 30/);
    expect(() => parseDieCode('3D+31')).toThrow(UserError);
  });

  it('reads a helper list: several die codes separated by commas', () => {
    expect(parseDieCodeList('2D+1, 1D', 'boost')).toEqual([{ dice: 2, pips: 1 }, { dice: 1, pips: 0 }]);
    expect(parseDieCodeList('', 'boost')).toEqual([]);
    expect(parseDieCodeList(null, 'boost')).toEqual([]);
    expect(() => parseDieCodeList('1D,,2D', 'boost')).toThrow(/empty entry/);
    expect(() => parseDieCodeList('1D,1D,1D,1D,1D,1D,1D', 'penalty')).toThrow(/At most 6/);
  });

  it('gives the fixed resistance of every rank in the seed table: 3 × dice + pips (1D → 3 … 6D+2 → 20)', () => {
    const seedTable: Array<[string, number]> = [
      ['1D', 3], ['1D+1', 4], ['1D+2', 5], ['2D', 6], ['2D+1', 7], ['2D+2', 8],
      ['3D', 9], ['3D+1', 10], ['3D+2', 11], ['4D', 12], ['4D+1', 13], ['4D+2', 14],
      ['5D', 15], ['5D+1', 16], ['5D+2', 17], ['6D', 18], ['6D+1', 19], ['6D+2', 20],
    ];
    for (const [rank, value] of seedTable) expect(fixedResistance(code(rank)), rank).toBe(value);
  });

  it('rolls N six-sided dice and adds the pips: 3D+2 showing 4, 2, 6 is 14', () => {
    const result = resolveCodeCheck(check(), scriptedFaces(4, 2, 6));
    expect(result.roll).toEqual({ code: { dice: 3, pips: 2 }, dice: [4, 2, 6], total: 14 });
  });
});

describe('the effectiveness table (result points)', () => {
  it('reads every edge: 0 or less no effect, 1–5 Minimal … 26–30 Overwhelming, above 30 Overwhelming', () => {
    const edges: Array<[number, string | null]> = [
      [-4, null], [0, null], [1, 'Minimal'], [5, 'Minimal'], [6, 'Adequate'], [10, 'Adequate'], [11, 'Moderate'], [15, 'Moderate'],
      [16, 'Complete'], [20, 'Complete'], [21, 'Excessive'], [25, 'Excessive'], [26, 'Overwhelming'], [30, 'Overwhelming'],
      [31, 'Overwhelming'], [90, 'Overwhelming'],
    ];
    for (const [points, name] of edges) expect(effectivenessOf(points)?.name ?? null, String(points)).toBe(name);
  });
});

describe('difficulties', () => {
  it('takes a name alone as the middle of its band: Very Easy 3, Easy 8, Moderate 13, Difficult 18, Very Difficult 23, Heroic 28', () => {
    const middles: Array<[string, number]> = [['very easy', 3], ['easy', 8], ['moderate', 13], ['difficult', 18], ['very difficult', 23], ['heroic', 28]];
    for (const [name, value] of middles) expect(parseDifficulty(name), name).toMatchObject({ kind: 'difficulty', value });
    expect(parseDifficulty('Very-Difficult')).toMatchObject({ value: 23, name: 'Very Difficult' });
    expect(parseDifficulty(' HEROIC ')).toMatchObject({ value: 28, name: 'Heroic' });
    expect(describeOpposition(parseDifficulty('moderate'))).toBe('difficulty Moderate (13)');
  });

  it('a check stored with a named difficulty at the top of its band (the reading before) is resolved with its stored number', () => {
    const stored = check({ against: { kind: 'difficulty', value: 15, name: 'Moderate' } });
    const result = resolveCodeCheck(stored, scriptedFaces(5, 4, 5)); // 16 vs 15, where the middle (13) would give 3
    expect(result).toMatchObject({ opposition: 15, resultPoints: 1, success: true });
    expect(describeOpposition(stored.against)).toBe('difficulty Moderate (15)');
  });

  it('takes a number as itself, and names its band', () => {
    expect(parseDifficulty('12')).toEqual({ kind: 'difficulty', value: 12, name: null });
    expect(difficultyBandOf(12)?.name).toBe('Moderate');
    expect(difficultyBandOf(31)).toBeNull();
    expect(() => parseDifficulty('0')).toThrow(/from 1 to 99 or a name .*; 0 is not/);
    expect(() => parseDifficulty('100')).toThrow(/1 to 99/);
    expect(() => parseDifficulty('hard')).toThrow(/not a difficulty/);
    expect(() => parseDifficulty('dificult')).toThrow(/Did you mean \*\*difficult\*\*/);
  });
});

describe('a quick check', () => {
  it('standing: the total is the result points, read on the effectiveness table', () => {
    const result = resolveCodeCheck(check(), scriptedFaces(4, 2, 6));
    expect(result).toMatchObject({ total: 14, opposition: null, resultPoints: 14, success: null });
    expect(result.effectiveness?.name).toBe('Moderate');
  });

  it('standing with a total of 0 or less has no effect', () => {
    const result = resolveCodeCheck(check({ code: code('1D-2') }), scriptedFaces(1));
    expect(result).toMatchObject({ total: -1, resultPoints: -1, effectiveness: null, success: null });
  });

  it('against a difficulty: result points = total − difficulty; 0 fails, 1 is a Minimal success', () => {
    const tie = resolveCodeCheck(check({ against: parseDifficulty('moderate') }), scriptedFaces(5, 4, 2)); // 13 vs Moderate 13
    expect(tie).toMatchObject({ total: 13, opposition: 13, resultPoints: 0, success: false, effectiveness: null });
    const one = resolveCodeCheck(check({ against: parseDifficulty('moderate') }), scriptedFaces(5, 4, 3)); // 14 vs 13
    expect(one).toMatchObject({ resultPoints: 1, success: true });
    expect(one.effectiveness?.name).toBe('Minimal');
    const big = resolveCodeCheck(check({ code: code('6D+2'), against: parseDifficulty('easy') }), scriptedFaces(6, 6, 6, 6, 6, 6)); // 38 − 8
    expect(big).toMatchObject({ resultPoints: 30, success: true });
    expect(big.effectiveness?.name).toBe('Overwhelming');
  });

  it('against a fixed resistance: 3D+2 resists with 11 (the seed table), without rolling', () => {
    const against = parseFixedResistance('3D+2');
    expect(against).toEqual({ kind: 'fixed', value: 11, code: { dice: 3, pips: 2 } });
    const rng = scriptedFaces(3, 3, 3, 3);
    const result = resolveCodeCheck(check({ code: code('4D'), against }), rng);
    expect(result).toMatchObject({ total: 12, opposition: 11, resultPoints: 1, success: true, opponent: null });
    expect(rng.remaining()).toBe(0);
    expect(resolveCodeCheck(check({ code: code('4D'), against }), scriptedFaces(3, 3, 3, 2))).toMatchObject({ resultPoints: 0, success: false });
    expect(parseFixedResistance('9')).toEqual({ kind: 'fixed', value: 9, code: null });
  });

  it('against an active resistance: the opponent rolls their die code after the roller; a tie fails', () => {
    const result = resolveCodeCheck(check({ against: { kind: 'active', code: code('2D+1') } }), scriptedFaces(4, 2, 6, 6, 5));
    expect(result.opponent).toEqual({ code: { dice: 2, pips: 1 }, dice: [6, 5], total: 12 });
    expect(result).toMatchObject({ total: 14, opposition: 12, resultPoints: 2, success: true });
    const even = resolveCodeCheck(check({ code: code('2D'), against: { kind: 'active', code: code('2D') } }), scriptedFaces(3, 4, 5, 2));
    expect(even).toMatchObject({ resultPoints: 0, success: false });
  });

  it('combined actions: boost dice are rolled and added, penalty dice rolled and subtracted, each helper on its own', () => {
    const input = check({ boost: parseDieCodeList('2D+1, 1D', 'boost'), penalty: parseDieCodeList('1D', 'penalty'), against: parseDifficulty('15') });
    // Rolled in order: the roller's 3D, the boosts 2D and 1D, the penalty 1D.
    const result = resolveCodeCheck(input, scriptedFaces(4, 2, 6, 3, 5, 2, 6));
    expect(result.boosts.map((roll) => roll.total)).toEqual([9, 2]);
    expect(result.penalties.map((roll) => roll.total)).toEqual([6]);
    expect(result).toMatchObject({ total: 14 + 9 + 2 - 6, resultPoints: 19 - 15, success: true });
    expect(codeCheckDice(result)).toEqual({ roll: [4, 2, 6], boosts: [[3, 5], [2]], penalties: [[6]], opponent: null });
  });

  it('takes only one of difficulty, resistance and opponent', () => {
    expect(oppositionFrom({})).toEqual({ kind: 'standing' });
    expect(oppositionFrom({ difficulty: '  ', resistance: null })).toEqual({ kind: 'standing' });
    expect(() => oppositionFrom({ difficulty: 'easy', opponent: '3D' })).toThrow(/only one of .* not `difficulty` and `opponent`/);
    expect(() => oppositionFrom({ difficulty: 'easy', resistance: '3D', opponent: '3D' })).toThrow(UserError);
    expect(oppositionFrom({ opponent: '4D+1' })).toEqual({ kind: 'active', code: { dice: 4, pips: 1 } });
  });

  it('refuses a check that would throw more than 60 dice', () => {
    expect(() => resolveCodeCheck(check({ code: code('30D'), boost: [code('30D')], against: { kind: 'active', code: code('1D') } }), scriptedFaces())).toThrow(/61 dice/);
  });

  it('replays from its seed: the same inputs and seed give the same dice', () => {
    const input = check({ boost: [code('1D+1')], against: { kind: 'active', code: code('3D') } });
    const result = resolveCodeCheck(input, seededRng('replay-code'));
    const again = rederive('code', JSON.parse(JSON.stringify(input)), 'replay-code');
    expect(again.dice).toEqual(codeCheckDice(result));
    expect(again.result).toEqual(result);
  });
});

describe('effect rolls (seed 002: "a successful roll to hit (ability check) is followed by a damage roll (effect roll)")', () => {
  it('a success is followed by the effect roll, thrown after every other die', () => {
    // 3D+2 rolls 4, 2, 6 = 14 against the opponent's 2D+1 rolling 6, 5 = 12: 2 result points, then the effect 2D+1.
    const rng = scriptedFaces(4, 2, 6, 6, 5, 3, 4);
    const result = resolveCodeCheck(check({ against: { kind: 'active', code: code('2D+1') }, effect: code('2D+1') }), rng);
    expect(result).toMatchObject({ resultPoints: 2, success: true });
    expect(result.effect).toEqual({ code: { dice: 2, pips: 1 }, dice: [3, 4], total: 8 });
    expect(rng.remaining()).toBe(0);
    expect(codeCheckDice(result)).toEqual({ roll: [4, 2, 6], boosts: [], penalties: [], opponent: [6, 5], effect: [3, 4] });
  });

  it('a failed check has no effect roll: no die is thrown for it', () => {
    const rng = scriptedFaces(1, 1, 1);
    const result = resolveCodeCheck(check({ against: parseDifficulty('heroic'), effect: code('3D') }), rng);
    expect(result).toMatchObject({ success: false, effect: null });
    expect(rng.remaining()).toBe(0);
    expect(codeCheckDice(result).effect).toBeNull();
  });

  it('a standing check with an effect is followed by it when its total is above 0', () => {
    const result = resolveCodeCheck(check({ effect: code('1D') }), scriptedFaces(4, 2, 6, 5));
    expect(result).toMatchObject({ resultPoints: 14, success: null });
    expect(result.effect?.total).toBe(5);
  });

  it('a check without an effect stores its dice as before effect rolls existed (old rolls still replay)', () => {
    const result = resolveCodeCheck(check(), scriptedFaces(4, 2, 6));
    expect(codeCheckDice(result)).toEqual({ roll: [4, 2, 6], boosts: [], penalties: [], opponent: null });
    expect(Object.keys(codeCheckDice(result))).not.toContain('effect');
  });

  it('the effect dice count toward the 60-dice bound, and not toward the odds', () => {
    expect(() => resolveCodeCheck(check({ code: code('30D'), boost: [code('29D')], effect: code('2D') }), scriptedFaces())).toThrow(/61 dice .*effect roll/);
    const distribution = resultPointsDistribution(check({ effect: code('5D') }));
    expect(distribution.outcomes).toBe(216n);
  });
});

describe('what a check spends on a condition track (seed 002: "result points are then spent on conditions")', () => {
  it('its result points, or the effect roll when it has one; nothing for a failure', () => {
    expect(pointsToSpend(resolveCodeCheck(check({ against: parseDifficulty('10') }), scriptedFaces(4, 2, 6)))).toBe(4);
    expect(pointsToSpend(resolveCodeCheck(check({ against: parseDifficulty('20') }), scriptedFaces(4, 2, 6)))).toBe(0);
    expect(pointsToSpend(resolveCodeCheck(check({ against: parseDifficulty('10'), effect: code('2D+1') }), scriptedFaces(4, 2, 6, 6, 6)))).toBe(13);
    expect(pointsToSpend(resolveCodeCheck(check({ against: parseDifficulty('10'), effect: code('1D-3') }), scriptedFaces(4, 2, 6, 2)))).toBe(0);
    expect(pointsToSpend(resolveCodeCheck(check(), scriptedFaces(4, 2, 6)))).toBe(14);
  });
});

describe('an opponent who conceded (seed 002: "that opponent can only use fixed resistance values")', () => {
  it('resists with the fixed value of the die code they would have rolled: 3D+1 → 10, nothing rolled', () => {
    const against = concededResistance({ kind: 'active', code: code('3D+1') }, 'Troy');
    expect(against).toEqual({ kind: 'fixed', value: 10, code: { dice: 3, pips: 1 }, conceded: 'Troy' });
    const rng = scriptedFaces(4, 2, 6);
    expect(resolveCodeCheck(check({ against }), rng)).toMatchObject({ opposition: 10, resultPoints: 4, opponent: null });
    expect(rng.remaining()).toBe(0);
  });

  it('leaves any other opposition as it is', () => {
    for (const against of [{ kind: 'standing' } as const, parseDifficulty('easy'), parseFixedResistance('2D')]) {
      expect(concededResistance(against, 'Troy')).toBe(against);
    }
  });
});

describe('exact odds of the result points', () => {
  it('match an enumeration of every face for a small check with boost, penalty and an opponent', () => {
    const input = check({ code: code('2D+1'), boost: [code('1D')], penalty: [code('1D-1')], against: { kind: 'active', code: code('1D+2') } });
    const counted = new Map<number, bigint>();
    for (const faces of allFaces(5, 6)) {
      const points = resolveCodeCheck(input, scriptedFaces(...faces)).resultPoints;
      counted.set(points, (counted.get(points) ?? 0n) + 1n);
    }
    const distribution = resultPointsDistribution(input);
    expect(distribution.outcomes).toBe(7776n);
    distribution.counts.forEach((count, index) => expect(count, String(distribution.min + index)).toBe(counted.get(distribution.min + index) ?? 0n));
    expect([...counted.values()].reduce((a, b) => a + b, 0n)).toBe(7776n);
    const successes = [...counted.entries()].filter(([points]) => points > 0).reduce((sum, [, count]) => sum + count, 0n);
    expect(outcomesAbove(distribution, 0)).toBe(successes);
  });

  it('3D+2 against difficulty 11 (the fixed resistance of 3D+2) succeeds when the dice show 10 or more: 135 of 216', () => {
    const distribution = resultPointsDistribution(check({ against: parseDifficulty('11') }));
    // 3D ≥ 10: 1 − P(3D ≤ 9) = 1 − 81/216.
    expect(outcomesAbove(distribution, 0)).toBe(216n - 81n);
  });
});
