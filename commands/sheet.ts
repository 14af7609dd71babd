/** /sheet: a user's Operator sheets on this server (RULES 1.7). */
import {
  MessageFlags,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type User,
} from 'discord.js';
import { defineCommand, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { readAttachmentText } from '../src/discord/attachments.js';
import { UserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { SHEET_LIMITS, validName, type OperatorSheet } from '../src/engine/sheet.js';
import { parseSheetFile, SHEET_FILE_MAX_BYTES, sheetFileText } from '../src/engine/sheet-file.js';
import { sheetScope } from '../src/engine/saved-rolls.js';
import type { SheetOwner } from '../src/store/operators.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { escapeMarkdown } from '../src/views/format.js';
import { privateNote } from '../src/views/messages.js';
import { deleteConfirmReply, sheetIds, sheetListReply, sheetReply, type DeletePromptControl } from '../src/views/sheet.js';
import { systemCommand, systemName } from '../src/engine/systems/index.js';
import { sheetStartHint } from '../src/views/sheet.js';
import {
  answerDeleteButton,
  createOptions,
  deleteOptions,
  entryChoices,
  entryGroups,
  entryListsSubcommand,
  entrySubcommands,
  entryListChoices,
  isEntryGroup,
  isEntryListsSubcommand,
  newSheetSystem,
  shareOption,
  type EntryTarget,
} from './shared/sheet-entries.js';

/**
 * The sheet an entry subcommand changes: the one named in `sheet`, else the user's current sheet (made or picked
 * last: a player has an active sheet per system), or, for a Dispatcher naming a `player`, that player's (RULES 1.7:
 * a Dispatcher may edit anyone's sheet).
 */
async function entrySheet(interaction: ChatInputCommandInteraction, context: HandlerContext) {
  const player = interaction.options.getUser('player');
  const named = interaction.options.getString('sheet');
  if (!player || player.id === context.userId) return context.store.operators.byNameOrActive(ownerOf(context), named, null);
  await context.requireDispatcher("change another player's sheet");
  return context.store.operators.byNameOrActive({ guildId: context.guildId, ownerId: player.id }, named, null, { someoneElse: displayName(interaction, player) });
}

/** The sheet an entry subcommand's autocomplete reads (as `entrySheet`): another player's only for a Dispatcher. */
async function entrySheetForAutocomplete(interaction: AutocompleteInteraction, context: HandlerContext) {
  const playerId = interaction.options.get('player')?.value;
  const owner = typeof playerId !== 'string' || playerId === context.userId ? ownerOf(context) : (await context.isDispatcher()) ? { guildId: context.guildId, ownerId: playerId } : null;
  if (!owner) return null;
  const named = interaction.options.getString('sheet');
  if (named === null || named.trim() === '') return context.store.operators.current(owner);
  return (await context.store.operators.list(owner)).find((sheet) => nameKey(sheet.name) === nameKey(named)) ?? null;
}

function ownerOf(context: HandlerContext): SheetOwner {
  return { guildId: context.guildId, ownerId: context.userId };
}

function displayName(interaction: ChatInputCommandInteraction, user: User): string {
  if (user.id === interaction.user.id && interaction.inCachedGuild()) return interaction.member.displayName;
  return user.globalName ?? user.username;
}

const reply = (context: HandlerContext, text: string) => context.answer.reply(privateNote(text));

async function create(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const name = validName('sheet', interaction.options.getString('name', true));
  const sheet = await context.store.operators.create(ownerOf(context), name, await newSheetSystem(interaction, context));
  await reply(context, `Created **${escapeMarkdown(sheet.name)}**; it is your active ${systemName(sheet.system)} sheet (your sheets of other systems stay active for theirs). ${sheetStartHint(sheet.system)}`);
}

async function show(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const user = interaction.options.getUser('user') ?? interaction.user;
  const label = displayName(interaction, user);
  await showSheet(context, { id: user.id, label }, interaction.options.getString('name'), !interaction.options.getBoolean('share'));
}

/**
 * `/sheet show`'s answer, also the "Show sheet" context menu's: a member's sheet (the named one, else their current)
 * as any member may see it; `more` is added below it.
 */
export async function showSheet(
  context: HandlerContext,
  member: { id: string; label: string },
  name: string | null,
  privately: boolean,
  more?: (shown: OperatorSheet) => string | undefined,
): Promise<void> {
  const someoneElse = member.id === context.userId ? undefined : member.label;
  const sheet = await context.store.operators.byNameOrActive({ guildId: context.guildId, ownerId: member.id }, name, null, someoneElse === undefined ? {} : { someoneElse });
  const reply = sheetReply(sheet, member.label, context.now(), privately);
  const note = more?.(sheet);
  await context.answer.reply(note ? { ...reply, content: note } : reply);
}

async function list(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const user = interaction.options.getUser('user') ?? interaction.user;
  const sheets = await context.store.operators.list({ guildId: context.guildId, ownerId: user.id });
  await context.answer.reply({ ...sheetListReply(sheets, displayName(interaction, user)), flags: MessageFlags.Ephemeral });
}

async function use(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await context.store.operators.use(ownerOf(context), interaction.options.getString('name', true));
  await reply(context, `**${escapeMarkdown(sheet.name)}** is now your active ${systemName(sheet.system)} sheet: \`${systemCommand(sheet.system)}\` rolls it. Your sheets of other systems stay active for theirs.`);
}

async function rename(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const newName = validName('sheet', interaction.options.getString('new_name', true));
  const { before, sheet } = await context.store.operators.rename(ownerOf(context), interaction.options.getString('sheet'), newName);
  await reply(context, `Renamed **${escapeMarkdown(before)}** to **${escapeMarkdown(sheet.name)}**.`);
}

async function askToDelete(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await context.store.operators.byNameOrActive(ownerOf(context), interaction.options.getString('name', true), null);
  await context.answer.reply(deleteConfirmReply(sheet));
}

async function notes(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const text = interaction.options.getString('text', true).trim();
  if (text.length > SHEET_LIMITS.notesLength) throw new UserError(`Notes may be at most ${SHEET_LIMITS.notesLength} characters; yours have ${text.length}.`);
  const sheet = await context.store.operators.requireCurrent(ownerOf(context));
  await context.store.operators.setNotes(sheet, text);
  await reply(context, text ? `Saved the notes of **${escapeMarkdown(sheet.name)}**.` : `Cleared the notes of **${escapeMarkdown(sheet.name)}**.`);
}

async function exportSheet(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await context.store.operators.byNameOrActive(ownerOf(context), interaction.options.getString('name'), null);
  // The sheet's saved rolls go with it, so an import elsewhere rolls them by name too.
  const rolls = await context.store.savedRolls.list(context.guildId, sheetScope(sheet.id));
  const file = Buffer.from(sheetFileText(sheet, context.now(), rolls), 'utf8');
  const fileName = `${sheet.name.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'sheet'}.json`;
  await context.answer.reply({ ...privateNote(`**${escapeMarkdown(sheet.name)}**, ready to keep or to import on another server with \`/sheet import\`.`), files: [{ attachment: file, name: fileName }] });
}

async function importSheet(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const attachment = interaction.options.getAttachment('file', true);
  const text = await readAttachmentText(attachment, SHEET_FILE_MAX_BYTES);
  const imported = parseSheetFile(text);
  const { sheet, replaced } = await context.store.operators.import(ownerOf(context), imported, interaction.options.getBoolean('replace') ?? false);
  await reply(
    context,
    `${replaced ? 'Replaced' : 'Imported'} **${escapeMarkdown(sheet.name)}** (${sheet.skills.length} skills, ${sheet.archetypes.length} archetypes, ${sheet.conditions.length} conditions); it is your active ${systemName(sheet.system)} sheet.`,
  );
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const group = interaction.options.getSubcommandGroup(false);
  const lists = isEntryListsSubcommand(group, interaction.options.getSubcommand(false));
  const editing = isEntryGroup(group) || lists;
  const typed = String(focused.value);
  if (!editing || focused.name === 'sheet') {
    // An entry subcommand's sheets are the player's for a Dispatcher, else the user's; /sheet show's and list's the user's.
    const userId = interaction.options.get(editing ? 'player' : 'user')?.value;
    const ownerId = typeof userId === 'string' && (!editing || (await context.isDispatcher())) ? userId : context.userId;
    const sheets = await context.store.operators.list({ guildId: context.guildId, ownerId });
    const label = (name: string) => {
      const sheet = sheets.find((s) => s.name === name);
      return sheet ? `${name} · ${systemName(sheet.system)}${sheet.active ? ' (active)' : ''}` : name;
    };
    await interaction.respond(nameChoices(sheets.map((sheet) => sheet.name), typed, label));
    return;
  }
  const sheet = await entrySheetForAutocomplete(interaction, context);
  if (sheet && lists) {
    await interaction.respond(entryListChoices(sheet, focused.name, typed));
    return;
  }
  if (!sheet || !isEntryGroup(group)) {
    await interaction.respond([]);
    return;
  }
  await interaction.respond(entryChoices(sheet, group, focused.name, typed, context.now(), interaction.options.getSubcommand() !== 'remove'));
}

/** The confirm / keep buttons of /sheet delete: `sheet:delete:<id>`, `sheet:keep:<id>`. */
async function component(_interaction: ComponentInteraction, control: DeletePromptControl, context: HandlerContext): Promise<void> {
  await answerDeleteButton(control, context, ownerOf(context), {
    // The presser does not own it, or it is already gone: nothing changes either way.
    missing: 'That sheet is not yours, or it was already deleted. Nothing was changed.',
    deleted: (sheet) => `Deleted **${escapeMarkdown(sheet.name)}**.${sheet.active ? ' You have no active sheet now; pick one with `/sheet use`.' : ''}`,
  });
}

const SHEET_DISPATCHER = 'Players, on their own sheets; a Dispatcher may add `player:` to change a player’s sheet.';

const entryTarget: EntryTarget = {
  whose: "Your sheet's",
  lastOption: (sub) =>
    sub
      .addStringOption((o) => o.setName('sheet').setDescription('Which sheet (default: the one you made or picked last)').setAutocomplete(true))
      .addUserOption((o) => o.setName('player').setDescription("Dispatcher: change this player's sheet instead of yours")),
  sheetOf: entrySheet,
  help: {
    'skill set': { audience: 'player', example: '/sheet skill set name:Climbing level:40', who: SHEET_DISPATCHER },
    'skill remove': { audience: 'player', example: '/sheet skill remove name:Climbing', who: SHEET_DISPATCHER },
    'archetype set': { audience: 'player', example: '/sheet archetype set name:Acuity modifier:10', who: SHEET_DISPATCHER },
    'archetype remove': { audience: 'player', example: '/sheet archetype remove name:Acuity', who: SHEET_DISPATCHER },
    'condition add': { audience: 'player', example: '/sheet condition add name:Wounded modifier:-10 minutes:30', who: SHEET_DISPATCHER },
    'condition remove': { audience: 'player', example: '/sheet condition remove name:Wounded', who: SHEET_DISPATCHER },
    'attribute set': { audience: 'player', example: '/sheet attribute set name:Aim value:60', who: SHEET_DISPATCHER },
    'attribute remove': { audience: 'player', example: '/sheet attribute remove name:Aim', who: SHEET_DISPATCHER },
    set: { audience: 'player', example: '/sheet set skills:Climbing 40, CQC 37, Driving 55 archetypes:Acuity +10', who: SHEET_DISPATCHER },
  },
};

export const sheetCommand = defineCommand<DeletePromptControl>({
  name: 'sheet',
  description: 'Your Operator sheets on this server',
  subcommands: [
    { name: 'create', build: createOptions('Create a sheet and make it your active one', "The Operator's name"), run: create, help: { audience: 'player', example: '/sheet create name:Troy' } },
    {
      name: 'show',
      build: (sub) =>
        sub
          .setDescription('Show a sheet (yours by default)')
          .addUserOption((o) => o.setName('user').setDescription('Whose sheet (default: yours)'))
          .addStringOption((o) => o.setName('name').setDescription('Which sheet (default: the active one)').setAutocomplete(true))
          .addBooleanOption(shareOption),
      run: show,
      help: { audience: 'player', example: '/sheet show name:Troy share:true' },
    },
    {
      name: 'list',
      build: (sub) => sub.setDescription('List sheets (yours by default)').addUserOption((o) => o.setName('user').setDescription('Whose sheets (default: yours)')),
      run: list,
      help: { audience: 'player', example: '/sheet list' },
    },
    {
      name: 'use',
      build: (sub) => sub.setDescription('Make one of your sheets the active one').addStringOption((o) => o.setName('name').setDescription('The sheet').setRequired(true).setAutocomplete(true)),
      run: use,
      help: { audience: 'player', example: '/sheet use name:Troy' },
    },
    {
      name: 'rename',
      build: (sub) =>
        sub
          .setDescription('Rename a sheet (the active one by default)')
          .addStringOption((o) => o.setName('new_name').setDescription('The new name').setRequired(true))
          .addStringOption((o) => o.setName('sheet').setDescription('Which sheet (default: the active one)').setAutocomplete(true)),
      run: rename,
      help: { audience: 'player', example: '/sheet rename new_name:Troy Baker' },
    },
    { name: 'delete', build: deleteOptions('Delete one of your sheets (asks to confirm)', 'The sheet'), run: askToDelete, help: { audience: 'player', example: '/sheet delete name:Troy' } },
    {
      name: 'notes',
      build: (sub) => sub.setDescription("Set the active sheet's notes").addStringOption((o) => o.setName('text').setDescription('The notes (empty clears them)').setRequired(true)),
      run: notes,
      help: { audience: 'player', example: '/sheet notes text:Ex-courier, owes Kat a favour' },
    },
    {
      name: 'export',
      build: (sub) => sub.setDescription('Download a sheet as a JSON file').addStringOption((o) => o.setName('name').setDescription('Which sheet (default: the active one)').setAutocomplete(true)),
      run: exportSheet,
      // A sheet file, up to the largest sheet the limits allow, read and sent.
      heavy: true,
      help: { audience: 'player', example: '/sheet export name:Troy' },
    },
    {
      name: 'import',
      build: (sub) =>
        sub
          .setDescription('Create a sheet from a JSON file (as /sheet export writes it)')
          .addAttachmentOption((o) => o.setName('file').setDescription('The JSON file').setRequired(true))
          .addBooleanOption((o) => o.setName('replace').setDescription('Overwrite your sheet of the same name (default: no)')),
      run: importSheet,
      // A sheet file fetched, checked and written in one transaction.
      heavy: true,
      help: { audience: 'player', example: '/sheet import file:troy.json' },
    },
    ...entrySubcommands(entryTarget),
    entryListsSubcommand(entryTarget),
  ],
  groups: entryGroups(entryTarget),
  autocomplete,
  ids: sheetIds,
  component,
});
