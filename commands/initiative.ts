/**
 * /initiative: one tracker per channel for a tactical scene, fed by each system's own initiative rule (seed 002:
 * melee by a fixed ability value, a chase by position, a debate by an ability check; seed 004: a d10 pool rolled
 * again each phase, declared lowest to highest). Posted as one message that is updated; whoever must act is named,
 * and the player whose turn it has become is pinged (NPCs never are).
 * Who may do what: a Dispatcher starts, ends, begins, adds / removes / sets NPCs and anyone's entry; a player joins
 * and leaves with their own active sheet (of the tracker's system); Next and Previous are the Dispatcher's and the
 * player's whose turn it is. Ending asks first, privately, from `/initiative end` and the tracker's End alike
 * (askToEnd). Every refusal is private.
 */
import type { AutocompleteInteraction, ChatInputCommandInteraction, SlashCommandSubcommandBuilder } from 'discord.js';
import { defineCommand, rolledBy, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { answerFromStore } from '../src/discord/stored-message.js';
import { UserError } from '../src/errors.js';
import {
  addCombatant,
  beginRolledCycle,
  changeInitiative,
  checkCanJoin,
  currentCombatant,
  findCombatant,
  manualRule,
  markCycle,
  newTracker,
  nextTurn,
  playerKey,
  previousTurn,
  removeCombatant,
  ruleOf,
  INITIATIVE_RULES,
  MANUAL_SYSTEMS,
  type Combatant,
  type InitiativeMark,
  type InitiativeRule,
  type InitiativeSource,
  type TrackerState,
} from '../src/engine/initiative.js';
import { checkName, nameKey, NAME_LENGTH_MAX } from '../src/engine/names.js';
import { seededRng } from '../src/engine/rng.js';
import { isSystemId, systemName } from '../src/engine/systems/index.js';
import { initiativePool, phaseInitiativeDice, rollPhaseInitiative, type InitiativePool } from '../src/engine/systems/d10-pool/initiative.js';
import { parseDieCode } from '../src/engine/systems/result-points/die-code.js';
import { chasePosition, debateInitiativeDice, meleeValue, rollDebateInitiative } from '../src/engine/systems/result-points/initiative.js';
import type { StoredTracker } from '../src/store/initiatives.js';
import type { RollEntry } from '../src/store/rolls.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { escapeMarkdown } from '../src/views/format.js';
import { endPrompt, endedMessage, initiativeIds, initiativeText, messageLink, movedMessage, ruleTitle, trackerMessage, turnPing, type EndPromptPress, type InitiativeControl, type TrackerPress, type TrackerView } from '../src/views/initiative.js';
import { NO_PINGS } from '../src/views/limits.js';
import { privateNote, userErrorText } from '../src/views/messages.js';

/** The rules /initiative start offers: seed 002's three scenes, seed 004's phases, and a manual order for the rest. */
const START_CHOICES = [
  { name: 'Die codes: melee (a fixed ability value, highest first)', value: 'melee' },
  { name: 'Die codes: chase (position, set by the Dispatcher)', value: 'chase' },
  { name: 'Die codes: debate (an ability check, rolled)', value: 'debate' },
  { name: 'd10 pools: rolled each phase, declared lowest to highest', value: 'd10-phase' },
  ...MANUAL_SYSTEMS.map((system) => ({ name: `Manual order: ${systemName(system)}`, value: `manual:${system}` })),
];

/** Manual and melee values: a whole number in this range. */
const ORDER_VALUE_LIMIT = 999;

const VALUE_HELP = 'melee: die code or value · chase: position · debate: die code · d10: pool dice · manual: a number';

/** The initiative value and the d10 pools' modifier, as a player joining and a Dispatcher adding an NPC give them. */
function valueOptions(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return sub
    .addStringOption((o) => o.setName('value').setDescription(VALUE_HELP).setMaxLength(20))
    .addIntegerOption((o) => o.setName('modifier').setDescription('d10 pools: added to the initiative pool').setMinValue(-50).setMaxValue(50));
}

// ---- the rule's numbers -------------------------------------------------------------------------------------------

function ruleFromChoice(choice: string): InitiativeRule {
  if (choice.startsWith('manual:')) {
    const system = choice.slice('manual:'.length);
    if (isSystemId(system) && MANUAL_SYSTEMS.includes(system)) return manualRule(system);
  }
  const rule = INITIATIVE_RULES.find((candidate) => candidate.id === choice);
  if (!rule) throw new UserError('Pick one of the offered rules.');
  return rule;
}

function orderValue(text: string): number {
  const trimmed = text.trim();
  const value = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isInteger(value) || Math.abs(value) > ORDER_VALUE_LIMIT) {
    throw new UserError(`An order value is a whole number from −${ORDER_VALUE_LIMIT} to ${ORDER_VALUE_LIMIT}; \`${trimmed.slice(0, 20)}\` is not.`);
  }
  return value;
}

