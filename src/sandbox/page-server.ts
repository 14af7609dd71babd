// The sandbox page: a Discord-like channel in the browser, served by the fake Discord itself on GET /.
// Its TypeScript (src/sandbox/page/, browser code with its own tsconfig) is bundled by esbuild in memory on the
// first request, and again whenever a source file changed, so nobody runs a build step by hand.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { FakeDiscord } from './fake-discord.js';
import { SandboxRequestError } from './types.js';

/** The page's sources: next to this file (tsx, tests), or in the source tree when running from dist/. */
function pageDirectory(): string {
  const here = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page');
  if (fs.existsSync(path.join(here, 'main.ts'))) return here;
  return path.resolve('src', 'sandbox', 'page');
}

interface Bundle {
  stamp: string;
  code: Promise<string>;
}
let cached: Bundle | undefined;

/** A stamp of the sources (names, sizes, modification times): a new one means rebuild. */
function sourceStamp(dir: string): string {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => {
      const stat = fs.statSync(path.join(dir, name));
      return `${name}:${stat.size}:${stat.mtimeMs}`;
    })
    .join('|');
}

/** The page's script: main.ts and what it imports, as one ES module. */
export function pageScript(dir: string = pageDirectory()): Promise<string> {
  const stamp = sourceStamp(dir);
  if (cached?.stamp !== stamp) {
    const code = build({
      entryPoints: [path.join(dir, 'main.ts')],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      platform: 'browser',
      write: false,
      sourcemap: 'inline',
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]!.text);
    cached = { stamp, code };
    code.catch(() => {
      if (cached?.code === code) cached = undefined;
    });
  }
  return cached!.code;
}

const STATIC: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/page.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/** Adds GET / (the page), /page.css and /page.js to the fake's server. */
export function addSandboxPage(fake: FakeDiscord): void {
  const dir = pageDirectory();
  for (const [route, { file, type }] of Object.entries(STATIC)) {
    fake.route('GET', route, () => {
      const full = path.join(dir, file);
      if (!fs.existsSync(full)) throw new SandboxRequestError(`the sandbox page's source is missing (${full})`, 404);
      return { __body: fs.readFileSync(full), __contentType: type };
    });
  }
  fake.route('GET', '/page.js', async () => {
    try {
      return { __body: await pageScript(dir), __contentType: 'text/javascript; charset=utf-8' };
    } catch (error) {
      throw new SandboxRequestError(`could not build the sandbox page: ${error instanceof Error ? error.message : String(error)}`, 500);
    }
  });
}
