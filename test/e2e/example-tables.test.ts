// Every file under examples/ imports as it is, through `/table import` with nothing but the file, into one server, in
// either order: a row naming a next table not imported yet is no error, and once all are in, every `next` table a row
// names is there to roll. A new example file is picked up by this test as it is.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const EXAMPLES = path.resolve(import.meta.dirname, '..', '..', 'examples');
const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const sandbox = useTestSandbox();

const files = fs.readdirSync(EXAMPLES).filter((file) => /\.(json|csv)$/i.test(file)).sort();

it('examples/ holds example tables', () => {
  expect(files.length).toBeGreaterThanOrEqual(2);
});

it.each([['in this order', files], ['in the reverse order', [...files].reverse()]])(
  'every examples/ file imports as it is (%s), and every next table its rows name is then there',
  async (_, order) => {
    for (const file of order) {
      const content = fs.readFileSync(path.join(EXAMPLES, file), 'utf8');
      const imported = await sandbox().one({ ...DISPATCHER, command: 'table import', options: { file: { filename: file, content } } });
      expect(imported.content, file).toMatch(/^Imported \*\*.+\*\*/);
      expect(imported.content, file).not.toContain('⚠️');
    }
    const list = textOf(await sandbox().one({ user: 'mike', command: 'table list' }));
    const names = [...list.matchAll(/^• \*\*(.+?)\*\* · /gm)].map((match) => match[1]!);
    expect(names, list).toHaveLength(files.length);
    for (const name of names) {
      const shown = textOf(await sandbox().one({ user: 'mike', command: 'table show', options: { name } }));
      // RULES 1.4: no invented official content, so an example says it is one, in its name and in every row.
      expect(name).toMatch(/example/i);
      const rows = [...shown.matchAll(/^\*\*-?\d+–-?\d+\*\* · (.*)$/gm)].map((match) => match[1]!);
      expect(rows.length, shown).toBeGreaterThan(0);
      for (const row of rows) expect(row, name).toMatch(/example/i);
      for (const [, next] of shown.matchAll(/→ roll \*\*(.+?)\*\*/g)) expect(names, `${name} names the next table ${next}`).toContain(next);
    }
  },
);
