// /initiative: one tracker per channel, fed by each system's initiative rule (seed 002: melee, chase, debate;
// seed 004: rolled each phase, declared lowest to highest). One message, updated; the player whose turn it becomes is
// pinged and nobody else; every refusal is private; the tracker survives a restart.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/engine/rng.js';
import { rollPhaseInitiative } from '../../src/engine/systems/d10-pool/initiative.js';
import { parseDieCode } from '../../src/engine/systems/result-points/die-code.js';
import { rollDebateInitiative } from '../../src/engine/systems/result-points/initiative.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const NO_PINGS = { parse: [] };

// Seed 004's example, with seeded dice: Leroy rolls 2 d10 and Earl 3, each with the modifier that makes the seed's
// totals (16 and 21) from their first roll. Phase 2's seed is one where "Earl again wins", as in the seed; phase 3's
// one where Leroy wins, so the order of declaring turns round.
const LEROY_SEED = 'initiative-leroy';
const EARL_SEED = 'initiative-earl';
const natural = (seed: string, dice: number) => rollPhaseInitiative({ phase: 1, entries: [{ name: '', dice, modifier: 0 }] }, seededRng(seed)).entries[0]!.reading.natural;
const LEROY = { name: 'Leroy', dice: 2, modifier: 16 - natural(LEROY_SEED, 2) };
const EARL = { name: 'Earl', dice: 3, modifier: 21 - natural(EARL_SEED, 3) };
const phaseTotals = (phase: number, seed: string) => rollPhaseInitiative({ phase, entries: [LEROY, EARL] }, seededRng(seed)).entries.map((entry) => entry.total);
const candidates = Array.from({ length: 100 }, (_, index) => `initiative-phase-${index}`);
const PHASE2_SEED = candidates.find((seed) => { const [leroy, earl] = phaseTotals(2, seed); return earl! > leroy!; })!;
const PHASE3_SEED = candidates.find((seed) => { const [leroy, earl] = phaseTotals(3, seed); return leroy! > earl!; })!;
const SEEDS = [LEROY_SEED, EARL_SEED, PHASE2_SEED, PHASE3_SEED, 'initiative-4', 'initiative-5'];
const sandbox = useTestSandbox({ seeds: SEEDS });

function buttonsOf(response: { components: unknown[] }): string[] {
  return (response.components as Array<{ components: Array<{ custom_id: string }> }>).flatMap((row) => row.components.map((c) => c.custom_id));
}

/** The tracker's message as it stands now (slash commands edit it; buttons update it). */
function tracker(messageId: string) {
  const message = sandbox().fake.message(messageId)!;
  return { text: textOf(message), buttons: buttonsOf(message), message };
}

function button(messageId: string, verb: 'next' | 'previous' | 'end'): string {
  return tracker(messageId).buttons.find((id) => id.startsWith(`initiative:${verb}:`))!;
}

async function press(user: { user: string; roles?: string[] }, messageId: string, verb: 'next' | 'previous' | 'end') {
  return sandbox().act({ ...user, button: button(messageId, verb), message: messageId });
}

async function sheet(user: string, name: string, system: string): Promise<void> {
  await sandbox().one({ user, command: 'sheet create', options: { name, system } });
}

/** Starts a tracker; its public message (a reply, or the edit of the bot's acknowledgement on a busy machine). */
async function start(rule: string): Promise<string> {
  const { responses } = await sandbox().act({ ...DISPATCHER, command: 'initiative start', options: { rule } });
  const post = responses.at(-1)!;
  expect(post).toMatchObject({ ephemeral: false, allowedMentions: NO_PINGS });
  expect(textOf(post)).toContain('⚔️ Initiative');
  return post.messageId!;
}

/** A melee begun: Troy (10) and the NPC Orc (15), Orc's turn first; its tracker message's id. */
async function meleeBegun(): Promise<string> {
  await sheet('mike', 'Troy', 'result-points');
  const message = await start('melee');
  await ack({ user: 'mike', command: 'initiative join', options: { value: '10' } });
  await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Orc', value: '15' } });
  await press(DISPATCHER, message, 'next');
  return message;
}

/** The line with ▶: whose turn the message shows. */
function turnLine(messageId: string): string {
  return tracker(messageId).text.split('\n').find((line) => line.startsWith('▶')) ?? '';
}

