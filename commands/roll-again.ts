/**
 * Roll again and saved rolls, mounted by commands/roll.ts: the `roll:` buttons a typed roll's answer carries (Roll
 * again, Save… and its form), and `/roll save`, `/roll saved`, `/roll saved-list`, `/roll saved-delete`. A roll is
 * repeated by running what was typed anew through its own handler (src/discord/roll-again.ts).
 */
import type { AutocompleteInteraction, ChatInputCommandInteraction, MessageComponentInteraction, ModalSubmitInteraction, SlashCommandStringOption } from 'discord.js';
import type { ComponentInteraction, HandlerContext, Subcommand } from '../src/discord/command.js';
import { formText } from '../src/discord/form-text.js';
import { rolledAgainComponents, runInvocation } from '../src/discord/roll-again.js';
import { UserError } from '../src/errors.js';
import type { RollInvocation } from '../src/engine/invocation.js';
import { nameKey } from '../src/engine/names.js';
import { Refused } from '../src/engine/refusals.js';
import { SAVED_ROLL_LIMITS, sheetScope, validSavedRollName, type SavedRoll, type SavedRollScope } from '../src/engine/saved-rolls.js';
import type { OperatorSheet } from '../src/engine/sheet.js';
import { SYSTEM_IDS, systemName, type SystemId } from '../src/engine/systems/index.js';
import { derivedRollId, type StoredRoll } from '../src/store/rolls.js';
import { DISCORD_LIMITS } from '../src/views/limits.js';
import { privateNote } from '../src/views/messages.js';
import {
  noSheetToSaveOnText,
  otherSheetsRollsText,
  savedRollDeletedText,
  savedWhereText,
  notTypedText,
  notYourRollText,
  readSaveForm,
  saveRollModal,
  savedRollChoiceLabel,
  savedRollListText,
  savedRollText,
  type RollControl,
} from '../src/views/roll-again.js';

/** The label of the one roll a Roll again press makes from a roll: a second press finds it made. */
const AGAIN = 'again';

function ownerOf(context: HandlerContext) {
  return { guildId: context.guildId, ownerId: context.userId };
}

/** A roll of the acting member's that keeps what was typed; a clear refusal otherwise. */
async function ownTypedRoll(rollId: string, context: HandlerContext, action: 'again' | 'save'): Promise<StoredRoll & { invocation: RollInvocation }> {
  const stored = await context.store.rolls.require(context.guildId, rollId);
  if (stored.userId !== context.userId) throw new UserError(notYourRollText(stored.userId, action));
  if (!stored.invocation) throw new UserError(notTypedText(action));
  return stored as StoredRoll & { invocation: RollInvocation };
}

/** Roll again: the same subcommand and options, a new seed; one roll per press, the pressed button greyed after. */
async function rollAgain(interaction: MessageComponentInteraction, rollId: string, context: HandlerContext): Promise<void> {
  const stored = await ownTypedRoll(rollId, context, 'again');
  const againId = derivedRollId(stored.id, AGAIN);
  if (await context.store.rolls.find(context.guildId, againId)) throw new Refused({ kind: 'already-rolled-again' });
  // The new roll comes first, as a message of its own; the pressed message is redrawn only once it is made.
  await context.answer.holdMessage();
  await runInvocation(interaction, stored.invocation, againId, context);
  if (await context.store.rolls.find(context.guildId, againId)) await context.answer.editPressed({ components: rolledAgainComponents(interaction.message, stored.id) });
}

/** The sheet a saved roll of `system` goes on: the member's active sheet of it (dice notation: the current sheet). */
async function sheetToSaveOn(system: string, context: HandlerContext): Promise<OperatorSheet> {
  const owner = ownerOf(context);
  const ofSystem = (SYSTEM_IDS as readonly string[]).includes(system) ? (system as SystemId) : null;
  const sheet = ofSystem ? await context.store.operators.active(owner, ofSystem) : await context.store.operators.current(owner);
  if (!sheet) throw new UserError(noSheetToSaveOnText(ofSystem ? systemName(ofSystem) : null));
  return sheet;
}

async function openSaveForm(interaction: MessageComponentInteraction, rollId: string, context: HandlerContext): Promise<void> {
  const stored = await ownTypedRoll(rollId, context, 'save');
  const canShare = await context.isDispatcher();
  // A Dispatcher may share a roll with the server without a sheet; a player's goes on their sheet, which must exist.
  const sheet = canShare ? await sheetToSaveOn(stored.system, context).catch(() => null) : await sheetToSaveOn(stored.system, context);
  await context.answer.showModal(saveRollModal(stored.id, sheet?.name ?? null, canShare));
}

