// The context-menu commands (right-click a message or a member → Apps) through the fake Discord and the real bot:
// registered beside the slash commands (types 2 and 3, checked against Discord's spec by the fake), each one's happy
// path and its refusals, in the words of the command it saves typing.
import { ApplicationCommandType } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { contextMenus } from '../../commands/index.js';
import { checkCommandSet } from '../../src/sandbox/discord-limits.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { importSheet, textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox({ seeds: Array.from({ length: 50 }, (_, index) => `menu-seed-${index}`) });
const NO_PINGS = { parse: [] };

const KAT = { name: 'Kat', skills: [{ name: 'CQC', level: 37 }, { name: 'Climbing', level: 50 }], archetypes: [{ name: 'Acuity', modifier: 5 }], conditions: [] };
const TROY = { name: 'Troy', skills: [{ name: 'CQC', level: 40 }], archetypes: [], conditions: [] };

type Registered = { name: string; type?: number; description?: string; options?: unknown[]; contexts?: number[] };
const menusOffered = () => sandbox().fake.contextMenus() as Registered[];
const footerOf = (response: Pick<SandboxResponse, 'embeds'>) => (response.embeds[0] as { footer: { text: string } }).footer.text;
const rollIdOf = (response: Pick<SandboxResponse, 'embeds'>) => /^Roll (\w{8}) ·/.exec(footerOf(response))![1]!;

async function challengeRoll(user = 'sasha'): Promise<SandboxResponse> {
  const rolled = await sandbox().one({ user, command: 'roll challenge', options: { skill: 'CQC', cl: 50 } });
  expect(rolled).toMatchObject({ kind: 'reply', ephemeral: false });
  return rolled;
}

describe('registration', () => {
  it('each server’s list carries the four context menus after the slash commands: types 3 and 2, no description, in servers only', () => {
    const menus = menusOffered();
    expect(menus.map((menu) => [menu.type, menu.name])).toEqual([
      [ApplicationCommandType.Message, 'Replay this roll'],
      [ApplicationCommandType.Message, 'Add to journal'],
      [ApplicationCommandType.User, 'Show sheet'],
      [ApplicationCommandType.User, 'Challenge to a contest'],
    ]);
    for (const menu of menus) {
      expect(menu.description ?? '').toBe('');
      expect(menu.options ?? []).toEqual([]);
      expect(menu.contexts).toEqual([0]);
    }
    // Beside them, the slash commands as before.
    expect((sandbox().fake.commands() as Registered[]).map((command) => command.name)).toContain('roll');
    // One registration, global, accepted by the fake (a body against Discord's spec would be a violation, checked after each test).
    expect(sandbox().fake.commandWrites('global')).toBe(1);
    expect(sandbox().fake.commandWrites()).toBe(0);
  });

  it('the fake refuses what Discord refuses of a context menu: a description, options', () => {
    expect(checkCommandSet(contextMenus.map((menu) => menu.data.toJSON()))).toEqual([]);
    const issues = checkCommandSet([{ type: ApplicationCommandType.Message, name: 'Replay this roll', description: 'no', options: [{ type: 3, name: 'x', description: 'x' }] }]);
    expect(issues.map((issue) => issue.code)).toEqual(['APPLICATION_COMMAND_INVALID_DESCRIPTION', 'APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED']);
  });

  it('a server that no longer plays Tac Talk still sees Challenge to a contest (one list for every server), which answers privately how to turn it on', async () => {
    await importSheet(sandbox(), 'sasha', KAT);
    const saved = await sandbox().one({ user: 'olga', permissions: ['ManageGuild'], command: 'config systems', options: { play: 'd6 pools' } });
    expect(textOf(saved)).toContain('This server plays');
    expect(menusOffered().map((command) => command.name)).toEqual(['Replay this roll', 'Add to journal', 'Show sheet', 'Challenge to a contest']);
    const refused = await sandbox().one({ user: 'sasha', menu: 'Challenge to a contest', target: 'mike' });
    expect(refused).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(refused.content).toContain('`Challenge to a contest` is for Tac Talk (Decision Engine), which this server does not play');
    expect(refused.content).toContain('`/config systems`');
    // /help lists only the menus played here.
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'help' }))).not.toContain('Challenge to a contest');
  });
});

