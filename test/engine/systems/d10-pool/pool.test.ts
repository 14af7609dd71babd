import { describe, expect, it } from 'vitest';
import { rederive } from '../../../../src/engine/replay.js';
import { seededRng } from '../../../../src/engine/rng.js';
import {
  parseSituations,
  poolDice,
  poolOdds,
  poolSize,
  readPool,
  resolveAdvancedRoll,
  resolvePoolRoll,
  verdictOf,
  type AdvancedInput,
  type PoolInput,
  type PoolOdds,
} from '../../../../src/engine/systems/d10-pool/pool.js';
import { allFaces, scriptedFaces } from '../../../helpers/faces.js';

function pool(overrides: Partial<PoolInput> = {}): PoolInput {
  return { dice: 3, targetNumber: 8, modifier: 0, calm: false, ...overrides };
}
function advanced(overrides: Partial<AdvancedInput> = {}): AdvancedInput {
  return { ...pool(), secondary: 5, mode: 'additive', halve: false, ...overrides };
}

describe('reading a d10 pool (RULES 5)', () => {
  it('reads the highest die + 1 for each other die equal to it: 2, 8, 8 → 9 (the seed example)', () => {
    const result = resolvePoolRoll(pool(), scriptedFaces(2, 8, 8));
    expect(result.reading).toMatchObject({ faces: [2, 8, 8], highest: 8, matches: 1, natural: 9, mishap: null });
    expect(result.result).toBe(9);
  });

  it('counts every match: 10, 10, 10 → 12; one die reads as itself; lower dice add nothing', () => {
    expect(readPool([10, 10, 10], { zeroDice: false, calm: false }).natural).toBe(12);
    expect(readPool([7], { zeroDice: false, calm: false }).natural).toBe(7);
    expect(readPool([9, 8, 8, 3], { zeroDice: false, calm: false }).natural).toBe(9);
  });

  it('adds the modifier to the reading', () => {
    const result = resolvePoolRoll(pool({ modifier: -2 }), scriptedFaces(2, 8, 8));
    expect(result.terms).toEqual([{ name: 'modifier', value: -2 }]);
    expect(result.result).toBe(7);
  });
});

describe('against a target number', () => {
  it('TN 8: 8 succeeds, 6 or 7 is a partial success (the seed example), 5 fails', () => {
    expect(verdictOf(8, 8)).toBe('success');
    expect(verdictOf(7, 8)).toBe('partial success');
    expect(verdictOf(6, 8)).toBe('partial success');
    expect(verdictOf(5, 8)).toBe('failure');
  });

  it('a solid success is more than 1.5 × TN: 12 against TN 8 is a success, 13 a solid success', () => {
    expect(verdictOf(12, 8)).toBe('success');
    expect(verdictOf(13, 8)).toBe('solid success');
    expect(verdictOf(15, 10)).toBe('success');
    expect(verdictOf(16, 10)).toBe('solid success');
    expect(verdictOf(11, 7)).toBe('solid success'); // 11 > 10.5
  });

  it('a partial success is short by at most 25 % of the TN, exactly: TN 10 → 8 partial (2 ≤ 2.5), 7 failure', () => {
    expect(verdictOf(8, 10)).toBe('partial success');
    expect(verdictOf(7, 10)).toBe('failure');
    expect(verdictOf(3, 4)).toBe('partial success');
    expect(verdictOf(2, 4)).toBe('failure');
    expect(verdictOf(1, 2)).toBe('failure'); // short by 1 > 0.5
  });

  it('through the roll: 2, 8, 8 → 9 against TN 8 succeeds; against TN 10 it is a partial success', () => {
    expect(resolvePoolRoll(pool(), scriptedFaces(2, 8, 8))).toMatchObject({ verdict: 'success', success: true });
    expect(resolvePoolRoll(pool({ targetNumber: 10 }), scriptedFaces(2, 8, 8))).toMatchObject({ verdict: 'partial success', success: false });
    expect(resolvePoolRoll(pool({ targetNumber: 5 }), scriptedFaces(2, 8, 8))).toMatchObject({ verdict: 'solid success', success: true });
  });
});

