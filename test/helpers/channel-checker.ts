// The channel against the store (issue 22, "a stored change always reaches the channel"): every bot message that
// carries state is compared with what the bot's database holds, and each disagreement is named. An empty list means
// the channel tells the truth: no live control the stored state no longer allows, no stored step missing from its
// message, and every result that is its own message (a next table's roll, a roll request's Outcome Roll, a contest
// round) posted exactly once.
//
// The database is read on its own read-only connection (better-sqlite3), never through the bot, so the checker sees
// what a restarted bot would load. It knows the stored shapes, not the views: a message is recognised by the roll id
// in its footer (`Roll <id> · check it with /roll replay …`), the `#<n>` in a request's or contest's title, and its
// controls by their custom_id families (src/views/component-id.ts and each view's `…Ids`). Ids derived from a roll
// (`derivedRollId(parent, label)`) are stored data, so their labels are fixed: pool `push`, `condition`, `opposed`,
// `tiebreak-<k>`; d10 `step:<k>`; table `next`; tactics `apply`; code `spend`.
import Database from 'better-sqlite3';
import { nameKey } from '../../src/engine/names.js';
import type { FakeMessage } from '../../src/sandbox/fake-discord.js';
import { derivedRollId } from '../../src/store/rolls.js';

type Json = Record<string, unknown>;

/** A control on a message, as Discord shows it. */
export interface Control {
  customId: string;
  type: number;
  disabled: boolean;
  label?: string;
  options: { value: string; label: string; default: boolean }[];
}

/** Every control with a custom_id on a message (buttons and selects, in their action rows). */
export function controlsOf(message: Pick<FakeMessage, 'components'> | undefined): Control[] {
  const out: Control[] = [];
  const walk = (components: unknown[]): void => {
    for (const component of components as Json[]) {
      if (typeof component.custom_id === 'string') {
        const options = Array.isArray(component.options)
          ? (component.options as Json[]).map((option) => ({ value: String(option.value), label: String(option.label ?? ''), default: option.default === true }))
          : [];
        out.push({
          customId: component.custom_id,
          type: Number(component.type),
          disabled: component.disabled === true,
          ...(typeof component.label === 'string' ? { label: component.label } : {}),
          options,
        });
      }
      if (Array.isArray(component.components)) walk(component.components);
    }
  };
  walk(message?.components ?? []);
  return out;
}

/** The controls a user can press now. */
export function liveControls(message: Pick<FakeMessage, 'components'> | undefined): Control[] {
  return controlsOf(message).filter((control) => !control.disabled);
}

interface Embed {
  title?: string;
  description?: string;
  fields?: { name: string; value: string }[];
  footer?: { text?: string };
  author?: { name?: string };
}

/** Everything a message shows as text: content, and each embed's author, title, description, fields and footer. */
export function messageText(message: Pick<FakeMessage, 'content' | 'embeds'>): string {
  const embeds = (message.embeds as Embed[]).map((embed) =>
    [embed.author?.name, embed.title, embed.description, ...(embed.fields ?? []).flatMap((field) => [field.name, field.value]), embed.footer?.text].filter(Boolean).join('\n'),
  );
  return [message.content ?? '', ...embeds].join('\n');
}

const footersOf = (message: FakeMessage): string[] => (message.embeds as Embed[]).map((embed) => embed.footer?.text ?? '');
const titlesOf = (message: FakeMessage): string[] => (message.embeds as Embed[]).map((embed) => embed.title ?? '');

/** The roll whose own message this is: the id in a `rollFooter` (src/views/challenge.ts). */
export function ownRollIdsOf(message: FakeMessage): string[] {
  return footersOf(message).flatMap((footer) => {
    const id = /^Roll (\S+) · check it with \/roll replay/.exec(footer)?.[1];
    return id ? [id] : [];
  });
}

