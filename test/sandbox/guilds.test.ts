// Several servers at once: a request's `guild` puts the user in another guild of the fake Discord, which the real
// bot sees as Discord would show it (announced with GUILD_CREATE, its own channel, roles and members).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Interaction } from 'discord.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

/** The default guild's ids, as stored by every earlier run and test: they must never change. */
const SANDBOX_SERVER = {
  id: '882957638238003140',
  channelId: '482873661047923206',
  dispatcherRoleId: '739573859415379979',
};

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await startTestSandbox({ seeds: Array.from({ length: 20 }, (_, index) => `guilds-${index}`) });
});
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

/** The first event of a live feed: its channel's messages. */
async function snapshotOf(path: string): Promise<unknown[]> {
  const controller = new AbortController();
  const res = await fetch(`${sandbox.fake.url}${path}`, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const snapshot = /event: snapshot\ndata: (.*)\n\n/.exec(text);
      if (snapshot) return (JSON.parse(snapshot[1]!) as { messages: unknown[] }).messages;
      const { value, done } = await reader.read();
      if (done) throw new Error(`the feed ended before its snapshot: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    controller.abort();
  }
}

/** The guild ids of the interactions the bot receives from now on. */
function guildIdsSeen(): string[] {
  const seen: string[] = [];
  sandbox.bot.client.on('interactionCreate', (interaction: Interaction) => seen.push(interaction.guildId ?? 'none'));
  return seen;
}

describe('the default guild', () => {
  it('keeps its ids, and a request without `guild` acts there', async () => {
    const fake = sandbox.fake;
    expect(fake.guild()).toEqual({ id: SANDBOX_SERVER.id, name: 'Sandbox Server', channelId: SANDBOX_SERVER.channelId, channelName: 'table' });
    expect(fake.guildId).toBe(SANDBOX_SERVER.id);
    expect(fake.channelId).toBe(SANDBOX_SERVER.channelId);
    expect(fake.role('Dispatcher').id).toBe(SANDBOX_SERVER.dispatcherRoleId);
    expect(fake.guild('sandbox server').id).toBe(SANDBOX_SERVER.id);
    const seen = guildIdsSeen();
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    expect(seen).toEqual([SANDBOX_SERVER.id]);
  });
});

describe('a second guild', () => {
  it('is a different server to the bot: a sheet made there is not listed in the default guild', async () => {
    const seen = guildIdsSeen();
    await sandbox.one({ user: 'mike', guild: 'Other', command: 'sheet create', options: { name: 'Troy' } });
    const here = await sandbox.one({ user: 'mike', command: 'sheet list' });
    const there = await sandbox.one({ user: 'mike', guild: 'other', command: 'sheet list' });
    expect(textOf(here)).not.toContain('Troy');
    expect(textOf(there)).toContain('Troy');

    const other = sandbox.fake.guild('Other');
    expect(other.id).not.toBe(SANDBOX_SERVER.id);
    expect(other.channelId).not.toBe(SANDBOX_SERVER.channelId);
    expect(seen).toEqual([other.id, SANDBOX_SERVER.id, other.id]);
    expect(sandbox.fake.guilds().map((g) => g.name)).toEqual(['Sandbox Server', 'Other']);
  });

  it('was announced to the bot with its channel and roles, and the same user is the same user there', async () => {
    await sandbox.one({ user: 'mike', guild: 'Other', roles: ['Scout'], command: 'sheet list' });
    const other = sandbox.fake.guild('Other');
    const guild = sandbox.bot.client.guilds.cache.get(other.id)!;
    expect(guild.name).toBe('Other');
    expect(guild.channels.cache.get(other.channelId)?.name).toBe('table');
    const roleNames = guild.roles.cache.map((role) => role.name).sort();
    expect(roleNames).toEqual(['@everyone', 'Dispatcher', 'Scout', 'Tac Talk Bot']);
    expect(guild.roles.everyone.id).toBe(other.id);
    const dispatcher = guild.roles.cache.find((role) => role.name === 'Dispatcher')!;
    expect(dispatcher.id).not.toBe(SANDBOX_SERVER.dispatcherRoleId);
    expect(sandbox.fake.role('Dispatcher', 'Other').id).toBe(dispatcher.id);
    // A role a request names exists only in its guild.
    const home = sandbox.bot.client.guilds.cache.get(SANDBOX_SERVER.id)!;
    expect(home.roles.cache.some((role) => role.name === 'Scout')).toBe(false);
    const mike = sandbox.fake.user('mike').id;
    expect(guild.members.cache.get(mike)?.roles.cache.map((role) => role.name)).toContain('Scout');
    // Through the REST API too; an id no guild has is still unknown.
    const roles = (await sandbox.bot.client.rest.get(`/guilds/${other.id}/roles`)) as Array<{ name: string }>;
    expect(roles.map((role) => role.name).sort()).toEqual(roleNames);
    await expect(sandbox.bot.client.rest.get('/guilds/123456789012345678/roles')).rejects.toThrow(/Unknown Guild/);
    await expect(sandbox.bot.client.rest.get('/channels/123456789012345678/messages')).rejects.toThrow(/Unknown Channel/);
    // Those two 404s were asked for on purpose.
    sandbox.fake.clearViolations();
  });

  it('honours its own Dispatcher role, and the bot posts the request in its own channel', async () => {
    await sandbox.one({ user: 'mike', guild: 'Other', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox.one({ user: 'mike', guild: 'Other', command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
    const ask = { command: 'dispatch challenge', options: { intent: 'climb the wall', outcome: 'on the roof', player: 'mike', skill: 'Driving', cl: 50 } };

    const refused = await sandbox.one({ user: 'dee', guild: 'Other', ...ask });
    expect(refused.content).toContain('Only a Dispatcher');
    // The role in the default guild is no Dispatcher role in Other.
    await sandbox.one({ user: 'dee', roles: ['Dispatcher'], command: 'sheet list' });
    expect((await sandbox.one({ user: 'dee', guild: 'Other', ...ask })).content).toContain('Only a Dispatcher');

    const asked = await sandbox.act({ user: 'dee', guild: 'Other', roles: ['Dispatcher'], ...ask });
    const post = asked.responses.find((response) => !response.ephemeral)!;
    expect(textOf(post)).toContain('**Driving**');
    const other = sandbox.fake.guild('Other');
    const inOther = sandbox.fake.messages(other.channelId);
    expect(inOther.map((message) => message.id)).toEqual([post.messageId]);
    expect(inOther[0]!.channelId).toBe(other.channelId);
    expect(sandbox.fake.messages()).toEqual([]);

    // The button is pressed where its message is: no `guild` needed, and naming another one is a mistake.
    const id = /#(\d+)/.exec(textOf(post))![1];
    await expect(sandbox.fake.interact({ user: 'mike', guild: 'Sandbox Server', button: `dispatch:roll:${id}`, message: post.messageId! })).rejects.toThrow(
      /is in the guild "Other"/,
    );
    // The request's update (a short notice of the result follows it in the channel).
    const rolled = (await sandbox.act({ user: 'mike', button: `dispatch:roll:${id}`, message: post.messageId! })).responses[0]!;
    expect(rolled.kind).toBe('update');
    expect(textOf(rolled)).toContain('Driving');
  });

  it('plays a contest in its own channel; a modal is submitted in the guild where the bot opened it', async () => {
    for (const [user, name] of [['sasha', 'Kat'], ['mike', 'Troy']] as const) {
      await sandbox.one({ user, guild: 'Other', command: 'sheet create', options: { name } });
      await sandbox.one({ user, guild: 'Other', command: 'sheet skill set', options: { name: 'CQC', level: 40 } });
    }
    const opening = await sandbox.one({
      user: 'sasha',
      guild: 'Other',
      command: 'contest start',
      options: { opponent: 'mike', intent: 'Kat disarms Troy', stakes: 'Troy is disarmed', skill: 'CQC', role: 'attacker' },
    });
    const message = opening.messageId!;
    const id = /Contest #(\d+)/.exec(textOf(opening))![1];
    const other = sandbox.fake.guild('Other');
    expect(sandbox.fake.message(message)?.channelId).toBe(other.channelId);
    expect(sandbox.fake.messages()).toEqual([]);

    const form = await sandbox.one({ user: 'mike', button: `contest:accept:${id}`, message });
    expect(form.kind).toBe('modal');
    const seen = guildIdsSeen();
    const fields = { stakes: 'Kat is thrown out', role: 'defender', skill: 'CQC', archetypes: '' };
    const [countered, prompt] = (await sandbox.act({ user: 'mike', modal: `contest:acceptform:${id}`, fields, message })).responses;
    expect(textOf(countered!)).toContain('Kat is thrown out');
    // Without `message` nor `guild`, the submit still happens where the modal was opened.
    await sandbox.fake.interact({ user: 'mike', modal: `contest:acceptform:${id}`, fields: { ...fields, stakes: 'again' } }).catch(() => undefined);
    expect(seen).toEqual([other.id, other.id]);
    // The contest message and the prompt pinging Kat's player, both in the other guild's channel.
    expect(sandbox.fake.messages(other.channelId).map((m) => m.id)).toEqual([message, prompt!.messageId]);
    expect(sandbox.fake.messages()).toEqual([]);
  });

  it('is listed by the JSON API, which takes `guild` for interactions and messages', async () => {
    const post = async (body: unknown) => {
      const res = await fetch(`${sandbox.fake.url}/api/interactions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { error?: string } };
    };
    const before = (await (await fetch(`${sandbox.fake.url}/api/messages?guild=Other`)).json()) as { messages: unknown[] };
    expect(before.messages).toEqual([]);
    expect(sandbox.fake.guilds()).toHaveLength(1); // looking does not create the guild

    await post({ user: 'mike', guild: 'Other', command: 'sheet create', options: { name: 'Troy' } });
    await post({ user: 'mike', guild: 'Other', command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
    const asked = await post({ user: 'dee', guild: 'Other', roles: ['dispatcher'], command: 'dispatch challenge', options: { intent: 'climb the wall', outcome: 'on the roof', player: 'mike', skill: 'Driving', cl: 50 } });
    expect(asked.status).toBe(200);
    const other = (await (await fetch(`${sandbox.fake.url}/api/messages?guild=other`)).json()) as { messages: Array<{ channelId: string }> };
    const home = (await (await fetch(`${sandbox.fake.url}/api/messages`)).json()) as { messages: unknown[] };
    expect(other.messages).toHaveLength(1);
    expect(other.messages[0]!.channelId).toBe(sandbox.fake.guild('Other').channelId);
    expect(home.messages).toEqual([]);
    expect(await snapshotOf('/api/events?guild=Other')).toEqual(other.messages);
    expect(await snapshotOf('/api/events')).toEqual([]);

    const server = (await (await fetch(`${sandbox.fake.url}/api/server`)).json()) as { guild: { id: string }; guilds: Array<{ name: string; channel: { name: string } }> };
    expect(server.guild.id).toBe(SANDBOX_SERVER.id);
    expect(server.guilds.map((g) => `${g.name} #${g.channel.name}`)).toEqual(['Sandbox Server #table', 'Other #table']);
    const otherServer = (await (await fetch(`${sandbox.fake.url}/api/server?guild=Other`)).json()) as { guild: { name: string }; roles: Array<{ name: string }> };
    expect(otherServer.guild.name).toBe('Other');
    expect(otherServer.roles.map((r) => r.name)).toEqual(['Dispatcher']);

    expect((await post({ user: 'mike', guild: '', command: 'sheet list' })).body.error).toContain('"guild"');
    expect((await post({ user: 'mike', guild: '123456789012345678', command: 'sheet list' })).body.error).toContain('unknown guild id');
    expect((await post({ user: 'mike', guild: 'Other', channel: SANDBOX_SERVER.channelId, command: 'sheet list' })).body.error).toContain('unknown channel');
  });

  it('made while the bot is away reaches it on RESUME; after a new IDENTIFY, READY lists every guild', async () => {
    await sandbox.one({ user: 'mike', guild: 'Other', command: 'sheet list' });
    sandbox.fake.dropGateway();
    const later = sandbox.fake.guild('Later');
    await sandbox.fake.waitForGateway();
    await sandbox.one({ user: 'mike', guild: 'Later', command: 'sheet list' });
    expect(sandbox.fake.gatewayCounts.resumes).toBe(1);
    expect(sandbox.bot.client.guilds.cache.get(later.id)?.channels.cache.has(later.channelId)).toBe(true);

    const bot = await sandbox.restartBot();
    expect([...bot.client.guilds.cache.keys()].sort()).toEqual(sandbox.fake.guilds().map((g) => g.id).sort());
    const there = await sandbox.one({ user: 'mike', guild: 'Later', command: 'sheet list' });
    expect(there.ephemeral).toBe(true);
  });
});
