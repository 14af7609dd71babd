// Each kind's stored odds are the odds its answer shows (RollLog.entry stores them from the kind's calibration):
// the d10 pool's odds line and the die code's chance, beside the challenge, check and pool of test/e2e/stats.test.ts.
import { describe, expect, it } from 'vitest';
import { calibrationOf } from '../../src/engine/replay.js';
import { seededRng } from '../../src/engine/rng.js';
import { resolvePoolRoll, type PoolInput } from '../../src/engine/systems/d10-pool/pool.js';
import { resolveCodeCheck, type CodeCheckInput } from '../../src/engine/systems/result-points/check.js';
import { oddsLine } from '../../src/views/d10-pool.js';
import { codeCheckChance } from '../../src/views/result-points.js';

const shownTenths = (odds: number | null) => (odds === null ? null : Math.round(odds * 1000) / 10);

describe('the odds a roll keeps are the odds it shows', () => {
  it.each<[string, PoolInput]>([
    ['a stressful pool against TN 9', { dice: 8, targetNumber: 9, modifier: 2, calm: false }],
    ['a calm pool with a situation', { dice: 4, targetNumber: 7, modifier: 0, calm: true, situations: ['in the dark'] }],
    ['an unsafe pool (no partial success)', { dice: 3, targetNumber: 8, modifier: -1, calm: false, unsafe: true }],
  ])('d10: %s', (_, input) => {
    const shown = /success ([\d.]+)%/.exec(oddsLine(resolvePoolRoll(input, seededRng('d10-seed')))!)![1];
    expect(shownTenths(calibrationOf('d10', input, 'd10-seed').odds)).toBe(Number(shown));
  });

  it('d10 without a TN: no verdict, no odds', () => {
    expect(calibrationOf('d10', { dice: 5, targetNumber: null, modifier: 0, calm: true }, 's')).toEqual({ odds: null, d100: null });
  });

  it.each<[string, CodeCheckInput]>([
    ['against a difficulty', { code: { dice: 4, pips: 1 }, boost: [], penalty: [], against: { kind: 'difficulty', value: 15, name: 'moderate' } }],
    ['against an active opponent, helped', { code: { dice: 5, pips: 2 }, boost: [{ dice: 1, pips: 0 }], penalty: [], against: { kind: 'active', code: { dice: 6, pips: 1 } } }],
  ])('die code: %s', (_, input) => {
    const shown = codeCheckChance(resolveCodeCheck(input, seededRng('code-seed')));
    expect(shownTenths(calibrationOf('code', input, 'code-seed').odds)).toBe(shown);
  });

  it('a standing die-code check has no verdict, so no odds', () => {
    expect(calibrationOf('code', { code: { dice: 3, pips: 0 }, boost: [], penalty: [], against: { kind: 'standing' } }, 's').odds).toBeNull();
  });

  it('an outcome table rolled on one D100 gives its face; inputs that do not roll again give nothing', () => {
    const table = { name: 'Reload', die: 'd100', rows: [{ min: 1, max: 100, text: 'Done' }] };
    const { d100, odds } = calibrationOf('outcome', { table, modifiers: [] }, 'o-seed');
    expect(odds).toBeNull();
    expect(d100).toBeGreaterThanOrEqual(1);
    expect(d100).toBeLessThanOrEqual(100);
    expect(calibrationOf('challenge', { skill: 'no' }, 's')).toEqual({ odds: null, d100: null });
  });
});
