/**
 * Outcome tables (RULES 1.4): a server's named tables, each a die, what the roller adds, and rows covering ranges
 * of results. Pure: parsing and checking a table file (JSON or CSV), rolling its die, and picking the row.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { d100FromDice, type D100 } from './dice.js';
import { NAME_LENGTH_MAX, nameProblem } from './names.js';
import { checkedBy, firstProblem } from './schema.js';
import type { Rng } from './rng.js';
import type { Modifier } from './systems/tactalk/challenge.js';

export const TABLE_LIMITS = {
  rows: 100,
  tablesPerServer: 50,
  nameLength: NAME_LENGTH_MAX,
  asksLength: 200,
  textLength: 1000,
  fileBytes: 200_000,
  /** The most dice and sides a table's die may have: `10d1000`. */
  dice: 10,
  sides: 1000,
} as const;

export const TABLE_FILE_FORMAT = 'tactalk-table';

/** A row as the store keeps it (the file's rows are read into this by `tableFileSchema`). */
export const tableRowSchema = z.object({
  min: z.number(),
  max: z.number(),
  text: z.string(),
  /** The name of a table to roll next, offered as a button. */
  next: z.string().nullable(),
  /** On an investigation table: what this row reveals of a hidden CL (RULES 1.5). */
  reveals: z.enum(['cl', 'band']).nullable(),
});
export type TableRow = z.infer<typeof tableRowSchema>;
/** A table's rows as the store keeps them (one JSON column). */
export const tableRowsSchema = z.array(tableRowSchema);

export interface OutcomeTable {
  name: string;
  /** `d100` (read as 2D10) or `NdM`. */
  die: string;
  /** What the roller adds, in words, e.g. "Add your Machine Gun Handling aptitude". */
  asks: string;
  /** The skill whose aptitude the table adds when the roller names none. */
  skill: string | null;
  rows: TableRow[];
}

/** A parsed die expression: `count` dice of `sides` sides; `d100` is read as 2D10 (tens and ones). */
export interface TableDie {
  count: number;
  sides: number;
}

export function parseTableDie(text: string): TableDie {
  const match = /^\s*(\d*)\s*d\s*(\d+|%)\s*$/i.exec(text);
  if (!match) throw new UserError(`The die \`${text}\` is not a die expression like \`d100\`, \`d20\` or \`2d6\`.`);
  const count = match[1] ? Number(match[1]) : 1;
  const sides = match[2] === '%' ? 100 : Number(match[2]);
  if (count < 1 || count > TABLE_LIMITS.dice) throw new UserError(`A table's die may roll 1 to ${TABLE_LIMITS.dice} dice, not ${count}.`);
  if (sides < 2 || sides > TABLE_LIMITS.sides) throw new UserError(`A table's die may have 2 to ${TABLE_LIMITS.sides} sides, not ${sides}.`);
  return { count, sides };
}

export interface TableDieRoll {
  /** Each die as rolled; a d100 also as its two 2D10 dice. */
  dice: Array<{ value: number; d100?: D100 }>;
  total: number;
}

export function rollTableDie(die: TableDie, rng: Rng): TableDieRoll {
  const dice = Array.from({ length: die.count }, () => {
    if (die.sides === 100) {
      const d100 = d100FromDice(rng.int(10), rng.int(10));
      return { value: d100.value, d100 };
    }
    return { value: rng.int(die.sides) + 1 };
  });
  return { dice, total: dice.reduce((sum, roll) => sum + roll.value, 0) };
}

/** The row whose range holds the result; below the first row → the first, above the last → the last. */
export function pickRow(table: OutcomeTable, result: number): { index: number; clamped: 'below' | 'above' | null } {
  const first = table.rows[0]!;
  const last = table.rows[table.rows.length - 1]!;
  if (result < first.min) return { index: 0, clamped: 'below' };
  if (result > last.max) return { index: table.rows.length - 1, clamped: 'above' };
  const index = table.rows.findIndex((row) => result >= row.min && result <= row.max);
  return { index, clamped: null };
}

export interface OutcomeRollInput {
  table: OutcomeTable;
  modifiers: Modifier[];
}

export interface OutcomeRollResult {
  input: OutcomeRollInput;
  roll: TableDieRoll;
  result: number;
  rowIndex: number;
  row: TableRow;
  clamped: 'below' | 'above' | null;
}

