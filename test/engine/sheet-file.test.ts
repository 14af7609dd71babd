// The sheet file (issue 11, "Text and files"): whatever /sheet export writes, /sheet import reads back, under one
// set of limits.
import { describe, expect, it } from 'vitest';
import { SHEET_LIMITS, type OperatorSheet } from '../../src/engine/sheet.js';
import { parseSheetFile, SHEET_FILE_MAX_BYTES, sheetFileText } from '../../src/engine/sheet-file.js';

const now = new Date('2026-11-22T20:00:00Z');

/** A name of `length` characters, each three bytes in UTF-8 (the widest a name's characters get in the file). */
function wideName(index: number, length: number = SHEET_LIMITS.nameLength): string {
  return `${index}`.padEnd(length, '丁');
}

/** The largest sheet the limits allow, every name as long and as wide as it may be. */
function largestSheet(): OperatorSheet {
  const skills = Array.from({ length: SHEET_LIMITS.skills }, (_, index) => ({ name: wideName(index), level: 100 }));
  return {
    id: 1,
    guildId: 'g',
    ownerId: 'mike',
    name: wideName(0),
    // Tac Talk holds every kind but attributes (a d100 tactics sheet holds only those): its largest sheet is the largest.
    system: 'tactalk',
    active: true,
    notes: 'Ω'.repeat(SHEET_LIMITS.notesLength),
    skills,
    archetypes: Array.from({ length: SHEET_LIMITS.archetypes }, (_, index) => ({ name: wideName(index), modifier: -100 })),
    conditions: Array.from({ length: SHEET_LIMITS.conditions }, (_, index) => ({
      name: wideName(index),
      modifier: -100,
      skills: skills.slice(0, SHEET_LIMITS.skillsPerCondition).map((skill) => skill.name),
      expiresAt: new Date('2026-12-20T20:00:00.000Z'),
    })),
    attributes: [],
  };
}

describe('the largest sheet', () => {
  it('exports to a file that imports back as the same sheet', () => {
    const sheet = largestSheet();
    const text = sheetFileText(sheet, now);
    expect(Buffer.byteLength(text, 'utf8')).toBeGreaterThan(500_000);
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(SHEET_FILE_MAX_BYTES);
    const imported = parseSheetFile(text);
    expect(imported).toEqual({
      name: sheet.name,
      system: sheet.system,
      notes: sheet.notes,
      skills: sheet.skills,
      archetypes: sheet.archetypes,
      conditions: sheet.conditions,
      attributes: sheet.attributes,
    });
  });

  it('still imports after an editor saved it with Windows line ends and wider indentation', () => {
    const text = JSON.stringify(JSON.parse(sheetFileText(largestSheet(), now)), null, 4).replace(/\n/g, '\r\n');
    expect(parseSheetFile(text).conditions).toHaveLength(SHEET_LIMITS.conditions);
  });

  it('a file larger than the largest sheet is refused, saying both sizes', () => {
    const text = `${sheetFileText(largestSheet(), now)}${' '.repeat(SHEET_FILE_MAX_BYTES)}`;
    expect(() => parseSheetFile(text)).toThrow(/The sheet file is \d+ kB; the largest sheet the limits allow is \d+ kB\. Nothing was changed\./);
  });
});

describe("a condition's skills in a file", () => {
  it(`are at most ${SHEET_LIMITS.skillsPerCondition}, as with /sheet condition add`, () => {
    const skills = Array.from({ length: SHEET_LIMITS.skillsPerCondition + 1 }, (_, index) => `Skill ${index}`);
    const file = JSON.stringify({ name: 'Troy', conditions: [{ name: 'Hurt', modifier: -5, skills }] });
    expect(() => parseSheetFile(file)).toThrow(/`conditions\[0\]\.skills` names 101 skills; a condition names at most 100 \(null: every skill\)\. Nothing was changed\./);
  });

  it('name each skill once', () => {
    const file = JSON.stringify({ name: 'Troy', conditions: [{ name: 'Hurt', modifier: -5, skills: ['Climbing', 'Driving', 'climbing'] }] });
    expect(() => parseSheetFile(file)).toThrow(/`conditions\[0\]\.skills\[2\]` repeats the skill "climbing"; name each skill once/);
  });
});
