// The sheet file (issue 11, "Text and files"): whatever /sheet export writes, /sheet import reads back, under one
// set of limits.
import { describe, expect, it } from 'vitest';
import { SHEET_LIMITS, type OperatorSheet } from '../../src/engine/sheet.js';
import { parseSheetFile, SHEET_FILE_MAX_BYTES, sheetFileText, type SheetFileRoll } from '../../src/engine/sheet-file.js';
import { INVOCATION_MAX_CHARS, type RollInvocation } from '../../src/engine/invocation.js';
import { SAVED_ROLL_LIMITS } from '../../src/engine/saved-rolls.js';

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

/** A sheet's saved rolls at their most: every name and every roll as long and as wide as they may be. */
function largestRolls(): SheetFileRoll[] {
  const empty: RollInvocation = { command: 'roll', path: 'linked', options: [{ name: 'rolls', type: 3, value: '' }] };
  const invocation: RollInvocation = { ...empty, options: [{ name: 'rolls', type: 3, value: '丁'.repeat(INVOCATION_MAX_CHARS - JSON.stringify(empty).length) }] };
  return Array.from({ length: SAVED_ROLL_LIMITS.perSheet }, (_, index) => ({ name: wideName(index, SAVED_ROLL_LIMITS.nameLength), invocation }));
}

describe('the largest sheet', () => {
  it('exports to a file that imports back as the same sheet, its saved rolls with it', () => {
    const sheet = largestSheet();
    const rolls = largestRolls();
    const text = sheetFileText(sheet, now, rolls);
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
      rolls,
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

describe("a sheet's saved rolls in a file", () => {
  const roll = { command: 'roll', path: 'challenge', options: [{ name: 'skill', type: 3, value: 'Climbing' }, { name: 'cl', type: 4, value: 90 }] };

  it('are read with the sheet; a file from before saved rolls has none to read, and still imports', () => {
    expect(parseSheetFile(JSON.stringify({ name: 'Troy', rolls: [{ name: 'Breach', roll }] })).rolls).toEqual([{ name: 'Breach', invocation: roll }]);
    const old = parseSheetFile(JSON.stringify({ name: 'Troy', skills: [{ name: 'Climbing', level: 40 }] }));
    expect(old.rolls).toBeUndefined();
    expect(old.skills).toEqual([{ name: 'Climbing', level: 40 }]);
  });

  it(`are at most ${SAVED_ROLL_LIMITS.perSheet}, each name once, each roll within ${INVOCATION_MAX_CHARS} characters`, () => {
    const many = Array.from({ length: SAVED_ROLL_LIMITS.perSheet + 1 }, (_, index) => ({ name: `Roll ${index}`, roll }));
    expect(() => parseSheetFile(JSON.stringify({ name: 'Troy', rolls: many }))).toThrow(/`rolls` has 26 entries; a sheet holds at most 25 saved rolls\. Nothing was changed\./);
    expect(() => parseSheetFile(JSON.stringify({ name: 'Troy', rolls: [{ name: 'Breach', roll }, { name: 'breach', roll }] }))).toThrow(/`rolls\[1\]\.name` repeats the saved roll "breach"/);
    const long = { ...roll, options: [{ name: 'skill', type: 3, value: 'x'.repeat(INVOCATION_MAX_CHARS) }] };
    expect(() => parseSheetFile(JSON.stringify({ name: 'Troy', rolls: [{ name: 'Breach', roll: long }] }))).toThrow(/`rolls\[0\]\.roll` is longer than a saved roll keeps \(2000 characters as JSON\)/);
    expect(() => parseSheetFile(JSON.stringify({ name: 'Troy', rolls: [{ name: 'x'.repeat(41), roll }] }))).toThrow(/`rolls\[0\]\.name`/);
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
