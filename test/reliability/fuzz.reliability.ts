// The fuzz part of the reliability suite (issue 7): FUZZ_STEPS (default 10,000) random interactions from 20 users
// through the fake Discord: every registered command with random and hostile option values, autocomplete with
// random prefixes, real flows (sheets, contests, their buttons and modals), and forged components (custom_ids the bot
// never issued, other users' contests, expired ones). After every step: answered in time, no Discord rule broken, no
// unwanted ping, no error in the log, no uncaught exception. At the end: the database is intact, every contest is in
// a valid state and the bot still answers. Reproducible: FUZZ_SEED (printed) fixes the run.
//
// Run with `npm run test:reliability` (vitest.reliability.config.ts); `npm test` does not pick this file up.
import { afterAll, beforeAll, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { OPEN_PHASES, CONTEST_LIMITS, type ContestPhase, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import { SandboxRequestError, type SandboxInteractionRequest, type SandboxInteractionResult, type SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const STEPS = Number(process.env.FUZZ_STEPS ?? 10_000);
const SEED = process.env.FUZZ_SEED ?? 'tactalk-fuzz-1';
const USERS = Array.from({ length: 20 }, (_, i) => `fuzz${i}`);
const DEADLINE_MS = 3000;
const SETTLE_MS = Number(process.env.FUZZ_SETTLE_MS ?? 5);
const PREFIXES = ['sheet', 'npc', 'contest', 'dispatch', 'table', 'log', 'd10', 'pool', 'tactics'];
const VERBS = [
  'accept', 'acceptform', 'decline', 'agree', 'withdraw', 'role', 'skill', 'searchform', 'ready', 'adjust', 'adjustform', 'cancel', 'again',
  'accepttie', 'roll', 'investigate', 'details', 'delete', 'keep', 'next', 'push', 'oppose', 'condition', 'apply', 'newer', 'older', '',
];

type Json = Record<string, unknown>;
interface OptionDef {
  name: string;
  type: number;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; value: string | number }[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  options?: OptionDef[];
}
interface Leaf {
  command: string;
  options: OptionDef[];
}
interface OpenModal {
  customId: string;
  user: string;
  message?: string;
  fields: { id: string; required: boolean; maxLength?: number }[];
}

const rng = seedrandom(SEED);
const int = (n: number): number => Math.floor(rng() * n);
const chance = (p: number): boolean => rng() < p;
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

let sandbox: TestSandbox;
const logLines: Json[] = [];
const uncaught: string[] = [];
let clock = new Date('2032-01-01T12:00:00Z');
let userIds: Map<string, string>;
let botId: string;
let leaves: Leaf[];
const modals: OpenModal[] = [];
const contestIds = new Set<string>();
/** Contest id → its two players (user names), to press its buttons mostly as them. */
const contestPlayers = new Map<string, string[]>();
/** Messages the bot sent in answer to steps, newest last, and a sample of older ones (for presses on old messages). */
const recentMessages: string[] = [];
const oldMessages: string[] = [];
const stats = { lateCallbacks: 0, ms: {} as Record<string, number>, steps: 0, skipped: 0, answered: 0, kinds: {} as Record<string, number>, skipReasons: {} as Record<string, number> };

const onUncaught = (error: unknown): void => void uncaught.push(`uncaught exception: ${String((error as Error)?.stack ?? error)}`);
const onRejection = (reason: unknown): void => void uncaught.push(`unhandled rejection: ${String((reason as Error)?.stack ?? reason)}`);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onRejection);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Json);
      done();
    },
  });
  sandbox = await startTestSandbox({ log: pino({ level: 'warn' }, sink), now: () => clock, settleMs: SETTLE_MS });
  userIds = new Map(USERS.map((name) => [name, sandbox.fake.user(name).id]));
  botId = sandbox.fake.knownUsers().find((u) => u.bot)!.id;
  leaves = (sandbox.fake.commands() as Json[]).filter((c) => (c.type ?? 1) === 1).flatMap((c) => leavesOf(String(c.name), (c.options as OptionDef[]) ?? []));
}, 60_000);

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onRejection);
  await sandbox?.stop();
});

function leavesOf(path: string, options: OptionDef[]): Leaf[] {
  const subs = options.filter((o) => o.type === 1 || o.type === 2);
  if (subs.length === 0) return [{ command: path, options }];
  return subs.flatMap((sub) => leavesOf(`${path} ${sub.name}`, sub.options ?? []));
}

// ---- hostile values --------------------------------------------------------------------------------------------

