// A challenge roll is a conversation (seed 000 "Challenge Rolls"): the player states an intent and an outcome, the
// Dispatcher answers with the roll and what failing costs, and the player, knowing that, takes the roll or declines.
import { afterEach, describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { resolveOutcomeRoll, type OutcomeTable } from '../../src/engine/tables.js';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const CLIMB = { intent: 'scale the side of the building to the balcony on the 3rd floor', outcome: 'Troy is on the balcony, unseen' };

const FALL_DAMAGE: OutcomeTable = {
  name: 'Fall Damage',
  die: 'd100',
  asks: 'Nothing to add',
  skill: null,
  rows: [
    { min: 1, max: 40, text: 'Bruised: Troy limps on.', next: null, reveals: null },
    { min: 41, max: 90, text: 'A broken leg.', next: null, reveals: null },
    { min: 91, max: 200, text: 'Troy does not survive the fall.', next: null, reveals: null },
  ],
};

/** A seed whose D100 makes Troy's Climbing 40 fail against CL 120 (a die under 80): computed, not guessed. */
const FAILING_SEED = Array.from({ length: 100 }, (_, index) => `climb-${index}`).find((seed) => rollD100(seededRng(seed)).value < 80)!;

let sandbox: TestSandbox;
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

async function start(seeds: string[] = []): Promise<void> {
  sandbox = await startTestSandbox({ seeds });
  await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Lock Picking', level: 60 } });
  await sandbox.bot.store.tables.save(sandbox.fake.guildId, FALL_DAMAGE);
}

/** A press that settles a request: its message's update (a short notice in the channel, and a settled ping, follow it). */
async function settle(request: SandboxInteractionRequest): Promise<SandboxResponse> {
  const { responses } = await sandbox.act(request);
  const updates = responses.filter((response) => response.kind === 'update');
  expect(updates, JSON.stringify(responses)).toHaveLength(1);
  return updates[0]!;
}

function buttonsOf(response: Pick<SandboxResponse, 'components'>): string[] {
  return (response.components as Array<{ components: Array<{ custom_id: string }> }>).flatMap((row) => row.components.map((c) => c.custom_id));
}

function labelsOf(response: Pick<SandboxResponse, 'components'>): string[] {
  return (response.components as Array<{ components: Array<{ label: string }> }>).flatMap((row) => row.components.map((c) => c.label));
}

/** The values a form opens with, by field (only those filled in). */
function formValues(response: SandboxResponse): Record<string, string> {
  const modal = response.modal as { components: Array<{ components?: Array<{ custom_id: string; value?: string }>; component?: { custom_id: string; value?: string } }> };
  const values: Record<string, string> = {};
  for (const row of modal.components) for (const input of row.components ?? (row.component ? [row.component] : [])) if (input.value) values[input.custom_id] = input.value;
  return values;
}

/** The channel's copy of a message, as everyone sees it now. */
function channelMessage(messageId: string) {
  return sandbox.fake.messages().find((message) => message.id === messageId)!;
}

/** Presses a button the message no longer shows, as a stale client or a forged request would. */
async function forgedPress(request: Omit<SandboxInteractionRequest, 'message'> & { button: string }, messageId: string): Promise<SandboxResponse> {
  const stored = (sandbox.fake as unknown as { state: { messages: Map<string, { components: unknown[] }> } }).state.messages.get(messageId)!;
  const original = stored.components;
  stored.components = [...original, { type: 1, components: [{ type: 2, style: 2, custom_id: request.button, label: 'Old button' }] }];
  try {
    // Refused privately; the message, which no longer showed the request as stored, may be drawn again as it is.
    const { responses } = await sandbox.act({ ...request, message: messageId });
    expect(responses.filter((response) => response.ephemeral)).toHaveLength(1);
    return responses.find((response) => response.ephemeral)!;
  } finally {
    stored.components = original;
  }
}

/** Mike states Troy's intent; returns the intent's message and id. */
async function stateTheClimb() {
  const stated = await sandbox.one({ user: 'mike', command: 'roll intent', options: CLIMB });
  expect(stated).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [] } });
  const id = /Intent #(\d+)/.exec(textOf(stated))![1]!;
  return { stated, id, message: stated.messageId! };
}

