// The contest (RULES 1.6) end to end, through the fake Discord: the challenger Sasha (Operator Kat), the challenged
// Mike (Operator Troy), the Dispatcher Dee and the bystander Eve press the buttons of one contest message.
// Every path of the consent flow, who may press what, expiry (also across a restart), double presses, the limits,
// mentions, the live odds and the house rule.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepContestsNow } from '../../commands/contest/index.js';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { OPEN_PHASES, proposeContest, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import type { FakeMessage, SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { contestAdjustForm, type PlayedContest } from '../helpers/contest-play.js';
import { importSheet, startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';
import { POSTING_GRACE_MS } from '../../src/store/message-state.js';

const CHALLENGER = 'sasha';
const OPPONENT = 'mike';
const DISPATCHER = 'dee';
/** A member with the Manage Server permission, who changes the server's settings with /config. */
const ADMIN = 'olga';
const BYSTANDER = 'eve';

const NOT_YOURS = 'This is not your contest';
/** A form is honoured only from a message that carries the button that opens it (src/discord/control-origin.ts). */
const FORM_NOT_FROM_ITS_MESSAGE = 'This form does not belong to the message it was sent from';
const NO_PINGS = { parse: [] };

/** A seed whose two D100s (the challenger's first, then the opponent's) satisfy `wanted`. */
function seedWhere(wanted: (challenger: number, opponent: number) => boolean): { seed: string; challenger: number; opponent: number } {
  for (let index = 0; ; index++) {
    const seed = `contest-e2e-${index}`;
    const rng = seededRng(seed);
    const [challenger, opponent] = [rollD100(rng).value, rollD100(rng).value];
    if (wanted(challenger, opponent)) return { seed, challenger, opponent };
  }
}

// Both D100s high (and different), so every skill on the sheets below is beaten, even after a −5 condition:
// attacker against defender → the defender wins; two attackers → a tie. Modifiers make one side fail when wanted.
const DICE = seedWhere((challenger, opponent) => challenger >= 60 && opponent >= 60 && challenger !== opponent && challenger < 100 && opponent < 100);

const KAT = {
  name: 'Kat',
  skills: [
    { name: 'CQC', level: 37 },
    { name: 'Climbing', level: 50 },
    { name: 'Stealth', level: 45 },
  ],
  archetypes: [{ name: 'Acuity', modifier: 5 }],
  conditions: [{ name: 'Sprained wrist', modifier: -5, skills: ['Climbing'], expiresAt: null }],
};
const TROY = {
  name: 'Troy',
  skills: [
    { name: 'CQC', level: 40 },
    { name: 'Shotgun Handling', level: 35 },
    { name: 'Athletics', level: 30 },
  ],
  archetypes: [{ name: 'Grit', modifier: 10 }],
  conditions: [],
};

let sandbox: TestSandbox;
let clock: Date;
let ids: { challenger: string; opponent: string; bystander: string };

beforeEach(async () => {
  clock = new Date('2031-03-14T20:00:00Z');
  sandbox = await startTestSandbox({ seeds: Array.from({ length: 200 }, () => DICE.seed), now: () => clock });
  await importSheet(sandbox, CHALLENGER, KAT);
  await importSheet(sandbox, OPPONENT, TROY);
  ids = {
    challenger: sandbox.fake.user(CHALLENGER).id,
    opponent: sandbox.fake.user(OPPONENT).id,
    bystander: sandbox.fake.user(BYSTANDER).id,
  };
});

afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

// ---- helpers ------------------------------------------------------------------------------------------------

type Contest = PlayedContest;

function advanceMinutes(minutes: number): void {
  clock = new Date(clock.getTime() + minutes * 60_000);
}

async function startContest(
  options: { stakes?: string; intent?: string; opponent?: string; challenger?: string; skill?: string; role?: 'attacker' | 'defender'; archetypes?: string } = {},
): Promise<Contest & { opening: SandboxResponse }> {
  const opening = await sandbox.one({
    user: options.challenger ?? CHALLENGER,
    command: 'contest start',
    options: {
      opponent: options.opponent ?? OPPONENT,
      intent: options.intent ?? 'Kat disarms Troy as he enters',
      stakes: options.stakes ?? 'Troy is disarmed',
      skill: options.skill ?? 'CQC',
      role: options.role ?? 'attacker',
      ...(options.archetypes ? { archetypes: options.archetypes } : {}),
    },
  });
  expect(opening).toMatchObject({ kind: 'reply', ephemeral: false });
  const id = /Contest #(\d+)/.exec(textOf(opening))?.[1];
  expect(id, textOf(opening)).toBeDefined();
  return { id: id!, message: opening.messageId!, opening };
}

/** A button press on the contest message: `contest:<verb>:<id>[:<arg>]`. */
function button(contest: Contest, user: string, verb: string, arg?: string, roles?: string[]): SandboxInteractionRequest {
  return { user, button: `contest:${verb}:${contest.id}${arg ? `:${arg}` : ''}`, message: contest.message, ...(roles ? { roles } : {}) };
}

/**
 * A press of a button the message does not show (any more), as a stale client or a forged request sends it: refused
 * privately with `reason`, and the message does not change. The button is put on the fake's copy of the message for
 * this one press only.
 */
async function expectStaleRefused(contest: Contest, user: string, verb: string, reason: string, roles?: string[]): Promise<void> {
  const before = shown(contest);
  const request = button(contest, user, verb, undefined, roles);
  const record = (sandbox.fake as unknown as { state: { messages: Map<string, { components: unknown[] }> } }).state.messages.get(contest.message)!;
  const original = record.components;
  record.components = [...original, { type: 1, components: [{ type: 2, style: 2, custom_id: request.button, label: 'stale' }] }];
  try {
    // The bot first brings the lagging message up to date (an update), then answers privately.
    const { responses } = await sandbox.act(request);
    const refusal = responses.at(-1)!;
    expect(refusal).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(refusal.content).toContain(reason);
    for (const response of responses) expect(response.allowedMentions).toEqual(NO_PINGS);
  } finally {
    record.components = original;
  }
  // What the channel shows is unchanged (the update that brought it up to date pings nobody).
  const { allowedMentions: _was, ...beforeShown } = before;
  const { allowedMentions: _now, ...nowShown } = shown(contest);
  expect(nowShown).toEqual(beforeShown);
}

/** A press and everything it answered: the contest message's update first, then any new message (prompt, result). */
async function pressAll(contest: Contest, user: string, verb: string, arg?: string, roles?: string[]): Promise<SandboxResponse[]> {
  return (await sandbox.act(button(contest, user, verb, arg, roles))).responses;
}

/** A press's first answer: the contest message as it now stands (or a form, or a private refusal). */
async function press(contest: Contest, user: string, verb: string, arg?: string, roles?: string[]): Promise<SandboxResponse> {
  return (await pressAll(contest, user, verb, arg, roles))[0]!;
}

async function pick(contest: Contest, user: string, side: 'challenger' | 'opponent', skill: string): Promise<SandboxResponse> {
  return (await sandbox.act({ user, select: `contest:skill:${contest.id}:${side}`, values: [skill], message: contest.message })).responses[0]!;
}

/** The Accept form's fields: the stakes, the role, the skill and the archetypes added. */
function acceptFields(options: { stakes?: string; role?: string; skill?: string; archetypes?: string } = {}): Record<string, string> {
  return { stakes: options.stakes ?? 'Troy kicks Kat: she rolls on the Blunt Damage Outcome Table', role: options.role ?? 'defender', skill: options.skill ?? 'CQC', archetypes: options.archetypes ?? '' };
}

/** Troy accepts in one form; returns every answer (the message's update, then the prompt to Kat). */
async function acceptAll(contest: Contest, options: Parameters<typeof acceptFields>[0] = {}): Promise<SandboxResponse[]> {
  const form = await press(contest, OPPONENT, 'accept');
  expect(form.kind).toBe('modal');
  return (await sandbox.act({ user: OPPONENT, modal: `contest:acceptform:${contest.id}`, fields: acceptFields(options), message: contest.message })).responses;
}

async function accept(contest: Contest, stakes?: string): Promise<SandboxResponse> {
  return (await acceptAll(contest, { stakes }))[0]!;
}

/**
 * A contest as the previous version stored it mid-flow: the challenged player accepted with stakes only, no role or
 * skill chosen yet (roles and skills were picked on the message then). The message is brought up to date by a
 * bystander's press, as any press on a lagging message does.
 */
async function toLegacyCountered(): Promise<Contest> {
  const contest = await startContest();
  await accept(contest);
  const row = (await sandbox.bot.store.db.contest.findUnique({ where: { id: Number(contest.id) } }))!;
  const state = JSON.parse(row.state) as ContestState & Record<string, unknown>;
  const bare = (side: ContestState['challenger']) => ({ ...side, role: null, skill: null, archetypeModifiers: [], conditionModifiers: [], ready: false });
  const legacy = { ...state, challenger: bare(state.challenger), opponent: bare(state.opponent) } as Record<string, unknown>;
  delete legacy.secretRoles;
  delete legacy.notice;
  await sandbox.bot.store.db.contest.update({ where: { id: row.id }, data: { state: JSON.stringify(legacy), version: { increment: 1 } } });
  await sandbox.act(button(contest, BYSTANDER, 'agree'));
  return contest;
}

async function adjustAll(contest: Contest, fields: Partial<Record<'challenger_skill' | 'opponent_skill' | 'challenger_archetypes' | 'opponent_archetypes' | 'modifiers', string>>): Promise<SandboxResponse[]> {
  const form = await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher']);
  expect(form.kind).toBe('modal');
  return (
    await sandbox.act({
      user: DISPATCHER,
      roles: ['dispatcher'],
      modal: `contest:adjustform:${contest.id}`,
      fields: { challenger_skill: '', opponent_skill: '', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, 0', ...fields },
      message: contest.message,
    })
  ).responses;
}

async function adjust(contest: Contest, fields: Partial<Record<'challenger_skill' | 'opponent_skill' | 'challenger_archetypes' | 'opponent_archetypes' | 'modifiers', string>>): Promise<SandboxResponse> {
  return (await adjustAll(contest, fields))[0]!;
}

async function toCountered(options?: Parameters<typeof startContest>[0]): Promise<Contest> {
  const contest = await startContest(options);
  await accept(contest);
  return contest;
}

/** A contest of the previous version at its roles step. */
async function toRoles(): Promise<Contest> {
  const contest = await toLegacyCountered();
  await press(contest, CHALLENGER, 'agree');
  return contest;
}

async function toSkills(roles: ['attacker' | 'defender', 'attacker' | 'defender'] = ['attacker', 'defender']): Promise<Contest> {
  const contest = await toRoles();
  await press(contest, CHALLENGER, 'role', roles[0]);
  const chosen = await press(contest, OPPONENT, 'role', roles[1]);
  expect(textOf(chosen)).toContain('picks a skill from their own sheet');
  return contest;
}

/** Two attackers, CQC against CQC, both succeed: a tie. */
async function toTied(): Promise<Contest> {
  const contest = await startContest({ role: 'attacker' });
  await acceptAll(contest, { role: 'attacker' });
  const tied = await press(contest, CHALLENGER, 'agree');
  expect(textOf(tied)).toContain('**Tie** between two attackers');
  return contest;
}

/** The message as the channel shows it, without its edit time. */
function shown(contest: Contest): Omit<FakeMessage, 'editedAt'> {
  const message = sandbox.fake.message(contest.message);
  expect(message).toBeDefined();
  const { editedAt: _editedAt, ...rest } = message!;
  return rest;
}

function shownText(contest: Contest): string {
  return textOf(shown(contest));
}

/** The request is answered privately with `reason`, pings nobody, and the contest message does not change. */
async function expectRefused(contest: Contest, request: SandboxInteractionRequest, reason: string | RegExp): Promise<void> {
  const before = shown(contest);
  const refusal = await sandbox.one(request);
  expect(refusal).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
  if (typeof reason === 'string') expect(refusal.content).toContain(reason);
  else expect(refusal.content).toMatch(reason);
  expect(shown(contest)).toEqual(before);
}

/** A command is answered privately with `reason`, pings nobody and posts nothing in the channel. */
async function expectRefusedCommand(request: SandboxInteractionRequest, reason: string): Promise<SandboxResponse> {
  const messages = sandbox.fake.messages().length;
  const refusal = await sandbox.one(request);
  expect(refusal).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
  expect(refusal.content).toContain(reason);
  expect(sandbox.fake.messages()).toHaveLength(messages);
  return refusal;
}

interface Component {
  type: number;
  custom_id?: string;
  disabled?: boolean;
  options?: Array<{ value: string; label: string }>;
  components?: Component[];
}

function componentsOf(contest: Contest): Component[] {
  return (shown(contest).components as Component[]).flatMap((row) => row.components ?? []);
}

function menuValues(contest: Contest, side: 'challenger' | 'opponent'): string[] {
  const menu = componentsOf(contest).find((component) => component.custom_id === `contest:skill:${contest.id}:${side}`);
  expect(menu, `the ${side}'s skill menu`).toBeDefined();
  return menu!.options!.map((option) => option.value);
}

/** Two interactions at once, straight through the fake (neither may break a Discord rule). */
async function concurrently(first: SandboxInteractionRequest, second: SandboxInteractionRequest): Promise<SandboxResponse[][]> {
  const results = await Promise.all([sandbox.fake.interact(first), sandbox.fake.interact(second)]);
  for (const result of results) expect(result.errors).toEqual([]);
  return results.map((result) => result.responses);
}

/**
 * Of two concurrent presses, exactly one moved the contest (an update) and the other got a polite private answer: a
 * reply, or, when its message did not show the winner's move yet, a follow-up after bringing the message up to date.
 */
function expectOneWinner(responses: SandboxResponse[][], politeAnswer: RegExp): SandboxResponse {
  const noteOf = (list: SandboxResponse[]) => list.find((r) => r.ephemeral && (r.kind === 'reply' || r.kind === 'followup') && politeAnswer.test(r.content ?? ''));
  const losers = responses.filter((list) => noteOf(list));
  const winners = responses.filter((list) => !noteOf(list));
  expect(losers).toHaveLength(1);
  expect(winners).toHaveLength(1);
  expect(noteOf(losers[0]!)!.content).not.toMatch(/went wrong/);
  expect(winners[0]![0]!.kind).toBe('update');
  return winners[0]![0]!;
}

async function contestRolls(): Promise<number> {
  return (await sandbox.bot.store.rolls.latestOfAllServers(50)).filter((roll) => roll.kind === 'contest').length;
}

// ---- the flow -------------------------------------------------------------------------------------------------

describe('proposing and answering', () => {
  it('the challenger chooses with /contest start, the challenged player in one form, the challenger agrees and the dice roll: the defender wins when both succeed', async () => {
    const contest = await startContest({ skill: 'CQC', role: 'attacker', archetypes: 'Acuity' });
    expect(contest.opening.content).toBe(`<@${ids.opponent}>, you are challenged to a contest by <@${ids.challenger}>.`);
    expect(textOf(contest.opening)).toContain('**Intent:** Kat disarms Troy as he enters');
    expect(textOf(contest.opening)).toContain('If Kat wins\nTroy is disarmed');
    expect(textOf(contest.opening)).toContain('*stated when they accept*');
    // Kat's role is secret until the roll, so it cannot sway Troy's choice.
    // Troy's Operator is not known before he accepts (he accepts with his active sheet): his player is named.
    expect(textOf(contest.opening)).toContain('⚔️ Contest #1: Kat vs mike\n');
    expect(textOf(contest.opening)).toContain('If mike wins\n*stated when they accept*');
    expect(textOf(contest.opening)).toContain("**CQC 37**: the CL of mike's roll\nadds + 5 Acuity");
    expect(textOf(contest.opening)).toContain('Roles\nKat: chosen, secret until the dice roll\nmike: chosen when they accept');
    expect(textOf(contest.opening)).toContain("mike's skill\n*chosen when they accept*");
    expect(textOf(contest.opening)).not.toMatch(/an opponent|the opponent/i);
    expect(componentsOf(contest).map((component) => component.custom_id)).toEqual([
      `contest:accept:${contest.id}`,
      `contest:decline:${contest.id}`,
      `contest:withdraw:${contest.id}`,
      `contest:cancel:${contest.id}`,
    ]);

    const form = await press(contest, OPPONENT, 'accept');
    expect(form.kind).toBe('modal');
    const modal = JSON.stringify(form.modal);
    expect(modal).toContain('"title":"Accept contest #1 as Troy"');
    expect(modal).toContain('"custom_id":"role"');
    expect(modal).toContain('"value":"Shotgun Handling"'); // the skill menu lists Troy's skills
    const [countered, prompt] = await acceptAll(contest, { role: 'defender', skill: 'Shotgun Handling', archetypes: 'Grit' });
    expect(countered!.kind).toBe('update');
    expect(textOf(countered!)).toContain(`Contest #${contest.id}: Kat vs Troy`);
    expect(textOf(countered!)).toContain('If Troy wins\nTroy kicks Kat: she rolls on the Blunt Damage Outcome Table');
    expect(textOf(countered!)).toContain("**Shotgun Handling 35**: the CL of Kat's roll\nadds + 10 Grit");
    expect(textOf(countered!)).toContain('Roles\nKat: chosen, secret until the dice roll\nTroy: chosen, secret until the dice roll');
    // Only each side's own chance is shown while the roles are secret: Kat succeeds on 30–100 (71), Troy 27–100 (74).
    expect(textOf(countered!)).toContain("Kat's roll succeeds **71%** · Troy's **74%**");
    expect(textOf(countered!)).toContain('**Agree** to both terms: the dice roll as soon as they agree, or **Withdraw**');
    // The turn prompt: a new message, pinging Kat's player and nobody else, with a link to the contest.
    expect(prompt).toMatchObject({ kind: 'followup', ephemeral: false, allowedMentions: { parse: [], users: [ids.challenger] } });
    expect(prompt!.content).toContain(`Troy accepted with their own terms, role and skill. <@${ids.challenger}>, your move: **Agree**`);
    expect(prompt!.content).toContain(`(https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${contest.message})`);

    const [rolled, result, linked] = await pressAll(contest, CHALLENGER, 'agree');
    expect(rolled!.kind).toBe('update');
    expect(textOf(rolled!)).toContain('Roles\nKat: Attacker\nTroy: Defender');
    expect(result).toMatchObject({ kind: 'followup', ephemeral: false, allowedMentions: { parse: [], users: [ids.opponent] } });
    const text = textOf(result!);
    expect(text).toContain(`${DICE.challenger} (D100) + 5 Acuity = **${DICE.challenger + 5}** vs CL 35 (Troy's Shotgun Handling) → ✅ success`);
    expect(text).toContain(`${DICE.opponent} (D100) + 10 Grit = **${DICE.opponent + 10}** vs CL 37 (Kat's CQC) → ✅ success`);
    expect(text).toContain("🏆 **Troy wins.** Both succeeded: the defender wins.\nKat suffers Troy's stated outcome:\n> Troy kicks Kat: she rolls on the Blunt Damage Outcome Table");
    expect(text).toContain(`[Contest #${contest.id}](https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${contest.message})`);
    // The contest message links to the result and has nothing left to press.
    expect(linked!.kind).toBe('edit');
    expect(shownText(contest)).toContain(`Round 1: Kat ✅ · Troy ✅ → **Troy wins** — [result and dice](https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${result!.messageId})`);
    expect(shown(contest).components).toEqual([]);
    expect(await contestRolls()).toBe(1);
  });

  it('both fail against a defender: nothing changes, neither stated outcome happens; the message, /log and /roll replay say so by name', async () => {
    // Kat defends, Troy attacks, both with −90: both fail.
    const contest = await startContest({ role: 'defender' });
    await acceptAll(contest, { role: 'attacker' });
    await adjust(contest, { challenger_skill: 'CQC', opponent_skill: 'CQC', modifiers: '-90, -90' });
    await press(contest, CHALLENGER, 'agree');
    const [shownNow, result] = await pressAll(contest, OPPONENT, 'ready');
    const text = textOf(result!);
    expect(text).toContain('🎲 Contest #1: both failed, nothing changes');
    expect(text).toContain("🚫 **Both failed: nothing changes.** Troy's intent fails, and Kat's stated outcome does not happen either.");
    expect(text).not.toMatch(/wins|suffers/);
    expect(text).toMatch(/Kat \(defender\): CQC\n/);
    expect(textOf(shownNow!)).toContain('Round 1: Kat ❌ · Troy ❌ → **nothing changes**');
    expect(shownText(contest)).toContain("🚫 **Both failed: nothing changes.** Troy's intent fails, and Kat's stated outcome does not happen either.");
    expect(shown(contest).components).toEqual([]);
    const rollId = /roll (\w{8})/.exec(text)![1]!;
    const replay = textOf(await sandbox.one({ user: BYSTANDER, command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain('the dice match');
    expect(replay).toContain('Kat (defender): CQC');
    expect(replay).toContain('Troy (attacker): CQC');
    expect(replay).toContain('Winner\nNobody: both failed, nothing changes');
    expect(textOf(await sandbox.one({ user: CHALLENGER, command: 'log' }))).toContain('CQC 37 vs CQC 40 → **both failed: nothing changes**');
  });

  it('a round stored before both failing meant nothing changes replays as it was decided: the defender won', async () => {
    const contest = await startContest({ role: 'defender' });
    await acceptAll(contest, { role: 'attacker' });
    await adjust(contest, { challenger_skill: 'CQC', opponent_skill: 'CQC', modifiers: '-90, -90' });
    await press(contest, CHALLENGER, 'agree');
    const [, result] = await pressAll(contest, OPPONENT, 'ready');
    const rollId = /roll (\w{8})/.exec(textOf(result!))![1]!;
    // As the previous version stored it: no reading and no names with the roll, the defender (Kat) as the winner.
    const row = (await sandbox.bot.store.db.roll.findUnique({ where: { id: rollId } }))!;
    const { bothFail: _reading, names: _names, ...inputs } = JSON.parse(row.inputs) as Record<string, unknown>;
    const stored = { ...(JSON.parse(row.result) as Record<string, unknown>), winner: 'challenger' };
    await sandbox.bot.store.db.roll.update({ where: { id: rollId }, data: { inputs: JSON.stringify(inputs), result: JSON.stringify(stored) } });
    const replay = textOf(await sandbox.one({ user: BYSTANDER, command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain('the dice match');
    expect(replay).toContain('The challenger (defender): CQC');
    expect(replay).toContain('Winner\nThe challenger (the defender: when this round was rolled, both failing went to the defender)');
    expect(textOf(await sandbox.one({ user: CHALLENGER, command: 'log' }))).toContain('CQC 37 vs CQC 40 → **the challenger wins**');
  });

  it('two attackers who both fail tie, as when both succeed', async () => {
    const contest = await startContest({ role: 'attacker' });
    await acceptAll(contest, { role: 'attacker' });
    await adjust(contest, { challenger_skill: 'CQC', opponent_skill: 'CQC', modifiers: '-90, -90' });
    await press(contest, CHALLENGER, 'agree');
    const [tied, result] = await pressAll(contest, OPPONENT, 'ready');
    expect(textOf(result!)).toContain('🤝 Both failed and both are attackers: a tie.');
    expect(textOf(tied!)).toContain('🤝 **Tie** between two attackers.');
    expect(componentsOf(contest).map((component) => component.custom_id)).toEqual([`contest:again:${contest.id}`, `contest:accepttie:${contest.id}`, `contest:cancel:${contest.id}`]);
  });

  it('the result names the winner: one success wins, and /roll replay and /log name the Operators', async () => {
    // Troy as an attacker with −90: he fails, Kat succeeds.
    const contest = await startContest({ role: 'defender' });
    await acceptAll(contest, { role: 'attacker' });
    await adjust(contest, { challenger_skill: 'CQC', opponent_skill: 'CQC', modifiers: '0, -90' });
    await press(contest, CHALLENGER, 'agree');
    const [, result] = await pressAll(contest, OPPONENT, 'ready');
    const text = textOf(result!);
    expect(text).toContain('🏆 **Kat wins.** Kat succeeded and Troy failed.');
    const rollId = /roll (\w{8})/.exec(text)![1]!;
    expect(textOf(await sandbox.one({ user: BYSTANDER, command: 'roll replay', options: { id: rollId } }))).toContain('Winner\nKat');
    expect(textOf(await sandbox.one({ user: CHALLENGER, command: 'log' }))).toContain('CQC 37 vs CQC 40 → **Kat wins**');
  });

  it('only the challenged player can accept or decline; the challenger, the Dispatcher and a bystander are refused and nothing changes', async () => {
    const contest = await startContest();
    await expectRefused(contest, button(contest, CHALLENGER, 'accept'), 'Only the challenged player can answer this.');
    await expectRefused(contest, button(contest, CHALLENGER, 'decline'), 'Only the challenged player can answer this.');
    await expectRefused(contest, button(contest, BYSTANDER, 'accept'), NOT_YOURS);
    await expectRefused(contest, button(contest, BYSTANDER, 'decline'), NOT_YOURS);
    await expectRefused(contest, button(contest, DISPATCHER, 'accept', undefined, ['dispatcher']), NOT_YOURS);
    expect(textOf(await accept(contest))).toContain('Troy kicks Kat');
  });

  it('a challenged player without a sheet is asked to create one before accepting', async () => {
    const contest = await startContest({ opponent: 'noa' });
    await expectRefused(contest, button(contest, 'noa', 'accept'), 'A contest is played with a Tac Talk sheet, and you have none');
  });

  it('the challenged player declines: the contest ends, and the challenger is told in a new message', async () => {
    const contest = await startContest();
    const [declined, notice] = await pressAll(contest, OPPONENT, 'decline');
    expect(declined!.kind).toBe('update');
    expect(textOf(declined!)).toContain('⛔ mike declined. The challenger must choose a different course of action.');
    expect(declined!.components).toEqual([]);
    expect(notice).toMatchObject({ kind: 'followup', allowedMentions: { parse: [], users: [ids.challenger] } });
    expect(notice!.content).toContain(`<@${ids.challenger}> ⛔ Contest #${contest.id} is over: mike declined.`);
  });

  it('only the challenger can agree or withdraw; the challenged player and a bystander are refused and nothing changes', async () => {
    const contest = await toCountered();
    await expectRefused(contest, button(contest, OPPONENT, 'agree'), 'Only the challenger can answer this.');
    await expectRefused(contest, button(contest, OPPONENT, 'withdraw'), 'Only the challenger can answer this.');
    await expectRefused(contest, button(contest, BYSTANDER, 'agree'), NOT_YOURS);
    await expectRefused(contest, button(contest, BYSTANDER, 'withdraw'), NOT_YOURS);
    expect(textOf(await press(contest, CHALLENGER, 'agree'))).toContain('Kat: Attacker');
  });

  it('the challenger may withdraw at any step before the dice roll; the challenged player is told', async () => {
    const proposed = await startContest();
    const [withdrawn, told] = await pressAll(proposed, CHALLENGER, 'withdraw');
    expect(textOf(withdrawn!)).toContain('⛔ Kat withdrew before the dice were rolled.');
    expect(told).toMatchObject({ kind: 'followup', allowedMentions: { parse: [], users: [ids.opponent] } });

    const countered = await toCountered();
    expect(textOf(await press(countered, CHALLENGER, 'withdraw'))).toContain('⛔ Kat did not agree to the terms. The challenger must choose a different course of action.');

    // After the Dispatcher's change and Kat's Agree, waiting for Troy's confirmation: still before the roll.
    const confirming = await toCountered();
    await adjust(confirming, { challenger_skill: 'CQC', opponent_skill: 'Shotgun Handling' });
    await press(confirming, CHALLENGER, 'agree');
    expect(textOf(await press(confirming, CHALLENGER, 'withdraw'))).toContain('⛔ Kat withdrew before the dice were rolled.');
    expect(await contestRolls()).toBe(0);
  });

  it('a refused Accept form says what was wrong and shows back what was typed; the challenged player can try again', async () => {
    const contest = await startContest();
    await press(contest, OPPONENT, 'accept');
    const submit = (fields: Record<string, string>) => ({ user: OPPONENT, modal: `contest:acceptform:${contest.id}`, fields, message: contest.message });
    await expectRefused(contest, submit(acceptFields({ stakes: '   ' })), 'The stakes cannot be empty');
    const refusal = await sandbox.one(submit(acceptFields({ stakes: 'Kat eats dirt', archetypes: 'Grit, Gritt' })));
    expect(refusal.content).toContain('Troy has no archetype named **Gritt**. Did you mean **Grit**?');
    expect(refusal.content).toContain('- stakes: `Kat eats dirt`');
    expect(refusal.content).toContain('- archetypes: `Grit, Gritt`');
    expect(await sandbox.one(submit(acceptFields({ archetypes: 'Grit, Grit' })))).toMatchObject({ ephemeral: true, content: expect.stringContaining('named twice') });
    expect(textOf(await accept(contest))).toContain('Troy kicks Kat');
  });

  it('both defenders: the contest ends when the second role is chosen, there is no reason for a contest', async () => {
    const contest = await startContest({ role: 'defender' });
    const [ended] = await acceptAll(contest, { role: 'defender' });
    expect(textOf(ended!)).toContain('⛔ Both players are defenders: there is no reason for a contest.');
    expect(ended!.components).toEqual([]);
    expect(await contestRolls()).toBe(0);
  });
});

describe('turn prompts and confirmations', () => {
  it('a Dispatcher’s change clears the confirmations and says why; each player still to act is pinged, and only they', async () => {
    const contest = await toCountered();
    const [adjusted, prompt] = (await adjustAll(contest, { challenger_skill: 'CQC', opponent_skill: 'Shotgun Handling' }));
    expect(textOf(adjusted!)).toContain("⚠️ The Dispatcher disputed Troy's skill: both confirm again, Kat by agreeing (Troy had confirmed).");
    expect(prompt!.allowedMentions).toEqual({ parse: [], users: [ids.challenger, ids.opponent] });
    expect(prompt!.content).toContain(`<@${ids.challenger}>, your move: **Agree**`);
    expect(prompt!.content).toContain(`<@${ids.opponent}>, your move: **Confirm** the change`);
    // Troy may confirm before Kat agrees; then Kat's Agree rolls the dice.
    const [confirmed, toKat] = await pressAll(contest, OPPONENT, 'ready');
    expect(textOf(confirmed!)).toContain('✅ confirmed');
    expect(toKat!.allowedMentions).toEqual({ parse: [], users: [ids.challenger] });
    expect(toKat!.content).toContain(`Troy confirmed. <@${ids.challenger}>, your move: **Agree**`);
    // Confirmed once is enough: the Confirm button is gone, and a second confirmation (a lagging client) is refused.
    expect(componentsOf(contest).map((component) => component.custom_id)).not.toContain(`contest:ready:${contest.id}`);
    await expectStaleRefused(contest, OPPONENT, 'ready', 'You are already ready');
    const [, result] = await pressAll(contest, CHALLENGER, 'agree');
    expect(textOf(result!)).toContain('Troy wins');
  });

  it('after Agree, a change by the Dispatcher is not possible: the dice have rolled; before it, adjusting needs both skills known', async () => {
    const contest = await startContest();
    // No adjust button before both skills are known; a press or form from a stale client is refused.
    expect(componentsOf(contest).map((component) => component.custom_id)).not.toContain(`contest:adjust:${contest.id}`);
    await expectStaleRefused(contest, DISPATCHER, 'adjust', 'once both players have chosen their skills', ['dispatcher']);
    await expectRefused(contest, contestAdjustForm(DISPATCHER, contest, { challenger_skill: 'Stealth' }), FORM_NOT_FROM_ITS_MESSAGE);
    await accept(contest);
    expect(componentsOf(contest).map((component) => component.custom_id)).toContain(`contest:adjust:${contest.id}`);
    await press(contest, CHALLENGER, 'agree');
    await expectStaleRefused(contest, DISPATCHER, 'adjust', 'This contest is over', ['dispatcher']);
    await expectRefused(contest, contestAdjustForm(DISPATCHER, contest, { challenger_skill: 'Stealth' }), FORM_NOT_FROM_ITS_MESSAGE);
    expect(await contestRolls()).toBe(1);
  });
});

describe('a contest stored by the previous version (roles and skills picked on the message)', () => {
  it('plays on from where it was: roles, skill menus, Ready, and the result', async () => {
    const contest = await toLegacyCountered();
    expect(textOf(await press(contest, CHALLENGER, 'agree'))).toContain('Roles\nKat: not chosen yet\nTroy: not chosen yet');
    const first = await press(contest, CHALLENGER, 'role', 'attacker');
    expect(textOf(first)).toContain('Roles\nKat: chosen\nTroy: not chosen yet');
    const both = await press(contest, OPPONENT, 'role', 'defender');
    expect(textOf(both)).toContain('Roles\nKat: Attacker\nTroy: Defender');
    await pick(contest, CHALLENGER, 'challenger', 'CQC');
    await pick(contest, OPPONENT, 'opponent', 'Shotgun Handling');
    await press(contest, CHALLENGER, 'ready');
    const [, result] = await pressAll(contest, OPPONENT, 'ready');
    expect(textOf(result!)).toContain("🏆 **Troy wins.** Both succeeded: the defender wins.");
  });
});

describe('roles and skills', () => {
  it('both defenders: the contest ends, there is no reason for a contest', async () => {
    const contest = await toRoles();
    await expectRefused(contest, button(contest, BYSTANDER, 'role', 'attacker'), NOT_YOURS);
    await press(contest, CHALLENGER, 'role', 'defender');
    const ended = await press(contest, OPPONENT, 'role', 'defender');
    expect(textOf(ended)).toContain('⛔ Both players are defenders: there is no reason for a contest.');
    expect(ended.components).toEqual([]);
  });

  it('a player cannot pick from the other side’s skill menu, nor can a bystander or the Dispatcher', async () => {
    const contest = await toSkills();
    const forKat = 'This menu is for Kat’s player only.';
    const forTroy = 'This menu is for Troy’s player only.';
    const selectAs = (user: string, side: 'challenger' | 'opponent', value: string, roles?: string[]): SandboxInteractionRequest => ({
      user,
      select: `contest:skill:${contest.id}:${side}`,
      values: [value],
      message: contest.message,
      ...(roles ? { roles } : {}),
    });
    await expectRefused(contest, selectAs(OPPONENT, 'challenger', 'Stealth'), forKat);
    await expectRefused(contest, selectAs(CHALLENGER, 'opponent', 'Athletics'), forTroy);
    await expectRefused(contest, selectAs(BYSTANDER, 'challenger', 'CQC'), forKat);
    await expectRefused(contest, selectAs(DISPATCHER, 'opponent', 'CQC', ['dispatcher']), forTroy);
    // A player may not be ready without a skill, and a bystander may not be ready at all.
    await expectRefused(contest, button(contest, CHALLENGER, 'ready'), 'Pick your skill in the menu first, then press Ready.');
    await expectRefused(contest, button(contest, BYSTANDER, 'ready'), NOT_YOURS);
    // Each side's own pick works, and changing it again un-readies both.
    await pick(contest, CHALLENGER, 'challenger', 'Stealth');
    await press(contest, CHALLENGER, 'ready');
    const changed = await pick(contest, CHALLENGER, 'challenger', 'CQC');
    expect(textOf(changed)).toContain("**CQC 37**: the CL of Troy's roll");
    expect(textOf(changed)).not.toContain('✅ ready');
  });

  /** A contest at the skills step where Mike plays Mo, a sheet of 30 skills: more than one menu can list. */
  async function toSkillsWithManySkills(): Promise<Contest> {
    const skills = Array.from({ length: 30 }, (_, index) => ({ name: `Skill ${String(index + 1).padStart(2, '0')}`, level: 10 + index }));
    await importSheet(sandbox, OPPONENT, { name: 'Mo', skills });
    const contest = await startContest();
    await press(contest, OPPONENT, 'accept');
    await sandbox.act({ user: OPPONENT, modal: `contest:acceptform:${contest.id}`, fields: acceptFields({ stakes: 'Kat is kicked', role: 'attacker', skill: 'Skill 01' }), message: contest.message });
    await press(contest, CHALLENGER, 'agree'); // a tie: Skill 01 (10) and CQC (37) are both beaten
    await press(contest, CHALLENGER, 'again');
    await press(contest, OPPONENT, 'again');
    return contest;
  }

  it('with more than 25 skills the menu offers a search form: a player finds their own skill by name, never the other side’s', async () => {
    const contest = await toSkillsWithManySkills();
    const values = menuValues(contest, 'opponent');
    expect(values).toHaveLength(25);
    expect(values.at(-1)).toBe('__search__');
    expect(values).not.toContain('Skill 30');
    expect(values).not.toContain('Skill 01'); // rolled in round 1
    await expectRefused(contest, { user: CHALLENGER, select: `contest:skill:${contest.id}:opponent`, values: ['__search__'], message: contest.message }, 'This menu is for Mo’s player only.');

    const form = await pick(contest, OPPONENT, 'opponent', '__search__');
    expect(form).toMatchObject({ kind: 'modal' });
    const searchForm = { modal: `contest:searchform:${contest.id}:opponent`, message: contest.message };
    await expectRefused(contest, { user: CHALLENGER, ...searchForm, fields: { skill: 'Skill 30' } }, 'This menu is for Mo’s player only.');
    await expectRefused(contest, { user: OPPONENT, ...searchForm, fields: { skill: 'Juggling' } }, 'Juggling');
    const [found] = (await sandbox.act({ user: OPPONENT, ...searchForm, fields: { skill: 'skill 30' } })).responses;
    expect(found!.kind).toBe('update');
    expect(textOf(found!)).toContain("**Skill 30 39**: the CL of Kat's roll");
  });

  // The dry run that checks skills can still be picked once refused this first pick (it used the Ready action).
  it('a player with more than 25 skills can open the skill search as their first pick', async () => {
    const contest = await toSkillsWithManySkills();
    const form = await pick(contest, OPPONENT, 'opponent', '__search__');
    expect(form).toMatchObject({ kind: 'modal' });
  });

  it('shows the exact live odds: attacker CQC 37 against defender Shotgun Handling 35, then against another attacker', async () => {
    // Kat succeeds on 35–100 (66 faces of 100), Troy on 37–100 (64). Attacker against defender: Kat wins only when
    // she succeeds and Troy fails (66 × 36 = 2376 of 10 000 face pairs); Troy wins whenever he succeeds (64 × 100),
    // both fail → nothing changes (34 × 36 = 1224).
    const contest = await toSkills(['attacker', 'defender']);
    await pick(contest, CHALLENGER, 'challenger', 'CQC');
    const odds = await pick(contest, OPPONENT, 'opponent', 'Shotgun Handling');
    expect(textOf(odds)).toContain('Odds for these choices\nKat wins **23.76%** · Troy wins **64%** · both fail, nothing changes **12.24%**');

    // Two attackers (another contest): Kat 66 × 36 = 2376, Troy 34 × 64 = 2176, tie 66 × 64 + 34 × 36 = 5448.
    await press(contest, DISPATCHER, 'cancel', undefined, ['dispatcher']);
    const attackers = await toSkills(['attacker', 'attacker']);
    await pick(attackers, CHALLENGER, 'challenger', 'CQC');
    const tieOdds = await pick(attackers, OPPONENT, 'opponent', 'Shotgun Handling');
    expect(textOf(tieOdds)).toContain('Odds for these choices\nKat wins **23.76%** · Troy wins **21.76%** · tie **54.48%**');
  });
});

describe('the Dispatcher', () => {
  it('disputes a skill and sets archetype and situational modifiers; the sums on the result add them up', async () => {
    const contest = await toSkills(['attacker', 'defender']);
    await pick(contest, CHALLENGER, 'challenger', 'CQC');
    await pick(contest, OPPONENT, 'opponent', 'CQC');
    await press(contest, CHALLENGER, 'ready');

    const form = await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher']);
    expect(JSON.stringify(form.modal)).toContain('"value":"CQC"'); // prefilled with the skills as they are
    await expectRefused(contest, { user: DISPATCHER, roles: ['dispatcher'], modal: `contest:adjustform:${contest.id}`, fields: { challenger_skill: 'CQC', opponent_skill: 'CQC', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, 0' }, message: contest.message }, 'Nothing to change');
    await expectRefused(contest, { user: DISPATCHER, roles: ['dispatcher'], modal: `contest:adjustform:${contest.id}`, fields: { challenger_skill: 'CQC', opponent_skill: 'CQC', challenger_archetypes: '', opponent_archetypes: '', modifiers: 'lots' }, message: contest.message }, 'Situational modifiers');

    const adjusted = await adjust(contest, { challenger_skill: 'CQC', opponent_skill: 'shotgun handling', challenger_archetypes: 'acuity', modifiers: '0, -90' });
    const text = textOf(adjusted);
    expect(text).toContain("dee disputed Troy's skill: CQC 40 → Shotgun Handling 35");
    expect(text).toContain("dee set Kat's modifiers: Acuity +5");
    expect(text).toContain("dee set Troy's modifiers: situational −90");
    expect(text).toContain('**Shotgun Handling 35** (set by the Dispatcher)');
    expect(text).not.toContain('✅ ready'); // a change un-readies both
    // The disputed side's menu is greyed out: the Dispatcher's choice stands.
    const menus = componentsOf(contest).filter((component) => component.type === 3);
    expect(menus.map((menu) => [menu.custom_id, menu.disabled ?? false])).toEqual([
      [`contest:skill:${contest.id}:challenger`, false],
      [`contest:skill:${contest.id}:opponent`, true],
    ]);

    await press(contest, CHALLENGER, 'ready');
    const result = textOf((await pressAll(contest, OPPONENT, 'ready'))[1]!);
    expect(result).toContain(`${DICE.challenger} (D100) + 5 Acuity = **${DICE.challenger + 5}** vs CL 35 (Troy's Shotgun Handling) → ✅ success`);
    expect(result).toContain(`${DICE.opponent} (D100) − 90 situational = **${DICE.opponent - 90}** vs CL 37 (Kat's CQC) → ❌ failure`);
    expect(result).toContain("🏆 **Kat wins.** Kat succeeded and Troy failed.\nTroy suffers Kat's stated outcome:\n> Troy is disarmed");
  });

  it('only a Dispatcher can adjust or cancel: a player pressing either is refused privately', async () => {
    const contest = await toSkills();
    await expectRefused(contest, button(contest, CHALLENGER, 'cancel'), 'Only a Dispatcher can do that.');
    await expectRefused(contest, button(contest, OPPONENT, 'cancel'), 'Only a Dispatcher can do that.');
    await expectRefused(contest, button(contest, BYSTANDER, 'cancel'), 'Only a Dispatcher can do that.');
    await expectRefused(contest, button(contest, CHALLENGER, 'adjust'), 'Only a Dispatcher can adjust a contest.');
    await expectRefused(
      contest,
      { user: OPPONENT, modal: `contest:adjustform:${contest.id}`, fields: { challenger_skill: '', opponent_skill: '', challenger_archetypes: '', opponent_archetypes: '', modifiers: '50, 0' }, message: contest.message },
      'Only a Dispatcher can adjust a contest.',
    );
    const cancelled = await press(contest, DISPATCHER, 'cancel', undefined, ['dispatcher']);
    expect(textOf(cancelled)).toContain('⛔ Cancelled by the Dispatcher dee.');
    expect(cancelled.components).toEqual([]);
  });

  it('a Dispatcher’s form submitted after the dice rolled changes nothing: a resolved contest cannot be undone', async () => {
    const contest = await toSkills();
    await pick(contest, CHALLENGER, 'challenger', 'CQC');
    await pick(contest, OPPONENT, 'opponent', 'CQC');
    expect((await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher'])).kind).toBe('modal');
    await press(contest, CHALLENGER, 'ready');
    await press(contest, OPPONENT, 'ready');
    await expectRefused(
      contest,
      { user: DISPATCHER, roles: ['dispatcher'], modal: `contest:adjustform:${contest.id}`, fields: { challenger_skill: 'Stealth', opponent_skill: 'CQC', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, -90' }, message: contest.message },
      // The message no longer offers the Adjust button that opened the form: the router refuses it before the contest
      // is read, and gives back what was typed (a sent form cannot be reopened as it was).
      new RegExp(`${FORM_NOT_FROM_ITS_MESSAGE}[\\s\\S]*What you typed:\\n[\\s\\S]*- challenger_skill: \`Stealth\`[\\s\\S]*- modifiers: \`0, -90\``),
    );
    expect(shownText(contest)).toContain('🏆 **Troy wins.**');
    expect(await contestRolls()).toBe(1);
  });

  it('can cancel a contest before it is even accepted', async () => {
    const contest = await startContest();
    const cancelled = await press(contest, DISPATCHER, 'cancel', undefined, ['dispatcher']);
    expect(textOf(cancelled)).toContain('⛔ Cancelled by the Dispatcher dee.');
    expect(shown(contest).components).toEqual([]);
  });
});

describe('ties', () => {
  it('after a tie both press Another round: skills used before are not offered again, and the second round decides', async () => {
    const contest = await toTied();
    expect(componentsOf(contest).map((component) => component.custom_id)).toEqual([`contest:again:${contest.id}`, `contest:accepttie:${contest.id}`, `contest:cancel:${contest.id}`]);
    await expectRefused(contest, button(contest, BYSTANDER, 'again'), NOT_YOURS);

    await press(contest, CHALLENGER, 'again');
    await expectRefused(contest, button(contest, CHALLENGER, 'again'), 'You already asked for another round');
    const round2 = await press(contest, OPPONENT, 'again');
    expect(textOf(round2)).toContain('picks a skill from their own sheet');
    expect(textOf(round2)).toContain("Kat's skill\nnot chosen yet");
    expect(menuValues(contest, 'challenger').sort()).toEqual(['Climbing', 'Stealth']);
    expect(menuValues(contest, 'opponent').sort()).toEqual(['Athletics', 'Shotgun Handling']);
    // Not through the Dispatcher either.
    await expectRefused(
      contest,
      { user: DISPATCHER, roles: ['dispatcher'], modal: `contest:adjustform:${contest.id}`, fields: { challenger_skill: 'cqc', opponent_skill: '', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, 0' }, message: contest.message },
      '**CQC** was already rolled in this contest; pick another skill.',
    );

    await pick(contest, CHALLENGER, 'challenger', 'Climbing');
    const picked = await pick(contest, OPPONENT, 'opponent', 'Athletics');
    expect(textOf(picked)).toContain('adds − 5 Sprained wrist'); // Kat's condition on Climbing
    await adjust(contest, { challenger_skill: 'Climbing', opponent_skill: 'Athletics', modifiers: '0, -90' });
    await press(contest, OPPONENT, 'ready');
    const [result, posted] = await pressAll(contest, CHALLENGER, 'ready');
    const text = textOf(posted!);
    expect(text).toContain(`${DICE.challenger} (D100) − 5 Sprained wrist = **${DICE.challenger - 5}** vs CL 30 (Troy's Athletics) → ✅ success`);
    expect(text).toContain(`${DICE.opponent} (D100) − 90 situational = **${DICE.opponent - 90}** vs CL 50 (Kat's Climbing) → ❌ failure`);
    expect(text).toContain('🎲 Contest #1, round 2: Kat wins');
    expect(text).toContain('🏆 **Kat wins.** Kat succeeded and Troy failed.');
    expect(result!.components).toEqual([]);
    expect(await contestRolls()).toBe(2);
    // The contest message lists both rounds, each linked to its own result message, and both rolls.
    const link = (messageId: string) => `[result and dice](https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${messageId})`;
    const results = sandbox.fake.messages().filter((message) => textOf(message).includes(`the dice of contest #${contest.id} have rolled`));
    expect(results).toHaveLength(2);
    expect(shownText(contest)).toContain(`Rounds\nRound 1: Kat ✅ · Troy ✅ → **tie** — ${link(results[0]!.id)}\nRound 2: Kat ✅ · Troy ❌ → **Kat wins** — ${link(posted!.messageId!)}`);
    expect(shownText(contest)).toMatch(/rolls \w{8}, \w{8} · check with \/roll replay/);
  });

  it('a tie is accepted only when both players accept it: the first press waits for the other, the second ends the contest', async () => {
    const contest = await toTied();
    await expectRefused(contest, button(contest, BYSTANDER, 'accepttie'), NOT_YOURS);
    const waiting = await press(contest, OPPONENT, 'accepttie');
    expect(textOf(waiting)).toContain('🤝 **Tie** between two attackers.\nTroy accepts the tie — waiting for Kat.');
    expect(textOf(waiting)).not.toContain('⛔');
    expect(componentsOf(contest).map((component) => component.custom_id)).toEqual([`contest:again:${contest.id}`, `contest:accepttie:${contest.id}`, `contest:cancel:${contest.id}`]);
    await expectRefused(contest, button(contest, OPPONENT, 'accepttie'), 'You already accept the tie; waiting for Kat.');
    const ended = await press(contest, CHALLENGER, 'accepttie');
    expect(textOf(ended)).toContain('⛔ Kat and Troy accepted the tie: the players decide the outcome together.');
    expect(ended.components).toEqual([]);
    expect(await contestRolls()).toBe(1);
  });

  it('after a tie each player may change their choice until both agree; a disagreement is shown and no choice is cleared', async () => {
    const contest = await toTied();
    await press(contest, CHALLENGER, 'accepttie');
    const changed = await press(contest, CHALLENGER, 'again');
    expect(textOf(changed)).toContain('Kat wants another round (changed their mind) — waiting for Troy.');
    const disagree = await press(contest, OPPONENT, 'accepttie');
    expect(textOf(disagree)).toContain('Kat wants another round (changed their mind); Troy accepts the tie: they disagree. Either may change their choice with the other button.');
    // Troy gives in: both want another round, which starts with both choices cleared by the new round.
    const round2 = await press(contest, OPPONENT, 'again');
    expect(textOf(round2)).toContain('picks a skill from their own sheet');
    expect(textOf(round2)).not.toContain('wants another round');
    expect(menuValues(contest, 'challenger').sort()).toEqual(['Climbing', 'Stealth']);
  });
});

describe('a round after a tie when a player has no skill left (issue 23)', () => {
  /** Two attackers tie on CQC; Kat asks for another round, then is left with CQC only; Troy asks too: round 2. */
  async function toRound2WithoutKatsSkills(): Promise<{ contest: Contest; round2: SandboxResponse[] }> {
    const contest = await toTied();
    await press(contest, CHALLENGER, 'again');
    for (const name of ['Climbing', 'Stealth']) {
      expect((await sandbox.one({ user: CHALLENGER, command: 'sheet skill remove', options: { name } })).ephemeral).toBe(true);
    }
    return { contest, round2: await pressAll(contest, OPPONENT, 'again') };
  }
  const katHasNone = 'Kat has no skill left that was not rolled in this contest (rolled: **CQC**)';

  it('a player with no skill left is told so on the message and in the prompt, and accepting the tie alone ends the contest', async () => {
    const { contest, round2 } = await toRound2WithoutKatsSkills();
    const [shownNow, prompt] = round2;
    expect(textOf(shownNow!)).toContain(`⚠️ ${katHasNone}. Add one to Kat's sheet with \`/sheet skill set\` and press **Ready** to have it offered, or press **Accept the tie**, which then ends the contest as a tie.`);
    // No menu for Kat (nothing to pick), Troy's menu, and the tie can still be accepted.
    expect(componentsOf(contest).map((component) => component.custom_id)).toEqual([
      `contest:skill:${contest.id}:opponent`,
      `contest:ready:${contest.id}`,
      `contest:accepttie:${contest.id}`,
      `contest:adjust:${contest.id}`,
      `contest:cancel:${contest.id}`,
    ]);
    // The prompt tells Kat what she can do, not to pick a skill she does not have.
    expect(prompt).toMatchObject({ kind: 'followup', ephemeral: false, allowedMentions: { parse: [], users: [ids.challenger] } });
    expect(prompt!.content).toContain(`<@${ids.challenger}>, your move: ${katHasNone}. Add one to Kat's sheet`);
    expect(prompt!.content).not.toContain('pick your skill');
    // Ready says why nothing can be readied and what would work.
    await expectRefused(contest, button(contest, CHALLENGER, 'ready'), `${katHasNone}, and a skill is never rolled twice in a contest. Add one to Kat's sheet with \`/sheet skill set\` and press **Ready** again: the menu then offers it, or press **Accept the tie**`);
    const [ended, told] = await pressAll(contest, CHALLENGER, 'accepttie');
    expect(textOf(ended!)).toContain('⛔ Kat has no skill left that was not rolled in this contest, so it cannot go on: Kat accepted the tie, which stands. The players decide the outcome together.');
    expect(ended!.components).toEqual([]);
    expect(told).toMatchObject({ kind: 'followup', allowedMentions: { parse: [], users: [ids.opponent] } });
    expect(await contestRolls()).toBe(1);
  });

  it('asking for another round with no skill left is refused and says what would work', async () => {
    const contest = await toTied();
    for (const name of ['Climbing', 'Stealth']) await sandbox.one({ user: CHALLENGER, command: 'sheet skill remove', options: { name } });
    await expectRefused(contest, button(contest, CHALLENGER, 'again'), `${katHasNone}, and a skill is never rolled twice in a contest. Add one to Kat's sheet with \`/sheet skill set\` and press **Another round** again, or press **Accept the tie**: with no skill left, that ends the contest as a tie.`);
  });

  it('a skill added to the sheet mid-contest is offered: the next press redraws the menu from the sheet, and the round is played', async () => {
    const { contest } = await toRound2WithoutKatsSkills();
    await sandbox.one({ user: CHALLENGER, command: 'sheet skill set', options: { name: 'Knife Fighting', level: 30 } });
    const { responses } = await sandbox.act(button(contest, CHALLENGER, 'ready'));
    expect(responses.at(-1)).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(responses.at(-1)!.content).toContain('Pick your skill in the menu first, then press Ready.');
    expect(menuValues(contest, 'challenger')).toEqual(['Knife Fighting']);
    expect(shownText(contest)).not.toContain(katHasNone);
    await pick(contest, CHALLENGER, 'challenger', 'Knife Fighting');
    await pick(contest, OPPONENT, 'opponent', 'Athletics');
    await press(contest, CHALLENGER, 'ready');
    const [, result] = await pressAll(contest, OPPONENT, 'ready');
    expect(textOf(result!)).toContain('🎲 Contest #1, round 2:');
    expect(textOf(result!)).toMatch(/Kat \(attacker\): Knife Fighting\n/);
  });

  it('after both asked for another round, both may still accept the tie instead', async () => {
    const contest = await toTied();
    await press(contest, CHALLENGER, 'again');
    await press(contest, OPPONENT, 'again');
    const waiting = await press(contest, OPPONENT, 'accepttie');
    expect(textOf(waiting)).toContain('Troy accepts the tie — waiting for Kat.');
    const ended = await press(contest, CHALLENGER, 'accepttie');
    expect(textOf(ended)).toContain('⛔ Kat and Troy accepted the tie: the players decide the outcome together.');
  });
});

describe('the Dispatcher’s form', () => {
  it('labels each field plainly by whose it is, and says in its description how to fill it', async () => {
    const contest = await toCountered();
    const form = await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher']);
    const labels = ((form.modal as { components: Array<{ label?: string; description?: string; component?: { custom_id?: string } }> }).components).map((label) => [label.component?.custom_id, label.label, label.description]);
    expect(labels).toEqual([
      ['challenger_skill', "Kat's skill", 'One skill, or several joined with ; for a linked roll (each may add +Archetype and ±N).'],
      ['opponent_skill', "Troy's skill", 'One skill, or several joined with ; for a linked roll (each may add +Archetype and ±N).'],
      ['challenger_archetypes', "Kat's archetypes", 'A comma list, e.g. Acuity, Grit. Added to every part of a linked roll.'],
      ['opponent_archetypes', "Troy's archetypes", 'A comma list, e.g. Acuity, Grit. Added to every part of a linked roll.'],
      ['modifiers', 'Situational modifiers', "Kat's, then Troy's, as two whole numbers, e.g. 0, -10"],
    ]);
    for (const [, label] of labels) expect(label!.length).toBeLessThanOrEqual(45);
  });
});

describe('expiry', () => {
  it('every move renews the step’s time; when a step runs out the message says so and its buttons are disabled', async () => {
    const contest = await startContest();
    expect(textOf(contest.opening)).toContain('(after 15 min without a move)');
    advanceMinutes(14);
    await accept(contest); // the step's 15 minutes start again
    advanceMinutes(14);
    await expectRefused(contest, button(contest, BYSTANDER, 'agree'), NOT_YOURS); // a refused press renews nothing
    advanceMinutes(1);

    const before = shown(contest);
    const late = await sandbox.act(button(contest, CHALLENGER, 'agree'));
    expect(late.responses.map((response) => [response.kind, response.ephemeral])).toEqual([
      ['update', false],
      ['followup', true],
    ]);
    expect(late.responses[1]!.content).toContain('This contest expired: nobody moved within 15 min.');
    const text = shownText(contest);
    expect(text).toContain('⛔ Nobody acted in time: the contest expired.');
    // The late Agree itself did nothing: no dice rolled.
    expect(text).not.toContain('🏆');
    expect(await contestRolls()).toBe(0);
    const components = componentsOf(contest);
    expect(components.map((component) => component.custom_id)).toEqual((before.components as Component[]).flatMap((row) => row.components!.map((c) => c.custom_id)));
    expect(components.every((component) => component.disabled === true)).toBe(true);
    // An expired contest no longer counts against the players' open contests.
    expect(await sandbox.bot.store.contests.openCount(sandbox.fake.guildId, ids.challenger)).toBe(0);
  });

  it('a contest that expired while the bot was down is marked by the start-up sweep (with a shorter timeout from /config)', async () => {
    await expectRefusedCommand({ user: DISPATCHER, roles: ['dispatcher'], command: 'config contest-timeout', options: { minutes: 1 } }, 'Only members with the Manage Server permission');
    const settings = await sandbox.one({ user: ADMIN, permissions: ['ManageGuild'], command: 'config contest-timeout', options: { minutes: 1 } });
    expect(settings).toMatchObject({ ephemeral: true });
    expect(settings.content).toContain('Each step of a contest now expires after **1 min**');

    const contest = await toCountered();
    expect(shownText(contest)).toContain('(after 1 min without a move)');
    // The step runs out while the bot is down (its 30 s sweep never ran in between): the new bot's start-up sweep marks it.
    advanceMinutes(2);
    await sandbox.restartBot();
    await until(() => shownText(contest).includes('the contest expired'), 'the start-up sweep to mark the contest expired');
    expect(shownText(contest)).toContain('⛔ Nobody acted in time: the contest expired.');
    const components = componentsOf(contest);
    expect(components.map((component) => component.custom_id)).toEqual([`contest:agree:${contest.id}`, `contest:withdraw:${contest.id}`, `contest:adjust:${contest.id}`, `contest:cancel:${contest.id}`]);
    expect(components.every((component) => component.disabled === true)).toBe(true);
    expect(shown(contest).allowedMentions).toEqual(NO_PINGS);
  });

  // BOT BUG (src/views/contest/message.ts, lastOpenPhase): an expired contest shows the buttons of the phase
  // lastOpenPhase() guesses from the state, and the guess is wrong at the roles step with no role chosen yet (it says
  // 'countered', so the disabled buttons become Agree / Withdraw) and while tied (a rolled side keeps its skill, so it
  // says 'skills': Ready / adjust instead of Another round / Accept the tie). The phase before expiry is not kept.
  it('a contest that expires at the roles step shows its Attacker and Defender buttons, disabled', async () => {
    const contest = await toRoles();
    advanceMinutes(16);
    await sandbox.act(button(contest, CHALLENGER, 'role', 'attacker'));
    expect(shownText(contest)).toContain('⛔ Nobody acted in time: the contest expired.');
    expect(componentsOf(contest).map((component) => [component.custom_id, component.disabled])).toEqual([
      [`contest:role:${contest.id}:attacker`, true],
      [`contest:role:${contest.id}:defender`, true],
      [`contest:withdraw:${contest.id}`, true],
      [`contest:cancel:${contest.id}`, true],
    ]);
  });

  it('a contest that expires after a tie shows its Another round and Accept the tie buttons, disabled, and stays a tie with the choices made', async () => {
    const contest = await toTied();
    await press(contest, CHALLENGER, 'accepttie');
    advanceMinutes(16);
    await sandbox.act(button(contest, OPPONENT, 'accepttie'));
    expect(shownText(contest)).toContain('⛔ Nobody acted in time: the contest expired. The round stays a tie with no outcome agreed (Kat accepted the tie; Troy had not chosen).');
    expect(componentsOf(contest).map((component) => [component.custom_id, component.disabled])).toEqual([
      [`contest:again:${contest.id}`, true],
      [`contest:accepttie:${contest.id}`, true],
      [`contest:cancel:${contest.id}`, true],
    ]);
  });
});

describe('robustness', () => {
  it('a restart between steps loses nothing: the next press continues the flow', async () => {
    const contest = await startContest();
    await sandbox.restartBot();
    const form = await press(contest, OPPONENT, 'accept');
    expect(form.kind).toBe('modal');
    await sandbox.restartBot();
    await sandbox.act({ user: OPPONENT, modal: `contest:acceptform:${contest.id}`, fields: acceptFields({ stakes: 'Kat is kicked', skill: 'Shotgun Handling' }), message: contest.message });
    await adjust(contest, { challenger_skill: 'CQC', opponent_skill: 'Shotgun Handling', modifiers: '0, 1' });
    await sandbox.restartBot();
    await press(contest, CHALLENGER, 'agree');
    await sandbox.restartBot();
    const [, shownResult] = await pressAll(contest, OPPONENT, 'ready');
    const result = textOf(shownResult!);
    expect(result).toContain("🏆 **Troy wins.** Both succeeded: the defender wins.\nKat suffers Troy's stated outcome:\n> Kat is kicked");
    expect(await contestRolls()).toBe(1);
  });

  it('the same user pressing Agree twice at once moves the contest once; the second press is told it is already handled', async () => {
    const contest = await toCountered();
    const responses = await concurrently(button(contest, CHALLENGER, 'agree'), button(contest, CHALLENGER, 'agree'));
    const update = expectOneWinner(responses, /already handled|is over/);
    // Agree rolls the dice: once, with one result message.
    expect(textOf(update)).toContain('Roles\nKat: Attacker\nTroy: Defender');
    expect(await contestRolls()).toBe(1);
    expect(sandbox.fake.messages().filter((message) => textOf(message).includes(`the dice of contest #${contest.id} have rolled`))).toHaveLength(1);
  });

  it('a double press of the last Ready rolls the dice exactly once', async () => {
    const contest = await toSkills();
    await pick(contest, CHALLENGER, 'challenger', 'CQC');
    await pick(contest, OPPONENT, 'opponent', 'Shotgun Handling');
    await press(contest, CHALLENGER, 'ready');
    const responses = await concurrently(button(contest, OPPONENT, 'ready'), button(contest, OPPONENT, 'ready'));
    const update = expectOneWinner(responses, /already handled|is over/);
    expect(textOf(update)).toContain('🏆 **Troy wins.**');
    expect(await contestRolls()).toBe(1);
    expect(shownText(contest).match(/rolls \w{8}/g)).toHaveLength(1);
  });

  it('both players pressing Accept the tie at once: both choices count, whichever saves first, and the contest ends once', async () => {
    const contest = await toTied();
    const responses = await concurrently(button(contest, CHALLENGER, 'accepttie'), button(contest, OPPONENT, 'accepttie'));
    for (const list of responses) expect(list[0]!.kind).toBe('update');
    expect(shownText(contest)).toContain('⛔ Kat and Troy accepted the tie: the players decide the outcome together.');
    expect(shown(contest).components).toEqual([]);
  });

  it('both players choosing their roles at the same moment: both choices count, whichever saves first', async () => {
    const contest = await toRoles();
    const responses = await concurrently(button(contest, CHALLENGER, 'role', 'attacker'), button(contest, OPPONENT, 'role', 'defender'));
    for (const list of responses) expect(list[0]!.kind).toBe('update');
    expect(shownText(contest)).toContain('Roles\nKat: Attacker\nTroy: Defender');
  });
});

describe('limits and mentions', () => {
  it('a user can have at most 3 open contests: the 4th /contest start is refused privately, for either player', async () => {
    const first = await startContest();
    const second = await startContest();
    const third = await startContest();
    const mine = await expectRefusedCommand({ user: CHALLENGER, command: 'contest start', options: { opponent: BYSTANDER, intent: 'One more', stakes: 'Eve loses', skill: 'CQC', role: 'attacker' } }, 'You have 3 open contests already');
    // The refusal names the open ones, each linked to its message, and says how to make room.
    const linkOf = (contest: Contest) => `#${contest.id} https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${contest.message}`;
    expect(mine.content).toContain(`${linkOf(first)}, ${linkOf(second)}, ${linkOf(third)}`);
    expect(mine.content).toContain('the challenger may withdraw before the dice roll');
    await importSheet(sandbox, BYSTANDER, { name: 'Ivy', skills: [{ name: 'CQC', level: 20 }] });
    const refusal = await expectRefusedCommand({ user: BYSTANDER, command: 'contest start', options: { opponent: OPPONENT, intent: 'Ivy trips Troy', stakes: 'Troy falls', skill: 'CQC', role: 'attacker' } }, `<@${ids.opponent}> has 3 open contests already`);
    expect(refusal.allowedMentions).toEqual(NO_PINGS);
    // Once one ends, there is room again.
    await press(third, OPPONENT, 'decline');
    await startContest();
  });

  it('nobody can contest themselves or a bot', async () => {
    await expectRefusedCommand({ user: CHALLENGER, command: 'contest start', options: { opponent: CHALLENGER, intent: 'Kat fights Kat', stakes: 'Kat loses', skill: 'CQC', role: 'attacker' } }, 'You cannot contest yourself.');
    await expectRefusedCommand({ user: CHALLENGER, command: 'contest start', options: { opponent: sandbox.fake.applicationId, intent: 'Kat hacks the bot', stakes: 'The bot reboots', skill: 'CQC', role: 'attacker' } }, 'You cannot contest a bot');
  });

  it('intent over 300 or stakes over 500 characters are refused privately and never ping; the limits themselves are fine', async () => {
    const intent = await expectRefusedCommand({ user: CHALLENGER, command: 'contest start', options: { opponent: OPPONENT, intent: `@everyone ${'x'.repeat(291)}`, stakes: 'Troy is disarmed', skill: 'CQC', role: 'attacker' } }, 'The intent may be at most 300 characters; yours has 301.');
    expect(intent.allowedMentions).toEqual(NO_PINGS);
    await expectRefusedCommand({ user: CHALLENGER, command: 'contest start', options: { opponent: OPPONENT, intent: 'Kat disarms Troy', stakes: `@everyone ${'y'.repeat(491)}`, skill: 'CQC', role: 'attacker' } }, 'The stakes may be at most 500 characters; yours has 501.');
    const atLimits = await startContest({ intent: 'i'.repeat(300), stakes: 's'.repeat(500) });
    expect(textOf(atLimits.opening)).toContain('s'.repeat(500));
  });

  it('stakes containing @everyone: the opening pings only the challenged player and no update pings anyone', async () => {
    const all: SandboxResponse[] = [];
    const track = async (request: SandboxInteractionRequest) => {
      const result = await sandbox.act(request);
      all.push(...result.responses);
      return result.responses;
    };
    const contest = await startContest({ intent: '@here Kat disarms Troy', stakes: '@everyone Troy is disarmed, <@&123456789012345678> too' });
    expect(contest.opening.allowedMentions).toEqual({ parse: [], users: [ids.opponent] });
    expect(textOf(contest.opening)).toContain('@everyone Troy is disarmed');

    await track(button(contest, OPPONENT, 'accept'));
    await track({ user: OPPONENT, modal: `contest:acceptform:${contest.id}`, fields: acceptFields({ stakes: `@everyone Kat is kicked, ask <@${ids.bystander}>` }), message: contest.message });
    await track(button(contest, BYSTANDER, 'agree'));
    const [, result] = await track(button(contest, CHALLENGER, 'agree'));
    expect(textOf(result!)).toContain(`@everyone Kat is kicked, ask <@${ids.bystander}>`);

    const messages = all.filter((response) => response.kind !== 'modal');
    // The contest message never pings; a new message pings only the player whose move it is (or who did not press).
    for (const response of messages.filter((r) => r.kind !== 'followup' || r.ephemeral)) expect(response.allowedMentions, `${response.kind}: ${textOf(response)}`).toEqual(NO_PINGS);
    const pings = messages.filter((r) => r.kind === 'followup' && !r.ephemeral).map((r) => r.allowedMentions);
    expect(pings).toEqual([
      { parse: [], users: [ids.challenger] },
      { parse: [], users: [ids.opponent] },
    ]);
    expect(shown(contest).allowedMentions).toEqual(NO_PINGS);
  });
});

describe('crash windows', () => {
  /** The contest as the database holds it. */
  async function stored(contest: Contest) {
    const found = await sandbox.bot.store.contests.find(sandbox.fake.guildId, Number(contest.id));
    expect(found).not.toBeNull();
    return found!;
  }

  /** As if the bot died after posting the opening and before recording that: a draft, with no message id. */
  async function backToDraft(contest: Contest): Promise<void> {
    const { state } = await stored(contest);
    const draft: ContestState = { ...state, phase: 'draft' };
    await sandbox.bot.store.db.contest.update({ where: { id: Number(contest.id) }, data: { phase: 'draft', state: JSON.stringify(draft), messageId: null } });
  }

  it('a contest whose opening was shown but never posted in the database is posted by the first press on its message, and plays on', async () => {
    const contest = await startContest();
    expect(await stored(contest)).toMatchObject({ messageId: contest.message, state: { phase: 'proposed' } });
    await backToDraft(contest);
    expect(await sandbox.bot.store.contests.openCount(sandbox.fake.guildId, ids.challenger)).toBe(0);

    const form = await press(contest, OPPONENT, 'accept');
    expect(form.kind).toBe('modal');
    expect(await stored(contest)).toMatchObject({ messageId: contest.message, state: { phase: 'proposed' } });
    expect(textOf(await accept(contest))).toContain('**Agree** to both terms');
    expect(textOf(await press(contest, CHALLENGER, 'agree'))).toContain('🏆 **Troy wins.**');
    expect(await contestRolls()).toBe(1);
  });

  it('a result the bot never posted (it died after saving the roll) is posted by the next press on the lagging message, once', async () => {
    const contest = await toCountered();
    const fakeState = (sandbox.fake as unknown as { state: { messages: Map<string, { content: string; embeds: unknown[]; components: unknown[] }> } }).state;
    const record = fakeState.messages.get(contest.message)!;
    const lagging = { content: record.content, embeds: record.embeds, components: record.components };
    const [, result] = await pressAll(contest, CHALLENGER, 'agree');
    // As if the bot died once the roll was saved: the message still offers Agree, no result was posted or linked.
    Object.assign(record, lagging);
    fakeState.messages.delete(result!.messageId!);
    const row = (await sandbox.bot.store.db.contest.findUnique({ where: { id: Number(contest.id) } }))!;
    const state = JSON.parse(row.state) as ContestState;
    const rounds = state.rounds.map(({ resultMessageId: _posted, ...round }) => round);
    await sandbox.bot.store.db.contest.update({ where: { id: row.id }, data: { state: JSON.stringify({ ...state, rounds }), version: { increment: 1 } } });

    // Kat presses Agree again ("This interaction failed"): told it is over, and the result is posted now.
    const again = await pressAll(contest, CHALLENGER, 'agree');
    expect(again.map((response) => [response.kind, response.ephemeral ?? false])).toEqual([
      ['update', false],
      ['followup', true],
      ['followup', false],
      ['edit', false],
    ]);
    expect(again[1]!.content).toContain('This contest is over');
    expect(textOf(again[2]!)).toContain("🏆 **Troy wins.** Both succeeded: the defender wins.");
    expect(again[2]!.allowedMentions).toEqual({ parse: [], users: [ids.challenger, ids.opponent] });
    // The contest message links to it, and a later press posts nothing more.
    expect(shownText(contest)).toContain(`[result and dice](https://discord.com/channels/${sandbox.fake.guildId}/${sandbox.fake.channelId}/${again[2]!.messageId})`);
    expect(shown(contest).components).toEqual([]);
    expect(sandbox.fake.messages().filter((message) => textOf(message).includes(`the dice of contest #${contest.id} have rolled`))).toHaveLength(1);
    expect(await contestRolls()).toBe(1);
  });

  it('a bystander’s press on such a draft posts it too (the message is evidently shown), and is refused as always', async () => {
    const contest = await startContest();
    await backToDraft(contest);
    await expectRefused(contest, button(contest, BYSTANDER, 'decline'), NOT_YOURS);
    expect(await stored(contest)).toMatchObject({ messageId: contest.message, state: { phase: 'proposed' } });
    expect(await sandbox.bot.store.contests.openCount(sandbox.fake.guildId, ids.challenger)).toBe(1);
  });

  it('a form sent from another contest’s message cannot post a draft', async () => {
    const draft = await startContest();
    const other = await startContest({ opponent: BYSTANDER });
    await backToDraft(draft);
    const refusal = await sandbox.one({ user: OPPONENT, modal: `contest:acceptform:${draft.id}`, fields: acceptFields(), message: other.message });
    expect(refusal).toMatchObject({ kind: 'reply', ephemeral: true });
    // The other contest's message carries its own Accept, not this one's.
    expect(refusal.content).toContain(FORM_NOT_FROM_ITS_MESSAGE);
    expect(await stored(draft)).toMatchObject({ messageId: null, state: { phase: 'draft' } });
  });

  it('a press fills the message id an open contest lost, so its expiry greys that message out', async () => {
    const contest = await startContest();
    await sandbox.bot.store.db.contest.update({ where: { id: Number(contest.id) }, data: { messageId: null } });
    await expectRefused(contest, button(contest, BYSTANDER, 'accept'), NOT_YOURS);
    expect((await stored(contest)).messageId).toBe(contest.message);
    advanceMinutes(16);
    await sweepContestsNow(sandbox.bot.client);
    expect(shownText(contest)).toContain('⛔ Nobody acted in time: the contest expired.');
    expect(componentsOf(contest).every((component) => component.disabled === true)).toBe(true);
  });

  it('a draft never shown (the bot died before its opening) takes no open contest once its posting time is over, and the sweep expires it without a message', async () => {
    const state = proposeContest({ challengerId: ids.challenger, opponentId: ids.opponent, challengerOperator: { id: 1, name: 'Kat' }, intent: 'Lost', stakes: 'Lost', addsOwnSkill: false });
    const draft = await sandbox.bot.store.contests.create({ guildId: sandbox.fake.guildId, channelId: sandbox.fake.channelId, state, expiresAt: new Date(clock.getTime() + 15 * 60_000) }, clock);
    expect(OPEN_PHASES).not.toContain(draft.state.phase);
    // While its opening may still be on its way it holds a place (starts at once never pass the limit)…
    for (let retry = 0; retry < 2; retry++) await startContest();
    await expectRefusedCommand({ user: CHALLENGER, command: 'contest start', options: { opponent: OPPONENT, intent: 'One more', stakes: 'Troy loses', skill: 'CQC', role: 'attacker' } }, 'You have 3 open contests already');
    // …and past that, the user's retries are the only contests that count, all three of them.
    advanceMinutes(POSTING_GRACE_MS / 60_000);
    await startContest();
    await expectRefusedCommand({ user: CHALLENGER, command: 'contest start', options: { opponent: OPPONENT, intent: 'One more', stakes: 'Troy loses', skill: 'CQC', role: 'attacker' } }, 'You have 3 open contests already');

    const messages = sandbox.fake.messages().length;
    advanceMinutes(16);
    await sweepContestsNow(sandbox.bot.client);
    expect(await sandbox.bot.store.contests.find(sandbox.fake.guildId, draft.id)).toMatchObject({ messageId: null, state: { phase: 'expired' } });
    expect(sandbox.fake.messages()).toHaveLength(messages);
  });
});

describe('house rule', () => {
  it('with adds_own_skill on, a new contest adds each side’s own skill to its roll', async () => {
    const houseRule = { name: 'contest_adds_own_skill', state: 'on' };
    await expectRefusedCommand({ user: OPPONENT, command: 'config house-rule', options: houseRule }, 'Only members with the Manage Server permission');
    const settings = await sandbox.one({ user: ADMIN, permissions: ['ManageGuild'], command: 'config house-rule', options: houseRule });
    expect(settings.content).toContain('House rule `contest_adds_own_skill` is now **on**');

    const contest = await toSkills(['attacker', 'defender']);
    await pick(contest, CHALLENGER, 'challenger', 'CQC');
    const picked = await pick(contest, OPPONENT, 'opponent', 'Shotgun Handling');
    expect(textOf(picked)).toContain('adds + 37 CQC');
    expect(textOf(picked)).toContain('adds + 35 Shotgun Handling');
    await press(contest, CHALLENGER, 'ready');
    const result = textOf((await pressAll(contest, OPPONENT, 'ready'))[1]!);
    expect(result).toContain(`${DICE.challenger} (D100) + 37 CQC = **${DICE.challenger + 37}** vs CL 35 (Troy's Shotgun Handling) → ✅ success`);
    expect(result).toContain(`${DICE.opponent} (D100) + 35 Shotgun Handling = **${DICE.opponent + 35}** vs CL 37 (Kat's CQC) → ✅ success`);
    expect(result).toContain('🏆 **Troy wins.**');
  });
});