const UNICODE = ['é', 'ß', '漢', '字', '🎲', '👩‍👩‍👧', '\u202e', '\u200b', 'Z̷̢͍a̵l̸g̶o̷', '\u0000', '\t', '\n', 'ﷺ', '𝕏', '\uFEFF', '\\', '"', "'", '`', '|', '%', '<', '>'];
const SKILLS = ['Climbing', 'CQC', 'Stealth', 'Driving', 'Lock Picking', 'Athletics', 'Shotgun Handling'];

function randomText(length: number): string {
  const parts: string[] = [];
  for (let count = 0; count < length; count++) parts.push(chance(0.7) ? String.fromCharCode(32 + int(95)) : pick(UNICODE));
  return [...parts.join('')].slice(0, length).join('');
}

function hostileString(maxLength?: number, minLength = 0): string {
  const other = userIds.get(pick(USERS))!;
  const candidates = [
    () => '',
    () => ' ',
    () => '@everyone',
    () => '@here hello @everyone',
    () => `<@${other}> look`,
    () => `<@!${other}>`,
    () => `<@&${sandbox.fake.role('dispatcher').id}>`,
    () => `<#${sandbox.fake.channelId}>`,
    () => '**bold** __under__ *it* ~~strike~~ `code` ```js\nx\n``` ||spoiler|| > quote\n# Heading\n- list [link](https://example.com)',
    () => pick(SKILLS),
    () => pick(SKILLS).toLowerCase() + ' ',
    () => pick(['1d6', '3d10+2', '999999d999999', 'd%', '4dF', '1d0', '0d6', '-1d6', '2d6!!', '1d6'.repeat(500), '(((((((1)))))))', 'sin(1)']),
    () => pick(['-1', '0', '9007199254740993', '1e308', 'NaN', 'Infinity', '-0', '0x10']),
    () => randomText(1 + int(40)),
    () => randomText(int(6001)),
    () => randomText(6000),
    () => 'A'.repeat(int(3000)),
    () => '{"name":"x","skills":[{"name":"a","level":1e999}]}',
  ];
  let text = pick(candidates)();
  // Discord itself refuses texts outside the option's own limits: mostly stay inside, sometimes not (a skip).
  if (maxLength !== undefined && chance(0.95)) text = [...text].slice(0, maxLength).join('');
  if ([...text].length < minLength && chance(0.95)) text = text.padEnd(minLength, 'x');
  return text;
}

function hostileNumber(def: OptionDef): number {
  const integer = def.type === 4;
  const min = def.min_value;
  const max = def.max_value;
  const inRange = (): number => {
    const lo = min ?? -1000;
    const hi = max ?? 1000;
    const value = lo + rng() * (hi - lo);
    return integer ? Math.round(value) : value;
  };
  const wild = [
    0, -0, 1, -1, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 31, -(2 ** 31), 100, 101, 99, 1440, 1441, 1_000_000,
    ...(integer ? [] : [0.5, -0.0001, 1e300, -1e300, 5e-324, Math.PI]),
  ];
  let value = chance(0.5) ? inRange() : pick(wild);
  if (chance(0.95)) {
    if (min !== undefined && value < min) value = min;
    if (max !== undefined && value > max) value = max;
  }
  return value;
}

function hostileFile(): { filename: string; content?: string; base64?: string } {
  const sheet = { name: hostileString(80), skills: SKILLS.slice(0, int(SKILLS.length)).map((name) => ({ name, level: hostileNumber({ name: 'l', type: 4 }) })) };
  return pick([
    () => ({ filename: 'sheet.json', content: JSON.stringify(sheet) }),
    () => ({ filename: 'sheet.json', content: JSON.stringify({ ...sheet, name: 'Valid', skills: [{ name: 'Climbing', level: 50 }] }) }),
    () => ({ filename: 'table.csv', content: '1-5,Nothing\n6-10,Something @everyone\n' }),
    () => ({ filename: 'table.json', content: JSON.stringify({ name: hostileString(60), die: 'd10', rows: [{ min: 1, max: 10, text: hostileString(300) }] }) }),
    () => ({ filename: 'empty.json', content: '' }),
    () => ({ filename: 'garbage.bin', base64: Buffer.from(Array.from({ length: 1 + int(4000) }, () => int(256))).toString('base64') }),
    () => ({ filename: hostileString(60) || 'x', content: randomText(int(6000)) }),
    () => ({ filename: 'deep.json', content: '['.repeat(5000) + ']'.repeat(5000) }),
  ])();
}

function valueFor(def: OptionDef, actor: string): unknown {
  if (def.choices?.length && chance(0.9)) return pick(def.choices).value;
  switch (def.type) {
    case 3:
      return hostileString(def.max_length, def.min_length);
    case 4:
    case 10:
      return hostileNumber(def);
    case 5:
      return chance(0.5);
    case 6:
      return chance(0.1) ? botId : chance(0.1) ? actor : pick(USERS);
    case 8:
      return pick(['dispatcher', 'gm', 'players', 'everyone', 'Dispatcher']);
    case 11:
      return hostileFile();
    default:
      return undefined;
  }
}

