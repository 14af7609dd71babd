/**
 * /dispatch: a Dispatcher asks a player for a roll (RULES 1.5). The request is posted for the table; only that
 * player can press *Roll* (it rolls from their active sheet) or, for a hidden CL, *Investigate* first. A hidden
 * CL never reaches the public message, a custom_id or a footer: the Dispatcher reads it with *Numbers*.
 */
import { InteractionContextType, SlashCommandBuilder, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { rolledBy, type BotCommand, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import { cleanName } from '../src/engine/names.js';
import { challengeDice, linkedDice, outcomeDice } from '../src/engine/replay.js';
import { seededRng } from '../src/engine/rng.js';
import { findSkill, splitNameList, validName } from '../src/engine/sheet.js';
import { resolveChallenge, resolveLinkedChallenge, validateChallengeInput, type ChallengeInput } from '../src/engine/systems/tactalk/challenge.js';
import { challengeFromSheet } from '../src/engine/systems/tactalk/from-sheet.js';
import { parseLinkedRoll, type LinkedRollPart } from '../src/engine/systems/tactalk/linked-notation.js';
import {
  RollRequestRefusal,
  cancelRollRequest,
  checkInvestigation,
  checkRoll,
  newRollRequest,
  recordInvestigation,
  recordRoll,
  type RollRequestState,
} from '../src/engine/systems/tactalk/roll-request.js';
import { resolveOutcomeRoll, revealChallengeLevel } from '../src/engine/tables.js';
import type { StoredRollRequest } from '../src/store/roll-requests.js';
import { newRollId, type RollEntry } from '../src/store/rolls.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { privateNote } from '../src/views/messages.js';
import { investigationNote, requestDetails, requestMessage, requestOpening } from '../src/views/roll-request.js';

const data = new SlashCommandBuilder()
  .setName('dispatch')
  .setDescription('Dispatcher: ask a player for a roll')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((sub) =>
    sub
      .setName('challenge')
      .setDescription('Ask a player for a challenge roll, the CL shown or hidden')
      .addUserOption((o) => o.setName('player').setDescription('Who rolls').setRequired(true))
      .addStringOption((o) => o.setName('skill').setDescription('The skill tested').setRequired(true))
      .addIntegerOption((o) => o.setName('cl').setDescription('The Challenge Level, 0–200').setRequired(true))
      .addStringOption((o) => o.setName('archetypes').setDescription('Archetype modifiers to add, comma separated'))
      .addIntegerOption((o) => o.setName('modifier').setDescription('A situational modifier'))
      .addBooleanOption((o) => o.setName('hidden').setDescription('Hide the CL from the player (default: shown)'))
      .addStringOption((o) =>
        o.setName('investigation').setDescription('The investigation table (default: "Investigation: <skill>" if it exists)').setAutocomplete(true),
      ),
  )
  .addSubcommand((sub) =>
    sub
      .setName('linked')
      .setDescription('Ask a player for a linked roll (no investigation)')
      .addUserOption((o) => o.setName('player').setDescription('Who rolls').setRequired(true))
      .addStringOption((o) => o.setName('rolls').setDescription('e.g. Handgun Handling +Acuity vs 90; Driving vs 110').setRequired(true))
      .addIntegerOption((o) => o.setName('cl').setDescription('One CL for every part without its own `vs`'))
      .addBooleanOption((o) => o.setName('hidden').setDescription('Hide the CLs from the player (default: shown)')),
  );

const DISPATCHER_ONLY = 'Only a Dispatcher can ask for rolls.';

/** The investigation table a hidden challenge offers: the one named, or the skill's default if the server has it. */
async function investigationTableFor(context: HandlerContext, skill: string, named: string | null): Promise<string | null> {
  if (named) return (await context.store.tables.require(context.guildId, named)).name;
  return (await context.store.tables.find(context.guildId, `Investigation: ${skill}`))?.name ?? null;
}

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  if (!(await context.isDispatcher())) throw new UserError(DISPATCHER_ONLY);
  const sub = interaction.options.getSubcommand(true);
  const player = interaction.options.getUser('player', true);
  if (player.bot) throw new UserError('A bot has no sheet to roll from. Pick a player.');
  const hidden = interaction.options.getBoolean('hidden') ?? false;

  let parts: LinkedRollPart[];
  let investigationTable: string | null = null;
  if (sub === 'challenge') {
    parts = [
      {
        skill: validName('skill', interaction.options.getString('skill', true)),
        archetypes: splitNameList(interaction.options.getString('archetypes')),
        situationalModifier: interaction.options.getInteger('modifier') ?? 0,
        challengeLevel: interaction.options.getInteger('cl', true),
      },
    ];
    const named = interaction.options.getString('investigation');
    if (named && !hidden) throw new UserError('An investigation only makes sense for a hidden CL: add `hidden:True` or leave `investigation` out.');
    investigationTable = hidden ? await investigationTableFor(context, parts[0]!.skill, named) : null;
  } else {
    parts = parseLinkedRoll(interaction.options.getString('rolls', true), interaction.options.getInteger('cl') ?? undefined);
  }
  // The player's sheet must be able to answer now; it is read again when they roll.
  const label = player.globalName ?? player.username;
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: player.id }, label);
  for (const part of parts) validateChallengeInput(challengeFromSheet(sheet, part, { force: false, hidden }, context.now()));

  const state = newRollRequest({ kind: sub === 'linked' ? 'linked' : 'challenge', dispatcherId: context.userId, playerId: player.id, parts, hidden, investigationTable });
  const request = await context.store.rollRequests.create(context.guildId, context.channelId, state);
  const channel = interaction.channel;
  if (!channel?.isSendable()) throw new UserError('The bot cannot post in this channel; ask an admin for its Send Messages permission.');
  const message = await channel.send(requestOpening({ id: request.id, state }));
  await context.store.rollRequests.setMessage(request.id, message.id);
  await interaction.reply(
    privateNote(
      `Posted request #${request.id} for ${cleanName(label)}.` +
        (hidden ? ` The CL${parts.length > 1 ? 's stay' : ' stays'} hidden; press **Numbers (Dispatcher)** on it to see ${parts.length > 1 ? 'them' : 'it'} and the dice.` : '') +
        (hidden && sub === 'challenge' ? (investigationTable ? ` The player may investigate with **${investigationTable}**.` : ' No investigation table: the player cannot investigate.') : ''),
    ),
  );
}

