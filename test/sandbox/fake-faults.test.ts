// The fake Discord's faults (src/sandbox/fake-faults.ts) and gateway drops, driven by a bare discord.js Client:
// a faulted request is answered as Discord answers it and not carried out, @discordjs/rest's retries then apply it
// once, faults are never counted as the bot's violations, and a dropped gateway resumes with the missed events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, Events, GatewayIntentBits, REST, RESTEvents, Routes, SlashCommandBuilder, type Interaction } from 'discord.js';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { FakeFaults, faultTargetOf } from '../../src/sandbox/fake-faults.js';
import { until } from '../helpers/until.js';

const commands = [
  new SlashCommandBuilder().setName('ping').setDescription('Answers pong'),
  new SlashCommandBuilder().setName('slow').setDescription('Defers, then edits'),
  new SlashCommandBuilder().setName('multi').setDescription('Replies and follows up'),
  new SlashCommandBuilder().setName('post').setDescription('Posts in the channel, then edits that message'),
].map((c) => c.toJSON());

/** What the client's handlers threw (after @discordjs/rest gave up). */
const botErrors: unknown[] = [];
/** Status of every response @discordjs/rest saw (retries included). */
const statuses: number[] = [];

async function handle(interaction: Interaction): Promise<void> {
  if (!interaction.isChatInputCommand()) return;
  switch (interaction.commandName) {
    case 'ping':
      await interaction.reply('pong');
      return;
    case 'slow':
      await interaction.deferReply();
      await interaction.editReply('done');
      return;
    case 'multi':
      await interaction.reply('first');
      await interaction.followUp('second');
      return;
    case 'post': {
      const channel = interaction.channel;
      if (!channel?.isSendable()) throw new Error('channel not sendable');
      await interaction.reply('posting');
      const posted = await channel.send('posted');
      await posted.edit('posted and edited');
      return;
    }
  }
}

function newClient(fake: FakeDiscord): Client {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.restApi } });
  // The client says when it is done with each interaction, as the sandbox's bot does: interact() waits for that.
  client.on(Events.InteractionCreate, (interaction) => {
    void handle(interaction)
      .catch((error: unknown) => botErrors.push(error))
      .finally(() => fake.interactionHandled(interaction.id));
  });
  client.rest.on(RESTEvents.Response, (_request, response) => void statuses.push(response.status));
  return client;
}

async function loggedIn(fake: FakeDiscord): Promise<Client> {
  await new REST({ api: fake.restApi }).setToken(fake.token).put(Routes.applicationGuildCommands(fake.applicationId, fake.guildId), { body: commands });
  const client = newClient(fake);
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(fake.token);
  await ready;
  return client;
}