/** Whether `id` shows in `text` as a whole word (roll ids are 8 letters and digits, as `id`, "roll id" or in a footer). */
function shows(text: string, id: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9])${id}([^A-Za-z0-9]|$)`).test(text);
}

// ---- the store, read-only --------------------------------------------------------------------------------------

export interface StoredRollRow {
  id: string;
  kind: string;
  userId: string;
  guildId: string;
  inputs: Json;
  result: Json;
}

export interface StoredRowWithState {
  id: number;
  guildId: string;
  messageId: string | null;
  phase: string;
  version: number;
  state: Json;
}

/** The bot's SQLite file, read on a connection of its own (read-only: it never changes what the bot sees). */
export class StoredState {
  private connection?: Database.Database;
  private readonly file: string;

  /** `location` is a `file:` DATABASE_URL or a path. */
  constructor(location: string) {
    this.file = location.startsWith('file:') ? location.slice('file:'.length) : location;
  }

  private get db(): Database.Database {
    this.connection ??= new Database(this.file, { readonly: true, fileMustExist: true });
    return this.connection;
  }

  roll(id: string): StoredRollRow | undefined {
    const row = this.db.prepare('SELECT "id", "kind", "userId", "guildId", "inputs", "result" FROM "Roll" WHERE "id" = ?').get(id) as
      | { id: string; kind: string; userId: string; guildId: string; inputs: string; result: string }
      | undefined;
    return row ? { ...row, inputs: JSON.parse(row.inputs) as Json, result: JSON.parse(row.result) as Json } : undefined;
  }

  has(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM "Roll" WHERE "id" = ?').get(id) !== undefined;
  }

  rollIds(): { id: string; kind: string }[] {
    return this.db.prepare('SELECT "id", "kind" FROM "Roll" ORDER BY "id"').all() as { id: string; kind: string }[];
  }

  rollRequest(id: number): StoredRowWithState | undefined {
    return this.withState(this.db.prepare('SELECT "id", "guildId", "messageId", "phase", "version", "state" FROM "RollRequest" WHERE "id" = ?').get(id));
  }

  rollRequests(): StoredRowWithState[] {
    return (this.db.prepare('SELECT "id", "guildId", "messageId", "phase", "version", "state" FROM "RollRequest" ORDER BY "id"').all() as unknown[]).map((row) => this.withState(row)!);
  }

  contest(id: number): StoredRowWithState | undefined {
    return this.withState(this.db.prepare('SELECT "id", "guildId", "messageId", "phase", "version", "state" FROM "Contest" WHERE "id" = ?').get(id));
  }

  contests(): StoredRowWithState[] {
    return (this.db.prepare('SELECT "id", "guildId", "messageId", "phase", "version", "state" FROM "Contest" ORDER BY "id"').all() as unknown[]).map((row) => this.withState(row)!);
  }

  tableExists(guildId: string, name: string): boolean {
    return this.db.prepare('SELECT 1 FROM "OutcomeTable" WHERE "guildId" = ? AND "nameKey" = ?').get(guildId, nameKey(name)) !== undefined;
  }

  /** Every attribute value and condition on every sheet: what a press's effect on a sheet changes. */
  sheets(): { attributes: string[]; conditions: string[] } {
    const attributes = this.db.prepare('SELECT "operatorId", "name", "value" FROM "Attribute" ORDER BY "operatorId", "nameKey"').all() as { operatorId: number; name: string; value: number }[];
    const conditions = this.db.prepare('SELECT "operatorId", "name", "modifier" FROM "Condition" ORDER BY "operatorId", "nameKey"').all() as { operatorId: number; name: string; modifier: number }[];
    return {
      attributes: attributes.map((row) => `sheet ${row.operatorId} ${row.name} = ${row.value}`),
      conditions: conditions.map((row) => `sheet ${row.operatorId} suffers ${row.name} (${row.modifier})`),
    };
  }

  /** Open stated intents of a player (`/roll intent` rows waiting for a Dispatcher). */
  statedIntents(playerId: string): StoredRowWithState[] {
    return (this.db.prepare(`SELECT "id", "guildId", "messageId", "phase", "version", "state" FROM "RollRequest" WHERE "playerId" = ? AND "phase" = 'stated'`).all(playerId) as unknown[]).map(
      (row) => this.withState(row)!,
    );
  }

  close(): void {
    this.connection?.close();
    this.connection = undefined;
  }

  private withState(row: unknown): StoredRowWithState | undefined {
    if (!row) return undefined;
    const typed = row as Omit<StoredRowWithState, 'state'> & { state: string };
    return { ...typed, state: JSON.parse(typed.state) as Json };
  }
}

/**
 * What the presses of the flows changed in the store, as lines: every roll (its id and kind), every attribute value and
 * condition on a sheet, every request's phase and the rolls it names, every contest's phase and rounds. Two snapshots
 * equal means a press changed nothing of the game (a message id recorded beside a roll is not a change of the game).
 */
export function storedEffects(stored: StoredState): string[] {
  const { attributes, conditions } = stored.sheets();
  const requests = stored.rollRequests().map((row) => {
    const state = row.state as { result?: { rollId?: string | null } | null; consequenceRoll?: { rollId?: string } | null; investigation?: { rollId?: string } | null };
    return `request #${row.id} ${row.phase} roll ${state.result?.rollId ?? '-'} consequence ${state.consequenceRoll?.rollId ?? '-'} investigation ${state.investigation?.rollId ?? '-'}`;
  });
  const contests = stored.contests().map((row) => `contest #${row.id} ${row.phase} rounds ${((row.state.rounds as unknown[]) ?? []).length}`);
  return [...stored.rollIds().map((roll) => `roll ${roll.id} ${roll.kind}`), ...attributes, ...conditions, ...requests, ...contests];
}

