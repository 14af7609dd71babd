// The REST proxy (`npm run proxy`, src/discord/rest-proxy.ts) between bots and the fake Discord, which enforces Discord's
// global limit here: the bot works through it as straight (slash lists, embeds, files, webhooks, channel posts), and
// callers that would send more than 50 requests a second together are held to 50; a global 429 one of them is
// given holds them all; a body is sent again whole after a 429; an upstream that cannot be reached answers 502.
import { REST } from '@discordjs/rest';
import { Routes } from 'discord.js';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBot, type RunningBot } from '../../src/bot.js';
import { startRestProxy, type RunningRestProxy } from '../../src/discord/rest-proxy.js';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { GLOBAL_REQUESTS_PER_SECOND } from '../../src/sandbox/fake-traffic.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { textOf } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
let fake: FakeDiscord;
let proxy: RunningRestProxy;

beforeAll(async () => {
  fake = new FakeDiscord({ enforceGlobalLimit: true, botSaysWhenDone: true });
  await fake.start();
  proxy = await startRestProxy({ host: '127.0.0.1', port: 0, discordApi: fake.restApi, logLevel: 'silent' }, log);
});

afterAll(async () => {
  await proxy?.stop();
  await fake?.stop();
});

afterEach(() => {
  fake.faults.reset();
  fake.clearViolations();
});

/** A caller of its own, as one bot process (one machine) is: its own REST queue, pointed at the proxy. */
function machine(shards: string): REST {
  return new REST({ api: proxy.url, userAgentAppendix: `shards/${shards}` }).setToken(fake.token);
}

