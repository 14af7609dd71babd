// docs/architecture.md is where the next engineer starts: a folder or a command it does not name is one they will
// not know to look for.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The code spans of a markdown text (`src/engine/`, `commands/roll.ts`…). */
function codeSpans(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!));
}

/** Every folder under src/ and commands/, as `src/engine/systems/tactalk/`; what src/generated holds is generated. */
function folders(): string[] {
  return ['src', 'commands'].flatMap((top) =>
    readdirSync(join(ROOT, top), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/')}/`)
      .filter((folder) => !folder.startsWith('src/generated/') || folder === 'src/generated/'),
  );
}

/**
 * A folder is named by its whole path, or, inside the row of its top folder (`src/engine/`), by the path below it
 * (`systems/tactalk/`).
 */
export function unnamedFolders(all: readonly string[], markdown: string): string[] {
  const spans = codeSpans(markdown);
  return all.filter((folder) => {
    if (spans.has(folder)) return false;
    const top = /^(src\/[^/]+\/|commands\/)/.exec(folder)![1]!;
    const below = folder.slice(top.length);
    const row = markdown.split('\n').find((line) => line.startsWith(`| \`${top}\``));
    return !(below && row && codeSpans(row).has(below));
  });
}

describe('docs/architecture.md', () => {
  it('names every folder of src/ and commands/', () => {
    expect(unnamedFolders(folders(), DOC)).toEqual([]);
  });

  it('names every command file', () => {
    const files = readdirSync(join(ROOT, 'commands')).filter((name) => name.endsWith('.ts')).map((name) => `commands/${name}`);
    const spans = codeSpans(DOC);
    expect(files.filter((file) => !spans.has(file))).toEqual([]);
  });

  it('finds a folder it does not name', () => {
    const markdown = '| `src/engine/` | `systems/tactalk/` |\n| `src/store/` | the store |';
    expect(unnamedFolders(['src/engine/', 'src/engine/systems/tactalk/', 'src/engine/systems/d6-pool/', 'src/store/', 'src/store/tactalk/', 'src/views/'], markdown)).toEqual([
      'src/engine/systems/d6-pool/',
      'src/store/tactalk/',
      'src/views/',
    ]);
  });
});