// ---- the check -------------------------------------------------------------------------------------------------

const pushId = (rollId: string) => derivedRollId(rollId, 'push');
const conditionId = (rollId: string) => derivedRollId(rollId, 'condition');
const opposedId = (rollId: string) => derivedRollId(rollId, 'opposed');
const tieBreakId = (rollId: string, round: number) => derivedRollId(rollId, `tiebreak-${round}`);
const stepId = (cumulativeId: string, step: number) => (step === 1 ? cumulativeId : derivedRollId(cumulativeId, `step:${step}`));
const nextTableId = (rollId: string) => derivedRollId(rollId, 'next');
const appliedId = (rollId: string) => derivedRollId(rollId, 'apply');
const spentId = (rollId: string) => derivedRollId(rollId, 'spend');

/** The most tie-break rounds a pool roll can have (src/engine/systems/d6-pool/pool.ts TIE_BREAKS_MAX is far below). */
const ROUNDS_SEARCHED = 50;

/** Which presses a roll request's stored phase allows (src/views/roll-request.ts, src/engine/.../roll-request.ts). */
function requestAllows(state: Json): { allowed: Set<string>; required: string[] } {
  const phase = String(state.phase);
  const hidden = state.hidden === true;
  const allowed = new Set<string>();
  const required: string[] = [];
  if (phase === 'stated') {
    ['call', 'noroll', 'withdraw', 'cancel'].forEach((action) => allowed.add(action));
    required.push('noroll', 'call');
  }
  if (phase === 'open') {
    ['roll', 'decline', 'cancel'].forEach((action) => allowed.add(action));
    // Offered while a table serves it, found by name when the message is drawn (not stored on the request).
    if (state.kind === 'challenge' && hidden && !state.investigation) allowed.add('investigate');
    required.push('roll', 'decline');
  }
  if (phase === 'rolled' && consequenceDue(state)) {
    allowed.add('consequence');
    required.push('consequence');
  }
  if (hidden && (phase === 'open' || phase === 'rolled')) allowed.add('details');
  return { allowed, required };
}

/** A failed roll whose consequence table is still to be rolled. */
function consequenceDue(state: Json): boolean {
  const result = state.result as { succeeded: number; total: number } | null | undefined;
  return state.phase === 'rolled' && !!result && result.succeeded < result.total && !!state.consequenceTable && !state.consequenceRoll;
}

/** What a request's message must say once its phase is over (the words of src/views/roll-request.ts, loosely). */
const REQUEST_ENDINGS: Record<string, RegExp> = {
  granted: /no roll needed/i,
  declined: /does not attempt/i,
  cancelled: /cancelled/i,
  withdrawn: /withdrew/i,
};