describe('Replay this roll', () => {
  it('replays the roll a result shows, exactly as /roll replay does, and for anyone at the table', async () => {
    await importSheet(sandbox(), 'sasha', KAT);
    const rolled = await challengeRoll();
    const id = rollIdOf(rolled);
    const byMenu = await sandbox().one({ user: 'eve', menu: 'Replay this roll', message: rolled.messageId! });
    const byCommand = await sandbox().one({ user: 'eve', command: 'roll replay', options: { id } });
    expect(byMenu).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    expect(textOf(byMenu)).toBe(textOf(byCommand));
    expect(textOf(byMenu)).toContain('the dice match');
    // Discord shows a context menu's answer as such a message, with who ran what.
    const shown = sandbox().fake.message(byMenu.messageId!)!;
    expect(shown.interaction).toMatchObject({ type: 2, command: 'Replay this roll', contextMenu: true });
    expect(sandbox().fake.message(rolled.messageId!)!.interaction).not.toHaveProperty('contextMenu');
  });

  it('a roll against a hidden Challenge Level replays privately, its CL shown to Dispatchers only, as /roll replay does', async () => {
    await importSheet(sandbox(), 'mike', { ...TROY, skills: [{ name: 'Lock Picking', level: 40 }] });
    const called = await sandbox().act({ user: 'dee', roles: ['dispatcher'], command: 'dispatch challenge', options: { player: 'mike', intent: 'get in', outcome: 'Troy is inside', skill: 'Lock Picking', cl: 77, hidden: true } });
    const post = called.responses.find((response) => !response.ephemeral)!;
    const requestId = /#(\d+)/.exec(textOf(post))![1]!;
    await sandbox().act({ user: 'mike', button: `dispatch:roll:${requestId}`, message: post.messageId! });
    const rollId = /Roll (\w{8}) ·/.exec(textOf(sandbox().fake.message(post.messageId!)!))![1]!;
    const player = await sandbox().one({ user: 'mike', menu: 'Replay this roll', message: post.messageId! });
    const command = await sandbox().one({ user: 'mike', command: 'roll replay', options: { id: rollId } });
    expect(player.ephemeral).toBe(command.ephemeral);
    expect(textOf(player)).toBe(textOf(command));
    // As a number of its own: a timestamp (<t:1795770183:f>) or a roll id may hold the digits.
    expect(textOf(player)).not.toMatch(/\b77\b/);
    const dispatcher = await sandbox().one({ user: 'dee', roles: ['dispatcher'], menu: 'Replay this roll', message: post.messageId! });
    expect(dispatcher.ephemeral).toBe(true);
    expect(textOf(dispatcher)).toMatch(/\b77\b/);
  });

  it('on a contest’s message, replays the round it shows, as /roll replay does', async () => {
    await importSheet(sandbox(), 'sasha', KAT);
    await importSheet(sandbox(), 'mike', TROY);
    const opening = await sandbox().one({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'grab the keys', stakes: 'Troy walks', skill: 'CQC', role: 'attacker' } });
    const contestId = /Contest #(\d+)/.exec(textOf(opening))![1]!;
    expect((await sandbox().one({ user: 'mike', button: `contest:accept:${contestId}`, message: opening.messageId! })).kind).toBe('modal');
    await sandbox().act({ user: 'mike', modal: `contest:acceptform:${contestId}`, fields: { stakes: 'Kat falls', role: 'defender', skill: 'CQC', archetypes: '' }, message: opening.messageId! });
    await sandbox().act({ user: 'sasha', button: `contest:agree:${contestId}`, message: opening.messageId! });
    const contestMessage = sandbox().fake.message(opening.messageId!)!;
    const rollId = /rolls (\w{8})/.exec(textOf(contestMessage))![1]!;
    const replayed = await sandbox().one({ user: 'eve', menu: 'Replay this roll', message: opening.messageId! });
    expect(textOf(replayed)).toBe(textOf(await sandbox().one({ user: 'eve', command: 'roll replay', options: { id: rollId } })));
    expect(textOf(replayed)).toContain('Kat (attacker): CQC');
  });

  it('a message with several rolls (an initiative tracker’s) replays the first and names the others, privately', async () => {
    const dispatcher = { user: 'dee', roles: ['dispatcher'] };
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy', system: 'result-points' } });
    await sandbox().one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat', system: 'result-points' } });
    const started = (await sandbox().act({ ...dispatcher, command: 'initiative start', options: { rule: 'debate' } })).responses.at(-1)!;
    await sandbox().act({ user: 'mike', command: 'initiative join', options: { value: '4D+1' } });
    await sandbox().act({ user: 'sasha', command: 'initiative join', options: { value: '3D+2' } });
    const footer = footerOf(sandbox().fake.message(started.messageId!)!);
    const ids = /rolls ([\w, ]+) ·/.exec(footer)![1]!.split(', ');
    expect(ids).toHaveLength(2);
    const answers = (await sandbox().act({ user: 'eve', menu: 'Replay this roll', message: started.messageId! })).responses;
    expect(answers).toHaveLength(2);
    expect(textOf(answers[0]!)).toBe(textOf(await sandbox().one({ user: 'eve', command: 'roll replay', options: { id: ids[0]! } })));
    expect(answers[1]).toMatchObject({ kind: 'followup', ephemeral: true, allowedMentions: NO_PINGS });
    expect(answers[1]!.content).toBe(`That message shows 2 rolls; this is the first. The others: \`/roll replay id:${ids[1]}\`.`);
  });

  it('a message of the bot without a roll, and a member’s message, are refused privately, saying what would work', async () => {
    await importSheet(sandbox(), 'sasha', KAT);
    await importSheet(sandbox(), 'mike', TROY);
    // A contest's opening: the bot's, public, and no dice rolled yet.
    const opening = await sandbox().one({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'grab the keys', stakes: 'Troy walks', skill: 'CQC', role: 'attacker' } });
    const noRoll = await sandbox().one({ user: 'eve', menu: 'Replay this roll', message: opening.messageId! });
    expect(noRoll).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(noRoll.content).toContain('This message holds no roll of mine');
    // A member who types a roll id by hand does not make their message a roll of the bot's.
    const rolled = await challengeRoll();
    const typed = sandbox().fake.say('mike', `look at ${rollIdOf(rolled)}`);
    const notMine = await sandbox().one({ user: 'eve', menu: 'Replay this roll', message: typed.id });
    expect(notMine).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(notMine.content).toContain('This message is not one of mine, so it holds no roll of mine');
  });
});