/** Result = roll + the modifiers the table asks for; the row that covers it (RULES 1.4). */
export function resolveOutcomeRoll(input: OutcomeRollInput, rng: Rng): OutcomeRollResult {
  const roll = rollTableDie(parseTableDie(input.table.die), rng);
  const result = roll.total + input.modifiers.reduce((sum, modifier) => sum + modifier.value, 0);
  const { index, clamped } = pickRow(input.table, result);
  return { input, roll, result, rowIndex: index, row: input.table.rows[index]!, clamped };
}

// ---------------------------------------------------------------------------------------------------------
// Files

function bad(where: string, problem: string): never {
  throw new UserError(`The table file is not valid: ${where}: ${problem}. Nothing was changed.`);
}

/** A text of the file, trimmed; absent or blank is empty, which only a `required` one may not be. */
function fileText(what: string, max: number, required: boolean) {
  const bounded = z.string().max(max, { error: (issue) => `the ${what} has ${(issue.input as string).length} characters; at most ${max}` });
  return z
    .string({ error: `the ${what} must be text` })
    .nullish()
    .transform((text) => (text ?? '').trim())
    .pipe(required ? bounded.min(1, { error: `the ${what} is empty` }) : bounded);
}

/** A table's name, or the name of the next table or the skill it adds: checked as every name is (names.ts). */
function fileName(what: string) {
  return fileText(what, Number.MAX_SAFE_INTEGER, false).transform((text, context) => {
    if (!text) return null;
    const checked = nameProblem(text, TABLE_LIMITS.nameLength);
    if ('name' in checked) return checked.name;
    context.issues.push({ code: 'custom', message: `the ${what} ${checked.problem}`, input: text });
    return z.NEVER;
  });
}

/** A row's bound: a whole number, or text that is one (a CSV's fields are all text), within a million either way. */
function bound(what: string) {
  const notWhole = (issue: { input?: unknown }) => `${what} must be a whole number, not ${JSON.stringify(issue.input)}`;
  const limit = 1_000_000;
  return z
    .union([z.int(), z.string().regex(/^\s*-?\d+\s*$/, { error: notWhole })], { error: notWhole })
    .refine((value) => Math.abs(Number(value)) <= limit, { error: notWhole })
    .transform(Number);
}

/** What a row may say it reveals, in the words a file may use. */
const REVEALS: Record<string, TableRow['reveals']> = { cl: 'cl', exact: 'cl', band: 'band', range: 'band', '': null, none: null, nothing: null };

const fileRowSchema = z
  .object(
    {
      min: bound('`min`'),
      max: bound('`max`'),
      text: fileText('text', TABLE_LIMITS.textLength, true),
      next: fileName('next table name'),
      reveals: fileText('`reveals`', 10, false).transform((text, context) => {
        const word = text.toLowerCase();
        if (Object.hasOwn(REVEALS, word)) return REVEALS[word]!;
        context.issues.push({ code: 'custom', message: '`reveals` must be `cl` (the exact CL), `band` (a band of 20) or empty', input: text });
        return z.NEVER;
      }),
    },
    { error: 'must be an object like {"min": 1, "max": 40, "text": "…"}' },
  )
  .refine((row) => row.max >= row.min, { error: (issue) => `the range ${rangeOf(issue.input as TableRow)} runs backwards` });

function rangeOf(row: Pick<TableRow, 'min' | 'max'>): string {
  return `${row.min}–${row.max}`;
}

/** What is wrong with a row's range after the row before it: rows run ascending, without overlap or gap. */
function afterProblem(previous: TableRow | undefined, row: TableRow): string | null {
  if (!previous) return null;
  if (row.min <= previous.max) return `the range ${rangeOf(row)} overlaps the row before (${rangeOf(previous)}); rows must be ascending without overlap`;
  if (row.min > previous.max + 1) return `the range starts at ${row.min} but the row before ends at ${previous.max}, leaving ${previous.max + 1}–${row.min - 1} uncovered`;
  return null;
}

/**
 * The rows: at least one, at most 100, each read in turn and checked against the one before, so the problem named is
 * on the first bad row (a later row's own problem is not named before an earlier row's overlap).
 */
