/**
 * /dispatch and the challenge-roll conversation (seed 000 "Challenge Rolls", RULES 1.5). A player states what their
 * Operator tries (`/roll intent`) and a Dispatcher answers it: *Call for a roll* (a form: skill, CL shown or hidden,
 * archetypes, what failing costs) or *No roll needed*. Or a Dispatcher calls for the roll directly with
 * `/dispatch challenge|linked`, stating the intent and outcome. Either way the player sees the roll and what failing
 * costs and presses *Take the roll* (rolled from their active sheet) or *Decline* (nothing is rolled). A hidden CL
 * never reaches the public message, a custom_id or a footer: the Dispatcher reads it with *Numbers*. A failure with a
 * consequence table offers its Outcome Roll, once, to the same player.
 */
import { MessageFlags, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, rolledBy, type ComponentInteraction, type HandlerContext, type Subcommand } from '../src/discord/command.js';
import { fromMessage } from '../src/discord/interaction-kinds.js';
import type { AnswerPayload } from '../src/discord/responder.js';
import { answerFromStore, postResult, showsStored, unposted, type PostedResult } from '../src/discord/stored-message.js';
import { UserError } from '../src/errors.js';
import { isRefused, Refused } from '../src/engine/refusals.js';
import { cleanName, nameKey } from '../src/engine/names.js';
import { challengeDice, linkedDice, outcomeDice } from '../src/engine/replay.js';
import { seededRng } from '../src/engine/rng.js';
import { findSkill, splitNameList, validName, type OperatorSheet } from '../src/engine/sheet.js';
import { resolveChallenge, resolveLinkedChallenge, validateChallengeInput, type ChallengeInput } from '../src/engine/systems/tactalk/challenge.js';
import { challengeFromSheet } from '../src/engine/systems/tactalk/from-sheet.js';
import { parseLinkedRoll, type LinkedRollPart } from '../src/engine/systems/tactalk/linked-notation.js';
import {
  ROLL_REQUEST_LIMITS,
  RollRequestRefusal,
  callForRoll,
  cancelRollRequest,
  checkCallForRoll,
  checkConsequenceRoll,
  checkInvestigation,
  checkRoll,
  declineRoll,
  formDraftOf,
  grantWithoutRoll,
  INVESTIGATION_TABLE,
  investigationTableNames,
  keepFormDraft,
  mayInvestigate,
  newRollRequest,
  notePing,
  recordConsequenceRoll,
  recordInvestigation,
  recordRoll,
  requestSettled,
  stateIntent,
  withdrawIntent,
  type RollCall,
  type RollRequestState,
} from '../src/engine/systems/tactalk/roll-request.js';
import { resolveOutcomeRoll, revealChallengeLevel, type OutcomeRollResult } from '../src/engine/tables.js';
import type { StoredRollRequest } from '../src/store/roll-requests.js';
import { derivedRollId, type RollEntry } from '../src/store/rolls.js';
import { nameChoices, noSheetChoice } from '../src/views/autocomplete.js';
import { messageLink } from '../src/views/contest/view.js';
import { escapeMarkdown } from '../src/views/format.js';
import { NO_PINGS } from '../src/views/limits.js';
import { privateNote, userErrorText } from '../src/views/messages.js';
import {
  answeredPing,
  CALL_FIELDS,
  callModal,
  callRefusedNote,
  dispatchIds,
  intentOpening,
  investigationNote,
  oddsNote,
  requestDetails,
  requestMessage,
  requestOpening,
  settledNotice,
  settledPing,
  type DispatchControl,
  type RequestLive,
  type RollRequestView,
} from '../src/views/roll-request.js';
import { outcomeReply, type NextTable } from '../src/views/tables.js';
import { skillOrArchetypeChoices } from './shared/roll-sheets.js';

/** A player may have this many intents waiting for a Dispatcher at once. */
export const STATED_INTENTS_MAX = 3;

/** The investigation table the Dispatcher names, as the server spells it (checked to exist now); null when none is named. */
async function namedInvestigationTable(context: HandlerContext, named: string | null): Promise<string | null> {
  if (!named) return null;
  return (await context.store.tables.require(context.guildId, named)).name;
}

/**
 * The investigation table that serves a hidden challenge now: the first of its names (`investigationTableNames`: the
 * one named, "Investigation: <skill>", "Investigation", the shipped example) that the server has, as it spells it.
 */
async function investigationTableNow(context: HandlerContext, state: Pick<RollRequestState, 'investigationTable' | 'parts'>): Promise<string | null> {
  const names = await context.store.tables.names(context.guildId);
  for (const wanted of investigationTableNames(state)) {
    const found = names.find((name) => nameKey(name) === nameKey(wanted));
    if (found) return found;
  }
  return null;
}

/** For the Dispatcher's note on a hidden challenge: the table the player may investigate with, or how to add one. */
function investigationAdvice(table: string | null, skill: string): string {
  if (table) return ` The player may investigate with **${escapeMarkdown(table)}**.`;
  return (
    ` No investigation table for **${escapeMarkdown(skill)}** yet: the player cannot investigate. A table named \`Investigation: ${skill}\`, or \`${INVESTIGATION_TABLE}\` for every skill ` +
    `(\`/table import\` examples/investigation.example.json serves as it is), is offered from the next time the request is drawn: press **Numbers (Dispatcher)** on it.`
  );
}

