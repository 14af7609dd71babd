// The seed's worked example as a whole contest: Kat (Sasha) tries to disarm Troy (Mike); the Dispatcher makes
// Troy use Shotgun Handling; both succeed, so the defender Troy wins and Kat suffers Troy's stated outcome.
// Also how many presses it takes: each player chooses at once (Kat with /contest start, Troy in the Accept form).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

/** A seed whose two D100s (Kat's, then Troy's) both clear the other's aptitude. */
function seedWhereBothSucceed(): string {
  for (let index = 0; ; index++) {
    const seed = `both-succeed-${index}`;
    const rng = seededRng(seed);
    const [kat, troy] = [rollD100(rng), rollD100(rng)];
    if (kat.value >= 40 && troy.value >= 37) return seed;
  }
}

let sandbox: TestSandbox;
/** Every interaction the players and the Dispatcher send, in order: the presses the contest took. */
let sent: SandboxInteractionRequest[];
const seed = seedWhereBothSucceed();
beforeEach(async () => {
  sandbox = await startTestSandbox({ seeds: Array.from({ length: 40 }, () => seed) });
  await sandbox.one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat' } });
  await sandbox.one({ user: 'sasha', command: 'sheet skill set', options: { name: 'CQC', level: 37 } });
  await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'CQC', level: 40 } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Shotgun Handling', level: 35 } });
  sent = [];
});
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

async function act(request: SandboxInteractionRequest): Promise<SandboxResponse[]> {
  sent.push(request);
  return (await sandbox.act(request)).responses;
}

/** Kat challenges Troy (CQC, attacker) and Troy accepts as the defender with CQC: four interactions so far. */
async function challengeAndAccept(): Promise<{ id: string; message: string }> {
  const [opening] = await act({
    user: 'sasha',
    command: 'contest start',
    options: { opponent: 'mike', intent: 'Kat disarms Troy as he enters', stakes: 'Troy is disarmed', skill: 'CQC', role: 'attacker' },
  });
  const mikeId = sandbox.fake.user('mike').id;
  expect(opening).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [], users: [mikeId] } });
  expect(textOf(opening!)).toContain('**CQC 37**');
  // The challenger's role is chosen but not shown: Troy must not know it before choosing his own.
  expect(textOf(opening!)).toContain('Kat: chosen, secret until the dice roll');
  expect(textOf(opening!)).not.toMatch(/Attacker|attacker/);
  const message = opening!.messageId!;
  const id = /Contest #(\d+)/.exec(textOf(opening!))![1]!;
  const [form] = await act({ user: 'mike', button: `contest:accept:${id}`, message });
  expect(form!.kind).toBe('modal');
  const [countered, prompt] = await act({
    user: 'mike',
    modal: `contest:acceptform:${id}`,
    fields: { stakes: 'Troy kicks Kat: she rolls on the Blunt Damage Outcome Table', role: 'defender', skill: 'CQC', archetypes: '' },
    message,
  });
  expect(countered!.kind).toBe('update');
  expect(textOf(countered!)).toContain('Troy kicks Kat');
  expect(textOf(countered!)).not.toMatch(/Attacker|Defender/);
  // Kat is told, in a new message that pings only her, that it is her move.
  const sashaId = sandbox.fake.user('sasha').id;
  expect(prompt).toMatchObject({ kind: 'followup', ephemeral: false, allowedMentions: { parse: [], users: [sashaId] } });
  expect(prompt!.content).toContain(`<@${sashaId}>, your move: **Agree**`);
  expect(prompt!.content).toContain(`https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${message}`);
  return { id, message };
}

it('Kat against Troy: the Dispatcher disputes Troy’s CQC to Shotgun Handling 35, both succeed, Troy wins', async () => {
  const { id, message } = await challengeAndAccept();

  const [adjustForm] = await act({ user: 'dee', roles: ['dispatcher'], button: `contest:adjust:${id}`, message });
  expect(adjustForm!.kind).toBe('modal');
  const [disputed, reset] = await act({
    user: 'dee',
    roles: ['dispatcher'],
    modal: `contest:adjustform:${id}`,
    fields: { challenger_skill: 'CQC', opponent_skill: 'Shotgun Handling', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, 0' },
    message,
  });
  expect(textOf(disputed!)).toContain("disputed Troy's skill");
  expect(textOf(disputed!)).toContain('**Shotgun Handling 35** (set by the Dispatcher)');
  // Troy's confirmation (his form) is cleared, and the message says so and why.
  expect(textOf(disputed!)).toContain("The Dispatcher disputed Troy's skill: both confirm again, Kat by agreeing (Troy had confirmed).");
  expect(reset!.allowedMentions).toEqual({ parse: [], users: [sandbox.fake.user('sasha').id, sandbox.fake.user('mike').id] });

  const [agreed, troysTurn] = await act({ user: 'sasha', button: `contest:agree:${id}`, message });
  expect(agreed!.kind).toBe('update');
  expect(troysTurn!.content).toContain(`<@${sandbox.fake.user('mike').id}>, your move: press **Confirm**`);
  expect(troysTurn!.allowedMentions).toEqual({ parse: [], users: [sandbox.fake.user('mike').id] });

  const [shown, result, linked] = await act({ user: 'mike', button: `contest:ready:${id}`, message });
  expect(shown!.kind).toBe('update');
  expect(result).toMatchObject({ kind: 'followup', ephemeral: false, allowedMentions: { parse: [], users: [sandbox.fake.user('sasha').id] } });
  const text = textOf(result!);
  expect(text).toContain('Troy wins');
  expect(text).toContain('Both succeeded: the defender wins.');
  expect(text).toContain('Troy kicks Kat: she rolls on the Blunt Damage Outcome Table');
  expect(text).toMatch(/Kat \(attacker\): CQC\n/);
  expect(text).toMatch(/Troy \(defender\): Shotgun Handling\n/);
  expect(text).toMatch(/vs CL 35 \(Troy's Shotgun Handling\) → ✅ success/);
  expect(text).toMatch(/vs CL 37 \(Kat's CQC\) → ✅ success/);
  expect(text).toContain(`https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${message}`);
  // The contest message now links to the result, and has no buttons left.
  expect(linked!.kind).toBe('edit');
  expect(textOf(linked!)).toContain(`/${result!.messageId})`);
  expect(linked!.components).toEqual([]);
  const rollId = /roll (\w{8})/.exec(text)![1]!;
  const replay = await sandbox.one({ user: 'eve', command: 'roll replay', options: { id: rollId } });
  expect(textOf(replay)).toContain('the dice match');
  expect(textOf(replay)).toContain('Winner\nTroy');
  // start, Accept, the form, the Dispatcher's button and form, Kat's Agree, Troy's Confirm.
  expect(sent).toHaveLength(7);
});

it('without a dispute the whole contest takes at most 5 interactions: /contest start, Accept, the form, Agree', async () => {
  const { id, message } = await challengeAndAccept();
  const [shown, result, linked] = await act({ user: 'sasha', button: `contest:agree:${id}`, message });
  expect(shown!.kind).toBe('update');
  expect(textOf(result!)).toContain('Troy wins');
  expect(textOf(result!)).toContain('Both succeeded: the defender wins.');
  expect(result!.allowedMentions).toEqual({ parse: [], users: [sandbox.fake.user('mike').id] });
  expect(linked!.kind).toBe('edit');
  expect(sent.length).toBeLessThanOrEqual(5);
  expect(sent).toHaveLength(4);
});
