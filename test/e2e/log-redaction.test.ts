// Interaction tokens never reach the log: the real bot, with the logger `npm start` makes, against a fake Discord
// that fails its interaction callbacks and webhook edits until discord.js gives up, so the errors it logs carry the
// URLs (and request bodies) of those requests.
import { Writable } from 'node:stream';
import { Events } from 'discord.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const lines: string[] = [];
const tokens = new Set<string>();
let sandbox: TestSandbox;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line.trim()));
      done();
    },
  });
  sandbox = await startTestSandbox({ log: createLogger('debug', { pretty: false, destination: sink }) });
  sandbox.bot.client.on(Events.InteractionCreate, (interaction) => void tokens.add(interaction.token));
});

afterAll(async () => {
  await sandbox?.stop();
});

async function logged(message: string, count: number): Promise<void> {
  await until(() => lines.filter((line) => line.includes(`"msg":"${message}"`)).length >= count, () => `"${message}" logged ${count} times; the log:\n${lines.join('\n')}`);
}

it('logs failed Discord requests without the interaction tokens in their URLs', async () => {
  const { fake } = sandbox;
  // The first /roll dice defers while the dice library loads, then edits its answer in through the webhook.
  const edits = fake.faults.add({ target: 'webhook-message', status: 500 });
  await fake.interact({ user: 'mike', command: 'roll dice', options: { expression: '2d6' } });
  await logged('could not tell the user about a failure', 1);
  edits.remove();
  fake.faults.add({ target: 'callback', status: 500 });
  await fake.interact({ user: 'mike', command: 'roll dice', options: { expression: '3d6' } });
  await logged('could not tell the user about a failure', 2);

  expect(tokens.size).toBe(2);
  const failures = lines.filter((line) => line.includes('"msg":"interaction failed"'));
  expect(failures).toHaveLength(2);
  for (const token of tokens) {
    expect(lines.filter((line) => line.includes(token))).toEqual([]);
  }
  expect(failures[0]).toContain(`/webhooks/${fake.applicationId}/[REDACTED]/messages/`);
  expect(failures[1]).toMatch(/\/interactions\/\d+\/\[REDACTED\]\/callback/);
});

it('scrubs tokens from messages, token fields and any depth, and logs attached files by name and size', () => {
  const written: string[] = [];
  const logger = createLogger('info', { pretty: false, destination: { write: (line: string) => void written.push(line) } });
  const interactionToken = `aW50ZXJhY3Rpb246${'x'.repeat(80)}`;
  const botToken = `MTE4MDAwMDAwMDAwMDAwMDAwMQ.${'G'.repeat(6)}.${'s'.repeat(38)}`;
  const error = Object.assign(new Error(`bad token ${interactionToken}`), { requestBody: { files: [{ name: 'notes.txt', data: Buffer.alloc(5000) }], json: { content: 'hi' } } });
  logger.error({ err: error, nested: { discordToken: 'sandbox-token', header: `Bot ${botToken}` } }, `retrying with ${interactionToken}`);
  const line = written.join('');
  expect(line).not.toContain(interactionToken);
  expect(line).not.toContain(botToken);
  expect(line).not.toContain('sandbox-token');
  expect(JSON.parse(line)).toMatchObject({ err: { requestBody: { files: [{ name: 'notes.txt', bytes: 5000 }], json: { content: 'hi' } } }, nested: { discordToken: '[REDACTED]' } });
});

it("logs a failed NPC webhook post without the webhook's token; the NPC then speaks as the bot", async () => {
  const { fake } = sandbox;
  fake.faults.clear();
  const dispatcher = { user: 'dee', roles: ['dispatcher'] };
  await fake.interact({ ...dispatcher, command: 'npc create', options: { name: 'Thug' } });
  await fake.interact({ ...dispatcher, command: 'npc say', options: { npc: 'Thug', text: 'One.' } });
  const [webhook] = fake.webhooks(fake.channelId);
  expect(webhook).toBeDefined();

  // Discord failing the webhook's execute: discord.js gives up with an error whose URL holds the token.
  const failing = fake.faults.add({ target: 'followup', path: `/webhooks/${webhook!.id}/`, status: 500 });
  const said = await fake.interact({ ...dispatcher, command: 'npc say', options: { npc: 'Thug', text: 'Two.' } });
  expect(said.responses).toMatchObject([{ kind: 'reply', ephemeral: false, content: '🗣️ **Thug:** Two.' }]);
  failing.remove();
  await logged('an NPC could not speak through its webhook; it speaks as the bot', 1);

  // Deleted by someone: the 404 is logged as it is made anew, and the line posted through the new one.
  fake.deleteWebhook(webhook!.id);
  const again = await fake.interact({ ...dispatcher, command: 'npc say', options: { npc: 'Thug', text: 'Three.' } });
  expect(again.responses).toMatchObject([{ ephemeral: true, content: 'Posted in this channel as **Thug**.' }]);
  await logged("an NPC webhook was deleted; making the channel's anew", 1);

  const tokens = [webhook!.token, ...fake.webhooks().map((made) => made.token)];
  expect(tokens).toHaveLength(2);
  for (const token of tokens) expect(lines.filter((line) => line.includes(token))).toEqual([]);
  const failure = lines.find((line) => line.includes('an NPC could not speak through its webhook'))!;
  expect(JSON.parse(failure)).toMatchObject({ level: 40, npc: 'Thug', failure: { status: 500 } });
});