describe('under stress (the default)', () => {
  it('a majority of 1s fails automatically, whatever the highest die', () => {
    const result = resolvePoolRoll(pool({ targetNumber: 5 }), scriptedFaces(1, 1, 9));
    expect(result.reading.mishap).toBe('automatic failure');
    expect(result).toMatchObject({ verdict: 'failure', success: false, result: 9 });
    expect(readPool([1, 1, 1, 6, 6], { zeroDice: false, calm: false }).mishap).toBe('automatic failure');
  });

  it('half the dice showing 1 is not a majority', () => {
    expect(readPool([1, 5], { zeroDice: false, calm: false }).mishap).toBeNull();
    expect(readPool([1, 1, 6, 6], { zeroDice: false, calm: false }).mishap).toBeNull();
  });

  it('every die showing 1 is a botch, also with one die', () => {
    expect(readPool([1, 1, 1], { zeroDice: false, calm: false }).mishap).toBe('botch');
    expect(readPool([1], { zeroDice: false, calm: false }).mishap).toBe('botch');
    expect(resolvePoolRoll(pool({ targetNumber: 1 }), scriptedFaces(1, 1, 1))).toMatchObject({ verdict: 'failure', success: false });
  });

  it('a mishap is a failure, never a partial success', () => {
    const result = resolvePoolRoll(pool({ targetNumber: 9, modifier: 1 }), scriptedFaces(1, 1, 7));
    expect(result.result).toBe(8); // would be partial (short by 1) without the 1s
    expect(result.verdict).toBe('failure');
  });
});

describe('calm (not a stressful situation)', () => {
  it('turns off the automatic failure and the botch: the dice are read as they are', () => {
    const ones = resolvePoolRoll(pool({ dice: 2, targetNumber: 2, calm: true }), scriptedFaces(1, 1));
    expect(ones.reading).toMatchObject({ mishap: null, natural: 2 });
    expect(ones.verdict).toBe('success');
    expect(resolvePoolRoll(pool({ targetNumber: 5, calm: true }), scriptedFaces(1, 1, 9))).toMatchObject({ verdict: 'solid success' });
  });

  it('turns off the zero-dice critical failure too', () => {
    const result = resolvePoolRoll(pool({ dice: 0, targetNumber: 2, calm: true }), scriptedFaces(2));
    expect(result.reading).toMatchObject({ zeroDice: true, mishap: null });
    expect(result.verdict).toBe('success');
  });
});

describe('zero or fewer dice', () => {
  it('rolls one die; a 2 is a critical failure and a 1 a worse one', () => {
    const two = resolvePoolRoll(pool({ dice: 0 }), scriptedFaces(2));
    expect(two.reading).toMatchObject({ faces: [2], zeroDice: true, mishap: 'critical failure', worseThanBotch: false });
    expect(two.verdict).toBe('failure');
    const one = resolvePoolRoll(pool({ dice: -3 }), scriptedFaces(1));
    expect(one.reading).toMatchObject({ faces: [1], zeroDice: true, mishap: 'critical failure', worseThanBotch: true });
  });

  it('3 or more is read as usual against the TN', () => {
    const rng = scriptedFaces(7);
    expect(resolvePoolRoll(pool({ dice: 0, targetNumber: 7 }), rng)).toMatchObject({ result: 7, verdict: 'success' });
    expect(rng.remaining()).toBe(0);
  });
});

describe('advanced rolls', () => {
  it('additive: the secondary level is added', () => {
    const result = resolveAdvancedRoll(advanced({ secondary: 5, targetNumber: 14 }), scriptedFaces(2, 8, 8));
    expect(result.terms).toEqual([{ name: 'secondary skill', value: 5 }]);
    expect(result).toMatchObject({ result: 14, verdict: 'success' });
  });

  it('additive, halved: half the secondary level, rounded down', () => {
    const result = resolveAdvancedRoll(advanced({ secondary: 5, halve: true, modifier: 1 }), scriptedFaces(2, 8, 8));
    expect(result.terms).toEqual([{ name: 'secondary skill (halved)', value: 2 }, { name: 'modifier', value: 1 }]);
    expect(result.result).toBe(12);
  });

  it('subtractive: the secondary level is subtracted; without a TN the result stands on its own', () => {
    const result = resolveAdvancedRoll(advanced({ mode: 'subtractive', secondary: 3, targetNumber: null }), scriptedFaces(2, 8, 8));
    expect(result).toMatchObject({ result: 6, verdict: null, success: null });
  });

  it('refuses halving a subtractive roll and out-of-range levels', () => {
    expect(() => resolveAdvancedRoll(advanced({ mode: 'subtractive', halve: true }), scriptedFaces(1, 2, 3))).toThrow(/Only an additive roll halves/);
    expect(() => resolveAdvancedRoll(advanced({ secondary: 51 }), scriptedFaces(1, 2, 3))).toThrow(/secondary skill level must be a whole number from 0 to 50/);
  });
});

