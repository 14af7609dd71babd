// Tests of the fake Discord itself, driven by a bare, unmodified discord.js Client written here.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import WebSocket from 'ws';
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  ModalBuilder,
  REST,
  Routes,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
} from 'discord.js';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { deferredCommands } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const commands = [
  new SlashCommandBuilder().setName('ping').setDescription('Answers pong'),
  new SlashCommandBuilder()
    .setName('roll')
    .setDescription('Rolls dice')
    .addSubcommand((sub) =>
      sub
        .setName('challenge')
        .setDescription('A challenge roll')
        .addStringOption((o) => o.setName('skill').setDescription('The skill').setRequired(true).setAutocomplete(true))
        .addIntegerOption((o) => o.setName('cl').setDescription('Challenge level').setRequired(true))
        .addUserOption((o) => o.setName('target').setDescription('Who is targeted'))
        .addAttachmentOption((o) => o.setName('notes').setDescription('A text file')),
    ),
  new SlashCommandBuilder().setName('whoami').setDescription('Lists your roles'),
  new SlashCommandBuilder().setName('panel').setDescription('A counter with a button'),
  new SlashCommandBuilder().setName('form').setDescription('Opens a modal'),
  new SlashCommandBuilder().setName('slow').setDescription('Defers, then edits'),
  new SlashCommandBuilder().setName('multi').setDescription('Replies and follows up'),
  new SlashCommandBuilder().setName('file').setDescription('Sends a file'),
  new SlashCommandBuilder().setName('twice').setDescription('Acknowledges twice'),
  new SlashCommandBuilder().setName('big').setDescription('Sends an oversize embed'),
  new SlashCommandBuilder().setName('late').setDescription('Answers after a delay'),
  new SlashCommandBuilder().setName('misc').setDescription('withResponse, fetchReply, deleteReply, channel.send'),
].map((c) => c.toJSON());

/** Errors the bot met (DiscordAPIError codes), so tests can check what the bot saw. */
const botErrors: unknown[] = [];
/** What /slow waits for between its deferral and its edit (open unless a test closes it). */
let slowGate: Promise<void> = Promise.resolve();