/** The names in order as the message lists them. */
function order(messageId: string): string[] {
  return [...tracker(messageId).text.matchAll(/^(?:▶ |\u2003)\d+\. \*\*(.+?)\*\*/gm)].map((match) => match[1]!);
}

/**
 * A slash command that changes the tracker: its private answer (the tracker's message is edited too, which the fake
 * records as an answer of the same interaction).
 */
async function ack(request: Parameters<ReturnType<typeof sandbox>['act']>[0]): Promise<SandboxResponse> {
  return answer((await sandbox().act(request)).responses);
}

/**
 * The one private answer among an interaction's responses: a reply, or (when a busy machine made the bot acknowledge
 * first) a private follow-up.
 */
function answer(responses: SandboxResponse[]): SandboxResponse {
  const answers = responses.filter((response) => response.ephemeral && (response.kind === 'reply' || response.kind === 'followup'));
  expect(answers, `one private answer among ${JSON.stringify(responses)}`).toHaveLength(1);
  return answers[0]!;
}

/** A Dispatcher's press on /initiative end's prompt (0: End the initiative, 1: Keep it): the prompt's update (the tracker's message may be edited too). */
async function pressOnPrompt(prompt: SandboxResponse, index: number): Promise<SandboxResponse> {
  const { responses } = await sandbox().act({ ...DISPATCHER, button: buttonsOf(prompt)[index]!, message: prompt.messageId! });
  const updates = responses.filter((response) => response.kind === 'update');
  expect(updates, JSON.stringify(responses)).toHaveLength(1);
  return updates[0]!;
}

function ping(responses: SandboxResponse[]): SandboxResponse | undefined {
  return responses.find((response) => response.kind === 'followup' && !response.ephemeral);
}

