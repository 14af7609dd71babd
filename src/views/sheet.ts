/** Operator sheets as embeds, and the confirm-delete prompt. */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, MessageFlags } from 'discord.js';
import { isConditionActive, isNpc, misfitKey, misfits, type EntryKind, type OperatorSheet } from '../engine/sheet.js';
import { sheetRulesOf, systemName } from '../engine/systems/index.js';
import { actionIds } from './component-id.js';
import { authorMarkdownWithin, escapeMarkdown, plural, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';
import { entryNumberAsStored } from './system-view.js';
import { SYSTEM_VIEWS } from './systems.js';

/** Leaves room for the fields so the whole embed stays under Discord's 6000 characters. */
const SKILLS_TEXT_MAX = 3000;

function joinWithin(items: string[], max: number, separator: string): string {
  let text = '';
  for (let index = 0; index < items.length; index++) {
    const next = (text ? separator : '') + items[index];
    const rest = `${separator}… and ${items.length - index} more (see /sheet export)`;
    if (text.length + next.length + rest.length > max && index < items.length - 1) return text + rest;
    if (text.length + next.length > max) return text + rest;
    text += next;
  }
  return text;
}

function minutesLeft(expiresAt: Date, now: Date): string {
  const minutes = Math.ceil((expiresAt.getTime() - now.getTime()) / 60_000);
  return minutes >= 120 ? `${Math.round(minutes / 60)} h left` : `${minutes} min left`;
}

/** The command that edits this sheet: `/npc` for an NPC, `/sheet` for a player's. */
function commandOf(sheet: OperatorSheet): string {
  return isNpc(sheet) ? '/npc' : '/sheet';
}

/** Marks an entry its system does not hold: kept as it was stored (nothing is ever dropped), shown as such. */
const MISFIT = ' ⚠';

export function sheetEmbed(sheet: OperatorSheet, ownerLabel: string, now: Date): EmbedBuilder {
  const rules = sheetRulesOf(sheet.system);
  const wrong = misfits(sheet, rules, systemName(sheet.system));
  const mark = (kind: EntryKind, name: string) => (wrong.has(misfitKey(kind, name)) ? MISFIT : '');
  // A misfit is kept as it was stored and shown so: its system does not read it, so its view does not either.
  const number = (kind: EntryKind, name: string, value: number) =>
    wrong.has(misfitKey(kind, name)) ? entryNumberAsStored(kind, value) : SYSTEM_VIEWS.entryNumber(sheet.system, kind, value);
  const skills = sheet.skills.map((skill) => `${escapeMarkdown(skill.name)} ${number('skill', skill.name, skill.level)}${mark('skill', skill.name)}`);
  const archetypes = sheet.archetypes.map((archetype) => `${escapeMarkdown(archetype.name)} ${number('archetype', archetype.name, archetype.modifier)}${mark('archetype', archetype.name)}`);
  const conditions = sheet.conditions
    .filter((condition) => isConditionActive(condition, now))
    .map((condition) => {
      const scope = condition.skills === null ? 'all skills' : condition.skills.map(escapeMarkdown).join(', ');
      const expiry = condition.expiresAt ? `, ${minutesLeft(condition.expiresAt, now)}` : '';
      return `${escapeMarkdown(condition.name)} ${number('condition', condition.name, condition.modifier)} (${scope}${expiry})${mark('condition', condition.name)}`;
    });
  const embed = new EmbedBuilder()
    .setColor(0x34495e)
    .setTitle(truncate(`${sheet.name}${sheet.active ? ' (active)' : ''}`, DISCORD_LIMITS.embedTitle))
    .setDescription(
      truncate(
        `${isNpc(sheet) ? 'NPC' : 'Operator'} of ${escapeMarkdown(ownerLabel)} · System: ${escapeMarkdown(systemName(sheet.system))}\n\n**Skills** (${sheet.skills.length})\n${skills.length ? joinWithin(skills, SKILLS_TEXT_MAX, ' · ') : `*none yet: \`${commandOf(sheet)} skill set\`, or several at once with \`${commandOf(sheet)} set\`*`}`,
        DISCORD_LIMITS.embedDescription,
      ),
    );
  // Only Tac Talk's sheets hold archetypes: another system's shows the field only for ones kept from before (marked).
  if (rules.archetype !== null || archetypes.length > 0) {
    embed.addFields({ name: `Archetype modifiers (${archetypes.length})`, value: archetypes.length ? joinWithin(archetypes, 900, ' · ') : '*none*' });
  }
  embed.addFields({ name: `Conditions (${conditions.length})`, value: conditions.length ? joinWithin(conditions, 900, '\n') : '*none*' });
  if (sheet.attributes.length) {
    const attributes = sheet.attributes.map((attribute) => `${escapeMarkdown(attribute.name)} ${number('attribute', attribute.name, attribute.value)}${mark('attribute', attribute.name)}`);
    embed.addFields({ name: `Attributes (${attributes.length})`, value: joinWithin(attributes, 900, ' · ') });
  }
  if (sheet.notes) embed.addFields({ name: 'Notes', value: authorMarkdownWithin(sheet.notes, 900) });
  // An NPC's picture, as it speaks under it (`/npc avatar`).
  if (sheet.avatarUrl) embed.setThumbnail(sheet.avatarUrl);
  if (wrong.size > 0) {
    embed.addFields({
      name: `${MISFIT.trim()} Not part of a ${systemName(sheet.system)} sheet (${wrong.size})`,
      value: truncate(
        `A ${escapeMarkdown(systemName(sheet.system))} sheet holds ${rules.holds}. The marked entries were kept as they were; no roll of this system reads them, and they can only be removed (\`${commandOf(sheet)} skill remove\`, \`attribute remove\`…).`,
        1024,
      ),
    });
  }
  return embed;
}

