/**
 * The JSON file a sheet is exported to and imported from. Import checks everything before anything is
 * written, and names the first problem with its path in the file (e.g. `skills[2].level`).
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { INVOCATION_MAX_CHARS, invocationSchema, type RollInvocation } from './invocation.js';
import { lookAlikeIn, nameKey, nameProblem, visibleName } from './names.js';
import { SAVED_ROLL_LIMITS } from './saved-rolls.js';
import { checkedBy, firstProblem, pathText } from './schema.js';
import { DEFAULT_SYSTEM, sheetRulesOf, SYSTEM_IDS, systemIdSchema, systemName, type SystemId } from './systems/index.js';
import { entryProblem, SHEET_LIMITS, validAttributeValue, type EntryKind, validModifier, validSkillLevel, type OperatorSheet } from './sheet.js';

export const SHEET_FILE_FORMAT = 'tactalk-operator';
export const SHEET_FILE_VERSION = 1;

/** A name in the file, checked as every name is (names.ts); read as its cleaned form. */
const nameSchema = z.string({ error: 'must be a text' }).transform((raw, context) => {
  const checked = nameProblem(raw, SHEET_LIMITS.nameLength);
  if ('name' in checked) return checked.name;
  context.issues.push({ code: 'custom', message: checked.problem, input: raw });
  return z.NEVER;
});

/** A whole number the sheet's own check (the one its commands use) accepts. */
function wholeNumber(check: (value: number) => unknown) {
  const notWhole = (issue: { input?: unknown }) => `must be a whole number, not ${JSON.stringify(issue.input)}`;
  return z.number({ error: notWhole }).int({ error: notWhole }).superRefine(checkedBy(check));
}

/**
 * Each name once in a list (compared as names are: nameKey), and none that looks just like another (`lookAlikeIn`:
 * "Climbing" and "Сlimbing" with a Cyrillic С); `repeats` says what the n-th entry repeats.
 */
function namedOnce<T>(nameOf: (entry: T) => string, path: (index: number) => PropertyKey[], repeats: (name: string) => string) {
  return (entries: T[], context: z.RefinementCtx) => {
    const seen = new Set<string>();
    const earlier: string[] = [];
    entries.forEach((entry, index) => {
      const name = nameOf(entry);
      const key = nameKey(name);
      const lookAlike = seen.has(key) ? null : lookAlikeIn(name, earlier);
      if (seen.has(key)) context.addIssue({ code: 'custom', path: path(index), message: repeats(name), input: entry });
      else if (lookAlike) {
        const message = `"${name}" looks just like "${lookAlike}" before it, and two names that look the same would be taken for each other; rename one`;
        context.addIssue({ code: 'custom', path: path(index), message, input: entry });
      }
      seen.add(key);
      earlier.push(name);
    });
  };
}

/** A list of named entries: at most `limit`, each name once; absent means empty. */
function sheetList<T extends { name: string }>(entry: z.ZodType<T, unknown>, limit: number) {
  return z
    .array(entry, { error: 'must be a list' })
    .max(limit, { error: (issue) => `has ${(issue.input as unknown[]).length} entries; a sheet holds at most ${limit}` })
    .superRefine(namedOnce((read: T) => read.name, (index) => [index, 'name'], (name) => `repeats the name "${name}"`))
    .default([]);
}

const ISO_DATE = 'must be an ISO date such as "2026-11-22T20:00:00Z", or null';

const conditionSchema = z.object(
  {
    name: nameSchema,
    modifier: wholeNumber((n) => validModifier('A condition modifier', n)),
    /** The skills it applies to; null (or absent): every skill. */
    skills: z
      .array(nameSchema, { error: 'must be a list of skill names, or null for every skill' })
      .max(SHEET_LIMITS.skillsPerCondition, {
        error: (issue) =>
          `names ${(issue.input as unknown[]).length} skills; a condition names at most ${SHEET_LIMITS.skillsPerCondition} (null: every skill)`,
      })
      .superRefine(namedOnce((name: string) => name, (index) => [index], (name) => `repeats the skill "${name}"; name each skill once`))
      .nullable()
      .default(null),
    expiresAt: z
      .string({ error: ISO_DATE })
      .nullable()
      .default(null)
      .transform((text, context) => {
        const date = text === null ? null : new Date(text);
        if (date === null || !Number.isNaN(date.getTime())) return date;
        context.issues.push({ code: 'custom', message: ISO_DATE, input: text });
        return z.NEVER;
      }),
  },
  { error: 'must be an object like {"name": "Wounded", "modifier": -10, "skills": null}' },
);

