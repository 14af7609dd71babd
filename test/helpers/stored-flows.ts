// The flows of issue 22, section 1 ("a stored change always reaches the channel"), as users play them through the
// fake Discord: each starts with a slash command whose public message carries a control, and the press of that
// control stores a change (a roll, a marker, a new phase). Shared by the lost-answer scenarios and the random-kill
// run (test/reliability/stored-reaches-channel*.reliability.ts): the sheets and tables they need, how each flow
// starts, and who presses which control.
import type { FakeDiscord, FakeMessage, SandboxInteractionRequest, SandboxInteractionResult } from '../../src/sandbox/fake-discord.js';
import { tableToJson, type OutcomeTable } from '../../src/engine/tables.js';
import { liveControls, type Control } from './channel-checker.js';

export type Act = (request: SandboxInteractionRequest) => Promise<SandboxInteractionResult>;

export const DISPATCHER = 'dee';
export const DISPATCHER_ROLES = ['dispatcher'];

/** "Fall" always leads on to "Landing" (a next table); "Bruises" is a roll request's consequence table. */
export const TABLES: OutcomeTable[] = [
  { name: 'Fall', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 200, text: 'You fall.', next: 'Landing', reveals: null }] },
  { name: 'Landing', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 200, text: 'You land hard.', next: null, reveals: null }] },
  {
    name: 'Bruises',
    die: 'd100',
    asks: '',
    skill: null,
    rows: [
      { min: 1, max: 50, text: 'A scrape.', next: null, reveals: null },
      { min: 51, max: 200, text: 'A twisted ankle.', next: null, reveals: null },
    ],
  },
];

const sheetFile = (sheet: object) => ({ filename: 'sheet.json', content: JSON.stringify({ archetypes: [], conditions: [], skills: [], attributes: [], ...sheet }) });

/** Imports a sheet as `user` (their active sheet of its system); throws unless the bot says it imported it. */
export async function importSheet(act: Act, user: string, sheet: object): Promise<void> {
  const result = await act({ user, command: 'sheet import', options: { file: sheetFile(sheet) } });
  const said = result.responses.map((response) => response.content ?? '').join(' ');
  if (!/Imported/.test(said)) throw new Error(`${user}'s sheet import failed: ${said}`);
}

export async function importTables(act: Act): Promise<void> {
  for (const table of TABLES) {
    const result = await act({ user: DISPATCHER, roles: DISPATCHER_ROLES, command: 'table import', options: { file: { filename: `${table.name}.json`, content: tableToJson(table) } } });
    const said = result.responses.map((response) => response.content ?? '').join(' ');
    if (!/Imported|Replaced/.test(said)) throw new Error(`table ${table.name} was not imported: ${said}`);
  }
}

/** A Tac Talk Operator: Climbing 30 (a roll request at CL 100 mostly fails), CQC and Stealth for contests. */
export const tactalkSheet = (name: string) => ({ name, skills: [{ name: 'Climbing', level: 30 }, { name: 'CQC', level: 40 }, { name: 'Stealth', level: 45 }] });
/** A d6-pool character: Force 2 and STR 3, five dice, so a push almost always has dice to re-roll. */
export const d6Sheet = (name: string) => ({ name, system: 'd6-pool', skills: [{ name: 'Force', level: 2 }], attributes: [{ name: 'STR', value: 3 }] });
/** A d100-tactics attacker who always hits (Aim 200) and a target with Health to lose. */
export const attackerSheet = (name: string) => ({ name, system: 'd100-tactics', attributes: [{ name: 'Aim', value: 200 }] });
export const targetSheet = (name: string) => ({ name, system: 'd100-tactics', attributes: [{ name: 'Health', value: 1000 }] });
/** A result-points character; its Wounds track is added with `/code track`. */
export const codeSheet = (name: string) => ({ name, system: 'result-points' });

/** The players of one set of flows: every sheet they need, imported once. */
export interface Cast {
  /** Rolls, pushes, takes the roll, applies damage, spends. */
  player: string;
  /** Opposes, is attacked, takes the points. */
  target: string;
}

export async function setUpCast(act: Act, cast: Cast): Promise<void> {
  await importSheet(act, cast.player, tactalkSheet(`Troy ${cast.player}`));
  await importSheet(act, cast.player, d6Sheet(`Kat ${cast.player}`));
  await importSheet(act, cast.player, attackerSheet(`Mike ${cast.player}`));
  await importSheet(act, cast.target, tactalkSheet(`Sasha ${cast.target}`));
  await importSheet(act, cast.target, targetSheet(`Vega ${cast.target}`));
  await importSheet(act, cast.target, codeSheet(`Nina ${cast.target}`));
  const track = await act({ user: cast.target, command: 'code track', options: { name: 'Wounds' } });
  if (!/Wounds/.test(track.responses.map((response) => response.content ?? '').join(' '))) throw new Error(`${cast.target} has no Wounds track`);
}

