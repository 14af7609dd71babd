// Handlers answer through the responder (src/discord/responder.ts, `context.answer`), the one place that picks
// reply, deferReply / editReply, update or followUp by how far the interaction was answered and the deadline. A
// handler that called the interaction's own methods would bypass it (and could acknowledge twice); nothing patches
// discord.js's objects any more. Checked on the code, with the TypeScript parser (comments do not count).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The calls that answer an interaction. Autocomplete's `respond` is not one: it cannot be deferred. */
const ANSWERING = new Set(['reply', 'update', 'deferReply', 'deferUpdate', 'editReply', 'followUp', 'showModal', 'deleteReply', 'fetchReply']);

function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/**
 * `interaction.reply(…)`-like calls (a receiver named as the interaction is everywhere: `interaction`, or the
 * responder's `target`) and `Object.defineProperty` calls.
 */
function callsIn(path: string): { answers: string[]; patches: string[] } {
  const file = ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.Latest, true);
  const answers: string[] = [];
  const patches: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { expression: receiver, name } = node.expression;
      const where = `${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (ANSWERING.has(name.text) && /(interaction|target)$/i.test(receiver.getText())) answers.push(`${where} ${receiver.getText()}.${name.text}`);
      if (name.text === 'defineProperty' && receiver.getText() === 'Object') patches.push(where);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { answers, patches };
}

const HANDLERS = [...tsFiles('commands'), ...tsFiles('src/discord').filter((path) => path !== 'src/discord/responder.ts')];

describe('handlers answer through the responder', () => {
  it('finds the interaction calls it looks for (the responder makes them)', () => {
    const { answers } = callsIn('src/discord/responder.ts');
    expect(answers.some((call) => call.endsWith('.reply'))).toBe(true);
    expect(answers.some((call) => call.endsWith('.deferUpdate'))).toBe(true);
  });

  it('no command or other discord module answers an interaction itself', () => {
    expect(HANDLERS.length).toBeGreaterThan(20);
    expect(HANDLERS.flatMap((path) => callsIn(path).answers)).toEqual([]);
  });

  it('nothing replaces methods on discord.js objects', () => {
    expect([...tsFiles('src'), ...tsFiles('commands')].flatMap((path) => callsIn(path).patches)).toEqual([]);
  });
});
