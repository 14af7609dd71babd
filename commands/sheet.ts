/** /sheet: a user's Operator sheets on this server (RULES 1.7). */
import {
  InteractionContextType,
  MessageFlags,
  SlashCommandBuilder,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type User,
} from 'discord.js';
import type { BotCommand, ComponentInteraction, HandlerContext } from '../src/discord/command.js';
import { readAttachmentText } from '../src/discord/attachments.js';
import { UserError } from '../src/errors.js';
import {
  SHEET_LIMITS,
  findSkill,
  splitNameList,
  validModifier,
  validName,
  validSkillLevel,
  type OperatorSheet,
} from '../src/engine/sheet.js';
import { parseSheetFile, toSheetFile } from '../src/engine/sheet-file.js';
import type { SheetOwner } from '../src/store/operators.js';
import { listChoices, nameChoices } from '../src/views/autocomplete.js';
import { escapeMarkdown, signedCompact } from '../src/views/format.js';
import { privateNote } from '../src/views/messages.js';
import { deleteConfirmReply, sheetListReply, sheetReply } from '../src/views/sheet.js';

const data = new SlashCommandBuilder()
  .setName('sheet')
  .setDescription('Your Operator sheets on this server')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((sub) =>
    sub
      .setName('create')
      .setDescription('Create a sheet and make it your active one')
      .addStringOption((o) => o.setName('name').setDescription("The Operator's name").setRequired(true)),
  )
  .addSubcommand((sub) =>
    sub
      .setName('show')
      .setDescription('Show a sheet (yours by default)')
      .addUserOption((o) => o.setName('user').setDescription('Whose sheet (default: yours)'))
      .addStringOption((o) => o.setName('name').setDescription('Which sheet (default: the active one)').setAutocomplete(true))
      .addBooleanOption((o) => o.setName('share').setDescription('Post it in the channel for everyone (default: only you see it)')),
  )
  .addSubcommand((sub) =>
    sub
      .setName('list')
      .setDescription('List sheets (yours by default)')
      .addUserOption((o) => o.setName('user').setDescription('Whose sheets (default: yours)')),
  )
  .addSubcommand((sub) =>
    sub
      .setName('use')
      .setDescription('Make one of your sheets the active one')
      .addStringOption((o) => o.setName('name').setDescription('The sheet').setRequired(true).setAutocomplete(true)),
  )
  .addSubcommand((sub) =>
    sub
      .setName('rename')
      .setDescription('Rename a sheet (the active one by default)')
      .addStringOption((o) => o.setName('new_name').setDescription('The new name').setRequired(true))
      .addStringOption((o) => o.setName('sheet').setDescription('Which sheet (default: the active one)').setAutocomplete(true)),
  )
  .addSubcommand((sub) =>
    sub
      .setName('delete')
      .setDescription('Delete one of your sheets (asks to confirm)')
      .addStringOption((o) => o.setName('name').setDescription('The sheet').setRequired(true).setAutocomplete(true)),
  )
  .addSubcommand((sub) =>
    sub
      .setName('notes')
      .setDescription("Set the active sheet's notes")
      .addStringOption((o) => o.setName('text').setDescription('The notes (empty clears them)').setRequired(true)),
  )
  .addSubcommandGroup((group) =>
    group
      .setName('skill')
      .setDescription("The active sheet's skills")
      .addSubcommand((sub) =>
        sub
          .setName('set')
          .setDescription('Add a skill or change its level')
          .addStringOption((o) => o.setName('name').setDescription('The skill, e.g. Climbing').setRequired(true).setAutocomplete(true))
          .addIntegerOption((o) => o.setName('level').setDescription('Its level, 0–100').setRequired(true)),
      )
      .addSubcommand((sub) =>
        sub
          .setName('remove')
          .setDescription('Remove a skill')
          .addStringOption((o) => o.setName('name').setDescription('The skill').setRequired(true).setAutocomplete(true)),
      ),
  )
  .addSubcommandGroup((group) =>
    group
      .setName('archetype')
      .setDescription("The active sheet's archetype modifiers")
      .addSubcommand((sub) =>
        sub
          .setName('set')
          .setDescription('Add an archetype modifier or change it')
          .addStringOption((o) => o.setName('name').setDescription('The archetype, e.g. Acuity').setRequired(true).setAutocomplete(true))
          .addIntegerOption((o) => o.setName('modifier').setDescription('Its modifier, may be negative').setRequired(true)),
      )
      .addSubcommand((sub) =>
        sub
          .setName('remove')
          .setDescription('Remove an archetype modifier')
          .addStringOption((o) => o.setName('name').setDescription('The archetype').setRequired(true).setAutocomplete(true)),
      ),
  )
  .addSubcommandGroup((group) =>
    group
      .setName('condition')
      .setDescription("The active sheet's conditions")
      .addSubcommand((sub) =>
        sub
          .setName('add')
          .setDescription('Add a condition (or replace the one with the same name)')
          .addStringOption((o) => o.setName('name').setDescription('The condition, e.g. Wounded').setRequired(true))
          .addIntegerOption((o) => o.setName('modifier').setDescription('What it adds to rolls, e.g. -10').setRequired(true))
          .addStringOption((o) => o.setName('skills').setDescription('Comma list of skills it applies to (default: all)').setAutocomplete(true))
          .addIntegerOption((o) => o.setName('minutes').setDescription('It ends after this many minutes (default: until removed)')),
      )
      .addSubcommand((sub) =>
        sub
          .setName('remove')
          .setDescription('Remove a condition')
          .addStringOption((o) => o.setName('name').setDescription('The condition').setRequired(true).setAutocomplete(true)),
      ),
  )
  .addSubcommand((sub) =>
    sub
      .setName('export')
      .setDescription('Download a sheet as a JSON file')
      .addStringOption((o) => o.setName('name').setDescription('Which sheet (default: the active one)').setAutocomplete(true)),
  )
  .addSubcommand((sub) =>
    sub
      .setName('import')
      .setDescription('Create a sheet from a JSON file (as /sheet export writes it)')
      .addAttachmentOption((o) => o.setName('file').setDescription('The JSON file').setRequired(true))
      .addBooleanOption((o) => o.setName('replace').setDescription('Overwrite your sheet of the same name (default: no)')),
  );

