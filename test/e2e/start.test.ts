// `npm start` with no token: the sandbox comes up on 127.0.0.1, migrates a new database file, answers the JSON
// API, and stops cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

it('starts the sandbox with no DISCORD_TOKEN, answers /api/interactions, and shuts down on SIGTERM', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-start-'));
  const databaseFile = path.join(folder, 'nested', 'bot.db');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..', '..'),
    env: { ...process.env, DISCORD_TOKEN: '', DATABASE_URL: `file:${databaseFile}`, SANDBOX_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "Sandbox ready" within 60 s; output:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Sandbox ready: (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${output}`)));
  });
  try {
    expect(fs.existsSync(databaseFile)).toBe(true);
    const post = (body: unknown) =>
      fetch(`${url}/api/interactions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        async (response) => ({ status: response.status, body: (await response.json()) as { responses: Array<{ content?: string }> } }),
      );
    const created = await post({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    expect(created.status).toBe(200);
    expect(created.body.responses[0]!.content).toContain('Created **Troy**');
    await post({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    await post({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    const rolls = (await (await fetch(`${url}/api/rolls?limit=5`)).json()) as { rolls: Array<{ kind: string; challengeLevel: number }> };
    expect(rolls.rolls).toMatchObject([{ kind: 'challenge', challengeLevel: 90 }]);
    const commands = (await (await fetch(`${url}/api/commands`)).json()) as { commands: Array<{ name: string }> };
    // Every command in the one list is registered (the list itself grows with each feature).
    const { commands: list } = await import('../../commands/index.js');
    expect(commands.commands.map((command) => command.name).sort()).toEqual(list.map((command) => command.data.name).sort());
  } finally {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    fs.rmSync(folder, { recursive: true, force: true });
  }
}, 90_000);
