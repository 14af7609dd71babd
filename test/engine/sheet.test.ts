import { describe, expect, it } from 'vitest';
import { closestNames, nameKey } from '../../src/engine/names.js';
import {
  archetypeModifiers,
  conditionModifiers,
  findSkill,
  validName,
  type OperatorSheet,
} from '../../src/engine/sheet.js';
import { readdirSync } from 'node:fs';
import { parseSheetFile, toSheetFile } from '../../src/engine/sheet-file.js';
import { SYSTEM_IDS } from '../../src/engine/systems/index.js';
import { toldSync } from '../helpers/told.js';

const now = new Date('2026-11-22T20:00:00Z');

const troy: OperatorSheet = {
  id: 1,
  guildId: 'g',
  ownerId: 'mike',
  name: 'Troy',
  system: 'tactalk',
  active: true,
  notes: '',
  skills: [
    { name: 'Climbing', level: 40 },
    { name: 'Handgun Handling', level: 50 },
    { name: 'Shotgun Handling', level: 35 },
  ],
  archetypes: [
    { name: 'Acuity', modifier: 10 },
    { name: 'Dexterity', modifier: -5 },
  ],
  conditions: [
    { name: 'Wounded', modifier: -10, skills: null, expiresAt: null },
    { name: 'Shaky hands', modifier: -5, skills: ['Handgun Handling'], expiresAt: null },
    { name: 'Adrenaline', modifier: 5, skills: null, expiresAt: new Date('2026-11-22T19:00:00Z') },
  ],
  attributes: [{ name: 'Aim', value: 65 }],
};

describe('names on a sheet', () => {
  it('are trimmed and matched case-insensitively', () => {
    expect(nameKey('  Handgun   HANDLING ')).toBe('handgun handling');
    expect(findSkill(troy, ' handgun handling ').name).toBe('Handgun Handling');
  });

  it('an unknown skill suggests the closest names', () => {
    expect(toldSync(() => findSkill(troy, 'Shotgun'))).toMatch(/no skill named \*\*Shotgun\*\*\. Nearest: \*\*Shotgun Handling\*\* \d+/);
    // What would work is said: one of those, adding it, and what the command accepts besides (`level:` on /roll challenge).
    expect(toldSync(() => findSkill(troy, 'Jumping', 'give `level:` to roll Jumping without the sheet'))).toMatch(
      /Troy has no skill named \*\*Jumping\*\*\. (Nearest|Its skills): .* You can roll one of those, add it with `\/sheet skill set name:Jumping level:…` or give `level:` to roll Jumping without the sheet\./,
    );
    expect(closestNames('Climbin', ['Climbing', 'Driving', 'Swimming'])).toEqual(['Climbing']);
  });

  it('are refused when empty or longer than 64 characters', () => {
    expect(() => validName('sheet', '   ')).toThrow(/cannot be empty/);
    expect(() => validName('sheet', 'x'.repeat(200))).toThrow(/at most 64 characters; yours has 200/);
    expect(validName('sheet', '  Troy  ')).toBe('Troy');
  });
});

describe('modifiers from a sheet', () => {
  it('adds each named archetype once, with its sign', () => {
    expect(archetypeModifiers(troy, ['acuity', 'Dexterity'])).toEqual([
      { name: 'Acuity', value: 10 },
      { name: 'Dexterity', value: -5 },
    ]);
    expect(() => archetypeModifiers(troy, ['Acuity', 'ACUITY'])).toThrow(/named twice/);
    expect(toldSync(() => archetypeModifiers(troy, ['Strength']))).toMatch(/no archetype named \*\*Strength\*\*/);
  });

  it('applies the active conditions that cover the skill, and not expired ones', () => {
    expect(conditionModifiers(troy, 'Handgun Handling', now)).toEqual([
      { name: 'Wounded', value: -10 },
      { name: 'Shaky hands', value: -5 },
    ]);
    expect(conditionModifiers(troy, 'climbing', now)).toEqual([{ name: 'Wounded', value: -10 }]);
  });
});

describe('the sheet file', () => {
  it('round-trips a sheet through export and import, leaving expired conditions behind', () => {
    // A Tac Talk sheet holds no attributes: Troy's Aim round-trips on a d100 tactics sheet.
    const file = toSheetFile({ ...troy, system: 'd100-tactics' }, now);
    const imported = parseSheetFile(JSON.stringify({ ...file, system: 'tactalk', attributes: [] }));
    expect(parseSheetFile(JSON.stringify({ ...file, skills: [], archetypes: [], conditions: [] })).attributes).toEqual([{ name: 'Aim', value: 65 }]);
    expect(imported.name).toBe('Troy');
    expect(imported.skills).toEqual(troy.skills);
    expect(imported.archetypes).toEqual([
      { name: 'Acuity', modifier: 10 },
      { name: 'Dexterity', modifier: -5 },
    ]);
    expect(imported.conditions.map((condition) => condition.name)).toEqual(['Wounded', 'Shaky hands']);
    expect(imported.attributes).toEqual([]);
  });

  it.each(SYSTEM_IDS)('imports a sheet of system %s, and exports it back with its system', (system) => {
    const imported = parseSheetFile(JSON.stringify({ name: 'Troy', system }));
    expect(imported.system).toBe(system);
    expect(toSheetFile({ ...troy, system }, now).system).toBe(system);
  });

  it('a file without a system is a Tac Talk sheet; the five ids are the system folders', () => {
    expect(parseSheetFile('{"name": "Troy"}').system).toBe('tactalk');
    expect([...SYSTEM_IDS].sort()).toEqual(readdirSync(new URL('../../src/engine/systems/', import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort());
  });

  it.each([
    ['{ not json', /not valid JSON/],
    ['[]', /\(top level\)` must be a JSON object/],
    ['{"name": ""}', /`name`.*cannot be empty/],
    ['{"name": "Troy", "skills": [{"name": "Climbing", "level": 40}, {"name": "Driving", "level": 140}]}', /`skills\[1\]\.level`.*0 to 100/],
    ['{"name": "Troy", "skills": [{"name": "Climbing", "level": 40}, {"name": "climbing", "level": 4}]}', /`skills\[1\]\.name` repeats the name/],
    ['{"name": "Troy", "archetypes": [{"name": "Acuity", "modifier": "ten"}]}', /`archetypes\[0\]\.modifier` must be a whole number/],
    ['{"name": "Troy", "conditions": [{"name": "Hurt", "modifier": -5, "expiresAt": "soon"}]}', /`conditions\[0\]\.expiresAt` must be an ISO date/],
    ['{"name": "Troy", "system": "d20"}', /`system` must be one of tactalk, d100-tactics, result-points, d6-pool, d10-pool/],
    ['{"name": "Troy", "attributes": [{"name": "Aim", "value": 5000}]}', /`attributes\[0\]\.value`.*-1000 to 1000/],
  ])('names the first problem of %s', (text, message) => {
    expect(() => parseSheetFile(text)).toThrow(message);
    expect(() => parseSheetFile(text)).toThrow(/Nothing was changed/);
  });

  it('refuses more skills than a sheet holds', () => {
    const skills = Array.from({ length: 101 }, (_, index) => ({ name: `Skill ${index}`, level: 10 }));
    expect(() => parseSheetFile(JSON.stringify({ name: 'Big', skills }))).toThrow(/`skills` has 101 entries; a sheet holds at most 100/);
  });
});
