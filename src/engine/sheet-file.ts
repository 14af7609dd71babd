/**
 * The JSON file a sheet is exported to and imported from. Import checks everything before anything is
 * written, and names the first problem with its path in the file (e.g. `skills[2].level`).
 */
import { UserError } from '../errors.js';
import { nameKey, nameProblem, visibleName } from './names.js';
import { DEFAULT_SYSTEM, isSystemId, sheetRulesOf, SYSTEM_IDS, systemName, type SystemId } from './systems/index.js';
import {
  entryProblem,
  SHEET_LIMITS,
  validAttributeValue,
  type EntryKind,
  validModifier,
  validSkillLevel,
  type ArchetypeEntry,
  type AttributeEntry,
  type ConditionEntry,
  type OperatorSheet,
  type SkillEntry,
} from './sheet.js';

export const SHEET_FILE_FORMAT = 'tactalk-operator';
export const SHEET_FILE_VERSION = 1;

export interface SheetFile {
  format: typeof SHEET_FILE_FORMAT;
  version: typeof SHEET_FILE_VERSION;
  name: string;
  system: string;
  notes: string;
  skills: SkillEntry[];
  archetypes: ArchetypeEntry[];
  conditions: Array<Omit<ConditionEntry, 'expiresAt'> & { expiresAt: string | null }>;
  attributes: AttributeEntry[];
}

/** A condition added before repeats were folded may name a skill twice; once means the same. */
function onceEach(names: string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => !seen.has(nameKey(name)) && seen.add(nameKey(name)));
}

/**
 * The sheet's contents, ready to be written to a file; expired conditions are left behind. Names are written as
 * they look: one stored before invisible characters were refused is written without them, so the file imports.
 */
export function toSheetFile(sheet: OperatorSheet, now: Date): SheetFile {
  return {
    format: SHEET_FILE_FORMAT,
    version: SHEET_FILE_VERSION,
    name: visibleName(sheet.name),
    system: sheet.system,
    notes: sheet.notes,
    skills: sheet.skills.map(({ name, level }) => ({ name: visibleName(name), level })),
    archetypes: sheet.archetypes.map(({ name, modifier }) => ({ name: visibleName(name), modifier })),
    conditions: sheet.conditions
      .filter((condition) => condition.expiresAt === null || condition.expiresAt > now)
      .map(({ name, modifier, skills, expiresAt }) => ({
        name: visibleName(name),
        modifier,
        skills: skills === null ? null : onceEach(skills.map(visibleName)),
        expiresAt: expiresAt?.toISOString() ?? null,
      })),
    attributes: sheet.attributes.map(({ name, value }) => ({ name: visibleName(name), value })),
  };
}

/** The text of the file `/sheet export` attaches: indented, for players who read or edit it. */
export function sheetFileText(sheet: OperatorSheet, now: Date): string {
  return `${JSON.stringify(toSheetFile(sheet, now), null, 2)}\n`;
}

/**
 * The largest file the sheet limits allow: every list full, every name at its longest in characters of three UTF-8
 * bytes, notes of characters JSON writes as six (`\u0001`), every number at its widest. Its size is the import
 * limit, measured rather than guessed, so a new field or limit moves it too.
 */
function largestSheetFile(): SheetFile {
  const name = '\u4e00'.repeat(SHEET_LIMITS.nameLength);
  const latest = new Date(8.64e15).toISOString();
  return {
    format: SHEET_FILE_FORMAT,
    version: SHEET_FILE_VERSION,
    name,
    system: [...SYSTEM_IDS].sort((a, b) => b.length - a.length)[0]!,
    notes: '\u0001'.repeat(SHEET_LIMITS.notesLength),
    skills: Array.from({ length: SHEET_LIMITS.skills }, () => ({ name, level: 100 })),
    archetypes: Array.from({ length: SHEET_LIMITS.archetypes }, () => ({ name, modifier: -SHEET_LIMITS.modifierMagnitude })),
    conditions: Array.from({ length: SHEET_LIMITS.conditions }, () => ({
      name,
      modifier: -SHEET_LIMITS.modifierMagnitude,
      skills: Array.from({ length: SHEET_LIMITS.skillsPerCondition }, () => name),
      expiresAt: latest,
    })),
    attributes: Array.from({ length: SHEET_LIMITS.attributes }, () => ({ name, value: -SHEET_LIMITS.attributeMagnitude })),
  };
}