// ---- requests ---------------------------------------------------------------------------------------------------

interface Step {
  kind: string;
  request: SandboxInteractionRequest;
  /** Users the bot may ping in its answer to this request. */
  mayPing: string[];
  /** Restores the fake after a forged component was pressed. */
  after?: () => void;
}

function actor(): { user: string; roles?: string[]; permissions?: string[] } {
  const user = pick(USERS);
  const roles = chance(0.2) ? ['dispatcher'] : chance(0.05) ? ['gm'] : undefined;
  const permissions = chance(0.1) ? ['ManageGuild'] : chance(0.02) ? ['Administrator'] : undefined;
  return { user, ...(roles ? { roles } : {}), ...(permissions ? { permissions } : {}) };
}

function randomCommand(): Step {
  const leaf = pick(leaves);
  const who = actor();
  const options: Record<string, unknown> = {};
  for (const def of leaf.options) {
    if (def.required ? chance(0.97) : chance(0.4)) options[def.name] = valueFor(def, who.user);
  }
  return { kind: 'command', request: { ...who, command: leaf.command, options }, mayPing: pingTargets(leaf.command, options) };
}

function pingTargets(command: string, options: Record<string, unknown>): string[] {
  const target = command === 'contest start' ? options.opponent : command.startsWith('dispatch ') ? options.player : undefined;
  if (typeof target !== 'string') return [];
  return [userIds.get(target) ?? target];
}

function autocomplete(): Step {
  const withAutocomplete = leaves.flatMap((leaf) => leaf.options.filter((o) => o.autocomplete).map((def) => ({ leaf, def })));
  const { leaf, def } = pick(withAutocomplete);
  const who = actor();
  const options: Record<string, unknown> = {};
  for (const other of leaf.options) if (other !== def && chance(0.3)) options[other.name] = valueFor(other, who.user);
  options[def.name] = chance(0.3) ? '' : chance(0.5) ? randomText(int(5)) : hostileString(100);
  return { kind: 'autocomplete', request: { ...who, command: leaf.command, options, focused: def.name }, mayPing: [] };
}

/** A valid command that builds state: sheets, skills, contests, dispatches. */
function flowCommand(): Step {
  const who = actor();
  const other = pick(USERS.filter((u) => u !== who.user));
  const flows: (() => Step)[] = [
    () => ({ kind: 'flow', request: { ...who, command: 'sheet create', options: { name: `Op ${who.user} ${int(3)}` } }, mayPing: [] }),
    () => ({ kind: 'flow', request: { ...who, command: 'sheet skill set', options: { name: pick(SKILLS), level: 1 + int(90) } }, mayPing: [] }),
    () => ({ kind: 'flow', request: { ...who, command: 'sheet archetype set', options: { name: pick(['Acuity', 'Grit']), modifier: int(21) - 10 } }, mayPing: [] }),
    () => ({
      kind: 'flow',
      request: { ...who, command: 'contest start', options: { opponent: other, intent: `${who.user} tries ${pick(SKILLS)}`, stakes: hostileString(500) || 'stakes' } },
      mayPing: [userIds.get(other)!],
    }),
    () => ({ kind: 'flow', request: { ...who, command: 'contest start', options: { opponent: other, intent: 'fair fight', stakes: 'loser buys' } }, mayPing: [userIds.get(other)!] }),
    () => ({
      kind: 'flow',
      request: { ...who, roles: ['dispatcher'], command: 'dispatch challenge', options: { player: other, skill: pick(SKILLS), cl: int(101) } },
      mayPing: [userIds.get(other)!],
    }),
    () => ({ kind: 'flow', request: { ...who, command: 'roll challenge', options: { skill: pick(SKILLS), cl: int(101) } }, mayPing: [] }),
    () => ({ kind: 'flow', request: { ...who, command: 'pool', options: { skill: pick(SKILLS), against: other } }, mayPing: [] }),
    () => ({ kind: 'flow', request: { ...who, command: 'log' }, mayPing: [] }),
  ];
  return pick(flows)();
}

interface Component {
  customId: string;
  type: number;
  disabled: boolean;
  options: string[];
  min: number;
  max: number;
}