describe('success and failure: a near miss is a partial success only when missing is safe', () => {
  it('the long jump into a sand pit is a partial success; over a chasm (unsafe) the same 7 vs TN 8 fails', () => {
    expect(resolvePoolRoll(pool(), scriptedFaces(2, 7, 3))).toMatchObject({ result: 7, verdict: 'partial success' });
    expect(resolvePoolRoll(pool({ unsafe: true }), scriptedFaces(2, 7, 3))).toMatchObject({ result: 7, verdict: 'failure', success: false });
    expect(resolvePoolRoll(pool({ unsafe: true }), scriptedFaces(2, 6, 3))).toMatchObject({ result: 6, verdict: 'failure' });
  });

  it('unsafe changes nothing else: success and solid success stay', () => {
    expect(resolvePoolRoll(pool({ unsafe: true }), scriptedFaces(2, 8, 8))).toMatchObject({ verdict: 'success' });
    expect(resolvePoolRoll(pool({ unsafe: true, targetNumber: 5 }), scriptedFaces(2, 8, 8))).toMatchObject({ verdict: 'solid success' });
    expect(verdictOf(7, 8, false)).toBe('failure');
    expect(verdictOf(13, 8, false)).toBe('solid success');
  });
});

describe('conditional modifiers: situations that each take one die away', () => {
  it('each situation named takes one die: 3 dice in the dark and wounded roll 1 die', () => {
    const rng = scriptedFaces(6);
    const result = resolvePoolRoll(pool({ situations: ['in the dark', 'wounded'], targetNumber: 6 }), rng);
    expect(rng.remaining()).toBe(0);
    expect(result.reading).toMatchObject({ faces: [6], zeroDice: false });
    expect(result).toMatchObject({ result: 6, verdict: 'success' });
    expect(poolSize({ dice: 3, situations: ['in the dark', 'wounded'] })).toBe(1);
  });

  it('penalties down to zero dice roll one die under the zero-dice rule (the seed: “due to penalties”): a 2 is a critical failure', () => {
    const result = resolvePoolRoll(pool({ dice: 2, situations: ['in the dark', 'wounded'] }), scriptedFaces(2));
    expect(result.reading).toMatchObject({ faces: [2], zeroDice: true, mishap: 'critical failure' });
    const below = resolvePoolRoll(pool({ dice: 1, situations: ['a', 'b', 'c'] }), scriptedFaces(1));
    expect(below.reading).toMatchObject({ zeroDice: true, worseThanBotch: true });
  });

  it('the majority-of-1s rule counts the dice actually rolled', () => {
    // 4 dice, one situation: 3 dice, two of them 1s is a majority (it would not be of 4).
    expect(resolvePoolRoll(pool({ dice: 4, situations: ['prone'] }), scriptedFaces(1, 1, 9)).reading.mishap).toBe('automatic failure');
  });

  it('reads the names from the option: commas or semicolons, trimmed, blanks dropped', () => {
    expect(parseSituations('in the dark,  wounded ; prone')).toEqual(['in the dark', 'wounded', 'prone']);
    expect(parseSituations(' , ;')).toEqual([]);
    expect(parseSituations(null)).toEqual([]);
    expect(parseSituations('under   fire')).toEqual(['under fire']);
  });

  it('refuses a situation named twice, a bare number, a name over 60 characters and more than 10 situations', () => {
    expect(() => parseSituations('wounded, Wounded')).toThrow(/"Wounded" is named twice; each situation takes one die away once/);
    expect(() => parseSituations('2')).toThrow(/Name each situation that takes a die away .* not a number \("2"\)\. To roll fewer dice, lower `dice`/);
    expect(() => parseSituations('x'.repeat(61))).toThrow(/at most 60 characters/);
    expect(() => parseSituations(Array.from({ length: 11 }, (_, i) => `s${i}`).join(','))).toThrow(/At most 10 situations can take dice away from one roll; 11 were named/);
    expect(() => resolvePoolRoll(pool({ situations: ['  '] }), scriptedFaces(5, 5, 5))).toThrow(/A situation needs a name/);
  });
});

describe('range checks', () => {
  it('refuses a TN, dice count or modifier out of range with a clear message', () => {
    expect(() => resolvePoolRoll(pool({ targetNumber: 0 }), scriptedFaces())).toThrow(/target number \(TN\) must be a whole number from 1 to 100; 0 is not/);
    expect(() => resolvePoolRoll(pool({ targetNumber: 101 }), scriptedFaces())).toThrow(/1 to 100/);
    expect(() => resolvePoolRoll(pool({ dice: 31 }), scriptedFaces())).toThrow(/number of dice must be a whole number from -20 to 30/);
    expect(() => resolvePoolRoll(pool({ modifier: 51 }), scriptedFaces())).toThrow(/modifier must be a whole number from -50 to 50/);
  });
});

