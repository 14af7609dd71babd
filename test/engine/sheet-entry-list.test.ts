import { describe, expect, it } from 'vitest';
import { listClash, parseEntryList } from '../../src/engine/sheet-entry-list.js';

const LEVEL = { word: 'level', example: 'Climbing 40' } as const;
const MODIFIER = { word: 'modifier', example: 'Acuity +10' } as const;

describe('a typed list of sheet entries', () => {
  it('reads names and numbers separated by commas, semicolons or lines, skipping empty ones', () => {
    expect(parseEntryList('Climbing 40, CQC 37;Driving 55\nShotgun Handling 35,, ', LEVEL)).toEqual([
      { position: 1, typed: 'Climbing 40', name: 'Climbing', value: 40 },
      { position: 2, typed: 'CQC 37', name: 'CQC', value: 37 },
      { position: 3, typed: 'Driving 55', name: 'Driving', value: 55 },
      { position: 4, typed: 'Shotgun Handling 35', name: 'Shotgun Handling', value: 35 },
    ]);
  });

  it('takes signs (a typed minus too), a colon or an equals sign, and digits inside a name', () => {
    expect(parseEntryList('Acuity +10, Dexterity -5, Brawn −3, Aim: 65, Will=40, Language 2 30', MODIFIER).map((entry) => ('name' in entry ? [entry.name, entry.value] : entry.problem))).toEqual([
      ['Acuity', 10],
      ['Dexterity', -5],
      ['Brawn', -3],
      ['Aim', 65],
      ['Will', 40],
      ['Language 2', 30],
    ]);
  });

  it('splits on a full-width comma as on a comma', () => {
    expect(parseEntryList('Climbing 40，CQC 37', LEVEL).map((entry) => entry.typed)).toEqual(['Climbing 40', 'CQC 37']);
  });

  it('says what an entry without a whole number lacks, with an example of the right form', () => {
    const [, driving, aim, acuity] = parseEntryList('Climbing 40, Driving, Aim 4.5, Acuity+5', LEVEL);
    expect(driving).toEqual({ position: 2, typed: 'Driving', problem: 'it has no level: write the name, a space and its level, e.g. `Climbing 40`' });
    expect(aim).toMatchObject({ position: 3, problem: expect.stringContaining('a whole number') });
    expect(acuity).toMatchObject({ position: 4, problem: expect.stringContaining('a space') });
  });

  it('refuses a number too long to be any level', () => {
    expect(parseEntryList('Climbing 40000000000', LEVEL)[0]).toMatchObject({ problem: 'its level 40000000000 is far too large' });
  });

  it('finds a name given twice, and a name that looks just like another in the same list', () => {
    expect(listClash(['Climbing', 'CQC', 'climbing'])).toEqual({ index: 2, other: 0, kind: 'twice' });
    expect(listClash(['Climbing', 'CQC', 'Сlimbing'])).toEqual({ index: 2, other: 0, kind: 'looks-alike' });
    expect(listClash(['Climbing', 'CQC', 'Driving'])).toBeNull();
  });
});
