// The sandbox's server answers its own page and the bot, not other web pages: a foreign Host (DNS rebinding) or
// Origin (a cross-site page) is refused, and a POST to the sandbox API must be JSON, so no page can act as a user.
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const createTroy = JSON.stringify({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });

function request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: sandbox.fake.port, method, path, headers: { host: `127.0.0.1:${sandbox.fake.port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

it('refuses a foreign Host, a foreign Origin and a non-JSON POST, and none of them acts as a user', async () => {
  const port = sandbox.fake.port;
  const json = { 'content-type': 'application/json' };
  const rebound = await request('POST', '/api/interactions', { ...json, host: `attacker.example:${port}` }, createTroy);
  expect(rebound).toEqual({ status: 403, body: JSON.stringify({ error: `the sandbox answers requests to http://127.0.0.1:${port} only, not to "attacker.example:${port}"` }) });
  const crossSite = await request('POST', '/api/interactions', { ...json, origin: 'https://attacker.example' }, createTroy);
  expect(crossSite).toEqual({ status: 403, body: JSON.stringify({ error: 'the sandbox answers its own page only, not one from the origin "https://attacker.example"' }) });
  const plain = await request('POST', '/api/interactions', { 'content-type': 'text/plain' }, createTroy);
  expect(plain).toEqual({ status: 415, body: JSON.stringify({ error: 'POST /api/interactions takes a JSON body: send it with "content-type: application/json" (not "text/plain")' }) });
  expect((await request('GET', '/api/messages', { host: `attacker.example:${port}` })).status).toBe(403);
  expect((await request('GET', '/api/v10/gateway/bot', { host: `127.0.0.1:${port + 1}`, authorization: `Bot ${sandbox.fake.token}` })).status).toBe(403);

  expect(sandbox.fake.messages(undefined, { includeEphemeral: true })).toEqual([]);
  const created = await request('POST', '/api/interactions', { ...json, origin: `http://127.0.0.1:${port}` }, createTroy);
  expect(created.status).toBe(200);
  expect(created.body).toContain('Created **Troy**');
});

it('answers its own page at 127.0.0.1 and localhost', async () => {
  const port = sandbox.fake.port;
  expect((await request('GET', '/api/server', { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
  expect((await request('GET', '/page.css', { host: `LOCALHOST:${port}` })).status).toBe(200);
});

it('refuses a gateway WebSocket opened by another origin', async () => {
  const url = `ws://127.0.0.1:${sandbox.fake.port}/gateway?v=10&encoding=json`;
  const status = (origin: string) =>
    new Promise<number>((resolve) => {
      const socket = new WebSocket(url, { origin });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => {
        socket.close();
        resolve(101);
      });
    });
  expect(await status('https://attacker.example')).toBe(403);
  expect(await status(`http://127.0.0.1:${sandbox.fake.port}`)).toBe(101);
});