function componentsOf(nodes: unknown): Component[] {
  const out: Component[] = [];
  const walk = (list: unknown): void => {
    if (!Array.isArray(list)) return;
    for (const node of list as Json[]) {
      if (typeof node !== 'object' || node === null) continue;
      if (typeof node.custom_id === 'string') {
        out.push({
          customId: node.custom_id,
          type: node.type as number,
          disabled: node.disabled === true,
          options: Array.isArray(node.options) ? (node.options as Json[]).map((o) => String(o.value)) : [],
          min: typeof node.min_values === 'number' ? node.min_values : 1,
          max: typeof node.max_values === 'number' ? node.max_values : 1,
        });
      }
      walk(node.components);
      if (node.accessory) walk([node.accessory]);
      if (node.component) walk([node.component]);
    }
  };
  walk(nodes);
  return out;
}

/** The messages with components, newest last (a sample: the latest ones and some old ones, for expired presses). */
function messagesWithComponents(): { id: string; components: Component[]; ephemeralFor?: string }[] {
  const old = oldMessages.length ? Array.from({ length: 3 }, () => pick(oldMessages)) : [];
  return [...old, ...recentMessages.slice(-40)]
    .flatMap((id) => sandbox.fake.message(id) ?? [])
    .map((m) => ({ id: m.id, components: componentsOf(m.components), ...(m.ephemeral && m.interaction ? { ephemeralFor: m.interaction.userId } : {}) }))
    .filter((m) => m.components.length > 0);
}

function realComponent(): Step | undefined {
  const candidates = messagesWithComponents();
  if (candidates.length === 0) return undefined;
  const message = chance(0.85) ? candidates[candidates.length - 1 - int(Math.min(10, candidates.length))]! : pick(candidates);
  // Mostly move contests on (accept, agree, roles, skills, ready) rather than end them, to reach their later steps.
  const ending = /^contest:(decline|withdraw|cancel|accepttie):/;
  const usable = message.components.filter((c) => (!c.disabled || chance(0.05)) && (!ending.test(c.customId) || chance(0.2)));
  if (usable.length === 0) return undefined;
  const component = pick(usable);
  const who = actor();
  const players = contestPlayers.get(component.customId.split(':')[2] ?? '');
  if (component.customId.startsWith('contest:') && players && chance(0.8)) who.user = pick(players);
  if (message.ephemeralFor) {
    // Only the user an ephemeral message was sent to can press its buttons.
    const owner = [...userIds].find(([, id]) => id === message.ephemeralFor)?.[0];
    if (owner) who.user = owner;
  }
  if (component.type === 2) return { kind: 'button', request: { ...who, button: component.customId, message: message.id }, mayPing: [] };
  let values: string[];
  if (component.type === 3) {
    const count = Math.min(component.options.length, component.min + int(component.max - component.min + 1));
    values = [...component.options].sort(() => rng() - 0.5).slice(0, Math.max(count, chance(0.05) ? 0 : 1));
  } else {
    values = [pick(USERS)];
  }
  return { kind: 'select', request: { ...who, select: component.customId, values, message: message.id }, mayPing: [] };
}

function forgedId(): string {
  const ids = [...contestIds];
  const id = pick([
    () => (ids.length ? pick(ids) : '1'),
    () => String(int(100)),
    () => pick(['-1', '0', '9007199254740993', '1e9', 'NaN', 'abc', '', ' ', '../1', '%00']),
    () => String(int(2 ** 31)),
  ])();
  const parts = [pick(PREFIXES), pick(VERBS), id];
  if (chance(0.5)) parts.push(pick(['challenger', 'opponent', 'attacker', 'defender', 'x', '', String(int(5)), hostileString(20)]));
  if (chance(0.2)) parts.push(...Array.from({ length: int(4) }, () => hostileString(10)));
  return chance(0.05) ? randomText(1 + int(99)) : parts.join(':').slice(0, 100);
}

/** A button the bot never issued, pushed onto one of its messages for one press, then taken off again. */
function forgedComponent(): Step | undefined {
  if (recentMessages.length === 0) return undefined;
  const targetId = chance(0.8) || oldMessages.length === 0 ? recentMessages[recentMessages.length - 1 - int(Math.min(30, recentMessages.length))]! : pick(oldMessages);
  const record = (sandbox.fake as unknown as { state: { messages: Map<string, { components: unknown[] }> } }).state.messages.get(targetId);
  if (!record) return undefined;
  const original = record.components;
  const customId = forgedId() || 'x';
  const asSelect = chance(0.3);
  const forged = asSelect
    ? { type: 3, custom_id: customId, options: [{ label: 'a', value: pick(['challenger', 'opponent', 'Climbing', hostileString(50) || 'v']) }] }
    : { type: 2, style: 2, custom_id: customId, label: 'forged' };
  const patched = [...original, { type: 1, components: [forged] }];
  record.components = patched;
  const who = actor();
  const request: SandboxInteractionRequest = asSelect
    ? { ...who, select: customId, values: [(forged.options as { value: string }[])[0]!.value], message: targetId }
    : { ...who, button: customId, message: targetId };
  return {
    kind: 'forged',
    request,
    mayPing: [],
    after: () => {
      if (record.components === patched) record.components = original;
    },
  };
}