/** The next chase position at the back: behind everyone. */
function backOfTheChase(state: TrackerState): number {
  const positions = state.combatants.flatMap((combatant) => (combatant.source.kind === 'position' ? [combatant.source.position] : []));
  return Math.min(99, Math.max(0, ...positions) + 1);
}

/**
 * Where a combatant's initiative comes from, from what was typed, as the tracker's rule reads it. `byPlayer`: a
 * player joining, who may not pick a chase position (the Dispatcher gives it).
 */
function sourceFrom(state: TrackerState, value: string | null, modifier: number | null, byPlayer: boolean): InitiativeSource {
  const rule = ruleOf(state);
  const typed = value?.trim() ? value : null;
  if (modifier !== null && rule.id !== 'd10-phase') throw new UserError('`modifier` is for d10 initiative pools only. A die code carries its own pips (e.g. `3D+2`).');
  if (rule.id === 'chase') {
    if (typed && byPlayer) throw new UserError('In a chase the Dispatcher sets positions: join without a value (you start at the back).');
    return { kind: 'position', position: typed ? chasePosition(typed) : backOfTheChase(state) };
  }
  if (!typed) {
    const wanted: Record<string, string> = {
      melee: 'the fixed value of the ability: its die code (e.g. `4D+1`, counted 3 × 4 + 1 = 13) or the value',
      debate: 'the die code of the ability checked (e.g. `3D+2`), which is rolled',
      'd10-phase': 'the initiative pool: how many d10 (e.g. `3`), with `modifier` for what is added',
      manual: 'an order value (a whole number; highest acts first)',
    };
    throw new UserError(`Give \`value\`: ${wanted[rule.id] ?? 'the initiative'}.`);
  }
  switch (rule.id) {
    case 'melee': {
      const melee = meleeValue(typed);
      return { kind: 'value', value: melee.value, code: melee.code };
    }
    case 'debate':
      return { kind: 'code', code: parseDieCode(typed, 'ability’s die code') };
    case 'd10-phase': {
      const pool = initiativePool('', typed, modifier ?? 0);
      return { kind: 'pool', dice: pool.dice, modifier: pool.modifier };
    }
    default:
      return { kind: 'value', value: orderValue(typed), code: null };
  }
}

const poolOf = (combatant: Pick<Combatant, 'name' | 'source'>): InitiativePool => {
  if (combatant.source.kind !== 'pool') throw new Error('a d10 tracker holds pools only');
  return { name: combatant.name, dice: combatant.source.dice, modifier: combatant.source.modifier };
};

/** A roll saved with the tracker's state that shows it (one transaction), under the id the tracker shows. */
function initiativeEntry(context: HandlerContext, tracker: StoredTracker, kind: 'code-initiative' | 'd10-initiative', inputs: object, seed: string, dice: number[][], result: unknown, total: number | null, npc?: string): RollEntry {
  return context.store.rolls.entry(context.store.rolls.newId(), {
    ...rolledBy(context),
    kind,
    system: kind === 'code-initiative' ? 'result-points' : 'd10-pool',
    inputs: { ...inputs, tracker: tracker.id },
    seed,
    dice,
    result,
    total,
    challengeLevel: null,
    success: null,
    ...(npc !== undefined ? { npc } : {}),
  });
}

