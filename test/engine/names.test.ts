// Names (issue 11, "Text and files"): one reading for every name, typed or read from a file.
import { describe, expect, it } from 'vitest';
import { checkName, lookAlikeDifference, lookAlikeIn, lookAlikeKey, nameKey, visibleName } from '../../src/engine/names.js';
import { findSkill, validName, type OperatorSheet } from '../../src/engine/sheet.js';
import { parseSheetFile, toSheetFile } from '../../src/engine/sheet-file.js';
import { parseTableCsv, parseTableJson } from '../../src/engine/tables.js';
import { troySheet } from '../helpers/text.js';

const now = new Date('2026-11-22T20:00:00Z');

function sheetWith(skills: string[]): OperatorSheet {
  return troySheet({ skills: skills.map((name) => ({ name, level: 40 })) });
}

describe('a name that cannot be told apart from another is refused', () => {
  it.each([
    ['Zero\u200bWidth', /skill name contains a zero-width character \(U\+200B\) after "Zero"/],
    ['Zero\u200cWidth', /zero-width character \(U\+200C\)/],
    ['Zero\u2060Width', /zero-width character \(U\+2060\)/],
    ['Zero\ufeffWidth', /zero-width character \(U\+FEFF\)/],
    ['Climbing\u202e', /text-direction control \(U\+202E\) after "Climbing"/],
    ['\u202aClimbing', /text-direction control \(U\+202A\) at its start/],
    ['Clim\u200ebing', /text-direction control \(U\+200E\)/],
    ['Clim\u200fbing', /text-direction control \(U\+200F\)/],
    ['Clim\u2066bing\u2069', /text-direction control \(U\+2066\)/],
    ['Clim\u061cbing', /text-direction control \(U\+061C\)/],
    ['Clim\u0007bing', /control character \(U\+0007\)/],
    ['Clim\u0085bing', /control character \(U\+0085\)/],
    ['Clim\u00adbing', /invisible character \(U\+00AD\)/],
    ['Clim\u3164bing', /invisible character \(U\+3164\)/],
    ['Clim\u2800bing', /invisible character \(U\+2800\)/],
  ])('%j, saying which character and where', (raw, message) => {
    expect(() => validName('skill', raw)).toThrow(message);
    expect(() => validName('skill', raw)).toThrow(/which cannot be seen and would make it look like another name; type it without that character\.$/);
  });

  it('keeps emoji, which use joiners and variation selectors to draw one picture', () => {
    expect(checkName('sheet', 'Team 👨‍👩‍👧 ❤️ 1️⃣ 👍🏽')).toBe('Team 👨‍👩‍👧 ❤️ 1️⃣ 👍🏽');
  });

  it('keeps the joiners that spell words in scripts they visibly reshape (Persian, Devanagari)', () => {
    expect(checkName('skill', 'می\u200cخواهم')).toBe('می\u200cخواهم');
    expect(checkName('skill', 'क्\u200dष')).toBe('क्\u200dष');
  });

  it('reads tabs and line breaks as spaces, as before', () => {
    expect(validName('skill', ' Handgun\t\nHandling ')).toBe('Handgun Handling');
  });
});

describe('names are read in one Unicode form (NFKC)', () => {
  it('stores full-width letters and ligatures as the letters they look like', () => {
    expect(validName('skill', 'Ｃｌｉｍｂｉｎｇ')).toBe('Climbing');
    expect(validName('skill', 'ﬁrst aid')).toBe('first aid');
    expect(validName('skill', 'Clim\u00a0bing')).toBe('Clim bing');
  });

  it('matches a name stored before, in another form, to the name typed now', () => {
    expect(nameKey('Ｃｌｉｍｂｉｎｇ')).toBe(nameKey('climbing'));
    expect(nameKey('Cafe\u0301')).toBe(nameKey('Café'));
    expect(findSkill(sheetWith(['Ｃｌｉｍｂｉｎｇ', 'Driving']), 'climbing').name).toBe('Ｃｌｉｍｂｉｎｇ');
  });

  it('counts the length of the name as stored', () => {
    expect(() => validName('skill', 'Ａ'.repeat(65))).toThrow(/at most 64 characters; yours has 65/);
  });
});

