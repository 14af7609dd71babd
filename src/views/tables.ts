/** Outcome tables (RULES 1.4) as embeds: a table, the list, the delete prompt, and an outcome roll with its dice. */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, MessageFlags } from 'discord.js';
import { TABLE_LIMITS, parseTableDie, type OutcomeRollResult, type OutcomeTable, type TableDieRoll, type TableRow } from '../engine/tables.js';
import { rollFooter } from './challenge.js';
import { componentIds, wholeNumber } from './component-id.js';
import { authorMarkdown, escapeMarkdown, formatD100, formatTerms, plural } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';

const COLOR = 0x8e6c3a;

/** Room the rows of `/table show` may take, so the whole embed stays under Discord's 6000 characters. */
const SHOW_ROWS_TEXT_MAX = 3600;
const SHOW_ROW_TEXT_MAX = 200;
const LIST_TEXT_MAX = 3800;

/** Joins lines up to `max` characters, then says how many were left out and where to see them. */
function linesWithin(lines: string[], max: number, more: (left: number) => string): string {
  const shown: string[] = [];
  let length = 0;
  for (let index = 0; index < lines.length; index++) {
    const add = lines[index]!.length + (shown.length ? 1 : 0);
    const reserve = index === lines.length - 1 ? 0 : more(lines.length - index - 1).length + 1;
    if (length + add + reserve > max) {
      shown.push(more(lines.length - index));
      break;
    }
    shown.push(lines[index]!);
    length += add;
  }
  return shown.join('\n');
}

export function rangeText(row: Pick<TableRow, 'min' | 'max'>): string {
  return row.min === row.max ? `${row.min}` : `${row.min}–${row.max}`;
}

function revealsText(reveals: TableRow['reveals']): string | null {
  if (reveals === 'cl') return 'reveals the exact Challenge Level';
  if (reveals === 'band') return 'reveals the Challenge Level within a band of 20';
  return null;
}

function rowLine(row: TableRow, textMax: number): string {
  const extras = [row.next ? `→ roll **${escapeMarkdown(row.next)}**` : null, revealsText(row.reveals) ? `🔎 ${revealsText(row.reveals)}` : null].filter(Boolean);
  return `**${rangeText(row)}** · ${authorMarkdown(truncate(row.text.replace(/\s*\n\s*/g, ' '), textMax))}${extras.length ? ` (${extras.join('; ')})` : ''}`;
}

function tableFacts(table: OutcomeTable): string {
  return [
    `Die: **${escapeMarkdown(table.die)}**${parseTableDie(table.die).sides === 100 ? ' (each d100 rolled as 2D10)' : ''}`,
    table.asks ? `Asks: *${escapeMarkdown(table.asks)}*` : 'Asks: *nothing; the roller may still add a skill, archetypes or a modifier*',
    table.skill ? `Default skill: **${escapeMarkdown(table.skill)}** (added when the roller names none)` : null,
  ]
    .filter(Boolean)
    .join('\n');
}

export function tableShowReply(table: OutcomeTable): ReplyPayload {
  const rows = linesWithin(
    table.rows.map((row) => rowLine(row, SHOW_ROW_TEXT_MAX)),
    SHOW_ROWS_TEXT_MAX,
    (left) => `*… and ${plural(left, 'more row')}: \`/table export\` has them all.*`,
  );
  const embed = new EmbedBuilder()
    .setColor(COLOR)
    .setTitle(truncate(`📋 ${table.name}`, DISCORD_LIMITS.embedTitle))
    .setDescription(truncate(`${tableFacts(table)}\n\n**Rows** (${table.rows.length})\n${rows}`, DISCORD_LIMITS.embedDescription))
    .setFooter({ text: `Roll it with /roll outcome table:${truncate(table.name, 100)}` });
  return { embeds: [embed.toJSON()], flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS };
}

export function tableListReply(tables: OutcomeTable[]): ReplyPayload {
  const lines = tables.map((table) => `• **${escapeMarkdown(table.name)}** · ${escapeMarkdown(table.die)}, ${plural(table.rows.length, 'row')}${table.skill ? `, adds ${escapeMarkdown(table.skill)}` : ''}`);
  const embed = new EmbedBuilder()
    .setColor(COLOR)
    .setTitle('Outcome tables of this server')
    .setDescription(
      lines.length
        ? linesWithin(lines, LIST_TEXT_MAX, (left) => `*… and ${plural(left, 'more table')}.*`)
        : '*No tables yet. A Dispatcher imports one with `/table import`.*',
    )
    .setFooter({ text: `${tables.length} of ${TABLE_LIMITS.tablesPerServer} tables · /table show name:… for the rows` });
  return { embeds: [embed.toJSON()], flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS };
}

export type TableControl =
  | { action: 'keep' }
  | { action: 'delete'; askerId: string; tableName: string }
  /** The row's next table, rolled from roll `rollId` with sheet `sheetId` (null: the presser's active sheet). */
  | { action: 'next'; rollId: string; sheetId: number | null };

/**
 * `table:keep`, `table:delete:<asker id>:<table name>` (the name last: it may hold `:`; at most 64 characters, so it
 * fits), `table:next:<roll id>:<sheet id, 0 for none>`.
 */