async function handle(interaction: Interaction, client: Client): Promise<void> {
  if (interaction.isAutocomplete()) {
    const typed = interaction.options.getFocused().toLowerCase();
    const skills = ['Climbing', 'Clubs', 'Shooting'].filter((s) => s.toLowerCase().startsWith(typed));
    await interaction.respond(skills.map((s) => ({ name: s, value: s })));
    return;
  }
  if (interaction.isButton() && interaction.customId === 'inc') {
    const n = Number(/count (\d+)/.exec(interaction.message.content)?.[1] ?? 0);
    await interaction.update({ content: `count ${n + 1}` });
    return;
  }
  if (interaction.isStringSelectMenu()) {
    await interaction.update({ content: `picked ${interaction.values.join('+')}` });
    return;
  }
  if (interaction.isModalSubmit()) {
    await interaction.reply(`Hello ${interaction.fields.getTextInputValue('name')}`);
    return;
  }
  if (!interaction.isChatInputCommand()) return;
  switch (interaction.commandName) {
    case 'ping':
      await interaction.reply({ content: 'pong', flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
      return;
    case 'roll': {
      const sub = interaction.options.getSubcommand();
      const skill = interaction.options.getString('skill', true);
      const cl = interaction.options.getInteger('cl', true);
      const target = interaction.options.getUser('target');
      const notes = interaction.options.getAttachment('notes');
      const text = notes ? await (await fetch(notes.url)).text() : '-';
      await interaction.reply(`${interaction.user.username} ${sub} ${skill} vs ${cl + 0} target=${target?.username ?? '-'} notes=${text}`);
      return;
    }
    case 'whoami': {
      const member = interaction.guild!.members.cache.get(interaction.user.id)!;
      const names = member.roles.cache.filter((r) => r.id !== interaction.guildId).map((r) => r.name).sort();
      const manages = interaction.memberPermissions?.has('ManageGuild') ? ' manage-server' : '';
      await interaction.reply(`roles: ${names.join(',')}${manages}`);
      return;
    }
    case 'panel':
      await interaction.reply({
        content: 'count 0',
        components: [
          new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setCustomId('inc').setLabel('+1').setStyle(ButtonStyle.Primary)),
          new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
            new StringSelectMenuBuilder()
              .setCustomId('pick')
              .setMaxValues(2)
              .addOptions({ label: 'Red', value: 'red' }, { label: 'Blue', value: 'blue' }, { label: 'Green', value: 'green' }),
          ),
        ],
      });
      return;
    case 'form':
      await interaction.showModal(
        new ModalBuilder()
          .setCustomId('sheet-form')
          .setTitle('New sheet')
          .addComponents(
            new ActionRowBuilder<TextInputBuilder>().addComponents(
              new TextInputBuilder().setCustomId('name').setLabel('Name').setStyle(TextInputStyle.Short),
            ),
          ),
      );
      return;
    case 'slow':
      await interaction.deferReply();
      // The test opens the gate once it has seen the deferral, and interact() still waiting.
      await slowGate;
      await interaction.editReply('done');
      return;
    case 'multi':
      await interaction.reply('first');
      await interaction.followUp({ content: 'second', flags: MessageFlags.Ephemeral });
      return;
    case 'file':
      await interaction.reply({ content: 'here', files: [new AttachmentBuilder(Buffer.from('hello file'), { name: 'notes.txt' })] });
      return;
    case 'twice':
      await interaction.reply('one');
      try {
        await client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
          body: { type: 4, data: { content: 'two' } },
          auth: false,
        });
      } catch (error) {
        botErrors.push((error as { code?: unknown }).code);
      }
      return;
    case 'big': {
      // A plain object: EmbedBuilder would refuse the 26th field itself, before anything reaches the fake.
      const embed = { title: 'Too many fields', fields: Array.from({ length: 26 }, (_, i) => ({ name: `f${i}`, value: 'v' })) };
      try {
        await interaction.reply({ embeds: [embed] });
      } catch (error) {
        botErrors.push((error as { code?: unknown }).code);
      }
      return;
    }
    case 'misc': {
      const response = await interaction.reply({ content: 'misc', withResponse: true });
      const fetched = await interaction.fetchReply();
      const channel = interaction.channel;
      if (!channel?.isSendable()) throw new Error('channel not sendable');
      const posted = await channel.send({ content: `posted ${response.resource?.message?.id === fetched.id}` });
      await posted.edit('posted and edited');
      await interaction.deleteReply();
      return;
    }
    case 'late':
      // Past the fake's deadline (100 ms in the test that uses it) by the interaction's own creation time.
      await until(() => Date.now() - interaction.createdTimestamp > 150, 'the interaction to be past its deadline');
      try {
        await interaction.reply('too late');
      } catch (error) {
        botErrors.push((error as { code?: unknown }).code);
      }
      return;
  }
}

function newClient(fake: FakeDiscord): Client {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.restApi } });
  // The client says when it is done with each interaction, as the sandbox's bot does: interact() waits for that.
  client.on(Events.InteractionCreate, (interaction) => {
    handle(interaction, client)
      .catch((error: unknown) => botErrors.push(error))
      .finally(() => fake.interactionHandled(interaction.id));
  });
  return client;
}

async function deploy(fake: FakeDiscord): Promise<void> {
  const rest = new REST({ api: fake.restApi }).setToken(fake.token);
  await rest.put(Routes.applicationGuildCommands(fake.applicationId, fake.guildId), { body: commands });
}