/**
 * The most bytes `/sheet import` reads: the largest sheet's file, with room for an editor that saved it again
 * with wider indentation and Windows line ends.
 */
export const SHEET_FILE_MAX_BYTES = Buffer.byteLength(JSON.stringify(largestSheetFile(), null, 4).replace(/\n/g, '\r\n'), 'utf8');

export type ImportedSheet = Pick<OperatorSheet, 'name' | 'system' | 'notes' | 'skills' | 'archetypes' | 'conditions' | 'attributes'>;


function problem(path: string, message: string): never {
  throw new UserError(`The sheet file is not valid: \`${path}\` ${message}. Nothing was changed.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readName(value: unknown, path: string): string {
  if (typeof value !== 'string') problem(path, 'must be a text');
  const checked = nameProblem(value, SHEET_LIMITS.nameLength);
  return 'problem' in checked ? problem(path, checked.problem) : checked.name;
}

function readInteger(value: unknown, path: string, check: (n: number) => number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) problem(path, `must be a whole number, not ${JSON.stringify(value)}`);
  try {
    return check(value);
  } catch (error) {
    return problem(path, (error as Error).message.replace(/\.$/, ''));
  }
}

function readList<T>(value: unknown, path: string, limit: number, readEntry: (entry: unknown, path: string) => T & { name: string }): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) problem(path, 'must be a list');
  if (value.length > limit) problem(path, `has ${value.length} entries; a sheet holds at most ${limit}`);
  const seen = new Set<string>();
  return value.map((entry, index) => {
    const read = readEntry(entry, `${path}[${index}]`);
    const key = nameKey(read.name);
    if (seen.has(key)) problem(`${path}[${index}].name`, `repeats the name "${read.name}"`);
    seen.add(key);
    return read;
  });
}

/** Parses and checks a sheet file; throws a UserError naming the first problem. */
export function parseSheetFile(text: string): ImportedSheet {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > SHEET_FILE_MAX_BYTES) {
    throw new UserError(
      `The sheet file is ${Math.ceil(bytes / 1000)} kB; the largest sheet the limits allow is ${Math.floor(SHEET_FILE_MAX_BYTES / 1000)} kB. Nothing was changed.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UserError(`The sheet file is not valid JSON (${(error as Error).message}). Nothing was changed.`);
  }
  if (!isRecord(data)) problem('(top level)', 'must be a JSON object');
  if (data.format !== undefined && data.format !== SHEET_FILE_FORMAT) problem('format', `must be "${SHEET_FILE_FORMAT}"`);
  if (data.version !== undefined && data.version !== SHEET_FILE_VERSION) problem('version', `must be ${SHEET_FILE_VERSION}`);
  const name = readName(data.name, 'name');
  const system = data.system === undefined ? DEFAULT_SYSTEM : data.system;
  if (!isSystemId(system)) problem('system', `must be one of ${SYSTEM_IDS.join(', ')}`);
  const notes = data.notes === undefined ? '' : data.notes;
  if (typeof notes !== 'string') problem('notes', 'must be a text');
  if (notes.length > SHEET_LIMITS.notesLength) problem('notes', `may be at most ${SHEET_LIMITS.notesLength} characters`);

  const skills = readList(data.skills, 'skills', SHEET_LIMITS.skills, (entry, path): SkillEntry => {
    if (!isRecord(entry)) problem(path, 'must be an object like {"name": "Climbing", "level": 40}');
    return { name: readName(entry.name, `${path}.name`), level: readInteger(entry.level, `${path}.level`, validSkillLevel) };
  });
  const archetypes = readList(data.archetypes, 'archetypes', SHEET_LIMITS.archetypes, (entry, path): ArchetypeEntry => {
    if (!isRecord(entry)) problem(path, 'must be an object like {"name": "Acuity", "modifier": 10}');
    return {
      name: readName(entry.name, `${path}.name`),
      modifier: readInteger(entry.modifier, `${path}.modifier`, (n) => validModifier('An archetype modifier', n)),
    };
  });
  const conditions = readList(data.conditions, 'conditions', SHEET_LIMITS.conditions, (entry, path): ConditionEntry => {
    if (!isRecord(entry)) problem(path, 'must be an object like {"name": "Wounded", "modifier": -10, "skills": null}');
    let skillsOfCondition: string[] | null = null;
    if (entry.skills !== undefined && entry.skills !== null) {
      if (!Array.isArray(entry.skills)) problem(`${path}.skills`, 'must be a list of skill names, or null for every skill');
      if (entry.skills.length > SHEET_LIMITS.skillsPerCondition) {
        problem(`${path}.skills`, `names ${entry.skills.length} skills; a condition names at most ${SHEET_LIMITS.skillsPerCondition} (null: every skill)`);
      }
      const seen = new Set<string>();
      skillsOfCondition = entry.skills.map((skill, index) => {
        const name = readName(skill, `${path}.skills[${index}]`);
        if (seen.has(nameKey(name))) problem(`${path}.skills[${index}]`, `repeats the skill "${name}"; name each skill once`);
        seen.add(nameKey(name));
        return name;
      });
    }
    let expiresAt: Date | null = null;
    if (entry.expiresAt !== undefined && entry.expiresAt !== null) {
      expiresAt = typeof entry.expiresAt === 'string' ? new Date(entry.expiresAt) : new Date(Number.NaN);
      if (Number.isNaN(expiresAt.getTime())) problem(`${path}.expiresAt`, 'must be an ISO date such as "2026-11-22T20:00:00Z", or null');
    }
    return {
      name: readName(entry.name, `${path}.name`),
      modifier: readInteger(entry.modifier, `${path}.modifier`, (n) => validModifier('A condition modifier', n)),
      skills: skillsOfCondition,
      expiresAt,
    };
  });
  const attributes = readList(data.attributes, 'attributes', SHEET_LIMITS.attributes, (entry, path): AttributeEntry => {
    if (!isRecord(entry)) problem(path, 'must be an object like {"name": "Aim", "value": 65}');
    return { name: readName(entry.name, `${path}.name`), value: readInteger(entry.value, `${path}.value`, validAttributeValue) };
  });
  fitsSystem(system, 'skills', 'skill', 'level', skills.map((entry) => ({ name: entry.name, value: entry.level })));
  fitsSystem(system, 'archetypes', 'archetype', 'modifier', archetypes.map((entry) => ({ name: entry.name, value: entry.modifier })));
  fitsSystem(system, 'conditions', 'condition', 'modifier', conditions.map((entry) => ({ name: entry.name, value: entry.modifier })));
  fitsSystem(system, 'attributes', 'attribute', 'value', attributes);
  return { name, system, notes, skills, archetypes, conditions, attributes };
}

/**
 * Every entry must be one the file's system holds (RULES 6.1: a sheet belongs to its system), checked as `/sheet
 * skill set` checks it; the first that is not is named by its path: its name, or its number when only that is wrong.
 */
function fitsSystem(system: SystemId, path: string, kind: EntryKind, field: string, entries: ReadonlyArray<{ name: string; value: number }>): void {
  const rules = sheetRulesOf(system);
  const label = systemName(system);
  if (entries.length > 0 && rules[kind] === null) problem(path, `must be empty: ${entryProblem(rules, label, kind, entries[0]!.name)} (\`system\` is "${system}")`);
  entries.forEach((entry, index) => {
    const ofName = entryProblem(rules, label, kind, entry.name);
    if (ofName) problem(`${path}[${index}].name`, `is refused: ${ofName} (\`system\` is "${system}")`);
    const ofValue = entryProblem(rules, label, kind, entry.name, entry.value);
    if (ofValue) problem(`${path}[${index}].${field}`, `is refused: ${ofValue}`);
  });
}