/** A press decided: the new state, and the roll saved with it (so a lost race stores nothing). */
interface Decided {
  state: RollRequestState;
  roll?: RollEntry;
  note?: string;
}

async function roll(context: HandlerContext, request: StoredRollRequest): Promise<Decided> {
  const { state } = request;
  checkRoll(state, context.userId);
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId });
  const inputs: ChallengeInput[] = state.parts.map((part) => challengeFromSheet(sheet, part, { force: false, hidden: state.hidden }, context.now()));
  inputs.forEach(validateChallengeInput);
  const seed = context.newSeed();
  const linked = state.kind === 'linked';
  const results = linked ? resolveLinkedChallenge(inputs, seededRng(seed)).results : [resolveChallenge(inputs[0]!, seededRng(seed))];
  const rolled = results.some((result) => result.outcome === 'rolled');
  const rollId = rolled ? newRollId() : null;
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
  });
  return { state: next, roll };
}

async function investigate(context: HandlerContext, request: StoredRollRequest): Promise<Decided> {
  const { state } = request;
  checkInvestigation(state, context.userId);
  const part = state.parts[0]!;
  const table = await context.store.tables.require(context.guildId, state.investigationTable ?? '');
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId });
  // The table adds the aptitude it names; an investigation table that names none adds the skill investigated.
  const skill = findSkill(sheet, table.skill ?? part.skill);
  const seed = context.newSeed();
  const outcome = resolveOutcomeRoll({ table, modifiers: [{ name: skill.name, value: skill.level }] }, seededRng(seed));
  const revealed = revealChallengeLevel(outcome.row.reveals, part.challengeLevel);
  const rollId = newRollId();
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

async function component(interaction: ComponentInteraction, context: HandlerContext): Promise<void> {
  const [, verb = '', idText = ''] = interaction.customId.split(':');
  const request = await context.store.rollRequests.find(context.guildId, Number(idText));
  if (!request) throw new UserError('This roll request no longer exists.');
  const view = (state: RollRequestState) => ({ id: request.id, state });
  try {
    if (verb === 'details') {
      if (!(await context.isDispatcher())) throw new RollRequestRefusal('Only a Dispatcher can see the numbers of a hidden roll.');
      await interaction.reply(requestDetails(view(request.state)));
      return;
    }
    if (!interaction.isMessageComponent()) throw new UserError('This action comes from a button.');
    let decided: Decided;
    if (verb === 'roll') decided = await roll(context, request);
    else if (verb === 'investigate') decided = await investigate(context, request);
    else if (verb === 'cancel') decided = { state: cancelRollRequest(request.state, await context.isDispatcher()) };
    else throw new UserError('This button is not one the bot made.');
    const saved = await context.store.rollRequests.save(request, decided.state, decided.roll);
    if (!saved) {
      await interaction.reply(privateNote('Another press got there first: this is already handled, nothing changed.'));
      return;
    }
    await interaction.update(requestMessage(view(saved.state)));
    if (decided.note) await interaction.followUp(privateNote(decided.note));
  } catch (error) {
    if (error instanceof UserError) {
      await interaction.reply(privateNote(error.message));
      return;
    }
    throw error;
  }
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const names = focused.name === 'investigation' ? await context.store.tables.names(context.guildId) : [];
  await interaction.respond(nameChoices(names, String(focused.value)));
}

export const dispatchCommand: BotCommand = { data, execute, autocomplete, component };