function ownerOf(context: HandlerContext): SheetOwner {
  return { guildId: context.guildId, ownerId: context.userId };
}

function displayName(interaction: ChatInputCommandInteraction, user: User): string {
  if (user.id === interaction.user.id && interaction.inCachedGuild()) return interaction.member.displayName;
  return user.globalName ?? user.username;
}

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const { store } = context;
  const owner = ownerOf(context);
  const group = interaction.options.getSubcommandGroup(false);
  const sub = interaction.options.getSubcommand(true);
  const reply = (text: string) => interaction.reply(privateNote(text));

  if (group === 'skill' || group === 'archetype' || group === 'condition') {
    const sheet = await store.operators.requireActive(owner);
    const name = validName(group, interaction.options.getString('name', true));
    const sheetName = escapeMarkdown(sheet.name);
    if (sub === 'remove') {
      const removed = await store.operators.remove(group, sheet.id, name);
      if (!removed) throw new UserError(`${sheet.name} has no ${group} named **${escapeMarkdown(name)}**.`);
      await reply(`Removed the ${group} **${escapeMarkdown(removed)}** from ${sheetName}.`);
      return;
    }
    if (group === 'skill') {
      const level = validSkillLevel(interaction.options.getInteger('level', true));
      const before = await store.operators.setSkill(sheet.id, name, level);
      await reply(before === null ? `${sheetName} now has **${escapeMarkdown(name)} ${level}**.` : `${sheetName}: **${escapeMarkdown(name)}** ${before} → **${level}**.`);
      return;
    }
    if (group === 'archetype') {
      const modifier = validModifier('An archetype modifier', interaction.options.getInteger('modifier', true));
      const before = await store.operators.setArchetype(sheet.id, name, modifier);
      const shown = signedCompact(modifier);
      await reply(before === null ? `${sheetName} now has the archetype **${escapeMarkdown(name)} ${shown}**.` : `${sheetName}: **${escapeMarkdown(name)}** ${signedCompact(before)} → **${shown}**.`);
      return;
    }
    const modifier = validModifier('A condition modifier', interaction.options.getInteger('modifier', true));
    const skillNames = splitNameList(interaction.options.getString('skills'));
    const skills = skillNames.length === 0 ? null : skillNames.map((skill) => findSkill(sheet, skill).name);
    const minutes = interaction.options.getInteger('minutes');
    if (minutes !== null && (minutes < 1 || minutes > SHEET_LIMITS.conditionMinutesMax)) {
      throw new UserError(`\`minutes\` must be from 1 to ${SHEET_LIMITS.conditionMinutesMax} (30 days); leave it out for a condition that lasts until removed.`);
    }
    const expiresAt = minutes === null ? null : new Date(context.now().getTime() + minutes * 60_000);
    await store.operators.setCondition(sheet.id, { name, modifier, skills, expiresAt }, context.now());
    const scope = skills === null ? 'every skill' : skills.map(escapeMarkdown).join(', ');
    await reply(`${sheetName} is now **${escapeMarkdown(name)}** (${signedCompact(modifier)} on ${scope}${minutes === null ? '' : `, for ${minutes} min`}).`);
    return;
  }

  switch (sub) {
    case 'create': {
      const sheet = await store.operators.create(owner, validName('sheet', interaction.options.getString('name', true)));
      await reply(`Created **${escapeMarkdown(sheet.name)}**; it is your active sheet. Add skills with \`/sheet skill set\`.`);
      return;
    }
    case 'show': {
      const user = interaction.options.getUser('user') ?? interaction.user;
      const label = displayName(interaction, user);
      const someoneElse = user.id === interaction.user.id ? undefined : label;
      const sheet = await store.operators.byNameOrActive({ guildId: context.guildId, ownerId: user.id }, interaction.options.getString('name'), someoneElse);
      await interaction.reply(sheetReply(sheet, label, context.now(), !interaction.options.getBoolean('share')));
      return;
    }
    case 'list': {
      const user = interaction.options.getUser('user') ?? interaction.user;
      const sheets = await store.operators.list({ guildId: context.guildId, ownerId: user.id });
      await interaction.reply({ ...sheetListReply(sheets, displayName(interaction, user)), flags: MessageFlags.Ephemeral });
      return;
    }
    case 'use': {
      const sheet = await store.operators.use(owner, interaction.options.getString('name', true));
      await reply(`**${escapeMarkdown(sheet.name)}** is now your active sheet.`);
      return;
    }
    case 'rename': {
      const newName = validName('sheet', interaction.options.getString('new_name', true));
      const { before, sheet } = await store.operators.rename(owner, interaction.options.getString('sheet'), newName);
      await reply(`Renamed **${escapeMarkdown(before)}** to **${escapeMarkdown(sheet.name)}**.`);
      return;
    }
    case 'delete': {
      const sheet = await store.operators.byNameOrActive(owner, interaction.options.getString('name', true));
      await interaction.reply(deleteConfirmReply(sheet));
      return;
    }
    case 'notes': {
      const text = interaction.options.getString('text', true).trim();
      if (text.length > SHEET_LIMITS.notesLength) throw new UserError(`Notes may be at most ${SHEET_LIMITS.notesLength} characters; yours have ${text.length}.`);
      const sheet = await store.operators.requireActive(owner);
      await store.operators.setNotes(sheet.id, text);
      await reply(text ? `Saved the notes of **${escapeMarkdown(sheet.name)}**.` : `Cleared the notes of **${escapeMarkdown(sheet.name)}**.`);
      return;
    }
    case 'export': {
      const sheet = await store.operators.byNameOrActive(owner, interaction.options.getString('name'));
      const file = Buffer.from(`${JSON.stringify(toSheetFile(sheet, context.now()), null, 2)}\n`, 'utf8');
      const fileName = `${sheet.name.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'sheet'}.json`;
      await interaction.reply({ ...privateNote(`**${escapeMarkdown(sheet.name)}**, ready to keep or to import on another server with \`/sheet import\`.`), files: [{ attachment: file, name: fileName }] });
      return;
    }
    case 'import': {
      const attachment = interaction.options.getAttachment('file', true);
      const text = await readAttachmentText(attachment, SHEET_LIMITS.importFileBytes);
      const imported = parseSheetFile(text);
      const { sheet, replaced } = await store.operators.import(owner, imported, interaction.options.getBoolean('replace') ?? false);
      await reply(
        `${replaced ? 'Replaced' : 'Imported'} **${escapeMarkdown(sheet.name)}** (${sheet.skills.length} skills, ${sheet.archetypes.length} archetypes, ${sheet.conditions.length} conditions); it is your active sheet.`,
      );
      return;
    }
    default:
      throw new UserError(`Unknown subcommand ${sub}.`);
  }
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const group = interaction.options.getSubcommandGroup(false);
  const typed = String(focused.value);
  const owner = ownerOf(context);
  if (group === null) {
    const userId = interaction.options.get('user')?.value;
    const sheets = await context.store.operators.list({ guildId: context.guildId, ownerId: typeof userId === 'string' ? userId : context.userId });
    await interaction.respond(nameChoices(sheets.map((sheet) => sheet.name), typed, (name) => (sheets.find((s) => s.name === name)?.active ? `${name} (active)` : name)));
    return;
  }
  const sheet = await context.store.operators.active(owner);
  if (!sheet) {
    await interaction.respond([]);
    return;
  }
  await interaction.respond(choicesFromSheet(sheet, group, focused.name, typed, context.now()));
}