/** Saves what was typed under `name`, on the member's sheet, or shared with the server (a Dispatcher's choice). */
async function saveRoll(invocation: RollInvocation, system: string, rawName: string, shared: boolean, context: HandlerContext): Promise<void> {
  const name = validSavedRollName(rawName);
  let scope: SavedRollScope;
  let where: string;
  if (shared) {
    await context.requireDispatcher('share a saved roll with the server', 'Save it on your own sheet instead.');
    scope = 'server';
    where = savedWhereText(null);
  } else {
    const sheet = await sheetToSaveOn(system, context);
    scope = sheetScope(sheet.id);
    where = savedWhereText(sheet.name);
  }
  const { replaced } = await context.store.savedRolls.save(context.guildId, scope, name, invocation, context.userId);
  await context.answer.reply(privateNote(savedRollText({ name, scope, invocation }, replaced ? `${where}, replacing the roll saved under that name` : where)));
}

async function saveFromForm(interaction: ModalSubmitInteraction, rollId: string, context: HandlerContext): Promise<void> {
  const stored = await ownTypedRoll(rollId, context, 'save');
  const form = readSaveForm(formText(interaction));
  await saveRoll(stored.invocation, stored.system, form.name, form.shared, context);
}

export async function rollComponent(interaction: ComponentInteraction, control: RollControl, context: HandlerContext): Promise<void> {
  if (control.action === 'saveform') {
    if (!interaction.isModalSubmit()) throw new Error('a save form id on something other than a form');
    return saveFromForm(interaction, control.rollId, context);
  }
  if (!interaction.isMessageComponent()) throw new Error('a roll button id on something other than a press');
  if (control.action === 'again') return rollAgain(interaction, control.rollId, context);
  return openSaveForm(interaction, control.rollId, context);
}

/** Only the Save… press answers with a form (first, so ahead of the queue). */
export const rollMayOpenForm = (control: RollControl): boolean => control.action === 'save';

/** The member's sheets whose saved rolls they roll: the active one of each system. */
async function activeSheets(context: HandlerContext): Promise<OperatorSheet[]> {
  const sheets = await context.store.operators.list(ownerOf(context));
  return sheets.filter((sheet) => sheet.active || sheets.filter((other) => other.system === sheet.system).length === 1);
}

/** Where `/roll saved` looks, in order: the member's active sheets, then the server's shared rolls. */
async function scopesOf(context: HandlerContext): Promise<SavedRollScope[]> {
  return [...(await activeSheets(context)).map((sheet) => sheetScope(sheet.id)), 'server'];
}

async function rollSaved(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const saved = await context.store.savedRolls.require(context.guildId, await scopesOf(context), interaction.options.getString('name', true));
  await runInvocation(interaction, saved.invocation, context.store.rolls.newId(), context);
}

/** `/roll save`'s roll: the member's newest roll here that keeps what was typed, or the one whose id was given. */
async function rollToSave(typed: string | null, context: HandlerContext): Promise<StoredRoll & { invocation: RollInvocation }> {
  const id = typed?.trim().toLowerCase();
  if (id && id !== 'last') return ownTypedRoll(id, context, 'save');
  const { rolls } = await context.store.rolls.page(context.guildId, { userId: context.userId, limit: 25 });
  const last = rolls.find((roll) => roll.invocation);
  if (!last) throw new UserError('You have made no roll here lately that can be saved: type a roll (e.g. `/roll challenge`, `/roll dice`), then save it with its **Save…** button or `/roll save name:… from:last`. Nothing was saved.');
  return last as StoredRoll & { invocation: RollInvocation };
}

async function saveTyped(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const stored = await rollToSave(interaction.options.getString('from'), context);
  await saveRoll(stored.invocation, stored.system, interaction.options.getString('name', true), interaction.options.getBoolean('shared') ?? false, context);
}

async function listSaved(_interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheets = await activeSheets(context);
  const current = (await context.store.operators.current(ownerOf(context))) ?? sheets[0] ?? null;
  const mine = current ? await context.store.savedRolls.list(context.guildId, sheetScope(current.id)) : [];
  const others = sheets.filter((sheet) => sheet.id !== current?.id);
  const otherLists = await Promise.all(others.map(async (sheet) => ({ sheet, saved: await context.store.savedRolls.list(context.guildId, sheetScope(sheet.id)) })));
  const server = await context.store.savedRolls.list(context.guildId, 'server');
  let text = savedRollListText(current?.name ?? null, mine, server);
  const more = otherLists.filter(({ saved }) => saved.length > 0).map(({ sheet, saved }) => ({ sheetName: sheet.name, names: saved.map((roll) => roll.name) }));
  if (more.length) text = `${text}\n\n${otherSheetsRollsText(more)}`.slice(0, DISCORD_LIMITS.content);
  await context.answer.reply(privateNote(text));
}