describe('/initiative with die codes (seed 002)', () => {
  it('melee: fixed ability values order the round, highest first; Next and Previous wrap the round; only the player whose turn it is is pinged', async () => {
    const box = sandbox();
    await sheet('mike', 'Troy', 'result-points');
    await sheet('sasha', 'Kat', 'result-points');
    const message = await start('melee');
    expect(tracker(message).text).toContain('in a melee, initiative is the fixed value of an ability');
    expect(tracker(message).text).toContain('Not begun');

    const joined = await ack({ user: 'mike', command: 'initiative join', options: { value: '4D+1' } });
    expect(joined).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(joined.content).toContain('**Troy** joined the initiative: **13** (4D+1: 3 × 4 + 1)');
    await ack({ user: 'sasha', command: 'initiative join', options: { value: '10' } });
    const goblin = await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Goblin <@everyone>', value: '3D+2' } });
    expect(goblin.content).toContain('**11**');
    expect(order(message)).toEqual(['Troy', 'Goblin <@everyone>', 'Kat']);
    expect(tracker(message).message.allowedMentions).toEqual(NO_PINGS);

    const begun = await press(DISPATCHER, message, 'next');
    expect(begun.responses.find((response) => response.kind === 'update' || response.kind === 'edit')).toMatchObject({ allowedMentions: NO_PINGS });
    const mikeId = box.fake.user('mike').id;
    expect(ping(begun.responses)).toMatchObject({ content: expect.stringContaining(`<@${mikeId}>, your turn: **Troy** (round 1)`), allowedMentions: { parse: [], users: [mikeId] } });
    expect(turnLine(message)).toContain('**Troy**');
    expect(tracker(message).text).toContain('Round 1** — 🎯 **Troy** acts');

    // The player whose turn it is passes it on; the NPC's turn pings nobody.
    const toGoblin = await press({ user: 'mike' }, message, 'next');
    expect(ping(toGoblin.responses)).toBeUndefined();
    expect(turnLine(message)).toContain('**Goblin');
    const toKat = await press(DISPATCHER, message, 'next');
    const sashaId = box.fake.user('sasha').id;
    expect(ping(toKat.responses)).toMatchObject({ allowedMentions: { parse: [], users: [sashaId] } });

    // After the last, the round wraps to the first; Previous wraps back into the round before.
    await press({ user: 'sasha' }, message, 'next');
    expect(tracker(message).text).toContain('Round 2** — 🎯 **Troy** acts');
    const back = await press(DISPATCHER, message, 'previous');
    expect(ping(back.responses)).toMatchObject({ allowedMentions: { parse: [], users: [sashaId] } });
    expect(tracker(message).text).toContain('Round 1** — 🎯 **Kat** acts');
    // Every message the tracker sent pings nobody but the one player each ping names.
    for (const sent of box.fake.messages()) {
      const mentions = sent.allowedMentions as { parse: unknown[]; users?: string[] };
      expect(mentions.parse).toEqual([]);
      expect((mentions.users ?? []).length).toBeLessThanOrEqual(1);
    }
  });

  it('debate: the ability check is rolled on joining, stored and replayable', async () => {
    const box = sandbox();
    await sheet('mike', 'Troy', 'result-points');
    const message = await start('debate');
    const joined = await ack({ user: 'mike', command: 'initiative join', options: { value: '3D+2' } });
    const expected = rollDebateInitiative({ entries: [{ name: 'Troy', code: parseDieCode('3D+2') }] }, seededRng(SEEDS[0]!)).entries[0]!.roll;
    expect(joined.content).toContain(`**${expected.total}** (3D+2: \`${expected.dice.map((d) => `[${d}]`).join('')}\` + 2)`);
    expect(tracker(message).text).toContain(`**Troy** · <@${box.fake.user('mike').id}> — **${expected.total}**`);
    const rollId = /Roll (\w{8})/.exec(joined.content!)![1]!;
    expect(tracker(message).text).toContain(`rolls ${rollId}`);
    const replay = await box.one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(textOf(replay)).toContain(`Roll ${rollId}: the dice match`);
    expect(textOf(replay)).toContain(`**Troy**: 3D+2`);
  });

  it('chase: the Dispatcher gives positions, 1 leads and acts first; a player joins at the back and cannot pick a place', async () => {
    await sheet('mike', 'Troy', 'result-points');
    const message = await start('chase');
    await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Raider', value: '1' } });
    const picky = await ack({ user: 'mike', command: 'initiative join', options: { value: '1' } });
    expect(picky).toMatchObject({ ephemeral: true });
    expect(picky.content).toContain('the Dispatcher sets positions');
    await ack({ user: 'mike', command: 'initiative join' });
    expect(order(message)).toEqual(['Raider', 'Troy']);
    expect(tracker(message).text).toContain('position **2**');
    await press(DISPATCHER, message, 'next');
    expect(turnLine(message)).toContain('Raider');
    // Troy overtakes: the order changes, whose turn it is does not.
    const moved = await ack({ ...DISPATCHER, command: 'initiative set', options: { name: 'troy', value: '1' } });
    expect(moved.content).toContain('position **1**');
    await ack({ ...DISPATCHER, command: 'initiative set', options: { name: 'Raider', value: '2' } });
    expect(order(message)).toEqual(['Troy', 'Raider']);
    expect(turnLine(message)).toContain('Raider');
    await press(DISPATCHER, message, 'next');
    expect(tracker(message).text).toContain('Round 2** — 🎯 **Troy** acts');
  });
});

