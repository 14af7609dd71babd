/**
 * /npc: the server's NPC sheets, kept by its Dispatchers (RULES 1.7). An NPC is always named (`name`, or `npc` in
 * the skill / archetype / condition subcommands, which /sheet shares); there is no active NPC, so two Dispatchers
 * never edit the wrong one. Every action, buttons and autocomplete included, checks the Dispatcher rule.
 */
import { InteractionContextType, MessageFlags, SlashCommandBuilder, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { BotCommand, ComponentInteraction, HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { validName, type OperatorSheet } from '../src/engine/sheet.js';
import { npcOwner } from '../src/store/operators.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { escapeMarkdown } from '../src/views/format.js';
import { privateNote } from '../src/views/messages.js';
import { deleteConfirmReply, npcIds, sheetListReply, sheetReply, type DeletePromptControl } from '../src/views/sheet.js';
import { systemName } from '../src/engine/systems/index.js';
import {
  addEntryListsSubcommand,
  addEntrySubcommands,
  answerDeleteButton,
  createSubcommand,
  deleteSubcommand,
  editEntry,
  editEntryLists,
  entryChoices,
  entryListChoices,
  isEntryGroup,
  isEntryListsSubcommand,
  newSheetSystem,
  shareOption,
  type EntryTarget,
} from './shared/sheet-entries.js';

/** How the NPCs' owner is shown: they belong to the server. */
const SERVER_LABEL = 'this server';

const entryTarget: EntryTarget = {
  whose: "An NPC's",
  targetOption: (sub) => sub.addStringOption((o) => o.setName('npc').setDescription('The NPC').setRequired(true).setAutocomplete(true)),
};

const data = addEntryListsSubcommand(
  addEntrySubcommands(
    new SlashCommandBuilder()
    .setName('npc')
    .setDescription('Dispatcher: the NPC sheets of this server')
    .setContexts(InteractionContextType.Guild)
    .addSubcommand(createSubcommand('Create an NPC sheet owned by the server', "The NPC's name"))
    .addSubcommand((sub) => sub.setName('list').setDescription("List the server's NPCs"))
    .addSubcommand((sub) =>
      sub
        .setName('show')
        .setDescription('Show an NPC sheet (only to you by default)')
        .addStringOption((o) => o.setName('name').setDescription('The NPC').setRequired(true).setAutocomplete(true))
        .addBooleanOption(shareOption),
    )
    .addSubcommand(deleteSubcommand('Delete an NPC sheet (asks to confirm)', 'The NPC')),
    entryTarget,
  ),
  entryTarget,
);

/** What a refused member was trying to do, for the refusal. */
const ACTIONS: Record<string, string> = { create: 'create NPCs', show: 'see NPC sheets', list: 'list the NPCs', delete: 'delete NPCs' };

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const group = interaction.options.getSubcommandGroup(false);
  const sub = interaction.options.getSubcommand(true);
  const lists = isEntryListsSubcommand(group, sub);
  await context.requireDispatcher(isEntryGroup(group) || lists ? 'change NPC sheets' : (ACTIONS[sub] ?? 'use /npc'));
  const { store } = context;
  const npcs = npcOwner(context.guildId);

  if (isEntryGroup(group)) {
    await editEntry(interaction, context, await store.operators.byNameOrActive(npcs, interaction.options.getString('npc', true), null), group);
    return;
  }
  if (lists) {
    await editEntryLists(interaction, context, await store.operators.byNameOrActive(npcs, interaction.options.getString('npc', true), null));
    return;
  }
  switch (sub) {
    case 'create': {
      const name = validName('NPC', interaction.options.getString('name', true));
      const sheet = await store.operators.create(npcs, name, await newSheetSystem(interaction, context));
      await context.answer.reply(
        privateNote(`Created the NPC **${escapeMarkdown(sheet.name)}** (${systemName(sheet.system)}). Add skills with \`/npc skill set\`; roll for it with \`/roll challenge\` and its \`npc\` option.`),
      );
      return;
    }
    case 'show': {
      const sheet = await store.operators.byNameOrActive(npcs, interaction.options.getString('name', true), null);
      await context.answer.reply(sheetReply(sheet, SERVER_LABEL, context.now(), !interaction.options.getBoolean('share')));
      return;
    }
    case 'list': {
      const sheets = await store.operators.list(npcs);
      await context.answer.reply({ ...sheetListReply(sheets, SERVER_LABEL, true), flags: MessageFlags.Ephemeral });
      return;
    }
    case 'delete': {
      const sheet = await store.operators.byNameOrActive(npcs, interaction.options.getString('name', true), null);
      await context.answer.reply(deleteConfirmReply(sheet));
      return;
    }
    default:
      throw new UserError(`Unknown subcommand ${sub}.`);
  }
}

/** NPC names for an autocomplete; none for a member who is not a Dispatcher, so NPC names stay with them. */
export async function npcNameChoices(context: HandlerContext, typed: string) {
  if (!(await context.isDispatcher())) return [];
  const sheets = await context.store.operators.list(npcOwner(context.guildId));
  return nameChoices(sheets.map((sheet) => sheet.name), typed);
}

/** The NPC an autocomplete's `npc` option names, for a Dispatcher; null for anyone else or an unknown name. */
export async function npcForAutocomplete(context: HandlerContext, named: string | null): Promise<OperatorSheet | null> {
  if (!named || !(await context.isDispatcher())) return null;
  const sheets = await context.store.operators.list(npcOwner(context.guildId));
  return sheets.find((sheet) => nameKey(sheet.name) === nameKey(named)) ?? null;
}

/** NPC names, and the entries of the NPC named in `npc`. */
async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const group = interaction.options.getSubcommandGroup(false);
  const typed = String(focused.value);
  const lists = isEntryListsSubcommand(group, interaction.options.getSubcommand(false));
  if (focused.name === 'npc' || !(isEntryGroup(group) || lists)) {
    await interaction.respond(await npcNameChoices(context, typed));
    return;
  }
  const sheet = await npcForAutocomplete(context, interaction.options.getString('npc'));
  if (lists || !isEntryGroup(group)) {
    await interaction.respond(sheet ? entryListChoices(sheet, focused.name, typed) : []);
    return;
  }
  await interaction.respond(sheet ? entryChoices(sheet, group, focused.name, typed, context.now(), interaction.options.getSubcommand() !== 'remove') : []);
}

/** The confirm / keep buttons of /npc delete: `npc:delete:<id>`, `npc:keep:<id>`, for Dispatchers only. */
async function component(_interaction: ComponentInteraction, control: DeletePromptControl, context: HandlerContext): Promise<void> {
  await context.requireDispatcher('delete NPCs');
  await answerDeleteButton(control, context, npcOwner(context.guildId), {
    missing: 'That NPC was already deleted. Nothing was changed.',
    deleted: (sheet) => `Deleted the NPC **${escapeMarkdown(sheet.name)}**.`,
  });
}

export const npcCommand: BotCommand<DeletePromptControl> = { data, execute, autocomplete, ids: npcIds, component };