describe('Show sheet', () => {
  it('shows a member’s current sheet privately, as /sheet show user: does, naming their other sheets', async () => {
    await importSheet(sandbox(), 'mike', TROY);
    const byCommand = await sandbox().one({ user: 'eve', command: 'sheet show', options: { user: 'mike' } });
    const byMenu = await sandbox().one({ user: 'eve', menu: 'Show sheet', target: 'mike' });
    expect(byMenu).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(byMenu.embeds).toEqual(byCommand.embeds);
    expect(byMenu.content ?? '').toBe('');
    expect(textOf(byMenu)).toContain('CQC **40**');

    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Ghost <@everyone>' } });
    const two = await sandbox().one({ user: 'eve', menu: 'Show sheet', target: 'mike' });
    expect(textOf(two)).toContain('Ghost');
    expect(two.content).toBe('mike also keeps **Troy**: `/sheet show user:… name:…` shows one.');
    expect(two.allowedMentions).toEqual(NO_PINGS);
  });

  it('a member without a sheet, and a bot, are answered as /sheet show answers them', async () => {
    const byCommand = await sandbox().one({ user: 'eve', command: 'sheet show', options: { user: 'mike' } });
    const byMenu = await sandbox().one({ user: 'eve', menu: 'Show sheet', target: 'mike' });
    expect(byMenu).toMatchObject({ ephemeral: true });
    expect(byMenu.content).toBe(byCommand.content);
    expect(byMenu.content).toContain('mike');
    const bot = await sandbox().one({ user: 'eve', menu: 'Show sheet', target: 'Tac Talk Bot' });
    expect(bot).toMatchObject({ ephemeral: true });
    expect(bot.content).toBe((await sandbox().one({ user: 'eve', command: 'sheet show', options: { user: 'Tac Talk Bot' } })).content);
  });
});

