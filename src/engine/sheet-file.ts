/**
 * The JSON file a sheet is exported to and imported from. Import checks everything before anything is
 * written, and names the first problem with its path in the file (e.g. `skills[2].level`).
 */
import { UserError } from '../errors.js';
import { nameKey } from './names.js';
import { DEFAULT_SYSTEM, isSystemId, SYSTEM_IDS } from './systems/index.js';
import {
  SHEET_LIMITS,
  validAttributeValue,
  validModifier,
  validName,
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

/** The sheet's contents, ready to be written to a file; expired conditions are left behind. */
export function toSheetFile(sheet: OperatorSheet, now: Date): SheetFile {
  return {
    format: SHEET_FILE_FORMAT,
    version: SHEET_FILE_VERSION,
    name: sheet.name,
    system: sheet.system,
    notes: sheet.notes,
    skills: sheet.skills.map(({ name, level }) => ({ name, level })),
    archetypes: sheet.archetypes.map(({ name, modifier }) => ({ name, modifier })),
    conditions: sheet.conditions
      .filter((condition) => condition.expiresAt === null || condition.expiresAt > now)
      .map(({ name, modifier, skills, expiresAt }) => ({ name, modifier, skills, expiresAt: expiresAt?.toISOString() ?? null })),
    attributes: sheet.attributes.map(({ name, value }) => ({ name, value })),
  };
}

export type ImportedSheet = Pick<OperatorSheet, 'name' | 'system' | 'notes' | 'skills' | 'archetypes' | 'conditions' | 'attributes'>;


function problem(path: string, message: string): never {
  throw new UserError(`The sheet file is not valid: \`${path}\` ${message}. Nothing was changed.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readName(value: unknown, path: string): string {
  if (typeof value !== 'string') problem(path, 'must be a text');
  try {
    return validName('', value);
  } catch (error) {
    return problem(path, (error as Error).message.replace(/^The\s+name/, 'the name').replace(/\.$/, ''));
  }
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
  if (Buffer.byteLength(text, 'utf8') > SHEET_LIMITS.importFileBytes) {
    throw new UserError(`The sheet file is larger than ${SHEET_LIMITS.importFileBytes / 1000} kB. Nothing was changed.`);
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
      skillsOfCondition = entry.skills.map((skill, index) => readName(skill, `${path}.skills[${index}]`));
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
  return { name, system, notes, skills, archetypes, conditions, attributes };
}
