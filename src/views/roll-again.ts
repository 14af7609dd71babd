/**
 * Roll again and saved rolls, as a member sees them: the row a typed roll's answer carries (Roll again, Save…), the
 * form that names a saved roll, the lists and the words. The custom_ids are the `roll` command's family.
 */
import { ButtonStyle, LabelBuilder, ModalBuilder, StringSelectMenuBuilder, TextInputBuilder, TextInputStyle, type APIActionRowComponent, type APIComponentInMessageActionRow } from 'discord.js';
import { invocationText, type RollInvocation } from '../engine/invocation.js';
import { SAVED_ROLL_LIMITS, type SavedRollScope } from '../engine/saved-rolls.js';
import { BUTTON, componentIds } from './component-id.js';
import { escapeMarkdown } from './format.js';
import { DISCORD_LIMITS, truncate } from './limits.js';
import type { FormText } from './messages.js';

/** What a `roll:` custom_id stands for: a press on a typed roll's answer, or the save form's submit. */
export type RollControl = { action: 'again' | 'save' | 'saveform'; rollId: string };

const ROLL_ID = /^[23456789abcdefghjkmnpqrstuvwxyz]{8}$/;

export const rollIds = componentIds<RollControl>('roll', {
  write: (control) => [control.action, control.rollId],
  read: ([action, rollId, extra]) =>
    (action === 'again' || action === 'save' || action === 'saveform') && rollId !== undefined && ROLL_ID.test(rollId) && extra === undefined ? { action, rollId } : null,
  origin: (control) => (control.action === 'saveform' ? { formOpenedBy: [{ action: 'save', rollId: control.rollId }] } : BUTTON),
});

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

/** The row a typed roll's answer carries: Roll again (greyed once pressed) and Save…. */
export function rollAgainRow(rollId: string, rolledAgain = false): Row {
  return {
    type: 1,
    components: [
      { type: 2, style: ButtonStyle.Primary, label: rolledAgain ? 'Rolled again' : 'Roll again', emoji: { name: '🎲' }, custom_id: rollIds.encode({ action: 'again', rollId }), disabled: rolledAgain },
      { type: 2, style: ButtonStyle.Secondary, label: 'Save…', custom_id: rollIds.encode({ action: 'save', rollId }) },
    ],
  };
}

/** Whether a drawn row is the Roll again row of a roll (from any message's components, as JSON). */
export function isRollAgainRow(row: { components?: ReadonlyArray<{ custom_id?: string }> }): boolean {
  return (row.components ?? []).some((component) => component.custom_id !== undefined && rollIds.parse(component.custom_id)?.action === 'again');
}

const SAVE_FIELDS = { name: 'name', share: 'share' } as const;

/** The save form: the name; for a Dispatcher, whether the whole server may roll it. */
export function saveRollModal(rollId: string, sheetName: string | null, canShare: boolean): ModalBuilder {
  const where = sheetName ? `on ${sheetName}` : 'for you';
  const name = new LabelBuilder()
    .setLabel('Name')
    .setDescription(truncate(`Roll it later with /roll saved name:…; saved ${where}.`, DISCORD_LIMITS.formLabelDescription))
    .setTextInputComponent(
      new TextInputBuilder().setCustomId(SAVE_FIELDS.name).setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(SAVED_ROLL_LIMITS.nameLength).setPlaceholder('e.g. Breach'),
    );
  const modal = new ModalBuilder().setCustomId(rollIds.encode({ action: 'saveform', rollId })).setTitle('Save this roll').addLabelComponents(name);
  if (!canShare) return modal;
  const share = new LabelBuilder()
    .setLabel('Who can roll it')
    .setDescription('Shared rolls are rolled with each member’s own sheet.')
    .setStringSelectMenuComponent(
      new StringSelectMenuBuilder()
        .setCustomId(SAVE_FIELDS.share)
        .setRequired(false)
        .setPlaceholder(truncate(`Only you (${where})`, DISCORD_LIMITS.placeholder))
        .addOptions({ label: truncate(`Only you (${where})`, DISCORD_LIMITS.optionLabel), value: 'mine' }, { label: 'Everyone on this server', value: 'server' }),
    );
  return modal.addLabelComponents(share);
}

/** What the save form holds: the name as typed, and whether it is shared with the server. */
export function readSaveForm(text: FormText): { name: string; shared: boolean } {
  return { name: text(SAVE_FIELDS.name), shared: text(SAVE_FIELDS.share).trim() === 'server' };
}

/** A saved roll as it is listed: its name and what it rolls. */
export interface SavedRollShown {
  name: string;
  scope: SavedRollScope;
  invocation: RollInvocation;
}