/** A saved roll in the file: its name and what it rolls, as `/roll saved` keeps it (src/engine/saved-rolls.ts). */
const savedRollSchema = z.object(
  {
    name: z.string({ error: 'must be a text' }).transform((raw, context) => {
      const checked = nameProblem(raw, SAVED_ROLL_LIMITS.nameLength);
      if ('name' in checked) return checked.name;
      context.issues.push({ code: 'custom', message: checked.problem, input: raw });
      return z.NEVER;
    }),
    roll: invocationSchema.refine((roll) => JSON.stringify(roll).length <= INVOCATION_MAX_CHARS, {
      error: `is longer than a saved roll keeps (${INVOCATION_MAX_CHARS} characters as JSON)`,
    }),
  },
  { error: 'must be an object like {"name": "Breach", "roll": {"command": "roll", "path": "challenge", "options": [...]}}' },
);

/**
 * A sheet file as `/sheet import` reads it: every field but the name may be left out. Read, it is the sheet to
 * import (names cleaned, dates as dates); checked against its system's rules last (`fitsSystem`).
 */
const sheetFileSchema = z
  .object(
    {
      format: z.literal(SHEET_FILE_FORMAT, { error: `must be "${SHEET_FILE_FORMAT}"` }).optional(),
      version: z.literal(SHEET_FILE_VERSION, { error: `must be ${SHEET_FILE_VERSION}` }).optional(),
      name: nameSchema,
      // Written as any text (a sheet's system as stored), read as one the bot knows.
      system: z.string({ error: `must be one of ${SYSTEM_IDS.join(', ')}` }).pipe(systemIdSchema).default(DEFAULT_SYSTEM),
      notes: z
        .string({ error: 'must be a text' })
        .max(SHEET_LIMITS.notesLength, { error: `may be at most ${SHEET_LIMITS.notesLength} characters` })
        .default(''),
      skills: sheetList(
        z.object({ name: nameSchema, level: wholeNumber(validSkillLevel) }, { error: 'must be an object like {"name": "Climbing", "level": 40}' }),
        SHEET_LIMITS.skills,
      ),
      archetypes: sheetList(
        z.object(
          { name: nameSchema, modifier: wholeNumber((n) => validModifier('An archetype modifier', n)) },
          { error: 'must be an object like {"name": "Acuity", "modifier": 10}' },
        ),
        SHEET_LIMITS.archetypes,
      ),
      conditions: sheetList(conditionSchema, SHEET_LIMITS.conditions),
      attributes: sheetList(
        z.object({ name: nameSchema, value: wholeNumber(validAttributeValue) }, { error: 'must be an object like {"name": "Aim", "value": 65}' }),
        SHEET_LIMITS.attributes,
      ),
      // Absent in files written before saved rolls: a sheet replaced by such a file keeps the ones it had.
      rolls: z
        .array(savedRollSchema, { error: 'must be a list' })
        .max(SAVED_ROLL_LIMITS.perSheet, { error: (issue) => `has ${(issue.input as unknown[]).length} entries; a sheet holds at most ${SAVED_ROLL_LIMITS.perSheet} saved rolls` })
        .superRefine(namedOnce((read: { name: string }) => read.name, (index) => [index, 'name'], (name) => `repeats the saved roll "${name}"`))
        .optional(),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((file, context) => {
    const problem =
      fitsSystem(file.system, 'skills', 'skill', 'level', file.skills.map((entry) => ({ name: entry.name, value: entry.level }))) ??
      fitsSystem(file.system, 'archetypes', 'archetype', 'modifier', file.archetypes.map((entry) => ({ name: entry.name, value: entry.modifier }))) ??
      fitsSystem(file.system, 'conditions', 'condition', 'modifier', file.conditions.map((entry) => ({ name: entry.name, value: entry.modifier }))) ??
      fitsSystem(file.system, 'attributes', 'attribute', 'value', file.attributes);
    if (problem) context.addIssue({ code: 'custom', ...problem, input: file });
  });

/** What a sheet file holds, as `/sheet export` writes it (every field) and `/sheet import` reads it. */
export type SheetFile = Required<z.input<typeof sheetFileSchema>>;

/** A sheet's saved roll as the file carries it. */
export interface SheetFileRoll {
  name: string;
  invocation: RollInvocation;
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
export function toSheetFile(sheet: OperatorSheet, now: Date, rolls: readonly SheetFileRoll[] = []): SheetFile {
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
    rolls: rolls.map(({ name, invocation }) => ({ name: visibleName(name), roll: invocation })),
  };
}

/** The text of the file `/sheet export` attaches: indented, for players who read or edit it. */
export function sheetFileText(sheet: OperatorSheet, now: Date, rolls: readonly SheetFileRoll[] = []): string {
  return `${JSON.stringify(toSheetFile(sheet, now, rolls), null, 2)}\n`;
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
    rolls: Array.from({ length: SAVED_ROLL_LIMITS.perSheet }, () => ({ name: '\u4e00'.repeat(SAVED_ROLL_LIMITS.nameLength), roll: largestInvocation() })),
  };
}

/** A saved roll's invocation at the most it may hold: its JSON at INVOCATION_MAX_CHARS, each character three bytes. */
function largestInvocation(): RollInvocation {
  const empty: RollInvocation = { command: 'roll', path: 'linked', options: [{ name: 'rolls', type: 3, value: '' }] };
  return { ...empty, options: [{ name: 'rolls', type: 3, value: '\u4e00'.repeat(INVOCATION_MAX_CHARS - JSON.stringify(empty).length) }] };
}

/**
 * The most bytes `/sheet import` reads: the largest sheet's file, with room for an editor that saved it again
 * with wider indentation and Windows line ends.
 */
export const SHEET_FILE_MAX_BYTES = Buffer.byteLength(JSON.stringify(largestSheetFile(), null, 4).replace(/\n/g, '\r\n'), 'utf8');

export type ImportedSheet = Pick<OperatorSheet, 'name' | 'system' | 'notes' | 'skills' | 'archetypes' | 'conditions' | 'attributes'> & {
  /** The file's saved rolls; undefined for a file written before them. */
  rolls?: SheetFileRoll[];
};


function problem(path: string, message: string): never {
  throw new UserError(`The sheet file is not valid: \`${path}\` ${message}. Nothing was changed.`);
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
  const read = sheetFileSchema.safeParse(data);
  if (!read.success) {
    const { path, message } = firstProblem(read.error);
    problem(pathText(path) || '(top level)', message);
  }
  const { name, system, notes, skills, archetypes, conditions, attributes, rolls } = read.data;
  return { name, system, notes, skills, archetypes, conditions, attributes, ...(rolls ? { rolls: rolls.map((roll) => ({ name: roll.name, invocation: roll.roll as RollInvocation })) } : {}) };
}

/**
 * Every entry must be one the file's system holds (RULES 6.1: a sheet belongs to its system), checked as `/sheet
 * skill set` checks it; the first that is not is named by its path: its name, or its number when only that is wrong.
 */
function fitsSystem(
  system: SystemId,
  path: string,
  kind: EntryKind,
  field: string,
  entries: ReadonlyArray<{ name: string; value: number }>,
): { path: PropertyKey[]; message: string } | null {
  const rules = sheetRulesOf(system);
  const label = systemName(system);
  if (entries.length > 0 && rules[kind] === null) {
    return { path: [path], message: `must be empty: ${entryProblem(rules, label, kind, entries[0]!.name)} (\`system\` is "${system}")` };
  }
  for (const [index, entry] of entries.entries()) {
    const ofName = entryProblem(rules, label, kind, entry.name);
    if (ofName) return { path: [path, index, 'name'], message: `is refused: ${ofName} (\`system\` is "${system}")` };
    const ofValue = entryProblem(rules, label, kind, entry.name, entry.value);
    if (ofValue) return { path: [path, index, field], message: `is refused: ${ofValue}` };
  }
  return null;
}