describe('replay', () => {
  it('a roll stored before situations, aiming and unsafe existed replays exactly as it was rolled', () => {
    const stored = { dice: 4, targetNumber: 8, modifier: 1, calm: false };
    const before = rederive('d10', stored, 'old-roll');
    expect(before.result).toMatchObject({ input: stored, terms: [{ name: 'modifier', value: 1 }] });
    expect((before.result as { reading: { faces: number[] } }).reading.faces).toHaveLength(4);
  });

  it('a roll with situations and aiming replays with the same dice and result', () => {
    const input = pool({ dice: 5, situations: ['in the dark'], aimPhases: 4, unsafe: true });
    const rolled = resolvePoolRoll(input, seededRng('replay-situations'));
    expect(rolled.reading.faces).toHaveLength(4);
    expect(rederive('d10', JSON.parse(JSON.stringify(input)), 'replay-situations')).toMatchObject({ dice: poolDice(rolled), result: rolled });
  });

  it('a basic and an advanced roll give the same dice again from their seed', () => {
    const basic = resolvePoolRoll(pool({ dice: 5 }), seededRng('replay-d10'));
    expect(rederive('d10', pool({ dice: 5 }), 'replay-d10')).toMatchObject({ dice: poolDice(basic), result: basic });
    const adv = resolveAdvancedRoll(advanced({ dice: 4 }), seededRng('replay-adv'));
    expect(rederive('d10-advanced', JSON.parse(JSON.stringify(advanced({ dice: 4 }))), 'replay-adv')).toMatchObject({ dice: poolDice(adv), result: adv });
  });
});

/** The odds by brute force: every sequence of faces, read and judged as a roll would be. */
function enumerate(dice: number, targetNumber: number, bonus: number, calm: boolean, unsafe = false): PoolOdds {
  const odds: PoolOdds = { outcomes: 0n, solid: 0n, success: 0n, partial: 0n, failure: 0n, mishap: 0n };
  for (const faces of allFaces(Math.max(1, dice), 10)) {
    odds.outcomes++;
    const result = resolvePoolRoll({ dice, targetNumber, modifier: bonus, calm, unsafe }, scriptedFaces(...faces));
    if (result.reading.mishap) odds.mishap++;
    else if (result.verdict === 'solid success') odds.solid++;
    else if (result.verdict === 'success') odds.success++;
    else if (result.verdict === 'partial success') odds.partial++;
    else odds.failure++;
  }
  return odds;
}

describe('exact odds', () => {
  it('match an enumeration of every face for pools of 0 to 4 dice, under stress and calm', () => {
    for (const dice of [0, 1, 2, 3, 4]) {
      for (const [targetNumber, bonus] of [[8, 0], [10, 2], [4, -1], [13, 0]] as const) {
        for (const calm of [false, true]) {
          expect(poolOdds(dice, targetNumber, bonus, calm), JSON.stringify({ dice, targetNumber, bonus, calm })).toEqual(enumerate(dice, targetNumber, bonus, calm));
        }
      }
    }
  });

  it('without partial successes (unsafe, fastdraw) match an enumeration too: a near miss counts as a failure', () => {
    for (const dice of [0, 1, 2, 3]) {
      for (const [targetNumber, bonus] of [[8, 0], [10, 2], [4, -1]] as const) {
        expect(poolOdds(dice, targetNumber, bonus, false, false), JSON.stringify({ dice, targetNumber, bonus })).toEqual(enumerate(dice, targetNumber, bonus, false, true));
      }
    }
    expect(poolOdds(1, 8, 0, false, false)).toEqual({ outcomes: 10n, solid: 0n, success: 3n, partial: 0n, failure: 6n, mishap: 1n });
  });

  it('with situations, the odds are those of the pool left (an enumeration of the dice actually rolled)', () => {
    const rolled = (faces: number[]) => resolvePoolRoll({ dice: 4, targetNumber: 9, modifier: 2, calm: false, situations: ['dark', 'wounded'] }, scriptedFaces(...faces));
    const odds: PoolOdds = { outcomes: 0n, solid: 0n, success: 0n, partial: 0n, failure: 0n, mishap: 0n };
    for (const faces of allFaces(2, 10)) {
      odds.outcomes++;
      const result = rolled(faces);
      if (result.reading.mishap) odds.mishap++;
      else if (result.verdict === 'solid success') odds.solid++;
      else if (result.verdict === 'success') odds.success++;
      else if (result.verdict === 'partial success') odds.partial++;
      else odds.failure++;
    }
    expect(poolOdds(poolSize({ dice: 4, situations: ['dark', 'wounded'] }), 9, 2, false)).toEqual(odds);
  });

  it('one die against TN 8 under stress: 3 of 10 succeed, 2 are partial (6, 7), 1 botches', () => {
    expect(poolOdds(1, 8, 0, false)).toEqual({ outcomes: 10n, solid: 0n, success: 3n, partial: 2n, failure: 4n, mishap: 1n });
  });

  it('adds up to every outcome for a large pool', () => {
    const odds = poolOdds(30, 12, 0, false);
    expect(odds.solid + odds.success + odds.partial + odds.failure + odds.mishap).toBe(10n ** 30n);
  });
});