describe('/initiative with d10 pools (seed 004)', () => {
  it('the Leroy and Earl example: Leroy (16) declares before Earl (21); at phase 2 Initiative is rolled again and ordered lowest to highest', async () => {
    const box = sandbox();
    await sheet('mike', 'Leroy', 'd10-pool');
    const message = await start('d10-phase');
    expect(tracker(message).text).toContain('declared in order of Initiative, lowest to highest');
    await ack({ user: 'mike', command: 'initiative join', options: { value: String(LEROY.dice), modifier: LEROY.modifier } });
    await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Earl', value: String(EARL.dice), modifier: EARL.modifier } });
    expect(order(message)).toEqual(['Leroy', 'Earl']);
    expect(tracker(message).text).toMatch(/\*\*Leroy\*\* · <@\d+> — \*\*16\*\*/);
    expect(tracker(message).text).toMatch(/\*\*Earl\*\* · NPC — \*\*21\*\*/);

    const begun = await press(DISPATCHER, message, 'next');
    expect(tracker(message).text).toContain('Phase 1 (round 1, turn 1; 0:00–0:03)** — 🎯 **Leroy** declares');
    expect(ping(begun.responses)!.content).toContain('your turn to declare: **Leroy** (phase 1');
    await press({ user: 'mike' }, message, 'next');
    expect(turnLine(message)).toContain('**Earl**');

    // Earl has declared: phase 2 begins, and everyone's Initiative is rolled again (one stored roll, in join order).
    // "At the beginning of phase 2, Initiative is rolled; Earl again wins": Leroy declares first again.
    const [leroy2, earl2] = phaseTotals(2, PHASE2_SEED);
    await press(DISPATCHER, message, 'next');
    expect(tracker(message).text).toContain('Phase 2 (round 1, turn 1; 0:03–0:06)** — 🎯 **Leroy** declares');
    expect(order(message)).toEqual(['Leroy', 'Earl']);
    expect(tracker(message).text).toContain(`**Leroy** · <@${box.fake.user('mike').id}> — **${leroy2}**`);
    expect(tracker(message).text).toContain(`**Earl** · NPC — **${earl2}**`);

    // Previous goes back into phase 1 with its own order; Next returns to phase 2 without rolling again.
    await press(DISPATCHER, message, 'previous');
    expect(tracker(message).text).toContain('Phase 1 (round 1, turn 1; 0:00–0:03)** — 🎯 **Earl** declares');
    await press(DISPATCHER, message, 'next');
    expect(order(message)).toEqual(['Leroy', 'Earl']);
    expect(tracker(message).text).toContain(`**Earl** · NPC — **${earl2}**`);

    // Phase 3's roll has Leroy higher: now Earl declares first, lowest to highest.
    await press({ user: 'mike' }, message, 'next');
    await press(DISPATCHER, message, 'next');
    expect(tracker(message).text).toContain('Phase 3 (round 2, turn 1; 0:06–0:09)** — 🎯 **Earl** declares');
    expect(order(message)).toEqual(['Earl', 'Leroy']);
    const rolls = (await (await fetch(`${box.url}/api/rolls?limit=10`)).json()) as { rolls: Array<{ id: string; kind: string }> };
    expect(rolls.rolls.map((roll) => roll.kind)).toEqual(['d10-initiative', 'd10-initiative', 'd10-initiative', 'd10-initiative']);
    for (const roll of rolls.rolls) expect(textOf(await box.one({ user: 'sasha', command: 'roll replay', options: { id: roll.id } }))).toContain('the dice match');

    // Phases 3 and 4 make round 2; turn 1 ends after phase 4.
    for (let step = 0; step < 2; step++) await press(DISPATCHER, message, 'next');
    expect(tracker(message).text).toMatch(/Phase 4 \(round 2, turn 1; 0:09–0:12\)/);
    for (let step = 0; step < 2; step++) await press(DISPATCHER, message, 'next');
    expect(tracker(message).text).toMatch(/Phase 5 \(round 3, turn 2; 0:12–0:15\)/);
  });
});