describe('the Dispatcher answers a stated intent', () => {
  it("Mike's climb: the Dispatcher calls for Climbing with a fall as the consequence, Mike sees it and declines; nothing is rolled", async () => {
    await start();
    const { stated, id, message } = await stateTheClimb();
    const mikeId = sandbox.fake.user('mike').id;
    expect(textOf(stated)).toContain(`<@${mikeId}> (**Troy**) wants to **${CLIMB.intent}**`);
    expect(textOf(stated)).toContain(`**If it works:** ${CLIMB.outcome}`);
    expect(buttonsOf(stated)).toEqual([`dispatch:call:${id}`, `dispatch:noroll:${id}`, `dispatch:withdraw:${id}`, `dispatch:cancel:${id}`]);

    // Players may not pick the roll: only a Dispatcher answers.
    expect((await sandbox.one({ user: 'mike', button: `dispatch:call:${id}`, message })).content).toContain('Only a Dispatcher can call for a roll');
    const form = await sandbox.one({ ...DISPATCHER, button: `dispatch:call:${id}`, message });
    expect(form.kind).toBe('modal');

    const answered = await sandbox.act({
      ...DISPATCHER,
      modal: `dispatch:callform:${id}`,
      message,
      fields: { skill: 'Climbing', cl: '120', adds: '', consequence: 'Troy falls from the wall.', consequence_table: 'fall damage' },
    });
    const [update, ping] = answered.responses;
    expect(update!.kind).toBe('update');
    const asked = textOf(update!);
    expect(asked).toContain(`wants to **${CLIMB.intent}**`);
    expect(asked).toContain('**Climbing** vs CL **120**');
    // Mike understands what failing costs before he decides.
    expect(asked).toContain('**If it fails:** Troy falls from the wall. Then an **Outcome Roll on Fall Damage**.');
    expect(asked).toContain('**Take the roll** or **Decline**');
    expect(buttonsOf(update!)).toEqual([`dispatch:roll:${id}`, `dispatch:decline:${id}`, `dispatch:cancel:${id}`]);
    expect(ping).toMatchObject({ kind: 'followup', ephemeral: false, allowedMentions: { parse: [], users: [mikeId] } });

    // Only Mike decides; Sasha's press is refused privately and changes nothing.
    const intruder = await sandbox.one({ user: 'sasha', button: `dispatch:decline:${id}`, message });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(intruder.content).toContain(`for <@${mikeId}> only`);

    // Mike decides Troy takes the stairs.
    const declined = await settle({ user: 'mike', button: `dispatch:decline:${id}`, message });
    expect(declined.kind).toBe('update');
    expect(textOf(declined)).toContain('**Troy** does not attempt it. Nothing was rolled.');
    expect(buttonsOf(declined)).toEqual([]);
    expect(textOf(channelMessage(message))).toContain('does not attempt it');

    expect(await sandbox.bot.store.rolls.latestOfAllServers(10)).toEqual([]);
    const log = textOf(await sandbox.one({ user: 'sasha', command: 'log' }));
    expect(log).toContain(`*not a roll*`);
    expect(log).toContain(`<@${mikeId}> as **Troy** declined request #${id}: Climbing vs CL 120 to ${CLIMB.intent}`);
    expect(log).not.toMatch(/^`\w{8}`/m);
  });

  it('No roll needed: the action happens as stated, nothing is rolled; a player withdraws an intent nobody answered', async () => {
    await start();
    const first = await stateTheClimb();
    expect((await sandbox.one({ user: 'mike', button: `dispatch:noroll:${first.id}`, message: first.message })).content).toContain('Only a Dispatcher');
    const granted = await settle({ ...DISPATCHER, button: `dispatch:noroll:${first.id}`, message: first.message });
    expect(textOf(granted)).toContain('no roll needed. It happens as stated.');
    expect(buttonsOf(granted)).toEqual([]);

    const second = await stateTheClimb();
    expect((await sandbox.one({ user: 'sasha', button: `dispatch:withdraw:${second.id}`, message: second.message })).content).toContain('only');
    const withdrawn = await settle({ user: 'mike', button: `dispatch:withdraw:${second.id}`, message: second.message });
    expect(textOf(withdrawn)).toContain('**Troy** withdrew the intent.');
    expect(buttonsOf(withdrawn)).toEqual([]);
    expect(await sandbox.bot.store.rolls.latestOfAllServers(10)).toEqual([]);
  });

  it('a player has at most three intents waiting; withdrawing one frees its place', async () => {
    await start();
    const waiting = [await stateTheClimb(), await stateTheClimb(), await stateTheClimb()];
    const fourth = await sandbox.one({ user: 'mike', command: 'roll intent', options: CLIMB });
    expect(fourth).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(fourth.content).toContain('You already have 3 intents waiting for a Dispatcher');
    await settle({ user: 'mike', button: `dispatch:withdraw:${waiting[0]!.id}`, message: waiting[0]!.message });
    expect((await sandbox.one({ user: 'mike', command: 'roll intent', options: CLIMB })).ephemeral).toBe(false);
  });

  it("the Dispatcher's form is checked as /dispatch is; a refusal posts nothing, and Fix the form reopens it as typed", async () => {
    await start();
    const mikeId = sandbox.fake.user('mike').id;
    const { id, message } = await stateTheClimb();
    const submit = (fields: Record<string, string>) => sandbox.one({ ...DISPATCHER, modal: `dispatch:callform:${id}`, message, fields: { adds: '', consequence: '', consequence_table: '', ...fields } });

    const badCl = await submit({ skill: 'Climbing', cl: '250', consequence: 'Troy falls.' });
    expect(badCl).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(badCl.content).toContain('from 0 to 200');
    expect(badCl.content).toContain('Nothing was posted. **Fix the form** reopens it with what you typed.');
    expect(buttonsOf(badCl)).toEqual([`dispatch:fixform:${id}`]);
    const note = badCl.messageId!;

    // Fix the form opens the form as it was typed; so does Call for a roll for the same Dispatcher, and only for them.
    const typed = { skill: 'Climbing', cl: '250', consequence: 'Troy falls.' };
    const reopened = await sandbox.one({ ...DISPATCHER, button: `dispatch:fixform:${id}`, message: note });
    expect(reopened.kind).toBe('modal');
    expect(formValues(reopened)).toEqual(typed);
    expect(formValues(await sandbox.one({ ...DISPATCHER, button: `dispatch:call:${id}`, message }))).toEqual(typed);
    expect(formValues(await sandbox.one({ user: 'otto', roles: ['dispatcher'], button: `dispatch:call:${id}`, message }))).toEqual({});

    // Sent again from the note: refused again, the note says why and keeps its button.
    const fixing = (fields: Record<string, string>) => sandbox.act({ ...DISPATCHER, modal: `dispatch:fixedform:${id}`, message: note, fields: { adds: '', consequence: '', consequence_table: '', ...fields } });
    const misspelt = (await fixing({ skill: 'Climbng', cl: '90' })).responses;
    expect(misspelt.map((response) => [response.kind, response.ephemeral])).toEqual([['update', true]]);
    // The skill is checked against Mike's sheet: the nearest names, and how to add it to his sheet (player:).
    expect(misspelt[0]!.content).toContain('Troy has no skill named **Climbng**. Nearest: **Climbing** 40.');
    expect(misspelt[0]!.content).toContain(`You can call for one of those or add it with \`/sheet skill set name:Climbng level:… player:\` <@${mikeId}>.`);
    expect(misspelt[0]!.allowedMentions).toEqual({ parse: [] });
    expect(buttonsOf(misspelt[0]!)).toEqual([`dispatch:fixform:${id}`]);
    expect((await submit({ skill: 'Climbing', cl: 'hard' })).content).toContain('write `?120` to hide it');
    const noTable = await submit({ skill: 'Climbing', cl: '90', consequence_table: 'Fall Damages' });
    expect(noTable.content).toContain('There is no outcome table named **Fall Damages**');
    expect(formValues(await sandbox.one({ ...DISPATCHER, button: `dispatch:fixform:${id}`, message: noTable.messageId! }))).toEqual({ skill: 'Climbing', cl: '90', consequence_table: 'Fall Damages' });
    expect(textOf(channelMessage(message))).toContain('Call for a roll');
    expect(sandbox.fake.messages().filter((m) => !m.ephemeral)).toHaveLength(1);

    // Fixed: the intent's message becomes the request, the note says where, and Mike is pinged.
    const fixed = (await fixing({ skill: 'Climbing', cl: '90', consequence_table: 'Fall Damage' })).responses;
    const noteNow = fixed.find((response) => response.kind === 'update')!;
    expect(noteNow).toMatchObject({ ephemeral: true, components: [] });
    expect(noteNow.content).toContain(`Called for the roll on [intent #${id}](https://discord.com/channels/${sandbox.fake.guildId}/`);
    const asked = textOf(channelMessage(message));
    expect(asked).toContain('**Climbing** vs CL **90**');
    expect(asked).toContain('**If it fails:** An **Outcome Roll on Fall Damage**.');
    expect(buttonsOf(channelMessage(message) as unknown as SandboxResponse)).toEqual([`dispatch:roll:${id}`, `dispatch:decline:${id}`, `dispatch:cancel:${id}`]);
    expect(fixed.find((response) => response.kind === 'followup' && !response.ephemeral)).toMatchObject({ allowedMentions: { parse: [], users: [mikeId] } });
    // Another note's button, pressed late, says the intent was answered.
    const late = await sandbox.one({ ...DISPATCHER, button: `dispatch:fixform:${id}`, message: noTable.messageId! });
    expect(late.content).toContain('A Dispatcher has already called for a roll here.');

    // A hidden CL (`?`), archetypes and a modifier in one field.
    const second = await stateTheClimb();
    await sandbox.one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Dexterity', modifier: 5 } });
    const answered = await sandbox.act({ ...DISPATCHER, modal: `dispatch:callform:${second.id}`, message: second.message, fields: { skill: 'Climbing', cl: '?137', adds: 'Dexterity, -10', consequence: '', consequence_table: '' } });
    const hiddenAsk = textOf(answered.responses[0]!);
    expect(hiddenAsk).toContain('**Climbing** + Dexterity −10 vs CL **hidden**');
    expect(hiddenAsk).toContain('**If it fails:** It does not happen; the Dispatcher named no other consequence.');
    expect(JSON.stringify(answered.responses)).not.toMatch(/\b137\b/);
  });
});

