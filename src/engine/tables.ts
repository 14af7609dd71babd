/**
 * Outcome tables (RULES 1.4): a server's named tables, each a die, what the roller adds, and rows covering ranges
 * of results. Pure: parsing and checking a table file (JSON or CSV), rolling its die, and picking the row.
 */
import { UserError } from '../errors.js';
import { d100FromDice, type D100 } from './dice.js';
import { NAME_LENGTH_MAX, nameProblem } from './names.js';
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

export interface TableRow {
  min: number;
  max: number;
  text: string;
  /** The name of a table to roll next, offered as a button. */
  next: string | null;
  /** On an investigation table: what this row reveals of a hidden CL (RULES 1.5). */
  reveals: 'cl' | 'band' | null;
}

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

function checkText(where: string, what: string, value: unknown, max: number, required: boolean): string {
  if (value === undefined || value === null || value === '') {
    if (required) bad(where, `the ${what} is empty`);
    return '';
  }
  if (typeof value !== 'string') bad(where, `the ${what} must be text`);
  const text = value.trim();
  if (required && text.length === 0) bad(where, `the ${what} is empty`);
  if (text.length > max) bad(where, `the ${what} has ${text.length} characters; at most ${max}`);
  return text;
}

/** A table's name, or the name of the next table or the skill it adds: checked as every name is (names.ts). */
function checkName(where: string, what: string, value: unknown, required: boolean): string | null {
  const text = checkText(where, what, value, Number.MAX_SAFE_INTEGER, required);
  if (!text) return null;
  const checked = nameProblem(text, TABLE_LIMITS.nameLength);
  return 'problem' in checked ? bad(where, `the ${what} ${checked.problem}`) : checked.name;
}

function checkInteger(where: string, what: string, value: unknown): number {
  const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || Math.abs(number) > 1_000_000) {
    bad(where, `${what} must be a whole number, not ${JSON.stringify(value)}`);
  }
  return number;
}

/** Checks the rows in order: ascending, no overlap, no gap, text present, at most 100. */
const REVEALS: Record<string, TableRow['reveals']> = { cl: 'cl', exact: 'cl', band: 'band', range: 'band', '': null, none: null, nothing: null };

function checkRows(rows: Array<{ where: string; min: unknown; max: unknown; text: unknown; next: unknown; reveals: unknown }>): TableRow[] {
  if (rows.length === 0) bad('rows', 'a table needs at least one row');
  if (rows.length > TABLE_LIMITS.rows) bad('rows', `${rows.length} rows; a table holds at most ${TABLE_LIMITS.rows}`);
  const checked: TableRow[] = [];
  for (const row of rows) {
    const min = checkInteger(row.where, '`min`', row.min);
    const max = checkInteger(row.where, '`max`', row.max);
    if (max < min) bad(row.where, `the range ${min}–${max} runs backwards`);
    const previous = checked.at(-1);
    if (previous && min <= previous.max) bad(row.where, `the range ${min}–${max} overlaps the row before (${previous.min}–${previous.max}); rows must be ascending without overlap`);
    if (previous && min > previous.max + 1) bad(row.where, `the range starts at ${min} but the row before ends at ${previous.max}, leaving ${previous.max + 1}–${min - 1} uncovered`);
    const text = checkText(row.where, 'text', row.text, TABLE_LIMITS.textLength, true);
    const next = checkName(row.where, 'next table name', row.next, false);
    const revealsText = checkText(row.where, '`reveals`', row.reveals, 10, false).toLowerCase();
    if (!(revealsText in REVEALS)) bad(row.where, '`reveals` must be `cl` (the exact CL), `band` (a band of 20) or empty');
    checked.push({ min, max, text, next, reveals: REVEALS[revealsText] ?? null });
  }
  return checked;
}

export interface TableFileDefaults {
  /** The name used when the file names none (a CSV): from the command, or the file name. */
  name?: string;
  die?: string;
  asks?: string;
  skill?: string;
}

function finish(fields: { name: unknown; die: unknown; asks: unknown; skill: unknown }, rows: TableRow[]): OutcomeTable {
  const name = checkName('name', 'table name', fields.name, true)!;
  const die = checkText('die', 'die', fields.die ?? 'd100', 20, false) || 'd100';
  try {
    parseTableDie(die);
  } catch (error) {
    bad('die', (error as Error).message.replace(/\.$/, ''));
  }
  const asks = checkText('asks', '"asks" line', fields.asks, TABLE_LIMITS.asksLength, false);
  const skill = checkName('skill', 'skill name', fields.skill, false);
  return { name, die, asks, skill, rows };
}

export function parseTableJson(text: string, defaults: TableFileDefaults = {}): OutcomeTable {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    bad('JSON', (error as Error).message);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) bad('the top level', 'must be a JSON object with `name`, `die` and `rows`');
  const table = data as Record<string, unknown>;
  if (table.format !== undefined && table.format !== TABLE_FILE_FORMAT) bad('format', `must be "${TABLE_FILE_FORMAT}"`);
  if (!Array.isArray(table.rows)) bad('rows', 'must be a list of {"min", "max", "text"} objects');
  const rows = checkRows(
    table.rows.map((row: unknown, index: number) => {
      const where = `row ${index + 1}`;
      if (typeof row !== 'object' || row === null) bad(where, 'must be an object like {"min": 1, "max": 40, "text": "…"}');
      const record = row as Record<string, unknown>;
      return { where, min: record.min, max: record.max, text: record.text, next: record.next, reveals: record.reveals };
    }),
  );
  return finish(
    { name: table.name ?? defaults.name, die: table.die ?? defaults.die, asks: table.asks ?? defaults.asks, skill: table.skill ?? defaults.skill },
    rows,
  );
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
  const rows = checkRows(
    records.map((record) => {
      if (record.fields.length > columns.length) bad(`line ${record.line}`, `${record.fields.length} fields but the header names ${columns.length}; quote text that holds commas`);
      return {
        where: `line ${record.line}`,
        min: at(record.fields, 'min'),
        max: at(record.fields, 'max'),
        text: at(record.fields, 'text'),
        next: at(record.fields, 'next'),
        reveals: at(record.fields, 'reveals'),
      };
    }),
  );
  return finish({ name: defaults.name, die: defaults.die, asks: defaults.asks, skill: defaults.skill }, rows);
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value;
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