describe('REST faults against a bare discord.js client', () => {
  const fake = new FakeDiscord({ botSaysWhenDone: true });
  let client: Client;

  beforeAll(async () => {
    await fake.start();
    client = await loggedIn(fake);
  });

  afterAll(async () => {
    await client?.destroy();
    await fake.stop();
  });

  beforeEach(() => {
    fake.faults.reset();
    fake.clearViolations();
    botErrors.length = 0;
    statuses.length = 0;
  });

  it('answers a 500 without carrying the request out; the retry is applied once', async () => {
    const rule = fake.faults.add({ target: 'callback', status: 500, times: 1 });
    const result = await fake.interact({ user: 'mike', command: 'ping' });
    expect(result.responses.map((r) => r.content)).toEqual(['pong']);
    expect(fake.messages().filter((m) => m.content === 'pong')).toHaveLength(1);
    expect(result.faults).toEqual([expect.stringMatching(/^POST \/api\/v10\/interactions\/\d+\/<token>\/callback: injected 500 Internal Server Error/)]);
    expect(result.errors).toEqual([]);
    expect(fake.violations).toEqual([]);
    expect(statuses).toEqual([500, 204]);
    expect(rule.fired).toBe(1);
    expect(fake.faults.stats).toMatchObject({ injected: 1, byStatus: { '500': 1 }, byTarget: { callback: 1 }, retriesSeen: 1 });
  });

  it('rate limits a callback with a 429 the client waits out, within the deadline', async () => {
    fake.faults.add({ target: 'callback', status: 429, retryAfterMs: 250, times: 1 });
    const result = await fake.interact({ user: 'mike', command: 'ping' });
    expect(result.responses.map((r) => r.content)).toEqual(['pong']);
    // The one duration here is a wait the client owes: it can only grow on a busy machine. "Within the deadline"
    // is Discord's 3 s rule, which the fake enforces as a violation (checked below).
    expect(result.firstResponseMs).toBeGreaterThanOrEqual(250);
    expect(result.errors).toEqual([]);
    expect(result.faults?.[0]).toMatch(/429 rate limited, retry after 250 ms/);
    expect(statuses).toEqual([429, 204]);
    expect(fake.violations).toEqual([]);
  });

  it('faults edits, follow-ups, channel posts and message edits, each applied once after the retry', async () => {
    fake.faults.add({ target: 'webhook-message', method: 'PATCH', status: 503, times: 1 });
    const slow = await fake.interact({ user: 'mike', command: 'slow' });
    expect(slow.responses.map((r) => r.kind)).toEqual(['deferred', 'edit']);
    expect(slow.responses[1]?.content).toBe('done');

    fake.faults.add({ target: 'followup', status: 429, retryAfterMs: 100, times: 1 });
    const multi = await fake.interact({ user: 'mike', command: 'multi' });
    expect(multi.responses.map((r) => r.content)).toEqual(['first', 'second']);
    expect(fake.messages().filter((m) => m.content === 'second')).toHaveLength(1);

    fake.faults.add({ target: 'channel-message', method: 'POST', status: 500, times: 2 });
    fake.faults.add({ target: 'channel-message', method: 'PATCH', status: 429, retryAfterMs: 100, times: 1 });
    const post = await fake.interact({ user: 'mike', command: 'post' });
    expect(post.responses.map((r) => `${r.kind} ${r.content}`)).toEqual(['reply posting', 'reply posted', 'edit posted and edited']);
    expect(fake.messages().filter((m) => m.content.startsWith('posted'))).toHaveLength(1);
    expect(fake.faults.stats).toMatchObject({ injected: 5, byStatus: { '503': 1, '429': 2, '500': 2 }, retriesSeen: 5 });
    expect(botErrors).toEqual([]);
    expect(fake.violations).toEqual([]);
  });

  it('lets a client that gives up after its retries fail cleanly, and resolves interact() with the faults', async () => {
    fake.faults.add({ target: 'callback', status: 500 });
    // The client says it is done once it gave up: interact() resolves with the faults, not "the bot did not answer".
    const result = await fake.interact({ user: 'mike', command: 'ping' });
    expect(result.responses).toEqual([]);
    expect(result.faults).toHaveLength(4); // the first try and @discordjs/rest's 3 retries
    expect(result.errors).toEqual([]);
    expect(botErrors).toHaveLength(1);
    expect(botErrors[0]).toMatchObject({ name: 'HTTPError', status: 500 });
    expect(fake.violations).toEqual([]);
    fake.faults.clear();
    expect((await fake.interact({ user: 'mike', command: 'ping' })).responses[0]?.content).toBe('pong');
  });

  it('answers 429s as Discord does: body, retry-after and the x-ratelimit headers', async () => {
    fake.faults.add({ target: 'other', path: '/users/@me', status: 429, retryAfterMs: 1500, times: 1 });
    const bucket = await fetch(`${fake.restApi}/v10/users/@me`, { headers: { authorization: `Bot ${fake.token}` } });
    expect(bucket.status).toBe(429);
    expect(await bucket.json()).toEqual({ message: 'You are being rate limited.', retry_after: 1.5, global: false });
    expect(bucket.headers.get('retry-after')).toBe('1.5');
    expect(bucket.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(bucket.headers.get('x-ratelimit-reset-after')).toBe('1.5');
    expect(bucket.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    expect(bucket.headers.get('x-ratelimit-scope')).toBe('user');
    expect(bucket.headers.get('x-ratelimit-global')).toBeNull();

    fake.faults.add({ path: '/users/@me', status: 429, retryAfterMs: 200, global: true, times: 1 });
    const global = await fetch(`${fake.restApi}/v10/users/@me`, { headers: { authorization: `Bot ${fake.token}` } });
    expect(global.status).toBe(429);
    expect(await global.json()).toEqual({ message: 'You are being rate limited.', retry_after: 0.2, global: true });
    expect(global.headers.get('x-ratelimit-global')).toBe('true');
    expect(global.headers.get('x-ratelimit-scope')).toBe('global');

    const fine = await fetch(`${fake.restApi}/v10/users/@me`, { headers: { authorization: `Bot ${fake.token}` } });
    expect(fine.status).toBe(200);
  });

  it('waits out a global 429 before any other request, then carries on', async () => {
    fake.faults.add({ target: 'channel-message', method: 'POST', status: 429, retryAfterMs: 200, global: true, times: 1 });
    const post = await fake.interact({ user: 'mike', command: 'post' });
    expect(post.responses.map((r) => r.content)).toEqual(['posting', 'posted', 'posted and edited']);
    expect(fake.violations).toEqual([]);
  });

  it('does not count a faulted callback as the acknowledgement: the deadline still runs from the interaction', async () => {
    const strict = new FakeDiscord({ interactionDeadlineMs: 200, botSaysWhenDone: true });
    await strict.start();
    const late = await loggedIn(strict);
    try {
      strict.faults.add({ target: 'callback', status: 429, retryAfterMs: 400, times: 1 });
      const result = await strict.interact({ user: 'mike', command: 'ping' });
      expect(result.responses).toEqual([]);
      expect(result.faults).toHaveLength(1);
      // The retry came after the deadline: that is Discord's 10062, as it would be on Discord.
      expect(result.errors[0]).toMatch(/Unknown interaction \(the callback came \d+ ms after the interaction; Discord allows 200 ms\)/);
    } finally {
      await late.destroy();
      await strict.stop();
    }
  });
});

describe('fault rules', () => {
  const request = (method: string, path: string) => ({ method, path });

  it('name what a request does', () => {
    expect(faultTargetOf('POST', '/interactions/1/<token>/callback')).toBe('callback');
    expect(faultTargetOf('POST', '/webhooks/1/<token>')).toBe('followup');
    expect(faultTargetOf('PATCH', '/webhooks/1/<token>/messages/@original')).toBe('webhook-message');
    expect(faultTargetOf('POST', '/channels/1/messages')).toBe('channel-message');
    expect(faultTargetOf('PATCH', '/channels/1/messages/2')).toBe('channel-message');
    expect(faultTargetOf('PUT', '/applications/1/guilds/2/commands')).toBe('commands');
    expect(faultTargetOf('GET', '/gateway/bot')).toBe('other');
  });

  it('pick requests by method, target and path; let `after` pass and stop after `times`', () => {
    const faults = new FakeFaults();
    const rule = faults.add({ method: 'PATCH', target: 'channel-message', path: /\/messages\/2$/, status: 502, after: 1, times: 2 });
    const decisions = [
      request('POST', '/channels/1/messages'),
      request('PATCH', '/channels/1/messages/3'),
      request('PATCH', '/channels/1/messages/2'),
      request('PATCH', '/channels/1/messages/2'),
      request('PATCH', '/channels/1/messages/2'),
      request('PATCH', '/channels/1/messages/2'),
    ].map((r) => faults.decide(r)?.answer.status ?? 200);
    expect(decisions).toEqual([200, 200, 200, 502, 502, 200]);
    expect(rule.matched).toBe(4);
    expect(rule.fired).toBe(2);
    rule.remove();
    expect(faults.active).toBe(0);
  });

  it('draw `probability` from a seeded generator: the same seed faults the same requests', () => {
    const run = (seed: string): boolean[] => {
      const faults = new FakeFaults(seed);
      faults.add({ status: 500, probability: 0.3 });
      return Array.from({ length: 200 }, (_, i) => faults.decide(request('POST', `/channels/1/messages/${i}`)) !== undefined);
    };
    const first = run('seed-a');
    expect(run('seed-a')).toEqual(first);
    expect(run('seed-b')).not.toEqual(first);
    const rate = first.filter(Boolean).length / first.length;
    expect(rate).toBeGreaterThan(0.2);
    expect(rate).toBeLessThan(0.4);
  });

  it('count retries: a repeat of a faulted request soon after', () => {
    const faults = new FakeFaults();
    faults.add({ status: 500, times: 1 });
    faults.decide(request('POST', '/channels/1/messages'));
    faults.decide(request('POST', '/channels/1/messages'));
    faults.decide(request('POST', '/channels/1/messages'));
    expect(faults.stats).toMatchObject({ injected: 1, retriesSeen: 1 });
    expect(faults.injected[0]).toMatchObject({ method: 'POST', target: 'channel-message', status: 500, rule: '500 any' });
  });

  it('refuse rules Discord could not answer', () => {
    const faults = new FakeFaults();
    expect(() => faults.add({ status: 404 })).toThrow(/429 or 500–599/);
    expect(() => faults.add({ status: 500, probability: 2 })).toThrow(/between 0 and 1/);
    expect(() => faults.add({ status: 500, target: 'everything' as never })).toThrow(/unknown fault target/);
  });
});

describe('gateway drops', () => {
  const fake = new FakeDiscord({ botSaysWhenDone: true });
  let client: Client;

  beforeAll(async () => {
    await fake.start();
    client = await loggedIn(fake);
  });

  afterAll(async () => {
    await client?.destroy();
    await fake.stop();
  });

  it('lets the client RESUME (not identify anew) and replays an interaction made while it was away', async () => {
    const before = { ...fake.gatewayCounts };
    expect(fake.dropGateway()).toBe(1);
    // The client is away now (it reconnects after ~0.5 s): this interaction waits in its session.
    const result = await fake.interact({ user: 'mike', command: 'ping' });
    expect(result.responses.map((r) => r.content)).toEqual(['pong']);
    expect(result.errors).toEqual([]);
    expect(result.firstResponseMs).toBeGreaterThan(100); // counted from its creation, not from the replay
    expect(fake.gatewayCounts).toMatchObject({ identifies: before.identifies, resumes: before.resumes + 1, drops: before.drops + 1 });
    expect(fake.gatewayCounts.replayed).toBeGreaterThanOrEqual(before.replayed + 1);
    expect((await fake.interact({ user: 'mike', command: 'ping' })).responses[0]?.content).toBe('pong');
    expect(fake.violations).toEqual([]);
  });

  it('resumes after a close with a resumable code too', async () => {
    const before = { ...fake.gatewayCounts };
    fake.dropGateway({ code: 4000 });
    await until(() => fake.gatewayCounts.resumes === before.resumes + 1, 'the client to resume');
    await fake.waitForGateway(5000);
    expect(fake.gatewayCounts).toMatchObject({ identifies: before.identifies, resumes: before.resumes + 1 });
    expect((await fake.interact({ user: 'mike', command: 'ping' })).responses[0]?.content).toBe('pong');
  });

  it('makes the client identify anew when the session is gone', async () => {
    const before = { ...fake.gatewayCounts };
    fake.dropGateway({ invalidateSession: true });
    await expect(fake.interact({ user: 'mike', command: 'ping' })).rejects.toThrow(/not connected/);
    // discord.js waits 1–5 s after an invalid session, and @discordjs/ws lets one IDENTIFY through per 5 s.
    await fake.waitForGateway(20_000);
    expect(fake.gatewayCounts).toMatchObject({ identifies: before.identifies + 1, invalidSessions: before.invalidSessions + 1 });
    expect((await fake.interact({ user: 'mike', command: 'ping' })).responses[0]?.content).toBe('pong');
    expect(fake.violations).toEqual([]);
  }, 30_000);

  it('ends the session of a client that says goodbye: nothing waits for it', async () => {
    const other = await loggedIn(fake);
    const goodbyes = fake.gatewayCounts.goodbyes;
    await other.destroy();
    await until(() => fake.gatewayCounts.goodbyes === goodbyes + 1, 'the fake to end the session of the client that said goodbye');
    // The first client is still here and gets the interaction.
    expect((await fake.interact({ user: 'mike', command: 'ping' })).responses[0]?.content).toBe('pong');
  });
});
