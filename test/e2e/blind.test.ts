// Blind rolls (issue 25 §2): a player rolls, the channel sees that they did and nothing of the result; Dispatchers
// read it (Show me) and reveal it to the channel once (Reveal); /log and /roll replay keep it from players until then.
import { describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { LOCK_PICKING_INVESTIGATION } from '../helpers/tables.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const STEALTH = 45;
const CL = 77;
const SEEDS = Array.from({ length: 20 }, (_, index) => `blind-${index}`);
const sandbox = useTestSandbox({ seeds: SEEDS });

/** The die and total a blind Stealth roll on `seed` makes (Stealth 45, no archetype). */
function stealthRoll(seed: string) {
  const die = rollD100(seededRng(seed)).value;
  return { die, total: die + STEALTH };
}

/**
 * Everything the bot sent in a response (content, embeds, components and their custom_ids), as JSON, with the
 * snowflakes of mentions taken out: what is left must hold none of the given numbers and no verdict or odds.
 */
function expectNoResult(response: SandboxResponse, numbers: number[]): void {
  const sent = JSON.stringify({ content: response.content, embeds: response.embeds, components: response.components }).replace(/\d{15,}/g, '<id>');
  for (const number of numbers) expect(sent, `${number} in ${sent}`).not.toMatch(new RegExp(`(?<![\\w.])${number}(?![\\w.])`));
  expect(sent).not.toMatch(/success|failure|succeeded|chance|odds|%|\bCL\b|margin|D100/i);
  expect(response.embeds).toEqual([]);
}

function customIds(response: SandboxResponse): string[] {
  return (response.components as Array<{ components: Array<{ custom_id: string }> }>).flatMap((row) => row.components.map((c) => c.custom_id));
}

async function stealthSheet(user = 'kat', name = 'Kat'): Promise<void> {
  await sandbox().one({ user, command: 'sheet create', options: { name } });
  await sandbox().one({ user, command: 'sheet skill set', options: { name: 'Stealth', level: STEALTH } });
  await sandbox().one({ user, command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
}

/** Kat's blind Stealth roll on the first seed: its public message, its id and its numbers. */
async function blindStealth() {
  await stealthSheet();
  const posted = await sandbox().one({ user: 'kat', command: 'roll challenge', options: { skill: 'Stealth', cl: CL, blind: true } });
  const rollId = /roll `(\w{8})`/.exec(posted.content ?? '')![1]!;
  return { posted, rollId, message: posted.messageId!, ...stealthRoll(SEEDS[0]!) };
}

const channelPosts = () => sandbox().fake.messages().filter((message) => !message.ephemeral);

/** A Dispatcher's Reveal on `message`: its answer (the pressed message is also marked, an edit beside it). */
async function reveal(rollId: string, message: string, user = DISPATCHER.user): Promise<SandboxResponse> {
  const { responses } = await sandbox().act({ user, roles: ['dispatcher'], button: `blind:reveal:${rollId}`, message });
  const answers = responses.filter((response) => response.kind !== 'edit');
  expect(answers, JSON.stringify(responses)).toHaveLength(1);
  return answers[0]!;
}

describe('a player’s blind roll', () => {
  it('shows the channel and the roller who rolled what, and not one number, verdict or chance', async () => {
    const { posted, rollId, die, total } = await blindStealth();
    expect(posted.ephemeral).toBe(false);
    expect(posted.content).toBe(`🙈 **Kat** made a blind Stealth roll · roll \`${rollId}\` — its result is for the Dispatchers.`);
    expectNoResult(posted, [die, total, CL, STEALTH]);
    // Its first row; Roll again (issue 25 §1) may follow, which repeats the blind roll and shows nothing either.
    expect(customIds(posted).slice(0, 2)).toEqual([`blind:show:${rollId}`, `blind:reveal:${rollId}`]);
    expect(posted.allowedMentions).toEqual({ parse: [] });
    const stored = await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollId);
    expect(stored).toMatchObject({ blind: true, revealedAt: null, total });
  });

  it('Show me gives a Dispatcher the whole result privately; a player’s Show me or Reveal is refused and shows nothing', async () => {
    const { rollId, message, die, total } = await blindStealth();
    const before = channelPosts().length;
    const shown = await sandbox().one({ ...DISPATCHER, button: `blind:show:${rollId}`, message });
    expect(shown.ephemeral).toBe(true);
    expect(textOf(shown)).toContain(`${die} (D100) + ${STEALTH} Stealth = **${total}**`);
    expect(textOf(shown)).toContain(`Stealth vs CL ${CL}`);
    expect(textOf(shown)).toContain('Chance of success');

    for (const action of ['show', 'reveal']) {
      const refused = await sandbox().one({ user: 'kat', button: `blind:${action}:${rollId}`, message });
      expect(refused.ephemeral).toBe(true);
      expect(refused.content).toMatch(action === 'show' ? /^⚠️ Only a Dispatcher can see the result of a blind roll\./ : /^⚠️ Only a Dispatcher can reveal a blind roll\./);
      expectNoResult(refused, [die, total, CL]);
      const other = await sandbox().one({ user: 'sasha', button: `blind:${action}:${rollId}`, message });
      expect(other.content).toContain('Only a Dispatcher');
    }
    expect(channelPosts()).toHaveLength(before);
    expect(await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollId)).toMatchObject({ revealedAt: null });
  });
});

describe('Reveal', () => {
  it('puts the result in the channel once: a second press and two at once post nothing more', async () => {
    const { rollId, message, die, total } = await blindStealth();
    const before = channelPosts().length;
    const revealed = await reveal(rollId, message);
    expect(revealed.ephemeral).toBe(false);
    expect(revealed.content).toContain(`revealed the blind roll \`${rollId}\``);
    expect(textOf(revealed)).toContain(`${die} (D100) + ${STEALTH} Stealth = **${total}**`);
    expect(textOf(revealed)).toContain(`Stealth vs CL ${CL}`);
    expect(channelPosts()).toHaveLength(before + 1);
    const stored = await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollId);
    expect(stored?.revealedAt).toBeInstanceOf(Date);
    // The blind message keeps its words and says it was revealed, still without a number.
    const marked = sandbox().fake.messages().find((m) => m.id === message)!;
    expect(marked.content).toBe(`🙈 **Kat** made a blind Stealth roll · roll \`${rollId}\` — its result is for the Dispatchers.\n👁️ Revealed by <@${sandbox().fake.user('dee').id}>: the result is below.`);
    // Show me and Reveal leave the message with the secret; Kat's Roll again stays.
    const left = (marked.components as Array<{ components: Array<{ custom_id?: string }> }>).flatMap((row) => row.components.map((c) => c.custom_id ?? ''));
    expect(left.filter((id) => id.startsWith('blind:'))).toEqual([]);
    expect(left.some((id) => id.startsWith('roll:again:'))).toBe(true);

    // Revealed again by its id: nothing more is posted.
    const again = await sandbox().one({ ...DISPATCHER, command: 'blind reveal', options: { id: rollId } });
    expect(again.ephemeral).toBe(true);
    expect(again.content).toContain(`Roll \`${rollId}\` was already revealed to the channel`);
    expect(channelPosts()).toHaveLength(before + 1);
  });

  it('a reveal whose answer never reached Discord is taken back, so the next press reveals it', async () => {
    const { rollId, message, total } = await blindStealth();
    const before = channelPosts().length;
    const failing = sandbox().fake.faults.add({ target: 'callback', status: 500 });
    const lost = await sandbox().fake.interact({ ...DISPATCHER, button: `blind:reveal:${rollId}`, message });
    failing.remove();
    expect(lost.faults?.length).toBeGreaterThan(0);
    expect(channelPosts()).toHaveLength(before);
    expect((await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollId))?.revealedAt).toBeNull();
    const revealed = await reveal(rollId, message);
    expect(revealed.ephemeral).toBe(false);
    expect(textOf(revealed)).toContain(`**${total}**`);
  });

  it('two Dispatchers pressing at once reveal it once', async () => {
    const { rollId, message } = await blindStealth();
    const before = channelPosts().length;
    const press = (user: string) => sandbox().act({ user, roles: ['dispatcher'], button: `blind:reveal:${rollId}`, message });
    const results = await Promise.all([press('dee'), press('ria')]);
    const answers = results.flatMap((result) => result.responses).filter((response) => response.kind !== 'edit');
    expect(answers.filter((answer) => !answer.ephemeral)).toHaveLength(1);
    expect(answers.filter((answer) => answer.ephemeral).map((answer) => answer.content)).toEqual([expect.stringContaining('already revealed')]);
    expect(channelPosts()).toHaveLength(before + 1);
  });

  it('/blind reveal id: reveals from anywhere, a Dispatcher only; a roll that is not blind is refused', async () => {
    const { rollId, total } = await blindStealth();
    const refused = await sandbox().one({ user: 'kat', command: 'blind reveal', options: { id: rollId } });
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toMatch(/^⚠️ Only a Dispatcher can reveal a blind roll\./);
    const revealed = await sandbox().one({ ...DISPATCHER, command: 'blind reveal', options: { id: rollId } });
    expect(revealed.ephemeral).toBe(false);
    expect(textOf(revealed)).toContain(`**${total}**`);

    const open = await sandbox().one({ user: 'kat', command: 'roll challenge', options: { skill: 'Stealth', cl: CL } });
    const openId = /Roll (\w{8})/.exec(textOf(open))![1]!;
    const notBlind = await sandbox().one({ ...DISPATCHER, command: 'blind reveal', options: { id: openId } });
    expect(notBlind).toMatchObject({ ephemeral: true, content: `⚠️ Roll \`${openId}\` is not a blind roll: its result was shown when it was made. \`/roll replay id:${openId}\` shows it again.` });
  });
});