/** Which presses a contest's stored phase allows (src/views/contest/message.ts contestComponents). */
function contestAllows(state: Json): { allowed: Set<string>; required: string[] } {
  const rounds = ((state.rounds as unknown[]) ?? []).length;
  const withdraw = rounds === 0 ? ['withdraw'] : [];
  switch (String(state.phase)) {
    case 'proposed':
      return { allowed: new Set(['accept', 'decline', 'cancel', ...withdraw]), required: ['accept'] };
    case 'countered':
      return { allowed: new Set(['agree', 'ready', 'adjust', 'cancel', ...withdraw]), required: ['agree'] };
    case 'roles':
      return { allowed: new Set(['role', 'cancel', ...withdraw]), required: ['role'] };
    case 'skills':
      // A round after a tie may still accept the tie instead.
      return { allowed: new Set(['skill', 'searchform', 'ready', 'adjust', 'cancel', ...withdraw, ...(rounds > 0 ? ['accepttie'] : [])]), required: ['ready'] };
    case 'tied':
      return { allowed: new Set(['again', 'accepttie', 'cancel']), required: ['again'] };
    default:
      return { allowed: new Set(), required: [] };
  }
}

/** One disagreement, naming the message (its id and first line) so it can be found in the channel. */
function where(message: FakeMessage): string {
  const title = titlesOf(message).find(Boolean) ?? (message.content ?? '').split('\n')[0] ?? '';
  return `message ${message.id} ("${title.replace(/\s+/g, ' ').slice(0, 70)}")`;
}

/**
 * Compares every bot message of the channel with the store. `messages` are the channel's messages as users see them
 * (`fake.messages()`: public ones, after every edit); `stored` reads the bot's database. Returns one line per
 * difference; none when the channel shows the store.
 */