export const tableIds = componentIds<TableControl>('table', {
  write: (control) => {
    if (control.action === 'delete') return [control.action, control.askerId, control.tableName];
    if (control.action === 'next') return [control.action, control.rollId, control.sheetId ?? 0];
    return [control.action];
  },
  read: ([action, first, ...rest]) => {
    if (action === 'keep') return first === undefined ? { action } : null;
    if (action === 'delete') {
      const tableName = rest.join(':');
      return first && /^\d+$/.test(first) && tableName ? { action, askerId: first, tableName } : null;
    }
    const sheetId = wholeNumber(rest[0]);
    if (action !== 'next' || !first || sheetId === null || rest.length !== 1) return null;
    return { action, rollId: first, sheetId: sheetId > 0 ? sheetId : null };
  },
});

export function tableDeleteConfirmReply(table: OutcomeTable, askerId: string): ReplyPayload {
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId(tableIds.encode({ action: 'delete', askerId, tableName: table.name })).setLabel(truncate(`Delete ${table.name}`, DISCORD_LIMITS.buttonLabel)).setStyle(ButtonStyle.Danger),
    new ButtonBuilder().setCustomId(tableIds.encode({ action: 'keep' })).setLabel('Keep it').setStyle(ButtonStyle.Secondary),
  );
  return {
    content: `Delete the outcome table **${escapeMarkdown(table.name)}** with its ${plural(table.rows.length, 'row')}? This cannot be undone; \`/table export\` first keeps a copy. Rolls already made with it can still be replayed.`,
    components: [row.toJSON()],
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_PINGS,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Outcome rolls

/** `[4][8] → 48` for a d100; `[3] [5] → 8` for 2d6; several d100s each with their two dice, then the total. */
export function formatTableDice(roll: TableDieRoll): string {
  if (roll.dice.every((die) => die.d100)) {
    const each = roll.dice.map((die) => formatD100(die.d100!));
    return each.length === 1 ? each[0]! : `${each.join(' · ')} = ${roll.total}`;
  }
  return `${roll.dice.map((die) => `[${die.value}]`).join(' ')} → ${roll.total}`;
}

/** The lines that explain one outcome roll: the dice, every term of the sum, a clamp if any, the row. */
export function outcomeLines(result: OutcomeRollResult): string[] {
  const { table, modifiers } = result.input;
  const lines = [`🎲 \`${formatTableDice(result.roll)}\``, `${result.roll.total} (${escapeMarkdown(table.die)})${formatTerms(modifiers)} = **${result.result}**`];
  if (result.clamped === 'below') {
    lines.push(`${result.result} is below the first row (${rangeText(table.rows[0]!)}), so the first row applies.`);
  } else if (result.clamped === 'above') {
    lines.push(`${result.result} is above the last row (${rangeText(table.rows.at(-1)!)}), so the last row applies.`);
  }
  lines.push(`**${rangeText(result.row)}** · ${authorMarkdown(result.row.text)}`);
  const reveals = revealsText(result.row.reveals);
  if (reveals) lines.push(`🔎 This row ${reveals}.`);
  return lines;
}

/** What to show of the row's next table: a button when the table exists, a note when it does not (yet). */
export type NextTable = { name: string; exists: boolean; sheetId: number | null } | null;

function nextButton(rollId: string, next: { name: string; sheetId: number | null }, done: boolean) {
  return new ActionRowBuilder<ButtonBuilder>()
    .addComponents(
      new ButtonBuilder()
        .setCustomId(tableIds.encode({ action: 'next', rollId, sheetId: next.sheetId }))
        .setLabel(truncate(done ? `Rolled ${next.name}` : `Roll ${next.name}`, DISCORD_LIMITS.buttonLabel))
        .setStyle(done ? ButtonStyle.Secondary : ButtonStyle.Primary)
        .setDisabled(done),
    )
    .toJSON();
}

/** The next-table button once it was pressed: greyed out, so the next table is rolled once. */
export function nextTableDoneComponents(rollId: string, next: { name: string; sheetId: number | null }) {
  return [nextButton(rollId, next, true)];
}

export function outcomeEmbed(result: OutcomeRollResult, who: string, rollId: string, next: NextTable): EmbedBuilder {
  const { table } = result.input;
  const lines = [`**${escapeMarkdown(who)}** · ${escapeMarkdown(table.name)}`, ...(table.asks ? [`*${escapeMarkdown(table.asks)}*`] : []), ...outcomeLines(result)];
  if (next && !next.exists) lines.push(`Next: **${escapeMarkdown(next.name)}**, but this server has no table of that name.`);
  else if (next) lines.push(`Next: **${escapeMarkdown(next.name)}** (the button below rolls it).`);
  return new EmbedBuilder()
    .setColor(COLOR)
    .setTitle(truncate(`🎲 ${table.name}: ${result.result}`, DISCORD_LIMITS.embedTitle))
    .setDescription(truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription))
    .setFooter({ text: rollFooter(rollId) });
}

export function outcomeReply(result: OutcomeRollResult, who: string, rollId: string, next: NextTable): ReplyPayload {
  return {
    embeds: [outcomeEmbed(result, who, rollId, next).toJSON()],
    components: next?.exists ? [nextButton(rollId, next, false)] : [],
    allowedMentions: NO_PINGS,
  };
}