const fileRowsSchema = z
  .array(z.unknown(), { error: 'must be a list of {"min", "max", "text"} objects' })
  .min(1, { error: 'a table needs at least one row' })
  .max(TABLE_LIMITS.rows, { error: (issue) => `${(issue.input as unknown[]).length} rows; a table holds at most ${TABLE_LIMITS.rows}` })
  .transform((rows, context) => {
    const read: TableRow[] = [];
    for (const [index, row] of rows.entries()) {
      const parsed = fileRowSchema.safeParse(row);
      const problem = parsed.success ? afterProblem(read.at(-1), parsed.data) : null;
      if (!parsed.success) {
        for (const { path, message } of parsed.error.issues) context.issues.push({ code: 'custom', path: [index, ...path], message, input: row });
      }
      else if (problem) context.issues.push({ code: 'custom', path: [index], message: problem, input: row });
      else {
        read.push(parsed.data);
        continue;
      }
      return z.NEVER;
    }
    return read;
  });

/**
 * A table file, JSON or CSV, as read: the file's own fields (a CSV has none) over the command's options, then every
 * field checked. Read, it is the table to store.
 */
const tableFileSchema = z.object(
  {
    format: z.literal(TABLE_FILE_FORMAT, { error: `must be "${TABLE_FILE_FORMAT}"` }).optional(),
    rows: fileRowsSchema,
    name: fileName('table name').refine((name) => name !== null, { error: 'the table name is empty' }),
    die: fileText('die', 20, false)
      .transform((die) => die || 'd100')
      .superRefine(checkedBy(parseTableDie)),
    asks: fileText('"asks" line', TABLE_LIMITS.asksLength, false),
    skill: fileName('skill name'),
  },
  { error: 'must be a JSON object with `name`, `die` and `rows`' },
);

/** What the command gives where the file says nothing: the name (from the option or the file's name), die, asks, skill. */
export interface TableFileDefaults {
  /** The name used when the file names none (a CSV): from the command, or the file name. */
  name?: string;
  die?: string;
  asks?: string;
  skill?: string;
}

/** The fields a JSON file may set itself, over the command's options. */
export const TABLE_FILE_FIELDS = ['name', 'die', 'asks', 'skill'] as const;
export type TableFileField = (typeof TABLE_FILE_FIELDS)[number];

/** Checks the fields; the first problem is named by its place: `row 2` / `line 3` (`rowPlace`), `name`, `die`, … */
function readTable(fields: unknown, rowPlace: (index: number) => string): OutcomeTable {
  const read = tableFileSchema.safeParse(fields);
  if (read.success) {
    const { name, die, asks, skill, rows } = read.data;
    return { name: name!, die, asks, skill, rows };
  }
  const { path, message } = firstProblem(read.error);
  const [field, index] = path;
  bad(field === undefined ? 'the top level' : field === 'rows' && typeof index === 'number' ? rowPlace(index) : String(field), message);
}

function isFileObject(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}

/** A JSON file's table, and the fields it set itself (not absent, not null): an option given for one is not used. */
function readTableJson(text: string, defaults: TableFileDefaults): { table: OutcomeTable; fileSets: TableFileField[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    bad('JSON', (error as Error).message);
  }
  if (!isFileObject(data)) return { table: readTable(data, () => ''), fileSets: [] };
  const fileSets = TABLE_FILE_FIELDS.filter((field) => data[field] !== undefined && data[field] !== null);
  const fields = { ...data, ...Object.fromEntries(TABLE_FILE_FIELDS.map((field) => [field, data[field] ?? defaults[field]])) };
  return { table: readTable(fields, (index) => `row ${index + 1}`), fileSets };
}

export function parseTableJson(text: string, defaults: TableFileDefaults = {}): OutcomeTable {
  return readTableJson(text, defaults).table;
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. Returns each record with its line. */
export function parseCsv(text: string): Array<{ line: number; fields: string[] }> {
  const records: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === '"' && field.length === 0) quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      fields.push(field);
      if (fields.some((value) => value.trim() !== '')) records.push({ line: recordLine, fields });
      fields = [];
      field = '';
      line++;
      recordLine = line;
    } else field += char;
  }
  if (quoted) throw new UserError(`The table file is not valid: line ${recordLine}: a quoted field is never closed. Nothing was changed.`);
  fields.push(field);
  if (fields.some((value) => value.trim() !== '')) records.push({ line: recordLine, fields });
  return records;
}

