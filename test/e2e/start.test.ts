// `npm start` with no token: the sandbox comes up on 127.0.0.1, migrates a new database file, answers the JSON
// API, and stops cleanly on SIGTERM. With a configuration meant for Discord but no usable token, it does not start.
// Each start runs `npm start`'s own command (package.json: src/start.mjs, which bundles the sources when they changed;
// test/helpers/npm-start.ts).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { spawnNpmStart, startUntilExit } from '../helpers/npm-start.js';

it('starts the sandbox with no DISCORD_TOKEN, answers /api/interactions, and shuts down on SIGTERM', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-start-'));
  const databaseFile = path.join(folder, 'nested', 'bot.db');
  const child = spawnNpmStart({ DATABASE_URL: `file:${databaseFile}` });
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
    // The sandbox's bot logs in too, but not to Discord: a log saying so would mislead whoever checks where it runs.
    expect(output).toContain('logged in to the Discord API at http://127.0.0.1:');
    expect(output).not.toContain('logged in to Discord');
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

it.each([
  [{ DISCORD_TOKEN: '', DISCORD_APPLICATION_ID: '1180000000000000001' }, 'Configuration error: DISCORD_TOKEN is empty, but DISCORD_APPLICATION_ID is set'],
  [{ DISCORD_TOKNE: 'a-token', DISCORD_GUILD_ID: '1180000000000000002' }, 'Configuration error: DISCORD_TOKNE is set, but the bot reads DISCORD_TOKEN: rename it to DISCORD_TOKEN'],
  [{ DATABASE_URL: 'file:{folder}/bot.db?mode=ro' }, 'Configuration error: DATABASE_URL asks for a read-only database'],
])('refuses to start with %o, saying why, and touches no database', async (variables, message) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-refuse-'));
  const given = Object.entries(variables).map(([name, value]) => [name, value.replace('{folder}', folder)]);
  const { output, exitCode } = await startUntilExit({ DATABASE_URL: `file:${folder}/bot.db`, ...Object.fromEntries(given) });
  try {
    expect(output).toContain(message);
    expect(output).not.toContain('Sandbox ready');
    expect(exitCode).toBe(1);
    expect(fs.readdirSync(folder)).toEqual([]);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);

it('with the sandbox port taken, says so and names SANDBOX_PORT, with no stack or JSON, and exits 1', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-port-'));
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    const { output, exitCode } = await startUntilExit({ DATABASE_URL: `file:${folder}/bot.db`, SANDBOX_PORT: String(port) });
    expect(output).toContain(`Configuration error: port ${port} on 127.0.0.1 is already in use`);
    expect(output).toContain('SANDBOX_PORT');
    expect(output).not.toMatch(/"level"|EADDRINUSE|\n\s+at /);
    expect(output).not.toContain('Sandbox ready');
    expect(exitCode).toBe(1);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
    fs.rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);