describe('fake Discord with a bare discord.js client', () => {
  const fake = new FakeDiscord({ botSaysWhenDone: true });
  let client: Client;

  beforeAll(async () => {
    await fake.start();
    await deploy(fake);
    client = newClient(fake);
    const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
    await client.login(fake.token);
    await ready;
  });

  afterAll(async () => {
    await client?.destroy();
    await fake.stop();
  });

  beforeEach(() => {
    fake.clearViolations();
    botErrors.length = 0;
  });

  it('logs in: the client is ready and sees the guild, its channel and roles', async () => {
    await fake.waitForReady(1000);
    expect(client.isReady()).toBe(true);
    const guild = client.guilds.cache.get(fake.guildId)!;
    expect(guild.name).toBe('Sandbox Server');
    expect(guild.channels.cache.get(fake.channelId)?.name).toBe('table');
    expect(guild.roles.cache.some((r) => r.name === 'Dispatcher')).toBe(true);
    expect(client.user!.username).toBe('Tac Talk Bot');
  });

  it('stores the commands registered with REST.put', () => {
    const names = fake.commands().map((c) => (c as { name: string }).name);
    expect(names).toContain('ping');
    expect(names).toContain('roll');
  });

  it('gives users stable, name-derived ids', () => {
    const zoe = fake.user('Zoe');
    expect(fake.user('zoe')).toEqual(zoe);
    expect(fake.user(zoe.id).username).toBe('Zoe');
    expect(zoe.id).toMatch(/^\d{17,19}$/);
    expect(new FakeDiscord().user('zoe').id).toBe(zoe.id);
  });

  it('returns the reply to a slash command with its flags and allowed mentions', async () => {
    const result = await fake.interact({ user: 'mike', command: 'ping' });
    expect(result.errors).toEqual([]);
    expect(result.responses).toHaveLength(1);
    const [reply] = result.responses;
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: true, content: 'pong', allowedMentions: { parse: [] } });
    expect(fake.messages().some((m) => m.id === reply!.messageId)).toBe(false); // ephemeral: not in the channel list
    expect(fake.message(reply!.messageId!)?.ephemeral).toBe(true);
    expect(fake.violations).toEqual([]);
  });

  it('types options: subcommand, integer, user and an attachment the bot downloads', async () => {
    const result = await fake.interact({
      user: 'mike',
      command: 'roll challenge',
      options: { skill: 'Climbing', cl: 90, target: 'troy', notes: { filename: 'notes.txt', content: 'rope' } },
    });
    expect(result.responses[0]?.content).toBe('mike challenge Climbing vs 90 target=troy notes=rope');
    expect(fake.messages().at(-1)?.content).toBe('mike challenge Climbing vs 90 target=troy notes=rope');
    await expect(fake.interact({ user: 'mike', command: 'roll challenge', options: { skill: 'x', cl: 2.5 } })).rejects.toThrow(/whole number/);
    await expect(fake.interact({ user: 'mike', command: 'roll challenge', options: { skill: 'x', cl: 1, nope: 1 } })).rejects.toThrow(/unknown option "nope"/);
    await expect(fake.interact({ user: 'mike', command: 'roll' })).rejects.toThrow(/needs a subcommand: challenge/);
    await expect(fake.interact({ user: 'mike', command: 'dance' })).rejects.toThrow(/unknown command/);
    expect(fake.violations).toEqual([]);
  });

  it('gives members the roles asked for, announcing new roles to the bot', async () => {
    const result = await fake.interact({ user: 'dora', roles: ['dispatcher', 'Game Master'], command: 'whoami' });
    expect(result.responses[0]?.content).toBe('roles: Dispatcher,Game Master');
  });

  it('grants no Manage Server by default, and the permissions a request names for that interaction only', async () => {
    expect((await fake.interact({ user: 'dora', command: 'whoami' })).responses[0]?.content).toBe('roles: ');
    const granted = await fake.interact({ user: 'dora', permissions: ['ManageGuild'], command: 'whoami' });
    expect(granted.responses[0]?.content).toBe('roles:  manage-server');
    expect((await fake.interact({ user: 'dora', permissions: ['Administrator'], command: 'whoami' })).responses[0]?.content).toBe('roles:  manage-server');
    expect((await fake.interact({ user: 'dora', command: 'whoami' })).responses[0]?.content).toBe('roles: ');
    await expect(fake.interact({ user: 'dora', permissions: ['Fly'], command: 'whoami' })).rejects.toThrow(/permission names: .*ManageGuild/);
  });

  it('answers autocomplete with the choices the bot sent', async () => {
    const result = await fake.interact({ user: 'mike', command: 'roll challenge', options: { skill: 'cl' }, focused: 'skill' });
    expect(result.responses).toEqual([
      expect.objectContaining({ kind: 'autocomplete', choices: [{ name: 'Climbing', value: 'Climbing' }, { name: 'Clubs', value: 'Clubs' }] }),
    ]);
  });

  it('updates a message in place when a button is pressed', async () => {
    const panel = await fake.interact({ user: 'mike', command: 'panel' });
    const messageId = panel.responses[0]!.messageId!;
    const press = await fake.interact({ user: 'troy', button: 'inc', message: messageId });
    expect(press.responses[0]).toMatchObject({ kind: 'update', content: 'count 1', messageId });
    await fake.interact({ user: 'troy', button: 'inc', message: messageId });
    const stored = fake.messages().find((m) => m.id === messageId)!;
    expect(stored.content).toBe('count 2');
    expect(stored.editedAt).toBeDefined();
    await expect(fake.interact({ user: 'troy', button: 'nope', message: messageId })).rejects.toThrow(/has no component "nope"/);
    const picked = await fake.interact({ user: 'troy', select: 'pick', values: ['red', 'Blue'], message: messageId });
    expect(picked.responses[0]).toMatchObject({ kind: 'update', content: 'picked red+blue', messageId });
    await expect(fake.interact({ user: 'troy', select: 'pick', values: ['pink'], message: messageId })).rejects.toThrow(/no option "pink"/);
    await expect(fake.interact({ user: 'troy', button: 'inc', message: '1' })).rejects.toThrow(/unknown message id/);
  });

  it('opens a modal and submits it', async () => {
    const opened = await fake.interact({ user: 'mike', command: 'form' });
    expect(opened.responses[0]).toMatchObject({ kind: 'modal', modal: { custom_id: 'sheet-form', title: 'New sheet' } });
    const submitted = await fake.interact({ user: 'mike', modal: 'sheet-form', fields: { name: 'Troy' } });
    expect(submitted.responses[0]).toMatchObject({ kind: 'reply', content: 'Hello Troy' });
    await expect(fake.interact({ user: 'mike', modal: 'sheet-form', fields: {} })).rejects.toThrow(/required/);
  });

  it('waits past a deferral for the edit', async () => {
    let open!: () => void;
    slowGate = new Promise((resolve) => (open = resolve));
    let collected = false;
    const collecting = fake.interact({ user: 'mike', command: 'slow' }).then((result) => ((collected = true), result));
    await until(() => deferredCommands(fake).includes('slow'), 'the deferral of /slow');
    expect(collected).toBe(false);
    open();
    const result = await collecting;
    expect(result.responses.map((r) => r.kind)).toEqual(['deferred', 'edit']);
    expect(result.responses[1]).toMatchObject({ content: 'done', messageId: result.responses[0]!.messageId });
    expect(fake.message(result.responses[0]!.messageId!)?.content).toBe('done');
    expect(fake.violations).toEqual([]);
  });

  it('collects follow-ups', async () => {
    const result = await fake.interact({ user: 'mike', command: 'multi' });
    expect(result.responses.map((r) => [r.kind, r.content, r.ephemeral])).toEqual([
      ['reply', 'first', false],
      ['followup', 'second', true],
    ]);
  });

  it('returns files the bot sends, with their content', async () => {
    const result = await fake.interact({ user: 'mike', command: 'file' });
    expect(result.responses[0]?.attachments?.[0]).toMatchObject({ filename: 'notes.txt', content: 'hello file', base64: Buffer.from('hello file').toString('base64') });
    const url = result.responses[0]!.attachments![0]!.url!;
    expect(await (await fetch(url)).text()).toBe('hello file');
  });

  it('takes a message with files as discord.js sends it, and refuses a file over the upload limit or a broken body', async () => {
    const messages = `${fake.restApi}/v10/channels/${fake.channelId}/messages`;
    const send = (body: FormData | string, contentType?: string) =>
      fetch(messages, { method: 'POST', headers: { authorization: `Bot ${fake.token}`, ...(contentType ? { 'content-type': contentType } : {}) }, body });
    const form = (file: Blob, name: string): FormData => {
      const data = new FormData();
      data.append('payload_json', JSON.stringify({ content: 'with a file', attachments: [{ id: 0, filename: name }] }));
      data.append('files[0]', file, name);
      return data;
    };

    const sent = await send(form(new Blob(['a "quoted" name'], { type: 'text/plain' }), 'say "hi".txt'));
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as { attachments: { filename: string }[] }).attachments).toMatchObject([{ filename: 'say "hi".txt' }]);

    const huge = await send(form(new Blob([new Uint8Array(10 * 1024 * 1024 + 1)]), 'huge.bin'));
    expect([huge.status, ((await huge.json()) as { code: number }).code]).toEqual([413, 40005]);

    const broken = await send('--x\r\nnot a part', 'multipart/form-data; boundary=x');
    expect([broken.status, ((await broken.json()) as { code: number }).code]).toEqual([400, 50035]);
    expect(fake.violations).toEqual([expect.stringMatching(/Request entity too large: huge\.bin/), expect.stringMatching(/Invalid multipart body/)]);
  });

  it('rejects a second acknowledgement with 40060 and records it', async () => {
    const result = await fake.interact({ user: 'mike', command: 'twice' });
    expect(result.responses.map((r) => r.content)).toEqual(['one']);
    expect(result.errors).toEqual([expect.stringMatching(/already been acknowledged.*code 40060/)]);
    expect(botErrors).toEqual([40060]);
    expect(fake.violations).toHaveLength(1);
  });

  it('rejects an embed with 26 fields', async () => {
    const result = await fake.interact({ user: 'mike', command: 'big' });
    expect(result.responses).toEqual([]);
    expect(result.errors[0]).toMatch(/data\.embeds\[0\]\.fields: Must be 25 or fewer/);
    expect(botErrors).toEqual([50035]);
    // Discord's API spec says so too (RichEmbed.fields: maxItems 25): a violation sent on purpose, taken here.
    expect(fake.violations).toEqual([expect.stringMatching(/does not match Discord's API spec .*data\.embeds\[0\]\.fields: Must be 25 or fewer/)]);
    fake.clearViolations();
  });

  it('supports withResponse, fetchReply, deleteReply and channel messages', async () => {
    const result = await fake.interact({ user: 'mike', command: 'misc' });
    expect(result.errors).toEqual([]);
    expect(result.responses.map((r) => [r.kind, r.content])).toEqual([
      ['reply', 'misc'],
      ['reply', 'posted true'],
      ['edit', 'posted and edited'],
      ['delete', undefined],
    ]);
    expect(fake.message(result.responses[0]!.messageId!)).toBeUndefined();
    expect(fake.messages().at(-1)?.content).toBe('posted and edited');
    expect(botErrors).toEqual([]);
    expect(fake.violations).toEqual([]);
  });

  it('records requests it does not implement', async () => {
    await expect(client.rest.get('/guilds/x/bans')).rejects.toThrow();
    expect(fake.violations).toEqual(['GET /api/v10/guilds/x/bans: not implemented by the fake']);
  });

  it('serves the sandbox JSON API over HTTP', async () => {
    const post = (body: unknown): Promise<Response> =>
      fetch(`${fake.url}/api/interactions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ok = await post({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    expect(ok.status).toBe(200);
    const result = (await ok.json()) as { id: string; responses: { content: string }[] };
    expect(result.responses[0]?.content).toContain('Climbing vs 90');
    const bad = await post({ user: 'mike', command: 'nope' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/unknown command/);
    const messages = (await (await fetch(`${fake.url}/api/messages`)).json()) as { messages: { content: string }[] };
    expect(messages.messages.at(-1)?.content).toContain('Climbing vs 90');
    const listed = (await (await fetch(`${fake.url}/api/commands`)).json()) as { commands: { name: string }[] };
    expect(listed.commands.map((c) => c.name)).toContain('roll');
    fake.route('GET', '/api/hello', ({ query }) => ({ hello: query.get('name') }));
    expect(await (await fetch(`${fake.url}/api/hello?name=x`)).json()).toEqual({ hello: 'x' });
    fake.route('GET', '/', () => ({ __html: '<h1>sandbox</h1>' }));
    const page = await fetch(`${fake.url}/`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toBe('<h1>sandbox</h1>');
  });

  it('dispatches to the newest client when a second one logs in', async () => {
    const goodbyes = fake.gatewayCounts.goodbyes;
    const second = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.restApi } });
    second.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isChatInputCommand()) void interaction.reply('from the second client').finally(() => fake.interactionHandled(interaction.id));
    });
    try {
      await second.login(fake.token);
      await new Promise((resolve) => (second.isReady() ? resolve(undefined) : second.once(Events.ClientReady, resolve)));
      const result = await fake.interact({ user: 'mike', command: 'ping' });
      expect(result.responses[0]?.content).toBe('from the second client');
    } finally {
      await second.destroy();
    }
    await until(() => fake.gatewayCounts.goodbyes === goodbyes + 1, 'the fake to end the second client\'s session');
    const back = await fake.interact({ user: 'mike', command: 'ping' });
    expect(back.responses[0]?.content).toBe('pong');
  });
});

describe('fake Discord rules that need their own instance', () => {
  it('rejects a reply after the interaction deadline with 10062', async () => {
    const fake = new FakeDiscord({ interactionDeadlineMs: 100, botSaysWhenDone: true });
    await fake.start();
    const client = newClient(fake);
    try {
      await deploy(fake);
      await client.login(fake.token);
      await fake.waitForReady();
      botErrors.length = 0;
      const result = await fake.interact({ user: 'mike', command: 'late' });
      expect(result.responses).toEqual([]);
      expect(result.errors[0]).toMatch(/Unknown interaction.*Discord allows 100 ms.*code 10062/);
      expect(botErrors).toEqual([10062]);
    } finally {
      await client.destroy();
      await fake.stop();
    }
  });

  it('refuses a wrong token', async () => {
    const fake = new FakeDiscord();
    await fake.start();
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.restApi } });
    try {
      await expect(client.login('not-the-token')).rejects.toThrow();
      expect(fake.violations.join('\n')).toMatch(/401 Unauthorized/);
    } finally {
      await client.destroy();
      await fake.stop();
    }
  });

  it('speaks zlib-stream on the gateway', async () => {
    const fake = new FakeDiscord();
    await fake.start();
    const ws = new WebSocket(`ws://127.0.0.1:${fake.port}/gateway?v=10&encoding=json&compress=zlib-stream`);
    const inflate = zlib.createInflate();
    const received: { op: number; t?: string }[] = [];
    let threeReceived!: () => void;
    const three = new Promise<void>((resolve) => (threeReceived = resolve));
    let pending = Buffer.alloc(0);
    inflate.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      try {
        received.push(JSON.parse(pending.toString('utf8')) as { op: number; t?: string });
        pending = Buffer.alloc(0);
        if (received.length === 3) threeReceived();
      } catch {
        // incomplete: wait for more
      }
    });
    try {
      ws.on('message', (data: Buffer) => inflate.write(data));
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(JSON.stringify({ op: 2, d: { token: fake.token, intents: 1, properties: {} } }));
      await three;
      expect(received.map((p) => p.t ?? p.op)).toEqual([10, 'READY', 'GUILD_CREATE']);
    } finally {
      ws.close();
      await fake.stop();
    }
  });
});
