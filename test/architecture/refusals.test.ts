// The store and the engine say what they refuse as data (src/engine/refusals.ts); the words, with the commands a user
// can turn to, are the views' (src/views/refusals.ts). Checked on the code: no UserError is written in the store,
// no error the store or the engine raises names a slash command, and every kind of refusal has its words.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { Refused, type Refusal, type RefusalKind } from '../../src/engine/refusals.js';
import { userErrorText } from '../../src/views/messages.js';
import { refusalText } from '../../src/views/refusals.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** Where a string sits: in a `throw`, or in a `new …Error(…)` / `new Refused(…)` (an error made to be thrown later). */
function inError(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isThrowStatement(at)) return true;
    if (ts.isNewExpression(at) && /(Error|Refusal|Refused)$/.test(at.expression.getText())) return true;
  }
  return false;
}

/** The text of every string literal and template piece of a source (comments are not strings), with its line. */
export function stringsOf(path: string, source: string): Array<{ text: string; line: number; inError: boolean }> {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const found: Array<{ text: string; line: number; inError: boolean }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      found.push({ text: node.text, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, inError: inError(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The bot's slash commands (`/sheet`, `/npc`, …) as they appear in a text: a slash not inside a word, path or URL. */
const COMMAND_NAMES = commands.map((command) => command.data.name);
const NAMES_A_COMMAND = new RegExp(`(?:^|[^\\w/.:-])/(?:${COMMAND_NAMES.join('|')})(?![\\w-])`);

/** "path:line: text" for every string of `files` (or only those in errors) that names a slash command. */
function commandsNamed(files: string[], only: 'every string' | 'errors'): string[] {
  return files.flatMap((path) =>
    stringsOf(path, readFileSync(join(ROOT, path), 'utf8'))
      .filter(({ text, inError }) => (only === 'every string' || inError) && NAMES_A_COMMAND.test(text))
      .map(({ text, line }) => `${path}:${line}: ${text}`),
  );
}

describe('refusals are data below the views, words in them', () => {
  it('the store writes no UserError of its own: it raises a Refused', () => {
    const written = tsFiles('src/store').filter((path) => /new UserError\(/.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(written).toEqual([]);
  });

  it('no string in the store, and no error the engine raises, names a slash command', () => {
    expect(commandsNamed(tsFiles('src/store'), 'every string')).toEqual([]);
    expect(commandsNamed(tsFiles('src/engine'), 'errors')).toEqual([]);
  });

  it('the check finds the commands where they are named: in the words of refusals', () => {
    const named = commandsNamed(['src/views/refusals.ts'], 'every string');
    for (const command of ['/sheet use', '/sheet create', '/npc list', '/table list', '/initiative end', '/code track']) {
      expect(named.some((line) => line.includes(command)), command).toBe(true);
    }
    expect(stringsOf('x.ts', 'throw new UserError(`Pick one with \\`/sheet use name:${name}\\`.`); // `/npc list`').map(({ text, inError }) => [text, inError])).toEqual([
      ['Pick one with `/sheet use name:', true],
      ['`.', true],
    ]);
    expect(['see `/npc list`', '/roll', 'try /table roll'].filter((text) => !NAMES_A_COMMAND.test(text))).toEqual([]);
    expect(['https://example.com/roll', 'a/sheet', 'docs/npc.md', '/sheets'].filter((text) => NAMES_A_COMMAND.test(text))).toEqual([]);
  });
});

/** One refusal of every kind: the Record makes the type checker refuse a kind left out. */
const EXAMPLES: Record<RefusalKind, Refusal> = {
  'sheet-gone': { kind: 'sheet-gone' },
  'npc-unnamed': { kind: 'npc-unnamed' },
  'no-current-sheet': { kind: 'no-current-sheet', someoneElse: null, hasSheets: true },
  'no-active-sheet': { kind: 'no-active-sheet', system: 'd6-pool', command: null, someoneElse: null, sheets: ['Ash', 'Birch'], others: [] },
  'wrong-system': { kind: 'wrong-system', sheet: 'Troy', sheetSystem: 'tactalk', system: 'd10-pool', command: '/dispatch', npc: false },
  'no-such-sheet': { kind: 'no-such-sheet', typed: 'Thugg', npc: true, suggestions: ['Thug'] },
  'name-looks-alike': { kind: 'name-looks-alike', list: 'sheet', name: 'Тroy', existing: 'Troy' },
  'sheet-name-taken': { kind: 'sheet-name-taken', name: 'Troy', npc: false },
  'sheet-limit': { kind: 'sheet-limit', count: 10, most: 10, npc: false },
  'import-name-taken': { kind: 'import-name-taken', name: 'Troy' },
  'import-sheet-limit': { kind: 'import-sheet-limit', count: 10, most: 10 },
  'entry-limit': { kind: 'entry-limit', entry: 'condition', most: 20 },
  'no-such-skill': { kind: 'no-such-skill', sheet: 'Troy', npc: false, typed: 'Jumping', nearest: [], first: [{ name: 'Climbing', level: 60 }], more: false, otherwise: null },
  'no-such-entry': { kind: 'no-such-entry', sheet: 'Troy', entry: 'archetype', typed: 'Strength', suggestions: [], hasAny: false },
  'no-such-table': { kind: 'no-such-table', typed: 'Reload', suggestions: [] },
  'already-rolled-again': { kind: 'already-rolled-again' },
  'no-such-saved-roll': { kind: 'no-such-saved-roll', typed: 'Brech', suggestions: ['Breach'] },
  'saved-roll-limit': { kind: 'saved-roll-limit', shared: false, most: 25 },
  'saved-roll-too-long': { kind: 'saved-roll-too-long' },
  'table-limit': { kind: 'table-limit', count: 50, most: 50 },
  'no-such-roll': { kind: 'no-such-roll', typed: 'nope' },
  'tracker-limit': { kind: 'tracker-limit', most: 50 },
  'already-in-initiative': { kind: 'already-in-initiative', name: 'Troy', player: true },
  'initiative-empty': { kind: 'initiative-empty' },
  conceded: { kind: 'conceded', who: 'Kat' },
  'out-of-action': { kind: 'out-of-action', who: 'Kat', track: 'Wounds', points: 26, outAt: 26 },
};

describe('every kind of refusal is worded', () => {
  it.each(Object.entries(EXAMPLES))('%s', (kind, refusal) => {
    expect(refusal.kind).toBe(kind);
    const words = refusalText(refusal);
    expect(words.length).toBeGreaterThan(20);
    expect(words).not.toMatch(/undefined|null|\[object/);
    // Raised, it is a UserError like any other: its words reach the user, its message (for logs) names the kind.
    const raised = new Refused(refusal);
    expect(userErrorText(raised)).toBe(words);
    expect(raised.message).toContain(kind);
  });

  it('reads as users read it today', () => {
    expect(refusalText(EXAMPLES['no-active-sheet'])).toBe(
      'You have 2 d6 pools with pushing sheets and none is active: pick the one `/pool` rolls with `/sheet use name:…` (**Ash**, **Birch**).',
    );
    expect(refusalText(EXAMPLES['wrong-system'])).toBe(
      '**Troy** is a Tac Talk (Decision Engine) sheet; `/dispatch` reads a d10 pools sheet. Name one of that system, or make one with `/sheet create … system:d10 pools`.',
    );
    expect(refusalText(EXAMPLES['no-such-skill'])).toBe(
      'Troy has no skill named **Jumping**. Its skills: **Climbing** 60. You can roll one of those or add it with `/sheet skill set name:Jumping level:…`.',
    );
    expect(refusalText(EXAMPLES['entry-limit'])).toBe('A sheet holds at most 20 conditions; remove one first.');
    expect(refusalText(EXAMPLES['name-looks-alike'])).toBe(
      '**Тroy** looks just like your sheet **Troy**, where its "Т" (U+0422, Cyrillic) passes for another letter: two names that look the same would be taken for each other. Choose a name that can be told apart (or use **Troy**). Nothing was changed.',
    );
  });
});
