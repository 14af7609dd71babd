import { describe, expect, it } from 'vitest';
import { abilitiesOf, findAbility, looksLikeDieCode, rankOfValue, valueOfRank } from '../../../../src/engine/systems/result-points/abilities.js';
import { formatDieCode, parseDieCode } from '../../../../src/engine/systems/result-points/die-code.js';
import type { OperatorSheet } from '../../../../src/engine/sheet.js';

const kat = (skills: Array<[string, number]>): OperatorSheet =>
  ({ id: 1, guildId: 'g', ownerId: 'u', name: 'Kat', system: 'result-points', notes: '', skills: skills.map(([name, level]) => ({ name, level })), archetypes: [], conditions: [], attributes: [] }) as unknown as OperatorSheet;

describe('an ability’s rank on a die-code sheet', () => {
  it('is kept as its fixed value, and every rank of the seed table (1D … 6D+2) is read back from it', () => {
    const seedTable = ['1D', '1D+1', '1D+2', '2D', '2D+1', '2D+2', '3D', '3D+1', '3D+2', '4D', '4D+1', '4D+2', '5D', '5D+1', '5D+2', '6D', '6D+1', '6D+2'];
    seedTable.forEach((rank, index) => {
      expect(valueOfRank(parseDieCode(rank)), rank).toBe(3 + index);
      expect(formatDieCode(rankOfValue(3 + index))).toBe(rank);
    });
    expect(formatDieCode(rankOfValue(92))).toBe('30D+2');
    expect(() => rankOfValue(2)).toThrow(/from 3 \(1D\) to 92 \(30D\+2\)/);
  });

  it('has 0, 1 or 2 pips: 3D+3 and 3D-1 are no rank, and the refusal names the rank of the same fixed value', () => {
    expect(() => valueOfRank(parseDieCode('3D+3'))).toThrow('3D+3 is not one; the rank of the same fixed value is 4D');
    expect(() => valueOfRank(parseDieCode('3D-1'))).toThrow('3D-1 is not one; the rank of the same fixed value is 2D+2');
  });

  it('is found by name, case and spaces aside; a name not on the sheet is refused with the nearest abilities', () => {
    const sheet = kat([['Blaster', 11], ['Brawling', 6], ['Luck', 1]]);
    expect(abilitiesOf(sheet).map((ability) => `${ability.name} ${formatDieCode(ability.code)}`)).toEqual(['Blaster 3D+2', 'Brawling 2D']);
    expect(findAbility(sheet, ' BLASTER ', 'die code')).toEqual({ name: 'Blaster', code: { dice: 3, pips: 2 } });
    expect(() => findAbility(sheet, 'Blastr', 'die code')).toThrow('Kat has no ability named **Blastr** for die code. Did you mean Blaster 3D+2?');
  });

  it('is looked up only for text that is no attempt at a die code', () => {
    for (const code of ['3d6', '31D', '3D+2', ' 2 d - 1 ']) expect(looksLikeDieCode(code), code).toBe(true);
    for (const name of ['Blaster', 'Dodge', '2nd Wind', 'd6']) expect(looksLikeDieCode(name), name).toBe(false);
  });
});
