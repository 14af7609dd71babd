// `npm start` as a user runs it, in its own process: `npm start`'s own command (package.json: src/start.mjs, which
// bundles the sources when they changed) with this test's Node, on the sandbox's port 0 and no Discord settings.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { expect } from 'vitest';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');
// Blank, not absent: the bot also reads a developer's .env, which must not decide these tests.
const NO_DISCORD = { DISCORD_TOKEN: '', DISCORD_APPLICATION_ID: '', DISCORD_GUILD_ID: '', DISCORD_API: '' };

/** `npm start`'s Node arguments (its options and entry), read from package.json; Node itself is this test's. */
function npmStart(): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [node, ...args] = scripts.start.split(' ');
  expect(node).toBe('node');
  return args;
}

/**
 * Starts `npm start`'s command with this process's environment, no Discord settings, the sandbox on a free port and
 * LOG_LEVEL info, then `variables` (DATABASE_URL at least) over them.
 */
export function spawnNpmStart(variables: Record<string, string>): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, npmStart(), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...NO_DISCORD, SANDBOX_PORT: '0', LOG_LEVEL: 'info', ...variables },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * For a start that must be refused: runs `npm start`'s command (as spawnNpmStart) until it exits, and returns all it
 * printed (stdout and stderr) and its exit code. Should it start anyway ("Sandbox ready"), it is stopped (SIGTERM)
 * rather than left to the test's time limit; the test sees that in the output.
 */
export async function startUntilExit(variables: Record<string, string>): Promise<{ output: string; exitCode: number | null }> {
  const child = spawnNpmStart(variables);
  let output = '';
  const exitCode = await new Promise<number | null>((resolve) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Sandbox ready')) child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => resolve(code));
  });
  return { output, exitCode };
}