describe('pings that lead somewhere', () => {
  it('the ping of a roll called for links to it and is settled with it; each settled request is said in a short new message linking to it; only the player concerned is pinged', async () => {
    await start([FAILING_SEED, 'fall-0']);
    const mikeId = sandbox.fake.user('mike').id;
    const linkTo = (messageId: string) => `https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${messageId}`;
    const { id, message } = await stateTheClimb();

    const answered = await sandbox.act({ ...DISPATCHER, modal: `dispatch:callform:${id}`, message, fields: { skill: 'Climbing', cl: '120', adds: '', consequence: 'Troy falls.', consequence_table: 'Fall Damage' } });
    const ping = answered.responses.find((response) => response.kind === 'followup')!;
    expect(ping).toMatchObject({ ephemeral: false, allowedMentions: { parse: [], users: [mikeId] } });
    expect(ping.content).toBe(`🔔 <@${mikeId}>, the Dispatcher answered your intent with a roll: take it or decline it on [request #${id}](${linkTo(message)}).`);

    // Mike takes it far up the channel: the request is edited there, and a short notice below links to it, pinging nobody.
    const taken = await sandbox.act({ user: 'mike', button: `dispatch:roll:${id}`, message });
    expect(taken.responses.map((response) => response.kind)).toEqual(['update', 'followup', 'edit']);
    const notice = taken.responses[1]!;
    expect(notice).toMatchObject({ ephemeral: false, allowedMentions: { parse: [] } });
    expect(notice.content).toBe(`🎲 [Request #${id}](${linkTo(message)}): **Troy** took the roll: ❌ failure. Next: **Outcome Roll: Fall Damage**, on the request.`);
    // The ping no longer asks for a choice that was made.
    const settled = sandbox.fake.messages().find((m) => m.id === ping.messageId)!;
    expect(settled.content).toBe(`🔔 <@${mikeId}>, the Dispatcher answered your intent with a roll. Settled: **Troy** took the roll: ❌ failure ([request #${id}](${linkTo(message)})).`);

    // The Outcome Roll, its own message, links back to the request too.
    const outcome = await sandbox.act({ user: 'mike', button: `dispatch:consequence:${id}`, message });
    expect(textOf(outcome.responses.find((response) => response.kind === 'followup')!)).toContain(`([request #${id}](${linkTo(message)}))`);

    // The Dispatcher settles an intent for Mike: he is pinged, with the link; his own withdrawal and decline ping nobody.
    const granted = await stateTheClimb();
    const grant = (await sandbox.act({ ...DISPATCHER, button: `dispatch:noroll:${granted.id}`, message: granted.message })).responses.find((response) => response.kind === 'followup')!;
    expect(grant).toMatchObject({ allowedMentions: { parse: [], users: [mikeId] } });
    expect(grant.content).toBe(`✅ <@${mikeId}>, [Intent #${granted.id}](${linkTo(granted.message)}): no roll needed, it happens as stated.`);
    const withdrawn = await stateTheClimb();
    const withdraw = (await sandbox.act({ user: 'mike', button: `dispatch:withdraw:${withdrawn.id}`, message: withdrawn.message })).responses.find((response) => response.kind === 'followup')!;
    expect(withdraw).toMatchObject({ allowedMentions: { parse: [] } });
    expect(withdraw.content).toBe(`↩️ [Intent #${withdrawn.id}](${linkTo(withdrawn.message)}): **Troy** withdrew it.`);
    const direct = await sandbox.act({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', cl: 100, ...CLIMB } });
    const post = direct.responses.find((response) => !response.ephemeral)!;
    const directId = /#(\d+)/.exec(textOf(post))![1]!;
    const declined = (await sandbox.act({ user: 'mike', button: `dispatch:decline:${directId}`, message: post.messageId! })).responses;
    expect(declined.map((response) => response.kind)).toEqual(['update', 'followup']);
    expect(declined[1]!.content).toBe(`🙅 [Request #${directId}](${linkTo(post.messageId!)}): **Troy** declined it: nothing was rolled.`);
    expect(declined[1]!.allowedMentions).toEqual({ parse: [] });
    const cancelled = await sandbox.act({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', cl: 100, ...CLIMB } });
    const cancelPost = cancelled.responses.find((response) => !response.ephemeral)!;
    const cancelId = /#(\d+)/.exec(textOf(cancelPost))![1]!;
    const cancel = (await sandbox.act({ ...DISPATCHER, button: `dispatch:cancel:${cancelId}`, message: cancelPost.messageId! })).responses.find((response) => response.kind === 'followup')!;
    expect(cancel).toMatchObject({ allowedMentions: { parse: [], users: [mikeId] } });
    expect(cancel.content).toBe(`⛔ <@${mikeId}>, [Request #${cancelId}](${linkTo(cancelPost.messageId!)}): the Dispatcher cancelled it.`);
  });
});

describe('the player knows the odds before choosing', () => {
  it("a shown CL states the chance from the player's sheet now, or that failure is certain (Climbing + Dexterity vs CL 165: at most 150), and a redraw reads the sheet again; a hidden CL shows nothing of it", async () => {
    await start();
    await sandbox.one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Dexterity', modifier: 10 } });
    const call = (options: Record<string, unknown>) => sandbox.act({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', ...CLIMB, ...options } });

    const impossible = await call({ archetypes: 'Dexterity', cl: 165, consequence: 'Troy falls.', 'consequence-table': 'Fall Damage' });
    const post = impossible.responses.find((response) => !response.ephemeral)!;
    const ack = impossible.responses.find((response) => response.ephemeral)!;
    const id = /#(\d+)/.exec(textOf(post))![1]!;
    // Before Mike presses anything, the request says the roll cannot succeed, and what failing then costs.
    expect(textOf(post)).toContain('**Failure is certain** for **Troy**: the highest possible result is 150 (40 Climbing + 10 Dexterity + 100) < CL 165. Taking the roll fails with no dice rolled');
    expect(textOf(post)).toContain('**If it fails:** Troy falls. Then an **Outcome Roll on Fall Damage**.');
    expect(textOf(post).indexOf('Failure is certain')).toBeLessThan(textOf(post).indexOf('**Take the roll** or **Decline**'));
    expect(ack.content).toContain('Troy cannot succeed: failure is certain');

    // The sheet changes; the next time the message is drawn it reads the sheet again.
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 70 } });
    await forgedPress({ user: 'mike', button: `dispatch:consequence:${id}` }, post.messageId!);
    expect(textOf(channelMessage(post.messageId!))).toContain('**Chance of success: 16%** for **Troy**: D100 + 80 (70 Climbing + 10 Dexterity) against CL 165: a D100 of 85 or more succeeds.');

    const even = textOf((await call({ cl: 120 })).responses.find((response) => !response.ephemeral)!);
    expect(even).toContain('**Chance of success: 51%** for **Troy**: D100 + 70 (70 Climbing) against CL 120: a D100 of 50 or more succeeds.');
    const certain = textOf((await call({ cl: 71 })).responses.find((response) => !response.ephemeral)!);
    expect(certain).toContain('**Success is certain** for **Troy**: the lowest possible result is 71 (70 Climbing + 1) ≥ CL 71. Taking the roll succeeds with no dice rolled.');

    const linked = await sandbox.act({ ...DISPATCHER, command: 'dispatch linked', options: { player: 'mike', rolls: 'Climbing vs 120; Lock Picking +Dexterity vs 190', ...CLIMB } });
    const linkedText = textOf(linked.responses.find((response) => !response.ephemeral)!);
    expect(linkedText).toContain('🎯 Chances for **Troy**, from the sheet now:');
    expect(linkedText).toContain('1. **Climbing**: **51%** (D100 + 70 against CL 120)');
    expect(linkedText).toContain('2. **Lock Picking**: **failure is certain** (at most 170 < CL 190)');
    expect(linkedText).toContain('Every part succeeds: **0%**.');

    const hidden = await call({ cl: 165, hidden: true });
    const hiddenPost = hidden.responses.find((response) => !response.ephemeral)!;
    expect(JSON.stringify(hiddenPost)).not.toMatch(/Chance|certain|%|165/);
    expect(JSON.stringify(hidden.responses.find((response) => response.ephemeral))).not.toMatch(/Chance|certain|165/);
  });
});

describe('a failure with a consequence table', () => {
  it('offers its Outcome Roll to the player once, also after a restart; the two rolls name each other in /log and /roll replay', async () => {
    const OUTCOME_SEED = 'fall-0';
    await start([FAILING_SEED, OUTCOME_SEED]);
    const mikeId = sandbox.fake.user('mike').id;
    const asked = await sandbox.act({
      ...DISPATCHER,
      command: 'dispatch challenge',
      options: { player: 'mike', skill: 'Climbing', cl: 120, ...CLIMB, consequence: 'Troy falls.', 'consequence-table': 'Fall Damage' },
    });
    const post = asked.responses.find((response) => !response.ephemeral)!;
    const message = post.messageId!;
    const id = /#(\d+)/.exec(textOf(post))![1]!;
    expect(textOf(post)).toContain('**If it fails:** Troy falls. Then an **Outcome Roll on Fall Damage**.');

    const taken = await settle({ user: 'mike', button: `dispatch:roll:${id}`, message });
    const die = rollD100(seededRng(FAILING_SEED)).value;
    expect(textOf(taken)).toContain(`${die} (D100) + 40 Climbing = **${die + 40}**`);
    expect(textOf(taken)).toContain('❌ **failure**');
    expect(textOf(taken)).toContain('**It failed, so:** Troy falls. Then an **Outcome Roll on Fall Damage**.');
    expect(buttonsOf(taken)).toEqual([`dispatch:consequence:${id}`]);
    expect(labelsOf(taken)).toEqual(['Outcome Roll: Fall Damage']);
    const challengeId = /Roll (\w{8})/.exec(textOf(taken))![1]!;

    const theirs = await sandbox.one({ user: 'sasha', button: `dispatch:consequence:${id}`, message });
    expect(theirs).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(theirs.content).toContain(`for <@${mikeId}> only`);

    const pressed = await sandbox.act({ user: 'mike', button: `dispatch:consequence:${id}`, message });
    // The Outcome Roll is in the channel before the request says it was made: deferred, posted, then the request edited.
    expect(pressed.responses.map((response) => response.kind)).toEqual(['deferred', 'followup', 'edit']);
    const [, result, update] = pressed.responses;
    const expected = resolveOutcomeRoll({ table: FALL_DAMAGE, modifiers: [] }, seededRng(OUTCOME_SEED));
    expect(buttonsOf(update!)).toEqual([]);
    expect(textOf(update!)).toContain(`Outcome Roll on **Fall Damage**: **${expected.result}**`);
    expect(result).toMatchObject({ kind: 'followup', ephemeral: false });
    expect(textOf(result!)).toContain(`After challenge roll \`${challengeId}\``);
    expect(textOf(result!)).toContain(expected.row.text);
    const outcomeId = /Roll (\w{8})/.exec(textOf(result!))![1]!;

    // Once only: a second press, now and after the bot restarts, rolls nothing.
    const again = await forgedPress({ user: 'mike', button: `dispatch:consequence:${id}` }, message);
    expect(again.content).toContain(`The Outcome Roll on Fall Damage was already made: roll ${outcomeId}.`);
    await sandbox.restartBot();
    const afterRestart = await forgedPress({ user: 'mike', button: `dispatch:consequence:${id}` }, message);
    expect(afterRestart).toMatchObject({ ephemeral: true });
    expect(afterRestart.content).toContain('already made');
    expect((await sandbox.bot.store.rolls.latestOfAllServers(10)).map((roll) => roll.id).sort()).toEqual([challengeId, outcomeId].sort());

    const log = textOf(await sandbox.one({ user: 'mike', command: 'log' }));
    expect(log).toContain(`\`${outcomeId}\``);
    expect(log).toContain(`outcome on Fall Damage, after challenge roll \`${challengeId}\``);
    const replayed = textOf(await sandbox.one({ user: 'mike', command: 'roll replay', options: { id: outcomeId } }));
    expect(replayed).toContain('the dice match');
    expect(replayed).toContain(`The consequence of failing challenge roll \`${challengeId}\``);
    const challengeReplay = textOf(await sandbox.one({ user: 'mike', command: 'roll replay', options: { id: challengeId } }));
    expect(challengeReplay).toContain(`Its failure led to the Outcome Roll \`${outcomeId}\``);
  });

  it("/dispatch autocompletes the consequence table and refuses one the server does not have; a table that names a skill adds the player's aptitude", async () => {
    await start([FAILING_SEED, 'grip-0']);
    await sandbox.bot.store.tables.save(sandbox.fake.guildId, { ...FALL_DAMAGE, name: 'Grip', asks: 'Add your Climbing aptitude', skill: 'Climbing' });
    const choices = await sandbox.one({ ...DISPATCHER, command: 'dispatch challenge', options: { 'consequence-table': 'fall' }, focused: 'consequence-table' });
    expect(choices.choices).toEqual([{ name: 'Fall Damage', value: 'Fall Damage' }]);
    const base = { player: 'mike', skill: 'Climbing', cl: 120, ...CLIMB };
    const unknown = await sandbox.one({ ...DISPATCHER, command: 'dispatch challenge', options: { ...base, 'consequence-table': 'Fal Damage' } });
    expect(unknown).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(unknown.content).toContain('There is no outcome table named **Fal Damage** on this server. Did you mean **Fall Damage**');
    expect(sandbox.fake.messages()).toHaveLength(0);

    const asked = await sandbox.act({ ...DISPATCHER, command: 'dispatch challenge', options: { ...base, 'consequence-table': 'grip' } });
    const post = asked.responses.find((response) => !response.ephemeral)!;
    const id = /#(\d+)/.exec(textOf(post))![1]!;
    await settle({ user: 'mike', button: `dispatch:roll:${id}`, message: post.messageId! });
    const pressed = await sandbox.act({ user: 'mike', button: `dispatch:consequence:${id}`, message: post.messageId! });
    const expected = resolveOutcomeRoll({ table: { ...FALL_DAMAGE, name: 'Grip', skill: 'Climbing' }, modifiers: [{ name: 'Climbing', value: 40 }] }, seededRng('grip-0'));
    expect(textOf(pressed.responses.find((response) => response.kind === 'edit')!)).toContain(`Outcome Roll on **Grip**: **${expected.result}**`);
    expect(textOf(pressed.responses[1]!)).toContain('40 Climbing');
  });

  it('a success offers no Outcome Roll, and a forged press is refused', async () => {
    const SUCCESS_SEED = Array.from({ length: 200 }, (_, index) => `win-${index}`).find((seed) => rollD100(seededRng(seed)).value >= 80)!;
    await start([SUCCESS_SEED]);
    const asked = await sandbox.act({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', cl: 120, ...CLIMB, 'consequence-table': 'Fall Damage' } });
    const post = asked.responses.find((response) => !response.ephemeral)!;
    const id = /#(\d+)/.exec(textOf(post))![1]!;
    expect(textOf(post)).toContain('**If it fails:** An **Outcome Roll on Fall Damage**.');
    const taken = await settle({ user: 'mike', button: `dispatch:roll:${id}`, message: post.messageId! });
    expect(textOf(taken)).toContain('✅ **success**');
    expect(buttonsOf(taken)).toEqual([]);
    const forged = await forgedPress({ user: 'mike', button: `dispatch:consequence:${id}` }, post.messageId!);
    expect(forged.content).toContain('The roll succeeded: its consequence does not apply.');
    expect(await sandbox.bot.store.rolls.latestOfAllServers(10)).toHaveLength(1);
  });

  it('a linked roll: any failed part brings the consequence, and a hidden linked result shows each part’s dice and total, never a CL', async () => {
    const seed = 'linked-0';
    await start([seed, 'fall-1']);
    const asked = await sandbox.act({
      ...DISPATCHER,
      command: 'dispatch linked',
      // 187 cannot be reached by Climbing 40 (at most 140): that part fails whatever the die.
      options: { player: 'mike', rolls: 'Climbing vs 187; Lock Picking vs 163', hidden: true, ...CLIMB, consequence: 'Troy falls.', 'consequence-table': 'Fall Damage' },
    });
    const post = asked.responses.find((response) => !response.ephemeral)!;
    const id = /#(\d+)/.exec(textOf(post))![1]!;
    expect(textOf(post)).toContain('**If it fails:** Troy falls.');
    const taken = await settle({ user: 'mike', button: `dispatch:roll:${id}`, message: post.messageId! });
    const rng = seededRng(seed);
    const climb = rollD100(rng);
    const lock = rollD100(rng);
    const text = textOf(taken);
    expect(text).toContain(`🎲 \`[${climb.tens}][${climb.ones}] → ${climb.value}\``);
    expect(text).toContain(`${climb.value} (D100) + 40 Climbing = **${climb.value + 40}**`);
    expect(text).toContain(`${lock.value} (D100) + 60 Lock Picking = **${lock.value + 60}**`);
    expect(JSON.stringify(taken)).not.toMatch(/\b(187|163)\b|margin|Chance/);
    expect(buttonsOf(taken)).toEqual([`dispatch:consequence:${id}`, `dispatch:details:${id}`]);
  });
});

describe('the server setting for players’ own challenge rolls', () => {
  it('off: a player’s /roll challenge and /roll linked are refused with what works instead; a Dispatcher still rolls', async () => {
    await start();
    const allowed = await sandbox.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    expect(textOf(allowed)).toMatch(/Roll \w{8}/);

    await sandbox.one({ user: 'olga', permissions: ['ManageGuild'], command: 'config player-challenge-rolls', options: { state: 'off' } });
    const refused = await sandbox.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    expect(refused).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(refused.content).toContain('a Dispatcher calls for challenge rolls');
    expect(refused.content).toContain('`/roll intent intent:… outcome:…`');
    const refusedLinked = await sandbox.one({ user: 'mike', command: 'roll linked', options: { rolls: 'Climbing vs 90; Lock Picking vs 90' } });
    expect(refusedLinked.content).toContain('/roll intent');
    expect(await sandbox.bot.store.rolls.latestOfAllServers(10)).toHaveLength(1);

    await sandbox.one({ user: 'dee', command: 'sheet create', options: { name: 'Handler' } });
    const dispatcherRoll = await sandbox.one({ ...DISPATCHER, command: 'roll challenge', options: { skill: 'Climbing', cl: 90, level: 50 } });
    expect(textOf(dispatcherRoll)).toMatch(/Roll \w{8}/);
    // The way that works instead does work.
    expect((await sandbox.one({ user: 'mike', command: 'roll intent', options: CLIMB })).ephemeral).toBe(false);
  });
});