/** A new combatant's initiative: the value given, or (debate, d10) their roll, made now and saved with the join. */
function joinInitiative(context: HandlerContext, tracker: StoredTracker, name: string, source: InitiativeSource, npc: boolean): { mark: Omit<InitiativeMark, 'cycle'>; roll?: RollEntry } {
  if (source.kind === 'value') return { mark: { total: source.value, dice: null, rollId: null } };
  if (source.kind === 'position') return { mark: { total: source.position, dice: null, rollId: null } };
  const seed = context.newSeed();
  if (source.kind === 'code') {
    const input = { entries: [{ name, code: source.code }] };
    const result = rollDebateInitiative(input, seededRng(seed));
    const total = result.entries[0]!.roll.total;
    const roll = initiativeEntry(context, tracker, 'code-initiative', input, seed, debateInitiativeDice(result), result, total, npc ? name : undefined);
    return { mark: { total, dice: debateInitiativeDice(result), rollId: roll.id }, roll };
  }
  const input = { phase: markCycle(tracker.state), entries: [poolOf({ name, source })] };
  const result = rollPhaseInitiative(input, seededRng(seed));
  const total = result.entries[0]!.total;
  const roll = initiativeEntry(context, tracker, 'd10-initiative', input, seed, phaseInitiativeDice(result), result, total, npc ? name : undefined);
  return { mark: { total, dice: phaseInitiativeDice(result), rollId: roll.id }, roll };
}

/** Seed 004: everyone's Initiative rolled again at the beginning of a phase, in the order they joined. */
function phaseRoll(context: HandlerContext, tracker: StoredTracker, phase: number): { state: TrackerState; roll?: RollEntry } {
  const combatants = tracker.state.combatants;
  if (combatants.length === 0) return { state: beginRolledCycle(tracker.state, phase, new Map()) };
  const seed = context.newSeed();
  const input = { phase, entries: combatants.map(poolOf) };
  const result = rollPhaseInitiative(input, seededRng(seed));
  const dice = phaseInitiativeDice(result);
  const roll = initiativeEntry(context, tracker, 'd10-initiative', input, seed, dice, result, null);
  const marks = new Map(combatants.map((combatant, index) => [combatant.key, { total: result.entries[index]!.total, dice: [dice[index]!], rollId: roll.id }]));
  return { state: beginRolledCycle(tracker.state, phase, marks), roll };
}

// ---- loading, saving, showing ---------------------------------------------------------------------------------------

const viewOf = (tracker: StoredTracker): TrackerView => ({ id: tracker.id, version: tracker.version, state: tracker.state });

async function trackerHere(context: HandlerContext): Promise<StoredTracker> {
  const tracker = await context.store.initiatives.inChannel(context.guildId, context.channelId);
  if (!tracker) throw new UserError('No initiative is open in this channel. A Dispatcher starts one with `/initiative start`.');
  return tracker;
}

/** A decided change: the new state, the roll it shows, and what to tell whoever asked. */
interface Decided {
  state: TrackerState;
  roll?: RollEntry;
  note: string;
}

/**
 * A slash command's change: load the channel's tracker, decide, save; if a press got in between, decide again on
 * the new state (a roll of the lost attempt was never stored: it is saved with the state or not at all).
 */
async function changeTracker(context: HandlerContext, decide: (tracker: StoredTracker) => Promise<Decided> | Decided): Promise<{ before: StoredTracker; saved: StoredTracker; decided: Decided }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await trackerHere(context);
    const decided = await decide(before);
    const saved = await context.store.initiatives.save(before, decided.state, decided.roll);
    if (saved) return { before, saved, decided };
  }
  throw new UserError('The initiative kept changing while this was being saved. Please try again.');
}

/** Redraws the tracker's message after a slash command changed it; a sentence for the user when that failed. */
async function redraw(interaction: ChatInputCommandInteraction, context: HandlerContext, tracker: StoredTracker): Promise<string> {
  if (!tracker.messageId) return ' (The tracker has no message yet: `/initiative show` posts it.)';
  try {
    const channel = interaction.channel;
    if (!channel?.isTextBased()) throw new Error('not a text channel');
    await channel.messages.edit(tracker.messageId, trackerMessage(viewOf(tracker)));
    return '';
  } catch (error) {
    context.log.warn({ err: error, trackerId: tracker.id }, 'could not redraw an initiative tracker');
    return ' (Its message could not be updated, perhaps it was deleted: `/initiative show` posts it again.)';
  }
}