function choicesFromSheet(sheet: OperatorSheet, group: string, option: string, typed: string, now: Date) {
  if (group === 'condition' && option === 'skills') return listChoices(sheet.skills.map((skill) => skill.name), typed);
  if (group === 'skill') {
    const levels = new Map(sheet.skills.map((skill) => [skill.name, skill.level]));
    return nameChoices([...levels.keys()], typed, (name) => `${name} (${levels.get(name)})`);
  }
  if (group === 'archetype') return nameChoices(sheet.archetypes.map((archetype) => archetype.name), typed);
  return nameChoices(sheet.conditions.filter((condition) => condition.expiresAt === null || condition.expiresAt > now).map((condition) => condition.name), typed);
}

/** The confirm / keep buttons of /sheet delete: `sheet:delete:<id>`, `sheet:keep:<id>`. */
async function component(interaction: ComponentInteraction, context: HandlerContext): Promise<void> {
  const [, action, idText] = interaction.customId.split(':');
  const sheetId = Number(idText);
  if (!interaction.isButton() || !Number.isInteger(sheetId)) throw new UserError('This button is not one the bot made.');
  if (action === 'keep') {
    await interaction.update({ content: 'Kept. Nothing was deleted.', components: [], allowedMentions: { parse: [] } });
    return;
  }
  if (action !== 'delete') throw new UserError('This button is not one the bot made.');
  const deleted = await context.store.operators.delete(ownerOf(context), sheetId);
  if (!deleted) {
    // The presser does not own it, or it is already gone: nothing changes either way.
    await interaction.reply(privateNote('That sheet is not yours, or it was already deleted. Nothing was changed.'));
    return;
  }
  await interaction.update({
    content: `Deleted **${escapeMarkdown(deleted.name)}**.${deleted.active ? ' You have no active sheet now; pick one with `/sheet use`.' : ''}`,
    components: [],
    allowedMentions: { parse: [] },
  });
}

export const sheetCommand: BotCommand = { data, execute, autocomplete, component };