describe('names that look alike (Unicode’s confusables, UTS #39)', () => {
  it('Latin Troy and Troy with a Cyrillic Т, Boss and Boss with a Cyrillic о, look alike, in any case', () => {
    expect(nameKey('Troy')).not.toBe(nameKey('\u0422roy'));
    expect(lookAlikeKey('Troy')).toBe(lookAlikeKey('\u0422roy'));
    expect(lookAlikeKey('Boss')).toBe(lookAlikeKey('B\u043ess'));
    expect(lookAlikeKey('BOSS')).toBe(lookAlikeKey('b\u043e\u0455s'));
    // Greek capitals, a capital I for an l, rn for m: each passes for the other in the fonts Discord uses.
    expect(lookAlikeKey('\u0392\u039f\u03a3\u03a3')).not.toBe(lookAlikeKey('BOSS'));
    expect(lookAlikeKey('\u0392\u039fSS')).toBe(lookAlikeKey('Boss'));
    expect(lookAlikeKey('BiII')).toBe(lookAlikeKey('Bill'));
    expect(lookAlikeKey('Modem')).toBe(lookAlikeKey('Modern'));
  });

  it('finds the look-alike of a new name in its list, but not the same name, and not names merely similar', () => {
    const sheets = ['Troy', 'Kat', 'Boss'];
    expect(lookAlikeIn('\u0422roy', sheets)).toBe('Troy');
    expect(lookAlikeIn('B\u043ess', sheets)).toBe('Boss');
    expect(lookAlikeIn('troy', sheets)).toBeNull();
    expect(lookAlikeIn('Ｔｒｏｙ', sheets)).toBeNull();
    expect(lookAlikeIn('Troy 2', sheets)).toBeNull();
    expect(lookAlikeIn('Katya', sheets)).toBeNull();
    expect(lookAlikeIn('Тrоу', ['Тrоу'])).toBeNull();
  });

  it('names the character that tells them apart', () => {
    expect(lookAlikeDifference('\u0422roy', 'Troy')).toBe('\u0422');
    expect(lookAlikeDifference('Troy', 'troy')).toBe('T');
  });

  it('a sheet file whose list holds two names that look alike is refused, naming the second', () => {
    const file = JSON.stringify({ name: 'Troy', skills: [{ name: 'Climbing', level: 40 }, { name: '\u0421limbing', level: 50 }] });
    expect(() => parseSheetFile(file)).toThrow(/`skills\[1\]\.name` "\u0421limbing" looks just like "Climbing" before it, and two names that look the same would be taken for each other; rename one/);
  });
});

describe('files are held to the same names as slash commands', () => {
  it('a sheet file with an invisible character in a name is refused, naming where', () => {
    const file = JSON.stringify({ name: 'Troy', skills: [{ name: 'ZeroWidth', level: 40 }, { name: 'Zero\u200bWidth', level: 50 }] });
    expect(() => parseSheetFile(file)).toThrow(/`skills\[1\]\.name` contains a zero-width character \(U\+200B\) after "Zero".*Nothing was changed\./);
    const condition = JSON.stringify({ name: 'Troy', conditions: [{ name: 'Hurt', modifier: -5, skills: ['Climbing\u202e'] }] });
    expect(() => parseSheetFile(condition)).toThrow(/`conditions\[0\]\.skills\[0\]` contains a text-direction control \(U\+202E\)/);
  });

  it('a sheet file is read in NFKC, so two names that only differ in form repeat each other', () => {
    const file = JSON.stringify({ name: 'Ｔｒｏｙ', skills: [{ name: 'Climbing', level: 40 }, { name: 'Ｃｌｉｍｂｉｎｇ', level: 50 }] });
    expect(() => parseSheetFile(file)).toThrow(/`skills\[1\]\.name` repeats the name "Climbing"/);
    expect(parseSheetFile(JSON.stringify({ name: 'Ｔｒｏｙ' })).name).toBe('Troy');
  });

  it('a table file with an invisible character in its name, a next table or its skill is refused', () => {
    expect(() => parseTableJson(JSON.stringify({ name: 'Re\u200bload', rows: [{ min: 1, max: 100, text: 'ok' }] }))).toThrow(
      /The table file is not valid: name: the table name contains a zero-width character \(U\+200B\) after "Re"/,
    );
    expect(() => parseTableJson(JSON.stringify({ name: 'Reload', rows: [{ min: 1, max: 100, text: 'ok', next: 'Jam\u202e' }] }))).toThrow(
      /row 1: the next table name contains a text-direction control \(U\+202E\)/,
    );
    expect(() => parseTableCsv('min,max,text\n1,100,ok\n', { name: 'Reload', skill: 'Clim\u00adbing' })).toThrow(/skill: the skill name contains an invisible character \(U\+00AD\)/);
    expect(parseTableCsv('min,max,text,next\n1,100,ok,Ｊａｍ\n', { name: 'Ｒｅｌｏａｄ' })).toMatchObject({ name: 'Reload', rows: [{ next: 'Jam' }] });
  });

  it('a sheet stored before invisible characters were refused is exported without them, so it imports', () => {
    const old = { ...sheetWith(['Zero\u200bWidth', 'Driving']), conditions: [{ name: 'Hurt', modifier: -5, skills: ['Zero\u200bWidth', 'Driving', 'driving'], expiresAt: null }] };
    expect(visibleName('Zero\u200bWidth')).toBe('ZeroWidth');
    const imported = parseSheetFile(JSON.stringify(toSheetFile(old, now)));
    expect(imported.skills.map((skill) => skill.name)).toEqual(['ZeroWidth', 'Driving']);
    expect(imported.conditions[0]!.skills).toEqual(['ZeroWidth', 'Driving']);
  });
});