/** After a change that moved the turn: the player whose turn it has become is pinged (a new message: edits do not ping). */
function movedTurn(before: TrackerState, after: TrackerState): boolean {
  return after.turn !== null && (after.turn !== before.turn || after.cycle !== before.cycle);
}

async function answerChange(interaction: ChatInputCommandInteraction, context: HandlerContext, change: { before: StoredTracker; saved: StoredTracker; decided: Decided }): Promise<void> {
  const trouble = await redraw(interaction, context, change.saved);
  await context.answer.reply(privateNote(change.decided.note + trouble));
  const ping = movedTurn(change.before.state, change.saved.state) ? turnPing(change.saved.state) : null;
  if (ping) await context.answer.followUp(ping);
}

// ---- the subcommands ------------------------------------------------------------------------------------------------
// Those only a Dispatcher runs say so in their declaration (`requires`, below): the router refuses before they run.

async function start(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const rule = ruleFromChoice(interaction.options.getString('rule', true));
  const started = await context.store.initiatives.start(context.guildId, context.channelId, newTracker(rule, context.userId));
  if ('open' in started) {
    const open = started.open;
    const where = open.messageId ? `: ${messageLink(open.guildId, open.channelId, open.messageId)}` : '';
    throw new UserError(
      `An initiative (#${open.id}, ${ruleTitle(open.state)}) is already open in this channel${where}. One channel holds one: end it first (**End** on it, or \`/initiative end\`), or post it again lower down with \`/initiative show\`.`,
    );
  }
  const tracker = started.created;
  const messageId = await context.answer.replyWithMessageId(trackerMessage(viewOf(tracker)));
  if (messageId) await context.store.initiatives.setMessage(tracker, messageId);
}

async function join(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const value = interaction.options.getString('value');
  const modifier = interaction.options.getInteger('modifier');
  const change = await changeTracker(context, async (tracker) => {
    const { state } = tracker;
    if (!isSystemId(state.system)) throw new UserError(`This initiative is for ${systemName(state.system)}, which this bot no longer knows; a Dispatcher ends it with \`/initiative end\`.`);
    // The player joins with their active sheet of the tracker's system, whatever else is active.
    const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, state.system, { command: '/initiative join' });
    const entry = { key: playerKey(context.userId), name: sheet.name, playerId: context.userId };
    checkCanJoin(state, entry);
    const source = sourceFrom(state, value, modifier, true);
    const { mark, roll } = joinInitiative(context, tracker, sheet.name, source, false);
    const next = addCombatant(state, { ...entry, sheetId: sheet.id, source, ...mark });
    const joined = findCombatant(next, entry.key)!;
    return { state: next, roll, note: `**${escapeMarkdown(sheet.name)}** joined the initiative: ${initiativeText(joined, joined.marks[0]!)}.${roll ? ` Roll ${roll.id}.` : ''}` };
  });
  await answerChange(interaction, context, change);
}

async function leave(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const change = await changeTracker(context, (tracker) => {
    const mine = findCombatant(tracker.state, playerKey(context.userId));
    if (!mine) throw new UserError('You are not in this initiative.');
    return { state: removeCombatant(tracker.state, mine.key), note: `**${escapeMarkdown(mine.name)}** left the initiative.` };
  });
  await answerChange(interaction, context, change);
}

async function npc(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const name = checkName('NPC', interaction.options.getString('name', true));
  const value = interaction.options.getString('value');
  const modifier = interaction.options.getInteger('modifier');
  const change = await changeTracker(context, (tracker) => {
    const entry = { key: `npc:${nameKey(name)}`, name, playerId: null };
    checkCanJoin(tracker.state, entry);
    const source = sourceFrom(tracker.state, value, modifier, false);
    const { mark, roll } = joinInitiative(context, tracker, name, source, true);
    const next = addCombatant(tracker.state, { ...entry, sheetId: null, source, ...mark });
    const added = findCombatant(next, entry.key)!;
    return { state: next, roll, note: `NPC **${escapeMarkdown(name)}** added: ${initiativeText(added, added.marks[0]!)}.${roll ? ` Roll ${roll.id}.` : ''}` };
  });
  await answerChange(interaction, context, change);
}