export function sheetReply(sheet: OperatorSheet, ownerLabel: string, now: Date, ephemeral = false): ReplyPayload {
  return {
    embeds: [sheetEmbed(sheet, ownerLabel, now).toJSON()],
    allowedMentions: NO_PINGS,
    ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
  };
}

/** A player's sheets (the active one marked), or with `npcs` the server's NPCs (none is active). */
export function sheetListReply(sheets: OperatorSheet[], ownerLabel: string, npcs = false): ReplyPayload {
  const lines = sheets.map(
    (sheet) =>
      `${sheet.active ? '▶' : '•'} **${escapeMarkdown(sheet.name)}** · ${escapeMarkdown(systemName(sheet.system))}: ${plural(sheet.skills.length, 'skill')}, ${plural(sheet.attributes.length, 'attribute')}, ${plural(sheet.archetypes.length, 'archetype')}`,
  );
  const embed = new EmbedBuilder()
    .setColor(0x34495e)
    .setTitle(truncate(`${npcs ? 'NPCs' : 'Sheets'} of ${ownerLabel}`, DISCORD_LIMITS.embedTitle))
    .setDescription(truncate(lines.length ? lines.join('\n') : `*No ${npcs ? 'NPCs' : 'sheets'} yet. Create one with \`${npcs ? '/npc' : '/sheet'} create\`.*`, DISCORD_LIMITS.embedDescription));
  if (!npcs) embed.setFooter({ text: '▶ marks an active sheet: one per system, the one that system\'s commands roll' });
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS };
}

/** `sheet:<delete|keep>:<sheet id>`, and `npc:…` for an NPC: the buttons of a delete prompt. */
export const sheetIds = actionIds('sheet', ['delete', 'keep'], 'sheetId');
export const npcIds = actionIds('npc', ['delete', 'keep'], 'sheetId');
export type DeletePromptControl = NonNullable<ReturnType<typeof sheetIds.parse>>;

export function deleteConfirmReply(sheet: OperatorSheet): ReplyPayload {
  const ids = isNpc(sheet) ? npcIds : sheetIds;
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId(ids.encode({ action: 'delete', sheetId: sheet.id })).setLabel(truncate(`Delete ${sheet.name}`, DISCORD_LIMITS.buttonLabel)).setStyle(ButtonStyle.Danger),
    new ButtonBuilder().setCustomId(ids.encode({ action: 'keep', sheetId: sheet.id })).setLabel('Keep it').setStyle(ButtonStyle.Secondary),
  );
  return {
    content: `Delete **${escapeMarkdown(sheet.name)}** with its ${plural(sheet.skills.length, 'skill')}, archetypes and conditions? This cannot be undone${isNpc(sheet) ? '.' : '; `/sheet export` first keeps a copy.'}`,
    components: [row.toJSON()],
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_PINGS,
  };
}

/** What to add first to a new sheet of a system, said when it is made; and how `/sheet set` adds it in one go. */
export function sheetStartHint(system: string): string {
  const { start } = sheetRulesOf(system);
  const example = entryListsExample(system, (kind) => start.includes(`/sheet ${kind} set`));
  return example === null ? start : `${start} Several at once: \`/sheet set ${example}\`.`;
}

/** Names for an example list when a system reads any name (Tac Talk's skills, a d10 pools sheet's attributes). */
const EXAMPLE_NAMES = { skill: ['Climbing', 'Driving'], archetype: ['Acuity', 'Dexterity'], attribute: ['Strength', 'Wits'] } as const;

/**
 * An example of `/sheet set`'s lists for a sheet of the system (`skills:Climbing 40, Driving 39`), from the names
 * and ranges it holds, for the kinds `wanted`; null when it holds none of them.
 */
export function entryListsExample(system: string, wanted: (kind: 'skill' | 'archetype' | 'attribute') => boolean): string | null {
  const rules = sheetRulesOf(system);
  const lists = (['skill', 'archetype', 'attribute'] as const).flatMap((kind) => {
    const rule = rules[kind];
    if (!rule || !wanted(kind)) return [];
    const names = rule.known.length >= 2 ? rule.known.slice(0, 2) : EXAMPLE_NAMES[kind];
    const entries = names.map((name, index) => {
      const { min, max } = rule.range(name);
      const value = kind === 'archetype' ? 10 - 15 * index : Math.max(min, (max >= 100 ? 40 : Math.ceil(max / 2)) - index);
      return `${name} ${kind === 'archetype' ? signedCompact(value) : value}`;
    });
    return [`${kind}s:${entries.join(', ')}`];
  });
  return lists.length === 0 ? null : lists.join(' ');
}