/** Submits a modal the bot opened (by its opener or someone else), or one it never opened. */
function modalSubmit(): Step {
  const who = actor();
  const open = modals.length && chance(0.8) ? modals[modals.length - 1 - int(Math.min(5, modals.length))]! : undefined;
  if (!open) {
    const fields: Record<string, string> = {};
    for (const id of ['stakes', 'operator', 'skill', 'challenger_skill', 'opponent_skill', 'challenger_archetypes', 'opponent_archetypes', 'modifiers']) {
      if (chance(0.5)) fields[id] = hostileString(200);
    }
    return { kind: 'forged-modal', request: { ...who, modal: forgedId() || 'x', fields }, mayPing: [] };
  }
  const fields: Record<string, string> = {};
  for (const field of open.fields) {
    let value = chance(0.5) ? pick([...SKILLS, 'Troy', 'Kat', `Op ${open.user} 0`, '0, 0', '5, -5', 'Acuity', 'Grit +5']) : hostileString(field.maxLength);
    if (field.required && !value && chance(0.95)) value = 'x';
    fields[field.id] = value;
  }
  const user = chance(0.8) ? open.user : who.user;
  return { kind: 'modal', request: { ...who, user, modal: open.customId, fields, ...(open.message ? { message: open.message } : {}) }, mayPing: [] };
}

// ---- a whole contest, step by step (each step checked like any other), so the later steps get pressed too ----------

interface Campaign {
  challenger: string;
  opponent: string;
  contest?: string;
  message?: string;
  /** What is still to do; each returns the step, or undefined to give up (the contest went elsewhere). */
  todo: (() => Step | undefined)[];
}
let campaign: Campaign | undefined;

function startCampaign(): void {
  const challenger = pick(USERS);
  const opponent = pick(USERS.filter((u) => u !== challenger));
  const sheet = (user: string): Step => ({
    kind: 'campaign',
    request: {
      user,
      command: 'sheet import',
      options: {
        file: { filename: 'sheet.json', content: JSON.stringify({ name: `Camp ${user}`, skills: SKILLS.map((name, i) => ({ name, level: 30 + i * 5 })), archetypes: [], conditions: [] }) },
        replace: true,
      },
    },
    mayPing: [],
  });
  const c: Campaign = { challenger, opponent, todo: [] };
  const press = (user: string | (() => string), pattern: () => RegExp): (() => Step | undefined) => () => {
    const component = c.message ? componentsOf(sandbox.fake.message(c.message)?.components).find((x) => !x.disabled && pattern().test(x.customId)) : undefined;
    if (!component) return undefined;
    const who = typeof user === 'string' ? user : user();
    if (component.type === 2) return { kind: 'campaign', request: { user: who, button: component.customId, message: c.message! }, mayPing: [] };
    return { kind: 'campaign', request: { user: who, select: component.customId, values: [pick(component.options)], message: c.message! }, mayPing: [] };
  };
  c.todo = [
    () => sheet(challenger),
    () => sheet(opponent),
    () => ({ kind: 'campaign', request: { user: challenger, command: 'contest start', options: { opponent, intent: 'a campaign', stakes: 'the loser yields' } }, mayPing: [userIds.get(opponent)!] }),
    press(opponent, () => new RegExp(`^contest:accept:${c.contest}$`)),
    () => ({ kind: 'campaign', request: { user: opponent, modal: `contest:acceptform:${c.contest}`, fields: { stakes: 'the winner gloats', operator: `Camp ${opponent}` }, message: c.message! }, mayPing: [] }),
    press(challenger, () => new RegExp(`^contest:agree:${c.contest}$`)),
    press(challenger, () => new RegExp(`^contest:role:${c.contest}:attacker$`)),
    press(opponent, () => new RegExp(`^contest:role:${c.contest}:${pick(['attacker', 'defender'])}$`)),
    press(challenger, () => new RegExp(`^contest:skill:${c.contest}:challenger$`)),
    press(opponent, () => new RegExp(`^contest:skill:${c.contest}:opponent$`)),
    press(challenger, () => new RegExp(`^contest:ready:${c.contest}$`)),
    press(opponent, () => new RegExp(`^contest:ready:${c.contest}$`)),
    // After a tie: another round or accept it (and the round's steps are left to the random presses).
    press(() => pick([challenger, opponent]), () => new RegExp(`^contest:(again|accepttie):${c.contest}$`)),
  ];
  campaign = c;
}

