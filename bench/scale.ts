/**
 * `npm run bench -- scale` (issue 26): the figures of a bot in many servers, measured against the fake Discord. Each
 * file of bench/scale/ is a set of rows (bench/scale/row.ts); `npm run bench -- scale <name>` runs the files whose
 * name contains <name>. Prints one Markdown table (as docs/scaling.md shows it), writes every figure to
 * bench/results/scale.json, asserts nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ScaleRow } from './scale/row.js';

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scale');

export async function runScaleBench(filter: string | undefined): Promise<void> {
  const files = fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.ts') && name !== 'row.ts' && (!filter || name.includes(filter)))
    .sort();
  if (files.length === 0) throw new Error(`no file of bench/scale/ matches "${filter}"`);
  const rows: (ScaleRow & { file: string })[] = [];
  for (const file of files) {
    const started = Date.now();
    const { measure } = (await import(pathToFileURL(path.join(folder, file)).href)) as { measure: () => Promise<ScaleRow[]> };
    const measured = await measure();
    console.error(`${file}: ${measured.length} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    rows.push(...measured.map((row) => ({ ...row, file })));
  }
  const lines = ['| what | figure | goal | met |', '|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${row.row} | ${row.figure} | ${row.goal ?? '—'} | ${row.met === undefined ? '—' : row.met ? 'yes' : '**no**'} |`);
  console.log(lines.join('\n'));
  const out = path.join(path.dirname(folder), 'results', 'scale.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ measuredAt: new Date().toISOString(), rows }, null, 2)}\n`);
}
