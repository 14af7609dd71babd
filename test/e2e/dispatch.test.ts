// A Dispatcher asks a player for a roll, the CL shown or hidden; only that player rolls, and a hidden CL reaches
// nobody but the Dispatcher.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';
import { LOCK_PICKING_INVESTIGATION } from '../helpers/tables.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const HIDDEN_CL = 173;
/** How every Dispatcher-only refusal ends on a server that chose no role. */
const WHO_IS_DISPATCHER = 'Here a Dispatcher has a role named @Dispatcher or the Manage Server permission; a member with Manage Server can pick one role instead with `/config dispatcher-role`.';
/** What every direct call states: the seed asks a roll for a clear intent and a stated outcome. */
const STATED = { intent: 'get through the door', outcome: 'Troy is inside' };

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await startTestSandbox({ seeds: Array.from({ length: 30 }, (_, index) => `dispatch-${index}`) });
  await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Lock Picking', level: 60 } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
  await sandbox.one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
});
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

/** A press that settles a request: its message's update (a short notice in the channel, and a settled ping, follow it). */
async function settle(request: SandboxInteractionRequest): Promise<SandboxResponse> {
  const { responses } = await sandbox.act(request);
  const updates = responses.filter((response) => response.kind === 'update');
  expect(updates, JSON.stringify(responses)).toHaveLength(1);
  return updates[0]!;
}

function buttonsOf(response: SandboxResponse): string[] {
  return (response.components as Array<{ components: Array<{ custom_id: string }> }>).flatMap((row) => row.components.map((c) => c.custom_id));
}

/** Posts a request and returns the public message's response and id. */
async function request(options: Record<string, unknown>, subcommand = 'challenge') {
  const result = await sandbox.act({ ...DISPATCHER, command: `dispatch ${subcommand}`, options: { player: 'mike', ...STATED, ...options } });
  const ack = result.responses.find((response) => response.ephemeral)!;
  const post = result.responses.find((response) => !response.ephemeral)!;
  expect(ack.content).toContain('Posted request');
  return { ack, post, message: post.messageId! };
}

async function investigationTable(): Promise<void> {
  await sandbox.bot.store.tables.save(sandbox.fake.guildId, LOCK_PICKING_INVESTIGATION);
}

