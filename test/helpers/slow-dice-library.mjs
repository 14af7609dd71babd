// Preloaded with `--import` into a bot process (test/e2e/dice-load.test.ts): on the thread that preloaded it, the
// dice-notation library's module evaluation holds the thread 4 s longer, as a loaded 2-core machine held it past 3 s
// in issue 11. The library itself is unchanged; only its evaluation waits first, without burning CPU. Plain
// JavaScript, since `--import` runs before tsx is registered.
import { register } from 'node:module';

const HOLD_MS = 4000;

const hooks = `
export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.includes('/@dice-roller/rpg-dice-roller/') || loaded.source == null) return loaded;
  const hold = 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${HOLD_MS});\\n';
  return { ...loaded, source: hold + Buffer.from(loaded.source).toString('utf8') };
}
`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