/** An autocomplete choice's label: the name, then what it rolls (a shared one marked). */
export function savedRollChoiceLabel(saved: SavedRollShown): string {
  return truncate(`${saved.name}${saved.scope === 'server' ? ' (server)' : ''}: ${invocationText(saved.invocation)}`, DISCORD_LIMITS.choiceName);
}

/** `/roll saved-list`: the member's sheet's saved rolls, then the server's. */
export function savedRollListText(sheetName: string | null, mine: readonly SavedRollShown[], server: readonly SavedRollShown[]): string {
  const line = (saved: SavedRollShown) => `- **${escapeMarkdown(saved.name)}**: \`${invocationText(saved.invocation).replace(/`/g, "'")}\``;
  const parts: string[] = [];
  if (sheetName === null) parts.push('You have no active sheet here, so no saved rolls of your own.');
  else parts.push(mine.length ? `**On ${escapeMarkdown(sheetName)}** (${mine.length}/${SAVED_ROLL_LIMITS.perSheet}):\n${mine.map(line).join('\n')}` : `${escapeMarkdown(sheetName)} has no saved rolls yet.`);
  parts.push(server.length ? `**Shared on this server** (${server.length}/${SAVED_ROLL_LIMITS.perServer}):\n${server.map(line).join('\n')}` : 'This server shares no saved rolls.');
  parts.push('Save one with **Save…** under a roll you made, or `/roll save name:… from:last`; roll it with `/roll saved name:…`.');
  return truncate(parts.join('\n\n'), DISCORD_LIMITS.content);
}

export function savedRollText(saved: SavedRollShown, where: string): string {
  return `Saved **${escapeMarkdown(saved.name)}** ${where}: \`${invocationText(saved.invocation).replace(/`/g, "'")}\`. Roll it with \`/roll saved name:${saved.name.replace(/`/g, "'")}\`.`;
}

/** A saved roll deleted: from one of the member's sheets (its name), or from the server's shared ones (null). */
export function savedRollDeletedText(name: string, sheetName: string | null): string {
  return `Deleted **${escapeMarkdown(name)}**${sheetName === null ? ', shared on this server' : ` from ${escapeMarkdown(sheetName)}`}. Nothing else changed.`;
}

/** The saved rolls of the member's other active sheets, by name, after the list of the current one's. */
export function otherSheetsRollsText(others: ReadonlyArray<{ sheetName: string; names: string[] }>): string {
  return `On your other active sheets: ${others.map(({ sheetName, names }) => `${escapeMarkdown(sheetName)}: ${names.map(escapeMarkdown).join(', ')}`).join('; ')}`;
}

/** Where a saved roll was put, as the answer to saving says it. */
export function savedWhereText(sheetName: string | null): string {
  return sheetName === null ? 'for everyone on this server (each rolls it with their own sheet)' : `on ${escapeMarkdown(sheetName)}`;
}

/** Someone else's roll: only the member who made it may press its Roll again or Save…. */
export function notYourRollText(rollerId: string, action: 'again' | 'save'): string {
  return `Only <@${rollerId}>, who made this roll, can ${action === 'again' ? 'roll it again' : 'save it'}. Make your own roll, and its **Roll again** is yours. Nothing was ${action === 'again' ? 'rolled' : 'saved'}.`;
}

/** A roll that kept nothing of what was typed (made by a press, before rolls kept it, or too long to keep). */
export function notTypedText(action: 'again' | 'save'): string {
  return `This roll keeps nothing to ${action === 'again' ? 'roll again' : 'save'}: it was made by a press, or before rolls kept what was typed. Type the command anew. Nothing was ${action === 'again' ? 'rolled' : 'saved'}.`;
}

/** No sheet to save on: a saved roll lives on the member's active sheet of its system (`kind`; null: any sheet). */
export function noSheetToSaveOnText(kind: string | null): string {
  const sheet = kind ? `${kind} sheet` : 'sheet';
  return `A saved roll is kept on your active ${sheet}, and you have no active ${sheet} on this server. Make one with \`/sheet create name:…\` (or pick one with \`/sheet use name:…\`), then save it. Nothing was saved.`;
}

type Drawable = object;
type RowJson = { components?: Array<{ custom_id?: string }> };
const asJson = (row: Drawable): RowJson => ('toJSON' in row && typeof row.toJSON === 'function' ? row.toJSON() : row) as RowJson;

/**
 * A typed roll's message redrawn by its own controls (a push, Apply damage, a next table) keeps its Roll again row:
 * `drawn` is the message as it stands, `components` what the redraw gives it; the row goes last, where there is room.
 */
export function withRollAgainKept<T extends Drawable>(drawn: readonly Drawable[], components: readonly T[]): Array<T | Row> {
  const row = drawn.map(asJson).find(isRollAgainRow);
  if (!row || components.length >= DISCORD_LIMITS.actionRows || components.map(asJson).some(isRollAgainRow)) return [...components];
  return [...components, row as Row];
}