export function checkChannel(messages: readonly FakeMessage[], stored: StoredState): string[] {
  const differences: string[] = [];
  const say = (message: FakeMessage, what: string) => differences.push(`${where(message)}: ${what}`);
  const texts = new Map(messages.map((message) => [message.id, messageText(message)]));
  const textOf = (message: FakeMessage) => texts.get(message.id)!;

  /** Messages that are `rollId`'s own (its footer names it). */
  const ownMessages = new Map<string, FakeMessage[]>();
  for (const message of messages) {
    for (const id of ownRollIdsOf(message)) ownMessages.set(id, [...(ownMessages.get(id) ?? []), message]);
  }
  const ownCount = (rollId: string) => ownMessages.get(rollId)?.length ?? 0;
  /** A result posted as its own message must be there exactly once while the message it came from is in the channel. */
  const postedOnce = (message: FakeMessage, rollId: string, what: string) => {
    const count = ownCount(rollId);
    if (count !== 1) say(message, `${what} ${rollId} is stored, and the channel shows it as its own message ${count} time(s), not once`);
  };

  for (const [rollId, own] of ownMessages) {
    if (own.length > 1) differences.push(`roll ${rollId} is posted as its own message ${own.length} times (${own.map((m) => m.id).join(', ')}), not once`);
  }

  for (const message of messages) {
    const live = liveControls(message);
    const liveIds = new Set(live.map((control) => control.customId));
    const text = textOf(message);

    // -- every live control, against what the store allows now ----------------------------------------------------
    for (const control of live) {
      const parts = control.customId.split(':');
      const [family, action] = parts;
      const stale = (why: string) => say(message, `offers a live ${control.customId} (${control.label ?? control.options.map((o) => o.label).join(' / ') ?? ''}), but ${why}`);
      if (family === 'pool') {
        const rollId = parts[2]!;
        if (action === 'push' && stored.has(pushId(rollId))) stale(`the push ${pushId(rollId)} is stored`);
        if (action === 'push' && stored.has(tieBreakId(rollId, 1))) stale(`the tie was re-rolled (${tieBreakId(rollId, 1)} is stored), so the roll can no longer be pushed`);
        if (action === 'condition' && stored.has(conditionId(rollId))) stale(`the push's condition ${conditionId(rollId)} is stored`);
        if (action === 'oppose' && stored.has(opposedId(rollId))) stale(`the opposing roll ${opposedId(rollId)} is stored`);
        if (action === 'tiebreak') {
          const round = Number(parts[3]);
          if (stored.has(tieBreakId(rollId, round))) stale(`re-roll ${round} of the tie (${tieBreakId(rollId, round)}) is stored`);
          else if (round > 1 && !stored.has(tieBreakId(rollId, round - 1))) stale(`re-roll ${round - 1} is not stored`);
          else if (!stored.has(opposedId(rollId))) stale('the opponent has not rolled');
        }
      } else if (family === 'd10' && action === 'again') {
        const [cumulativeId, step] = [parts[2]!, Number(parts[3])];
        const previous = stored.roll(stepId(cumulativeId, step - 1));
        if (stored.has(stepId(cumulativeId, step))) stale(`roll ${step} of the cumulative roll (${stepId(cumulativeId, step)}) is stored`);
        else if (!previous) stale(`roll ${step - 1} of the cumulative roll is not stored`);
        else if (previous.result.end !== null && previous.result.end !== undefined) stale(`the cumulative roll is over (${String(previous.result.end)})`);
      } else if (family === 'table' && action === 'next') {
        const rollId = parts[2]!;
        if (stored.has(nextTableId(rollId))) stale(`the next table's roll ${nextTableId(rollId)} is stored`);
      } else if (family === 'tactics' && action === 'apply') {
        const rollId = parts[2]!;
        if (stored.has(appliedId(rollId))) stale(`the damage was applied (${appliedId(rollId)} is stored)`);
      } else if (family === 'code' && action === 'spend') {
        const rollId = parts[2]!;
        if (stored.has(spentId(rollId))) stale(`the points were spent (${spentId(rollId)} is stored)`);
      } else if (family === 'dispatch') {
        const request = stored.rollRequest(Number(parts[2]));
        if (!request) stale(`request #${parts[2]} is not stored`);
        else if (!requestAllows(request.state).allowed.has(action!)) stale(`request #${request.id} is stored in phase ${request.phase}`);
      } else if (family === 'contest') {
        const contest = stored.contest(Number(parts[2]));
        if (!contest) stale(`contest #${parts[2]} is not stored`);
        else if (!contestAllows(contest.state).allowed.has(action!)) stale(`contest #${contest.id} is stored in phase ${contest.phase}`);
      }
    }

    // -- the message, against the stored state it shows ------------------------------------------------------------
    for (const rollId of ownRollIdsOf(message)) {
      const roll = stored.roll(rollId);
      if (!roll) continue;
      if (roll.kind === 'pool') {
        for (const [id, what] of [
          [pushId(rollId), 'the push'],
          [opposedId(rollId), "the opponent's roll"],
        ] as const) {
          if (stored.has(id) && !shows(text, id)) say(message, `${what} ${id} is stored but not shown`);
        }
        const condition = stored.roll(conditionId(rollId));
        const conditionName = (condition?.result as { condition?: string } | undefined)?.condition;
        if (conditionName && !text.includes(conditionName)) say(message, `the push's condition ${conditionName} (${conditionId(rollId)}) is stored but not shown`);
        for (let round = 1; round <= ROUNDS_SEARCHED && stored.has(tieBreakId(rollId, round)); round++) {
          if (!shows(text, tieBreakId(rollId, round))) say(message, `re-roll ${round} of the tie (${tieBreakId(rollId, round)}) is stored but not shown`);
        }
        const opposed = roll.inputs.opposed as { userId?: string } | undefined;
        if (opposed && !stored.has(opposedId(rollId)) && !liveIds.has(`pool:oppose:${rollId}`)) say(message, "the opponent has not rolled, and the message offers no live button for it");
      }
      if (roll.kind === 'outcome') {
        const next = (roll.result.row as { next?: string | null } | undefined)?.next;
        if (next && stored.has(nextTableId(rollId))) postedOnce(message, nextTableId(rollId), `the next table's roll (${next})`);
        else if (next && stored.tableExists(roll.guildId, next) && ![...liveIds].some((id) => id.startsWith(`table:next:${rollId}:`))) {
          say(message, `the next table ${next} is not rolled yet, and the message offers no live button for it`);
        }
      }
      if (roll.kind === 'attack' && stored.has(appliedId(rollId)) && !shows(text, appliedId(rollId))) say(message, `the damage was applied (${appliedId(rollId)} is stored) but the message does not show it`);
      if (roll.kind === 'code' && stored.has(spentId(rollId)) && !shows(text, spentId(rollId))) say(message, `the points were spent (${spentId(rollId)} is stored) but the message does not show it`);
    }

    // A cumulative roll: its footer names the first step's id, each step its own on its line.
    for (const footer of footersOf(message)) {
      const cumulativeId = /^Cumulative roll (\S+) ·/.exec(footer)?.[1];
      if (!cumulativeId || !stored.has(cumulativeId)) continue;
      const folded = Number(/(\d+) earlier rolls? \(see \/log\)/.exec(text)?.[1] ?? 0);
      let last: StoredRollRow | undefined;
      let step = 1;
      for (; step <= 1000; step++) {
        const row = stored.roll(stepId(cumulativeId, step));
        if (!row) break;
        last = row;
        if (step > folded && !shows(text, row.id)) say(message, `roll ${step} of the cumulative roll (${row.id}) is stored but not shown`);
      }
      const over = last && last.result.end !== null && last.result.end !== undefined;
      if (last && !over && !liveIds.has(`d10:again:${cumulativeId}:${step}`)) say(message, `roll ${step - 1} is the last stored and the roll goes on, but the message offers no live Roll again for roll ${step}`);
    }

    // A roll request: its title names it.
    for (const title of titlesOf(message)) {
      const requestId = /(?:Intent|[Rr]oll request) #(\d+)/.exec(title)?.[1];
      if (!requestId) continue;
      const request = stored.rollRequest(Number(requestId));
      if (!request) {
        say(message, `request #${requestId} is not stored`);
        continue;
      }
      const { state } = request;
      const { required } = requestAllows(state);
      for (const action of required) {
        if (!liveIds.has(`dispatch:${action}:${request.id}`)) say(message, `request #${request.id} is stored in phase ${request.phase}, and the message offers no live dispatch:${action}`);
      }
      const result = state.result as { rollId?: string | null } | null | undefined;
      if (request.phase === 'rolled' && result?.rollId && !shows(text, result.rollId)) say(message, `request #${request.id} was rolled (${result.rollId}), and the message does not show the roll`);
      if (request.phase === 'rolled' && !result?.rollId && !/success|failure|succeeded/i.test(text)) say(message, `request #${request.id} was rolled, and the message does not show its result`);
      const ending = REQUEST_ENDINGS[request.phase];
      if (ending && !ending.test(text)) say(message, `request #${request.id} is stored as ${request.phase}, and the message does not say so`);
      const consequence = state.consequenceRoll as { rollId: string } | null | undefined;
      if (consequence) {
        if (!shows(text, consequence.rollId)) say(message, `request #${request.id}'s Outcome Roll ${consequence.rollId} is stored, and the message does not show it`);
        postedOnce(message, consequence.rollId, `request #${request.id}'s Outcome Roll`);
      }
    }

    // A contest's own message: its title names it; each round's result is a message of its own.
    for (const title of titlesOf(message)) {
      const contestId = /Contest #(\d+):/.exec(title)?.[1];
      if (!contestId) continue;
      const contest = stored.contest(Number(contestId));
      if (!contest) {
        say(message, `contest #${contestId} is not stored`);
        continue;
      }
      for (const action of contestAllows(contest.state).required) {
        const offered = [...liveIds].some((id) => {
          const [family, verb, idText] = id.split(':');
          return family === 'contest' && verb === action && Number(idText) === contest.id;
        });
        if (!offered) say(message, `contest #${contest.id} is stored in phase ${contest.phase}, and the message offers no live contest:${action}`);
      }
      const rounds = (contest.state.rounds as { rollId?: string | null }[] | undefined) ?? [];
      rounds.forEach((round, index) => {
        if (!round.rollId) return;
        const results = messages.filter(
          (other) => new RegExp(`the dice of contest #${contest.id} have rolled`).test(other.content ?? '') && footersOf(other).some((footer) => shows(footer, round.rollId!)),
        );
        if (results.length !== 1) say(message, `round ${index + 1} of contest #${contest.id} (${round.rollId}) is stored, and its result is posted ${results.length} time(s), not once`);
      });
    }
  }
  return differences;
}
