/**
 * `npm start`: runs src/main.ts bundled ahead of time (dist/bundle/), bundling it first when a source changed since.
 * Plain JavaScript, since it runs before anything could compile TypeScript.
 *
 * Why not `node --import tsx src/main.ts` as before: tsx sends every import (of packages too) through its loader
 * thread and compiles, or fetches from its cache, each of the ~180 source files on every start; and Node's ES module
 * loader takes ~300 ms to load that many files even compiled. That was ~60 % of a cold start's CPU
 * (docs/performance.md). Here a start with nothing changed costs a stat of each source (~5 ms) and the import of a
 * few files: each mode's code (the bot, the sandbox, the shard manager, each database) is a chunk of its own, still
 * loaded only when that mode runs. A start after a change (a fresh clone, a `git pull`, an edit) bundles first with
 * esbuild (~150 ms: the same per-file transform tsx applies, so the code runs as it did under tsx). No type check
 * here: `npm run typecheck` does that. The Docker image runs `npm run build`'s tsc output (dist/src/) instead.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(project, 'dist', 'bundle');
const stampFile = path.join(out, '.sources');
/** The bot's sources; the sandbox page (browser code) is bundled by the sandbox itself. */
const roots = ['src', 'commands'];
/** Besides the sources, what changes the bundle: this file (how it bundles), compiler settings, which packages are external. */
const settings = ['src/start.mjs', 'tsconfig.json', 'package.json'];
const skipped = path.join('src', 'sandbox', 'page');
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * Plain JavaScript packages with no files of their own to find at run time, bundled in: zod alone is ~60 ES module
 * files, ~45 ms to load from node_modules at each start and ~5 ms as part of the bundle (docs/performance.md).
 * Everything else (discord.js, Prisma and the database drivers with their native and WebAssembly parts, pino and
 * its worker threads, esbuild) is loaded from node_modules.
 */
const BUNDLED = new Set(['zod', '@sapphire/async-queue']);

/** Every package the project depends on, and their subpaths, but BUNDLED. */
function externalPackages() {
  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !BUNDLED.has(name));
  return names.flatMap((name) => [name, `${name}/*`]);
}

function sources() {
  const files = [];
  const walk = (folder) => {
    for (const entry of fs.readdirSync(path.join(project, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (relative !== skipped) walk(relative);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(relative);
    }
  };
  for (const root of roots) walk(root);
  return files.sort();
}

/** Names, sizes and modification times of every source: a new file, a deleted one or an edit changes it. */
function stampOf(files) {
  const hash = createHash('sha256');
  for (const file of [...settings, ...files]) {
    const stat = fs.statSync(path.join(project, file));
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/**
 * Prisma's runtime is one file in two builds, and under Node its package gives the CommonJS one even to an import:
 * Node then scans all 230 kB of it for its exports before running it, ~50 ms at each start against ~22 ms for the
 * ES module build, which is the same code. The bundle imports the ES module build by its path.
 */
const prismaRuntimeAsModule = {
  name: 'prisma-runtime-as-module',
  setup(build) {
    build.onResolve({ filter: /^@prisma\/client\/runtime\/client$/ }, () => {
      const commonJs = createRequire(path.join(project, 'package.json')).resolve('@prisma/client/runtime/client');
      const esModule = commonJs.replace(/\.js$/, '.mjs');
      if (!fs.existsSync(esModule)) return { path: '@prisma/client/runtime/client', external: true };
      return { path: path.relative(out, esModule).split(path.sep).join('/'), external: true };
    });
  },
};

/**
 * CommonJS packages the bot imports, loaded with `require` as they are written for. Imported as ES modules, Node
 * first scans each (discord.js: its index and every file it re-exports) for the names it exports: ~30–50 ms of
 * every start (docs/performance.md). The bundle reads their exports as properties instead, as esbuild does for any
 * CommonJS module; the packages themselves are loaded from node_modules as before.
 */
const REQUIRED = new Set(['discord.js', 'pino', 'better-sqlite3', 'seedrandom', 'dotenv']);
const REQUIRE = '__requirePackage';
const commonJsByRequire = {
  name: 'commonjs-by-require',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (REQUIRED.has(args.path) ? { path: args.path, namespace: 'required-package' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'required-package' }, (args) => ({ contents: `module.exports = ${REQUIRE}(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

async function bundle(stamp) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: project,
    // The dice and /stats workers are started by their file names (src/engine/dice-notation-thread.ts,
    // src/views/stats-thread.ts), so each is an entry of its own.
    entryPoints: ['src/main.ts', 'src/engine/dice-notation-worker.ts', 'src/views/stats-worker.ts'],
    bundle: true,
    // Packages stay in node_modules, loaded by Node as they are, except the few whose many small files cost more to
    // find and load one by one than to read as part of the bundle (BUNDLED).
    external: externalPackages(),
    plugins: [prismaRuntimeAsModule, commonJsByRequire],
    // For commonJsByRequire: each file of the bundle requires as Node would from its own place.
    banner: { js: `import { createRequire as ${REQUIRE}Of } from 'node:module';\nconst ${REQUIRE} = ${REQUIRE}Of(import.meta.url);` },
    splitting: true,
    outdir: out,
    // Every file in one folder: a chunk's import.meta.url finds the worker next to it, as the sources do.
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: path.join(project, 'tsconfig.json'),
    write: false,
    logLevel: 'warning',
  });
  // Each file is written whole under a temporary name, then renamed: two starts bundling at once (a second
  // terminal) never import a half-written file.
  fs.mkdirSync(out, { recursive: true });
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  fs.writeFileSync(stampFile, `${stamp}\n`);
  // Chunks are named by their content, so older bundles' chunks stay beside the new ones: a bot still running from
  // one may load a chunk late (the dice worker on the first /roll dice). Those a day old go.
  const written = new Set(result.outputFiles.map((file) => path.basename(file.path)));
  for (const name of fs.readdirSync(out)) {
    const file = path.join(out, name);
    if (!written.has(name) && name !== path.basename(stampFile) && fs.statSync(file).mtimeMs < Date.now() - STALE_AFTER_MS) fs.rmSync(file, { force: true });
  }
}

const stamp = stampOf(sources());
const built = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : null;
if (built !== stamp) await bundle(stamp);
await import(pathToFileURL(path.join(out, 'main.js')).href);