function campaignStep(): Step | undefined {
  while (campaign && campaign.todo.length) {
    const step = campaign.todo.shift()!();
    if (step) return step;
    if (campaign.contest) break; // the contest went another way: stop here
  }
  campaign = undefined;
  return undefined;
}

function nextStep(): Step {
  const scripted = campaign ? campaignStep() : undefined;
  if (scripted) return scripted;
  if (chance(0.01)) startCampaign();
  for (;;) {
    const roll = rng();
    const step =
      roll < 0.35 ? randomCommand()
      : roll < 0.45 ? autocomplete()
      : roll < 0.6 ? flowCommand()
      : roll < 0.82 ? realComponent()
      : roll < 0.92 ? forgedComponent()
      : modalSubmit();
    if (step) return step;
  }
}

function rememberModal(step: Step, response: SandboxResponse): void {
  const modal = response.modal as Json | undefined;
  if (!modal) return;
  const fields: OpenModal['fields'] = [];
  const walk = (list: unknown): void => {
    if (!Array.isArray(list)) return;
    for (const node of list as Json[]) {
      if (node.type === 4) fields.push({ id: String(node.custom_id), required: node.required !== false, ...(typeof node.max_length === 'number' ? { maxLength: node.max_length } : {}) });
      walk(node.components);
      if (node.component) walk([node.component]);
    }
  };
  walk(modal.components);
  modals.push({ customId: String(modal.custom_id), user: step.request.user, ...(step.request.message ? { message: step.request.message } : {}), fields });
  if (modals.length > 50) modals.shift();
}

function rememberMessage(id: string): void {
  recentMessages.push(id);
  if (recentMessages.length > 80) {
    const gone = recentMessages.shift()!;
    if (chance(0.2)) oldMessages.push(gone);
  }
}

interface TrackedInteraction {
  ack?: number;
  dispatchedAt?: number;
  firstResponseAt?: number;
  responses: SandboxResponse[];
  errors: string[];
}

/**
 * The interaction as the fake saw it once the bot answered it. interact() resolves after a short quiet period; a
 * handler that first posts a channel message (credited to the interaction) and answers the interaction after a
 * database write may answer after that: wait for the callback (up to Discord's deadline) and a moment more.
 */
