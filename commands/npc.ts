/**
 * /npc: the server's NPC sheets, kept by its Dispatchers (RULES 1.7). An NPC is always named (`name`, or `npc` in
 * the skill / archetype / condition subcommands, which /sheet shares); there is no active NPC, so two Dispatchers
 * never edit the wrong one. Every action, buttons and autocomplete included, checks the Dispatcher rule.
 */
import { MessageFlags, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { answerAsNpc } from '../src/discord/npc-voice.js';
import { UserError } from '../src/errors.js';
import { NPC_LINE_MAX, npcLine, npcLineAsBot } from '../src/views/npc-voice.js';
import { nameKey } from '../src/engine/names.js';
import { validName, type OperatorSheet } from '../src/engine/sheet.js';
import { npcOwner } from '../src/store/operators.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { escapeMarkdown } from '../src/views/format.js';
import { privateNote } from '../src/views/messages.js';
import { deleteConfirmReply, npcIds, sheetListReply, sheetReply, type DeletePromptControl } from '../src/views/sheet.js';
import { systemName } from '../src/engine/systems/index.js';
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

/** How the NPCs' owner is shown: they belong to the server. */
const SERVER_LABEL = 'this server';

/** The NPC a subcommand names (`npc`: an NPC is always named). */
const namedNpc = (interaction: ChatInputCommandInteraction, context: HandlerContext, option: string) =>
  context.store.operators.byNameOrActive(npcOwner(context.guildId), interaction.options.getString(option, true), null);

/** The longest picture address an NPC keeps: any image host's address fits, and a stored row stays small. */
const AVATAR_URL_MAX = 512;
const IMAGE_PATH = /\.(png|jpe?g|gif|webp)$/i;

/** An NPC's picture address as given, checked: an https address of a PNG, JPEG, GIF or WebP image. */
function validAvatarUrl(raw: string): string {
  const given = raw.trim();
  const right = 'Give an https address of a PNG, JPEG, GIF or WebP image, e.g. `https://example.com/orc.png` (right-click an image → Copy Link).';
  if (given.length > AVATAR_URL_MAX) throw new UserError(`That picture address is ${given.length} characters long; it may have at most ${AVATAR_URL_MAX}. ${right}`);
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UserError(`\`${escapeMarkdown(given.slice(0, 80))}\` is not a web address. ${right}`);
  }
  if (url.protocol !== 'https:') throw new UserError(`The picture address must start with https:// (Discord fetches NPCs' pictures only over https). ${right}`);
  if (!IMAGE_PATH.test(url.pathname)) throw new UserError(`That address does not end in .png, .jpg, .gif or .webp, so it may not be an image. ${right}`);
  return url.toString();
}

async function create(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const name = validName('NPC', interaction.options.getString('name', true));
  const givenAvatar = interaction.options.getString('avatar');
  const avatarUrl = givenAvatar === null ? null : validAvatarUrl(givenAvatar);
  const sheet = await context.store.operators.create(npcOwner(context.guildId), name, await newSheetSystem(interaction, context));
  if (avatarUrl !== null) await context.store.operators.setAvatar(sheet, avatarUrl);
  await context.answer.reply(
    privateNote(`Created the NPC **${escapeMarkdown(sheet.name)}** (${systemName(sheet.system)}). Add skills with \`/npc skill set\`; roll for it with \`/roll challenge\` and its \`npc\` option; let it speak with \`/npc say\`.`),
  );
}

/** A line the NPC says in the channel, under its own name and picture where the bot may manage webhooks. */
async function say(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const npc = await namedNpc(interaction, context, 'npc');
  const text = interaction.options.getString('text', true).trim();
  if (!text) throw new UserError('The line is empty: give `text` what the NPC says, e.g. `/npc say npc:Thug text:Hands where I can see them.`');
  await answerAsNpc(interaction, context, npc, npcLine(text), npcLineAsBot(npc.name, text));
}

/** Sets or (without `url`) clears the picture an NPC speaks under. */
async function avatar(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const npc = await namedNpc(interaction, context, 'npc');
  const given = interaction.options.getString('url');
  const avatarUrl = given === null || given.trim() === '' ? null : validAvatarUrl(given);
  await context.store.operators.setAvatar(npc, avatarUrl);
  const name = escapeMarkdown(npc.name);
  await context.answer.reply(
    privateNote(avatarUrl ? `**${name}** now speaks under this picture: <${avatarUrl}>` : `**${name}** has no picture now: it speaks under Discord's default one.`),
  );
}

async function show(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await namedNpc(interaction, context, 'name');
  await context.answer.reply(sheetReply(sheet, SERVER_LABEL, context.now(), !interaction.options.getBoolean('share')));
}

