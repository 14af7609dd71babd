// The layers of docs/architecture.md, checked on the code: engine → store → views → discord → commands → the top
// that wires them (the entry points directly in src/: bot.ts, main.ts, deploy.ts…, and src/sandbox). A module imports its own layer or those
// before it; an arrow back up would let a lower layer depend on what it is meant to serve.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const LAYERS = ['engine', 'store', 'views', 'discord', 'commands', 'top'] as const;
type Layer = (typeof LAYERS)[number] | 'base';

/** The layer of a file, by its path from the project root; base modules may be imported by anyone. */
export function layerOf(path: string): Layer | null {
  if (['src/config.ts', 'src/log.ts', 'src/errors.ts'].includes(path)) return 'base';
  if (/^src\/[^/]+\.ts$/.test(path) || path.startsWith('src/sandbox/')) return 'top';
  if (path.startsWith('commands/')) return 'commands';
  if (path.startsWith('src/generated/')) return 'store';
  const folder = /^src\/([^/]+)\//.exec(path)?.[1];
  return (LAYERS as readonly string[]).includes(folder ?? '') && folder !== 'top' && folder !== 'commands' ? (folder as Layer) : null;
}

function rank(layer: Layer): number {
  return layer === 'base' ? -1 : LAYERS.indexOf(layer);
}

function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** Every static `import … from '…'`, `export … from '…'`, bare `import '…'` and dynamic `import('…')` of a source. */
export function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) specifiers.push(match[1]!);
  return specifiers;
}

/** The project file a relative specifier names (`./x.js` → `x.ts`), or null for a package. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = relative(ROOT, resolve(ROOT, dirname(from), specifier)).split('\\').join('/');
  return target.replace(/\.js$/, '.ts');
}

/** "file imports target (layer a imports layer b)" for every import that runs back up. */
export function upwardImports(files: Array<{ path: string; source: string }>): string[] {
  const found: string[] = [];
  for (const { path, source } of files) {
    const own = layerOf(path);
    if (!own) continue;
    for (const specifier of importsOf(source)) {
      const target = resolveImport(path, specifier);
      const theirs = target && layerOf(target);
      if (theirs && rank(theirs) > rank(own)) found.push(`${path} imports '${specifier}' (${own} → ${theirs})`);
    }
  }
  return found;
}

describe('the import graph', () => {
  const files = [...tsFiles('src'), ...tsFiles('commands')].map((path) => ({ path, source: readFileSync(join(ROOT, path), 'utf8') }));

  it('places every source file in a layer', () => {
    expect(files.filter(({ path }) => !layerOf(path)).map(({ path }) => path)).toEqual([]);
  });

  it('has no module importing a layer above its own', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('reads every kind of import, and finds one that runs back up', () => {
    const source = [
      "import type { A } from '../discord/a.js';",
      "import {\n  B,\n  C,\n} from '../../commands/index.js';",
      "export { D } from '../store/d.js';",
      "import '../engine/e.js';",
      "const f = await import('../sandbox/f.js');",
      "import { G } from 'discord.js';",
    ].join('\n');
    expect(importsOf(source)).toEqual(expect.arrayContaining(['../discord/a.js', '../../commands/index.js', '../store/d.js', '../engine/e.js', '../sandbox/f.js', 'discord.js']));
    expect(upwardImports([{ path: 'src/views/x.ts', source }])).toEqual([
      "src/views/x.ts imports '../discord/a.js' (views → discord)",
      "src/views/x.ts imports '../../commands/index.js' (views → commands)",
      "src/views/x.ts imports '../sandbox/f.js' (views → top)",
    ]);
    expect(upwardImports([{ path: 'src/main.ts', source: "import { x } from './sandbox/sandbox.js';" }])).toEqual([]);
  });
});