describe('/log and /roll replay', () => {
  it('keep the result from players and show it to Dispatchers until the reveal, then show it to all', async () => {
    const { rollId, message, die, total } = await blindStealth();
    const logLine = (response: SandboxResponse) => textOf(response).split('\n').find((line) => line.includes(rollId))!;

    const playerLog = await sandbox().one({ user: 'kat', command: 'log' });
    expect(logLine(playerLog)).toContain('blind Stealth roll → blind roll, result hidden');
    expect(logLine(playerLog)).not.toMatch(/\*\*\d+\*\*|success|failure|CL/);
    const dispatcherLog = await sandbox().one({ ...DISPATCHER, command: 'log' });
    expect(logLine(dispatcherLog)).toContain('🙈 (not revealed)');
    expect(logLine(dispatcherLog)).toContain(`Stealth ${STEALTH} vs CL ${CL} → **${total}**`);

    const playerReplay = await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(playerReplay.ephemeral).toBe(true);
    expect(playerReplay.content).toContain('is a blind roll: its result is for the Dispatchers until one reveals it.');
    expectNoResult(playerReplay, [die, total, CL]);
    const dispatcherReplay = await sandbox().one({ ...DISPATCHER, command: 'roll replay', options: { id: rollId } });
    expect(dispatcherReplay.ephemeral).toBe(true);
    expect(textOf(dispatcherReplay)).toContain(String(total));

    const choices = await sandbox().one({ user: 'kat', command: 'roll replay', options: { id: rollId }, focused: 'id' });
    expect(JSON.stringify(choices.choices)).toContain('result hidden');
    expect(JSON.stringify(choices.choices)).not.toMatch(new RegExp(`→ ${total}|success|failure|CL`));

    await reveal(rollId, message);
    const afterLog = await sandbox().one({ user: 'kat', command: 'log' });
    expect(logLine(afterLog)).toContain(`Stealth ${STEALTH} vs CL ${CL} → **${total}**`);
    const afterReplay = await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(afterReplay.ephemeral).toBe(false);
    expect(textOf(afterReplay)).toContain(String(total));
  });
});