/** The consequence table as the server spells it, checked to exist now (it is read again when rolled). */
async function consequenceTableFor(context: HandlerContext, named: string | null): Promise<string | null> {
  if (named === null || cleanName(named) === '') return null;
  return (await context.store.tables.require(context.guildId, named)).name;
}

/** Every part must be rollable from the player's active sheet now; it is read again when they roll. */
async function checkAgainstSheet(context: HandlerContext, playerId: string, label: string | undefined, call: RollCall): Promise<OperatorSheet> {
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: playerId }, 'tactalk', { command: '/dispatch', ...(label === undefined ? {} : { someoneElse: label }) });
  try {
    for (const part of call.parts) validateChallengeInput(challengeFromSheet(sheet, part, { force: false, hidden: call.hidden }, context.now()));
  } catch (error) {
    // The skill goes on the player's sheet: the hint names them (`player:`), with the skills nearest to what was typed.
    if (isRefused(error) && error.refusal.kind === 'no-such-skill') throw new Refused({ ...error.refusal, forPlayer: playerId });
    throw error;
  }
  return sheet;
}

/**
 * An open request's odds as the player's active sheet makes them now (shown CLs only): each time the message is drawn,
 * so a sheet changed since shows on the next redraw; why that sheet cannot make the roll, when it cannot.
 */
async function oddsNow(context: HandlerContext, state: RollRequestState, sheet?: OperatorSheet): Promise<RequestLive['odds']> {
  if (state.phase !== 'open' || state.hidden || state.parts.length === 0) return null;
  try {
    const from = sheet ?? (await context.store.operators.requireActive({ guildId: context.guildId, ownerId: state.playerId }, 'tactalk', { command: '/dispatch' }));
    const inputs = state.parts.map((part) => challengeFromSheet(from, part, { force: false, hidden: false }, context.now()));
    inputs.forEach(validateChallengeInput);
    return { sheet: from.name, inputs };
  } catch (error) {
    if (error instanceof UserError) return { problem: userErrorText(error) };
    throw error;
  }
}

/** What the request's message shows as it is drawn now (RequestLive): read from the store at this moment. */
async function liveOf(context: HandlerContext, state: RollRequestState, sheet?: OperatorSheet): Promise<RequestLive> {
  return { odds: await oddsNow(context, state, sheet), investigationTable: mayInvestigate(state) ? await investigationTableNow(context, state) : null };
}

/** A stored request as its message shows it now. */
async function viewNow(context: HandlerContext, request: Pick<StoredRollRequest, 'id' | 'state'>): Promise<RollRequestView> {
  return { id: request.id, state: request.state, live: await liveOf(context, request.state) };
}

/** `/dispatch challenge` and `/dispatch linked`: the Dispatcher's call for a player's roll, posted for them to take or decline. */
async function dispatchRoll(interaction: ChatInputCommandInteraction, context: HandlerContext, kind: RollCall['kind']): Promise<void> {
  const player = interaction.options.getUser('player', true);
  if (player.bot) throw new UserError('A bot has no sheet to roll from. Pick a player.');
  // A blind call hides the CL as well: the player sees neither it nor the odds, and then not the result.
  const blind = interaction.options.getBoolean('blind') ?? false;
  const hidden = (interaction.options.getBoolean('hidden') ?? false) || blind;

  let parts: LinkedRollPart[];
  let investigationTable: string | null = null;
  if (kind === 'challenge') {
    parts = [
      {
        skill: validName('skill', interaction.options.getString('skill', true)),
        archetypes: splitNameList(interaction.options.getString('archetypes')),
        situationalModifier: interaction.options.getInteger('modifier') ?? 0,
        challengeLevel: interaction.options.getInteger('cl', true),
      },
    ];
    const named = interaction.options.getString('investigation');
    if (named && blind) throw new UserError('A blind roll allows no investigation: the player learns nothing of its difficulty. Leave `investigation` or `blind` out.');
    if (named && !hidden) throw new UserError('An investigation only makes sense for a hidden CL: add `hidden:True` or leave `investigation` out.');
    investigationTable = hidden ? await namedInvestigationTable(context, named) : null;
  } else {
    parts = parseLinkedRoll(interaction.options.getString('rolls', true), interaction.options.getInteger('cl') ?? undefined);
  }
  const call: RollCall = {
    kind,
    parts,
    hidden,
    blind,
    investigationTable,
    consequence: interaction.options.getString('consequence'),
    consequenceTable: await consequenceTableFor(context, interaction.options.getString('consequence-table')),
  };
  const label = player.globalName ?? player.username;
  const sheet = await checkAgainstSheet(context, player.id, label, call);

  const state = {
    ...newRollRequest({
      ...call,
      dispatcherId: context.userId,
      playerId: player.id,
      intent: interaction.options.getString('intent', true),
      outcome: interaction.options.getString('outcome', true),
    }),
    operatorName: sheet.name,
  };
  const channel = interaction.channel;
  if (!channel?.isSendable()) throw new UserError('The bot cannot post in this channel; ask an admin for its Send Messages permission.');
  const request = await context.store.rollRequests.create(context.guildId, context.channelId, state);
  const live = await liveOf(context, state, sheet);
  const message = await shownOrForgotten(context, request, () => channel.send(requestOpening({ id: request.id, state, live })).then(({ id }) => id));
  if (message) await context.store.rollRequests.fillMessage(request, message);
  const odds = oddsNote(live.odds);
  await context.answer.reply(
    privateNote(
      `Posted request #${request.id} for ${cleanName(label)}: they take the roll or decline it.` +
        (odds ? ` ${odds}` : '') +
        (hidden ? ` The CL${parts.length > 1 ? 's stay' : ' stays'} hidden; press **Numbers (Dispatcher)** on it to see ${parts.length > 1 ? 'them' : 'it'} and the dice.` : '') +
        (blind ? ' The roll is blind: once it is made, **Show me** on it shows you the result and **Reveal** puts it in the channel.' : '') +
        (hidden && !blind && kind === 'challenge' ? investigationAdvice(live.investigationTable, parts[0]!.skill) : ''),
    ),
  );
}

