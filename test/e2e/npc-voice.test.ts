// NPCs speak as themselves (issue 25 §3): /npc say and rolls made for an NPC are posted through the channel's webhook
// under the NPC's name and picture, through the real bot and the fake Discord (whose webhook routes are checked
// against Discord's spec); without Manage Webhooks they are the bot's messages, naming the NPC, as before.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import type { FakeMessage } from '../../src/sandbox/types.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await startTestSandbox({ seeds: ['voice-seed-a', 'voice-seed-b', 'voice-seed-c'] });
});
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

const NO_PINGS = { parse: [] };
const THUG_PICTURE = 'https://example.com/npcs/thug.png';

function asDispatcher(request: Omit<SandboxInteractionRequest, 'user'>): Promise<SandboxResponse> {
  return sandbox.one({ user: 'dee', roles: ['dispatcher'], ...request });
}

async function thug(): Promise<void> {
  await asDispatcher({ command: 'npc create', options: { name: 'Thug', avatar: THUG_PICTURE } });
  await asDispatcher({ command: 'npc skill set', options: { npc: 'Thug', name: 'Handgun Handling', level: 40 } });
}

/** The channel's messages that a webhook posted. */
const spoken = (): FakeMessage[] => sandbox.fake.messages().filter((message) => message.webhook !== undefined);

