/**
 * The Rule → Command → Test tables of docs/rules.md and docs/systems.md cannot drift: every row names at least one
 * test, as `` `test/…/file.test.ts` › test name `` (several separated by `;`), every file named exists, and every
 * name is the text of an it() / test() / describe() call in that file, exactly as written there. The test files are
 * only read and parsed (TypeScript's parser finds the calls), never run or imported.
 */
import { existsSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);

/** A table is the one whose header is exactly these three columns. */
const HEADER = /^\|\s*Rule\s*\|\s*Command\s*\|\s*Test\s*\|\s*$/;
const SEPARATOR = /^\|(\s*:?-{3,}:?\s*\|){3}\s*$/;
/** A test file named in a cell: backticked, under test/, ending in .test.ts. */
const TEST_FILE = /`(test\/[^`\s]+?\.test\.ts)`/g;

interface Row {
  line: number;
  rule: string;
  testCell: string;
}

interface Reference {
  file: string;
  name: string | null;
}

/** The rows of every Rule → Command → Test table in a Markdown text; a malformed row is reported as a problem. */
function ruleTables(markdown: string): { tables: Row[][]; problems: string[] } {
  const lines = markdown.split(/\r?\n/);
  const tables: Row[][] = [];
  const problems: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!HEADER.test(lines[index]!)) continue;
    if (!SEPARATOR.test(lines[index + 1] ?? '')) problems.push(`line ${index + 2}: a Rule → Command → Test header without its |---| line`);
    const rows: Row[] = [];
    let at = index + 2;
    for (; at < lines.length && lines[at]!.trimStart().startsWith('|'); at++) {
      const cells = lines[at]!.trim().slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim());
      if (cells.length !== 3) {
        problems.push(`line ${at + 1}: ${cells.length} cells, not 3 (a | inside a cell must be written \\|)`);
        continue;
      }
      rows.push({ line: at + 1, rule: cells[0]!, testCell: cells[2]! });
    }
    tables.push(rows);
    index = at - 1;
  }
  return { tables, problems };
}

/** The tests a cell names, in order: each file with the text after its `›` (null when there is none). */
function references(cell: string): { references: Reference[]; stray: string } {
  const found = [...cell.matchAll(TEST_FILE)];
  const stray = cell.slice(0, found[0]?.index ?? cell.length).trim();
  const refs = found.map((match, position) => {
    const end = found[position + 1]?.index ?? cell.length;
    const rest = cell.slice(match.index + match[0].length, end).trim().replace(/;$/, '').trim();
    const name = rest.startsWith('›') ? rest.slice(1).trim().replace(/\\\|/g, '|') : null;
    return { file: match[1]!, name: name || null };
  });
  return { references: refs, stray };
}

/** What a name written in a test file matches: a string exactly; a template literal with each `${…}` as any text. */
type Written = { text: string } | { pattern: RegExp };

/** The first argument of every it / test / describe call (it.each(…)(…), describe.skip(…) and the like included). */
function testNames(source: string, fileName = 'file.test.ts'): Written[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const callee = (expression: ts.Expression): string | null => {
    if (ts.isIdentifier(expression)) return expression.text;
    if (ts.isPropertyAccessExpression(expression) || ts.isCallExpression(expression)) return callee(expression.expression);
    if (ts.isTaggedTemplateExpression(expression)) return callee(expression.tag);
    return null;
  };
  const written: Written[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ['it', 'test', 'describe'].includes(callee(node.expression) ?? '')) {
      const first = node.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) written.push({ text: first.text });
      else if (first && ts.isTemplateExpression(first)) {
        const parts = [first.head.text, ...first.templateSpans.map((span) => span.literal.text)];
        written.push({ pattern: new RegExp(`^${parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`, 's') });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return written;
}

/** Every problem of the tables in a Markdown text: rows naming no test, files that do not exist, names not found. */
function tableProblems(markdown: string, readTestFile: (path: string) => string | null): string[] {
  const { tables, problems } = ruleTables(markdown);
  const names = new Map<string, Written[] | null>();
  const namesOf = (path: string): Written[] | null => {
    if (!names.has(path)) {
      const source = readTestFile(path);
      names.set(path, source === null ? null : testNames(source, path));
    }
    return names.get(path)!;
  };
  for (const row of tables.flat()) {
    const where = `line ${row.line} (${row.rule.slice(0, 60)})`;
    const { references: refs, stray } = references(row.testCell);
    if (refs.length === 0) problems.push(`${where}: names no test`);
    if (stray && refs.length > 0) problems.push(`${where}: text before the first test file: "${stray}"`);
    for (const ref of refs) {
      const written = namesOf(ref.file);
      if (written === null) problems.push(`${where}: ${ref.file} does not exist`);
      else if (ref.name === null) problems.push(`${where}: ${ref.file} is named without a test name after ›`);
      else if (!written.some((entry) => ('text' in entry ? entry.text === ref.name : entry.pattern.test(ref.name!)))) {
        problems.push(`${where}: ${ref.file} has no it/test/describe named "${ref.name}"`);
      }
    }
  }
  return problems;
}

function readTestFile(path: string): string | null {
  const url = new URL(path, ROOT);
  return existsSync(url) ? readFileSync(url, 'utf8') : null;
}

const doc = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

describe('the Rule → Command → Test tables of the docs', () => {
  // docs/rules.md: one table (seed 000 and the rules 6.x); docs/systems.md: one per seed 001–004 and the initiative tracker.
  it.each([
    ['docs/rules.md', 1],
    ['docs/systems.md', 5],
  ])('%s: every row names tests that exist, by the names their files give them', (path, tablesAtLeast) => {
    const markdown = doc(path);
    const { tables } = ruleTables(markdown);
    expect(tables.length).toBeGreaterThanOrEqual(tablesAtLeast);
    for (const table of tables) expect(table.length).toBeGreaterThan(0);
    expect(tableProblems(markdown, readTestFile)).toEqual([]);
  });
});

describe('the table check itself', () => {
  const files: Record<string, string> = {
    'test/a.test.ts': [
      "describe('a group', () => {",
      "  it('adds two and two', () => {});",
      "  it.each([1, 2])('reads %i', () => {});",
      '  it(`at most ${LIMIT} things`, () => {});',
      '});',
    ].join('\n'),
  };
  const read = (path: string) => files[path] ?? null;
  const table = (...rows: string[]) => ['| Rule | Command | Test |', '|---|---|---|', ...rows].join('\n');

  it('accepts test names, describe names, it.each names and template names, several to a row', () => {
    const markdown = table(
      '| one | `/x` | `test/a.test.ts` › adds two and two; `test/a.test.ts` › a group |',
      '| two | `/x \\| /y` | `test/a.test.ts` › reads %i; `test/a.test.ts` › at most 25 things |',
    );
    expect(tableProblems(markdown, read)).toEqual([]);
  });

  it('fails a wrong name, a missing file, a file without a name, and a row that names no test', () => {
    const markdown = table(
      '| wrong | `/x` | `test/a.test.ts` › adds two and three |',
      '| missing | `/x` | `test/b.test.ts` › adds two and two |',
      '| nameless | `/x` | `test/a.test.ts` |',
      '| none | `/x` | — |',
      '| broken | `/x` | too | many |',
    );
    const problems = tableProblems(markdown, read);
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toContain('no it/test/describe named "adds two and three"');
    expect(problems.join('\n')).toContain('test/b.test.ts does not exist');
    expect(problems.join('\n')).toContain('named without a test name');
    expect(problems.join('\n')).toContain('names no test');
    expect(problems.join('\n')).toContain('4 cells, not 3');
  });
});
