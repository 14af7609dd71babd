// `npm run proxy` (src/rest-proxy.ts run as its own process): it says where it listens and where it sends, passes
// requests on, stops cleanly on SIGTERM, and a bad setting or a port it cannot take is a `Configuration error:` and
// exit 1, as the bot's start is.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { ChildBot } from '../helpers/child-bot.js';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The script run to its end: its exit code and what it printed on stderr. */
function runToEnd(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/rest-proxy.ts'], { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('npm run proxy', () => {
  it('listens, passes requests on to DISCORD_API, and stops on SIGTERM with exit 0', async () => {
    const fake = new FakeDiscord();
    await fake.start();
    cleanups.push(() => fake.stop());
    const proxy = await ChildBot.spawn({
      entry: 'src/rest-proxy.ts',
      env: { DISCORD_API: fake.restApi, REST_PROXY_PORT: '0', LOG_LEVEL: 'info' },
      readyWhen: (line) => /^REST proxy listening on/.test(line.msg ?? ''),
    });
    cleanups.push(() => proxy.kill('SIGKILL'));
    const started = proxy.logs.find((line) => /^REST proxy listening on/.test(line.msg ?? ''))!.msg!;
    expect(started).toMatch(new RegExp(`^REST proxy listening on http://127\\.0\\.0\\.1:\\d+/api, sending to ${fake.restApi.replace(/\./g, '\\.')}$`));
    const url = /on (http:\/\/\S+),/.exec(started)![1]!;

    const response = await fetch(`${url}/v10/users/@me`, { headers: { authorization: `Bot ${fake.token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(fake.applicationId);

    expect(await proxy.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(proxy.logs.some((line) => line.msg === 'REST proxy stopped')).toBe(true);
  });

  it('refuses a bad port with a Configuration error and exit 1', async () => {
    const { code, stderr } = await runToEnd({ REST_PROXY_PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stderr).toContain('Configuration error: REST_PROXY_PORT must be a port number from 0 to 65535 (0 picks a free one), not "eighty".');
  });

  it('says what to set when its port is taken', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => taken.close(resolve)));
    const { code, stderr } = await runToEnd({ REST_PROXY_PORT: String((taken.address() as AddressInfo).port) });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Configuration error: the REST proxy cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)\. Set REST_PROXY_HOST and REST_PROXY_PORT/m);
  });
});