/** `/roll intent`: posts the player's intent for a Dispatcher to answer. */
async function stateIntentCommand(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/roll intent' });
  const state = stateIntent({
    playerId: context.userId,
    operatorName: sheet.name,
    intent: interaction.options.getString('intent', true),
    outcome: interaction.options.getString('outcome', true),
  });
  const request = await context.store.rollRequests.stateIntent(context.guildId, context.channelId, state, STATED_INTENTS_MAX, context.now());
  if (!request) {
    throw new UserError(`You already have ${STATED_INTENTS_MAX} intents waiting for a Dispatcher. Withdraw one (the **Withdraw** button on its message) or wait for an answer.`);
  }
  const messageId = await shownOrForgotten(context, request, () => context.answer.replyWithMessageId(intentOpening({ id: request.id, state })));
  if (messageId) await context.store.rollRequests.fillMessage(request, messageId);
}

/** `/roll intent`, mounted by commands/roll.ts: the player's side of the conversation. */
export const intentSubcommand: Subcommand = {
  name: 'intent',
  build: (sub) =>
    sub
      .setDescription('Say what your Operator tries and what happens if it works; a Dispatcher answers with a roll or not')
      .addStringOption((o) => o.setName('intent').setDescription('What your Operator tries, e.g. scale the wall to the 3rd-floor balcony').setRequired(true).setMaxLength(ROLL_REQUEST_LIMITS.intentLength))
      .addStringOption((o) => o.setName('outcome').setDescription('What happens if it works, e.g. Troy reaches the balcony unseen').setRequired(true).setMaxLength(ROLL_REQUEST_LIMITS.outcomeLength)),
  run: stateIntentCommand,
  help: { audience: 'player', example: '/roll intent intent:scale the wall to the balcony outcome:Troy reaches it unseen' },
};

/** Posts a new request's message; one that never reached the channel is forgotten, so it waits on nobody. */
async function shownOrForgotten(context: HandlerContext, request: StoredRollRequest, post: () => Promise<string | null>): Promise<string | null> {
  try {
    return await post();
  } catch (error) {
    await context.store.rollRequests.forgetUnshown(request).catch((gone: unknown) => context.log.warn({ err: gone, requestId: request.id }, 'a request whose message failed could not be forgotten'));
    throw error;
  }
}

// ---- presses ---------------------------------------------------------------------------------------------

/** A press decided: the new state, and the roll saved with it (so a lost race stores nothing). */
interface Decided {
  state: RollRequestState;
  roll?: RollEntry;
  /** Shown to the presser alone. */
  note?: string;
  /** A result that is its own message: posted before the message is updated, once (src/discord/stored-message.ts). */
  result?: PostedResult;
}

async function roll(context: HandlerContext, request: StoredRollRequest): Promise<Decided> {
  const { state } = request;
  checkRoll(state, context.userId);
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/dispatch' });
  const inputs: ChallengeInput[] = state.parts.map((part) => challengeFromSheet(sheet, part, { force: false, hidden: state.hidden }, context.now()));
  inputs.forEach(validateChallengeInput);
  const seed = context.newSeed();
  const linked = state.kind === 'linked';
  const results = linked ? resolveLinkedChallenge(inputs, seededRng(seed)).results : [resolveChallenge(inputs[0]!, seededRng(seed))];
  const rolled = results.some((result) => result.outcome === 'rolled');
  const rollId = rolled ? context.store.rolls.newId() : null;
  const succeeded = results.filter((result) => result.success).length;
  const next = recordRoll(state, context.userId, { rollId, succeeded, total: results.length, operatorName: sheet.name, results });
  if (!rollId) return { state: next };
  const single = results[0]!;
  const roll = context.store.rolls.entry(rollId, {
    ...rolledBy(context),
    kind: linked ? 'linked' : 'challenge',
    inputs: linked ? inputs : inputs[0],
    seed,
    dice: linked ? linkedDice({ results, succeeded }) : challengeDice(single),
    result: linked ? { results, succeeded } : single,
    total: !linked && single.outcome === 'rolled' ? single.result : null,
    challengeLevel: linked ? null : single.input.challengeLevel,
    success: linked ? null : single.success,
    blind: state.blind,
  });
  return { state: next, roll };
}