function combatantNamed(state: TrackerState, typed: string): Combatant {
  const key = nameKey(typed);
  const found = state.combatants.find((combatant) => nameKey(combatant.name) === key);
  if (!found) {
    const names = state.combatants.map((combatant) => `**${escapeMarkdown(combatant.name)}**`);
    throw new UserError(`Nobody named **${escapeMarkdown(typed.trim().slice(0, NAME_LENGTH_MAX))}** is in this initiative.${names.length ? ` In it: ${names.join(', ')}.` : ''}`);
  }
  return found;
}

async function remove(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const typed = interaction.options.getString('name', true);
  const change = await changeTracker(context, (tracker) => {
    const combatant = combatantNamed(tracker.state, typed);
    return { state: removeCombatant(tracker.state, combatant.key), note: `**${escapeMarkdown(combatant.name)}** is out of the initiative.` };
  });
  await answerChange(interaction, context, change);
}

async function set(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const typed = interaction.options.getString('name', true);
  const value = interaction.options.getString('value', true);
  const change = await changeTracker(context, (tracker) => {
    const combatant = combatantNamed(tracker.state, typed);
    if (ruleOf(tracker.state).rolled !== 'never') throw new UserError('Rolled initiative cannot be set: remove the combatant and add them again to roll anew.');
    const source = sourceFrom(tracker.state, value, null, false);
    const total = source.kind === 'position' ? source.position : source.kind === 'value' ? source.value : 0;
    const next = changeInitiative(tracker.state, combatant.key, source, total);
    const changed = findCombatant(next, combatant.key)!;
    return { state: next, note: `**${escapeMarkdown(combatant.name)}**: ${initiativeText(changed, changed.marks[0]!)}.` };
  });
  await answerChange(interaction, context, change);
}

async function show(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const tracker = await trackerHere(context);
  if (!findCombatant(tracker.state, playerKey(context.userId)) && !(await context.isDispatcher())) {
    throw new UserError(`Only a Dispatcher or someone in this initiative can post it again. ${await context.dispatcherRequirement()}`);
  }
  const messageId = await context.answer.replyWithMessageId(trackerMessage(viewOf(tracker)));
  if (!messageId) return;
  const old = tracker.messageId;
  await context.store.initiatives.setMessage(tracker, messageId);
  if (old && old !== messageId) {
    try {
      const channel = interaction.channel;
      if (channel?.isTextBased()) await channel.messages.edit(old, movedMessage(viewOf(tracker), messageLink(context.guildId, context.channelId, messageId)));
    } catch (error) {
      context.log.debug({ err: error }, 'the old initiative message could not be marked as moved');
    }
  }
}

/**
 * Ending asks first, privately: the one prompt (endPrompt) of `/initiative end` and of the tracker's own End button,
 * so a mis-tap loses nothing. Its End the initiative ends the tracker (answerEndPrompt); Keep it changes nothing.
 */
async function askToEnd(context: HandlerContext, tracker: StoredTracker): Promise<void> {
  await context.answer.reply(endPrompt(viewOf(tracker), context.userId));
}

async function end(_interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  await askToEnd(context, await trackerHere(context));
}

/**
 * The prompt's End: the tracker as it stands now is ended (a turn moved since the prompt is no reason to keep it),
 * its message shows the last order with no buttons, and the prompt says so. Keep it: the prompt goes, nothing else.
 * The prompt's buttons are pressed on the prompt itself (a button on its message, as every control: its origin).
 */
