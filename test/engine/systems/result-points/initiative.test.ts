// Seed 002's initiative: melee by the fixed value of an ability, a chase by position, a debate by an ability check.
import { describe, expect, it } from 'vitest';
import { rederive } from '../../../../src/engine/replay.js';
import { seededRng } from '../../../../src/engine/rng.js';
import { fixedResistance, parseDieCode } from '../../../../src/engine/systems/result-points/die-code.js';
import { chasePosition, debateInitiativeDice, meleeValue, rollDebateInitiative } from '../../../../src/engine/systems/result-points/initiative.js';
import { scriptedFaces } from '../../../helpers/faces.js';

describe('melee: the fixed value of an ability', () => {
  it('a die code counts as a fixed resistance does, 3·N + P (the seed’s table, 1D → 3 … 6D+2 → 20)', () => {
    expect(meleeValue('1D')).toEqual({ value: 3, code: { dice: 1, pips: 0 } });
    expect(meleeValue('4D+1').value).toBe(13);
    expect(meleeValue('6D+2').value).toBe(20);
    for (const text of ['2D', '2D+1', '2D+2', '3D', '5D+1']) expect(meleeValue(text).value).toBe(fixedResistance(parseDieCode(text)));
  });

  it('or the value itself, 0–999; anything else is a clear error', () => {
    expect(meleeValue(' 12 ')).toEqual({ value: 12, code: null });
    expect(() => meleeValue('1000')).toThrow(/0 to 999/);
    expect(() => meleeValue('-1')).toThrow(/0 to 999/);
    expect(() => meleeValue('fast')).toThrow(/is not a die code/);
  });
});

describe('a chase: relative position', () => {
  it('1 leads; positions are whole numbers 1–99', () => {
    expect(chasePosition('1')).toBe(1);
    expect(chasePosition(' 3 ')).toBe(3);
    for (const bad of ['0', '100', '1.5', 'front', '-2']) expect(() => chasePosition(bad)).toThrow(/chase position is a whole number from 1/);
  });
});

describe('a debate: an ability check', () => {
  it('each die code is rolled in order; its total (dice + pips) is the initiative', () => {
    const result = rollDebateInitiative({ entries: [{ name: 'Counsel', code: parseDieCode('3D+2') }, { name: 'Witness', code: parseDieCode('1D-1') }] }, scriptedFaces(4, 6, 1, 5));
    expect(result.entries.map((entry) => [entry.name, entry.roll.dice, entry.roll.total])).toEqual([
      ['Counsel', [4, 6, 1], 13],
      ['Witness', [5], 4],
    ]);
    expect(debateInitiativeDice(result)).toEqual([[4, 6, 1], [5]]);
  });

  it('replays from its seed with the same dice (kind code-initiative)', () => {
    const input = { entries: [{ name: 'Counsel', code: parseDieCode('4D') }] };
    const rolled = rollDebateInitiative(input, seededRng('debate'));
    const replayed = rederive('code-initiative', JSON.parse(JSON.stringify(input)), 'debate');
    expect(replayed.dice).toEqual(debateInitiativeDice(rolled));
  });
});