async function investigate(context: HandlerContext, request: StoredRollRequest): Promise<Decided> {
  const { state } = request;
  checkInvestigation(state, context.userId);
  const part = state.parts[0]!;
  // The table that serves now: one added since the request was posted serves it too.
  const tableName = await investigationTableNow(context, state);
  if (!tableName) {
    throw new RollRequestRefusal(
      `There is no investigation table for ${part.skill} on this server (\`Investigation: ${part.skill}\` or \`${INVESTIGATION_TABLE}\`), so there is nothing to investigate with. A Dispatcher can add one with \`/table import\`; nothing was rolled.`,
    );
  }
  const table = await context.store.tables.require(context.guildId, tableName);
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/dispatch' });
  // The table adds the aptitude it names; an investigation table that names none adds the skill investigated.
  const skill = findSkill(sheet, table.skill ?? part.skill);
  const seed = context.newSeed();
  const outcome = resolveOutcomeRoll({ table, modifiers: [{ name: skill.name, value: skill.level }] }, seededRng(seed));
  const revealed = revealChallengeLevel(outcome.row.reveals, part.challengeLevel);
  const rollId = context.store.rolls.newId();
  const roll = context.store.rolls.entry(rollId, {
    ...rolledBy(context),
    kind: 'outcome',
    inputs: outcome.input,
    seed,
    dice: outcomeDice(outcome),
    result: outcome,
    total: outcome.result,
    challengeLevel: null,
    success: null,
  });
  const next = recordInvestigation(state, context.userId, { rollId, rowText: outcome.row.text, revealed });
  const note = investigationNote({ table: table.name, roll: outcome.roll, skill, result: outcome.result, rowText: outcome.row.text, revealed, rollId });
  return { state: next, note, roll };
}

/**
 * The Outcome Roll a failure costs: on the consequence table, adding the aptitude the table names (from the player's
 * active sheet) and nothing when it names none, as a table roll does. Stored under an id derived from the challenge
 * roll, with that roll's id in its inputs (`after`), so each names the other in /log and /roll replay.
 */
async function rollConsequence(context: HandlerContext, request: StoredRollRequest): Promise<Decided> {
  const { state } = request;
  checkConsequenceRoll(state, context.userId);
  const table = await context.store.tables.require(context.guildId, state.consequenceTable ?? '');
  const sheet = table.skill === null ? null : await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/dispatch' });
  const modifiers = sheet && table.skill !== null ? [findSkill(sheet, table.skill)].map((skill) => ({ name: skill.name, value: skill.level })) : [];
  const seed = context.newSeed();
  const after = state.result?.rollId ?? null;
  const rollId = consequenceRollId(context.guildId, request.id, after);
  const outcome = resolveOutcomeRoll({ table, modifiers }, seededRng(seed));
  const { input, ...rest } = outcome;
  const roll = context.store.rolls.entry(rollId, {
    ...rolledBy(context),
    kind: 'outcome',
    // The replay rolls the inputs' table and modifiers; `after` and `rollRequest` say what this roll followed.
    inputs: { ...input, ...(after ? { after } : {}), rollRequest: request.id },
    seed,
    dice: outcomeDice(outcome),
    result: rest,
    total: outcome.result,
    challengeLevel: null,
    success: null,
  });
  const next = recordConsequenceRoll(state, context.userId, { rollId, table: table.name, result: outcome.result, rowText: outcome.row.text });
  const payload = await consequenceMessage(context, request, outcome, rollId, state.result?.operatorName ?? sheet?.name ?? 'The Operator', sheet?.id ?? null);
  return { state: next, roll, result: { rollId, payload } };
}