async function answerEndPrompt(interaction: ComponentInteraction, press: EndPromptPress, context: HandlerContext): Promise<void> {
  if (press.action === 'keep') {
    await context.answer.update({ content: `Kept: initiative #${press.trackerId} goes on. Nothing was changed.`, components: [], allowedMentions: NO_PINGS });
    return;
  }
  if (press.askerId !== context.userId) {
    await context.answer.reply(privateNote('Only the Dispatcher who asked to end it can confirm it. Nothing was changed.'));
    return;
  }
  await context.requireDispatcher('end the initiative');
  for (let attempt = 0; attempt < 3; attempt++) {
    const tracker = await context.store.initiatives.find(context.guildId, press.trackerId);
    if (!tracker) {
      await context.answer.update({ content: `Initiative #${press.trackerId} has already ended. Nothing was changed.`, components: [], allowedMentions: NO_PINGS });
      return;
    }
    if (!(await context.store.initiatives.end(tracker))) continue;
    let trouble = '';
    if (tracker.messageId) {
      try {
        const channel = interaction.channel;
        if (channel?.isTextBased()) await channel.messages.edit(tracker.messageId, endedMessage(viewOf(tracker)));
      } catch (error) {
        context.log.debug({ err: error }, 'the ended initiative message could not be updated');
        trouble = ' (Its message could not be updated.)';
      }
    }
    await context.answer.update({ content: `Initiative #${tracker.id} ended.${trouble}`, components: [], allowedMentions: NO_PINGS });
    return;
  }
  throw new UserError('The initiative kept changing while this was being ended; press **End the initiative** again.');
}

// ---- the buttons ----------------------------------------------------------------------------------------------------

/** Next and Previous: the Dispatcher's, and the player's whose turn it is. Begin and End (asking to end): the Dispatcher's. */
async function checkMayPress(context: HandlerContext, state: TrackerState, verb: TrackerPress['action']): Promise<void> {
  if (await context.isDispatcher()) return;
  const current = currentCombatant(state);
  if (verb === 'end') throw new UserError(`Only a Dispatcher can end the initiative. ${await context.dispatcherRequirement()}`);
  if (state.cycle === 0) throw new UserError(`Only a Dispatcher can begin the initiative. ${await context.dispatcherRequirement()}`);
  if (current?.playerId === context.userId) return;
  const whose = current ? `It is **${escapeMarkdown(current.name)}**’s turn` : 'Everyone has acted';
  throw new UserError(`${whose}: only ${current?.playerId ? 'that player or ' : ''}a Dispatcher can move the initiative on.`);
}

async function component(interaction: ComponentInteraction, control: InitiativeControl, context: HandlerContext): Promise<void> {
  try {
    if (!interaction.isButton()) throw new UserError('This action comes from a button.');
    if (control.action === 'confirm-end' || control.action === 'keep') return await answerEndPrompt(interaction, control, context);
    const { action: verb, trackerId, version } = control;
    const tracker = await context.store.initiatives.find(context.guildId, trackerId);
    // Ended (perhaps by a press whose answer was lost): its message keeps no live buttons.
    if (!tracker) return void (await answerFromStore(interaction, context, { components: [] }, 'This initiative has ended (or is not one of this server’s).'));
    if (tracker.messageId && interaction.message.id !== tracker.messageId) {
      throw new UserError(`This is an old copy of the initiative; use the one here: ${messageLink(tracker.guildId, tracker.channelId, tracker.messageId)}`);
    }
    await checkMayPress(context, tracker.state, verb);
    if (verb === 'end') {
      // Asks first, privately, whatever was drawn (the prompt says where the tracker stands now); nothing changes yet.
      // A tracker not yet tied to its message is tied to this one, so that ending it updates it.
      await askToEnd(context, tracker.messageId ? tracker : await context.store.initiatives.setMessage(tracker, interaction.message.id));
      return;
    }
    if (version !== tracker.version) {
      // Drawn before the last change (a double click, a join, an answer that was lost): shown as it stands, nothing moved.
      const note = 'The initiative had changed since this was drawn, so nothing moved: press again if you still mean it.';
      return void (await answerFromStore(interaction, context, trackerMessage(viewOf(tracker)), note));
    }
    let decided: { state: TrackerState; roll?: RollEntry };
    if (verb === 'previous') decided = { state: previousTurn(tracker.state) };
    else {
      const stepped = nextTurn(tracker.state);
      decided = 'state' in stepped ? { state: stepped.state } : phaseRoll(context, tracker, stepped.rollFor);
    }
    const saved = await context.store.initiatives.save(tracker, decided.state, decided.roll);
    if (!saved) throw new UserError('Another press got there first; nothing changed.');
    const stored = tracker.messageId ? saved : await context.store.initiatives.setMessage(saved, interaction.message.id);
    await context.answer.update(trackerMessage(viewOf(stored)));
    const ping = movedTurn(tracker.state, saved.state) ? turnPing(saved.state) : null;
    if (ping) await context.answer.followUp(ping);
  } catch (error) {
    if (error instanceof UserError && !interaction.replied && !interaction.deferred) {
      await context.answer.reply(privateNote(userErrorText(error)));
      return;
    }
    throw error;
  }
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const tracker = focused.name === 'name' ? await context.store.initiatives.inChannel(context.guildId, context.channelId) : null;
  await interaction.respond(nameChoices(tracker?.state.combatants.map((combatant) => combatant.name) ?? [], String(focused.value)));
}

