// The fake Discord checks every request body against Discord's own API spec (src/sandbox/discord-spec.ts): a body
// the spec rejects is a violation naming the path and what is wrong, answered 400 as Discord answers, and it fails
// the test that caused it (test/helpers/discord-spec-check.ts) even when the test looks at nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, takeSpecViolations } from '../../src/sandbox/fake-discord.js';
import { checkBodyAgainstSpec, specOperationOf } from '../../src/sandbox/discord-spec.js';

const CALLBACK = specOperationOf('POST', '/interactions/1/token/callback')!;
const CHANNEL_MESSAGE = specOperationOf('POST', '/channels/1/messages')!;
const issuesOf = (operation: string, body: unknown): string[] =>
  checkBodyAgainstSpec(operation, body).issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe("a body Discord's API spec rejects", () => {
  const fake = new FakeDiscord();
  const post = (path: string, body: unknown) =>
    fetch(`${fake.restApi}/v10${path}`, { method: 'POST', headers: { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('is refused with 400 / 50035 and logged as a violation with its path and what is wrong there', async () => {
    const button = { type: 2, style: 9, label: 'Roll', custom_id: 'roll:1' };
    const answer = await post(`/channels/${fake.channelId}/messages`, { content: 'Roll?', components: [{ type: 1, components: [button] }] });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 50035, errors: { components: { 0: { components: { 0: { style: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] } } } } } } });
    expect(fake.violations).toEqual([
      expect.stringMatching(/^POST \/api\/v10\/channels\/\d+\/messages: the body does not match Discord's API spec \(discord-api-spec [\d.]+, MessageCreateRequest\): components\[0\]\.components\[0\]\.style: Must be one of 1, 2, 3, 4, 5, 6 \(got 9\)$/),
    ]);
    expect(fake.messages()).toEqual([]);
    // What the suites' setup file would fail this test with; taken here, as the violation was sent on purpose.
    expect(takeSpecViolations()).toEqual(fake.violations);
    fake.clearViolations();
  });

  it('names a field of the wrong type, which the fake\'s own limits let through', async () => {
    const answer = await post(`/channels/${fake.channelId}/messages`, { embeds: [{ title: 42, description: 'A title must be text' }] });
    expect(answer.status).toBe(400);
    expect(fake.violations).toEqual([expect.stringMatching(/embeds\[0\]\.title: Must be a string \(got 42\)$/)]);
    fake.clearViolations();
    expect(takeSpecViolations()).toEqual([]);
  });

  it('lets a body the spec accepts through, and a new file whose attachment id is a number (Discord\'s documented form)', async () => {
    const answer = await post(`/channels/${fake.channelId}/messages`, {
      content: 'Roll?',
      attachments: [{ id: 0, filename: 'sheet.json' }],
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Roll', custom_id: 'roll:1' }] }],
    });
    expect(answer.status).toBe(200);
    expect(fake.violations).toEqual([]);
  });
});

describe('in the sandbox', () => {
  const logged: Array<{ text: string; spec: boolean }> = [];
  const fake = new FakeDiscord({ onViolation: (text, spec) => logged.push({ text, spec }) });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('a spec violation is handed to the log and sent to the page on its live feed', async () => {
    const abort = new AbortController();
    const feed = await fetch(`${fake.url}/api/events`, { signal: abort.signal });
    const reader = (feed.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const nextViolation = async (): Promise<{ text: string; spec: boolean }> => {
      for (;;) {
        const found = /event: violation\ndata: (.+)\n\n/.exec(text);
        if (found) return JSON.parse(found[1]!) as { text: string; spec: boolean };
        const { value, done } = await reader.read();
        if (done) throw new Error('the feed ended');
        text += decoder.decode(value, { stream: true });
      }
    };
    try {
      await fetch(`${fake.restApi}/v10/channels/${fake.channelId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hi', allowed_mentions: { parse: ['everybody'] } }),
      });
      const shown = await nextViolation();
      expect(shown).toEqual({ text: expect.stringMatching(/allowed_mentions\.parse\[0\]: Must be one of "users", "roles", "everyone"/), spec: true });
      expect(logged).toEqual([shown]);
    } finally {
      abort.abort();
    }
    fake.clearViolations();
  });
});

describe('the spec check of each kind of body the bot sends', () => {
  it('checks a reply, an update and its components', () => {
    expect(issuesOf(CALLBACK, { type: 4, data: { content: 'hi', flags: 64 } })).toEqual([]);
    expect(issuesOf(CALLBACK, { type: 7, data: { components: [{ type: 1, components: [{ type: 2, style: 1, label: 'x', custom_id: 'a', disabled: 'no' }] }] } })).toEqual([
      'data.components.0.components.0.disabled: Must be a boolean (got "no").',
    ]);
    expect(issuesOf(CALLBACK, { type: 4, data: { embeds: [{ fields: [{ name: 'a' }] }] } })).toEqual(['data.embeds.0.fields.0.value: This field is required.']);
  });

  it('checks a modal with labels and selects', () => {
    const select = { type: 3, custom_id: 'skill', options: [{ label: 'Climbing', value: 'climbing' }] };
    expect(issuesOf(CALLBACK, { type: 9, data: { custom_id: 'form', title: 'Skill', components: [{ type: 18, label: 'Skill', component: select }] } })).toEqual([]);
    expect(issuesOf(CALLBACK, { type: 9, data: { custom_id: 'form', title: 'Skill', components: [{ type: 18, label: 'Skill', description: '', component: select }] } })).toEqual([
      'data.components.0.description: Must be at least 1 characters long (got 0 characters).',
    ]);
    // A button cannot sit in a label.
    expect(issuesOf(CALLBACK, { type: 9, data: { custom_id: 'form', title: 'Skill', components: [{ type: 18, label: 'Skill', component: { type: 2, style: 1, label: 'x', custom_id: 'b' } }] } })).toEqual([
      expect.stringMatching(/^data\.components\.0\.component: Fits none of the spec's \d+ shapes here/),
    ]);
  });

  it('checks autocomplete choices', () => {
    expect(issuesOf(CALLBACK, { type: 8, data: { choices: [{ name: 'Climbing', value: 'climbing' }] } })).toEqual([]);
    expect(issuesOf(CALLBACK, { type: 8, data: { choices: [{ name: 'c'.repeat(101), value: 'climbing' }] } })).toEqual([
      'data.choices.0.name: Must be at most 100 characters long (got 101 characters).',
    ]);
  });

  it('checks a bulk overwrite of commands item by item', () => {
    const operation = specOperationOf('PUT', '/applications/1/guilds/2/commands')!;
    expect(issuesOf(operation, [{ name: 'roll', description: 'Roll dice', options: [{ type: 3, name: 'skill', description: 'A skill' }] }])).toEqual([]);
    expect(issuesOf(operation, [{ name: 'roll', description: 'Roll dice' }, { name: 'log', description: 7 }])).toEqual(['1.description: Must be a string (got 7).']);
  });

  it('finds the spec operation of each route, a literal segment before a parameter', () => {
    expect(specOperationOf('PATCH', '/webhooks/1/token/messages/@original')).toBe('patch /webhooks/{webhook_id}/{webhook_token}/messages/@original');
    expect(specOperationOf('PATCH', '/webhooks/1/token/messages/123')).toBe('patch /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}');
    expect(CHANNEL_MESSAGE).toBe('post /channels/{channel_id}/messages');
    expect(specOperationOf('GET', '/guilds/1/no-such-thing')).toBeUndefined();
  });
});