describe('/initiative: who may do what', () => {
  it('refuses privately: a non-Dispatcher starting, a second tracker in the channel, a sheet of another system, joining twice, NPCs and ending by a player, Next by a player whose turn it is not', async () => {
    await sheet('mike', 'Troy', 'result-points');
    await sheet('sasha', 'Kat', 'tactalk');
    const notDispatcher = await ack({ user: 'mike', command: 'initiative start', options: { rule: 'melee' } });
    expect(notDispatcher).toMatchObject({ ephemeral: true });
    expect(notDispatcher.content).toMatch(/Dispatcher/);
    const none = await ack({ user: 'mike', command: 'initiative join', options: { value: '10' } });
    expect(none.content).toContain('No initiative is open in this channel');

    const message = await start('melee');
    const second = await ack({ ...DISPATCHER, command: 'initiative start', options: { rule: 'd10-phase' } });
    expect(second).toMatchObject({ ephemeral: true });
    expect(second.content).toContain('is already open in this channel');
    expect(second.content).toContain(message);

    const otherSystem = await ack({ user: 'sasha', command: 'initiative join', options: { value: '10' } });
    expect(otherSystem.content).toMatch(/`\/initiative join` rolls a Die codes and result points sheet; you have none \(yours: \*\*Kat\*\*, Tac Talk[^)]*\)\)\. Make one with `\/sheet create name:… system:Die codes and result points`\./);
    const noValue = await ack({ user: 'mike', command: 'initiative join' });
    expect(noValue.content).toContain('Give `value`: the fixed value of the ability');
    const badCode = await ack({ user: 'mike', command: 'initiative join', options: { value: '3X' } });
    expect(badCode.content).toContain('is not a die code');
    await ack({ user: 'mike', command: 'initiative join', options: { value: '12' } });
    const twice = await ack({ user: 'mike', command: 'initiative join', options: { value: '14' } });
    expect(twice.content).toContain('You are already in this initiative as **Troy**');
    const sameName = await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: ' troy ', value: '9' } });
    expect(sameName.content).toContain('There is already a combatant named **Troy**');
    const longName = await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'N'.repeat(65), value: '9' } });
    expect(longName.content).toContain('at most 64 characters');
    const playerNpc = await ack({ user: 'mike', command: 'initiative npc', options: { name: 'Orc', value: '9' } });
    expect(playerNpc.content).toMatch(/Dispatcher/);
    await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Orc', value: '15' } });

    const playerBegins = await press({ user: 'mike' }, message, 'next');
    expect(answer(playerBegins.responses).content).toContain('Only a Dispatcher can begin');
    await press(DISPATCHER, message, 'next');
    const notYours = await press({ user: 'mike' }, message, 'next');
    expect(answer(notYours.responses).content).toContain('It is **Orc**’s turn');
    const stranger = await press({ user: 'sasha' }, message, 'previous');
    expect(answer(stranger.responses).content).toContain('It is **Orc**’s turn');
    const playerEnds = await press({ user: 'mike' }, message, 'end');
    expect(answer(playerEnds.responses).content).toContain('Only a Dispatcher can end');
    const firstTurn = await press(DISPATCHER, message, 'previous');
    expect(answer(firstTurn.responses).content).toContain('first turn of the first round');
    const playerRemoves = await ack({ user: 'mike', command: 'initiative remove', options: { name: 'Orc' } });
    expect(playerRemoves.content).toMatch(/Dispatcher/);
    expect(turnLine(message)).toContain('**Orc**');
  });

  it('a double click moves the turn once; removing whose turn it is passes it on; leaving, ending, and starting anew', async () => {
    const box = sandbox();
    await sheet('mike', 'Troy', 'result-points');
    const message = await start('melee');
    await ack({ user: 'mike', command: 'initiative join', options: { value: '10' } });
    await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Orc', value: '15' } });
    await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Ogre', value: '5' } });
    const stale = button(message, 'next');
    const presses = await Promise.all([box.act({ ...DISPATCHER, button: stale, message }), box.act({ ...DISPATCHER, button: stale, message })]);
    // One press began the round; the other was told privately that nothing moved.
    expect(presses.map((press) => press.responses.filter((response) => response.ephemeral).length).sort()).toEqual([0, 1]);
    expect(presses.flatMap((press) => press.responses.filter((response) => response.ephemeral).map((response) => response.content)).join()).toMatch(/nothing (moved|changed)/);
    expect(turnLine(message)).toContain('**Orc**');

    // Orc is taken out on his turn: Troy, next in order, gets it and is pinged.
    const removed = await box.act({ ...DISPATCHER, command: 'initiative remove', options: { name: 'orc' } });
    expect(answer(removed.responses).content).toContain('**Orc** is out of the initiative');
    expect(ping(removed.responses)).toMatchObject({ allowedMentions: { parse: [], users: [box.fake.user('mike').id] } });
    expect(turnLine(message)).toContain('**Troy**');
    await ack({ user: 'mike', command: 'initiative leave' });
    expect(turnLine(message)).toContain('**Ogre**');
    expect(order(message)).toEqual(['Ogre']);

    // The tracker's End asks first (as /initiative end does); its prompt's End the initiative ends it.
    const endPress = await press(DISPATCHER, message, 'end');
    await pressOnPrompt(answer(endPress.responses), 0);
    expect(tracker(message).buttons).toEqual([]);
    expect(tracker(message).text).toContain('**Ended** in round 1');
    const next = await start('debate');
    expect(next).not.toBe(message);
    const prompt = await ack({ ...DISPATCHER, command: 'initiative end' });
    const endedByCommand = await pressOnPrompt(prompt, 0);
    expect(endedByCommand.content).toContain('ended');
    expect(buttonsOf(tracker(next).message)).toEqual([]);
  });

  it('/initiative end asks first, privately: Keep it changes nothing, End the initiative ends it, once', async () => {
    const box = sandbox();
    const message = await start('chase');
    await ack({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Orc', value: '1' } });
    const byPlayer = await ack({ user: 'mike', command: 'initiative end' });
    expect(byPlayer.content).toContain('Only a Dispatcher can end the initiative');
    expect(byPlayer.components).toEqual([]);

    const asked = await ack({ ...DISPATCHER, command: 'initiative end' });
    expect(asked).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(asked.content).toMatch(/^End initiative #\d+ \(.+, not begun, 1 in it\)\? Its message keeps the last order with no buttons/);
    const labels = (asked.components as Array<{ components: Array<{ label: string }> }>)[0]!.components.map((button) => button.label);
    expect(labels).toEqual(['End the initiative', 'Keep it']);
    expect(tracker(message).buttons).toHaveLength(3);

    const kept = await pressOnPrompt(asked, 1);
    expect(kept).toMatchObject({ kind: 'update', components: [] });
    expect(kept.content).toMatch(/^Kept: initiative #\d+ goes on\. Nothing was changed\.$/);
    expect(tracker(message).buttons).toHaveLength(3);

    // The End of a prompt pressed from the tracker's message (which does not carry it) is refused, changing nothing.
    const again = await ack({ ...DISPATCHER, command: 'initiative end' });
    const spare = await ack({ ...DISPATCHER, command: 'initiative end' });
    const forged = await box.one({ ...DISPATCHER, button: buttonsOf(again)[0]!, message, forged: true });
    expect(forged).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(tracker(message).buttons).toHaveLength(3);
    // Only the Dispatcher who asked confirms it.
    const otherDispatcher = await box.one({ user: 'otto', roles: ['dispatcher'], button: buttonsOf(again)[0]!, message: again.messageId! });
    expect(otherDispatcher).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(otherDispatcher.content).toContain('Only the Dispatcher who asked to end it can confirm it. Nothing was changed.');
    expect(tracker(message).buttons).toHaveLength(3);

    const ended = await pressOnPrompt(again, 0);
    expect(ended).toMatchObject({ kind: 'update', components: [] });
    expect(ended.content).toMatch(/^Initiative #\d+ ended\.$/);
    expect(tracker(message).buttons).toEqual([]);
    expect(tracker(message).text).toContain('**Ended**');
    // Another prompt's End, pressed late, ends nothing more.
    const late = await pressOnPrompt(spare, 0);
    expect(late.content).toMatch(/^Initiative #\d+ has already ended\. Nothing was changed\.$/);
  });

  it('the tracker’s own End asks first, privately, as /initiative end does: Keep it changes nothing, End the initiative ends it, once', async () => {
    const box = sandbox();
    const message = await meleeBegun();
    const before = tracker(message);
    expect(before.text).toContain('Round 1** — 🎯 **Orc** acts');

    // A player's press is refused as before, privately, with no prompt.
    const byPlayer = await press({ user: 'mike' }, message, 'end');
    expect(answer(byPlayer.responses).content).toContain('Only a Dispatcher can end the initiative');
    expect(answer(byPlayer.responses).components).toEqual([]);

    // The Dispatcher's press asks privately (the same prompt as /initiative end) and changes nothing.
    const asked = await press(DISPATCHER, message, 'end');
    expect(asked.responses.filter((response) => !response.ephemeral)).toEqual([]);
    const prompt = answer(asked.responses);
    expect(prompt).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(prompt.content).toMatch(/^End initiative #\d+ \(Melee \(die codes\), at round 1, 2 in it\)\? Its message keeps the last order with no buttons/);
    const byCommand = await ack({ ...DISPATCHER, command: 'initiative end' });
    expect(prompt.content).toBe(byCommand.content);
    expect(buttonsOf(prompt)).toEqual(buttonsOf(byCommand));
    expect(buttonsOf(prompt)).toEqual([expect.stringMatching(/^initiative:confirm-end:\d+:\d+$/), expect.stringMatching(/^initiative:keep:\d+$/)]);
    expect(tracker(message)).toEqual(before);

    // Keep it: the prompt goes, the tracker goes on, its buttons still work.
    const kept = await pressOnPrompt(prompt, 1);
    expect(kept).toMatchObject({ kind: 'update', components: [] });
    expect(kept.content).toMatch(/^Kept: initiative #\d+ goes on\. Nothing was changed\.$/);
    expect(tracker(message)).toEqual(before);
    await press(DISPATCHER, message, 'next');
    expect(turnLine(message)).toContain('**Troy**');

    // Asked again: the prompt's End, pressed from the tracker's message (which does not carry it), is refused.
    const again = answer((await press(DISPATCHER, message, 'end')).responses);
    const forged = await box.one({ ...DISPATCHER, button: buttonsOf(again)[0]!, message, forged: true });
    expect(forged).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(tracker(message).buttons).toHaveLength(3);
    const otherDispatcher = await box.one({ user: 'otto', roles: ['dispatcher'], button: buttonsOf(again)[0]!, message: again.messageId! });
    expect(otherDispatcher.content).toContain('Only the Dispatcher who asked to end it can confirm it. Nothing was changed.');
    expect(tracker(message).buttons).toHaveLength(3);

    // End the initiative: ended, and the tracker's message shows it; pressed twice at once, it ends once.
    const confirm = { ...DISPATCHER, button: buttonsOf(again)[0]!, message: again.messageId! };
    const [first, second] = await Promise.all([box.act(confirm), box.act(confirm)]);
    const told = [first!, second!].flatMap((pressed) => pressed.responses.map((response) => response.content ?? '')).filter((content) => /ended|Nothing was changed|not on the message/.test(content));
    expect(told, JSON.stringify([first, second])).toHaveLength(2);
    expect(told.filter((content) => /^Initiative #\d+ ended\.$/.test(content))).toHaveLength(1);
    expect(tracker(message).buttons).toEqual([]);
    expect(tracker(message).text).toContain('**Ended** in round 1');
    // The other prompt, confirmed late, ends nothing more; the channel may start a new one.
    const late = await pressOnPrompt(byCommand, 0);
    expect(late.content).toMatch(/^Initiative #\d+ has already ended\. Nothing was changed\.$/);
    const fresh = await start('debate');
    expect(fresh).not.toBe(message);
  });

  it('a manual order for a system whose seed has no initiative rule; /initiative show posts it again lower down', async () => {
    const box = sandbox();
    await sheet('sasha', 'Kat', 'tactalk');
    const message = await start('manual:tactalk');
    expect(tracker(message).text).toContain('The Tac Talk (Decision Engine) rules give no initiative rule');
    await ack({ user: 'sasha', command: 'initiative join', options: { value: '7' } });
    await box.act({ user: 'sasha', command: 'initiative show' });
    const shown = box.fake.messages().at(-1)!;
    expect(shown.id).not.toBe(message);
    expect(shown.allowedMentions).toEqual(NO_PINGS);
    expect(textOf(shown)).toContain('**Kat**');
    expect(buttonsOf(shown)).toHaveLength(3);
    expect(tracker(message).message.content).toContain('moved down');
    expect(tracker(message).buttons).toEqual([]);
    const outsider = await ack({ user: 'mike', command: 'initiative show' });
    expect(outsider.content).toContain('Only a Dispatcher or someone in this initiative');
  });
});

it('survives a restart: the same message’s buttons carry on where it stood', async () => {
  const box = sandbox();
  const message = await meleeBegun();
  expect(turnLine(message)).toContain('**Orc**');

  await box.restartBot();
  await press(DISPATCHER, message, 'next');
  expect(turnLine(message)).toContain('**Troy**');
  const refused = await ack({ ...DISPATCHER, command: 'initiative start', options: { rule: 'chase' } });
  expect(refused.content).toContain('is already open in this channel');
});

it('offers the rules the seeds give and a manual order, and no tracker for a dramatic scene (seed 002: no initiative, no rounds)', () => {
  const command = (sandbox().fake.commands() as Array<{ name: string; options: Array<{ name: string; options?: Array<{ name: string; choices?: Array<{ value: string }> }> }> }>).find((c) => c.name === 'initiative')!;
  const rule = command.options.find((sub) => sub.name === 'start')!.options!.find((option) => option.name === 'rule')!;
  expect(rule.choices!.map((choice) => choice.value)).toEqual(['melee', 'chase', 'debate', 'd10-phase', 'manual:tactalk', 'manual:d100-tactics', 'manual:d6-pool']);
});