describe('/npc say', () => {
  beforeEach(thug);

  it("posts the line under the NPC's name and picture through one webhook, reused for the next line, pinging nobody", async () => {
    const said = await asDispatcher({ command: 'npc say', options: { npc: 'thug', text: 'Hands where I can see them, <@123456789012345678>. @everyone' } });
    expect(said).toMatchObject({ kind: 'reply', ephemeral: true, content: 'Posted in this channel as **Thug**.' });
    const [line] = sandbox.fake.messages();
    expect(line).toMatchObject({
      content: 'Hands where I can see them, <@123456789012345678>. @everyone',
      allowedMentions: NO_PINGS,
      webhook: { username: 'Thug', avatarUrl: THUG_PICTURE },
    });
    const [webhook] = sandbox.fake.webhooks(sandbox.fake.channelId);
    expect(webhook).toMatchObject({ name: 'Tac Talk NPCs', applicationId: sandbox.fake.applicationId, id: line!.webhook!.id });
    expect(line!.authorId).toBe(webhook!.id);

    await asDispatcher({ command: 'npc create', options: { name: 'Boss' } });
    await asDispatcher({ command: 'npc say', options: { npc: 'Boss', text: 'Let him talk.' } });
    const second = spoken()[1]!;
    expect(second).toMatchObject({ content: 'Let him talk.', webhook: { id: webhook!.id, username: 'Boss' } });
    expect(second.webhook!.avatarUrl).toBeUndefined();
    expect(sandbox.fake.webhooksCreated).toBe(1);
  });

  it("without Manage Webhooks speaks as the bot, naming the NPC, and /config show says why and how to grant it", async () => {
    const granted = textOf(await asDispatcher({ command: 'config show' }));
    expect(granted).toContain('In this channel NPCs speak under their own name and picture');

    sandbox.fake.setBotPermission('ManageWebhooks', false);
    const said = await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'Nobody move.' } });
    expect(said).toMatchObject({ kind: 'reply', ephemeral: false, content: '🗣️ **Thug:** Nobody move.', allowedMentions: NO_PINGS });
    expect(sandbox.fake.messages()).toHaveLength(1);
    expect(spoken()).toEqual([]);
    expect(sandbox.fake.webhooksCreated).toBe(0);

    const why = textOf(await asDispatcher({ command: 'config show' }));
    expect(why).toContain('NPC voices here');
    expect(why).toContain('The bot lacks the **Manage Webhooks** permission in this channel, so NPCs speak as the bot here.');
    expect(why).toContain("A server admin can grant it to the bot's role");

    sandbox.fake.setBotPermission('ManageWebhooks', true);
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'Better.' } });
    expect(spoken().map((message) => message.content)).toEqual(['Better.']);
  });

  it('makes the webhook anew, once, after someone deleted it', async () => {
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'One.' } });
    const [first] = sandbox.fake.webhooks();
    sandbox.fake.deleteWebhook(first!.id);

    const said = await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'Two.' } });
    expect(said.content).toBe('Posted in this channel as **Thug**.');
    const webhooks = sandbox.fake.webhooks();
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]!.id).not.toBe(first!.id);
    expect(sandbox.fake.webhooksCreated).toBe(2);
    expect(spoken().map((message) => [message.content, message.webhook!.id])).toEqual([
      ['One.', first!.id],
      ['Two.', webhooks[0]!.id],
    ]);
    // The stored webhook is the new one: the next line makes none.
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'Three.' } });
    expect(sandbox.fake.webhooksCreated).toBe(2);
  });

  it("reuses the channel's webhook after a restart, and finds its own again when the stored one was lost", async () => {
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'Before.' } });
    await sandbox.restartBot();
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'After.' } });
    expect(sandbox.fake.webhooksCreated).toBe(1);

    // A database restored from before the webhook was made: the bot's own webhook is found in the channel.
    await sandbox.bot.store.db.channelWebhook.deleteMany({});
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'Found.' } });
    expect(sandbox.fake.webhooksCreated).toBe(1);
    const ids = new Set(spoken().map((message) => message.webhook!.id));
    expect(ids.size).toBe(1);
    expect(spoken().map((message) => message.content)).toEqual(['Before.', 'After.', 'Found.']);
  });

  it("in a thread speaks through its parent channel's webhook, into the thread", async () => {
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'In the channel.' } });
    const said = await sandbox.one({ user: 'dee', roles: ['dispatcher'], thread: 'Heist', command: 'npc say', options: { npc: 'Thug', text: 'In the thread.' } });
    expect(said).toMatchObject({ ephemeral: true, content: 'Posted in this channel as **Thug**.' });
    const thread = sandbox.fake.thread('Heist');
    const [line] = sandbox.fake.messages(thread.id);
    expect(line).toMatchObject({ channelId: thread.id, content: 'In the thread.', webhook: { username: 'Thug' } });
    expect(sandbox.fake.messages().map((message) => message.content)).toEqual(['In the channel.']);
    expect(sandbox.fake.webhooksCreated).toBe(1);
    expect(line!.webhook!.id).toBe(sandbox.fake.webhooks(sandbox.fake.channelId)[0]!.id);
  });

  it('two Dispatchers speaking at once in a channel without a webhook make one between them', async () => {
    const [first, second] = await Promise.all([
      sandbox.one({ user: 'dee', roles: ['dispatcher'], command: 'npc say', options: { npc: 'Thug', text: 'First.' } }),
      sandbox.one({ user: 'dora', roles: ['dispatcher'], command: 'npc say', options: { npc: 'Thug', text: 'Second.' } }),
    ]);
    expect([first.content, second.content]).toEqual(['Posted in this channel as **Thug**.', 'Posted in this channel as **Thug**.']);
    expect(sandbox.fake.webhooksCreated).toBe(1);
    expect(spoken().map((message) => message.content).sort()).toEqual(['First.', 'Second.']);
  });

  it('is for Dispatchers: a player is refused and nothing is posted; NPC names are not suggested to them', async () => {
    const refused = await sandbox.one({ user: 'mike', command: 'npc say', options: { npc: 'Thug', text: 'I am the Thug now.' } });
    expect(refused).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(refused.content).toContain('Only a Dispatcher can speak as NPCs.');
    expect((await sandbox.one({ user: 'mike', command: 'npc say', options: { npc: 'T' }, focused: 'npc' })).choices).toEqual([]);
    expect(sandbox.fake.messages()).toEqual([]);
    expect(sandbox.fake.webhooksCreated).toBe(0);
  });

  it('an NPC whose name Discord refuses for a webhook ("discord", "clyde") speaks as the bot, naming itself', async () => {
    await asDispatcher({ command: 'npc create', options: { name: 'Discord Dan' } });
    const said = await asDispatcher({ command: 'npc say', options: { npc: 'Discord Dan', text: 'Hi.' } });
    expect(said).toMatchObject({ ephemeral: false, content: '🗣️ **Discord Dan:** Hi.', allowedMentions: NO_PINGS });
    expect(spoken()).toEqual([]);
  });

  it('refuses an unknown NPC or an empty line, saying what would be right', async () => {
    expect((await asDispatcher({ command: 'npc say', options: { npc: 'Thugg', text: 'Hi.' } })).content).toContain('There is no NPC named **Thugg**. Did you mean **Thug**?');
    const empty = await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: '   ' } });
    expect(empty).toMatchObject({ ephemeral: true });
    expect(empty.content).toContain('The line is empty: give `text` what the NPC says');
    expect(sandbox.fake.messages()).toEqual([]);
  });
});