describe('the bot through the REST proxy', () => {
  let bot: RunningBot;

  beforeAll(async () => {
    bot = await startBot({ token: fake.token, restApi: proxy.url, databaseUrl: freshDatabaseUrl(), log, migrate: false, welcome: false, onInteractionHandled: (id) => fake.interactionHandled(id) });
    await bot.commandsReady;
  });

  afterAll(async () => {
    await bot?.stop();
  });

  it('registers its slash list, answers with embeds, files and NPC webhooks, and posts in the channel, all through the proxy', async () => {
    expect(fake.commands().map((command) => (command as { name: string }).name)).toContain('roll');

    const rolled = await fake.interact({ user: 'mike', command: 'roll dice', options: { expression: '2d6' } });
    expect(rolled.errors).toEqual([]);
    expect(rolled.responses.map(textOf).join('\n')).toContain('🎲 2d6');

    const imported = await fake.interact({ user: 'mike', command: 'sheet import', options: { file: { filename: 'sheet.json', content: JSON.stringify({ name: 'Troy', skills: [{ name: 'Climbing', level: 30 }] }) } } });
    expect(imported.responses.map((response) => response.content ?? '').join(' ')).toContain('Imported');
    const exported = await fake.interact({ user: 'mike', command: 'sheet export' });
    expect(exported.errors).toEqual([]);
    expect(exported.responses.flatMap((response) => response.attachments ?? []).map((file) => file.content).join('')).toContain('Climbing');

    await fake.interact({ user: 'dee', roles: ['dispatcher'], command: 'npc create', options: { name: 'Thug' } });
    const npc = await fake.interact({ user: 'dee', roles: ['dispatcher'], command: 'roll challenge', options: { npc: 'Thug', skill: 'Brawling', level: 30, cl: 100 } });
    expect(npc.errors).toEqual([]);
    expect(fake.messages().some((message) => message.webhook?.username === 'Thug')).toBe(true);

    const dispatched = await fake.interact({ user: 'dee', roles: ['dispatcher'], command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', cl: 100, intent: 'climb the wall', outcome: 'on the roof' } });
    expect(dispatched.errors).toEqual([]);
    expect(fake.messages().some((message) => /climb the wall/.test(textOf(message)) && !message.interaction)).toBe(true);

    expect(fake.globalLimitHits).toEqual([]);
    expect(fake.violations).toEqual([]);
  });
});

describe('one global limit for every caller', () => {
  it('holds two callers together to 50 requests a second, where each alone would send them all at once', async () => {
    fake.traffic.reset();
    const [a, b] = [machine('0'), machine('1')];
    const requests = 2 * GLOBAL_REQUESTS_PER_SECOND + 20;
    const answers = await Promise.all(Array.from({ length: requests }, (_, i) => (i % 2 ? a : b).get(Routes.user('@me')) as Promise<{ id: string }>));
    expect(answers.every((user) => typeof user.id === 'string')).toBe(true);
    const summary = fake.traffic.summary();
    expect(summary.globalTotal).toBe(requests);
    expect(summary.peakPerSecond).toBeLessThanOrEqual(GLOBAL_REQUESTS_PER_SECOND);
    expect(proxy.stats.heldForGlobalLimit).toBeGreaterThan(0);
    expect(fake.globalLimitHits).toEqual([]);
    // The callers' own User-Agents reached the fake, so it still tells the shards apart behind the proxy.
    expect(new Set(fake.traffic.all().map((request) => request.shards?.join(',')))).toEqual(new Set(['0', '1']));
  });

  it('a global 429 given to one caller holds the other too: nothing counted reaches Discord until it ends', async () => {
    fake.traffic.reset();
    const [a, b] = [machine('0'), machine('1')];
    // proxyRequests passes the path on as the URL parser writes it: @ as %40.
    fake.faults.add({ method: 'GET', path: /^\/users\/(@|%40)me$/, status: 429, global: true, retryAfterMs: 1500, times: 1 });
    const first = a.get(Routes.user('@me'));
    await until(() => fake.faults.injected.length === 1, 'the global 429');
    const given = fake.faults.injected[0]!;
    // Other routes, other buckets: only the global limit holds these back.
    const routes = [Routes.channel(fake.channelId), Routes.guild(fake.guildId), Routes.guildChannels(fake.guildId), Routes.guildRoles(fake.guildId)] as const;
    const rest = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).get(routes[i % routes.length]!)));
    await first;
    expect(rest).toHaveLength(20);
    const during = fake.traffic.all((request) => request.global && request.at > given.at && request.at < given.at + given.retryAfterMs!);
    expect(during).toEqual([]);
    expect(fake.traffic.summary().globalTotal).toBe(22);
    expect(fake.globalLimitHits).toEqual([]);
    expect(fake.violations).toEqual([]);
  });

  it("drops a queued request whose caller gave up waiting, so the caller's own retry is not done twice", async () => {
    fake.traffic.reset();
    fake.faults.add({ method: 'GET', path: /^\/users\/(@|%40)me$/, status: 429, global: true, retryAfterMs: 1000, times: 1 });
    const before = proxy.stats.requests;
    const first = machine('0').get(Routes.user('@me'));
    await until(() => fake.faults.injected.length === 1, 'the global 429');
    const gaveUp = new AbortController();
    const abandoned = fetch(`${proxy.url}/v10/channels/${fake.channelId}`, { headers: { authorization: `Bot ${fake.token}` }, signal: gaveUp.signal }).catch((error: unknown) => error);
    await until(() => proxy.stats.requests === before + 2, 'the second request queued at the proxy');
    gaveUp.abort();
    await abandoned;
    await first;
    await machine('1').get(Routes.guild(fake.guildId));
    expect(fake.traffic.all((request) => request.path.startsWith('/channels/'))).toEqual([]);
    expect(fake.traffic.all((request) => request.path.startsWith('/guilds/'))).toHaveLength(1);
  });

  it('sends a body again whole when Discord answered 429 or 500 first, a file too', async () => {
    const a = machine('0');
    fake.faults.add({ method: 'POST', target: 'channel-message', status: 429, retryAfterMs: 100, times: 1 });
    fake.faults.add({ method: 'POST', target: 'channel-message', status: 500, times: 1 });
    const posted = (await a.post(Routes.channelMessages(fake.channelId), { body: { content: 'through twice' }, files: [{ name: 'notes.txt', data: Buffer.from('kept whole') }] })) as { id: string };
    expect(fake.faults.stats.injected).toBe(2);
    const message = fake.message(posted.id)!;
    expect(message.content).toBe('through twice');
    expect(message.attachments?.map((file) => file.content)).toEqual(['kept whole']);
    expect(fake.violations).toEqual([]);
  });
});

describe('the proxy when Discord cannot be reached', () => {
  it('answers 502, so the bot sees a failure rather than an empty success', async () => {
    const closed = new FakeDiscord();
    await closed.start();
    const upstream = closed.restApi;
    await closed.stop();
    const lost = await startRestProxy({ host: '127.0.0.1', port: 0, discordApi: upstream, logLevel: 'silent' }, log);
    try {
      const response = await fetch(`${lost.url}/v10/users/@me`, { headers: { authorization: `Bot ${fake.token}` } });
      expect(response.status).toBe(502);
    } finally {
      await lost.stop();
    }
  });
});