/** The flows, each started by one interaction; its public message carries the control pressed next. */
export type FlowName = 'dispatch' | 'intent' | 'pool' | 'd10' | 'table' | 'tactics' | 'code';
export const FLOWS: readonly FlowName[] = ['dispatch', 'intent', 'pool', 'd10', 'table', 'tactics', 'code'];

/** The interaction that starts a flow. */
export function startOf(flow: FlowName, cast: Cast, tag = ''): SandboxInteractionRequest {
  switch (flow) {
    case 'dispatch':
      return {
        user: DISPATCHER,
        roles: DISPATCHER_ROLES,
        command: 'dispatch challenge',
        options: { player: cast.player, skill: 'Climbing', cl: 100, intent: `climb the wall ${tag}`.trim(), outcome: 'on the roof', 'consequence-table': 'Bruises' },
      };
    case 'intent':
      return { user: cast.player, command: 'roll intent', options: { intent: `pick the lock ${tag}`.trim(), outcome: 'the door opens' } };
    case 'pool':
      return { user: cast.player, command: 'pool', options: { skill: 'Force' } };
    case 'd10':
      return { user: cast.player, command: 'd10 extended', options: { dice: 3, tn: 6, target: 1000, rolls: 4, calm: true } };
    case 'table':
      return { user: cast.player, command: 'roll outcome', options: { table: 'Fall' } };
    case 'tactics':
      return { user: cast.player, command: 'tactics attack', options: { target: cast.target, weapon_base: 6, weapon_range: 3, cover: 'none' } };
    case 'code':
      return { user: cast.player, command: 'code roll', options: { code: '6D+2', opponent: '1D', target: cast.target, track: 'Wounds' } };
  }
}

/**
 * Who presses a live control, and how (a select's value), in these flows; null for a control nobody presses here
 * (Decline, Withdraw, Cancel, a form, the Dispatcher's Numbers).
 */
export function pressOf(control: Control, message: string, cast: Cast): SandboxInteractionRequest | null {
  const [family, action] = control.customId.split(':');
  const as = (user: string, roles?: string[]): SandboxInteractionRequest =>
    control.type === 3
      ? { user, ...(roles ? { roles } : {}), select: control.customId, values: [control.options[0]!.value], message }
      : { user, ...(roles ? { roles } : {}), button: control.customId, message };
  switch (`${family}:${action}`) {
    case 'pool:push':
    case 'pool:condition':
    case 'd10:again':
    case 'table:next':
    case 'tactics:apply':
    case 'code:spend':
    case 'dispatch:roll':
    case 'dispatch:consequence':
      return as(cast.player);
    case 'pool:oppose':
      return as(cast.target);
    case 'pool:tiebreak':
    case 'dispatch:noroll':
      return as(DISPATCHER, DISPATCHER_ROLES);
    default:
      return null;
  }
}

/** The channel's public messages posted since `since` (the ids the channel held before a flow started). */
export function messagesSince(fake: FakeDiscord, since: ReadonlySet<string>): FakeMessage[] {
  return fake.messages().filter((message) => !since.has(message.id));
}

/** What the channel shows of these messages, to tell whether a press changed anything in it. */
function shownState(messages: readonly FakeMessage[]): string {
  return JSON.stringify(messages.map((message) => [message.id, message.content, message.embeds, message.components]));
}

export interface PlayedOn {
  presses: SandboxInteractionRequest[];
  /** Controls still live that were pressed twice without changing anything the channel shows. */
  stuck: string[];
}

/**
 * Plays a flow on as its players would, from what the channel shows: presses the first live control someone of the
 * cast presses (pressOf) on the flow's messages, again and again, until none is left. A control whose press was
 * answered twice without changing the channel is given up on (the player is stuck) and reported. `act` may throw (a
 * killed bot): the caller decides, and calls again with the same `tried` to go on.
 */
export async function playOn(fake: FakeDiscord, act: Act, since: ReadonlySet<string>, cast: Cast, options: { maxPresses?: number; tried?: Map<string, number> } = {}): Promise<PlayedOn> {
  const tried = options.tried ?? new Map<string, number>();
  const presses: SandboxInteractionRequest[] = [];
  for (let count = 0; count < (options.maxPresses ?? 12); count++) {
    const messages = messagesSince(fake, since);
    const next = messages
      .flatMap((message) => liveControls(message).map((control) => ({ key: `${message.id} ${control.customId}`, press: pressOf(control, message.id, cast) })))
      .find((candidate) => candidate.press !== null && (tried.get(candidate.key) ?? 0) < 2);
    if (!next) break;
    const before = shownState(messages);
    presses.push(next.press!);
    // A press that throws (its bot was killed) is not the bot ignoring it: only an answered press counts as a try.
    await act(next.press!);
    if (shownState(messagesSince(fake, since)) === before) tried.set(next.key, (tried.get(next.key) ?? 0) + 1);
  }
  const stuck = [...tried].filter(([, times]) => times >= 2).map(([key]) => key);
  return { presses, stuck };
}