async function deleteSaved(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const name = interaction.options.getString('name', true);
  if (interaction.options.getBoolean('shared') ?? false) {
    await context.requireDispatcher("delete the server's shared rolls", 'Leave `shared` out to delete one of your own.');
    const deleted = await context.store.savedRolls.delete(context.guildId, 'server', name);
    if (!deleted) throw new Refused({ kind: 'no-such-saved-roll', typed: name, suggestions: [] });
    await context.answer.reply(privateNote(savedRollDeletedText(deleted, null)));
    return;
  }
  for (const sheet of await activeSheets(context)) {
    const deleted = await context.store.savedRolls.delete(context.guildId, sheetScope(sheet.id), name);
    if (deleted) {
      await context.answer.reply(privateNote(savedRollDeletedText(deleted, sheet.name)));
      return;
    }
  }
  throw new Refused({ kind: 'no-such-saved-roll', typed: name, suggestions: [] });
}

/** Saved rolls the member may roll, best match first: their sheets' first, then the server's, each with what it rolls. */
async function savedChoices(interaction: AutocompleteInteraction, context: HandlerContext, scopes: 'all' | 'mine' | 'server') {
  const typed = String(interaction.options.getFocused());
  const sheets = scopes === 'server' ? [] : await activeSheets(context);
  const lists = await Promise.all([
    ...sheets.map((sheet) => context.store.savedRolls.list(context.guildId, sheetScope(sheet.id))),
    scopes === 'mine' ? Promise.resolve<SavedRoll[]>([]) : context.store.savedRolls.list(context.guildId, 'server'),
  ]);
  const key = nameKey(typed);
  // A name on the member's sheet hides the server's of the same name, as /roll saved rolls the sheet's first.
  const seen = new Set<string>();
  const matching = lists.flat().filter((saved) => {
    const savedKey = nameKey(saved.name);
    if (seen.has(savedKey) || !savedKey.includes(key)) return false;
    seen.add(savedKey);
    return true;
  });
  // Names that start with what was typed first; otherwise the sheet's before the server's, as listed.
  const ranked = [...matching.filter((saved) => nameKey(saved.name).startsWith(key)), ...matching.filter((saved) => !nameKey(saved.name).startsWith(key))];
  return ranked.slice(0, DISCORD_LIMITS.autocompleteChoices).map((saved) => ({ name: savedRollChoiceLabel(saved), value: saved.name }));
}

async function savedAutocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  await interaction.respond(await savedChoices(interaction, context, 'all'));
}

async function deleteAutocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  await interaction.respond(await savedChoices(interaction, context, interaction.options.getBoolean('shared') ? 'server' : 'mine'));
}

const nameOption = (description: string) => (o: SlashCommandStringOption) =>
  o.setName('name').setDescription(description).setRequired(true).setAutocomplete(true).setMaxLength(SAVED_ROLL_LIMITS.nameLength);

/** `/roll save`, `/roll saved`, `/roll saved-list`, `/roll saved-delete`: every server has them, whatever it plays. */
export const savedRollSubcommands: Subcommand[] = [
  {
    name: 'save',
    build: (sub) =>
      sub
        .setDescription('Save a roll you made under a name, to roll it again with /roll saved')
        .addStringOption((o) => o.setName('name').setDescription(`Its name, up to ${SAVED_ROLL_LIMITS.nameLength} characters`).setRequired(true).setMaxLength(SAVED_ROLL_LIMITS.nameLength))
        .addStringOption((o) => o.setName('from').setDescription('`last` (your newest roll here, the default) or a roll id from a footer').setMaxLength(20))
        .addBooleanOption((o) => o.setName('shared').setDescription("Dispatcher only: share it with everyone on this server, each rolling with their own sheet")),
    run: saveTyped,
    everywhere: true,
    help: { audience: 'player', example: '/roll save name:Breach from:last' },
  },
  {
    name: 'saved',
    build: (sub) => sub.setDescription("Roll a saved roll by name: your sheet's, or one the server shares").addStringOption(nameOption('The saved roll')),
    run: rollSaved,
    autocomplete: savedAutocomplete,
    // It may be a dice-notation roll, which runs the notation library as /roll dice does.
    heavy: true,
    everywhere: true,
    help: { audience: 'player', example: '/roll saved name:Breach' },
  },
  {
    name: 'saved-list',
    build: (sub) => sub.setDescription("List your sheet's saved rolls and the server's shared ones"),
    run: listSaved,
    everywhere: true,
    help: { audience: 'player', example: '/roll saved-list' },
  },
  {
    name: 'saved-delete',
    build: (sub) =>
      sub
        .setDescription('Delete a saved roll of yours (or, for a Dispatcher, one the server shares)')
        .addStringOption(nameOption('The saved roll to delete'))
        .addBooleanOption((o) => o.setName('shared').setDescription("Dispatcher only: delete the server's shared roll of this name")),
    run: deleteSaved,
    autocomplete: deleteAutocomplete,
    everywhere: true,
    help: { audience: 'player', example: '/roll saved-delete name:Breach' },
  },
];