/** The Outcome Roll a failure cost, as its own message: the table's roll, after which challenge roll of which request. */
async function consequenceMessage(context: HandlerContext, request: StoredRollRequest, outcome: OutcomeRollResult, rollId: string, who: string, sheetId: number | null): Promise<AnswerPayload> {
  const after = request.state.result?.rollId ?? null;
  const nextName = outcome.row.next;
  const nextTable: NextTable = nextName ? { name: nextName, exists: (await context.store.tables.find(context.guildId, nextName)) !== null, sheetId } : null;
  const reply = outcomeReply(outcome, who, rollId, nextTable);
  const [embed, ...others] = reply.embeds ?? [];
  const link = linkToRequest(request);
  const followed = `After ${after ? `challenge roll \`${after}\`` : 'a failure that needed no dice'} (${link ? `[request #${request.id}](${link})` : `request #${request.id}`}).`;
  const embeds = embed ? [{ ...embed, description: `${followed}\n${embed.description ?? ''}`.slice(0, 4096) }, ...others] : [];
  return { ...reply, embeds };
}

/** The request's consequence roll if it was made and its message never reached the channel. */
async function lostConsequence(context: HandlerContext, request: StoredRollRequest): Promise<PostedResult[]> {
  const made = request.state.consequenceRoll;
  if (!made) return [];
  const roll = await context.store.rolls.find(context.guildId, made.rollId);
  if (!roll) return [];
  const inputs = roll.inputs as OutcomeRollResult['input'];
  const outcome = { ...(roll.result as Omit<OutcomeRollResult, 'input'>), input: inputs };
  const sheet = await context.store.operators.active({ guildId: context.guildId, ownerId: request.state.playerId }, 'tactalk');
  const payload = await consequenceMessage(context, request, outcome, roll.id, request.state.result?.operatorName ?? sheet?.name ?? 'The Operator', sheet?.id ?? null);
  return unposted(context, [{ rollId: roll.id, payload }]);
}

/** The id of a failure's Outcome Roll: derived from the challenge roll (or the request when no dice were rolled). */
export function consequenceRollId(guildId: string, requestId: number, challengeRollId: string | null): string {
  return derivedRollId(challengeRollId ?? `request:${guildId}:${requestId}`, 'consequence');
}

// ---- the Dispatcher's answer to an intent ------------------------------------------------------------------

/** What the Dispatcher typed in each field of the form, as typed. */
function typedFields(interaction: ComponentInteraction): Record<string, string> {
  const typed: Record<string, string> = {};
  if (!interaction.isModalSubmit()) return typed;
  for (const name of Object.values(CALL_FIELDS)) {
    try {
      typed[name] = interaction.fields.getTextInputValue(name);
    } catch {
      typed[name] = '';
    }
  }
  return typed;
}

/** The CL field: `120` shown, `?120` hidden; a linked roll may leave the number out (each part has its `vs`). */
function readChallengeLevel(text: string, linked: boolean): { level: number | undefined; hidden: boolean } {
  const match = /^\s*(\?)?\s*(\d{1,3})?\s*$/.exec(text);
  if (!match || (!linked && match[2] === undefined)) {
    throw new UserError('The Challenge Level is a whole number from 0 to 200, e.g. `120`; write `?120` to hide it from the player.');
  }
  return { level: match[2] === undefined ? undefined : Number(match[2]), hidden: match[1] === '?' };
}

/** Archetypes and one situational modifier, comma separated: `Acuity, Dexterity, -10`. */
function readAdds(text: string): { archetypes: string[]; situationalModifier: number } {
  const items = splitNameList(text.replace(/−/g, '-'));
  const numbers = items.filter((item) => /^[+-]?\s*\d+$/.test(item));
  if (numbers.length > 1) throw new UserError('Give at most one situational modifier, e.g. `Acuity, -10`.');
  return {
    archetypes: items.filter((item) => !numbers.includes(item)).map((name) => validName('archetype', name.replace(/^\+\s*/, ''))),
    situationalModifier: numbers.length ? Number(numbers[0]!.replace(/\s+/g, '')) : 0,
  };
}

async function callFromForm(typed: Record<string, string>, context: HandlerContext, request: StoredRollRequest): Promise<RollCall> {
  const text = (name: string) => (typed[name] ?? '').trim();
  const skillText = text(CALL_FIELDS.skill);
  const linked = /[;\n]/.test(skillText);
  const { level, hidden } = readChallengeLevel(typed[CALL_FIELDS.cl] ?? '', linked);
  const addsText = text(CALL_FIELDS.adds);
  let parts: LinkedRollPart[];
  if (linked) {
    if (addsText) throw new UserError('A linked roll names its archetypes and modifiers in each part, e.g. `Handgun Handling +Acuity -10 vs 90; Driving vs 110`; leave the archetypes field empty.');
    parts = parseLinkedRoll(skillText, level);
  } else {
    parts = [{ skill: validName('skill', skillText), ...readAdds(addsText), challengeLevel: level! }];
  }
  const consequence = text(CALL_FIELDS.consequence);
  const call: RollCall = {
    kind: linked ? 'linked' : 'challenge',
    parts,
    hidden,
    // The investigation table is found by name whenever the request is drawn (`investigationTableNow`).
    investigationTable: null,
    consequence: consequence === '' ? null : consequence,
    consequenceTable: await consequenceTableFor(context, typed[CALL_FIELDS.consequenceTable] ?? null),
  };
  await checkAgainstSheet(context, request.state.playerId, request.state.operatorName ?? undefined, call);
  return call;
}

/** What the Dispatcher typed, as words to copy: for a refusal whose form could not be kept to reopen. */
function typedBack(typed: Record<string, string>): string {
  const shown = (label: string, name: string) => {
    const value = (typed[name] ?? '').trim();
    // In inline code the text shows as typed; only a backtick could close it early.
    return value ? `${label}: \`${value.replace(/`/g, "'").replace(/\s+/g, ' ')}\`` : null;
  };
  return [
    shown('Skill', CALL_FIELDS.skill),
    shown('CL', CALL_FIELDS.cl),
    shown('Archetypes and modifier', CALL_FIELDS.adds),
    shown('If it fails', CALL_FIELDS.consequence),
    shown('Outcome table', CALL_FIELDS.consequenceTable),
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * Keeps what the Dispatcher typed in a refused form on the intent (its state, by compare-and-set), so *Fix the form*
 * reopens it as it was, from any process and after a restart: a custom_id holds 100 characters, the form up to about
 * 1,600, and the intent's row is where the form's other state already lives. False when the intent was answered meanwhile.
 */
async function keepDraft(context: HandlerContext, request: StoredRollRequest, actor: { userId: string; isDispatcher: boolean }, typed: Record<string, string>): Promise<boolean> {
  let current: StoredRollRequest | null = request;
  for (let attempt = 1; attempt <= 3 && current?.state.phase === 'stated'; attempt++) {
    if (await context.store.rollRequests.save(current, keepFormDraft(current.state, actor, typed))) return true;
    current = await context.store.rollRequests.find(context.guildId, request.id);
  }
  return false;
}

/** A link to the request's message, when it is known. */
function linkToRequest(request: Pick<StoredRollRequest, 'guildId' | 'channelId' | 'messageId'>): string | null {
  return request.messageId ? messageLink(request.guildId, request.channelId, request.messageId) : null;
}

/**
 * The Dispatcher's form, sent from the intent's message (`callform`) or reopened from the private note of a refusal
 * (`fixedform`, `onNote`: the press's own message is then that note, and the intent's message is edited in the channel).
 * Refused, it says why privately and keeps what was typed for *Fix the form*; nothing is posted.
 */
async function answerForm(interaction: ComponentInteraction, context: HandlerContext, request: StoredRollRequest, onNote: boolean): Promise<void> {
  const actor = { userId: context.userId, isDispatcher: await context.isDispatcher() };
  checkCallForRoll(request.state, actor);
  const typed = typedFields(interaction);
  let call: RollCall;
  try {
    call = await callFromForm(typed, context, request);
  } catch (error) {
    if (!(error instanceof UserError) || error instanceof RollRequestRefusal) throw error;
    const kept = await keepDraft(context, request, actor, typed);
    const note = callRefusedNote(request.id, userErrorText(error), kept ? null : typedBack(typed));
    await (onNote ? context.answer.update(note) : context.answer.reply({ ...note, flags: MessageFlags.Ephemeral }));
    return;
  }
  const saved = await context.store.rollRequests.save(request, callForRoll(request.state, actor, call));
  if (!saved) {
    const note = 'Another press got there first: this intent was answered meanwhile, nothing changed.';
    if (onNote) return void (await context.answer.update({ content: note, components: [], allowedMentions: NO_PINGS }));
    return void (await showStored(interaction, context, request.id, note));
  }
  const shown = requestMessage(await viewNow(context, saved));
  if (onNote) {
    // The note is this press's message; the intent's own message is edited in the channel.
    if (saved.messageId && interaction.channel?.isSendable()) await interaction.channel.messages.edit(saved.messageId, shown);
    const link = linkToRequest(saved);
    await context.answer.update({ content: `Called for the roll on ${link ? `[intent #${saved.id}](${link})` : `intent #${saved.id}`}.`, components: [], allowedMentions: NO_PINGS });
  } else {
    await context.answer.update(shown);
  }
  await announce(interaction, context, request.state.phase, saved);
}

/**
 * After a press changed a request, a NEW message says so where the channel is now (an edit, perhaps far up the
 * channel, notifies nobody), linking to the request: the player's turn when a Dispatcher answered their intent with a
 * roll (that ping is kept, and settled with the request), or what came of a request just settled. Pings only the
 * player, and only when it is their turn or someone else settled it for them. The request is saved and drawn
 * already: a notice that fails is logged, not answered as an error.
 */
async function announce(interaction: ComponentInteraction, context: HandlerContext, before: RollRequestState['phase'], saved: StoredRollRequest): Promise<void> {
  if (before === saved.state.phase) return;
  const link = linkToRequest(saved);
  const view = { id: saved.id, state: saved.state };
  try {
    if (saved.state.phase === 'open') {
      const ping = await context.answer.followUp(answeredPing(view, link));
      await keepPing(interaction, context, saved.id, ping.id);
      return;
    }
    const notice = settledNotice(view, before, link);
    if (notice) await context.answer.followUp(notice);
    if (saved.state.pingMessageId) await settlePing(interaction, saved, saved.state.pingMessageId);
  } catch (error) {
    context.log.warn({ err: error, requestId: saved.id }, 'a roll request’s notice could not be posted or settled');
  }
}

/** Records the ping on the request, so settling the request settles the ping; one settled meanwhile is settled now. */
async function keepPing(interaction: ComponentInteraction, context: HandlerContext, requestId: number, messageId: string): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const current = await context.store.rollRequests.find(context.guildId, requestId);
    if (!current) return;
    if (requestSettled(current.state)) return void (await settlePing(interaction, current, messageId));
    if (await context.store.rollRequests.save(current, notePing(current.state, messageId))) return;
  }
}

/** The ping that asked the player to choose, edited to say how the request was settled (pinging nobody). */
async function settlePing(interaction: ComponentInteraction, request: StoredRollRequest, messageId: string): Promise<void> {
  const channel = interaction.channel;
  if (!channel?.isSendable()) return;
  await channel.messages.edit(messageId, settledPing({ id: request.id, state: request.state }, linkToRequest(request)));
}

async function component(interaction: ComponentInteraction, { action: verb, requestId }: DispatchControl, context: HandlerContext): Promise<void> {
  const found = await context.store.rollRequests.find(context.guildId, requestId);
  if (!found) throw new UserError('This roll request no longer exists.');
  // Pressed on the private note of a refused form, not on the request's message.
  const onNote = verb === 'fixform' || verb === 'fixedform';
  // A press from its message proves the message is in the channel, even when the bot died before recording it.
  const request = !onNote && fromMessage(interaction) && interaction.message && !found.messageId ? await context.store.rollRequests.fillMessage(found, interaction.message.id) : found;
  const view = (state: RollRequestState) => ({ id: request.id, state });
  try {
    if (verb === 'details') {
      if (!(await context.isDispatcher())) throw new RollRequestRefusal('Only a Dispatcher can see the numbers of a hidden roll.', true);
      // The Dispatcher's press redraws a message that no longer shows what it would now (an investigation table added since).
      const shown = requestMessage(await viewNow(context, request));
      if (!showsStored(interaction, shown)) {
        await context.answer.update(shown);
        await context.answer.followUp(requestDetails(view(request.state)));
        return;
      }
      await context.answer.reply(requestDetails(view(request.state)));
      return;
    }
    if (verb === 'call' || verb === 'fixform') {
      if (interaction.isModalSubmit()) throw new UserError('A form cannot open another form.');
      // A dry run with the engine's own checks: only a Dispatcher, and only while the intent waits, gets the form.
      checkCallForRoll(request.state, { isDispatcher: await context.isDispatcher() });
      // Filled in with what this Dispatcher typed in a form that was refused, if anything.
      await context.answer.showModal(callModal(request.id, { typed: formDraftOf(request.state, context.userId), fixed: verb === 'fixform' }));
      return;
    }
    if (!fromMessage(interaction)) throw new UserError('This action comes from a button on the request.');
    if (verb === 'callform' || verb === 'fixedform') return void (await answerForm(interaction, context, request, onNote));
    let decided: Decided;
    if (verb === 'roll') decided = await roll(context, request);
    else if (verb === 'decline') decided = { state: declineRoll(request.state, context.userId) };
    else if (verb === 'investigate') decided = await investigate(context, request);
    else if (verb === 'consequence') decided = await rollConsequence(context, request);
    else if (verb === 'cancel') decided = { state: cancelRollRequest(request.state, await context.isDispatcher()) };
    else if (verb === 'withdraw') decided = { state: withdrawIntent(request.state, context.userId) };
    else decided = { state: grantWithoutRoll(request.state, { userId: context.userId, isDispatcher: await context.isDispatcher() }) };
    const saved = await context.store.rollRequests.save(request, decided.state, decided.roll);
    if (!saved) return void (await showStored(interaction, context, request.id, 'Another press got there first: this is already handled, nothing changed.'));
    if (decided.result) {
      // The roll is in the channel before the request says it was made: a lost post leaves its button for the next press.
      await context.answer.holdMessage();
      await postResult(interaction, context, decided.result);
    }
    await context.answer.update(requestMessage(await viewNow(context, saved)));
    if (decided.note) await context.answer.followUp(privateNote(decided.note));
    await announce(interaction, context, request.state.phase, saved);
  } catch (error) {
    if (error instanceof UserError) {
      // A Dispatcher-only step ends, as every such refusal does, with who is a Dispatcher here and who changes that.
      const text = error instanceof RollRequestRefusal && error.dispatcherOnly ? `${userErrorText(error)} ${await context.dispatcherRequirement()}` : userErrorText(error);
      // On the private note of a refused form, the note itself says why, and its button goes.
      if (onNote) return void (await context.answer.update({ content: `⚠️ ${text}`, components: [], allowedMentions: NO_PINGS }));
      // A step refused because it was made already may be one whose answer was lost: the message catches up.
      if (error instanceof RollRequestRefusal && !error.dispatcherOnly && verb !== 'details' && verb !== 'call') return void (await showStored(interaction, context, request.id, text));
      await context.answer.reply(privateNote(text));
      return;
    }
    throw error;
  }
}

/** A press refused: privately, and the request's message redrawn from the store if it lags behind, with a lost roll posted. */
async function showStored(interaction: ComponentInteraction, context: HandlerContext, requestId: number, note: string): Promise<void> {
  const current = await context.store.rollRequests.find(context.guildId, requestId);
  if (!current) return void (await context.answer.reply(privateNote(note)));
  await answerFromStore(interaction, context, requestMessage(await viewNow(context, current)), note, await lostConsequence(context, current));
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  if (focused.name === 'skill' || focused.name === 'archetypes') return interaction.respond(await playerSheetChoices(interaction, context, focused.name, String(focused.value)));
  const names = focused.name === 'investigation' || focused.name === 'consequence-table' ? await context.store.tables.names(context.guildId) : [];
  await interaction.respond(nameChoices(names, String(focused.value)));
}

/** The skills or archetypes of the named player's Tac Talk sheet, for a Dispatcher; how to make one when they have none. */
async function playerSheetChoices(interaction: AutocompleteInteraction, context: HandlerContext, option: 'skill' | 'archetypes', typed: string) {
  const playerId = interaction.options.get('player')?.value;
  if (typeof playerId !== 'string' || !(await context.isDispatcher())) return [];
  const sheet = await context.store.operators.active({ guildId: context.guildId, ownerId: playerId }, 'tactalk');
  if (!sheet) return noSheetChoice('tactalk');
  return skillOrArchetypeChoices(sheet, option, typed);
}

/** Only *Call for a roll* and *Fix the form* answer with a form. */
const mayOpenForm = (control: DispatchControl): boolean => control.action === 'call' || control.action === 'fixform';

export const dispatchCommand = defineCommand<DispatchControl>({
  name: 'dispatch',
  description: 'Dispatcher: call for a player’s roll, saying what it is for and what failing costs',
  systems: ['tactalk'],
  subcommands: [
    {
      name: 'challenge',
      build: (sub) =>
        sub
          .setDescription('Call for a challenge roll, the CL shown or hidden; the player takes it or declines')
          .addUserOption((o) => o.setName('player').setDescription('Who rolls').setRequired(true))
          .addStringOption((o) => o.setName('skill').setDescription("The skill tested, from the player's Tac Talk sheet").setRequired(true).setAutocomplete(true))
          .addIntegerOption((o) => o.setName('cl').setDescription('The Challenge Level, 0–200').setRequired(true))
          .addStringOption((o) => o.setName('intent').setDescription('What the Operator tries, e.g. scale the wall to the 3rd-floor balcony').setRequired(true).setMaxLength(ROLL_REQUEST_LIMITS.intentLength))
          .addStringOption((o) => o.setName('outcome').setDescription('What happens if it works').setRequired(true).setMaxLength(ROLL_REQUEST_LIMITS.outcomeLength))
          .addStringOption((o) => o.setName('consequence').setDescription('What failing costs, in words (default: it does not happen)').setMaxLength(ROLL_REQUEST_LIMITS.consequenceLength))
          .addStringOption((o) => o.setName('consequence-table').setDescription('An outcome table the player rolls on if it fails').setAutocomplete(true))
          .addStringOption((o) => o.setName('archetypes').setDescription('Archetype modifiers to add, comma separated').setAutocomplete(true))
          .addIntegerOption((o) => o.setName('modifier').setDescription('A situational modifier'))
          .addBooleanOption((o) => o.setName('hidden').setDescription('Hide the CL from the player (default: shown)'))
          .addBooleanOption((o) => o.setName('blind').setDescription('The player rolls blind: no CL, no odds, and only Dispatchers see the result'))
          .addStringOption((o) =>
            o.setName('investigation').setDescription('The investigation table (default: "Investigation: <skill>", else "Investigation")').setAutocomplete(true),
          ),
      run: (interaction, context) => dispatchRoll(interaction, context, 'challenge'),
      requires: { dispatcher: 'call for rolls' },
      help: {
        audience: 'dispatcher',
        example: '/dispatch challenge player:@Mike skill:Climbing cl:90 intent:scale the wall outcome:reach the balcony unseen consequence:the guard hears you',
      },
    },
    {
      name: 'linked',
      build: (sub) =>
        sub
          .setDescription('Call for a linked roll (no investigation); the player takes it or declines')
          .addUserOption((o) => o.setName('player').setDescription('Who rolls').setRequired(true))
          .addStringOption((o) => o.setName('rolls').setDescription('e.g. Handgun Handling +Acuity vs 90; Driving vs 110').setRequired(true))
          .addStringOption((o) => o.setName('intent').setDescription('What the Operator tries').setRequired(true).setMaxLength(ROLL_REQUEST_LIMITS.intentLength))
          .addStringOption((o) => o.setName('outcome').setDescription('What happens if it works').setRequired(true).setMaxLength(ROLL_REQUEST_LIMITS.outcomeLength))
          .addStringOption((o) => o.setName('consequence').setDescription('What failing (any part) costs, in words').setMaxLength(ROLL_REQUEST_LIMITS.consequenceLength))
          .addStringOption((o) => o.setName('consequence-table').setDescription('An outcome table the player rolls on if any part fails').setAutocomplete(true))
          .addIntegerOption((o) => o.setName('cl').setDescription('One CL for every part without its own `vs`'))
          .addBooleanOption((o) => o.setName('hidden').setDescription('Hide the CLs from the player (default: shown)'))
          .addBooleanOption((o) => o.setName('blind').setDescription('The player rolls blind: no CLs, no odds, and only Dispatchers see the results')),
      run: (interaction, context) => dispatchRoll(interaction, context, 'linked'),
      requires: { dispatcher: 'call for rolls' },
      help: {
        audience: 'dispatcher',
        example: '/dispatch linked player:@Mike rolls:Driving vs 90; Handgun Handling vs 110 intent:shoot from the car outcome:the tyre bursts',
      },
    },
  ],
  autocomplete,
  ids: dispatchIds,
  component,
  mayOpenForm,
});