describe('/npc avatar', () => {
  beforeEach(thug);

  it("sets, shows and clears the picture an NPC speaks under, refusing what is not an https image address", async () => {
    const shown = await asDispatcher({ command: 'npc show', options: { name: 'Thug' } });
    expect((shown.embeds[0] as { thumbnail?: { url: string } }).thumbnail?.url).toBe(THUG_PICTURE);

    const cases: Array<[string, string]> = [
      ['http://example.com/thug.png', 'The picture address must start with https://'],
      ['not a link', '`not a link` is not a web address.'],
      ['https://example.com/thug.html', 'That address does not end in .png, .jpg, .gif or .webp'],
    ];
    for (const [url, problem] of cases) {
      const refused = await asDispatcher({ command: 'npc avatar', options: { npc: 'Thug', url } });
      expect(refused, url).toMatchObject({ ephemeral: true });
      expect(refused.content, url).toContain(problem);
      expect(refused.content, url).toContain('Give an https address of a PNG, JPEG, GIF or WebP image');
    }
    const badCreate = await asDispatcher({ command: 'npc create', options: { name: 'Boss', avatar: 'ftp://example.com/boss.png' } });
    expect(badCreate.content).toContain('must start with https://');
    expect(textOf(await asDispatcher({ command: 'npc list' }))).not.toContain('Boss');

    const set = await asDispatcher({ command: 'npc avatar', options: { npc: 'Thug', url: 'https://cdn.example.com/thug2.webp?size=128' } });
    expect(set.content).toBe('**Thug** now speaks under this picture: <https://cdn.example.com/thug2.webp?size=128>');
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'New look.' } });
    expect(spoken()[0]!.webhook!.avatarUrl).toBe('https://cdn.example.com/thug2.webp?size=128');

    const cleared = await asDispatcher({ command: 'npc avatar', options: { npc: 'Thug' } });
    expect(cleared.content).toBe("**Thug** has no picture now: it speaks under Discord's default one.");
    expect((await asDispatcher({ command: 'npc show', options: { name: 'Thug' } })).embeds[0]).not.toHaveProperty('thumbnail');
    await asDispatcher({ command: 'npc say', options: { npc: 'Thug', text: 'Plain.' } });
    expect(spoken()[1]!.webhook!.avatarUrl).toBeUndefined();

    const player = await sandbox.one({ user: 'mike', command: 'npc avatar', options: { npc: 'Thug', url: THUG_PICTURE } });
    expect(player.content).toContain('Only a Dispatcher can change NPC sheets.');
  });
});

describe('rolls made for an NPC', () => {
  beforeEach(thug);

  it("a /roll challenge for an NPC is posted under its name; the roller is answered privately", async () => {
    const rolled = await asDispatcher({ command: 'roll challenge', options: { npc: 'Thug', skill: 'Handgun Handling', cl: 90 } });
    expect(rolled).toMatchObject({ kind: 'reply', ephemeral: true, content: 'Posted in this channel as **Thug**.' });
    const [result] = sandbox.fake.messages();
    expect(result).toMatchObject({ allowedMentions: NO_PINGS, webhook: { username: 'Thug', avatarUrl: THUG_PICTURE } });
    expect(textOf(result!)).toContain('**Thug**');
    expect(textOf(result!)).toMatch(/\d+ \(D100\) \+ 40 Handgun Handling = \*\*\d+\*\*/);

    // A secret roll stays the Dispatcher's alone, as before.
    const secret = await asDispatcher({ command: 'roll challenge', options: { npc: 'Thug', skill: 'Handgun Handling', cl: 90, secret: true } });
    expect(secret).toMatchObject({ ephemeral: true });
    expect(textOf(secret)).toContain('**Thug**');
    expect(sandbox.fake.messages()).toHaveLength(1);
  });

  it("another system's as_npc roll is posted under the NPC's name too", async () => {
    await asDispatcher({ command: 'config systems', options: { play: 'all' } });
    await asDispatcher({ command: 'npc create', options: { name: 'Sniper', system: 'd100-tactics' } });
    await asDispatcher({ command: 'npc attribute set', options: { npc: 'Sniper', name: 'Aim', value: 60 } });
    const rolled = await asDispatcher({ command: 'tactics check', options: { attribute: 'Aim', as_npc: 'Sniper' } });
    expect(rolled).toMatchObject({ ephemeral: true, content: 'Posted in this channel as **Sniper**.' });
    const [result] = sandbox.fake.messages();
    expect(result).toMatchObject({ webhook: { username: 'Sniper' } });
    expect(textOf(result!)).toContain('Sniper');

    // A move made for it too: one message of its own, under its name.
    await asDispatcher({ command: 'npc attribute set', options: { npc: 'Sniper', name: 'Mobility', value: 6 } });
    const moved = await asDispatcher({ command: 'tactics move', options: { path: '3s', as_npc: 'Sniper' } });
    expect(moved.content).toBe('Posted in this channel as **Sniper**.');
    expect(sandbox.fake.messages()[1]).toMatchObject({ webhook: { username: 'Sniper' } });
  });
});