export const initiativeCommand = defineCommand<InitiativeControl>({
  name: 'initiative',
  description: 'An initiative tracker for a tactical scene in this channel',
  subcommands: [
    {
      name: 'start',
      build: (sub) =>
        sub
          .setDescription('Dispatcher: open the initiative tracker in this channel')
          .addStringOption((o) => o.setName('rule').setDescription('The system and scene: whose initiative rule orders it').setRequired(true).addChoices(...START_CHOICES)),
      run: start,
      requires: { dispatcher: 'start an initiative' },
      help: { audience: 'dispatcher', example: '/initiative start rule:d10-phase' },
    },
    {
      name: 'join',
      build: (sub) => valueOptions(sub.setDescription('Join with your active sheet')),
      run: join,
      help: { audience: 'player', example: '/initiative join value:5' },
    },
    {
      name: 'leave',
      build: (sub) => sub.setDescription('Leave the initiative (your own entry)'),
      run: leave,
      help: { audience: 'player', example: '/initiative leave' },
    },
    {
      name: 'npc',
      build: (sub) =>
        valueOptions(
          sub.setDescription('Dispatcher: add an NPC').addStringOption((o) => o.setName('name').setDescription('The NPC’s name').setRequired(true).setMaxLength(NAME_LENGTH_MAX * 2)),
        ),
      run: npc,
      requires: { dispatcher: 'add NPCs to the initiative' },
      help: { audience: 'dispatcher', example: '/initiative npc name:Thug value:4' },
    },
    {
      name: 'remove',
      build: (sub) =>
        sub
          .setDescription('Dispatcher: take a combatant out')
          .addStringOption((o) => o.setName('name').setDescription('Who').setRequired(true).setAutocomplete(true)),
      run: remove,
      requires: { dispatcher: 'take combatants out of the initiative', advice: 'A player leaves with `/initiative leave`.' },
      help: { audience: 'dispatcher', example: '/initiative remove name:Thug' },
    },
    {
      name: 'set',
      build: (sub) =>
        sub
          .setDescription('Dispatcher: change a combatant’s value or chase position (not rolled initiative)')
          .addStringOption((o) => o.setName('name').setDescription('Who').setRequired(true).setAutocomplete(true))
          .addStringOption((o) => o.setName('value').setDescription('melee: die code or value · chase: position · manual: order value').setRequired(true).setMaxLength(20)),
      run: set,
      requires: { dispatcher: 'change initiative values' },
      help: { audience: 'dispatcher', example: '/initiative set name:Thug value:12' },
    },
    {
      name: 'show',
      build: (sub) => sub.setDescription('Post the tracker again at the bottom of the channel'),
      run: show,
      help: { audience: 'player', example: '/initiative show' },
    },
    {
      name: 'end',
      build: (sub) => sub.setDescription('Dispatcher: end the initiative in this channel (asks to confirm)'),
      run: end,
      requires: { dispatcher: 'end the initiative' },
      help: { audience: 'dispatcher', example: '/initiative end' },
    },
  ],
  autocomplete,
  ids: initiativeIds,
  component,
});