const CSV_COLUMNS = ['min', 'max', 'text', 'next', 'reveals'];

/** A CSV with a header line `min,max,text[,next]`; the table's name, die and asks come from `defaults`. */
export function parseTableCsv(text: string, defaults: TableFileDefaults): OutcomeTable {
  const records = parseCsv(text);
  const header = records.shift();
  const columns = header?.fields.map((value) => value.trim().toLowerCase()) ?? [];
  if (!header || !['min', 'max', 'text'].every((column) => columns.includes(column))) {
    bad('line 1', 'the first line must name the columns: `min,max,text` (and optionally `next`, `reveals`)');
  }
  const unknown = columns.find((column) => !CSV_COLUMNS.includes(column));
  if (unknown !== undefined) bad('line 1', `unknown column "${unknown}"; the columns are min, max, text, next, reveals`);
  const at = (fields: string[], column: string) => {
    const index = columns.indexOf(column);
    return index < 0 ? undefined : fields[index];
  };
  const rows = records.map((record) => {
    if (record.fields.length > columns.length) bad(`line ${record.line}`, `${record.fields.length} fields but the header names ${columns.length}; quote text that holds commas`);
    return Object.fromEntries(CSV_COLUMNS.map((column) => [column, column === 'text' || column === 'next' ? csvText(at(record.fields, column)) : at(record.fields, column)]));
  });
  return readTable({ ...defaults, rows }, (index) => `line ${records[index]!.line}`);
}

/**
 * A file `/table import` was given: JSON when its name says so (or, named neither .json nor .csv, when it starts
 * with `{`), else CSV. With the table, the fields the file set itself: an option given for one of those was not used.
 */
export function parseTableFile(fileName: string, text: string, defaults: TableFileDefaults): { table: OutcomeTable; fileSets: TableFileField[] } {
  const isJson = /\.json$/i.test(fileName) || (!/\.csv$/i.test(fileName) && text.replace(/^\uFEFF/, '').trimStart().startsWith('{'));
  return isJson ? readTableJson(text.replace(/^\uFEFF/, ''), defaults) : { table: parseTableCsv(text, defaults), fileSets: [] };
}

/**
 * A text a spreadsheet would run as a formula (OWASP's CSV injection): one starting with =, +, -, @, a tab or a
 * carriage return, also behind quotes a text of the table already starts with (so that the one added on export is
 * the one taken off on import, and a text that starts with `'=` itself comes back as it was).
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A text cell of an exported CSV: one a spreadsheet would run starts with a single quote, which spreadsheets read
 * as "this is text", and is quoted; any other is quoted when it holds a comma, a quote, a line break or edge spaces.
 */
function csvField(value: string): string {
  const cell = FORMULA_START.test(value) ? `'${value}` : value;
  return cell !== value || /[",\n\r]/.test(cell) || cell !== cell.trim() ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** A text cell of an imported CSV: the single quote an export put before a formula-like text is taken off again. */
function csvText(cell: string | undefined): string | undefined {
  const text = cell?.trim();
  return text?.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : cell;
}

export function tableToJson(table: OutcomeTable): string {
  return `${JSON.stringify({ format: TABLE_FILE_FORMAT, version: 1, ...table }, null, 2)}\n`;
}

export function tableToCsv(table: OutcomeTable): string {
  const lines = [
    'min,max,text,next,reveals',
    ...table.rows.map((row) => [String(row.min), String(row.max), csvField(row.text), csvField(row.next ?? ''), row.reveals ?? ''].join(',')),
  ];
  return `${lines.join('\n')}\n`;
}

/** What an investigation row reveals of a hidden CL (RULES 1.5): a band of 20 is 0–19, 20–39, …, 180–200. */
export function revealChallengeLevel(reveals: TableRow['reveals'], challengeLevel: number): string | null {
  if (reveals === 'cl') return `The Challenge Level is **${challengeLevel}**.`;
  if (reveals === 'band') {
    const low = Math.min(180, Math.floor(challengeLevel / 20) * 20);
    return `The Challenge Level is between **${low} and ${low === 180 ? 200 : low + 19}**.`;
  }
  return null;
}