async function completed(result: SandboxInteractionResult): Promise<{ firstResponseMs?: number; responses: SandboxResponse[]; errors: string[] }> {
  const record = (sandbox.fake as unknown as { tracker: { get(id: string): TrackedInteraction | undefined } }).tracker.get(result.id);
  if (!record) return result;
  if (record.ack === undefined && record.errors.length === 0) {
    const until = performance.now() + DEADLINE_MS + 500;
    while (record.ack === undefined && record.errors.length === 0 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    stats.lateCallbacks++;
  }
  const firstResponseMs = record.firstResponseAt !== undefined && record.dispatchedAt !== undefined ? record.firstResponseAt - record.dispatchedAt : undefined;
  return { ...(firstResponseMs !== undefined ? { firstResponseMs } : {}), responses: [...record.responses], errors: [...record.errors] };
}

// ---- invariants ---------------------------------------------------------------------------------------------------

function mentionProblems(response: SandboxResponse, mayPing: string[]): string[] {
  if (response.kind === 'deferred' || response.kind === 'autocomplete' || response.kind === 'modal' || response.kind === 'delete') return [];
  const allowed = response.allowedMentions as { parse?: unknown; users?: unknown; roles?: unknown } | undefined;
  if (allowed === undefined) {
    // An edit or update that leaves allowed_mentions out keeps the message's: it pings nobody anew.
    if (response.kind === 'update' || response.kind === 'edit') return [];
    return [`${response.kind} without allowed_mentions`];
  }
  const problems: string[] = [];
  if (!Array.isArray(allowed.parse) || allowed.parse.length !== 0) problems.push(`allowed_mentions.parse is ${JSON.stringify(allowed.parse)}`);
  if (Array.isArray(allowed.roles) && allowed.roles.length > 0) problems.push(`pings roles ${JSON.stringify(allowed.roles)}`);
  const users = Array.isArray(allowed.users) ? (allowed.users as string[]) : [];
  const unwanted = users.filter((id) => !mayPing.includes(id));
  if (unwanted.length) problems.push(`pings users ${JSON.stringify(unwanted)} (may ping ${JSON.stringify(mayPing)})`);
  return problems;
}

const TERMINAL: readonly ContestPhase[] = ['resolved', 'ended', 'expired'];
const ALL_PHASES: readonly ContestPhase[] = [...OPEN_PHASES, ...TERMINAL];

/** Why a stored contest's state is not one the flow can reach; empty when it is valid. */
function contestProblems(row: { phase: string; challengerId: string; opponentId: string; state: string }): string[] {
  const problems: string[] = [];
  let state: ContestState;
  try {
    state = JSON.parse(row.state) as ContestState;
  } catch {
    return ['state is not JSON'];
  }
  const check = (ok: boolean, what: string): void => void (ok || problems.push(what));
  check(ALL_PHASES.includes(state.phase), `unknown phase ${state.phase}`);
  check(row.phase === state.phase, `phase column ${row.phase} ≠ state ${state.phase}`);
  check(row.challengerId === state.challenger.userId && row.opponentId === state.opponent.userId, 'players differ from the columns');
  check(state.challenger.userId !== state.opponent.userId, 'a contest against oneself');
  check(state.intent.trim().length > 0 && state.intent.length <= CONTEST_LIMITS.intentLength, 'intent out of bounds');
  check(state.challenger.stakes.trim().length > 0 && state.challenger.stakes.length <= CONTEST_LIMITS.stakesLength, 'challenger stakes out of bounds');
  check(state.opponent.stakes.length <= CONTEST_LIMITS.stakesLength, 'opponent stakes too long');
  check(state.challenger.operator !== null, 'the challenger has no Operator');
  check(state.rounds.length <= CONTEST_LIMITS.rounds, 'too many rounds');
  const phase = state.phase === 'expired' ? state.expiredAt : state.phase;
  if (state.phase === 'expired') check(state.expiredAt !== undefined && OPEN_PHASES.includes(state.expiredAt), `expired at ${state.expiredAt}`);
  else check(state.expiredAt === undefined, 'expiredAt on a contest that did not expire');
  const accepted = phase !== 'proposed' && !(state.phase === 'ended' && state.opponent.operator === null);
  if (accepted) check(state.opponent.operator !== null && state.opponent.stakes.trim().length > 0, `${phase} without the opponent's acceptance`);
  else check(state.opponent.operator === null, 'an Operator for an opponent who did not accept');
  const sides = [state.challenger, state.opponent];
  if (phase === 'proposed' || phase === 'countered') {
    check(sides.every((s) => s.role === null && s.skill === null && !s.ready), `${phase} with roles or skills`);
    check(state.rounds.length === 0, `${phase} with rounds`);
  }
  if (phase === 'roles') check(sides.every((s) => s.skill === null && !s.ready) && !sides.every((s) => s.role !== null), 'roles step with skills or both roles');
  if (phase === 'skills' || phase === 'tied' || state.phase === 'resolved') {
    check(sides.every((s) => s.role !== null), `${phase} without both roles`);
    check(!(state.challenger.role === 'defender' && state.opponent.role === 'defender'), `${phase} with two defenders`);
  }
  if (phase === 'skills') check(sides.every((s) => !s.ready || s.skill !== null), 'ready without a skill');
  if (phase === 'tied') check(state.rounds.at(-1)?.winner === 'tie', 'tied without a tied last round');
  if (state.phase === 'resolved') {
    const last = state.rounds.at(-1);
    check(last !== undefined && last.winner !== 'tie', 'resolved without a winner');
    check(state.endReason === null, 'resolved with an end reason');
  }
  if (state.phase === 'ended' || state.phase === 'expired') check(typeof state.endReason === 'string' && state.endReason.length > 0, `${state.phase} without a reason`);
  if (OPEN_PHASES.includes(state.phase)) check(state.endReason === null, 'open with an end reason');
  for (const round of state.rounds) {
    for (const roll of [round.challenger, round.opponent]) check(roll.d100.value >= 1 && roll.d100.value <= 100, `a D100 of ${roll.d100.value}`);
  }
  return problems;
}

// ---- the run ------------------------------------------------------------------------------------------------------

it(`survives ${STEPS} random interactions (seed ${SEED})`, async () => {
  console.log(`fuzz: ${STEPS} steps, seed ${SEED} (FUZZ_STEPS / FUZZ_SEED to change)`);
  const started = performance.now();
  const fail = (index: number, step: Step | undefined, problems: string[]): never => {
    const where = step ? `step ${index} (${step.kind}): ${JSON.stringify(step.request).slice(0, 2000)}` : `after step ${index}`;
    throw new Error(`fuzz seed ${SEED}, ${where}\n${problems.join('\n')}`);
  };
  let logSeen = 0;
  for (let index = 0; index < STEPS; index++) {
    if (chance(0.003)) clock = new Date(clock.getTime() + int(180) * 60_000); // contests time out between presses
    const step = nextStep();
    stats.steps++;
    stats.kinds[step.kind] = (stats.kinds[step.kind] ?? 0) + 1;
    const stepStarted = performance.now();
    const violationsBefore = sandbox.fake.violations.length;
    let problems: string[] = [];
    try {
      const result = await sandbox.fake.interact(step.request);
      stats.answered++;
      const { firstResponseMs, responses, errors } = await completed(result);
      problems.push(...errors);
      if (firstResponseMs === undefined) problems.push(`no answer within ${DEADLINE_MS} ms: ${JSON.stringify(result).slice(0, 1500)}`);
      else if (firstResponseMs > DEADLINE_MS) problems.push(`answered after ${Math.round(firstResponseMs)} ms`);
      for (const response of responses) {
        problems.push(...mentionProblems(response, step.mayPing));
        if (response.kind === 'modal') rememberModal(step, response);
        if (response.messageId && (response.kind === 'reply' || response.kind === 'followup')) rememberMessage(response.messageId);
        const contest = /Contest #(\d+)/.exec(`${response.content ?? ''} ${JSON.stringify(response.embeds)}`);
        if (contest) contestIds.add(contest[1]!);
        if (contest && step.request.command === 'contest start' && response.kind === 'reply') {
          contestPlayers.set(contest[1]!, [step.request.user, String(step.request.options?.opponent)]);
          if (step.kind === 'campaign' && campaign) Object.assign(campaign, { contest: contest[1]!, message: response.messageId });
        }
      }
    } catch (error) {
      if (!(error instanceof SandboxRequestError) || /did not answer/.test(error.message)) {
        problems.push(`interact failed: ${String((error as Error)?.stack ?? error)}`);
      } else {
        // A request Discord itself would refuse (a value outside the option's limits, a disabled button …).
        stats.skipped++;
        const reason = error.message.replace(/"[^"]*"/g, '""').replace(/\d+/g, 'N').slice(0, 60);
        stats.skipReasons[reason] = (stats.skipReasons[reason] ?? 0) + 1;
      }
    } finally {
      step.after?.();
    }
    stats.ms[step.kind] = (stats.ms[step.kind] ?? 0) + performance.now() - stepStarted;
    problems.push(...sandbox.fake.violations.slice(violationsBefore).map((v) => `violation: ${v}`));
    const errors = logLines.slice(logSeen).filter((line) => Number(line.level) >= 50);
    logSeen = logLines.length;
    problems.push(...errors.map((line) => `error logged: ${JSON.stringify(line).slice(0, 3000)}`));
    problems.push(...uncaught.splice(0));
    problems = problems.filter(Boolean);
    if (problems.length) fail(index, step, problems);
  }
  const seconds = (performance.now() - started) / 1000;

  // The bot still answers.
  const list = await sandbox.fake.interact({ user: USERS[0]!, command: 'sheet list' });
  expect(list.errors).toEqual([]);
  expect(list.responses.length).toBeGreaterThan(0);

  // Every message the bot left in the channel pings nobody through parse.
  for (const message of sandbox.fake.messages(sandbox.fake.channelId, { includeEphemeral: true })) {
    const allowed = message.allowedMentions as { parse?: unknown } | undefined;
    if (message.authorId === botId && (allowed === undefined || !Array.isArray(allowed.parse) || allowed.parse.length)) {
      fail(STEPS, undefined, [`message ${message.id} has allowed_mentions ${JSON.stringify(allowed)}: ${message.content.slice(0, 200)}`]);
    }
  }

  const integrity = await sandbox.bot.store.db.$queryRawUnsafe<{ integrity_check: string }[]>('PRAGMA integrity_check');
  expect(integrity).toEqual([{ integrity_check: 'ok' }]);
  const contests = await sandbox.bot.store.db.contest.findMany();
  const invalid = contests.flatMap((row) => contestProblems(row).map((problem) => `contest #${row.id} (${row.phase}): ${problem}`));
  if (invalid.length) fail(STEPS, undefined, invalid);
  expect(sandbox.fake.violations).toEqual([]);
  expect(uncaught).toEqual([]);

  const phases = contests.reduce<Record<string, number>>((acc, row) => ({ ...acc, [row.phase]: (acc[row.phase] ?? 0) + 1 }), {});
  const topSkips = Object.entries(stats.skipReasons).sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(
    `fuzz: ${stats.steps} steps in ${seconds.toFixed(1)} s (${(stats.steps / seconds).toFixed(0)}/s), ${stats.answered} answered, ${stats.skipped} skipped (refused by the fake as Discord would), ` +
      `${stats.lateCallbacks} answered after interact() settled\n  kinds ${JSON.stringify(stats.kinds)}\n  ms per step ${JSON.stringify(Object.fromEntries(Object.entries(stats.ms).map(([k, v]) => [k, Math.round(v / stats.kinds[k]!)])))}\n  contests ${JSON.stringify(phases)}\n  top skips ${JSON.stringify(topSkips)}`,
  );
}, 30 * 60_000);