describe('Challenge to a contest', () => {
  const fields = { intent: 'grab the keys first', stakes: 'Troy walks home', role: 'attacker', skill: 'CQC', archetypes: 'Acuity' };

  it('opens a form for /contest start’s terms, and its submit starts the same contest /contest start does', async () => {
    await importSheet(sandbox(), 'sasha', KAT);
    await importSheet(sandbox(), 'mike', TROY);
    const form = await sandbox().one({ user: 'sasha', menu: 'Challenge to a contest', target: 'mike' });
    expect(form.kind).toBe('modal');
    const modal = form.modal as { custom_id: string; title: string; components: Array<{ component: { custom_id: string; options?: Array<{ value: string }> } }> };
    expect(modal.title).toBe('Challenge mike to a contest');
    expect(modal.components.map((label) => label.component.custom_id)).toEqual(['intent', 'stakes', 'role', 'skill', 'archetypes']);
    expect(modal.components[3]!.component.options!.map((option) => option.value)).toEqual(['CQC', 'Climbing']);
    const started = await sandbox().one({ user: 'sasha', modal: modal.custom_id, fields });
    expect(started).toMatchObject({ kind: 'reply', ephemeral: false });
    const byCommand = await sandbox().one({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', ...fields } });
    // The same opening, but for the contest's number.
    expect(textOf(started).replace(/#\d+/g, '#N')).toBe(textOf(byCommand).replace(/#\d+/g, '#N'));
    expect(started.allowedMentions).toEqual(byCommand.allowedMentions);
    // And the same contest: the challenged player accepts it with its buttons.
    const contestId = /Contest #(\d+)/.exec(textOf(started))![1]!;
    expect((await sandbox().one({ user: 'mike', button: `contest:accept:${contestId}`, message: started.messageId! })).kind).toBe('modal');
  });

  it('refuses yourself and bots before the form, in /contest start’s words; without a Tac Talk sheet, as /contest start does', async () => {
    await importSheet(sandbox(), 'sasha', KAT);
    const self = await sandbox().one({ user: 'sasha', menu: 'Challenge to a contest', target: 'sasha' });
    expect(self).toMatchObject({ kind: 'reply', ephemeral: true, content: '⚠️ You cannot contest yourself. Pick another player.' });
    const bot = await sandbox().one({ user: 'sasha', menu: 'Challenge to a contest', target: 'Tac Talk Bot' });
    expect(bot).toMatchObject({ kind: 'reply', ephemeral: true, content: '⚠️ You cannot contest a bot: a contest is between two players.' });
    const noSheet = await sandbox().one({ user: 'eve', menu: 'Challenge to a contest', target: 'mike' });
    const noSheetByCommand = await sandbox().one({ user: 'eve', command: 'contest start', options: { opponent: 'mike', ...fields } });
    expect(noSheet).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(noSheet.content).toBe(noSheetByCommand.content);
  });

  it('a refused form says why and gives back what was typed; a forged form against oneself is refused as the menu is', async () => {
    await importSheet(sandbox(), 'sasha', KAT);
    await importSheet(sandbox(), 'mike', TROY);
    const form = await sandbox().one({ user: 'sasha', menu: 'Challenge to a contest', target: 'mike' });
    const customId = (form.modal as { custom_id: string }).custom_id;
    const wrongSkill = await sandbox().one({ user: 'sasha', modal: customId, fields: { ...fields, skill: 'Climbing', archetypes: 'Grit' } });
    expect(wrongSkill).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(wrongSkill.content).toContain('Grit');
    expect(wrongSkill.content).toContain('What you typed:');
    expect(wrongSkill.content).toContain('- intent: `grab the keys first`');
    const self = await sandbox().one({ user: 'sasha', modal: `contestmenu:${sandbox().fake.user('sasha').id}`, fields });
    expect(self).toMatchObject({ ephemeral: true });
    expect(self.content).toContain('You cannot contest yourself. Pick another player.');
    const garbled = await sandbox().one({ user: 'sasha', modal: 'contestmenu:not-a-user', fields });
    expect(garbled.content).toContain('This form is from an older version of the bot, or was not made by it.');
    expect(await sandbox().bot.store.db.contest.count()).toBe(0);
  });
});

describe('Add to journal', () => {
  it('keeps a member’s message and a roll’s result as notes, with who wrote them, who added them and a link; answers privately', async () => {
    await importSheet(sandbox(), 'sasha', KAT);
    const said = sandbox().fake.say('mike', 'Troy kicks the door in. <@everyone>');
    const added = await sandbox().one({ user: 'sasha', menu: 'Add to journal', message: said.id });
    expect(added).toMatchObject({ kind: 'reply', ephemeral: true, content: 'Added to the journal.', allowedMentions: NO_PINGS });
    const rolled = await challengeRoll();
    await sandbox().one({ user: 'eve', menu: 'Add to journal', message: rolled.messageId! });
    const notes = await sandbox().bot.store.db.journalEntry.findMany({ where: { kind: 'note' }, orderBy: { id: 'asc' } });
    expect(notes.map((note) => note.userId)).toEqual([sandbox().fake.user('sasha').id, sandbox().fake.user('eve').id]);
    const [spoken, result] = notes.map((note) => JSON.parse(note.details) as { text: string; messageUrl: string });
    const link = (id: string) => `https://discord.com/channels/${sandbox().fake.guildId}/${sandbox().fake.channelId}/${id}`;
    expect(spoken).toEqual({ text: 'mike: Troy kicks the door in. <@everyone>', messageUrl: link(said.id) });
    expect(result!.text).toMatch(/^Tac Talk Bot: \*\*.+\*\*/);
    expect(result!.messageUrl).toBe(link(rolled.messageId!));
    // And the exported journal reads them.
    const exported = await sandbox().one({ user: 'sasha', command: 'journal export' });
    expect(exported.attachments?.[0]?.content).toContain('Troy kicks the door in.');
  });

  it('a message with nothing to keep is refused, saying what to do instead', async () => {
    const empty = sandbox().fake.say('mike', '');
    const refused = await sandbox().one({ user: 'sasha', menu: 'Add to journal', message: empty.id });
    expect(refused).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(refused.content).toContain('This message has no text to keep');
    expect(await sandbox().bot.store.db.journalEntry.count({ where: { kind: 'note' } })).toBe(0);
  });
});

describe('on an NPC’s message (posted under its name through the channel’s webhook)', () => {
  it('Replay this roll takes it as the bot’s own; Add to journal names the NPC as its author', async () => {
    const dispatcher = { user: 'dee', roles: ['dispatcher'] };
    await sandbox().one({ ...dispatcher, command: 'npc create', options: { name: 'Thug' } });
    await sandbox().one({ ...dispatcher, command: 'npc skill set', options: { npc: 'Thug', name: 'Handgun Handling', level: 40 } });
    await sandbox().one({ ...dispatcher, command: 'roll challenge', options: { npc: 'Thug', skill: 'Handgun Handling', cl: 90 } });
    const posted = sandbox().fake.messages().find((message) => message.webhook !== undefined)!;
    expect(posted).toBeDefined();
    const rollId = /Roll (\w{8}) ·/.exec(textOf(posted))![1]!;
    const replayed = await sandbox().one({ user: 'eve', menu: 'Replay this roll', message: posted.id });
    expect(textOf(replayed)).toBe(textOf(await sandbox().one({ user: 'eve', command: 'roll replay', options: { id: rollId } })));

    await sandbox().one({ user: 'eve', menu: 'Add to journal', message: posted.id });
    const note = await sandbox().bot.store.db.journalEntry.findFirstOrThrow({ where: { kind: 'note' } });
    expect((JSON.parse(note.details) as { text: string }).text).toMatch(/^Thug: /);
  });
});