describe('Replay this roll', () => {
  it('on a blind roll’s message answers as /roll replay does: nothing of it to a player, everything privately to a Dispatcher', async () => {
    const { rollId, message, die, total } = await blindStealth();
    const player = await sandbox().one({ user: 'kat', menu: 'Replay this roll', message });
    expect(player.ephemeral).toBe(true);
    expect(player.content).toContain(`Roll \`${rollId}\``);
    expectNoResult(player, [die, total, CL]);
    const dispatcher = await sandbox().one({ ...DISPATCHER, menu: 'Replay this roll', message });
    expect(dispatcher.ephemeral).toBe(true);
    expect(textOf(dispatcher)).toContain(String(total));
  });
});

describe('other blind rolls', () => {
  it('a linked roll blind shows the skills and nothing else; Show me gives every part', async () => {
    await stealthSheet();
    const posted = await sandbox().one({ user: 'kat', command: 'roll linked', options: { rolls: 'Stealth vs 77; Driving vs 101', blind: true } });
    const rollId = /roll `(\w{8})`/.exec(posted.content ?? '')![1]!;
    expect(posted.content).toBe(`🙈 **Kat** made a blind linked roll (Stealth; Driving) · roll \`${rollId}\` — its result is for the Dispatchers.`);
    const stored = await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollId);
    const parts = (stored!.result as { results: Array<{ result: number }> }).results;
    expectNoResult(posted, [77, 101, ...parts.map((part) => part.result)]);
    const shown = await sandbox().one({ ...DISPATCHER, button: `blind:show:${rollId}`, message: posted.messageId! });
    expect(textOf(shown)).toContain('Driving vs CL 101');
    expect(textOf(shown)).toContain(`**${parts[1]!.result}**`);
  });

  it('Roll again (issue 25 §1) on a blind roll rolls blind again, and shows nothing of either result', async () => {
    const { rollId, message, die, total } = await blindStealth();
    const again = await sandbox().act({ user: 'kat', button: `roll:again:${rollId}`, message });
    // The new roll is a message of its own; the pressed one may be redrawn (its Roll again used), still blind.
    const posted = again.responses.filter((response) => response.content?.includes('made a blind Stealth roll') && !response.content.includes(rollId));
    expect(posted).toHaveLength(1);
    const second = stealthRoll(SEEDS[1]!);
    for (const response of again.responses) expectNoResult(response, [die, total, second.die, second.total, CL]);
    const newId = /roll `(\w{8})`/.exec(posted[0]!.content!)![1]!;
    expect(newId).not.toBe(rollId);
    expect(await sandbox().bot.store.rolls.find(sandbox().fake.guildId, newId)).toMatchObject({ blind: true, revealedAt: null, total: second.total });
  });

  it('dice notation blind shows the expression and label, not the dice; Reveal shows them', async () => {
    // The notation library's first use is acknowledged first; the answer then fills the acknowledgement.
    const { responses } = await sandbox().act({ user: 'kat', command: 'roll dice', options: { expression: '3d6+100', label: 'Lockpick', blind: true } });
    const posted = responses.at(-1)!;
    expect(responses.every((response) => !response.ephemeral)).toBe(true);
    const rollId = /roll `(\w{8})`/.exec(posted.content ?? '')![1]!;
    expect(posted.content).toContain(`made a blind roll of \`3d6+100\` (Lockpick) · roll \`${rollId}\``);
    const stored = await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollId);
    expect(stored).toMatchObject({ blind: true });
    expectNoResult(posted, [stored!.total!]);
    const revealed = await reveal(rollId, posted.messageId!);
    expect(textOf(revealed)).toContain(`**${stored!.total}**`);
  });

  it('a blind roll whose outcome is certain still rolls its dice, so the channel cannot tell', async () => {
    await stealthSheet();
    const posted = await sandbox().one({ user: 'kat', command: 'roll challenge', options: { skill: 'Stealth', cl: 10, blind: true } });
    expect(posted.content).toContain('made a blind Stealth roll');
    expect(posted.content).not.toMatch(/certain|No roll/);
  });

  it('blind and secret together are refused, saying why, and nothing is rolled', async () => {
    await stealthSheet();
    const refused = await sandbox().one({ ...DISPATCHER, command: 'roll challenge', options: { skill: 'Stealth', cl: CL, level: 40, blind: true, secret: true } });
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toContain('either `secret`');
    expect(await sandbox().bot.store.rolls.latestOfAllServers(5)).toEqual([]);
  });
});