async function list(_interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheets = await context.store.operators.list(npcOwner(context.guildId));
  await context.answer.reply({ ...sheetListReply(sheets, SERVER_LABEL, true), flags: MessageFlags.Ephemeral });
}

async function askToDelete(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  await context.answer.reply(deleteConfirmReply(await namedNpc(interaction, context, 'name')));
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

const entryTarget: EntryTarget = {
  whose: "An NPC's",
  targetOption: (sub) => sub.addStringOption((o) => o.setName('npc').setDescription('The NPC').setRequired(true).setAutocomplete(true)),
  sheetOf: (interaction, context) => namedNpc(interaction, context, 'npc'),
  requires: { dispatcher: 'change NPC sheets' },
  help: {
    'skill set': { audience: 'dispatcher', example: '/npc skill set npc:Thug name:Handgun Handling level:35' },
    'skill remove': { audience: 'dispatcher', example: '/npc skill remove npc:Thug name:Handgun Handling' },
    'archetype set': { audience: 'dispatcher', example: '/npc archetype set npc:Thug name:Brawn modifier:10' },
    'archetype remove': { audience: 'dispatcher', example: '/npc archetype remove npc:Thug name:Brawn' },
    'condition add': { audience: 'dispatcher', example: '/npc condition add npc:Thug name:Dazed modifier:-20 minutes:5' },
    'condition remove': { audience: 'dispatcher', example: '/npc condition remove npc:Thug name:Dazed' },
    'attribute set': { audience: 'dispatcher', example: '/npc attribute set npc:Thug name:Aim value:45' },
    'attribute remove': { audience: 'dispatcher', example: '/npc attribute remove npc:Thug name:Aim' },
    set: { audience: 'dispatcher', example: '/npc set npc:Thug skills:Handgun Handling 35, Brawling 40 archetypes:Brute +10' },
  },
};

export const npcCommand = defineCommand<DeletePromptControl>({
  name: 'npc',
  description: 'Dispatcher: the NPC sheets of this server',
  subcommands: [
    {
      name: 'create',
      build: (sub) =>
        createOptions('Create an NPC sheet owned by the server', "The NPC's name")(sub).addStringOption((o) =>
          o.setName('avatar').setDescription('The picture it speaks under: an https address of an image').setMaxLength(AVATAR_URL_MAX),
        ),
      run: create,
      requires: { dispatcher: 'create NPCs' },
      help: { audience: 'dispatcher', example: '/npc create name:Thug' },
    },
    { name: 'list', build: (sub) => sub.setDescription("List the server's NPCs"), run: list, requires: { dispatcher: 'list the NPCs' }, help: { audience: 'dispatcher', example: '/npc list' } },
    {
      name: 'show',
      build: (sub) =>
        sub
          .setDescription('Show an NPC sheet (only to you by default)')
          .addStringOption((o) => o.setName('name').setDescription('The NPC').setRequired(true).setAutocomplete(true))
          .addBooleanOption(shareOption),
      run: show,
      requires: { dispatcher: 'see NPC sheets' },
      help: { audience: 'dispatcher', example: '/npc show name:Thug share:true' },
    },
    {
      name: 'delete',
      build: deleteOptions('Delete an NPC sheet (asks to confirm)', 'The NPC'),
      run: askToDelete,
      requires: { dispatcher: 'delete NPCs' },
      help: { audience: 'dispatcher', example: '/npc delete name:Thug' },
    },
    {
      name: 'say',
      build: (sub) =>
        sub
          .setDescription('Say a line in this channel as the NPC, under its name and picture')
          .addStringOption((o) => o.setName('npc').setDescription('The NPC').setRequired(true).setAutocomplete(true))
          .addStringOption((o) => o.setName('text').setDescription('What it says').setRequired(true).setMaxLength(NPC_LINE_MAX)),
      run: say,
      requires: { dispatcher: 'speak as NPCs' },
      help: { audience: 'dispatcher', example: '/npc say npc:Thug text:Hands where I can see them.' },
    },
    {
      name: 'avatar',
      build: (sub) =>
        sub
          .setDescription('Set the picture an NPC speaks under (leave out the address to clear it)')
          .addStringOption((o) => o.setName('npc').setDescription('The NPC').setRequired(true).setAutocomplete(true))
          .addStringOption((o) => o.setName('url').setDescription('An https address of a PNG, JPEG, GIF or WebP image').setMaxLength(AVATAR_URL_MAX)),
      run: avatar,
      requires: { dispatcher: 'change NPC sheets' },
      help: { audience: 'dispatcher', example: '/npc avatar npc:Thug url:https://example.com/thug.png' },
    },
    ...entrySubcommands(entryTarget),
    entryListsSubcommand(entryTarget),
  ],
  groups: entryGroups(entryTarget),
  autocomplete,
  ids: npcIds,
  component,
});