describe('/dispatch challenge', () => {
  it('with the CL shown: pings only the player, only they can roll, and the result shows every number', async () => {
    const { post, message } = await request({ skill: 'Lock Picking', cl: 90, archetypes: 'Acuity' });
    const mikeId = sandbox.fake.user('mike').id;
    expect(post.allowedMentions).toEqual({ parse: [], users: [mikeId] });
    expect(textOf(post)).toContain('**Lock Picking** + Acuity vs CL **90**');
    const id = /#(\d+)/.exec(textOf(post))![1];

    const intruder = await sandbox.one({ user: 'sasha', button: `dispatch:roll:${id}`, message });
    expect(intruder).toMatchObject({ ephemeral: true });
    expect(intruder.content).toContain(`for <@${mikeId}> only`);

    const rolled = await settle({ user: 'mike', button: `dispatch:roll:${id}`, message });
    expect(rolled.kind).toBe('update');
    const seedUsed = 'dispatch-0';
    const die = rollD100(seededRng(seedUsed));
    expect(textOf(rolled)).toContain(`${die.value} (D100) + 60 Lock Picking + 10 Acuity = **${die.value + 70}**`);
    expect(buttonsOf(rolled)).toEqual([]);
    // The opening's "take it or decline" is gone once the roll is taken.
    expect(sandbox.fake.messages().find((m) => m.id === message)!.content).toBe('');
  });

  it('only a Dispatcher can ask, and the player must have the skill now', async () => {
    const refused = await sandbox.one({ user: 'sasha', command: 'dispatch challenge', options: { player: 'mike', ...STATED, skill: 'Driving', cl: 50 } });
    expect(refused.content).toBe(`⚠️ Only a Dispatcher can call for rolls. ${WHO_IS_DISPATCHER}`);
    const noSkill = await sandbox.one({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', ...STATED, skill: 'Flying', cl: 50 } });
    expect(noSkill.content).toContain('Troy has no skill named **Flying**');
    const badCl = await sandbox.one({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', ...STATED, skill: 'Driving', cl: 300 } });
    expect(badCl.content).toContain('from 0 to 200');
    expect(sandbox.fake.messages()).toHaveLength(0);
  });

  it('with a hidden CL: investigation reveals privately, the result shows the player their dice and total but never the CL, the Dispatcher alone sees the numbers', async () => {
    await investigationTable();
    const { ack, post, message } = await request({ skill: 'Lock Picking', cl: HIDDEN_CL, hidden: true });
    expect(ack.content).toContain('investigate with **Investigation: Lock Picking**');
    const id = /#(\d+)/.exec(textOf(post))![1];
    expect(textOf(post)).toContain('vs CL **hidden**');
    expect(buttonsOf(post)).toEqual([`dispatch:roll:${id}`, `dispatch:decline:${id}`, `dispatch:investigate:${id}`, `dispatch:cancel:${id}`, `dispatch:details:${id}`]);

    const peek = await sandbox.one({ user: 'mike', button: `dispatch:details:${id}`, message });
    expect(peek.content).toBe(`Only a Dispatcher can see the numbers of a hidden roll. ${WHO_IS_DISPATCHER}`);
    const theirs = await sandbox.one({ user: 'sasha', button: `dispatch:investigate:${id}`, message });
    expect(theirs.content).toContain('only');

    const investigated = await sandbox.act({ user: 'mike', button: `dispatch:investigate:${id}`, message });
    const [update, note] = investigated.responses;
    expect(update!.kind).toBe('update');
    expect(textOf(update!)).toContain('investigated the difficulty');
    expect(note).toMatchObject({ kind: 'followup', ephemeral: true });
    const investigationDice = rollD100(seededRng('dispatch-0'));
    const investigationTotal = investigationDice.value + 60;
    expect(note!.content).toContain(`🎲 \`[${investigationDice.tens}][${investigationDice.ones}] → ${investigationDice.value}\``);
    expect(note!.content).toContain(`${investigationDice.value} + 60 Lock Picking = **${investigationTotal}**`);
    if (investigationTotal > 140) expect(note!.content).toContain(`The Challenge Level is **${HIDDEN_CL}**`);
    else if (investigationTotal > 100) expect(note!.content).toContain('between **160 and 179**');
    else expect(note!.content).toContain('Nothing about the Challenge Level is revealed');
    const again = await sandbox.fake.interact({ user: 'mike', button: `dispatch:investigate:${id}`, message }).catch((error: Error) => error);
    expect(String(again instanceof Error ? again.message : JSON.stringify(again))).toMatch(/no component|already investigated/);

    const rolled = await settle({ user: 'mike', button: `dispatch:roll:${id}`, message });
    const d100 = rollD100(seededRng('dispatch-1'));
    const die = d100.value;
    const success = die + 60 >= HIDDEN_CL;
    expect(textOf(rolled)).toContain(success ? '✅ **success**' : '❌ **failure**');
    // The player sees their dice and the total they make; never the CL, the margin or the chance.
    expect(textOf(rolled)).toContain(`🎲 \`[${d100.tens}][${d100.ones}] → ${die}\``);
    expect(textOf(rolled)).toContain(`${die} (D100) + 60 Lock Picking = **${die + 60}**`);
    expect(textOf(rolled)).not.toMatch(/margin|Chance of success|%/);

    const numbers = await sandbox.one({ ...DISPATCHER, button: `dispatch:details:${id}`, message });
    expect(numbers.ephemeral).toBe(true);
    expect(textOf(numbers)).toContain(`vs CL **${HIDDEN_CL}**`);
    expect(textOf(numbers)).toContain(`${die} (D100) + 60 Lock Picking = **${die + 60}**`);

    const rollId = /Roll (\w{8})/.exec(textOf(rolled))![1]!;
    const replayedByPlayer = await sandbox.one({ user: 'mike', command: 'roll replay', options: { id: rollId } });
    expect(textOf(replayedByPlayer)).toContain('the dice match');
    const loggedForPlayer = await sandbox.one({ user: 'mike', command: 'log' });
    expect(textOf(loggedForPlayer)).toContain('Lock Picking vs a hidden CL');
    const replayedByDispatcher = await sandbox.one({ ...DISPATCHER, command: 'roll replay', options: { id: rollId } });
    expect(replayedByDispatcher.ephemeral).toBe(true);
    expect(textOf(replayedByDispatcher)).toContain(`vs CL ${HIDDEN_CL}`);

    // Nothing the channel or the player was shown holds the hidden CL, and no custom_id does.
    const seenByPlayerOrChannel = [
      ...sandbox.fake.messages().map((m) => JSON.stringify(m)),
      JSON.stringify(post),
      JSON.stringify(update),
      JSON.stringify(rolled),
      JSON.stringify(peek),
      JSON.stringify(theirs),
      JSON.stringify(replayedByPlayer),
      JSON.stringify(loggedForPlayer),
    ].join('\n');
    expect(seenByPlayerOrChannel).not.toMatch(new RegExp(`\\b${HIDDEN_CL}\\b`));
  });

  it('a hidden challenge finds its investigation table when drawn or pressed: one imported after posting serves it; "Investigation" serves every skill unless the skill has its own; the shipped example serves as imported', async () => {
    const { ack, post, message } = await request({ skill: 'Driving', cl: HIDDEN_CL, hidden: true });
    const id = /#(\d+)/.exec(textOf(post))![1];
    expect(ack.content).toContain('No investigation table for **Driving** yet: the player cannot investigate.');
    expect(ack.content).toContain('`Investigation: Driving`, or `Investigation` for every skill');
    expect(buttonsOf(post)).not.toContain(`dispatch:investigate:${id}`);

    // The Dispatcher imports the shipped example as it is; their Numbers redraws the request, which now offers it.
    const file = { filename: 'investigation.example.json', content: readFileSync(new URL('../../examples/investigation.example.json', import.meta.url), 'utf8') };
    expect((await sandbox.one({ ...DISPATCHER, command: 'table import', options: { file } })).content).toContain('Imported **Investigation (example)**');
    const numbers = await sandbox.act({ ...DISPATCHER, button: `dispatch:details:${id}`, message });
    expect(numbers.responses.map((response) => [response.kind, response.ephemeral])).toEqual([['update', false], ['followup', true]]);
    expect(textOf(numbers.responses[1]!)).toContain(`vs CL **${HIDDEN_CL}**`);
    const shown = sandbox.fake.messages().find((m) => m.id === message)!;
    expect(buttonsOf(shown as unknown as SandboxResponse)).toContain(`dispatch:investigate:${id}`);
    expect(textOf(shown)).toContain('**Investigate** first if you like');

    // Found again when pressed: the example adds the aptitude of the skill tested.
    const investigated = await sandbox.act({ user: 'mike', button: `dispatch:investigate:${id}`, message });
    const note = investigated.responses.find((response) => response.ephemeral)!;
    expect(note.content).toContain('🔎 **Investigation (example)**');
    expect(note.content).toMatch(/\d+ \+ 30 Driving = \*\*\d+\*\*/);

    // A table named Investigation serves every skill in place of the example; a skill's own table serves that skill.
    await sandbox.bot.store.tables.save(sandbox.fake.guildId, { ...LOCK_PICKING_INVESTIGATION, name: 'Investigation' });
    await investigationTable();
    expect((await request({ skill: 'Driving', cl: 90, hidden: true })).ack.content).toContain('The player may investigate with **Investigation**.');
    const lock = await request({ skill: 'Lock Picking', cl: 90, hidden: true });
    expect(lock.ack.content).toContain('The player may investigate with **Investigation: Lock Picking**.');
    const lockId = /#(\d+)/.exec(textOf(lock.post))![1];
    const lockNote = (await sandbox.act({ user: 'mike', button: `dispatch:investigate:${lockId}`, message: lock.message })).responses.find((response) => response.ephemeral)!;
    expect(lockNote.content).toContain('🔎 **Investigation: Lock Picking**');
  });

  it('Investigate pressed when no table serves any more is refused privately, and the message is drawn without it; nothing is rolled', async () => {
    await investigationTable();
    const { post, message } = await request({ skill: 'Lock Picking', cl: HIDDEN_CL, hidden: true });
    const id = /#(\d+)/.exec(textOf(post))![1];
    expect(buttonsOf(post)).toContain(`dispatch:investigate:${id}`);
    await sandbox.bot.store.tables.delete(sandbox.fake.guildId, 'Investigation: Lock Picking');
    const pressed = await sandbox.act({ user: 'mike', button: `dispatch:investigate:${id}`, message });
    const refused = pressed.responses.find((response) => response.ephemeral)!;
    expect(refused.content).toContain('There is no investigation table for Lock Picking on this server');
    expect(pressed.responses.filter((response) => !response.ephemeral).map(buttonsOf)).toEqual([[`dispatch:roll:${id}`, `dispatch:decline:${id}`, `dispatch:cancel:${id}`, `dispatch:details:${id}`]]);
    expect(await sandbox.bot.store.rolls.latestOfAllServers(10)).toEqual([]);
  });

  it('a hidden CL with no investigation table offers no Investigate; a shown CL cannot name one', async () => {
    const { post } = await request({ skill: 'Driving', cl: 120, hidden: true });
    expect(buttonsOf(post).some((id) => id.startsWith('dispatch:investigate'))).toBe(false);
    const refused = await sandbox.one({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', ...STATED, skill: 'Driving', cl: 50, investigation: 'Anything' } });
    expect(refused.content).toContain('only makes sense for a hidden CL');
  });

  it('the Dispatcher can cancel; a player cannot; a cancelled request cannot be rolled', async () => {
    const { post, message } = await request({ skill: 'Driving', cl: 50 });
    const id = /#(\d+)/.exec(textOf(post))![1];
    expect((await sandbox.one({ user: 'mike', button: `dispatch:cancel:${id}`, message })).content).toBe(`Only a Dispatcher can cancel a roll request. ${WHO_IS_DISPATCHER}`);
    const cancelled = await settle({ ...DISPATCHER, button: `dispatch:cancel:${id}`, message });
    expect(textOf(cancelled)).toContain('Cancelled by the Dispatcher');
    expect(buttonsOf(cancelled)).toEqual([]);
  });
});

describe('/dispatch linked', () => {
  it('hidden, with an investigation table for its first skill: offers no Investigate, and a forged press is refused', async () => {
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    await sandbox.bot.store.tables.save(sandbox.fake.guildId, {
      name: 'Investigation: Climbing',
      die: 'd100',
      asks: 'Add your Climbing aptitude',
      skill: null,
      rows: [{ min: 1, max: 200, text: 'You know this wall exactly.', next: null, reveals: 'cl' }],
    });
    const { ack, post, message } = await request({ rolls: 'Climbing vs 90; Driving vs 110', hidden: true }, 'linked');
    expect(ack.content).not.toMatch(/investigat/i);
    const id = /#(\d+)/.exec(textOf(post))![1];
    expect(buttonsOf(post)).toEqual([`dispatch:roll:${id}`, `dispatch:decline:${id}`, `dispatch:cancel:${id}`, `dispatch:details:${id}`]);

    // A button the bot never put there, pushed onto its message as a modified client could send it.
    const stored = (sandbox.fake as unknown as { state: { messages: Map<string, { components: unknown[] }> } }).state.messages.get(message)!;
    const original = stored.components;
    stored.components = [...original, { type: 1, components: [{ type: 2, style: 2, custom_id: `dispatch:investigate:${id}`, label: 'Investigate' }] }];
    const pressed = await sandbox.act({ user: 'mike', button: `dispatch:investigate:${id}`, message });
    stored.components = original;
    // Refused privately, and the message, which no longer showed the request as stored, is drawn as it is.
    const forged = pressed.responses.find((response) => response.ephemeral)!;
    expect(pressed.responses.filter((response) => !response.ephemeral).map(buttonsOf)).toEqual([[`dispatch:roll:${id}`, `dispatch:decline:${id}`, `dispatch:cancel:${id}`, `dispatch:details:${id}`]]);
    expect(forged.content).toContain('A linked roll allows no investigation.');
    expect(textOf(forged)).not.toMatch(/\b(90|110)\b/);

    // Nothing was rolled or revealed: the player still rolls both parts.
    expect(await sandbox.bot.store.rolls.latestOfAllServers(10)).toEqual([]);
    const rolled = await settle({ user: 'mike', button: `dispatch:roll:${id}`, message });
    expect(textOf(rolled)).toMatch(/\d of 2 succeeded/);
    expect(textOf(rolled)).not.toContain('investigated');
  });

  it('each part tests a different skill: /dispatch linked, /roll linked and the Call for a roll form refuse a skill named twice, posting and rolling nothing', async () => {
    const twice = 'each part of a linked roll tests a different one';
    const refused = await sandbox.one({ ...DISPATCHER, command: 'dispatch linked', options: { player: 'mike', ...STATED, rolls: 'Driving vs 100; driving +Acuity vs 120' } });
    expect(refused).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(refused.content).toContain(`**Driving** is named twice in the linked roll; each skill is rolled once. Parts 1 and 2 test the same skill, and ${twice}`);
    expect(sandbox.fake.messages()).toHaveLength(0);

    const own = await sandbox.one({ user: 'mike', command: 'roll linked', options: { rolls: 'Driving vs 100; Lock Picking vs 90; Driving vs 120' } });
    expect(own).toMatchObject({ ephemeral: true });
    expect(own.content).toContain('Parts 1 and 3 test the same skill');

    const stated = await sandbox.one({ user: 'mike', command: 'roll intent', options: STATED });
    const id = /Intent #(\d+)/.exec(textOf(stated))![1]!;
    const form = await sandbox.one({ ...DISPATCHER, modal: `dispatch:callform:${id}`, message: stated.messageId!, fields: { skill: 'Driving vs 100; Driving vs 120', cl: '', adds: '', consequence: '', consequence_table: '' } });
    expect(form).toMatchObject({ ephemeral: true });
    expect(form.content).toContain(twice);
    expect(textOf(sandbox.fake.messages().find((m) => m.id === stated.messageId)!)).toContain('Call for a roll');
    expect(await sandbox.bot.store.rolls.latestOfAllServers(10)).toEqual([]);
  });

  it('rolls every part from the player’s sheet, hidden CLs stay hidden, and no investigation is offered', async () => {
    const { post, message } = await request({ rolls: 'Lock Picking +Acuity vs 150; Driving vs 60', hidden: true }, 'linked');
    const id = /#(\d+)/.exec(textOf(post))![1];
    expect(buttonsOf(post)).toEqual([`dispatch:roll:${id}`, `dispatch:decline:${id}`, `dispatch:cancel:${id}`, `dispatch:details:${id}`]);
    expect(JSON.stringify(post)).not.toMatch(/\b150\b/);
    const rolled = await settle({ user: 'mike', button: `dispatch:roll:${id}`, message });
    expect(textOf(rolled)).toMatch(/\d of 2 succeeded/);
    expect(JSON.stringify(rolled)).not.toMatch(/\b150\b/);
    const refused = await sandbox.one({ ...DISPATCHER, command: 'dispatch linked', options: { player: 'mike', ...STATED, rolls: 'Driving vs 50', cl: 20 } });
    expect(refused.content).toContain('at least two');
  });
});