describe('a Dispatcher’s blind call', () => {
  const CALL = { player: 'kat', skill: 'Stealth', cl: CL, intent: 'slip past the guard', outcome: 'Kat is inside unseen', consequence: 'the guard turns', blind: true };

  it('shows the player no CL and no odds, and the player’s press rolls blind: no number or verdict anywhere until a Dispatcher reveals it', async () => {
    await stealthSheet();
    const called = await sandbox().act({ ...DISPATCHER, command: 'dispatch challenge', options: CALL });
    const ack = called.responses.find((response) => response.ephemeral)!;
    expect(ack.content).toContain('The roll is blind');
    const post = called.responses.find((response) => !response.ephemeral)!;
    expect(textOf(post)).toContain('The roll is **blind**');
    expect(textOf(post)).toContain('vs CL **hidden**');
    expectNoResult({ ...post, embeds: [] }, [CL]);
    expect(JSON.stringify(post.embeds)).not.toMatch(new RegExp(`(?<![\\w.])${CL}(?![\\w.])|chance|%|odds`, 'i'));
    const requestId = /#(\d+)/.exec(textOf(post))![1]!;
    expect(customIds(post)).not.toContain(`dispatch:investigate:${requestId}`);

    const taken = await sandbox().act({ user: 'kat', button: `dispatch:roll:${requestId}`, message: post.messageId! });
    const { die, total } = stealthRoll(SEEDS[0]!);
    for (const response of taken.responses) {
      const sent = JSON.stringify({ content: response.content, embeds: response.embeds, components: response.components }).replace(/\d{15,}/g, '<id>');
      expect(sent).not.toMatch(new RegExp(`(?<![\\w.])(${die}|${total}|${CL})(?![\\w.])|success|failure|succeeded|chance|%|margin|D100`, 'i'));
    }
    const update = taken.responses.find((response) => response.kind === 'update')!;
    expect(textOf(update)).toContain('**Kat** took the roll blind');
    const rollId = /roll `(\w{8})`/.exec(textOf(update))![1]!;
    expect(customIds(update)).toEqual([`blind:show:${rollId}`, `blind:reveal:${rollId}`]);
    expect(await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollId)).toMatchObject({ blind: true, revealedAt: null, total });

    const refused = await sandbox().one({ user: 'kat', button: `blind:reveal:${rollId}`, message: post.messageId! });
    expect(refused.content).toContain('Only a Dispatcher can reveal a blind roll');
    const shown = await sandbox().one({ ...DISPATCHER, button: `blind:show:${rollId}`, message: post.messageId! });
    expect(shown.ephemeral).toBe(true);
    expect(textOf(shown)).toContain(`= **${total}**`);
    const revealed = await reveal(rollId, post.messageId!);
    expect(revealed.ephemeral).toBe(false);
    expect(textOf(revealed)).toContain(`Stealth vs CL ${CL}`);
    // The request keeps saying it was taken blind, and now that it was revealed.
    const request = sandbox().fake.messages().find((m) => m.id === post.messageId)!;
    expect(request.content).toContain('👁️ Revealed by');
    expect(JSON.stringify(request.embeds)).toContain('took the roll blind');
    // Revealed, the blind call's hidden CL is in the channel: a player's replay shows every number.
    const replayed = await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(replayed.ephemeral).toBe(false);
    expect(textOf(replayed)).toContain(`CL ${CL}`);
  });

  it('refuses a consequence table or an investigation with a blind call, saying why, and posts nothing', async () => {
    await stealthSheet();
    await sandbox().bot.store.tables.save(sandbox().fake.guildId, { ...LOCK_PICKING_INVESTIGATION, name: 'Alarm' });
    const table = await sandbox().one({ ...DISPATCHER, command: 'dispatch challenge', options: { ...CALL, 'consequence-table': 'Alarm' } });
    expect(table).toMatchObject({ ephemeral: true });
    expect(table.content).toContain('A blind roll cannot have a consequence table');
    const investigation = await sandbox().one({ ...DISPATCHER, command: 'dispatch challenge', options: { ...CALL, investigation: 'Alarm' } });
    expect(investigation.content).toContain('A blind roll allows no investigation');
    expect(channelPosts().filter((message) => message.content.includes('blind'))).toEqual([]);
  });
});
