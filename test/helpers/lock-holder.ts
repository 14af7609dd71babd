// Runs test/helpers/lock-holder.mjs: another OS process that holds the write lock on a SQLite file until the test
// lets it go, so a test releases it when what it waits for has happened, not after a fixed time.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lock-holder.mjs');

export interface HeldLock {
  /** Date.now() when the other process had the lock. */
  lockedAt: number;
  /** Tells the other process to commit and let go; `released` then resolves. */
  release(): void;
  /** Resolves with Date.now() when it committed and let go; rejects if it failed. */
  released: Promise<number>;
}

/** Resolves once another process holds the write lock on `file`; it keeps it until `release()`. */
export function holdWriteLock(file: string): Promise<HeldLock> {
  const child = spawn(process.execPath, [SCRIPT, file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  const waiting: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const look of [...waiting]) look();
  });
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lock holder exited with ${code}: ${errors}`))));
  });
  const line = (word: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const look = (): void => {
        const match = new RegExp(`^${word} (\\d+)$`, 'm').exec(output);
        if (match) resolve(Number(match[1]));
      };
      waiting.push(look);
      look();
      exited.then(() => {
        look();
        reject(new Error(`lock holder ended without "${word}": ${output} ${errors}`));
      }, reject);
    });
  const released = line('released');
  released.catch(() => undefined);
  const release = (): void => {
    child.stdin.end('release\n');
  };
  return line('locked').then((lockedAt) => ({ lockedAt, release, released }));
}
