/**
 * Whose sheet a roll command reads, the same way in every system: the roller (the member's active sheet of the
 * command's system, or an NPC a Dispatcher names with `as_npc`) and the target (a member's active sheet of that
 * system, or an NPC with `target_npc`). A command never reads a sheet of another system (RULES 6.1). And what a roll's
 * skill and archetype options suggest from the sheet it reads.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { HandlerContext } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { nameKey } from '../../src/engine/names.js';
import type { OperatorSheet } from '../../src/engine/sheet.js';
import type { SystemId } from '../../src/engine/systems/index.js';
import { npcOwner } from '../../src/store/operators.js';
import { listChoices, nameChoices } from '../../src/views/autocomplete.js';

/** The system a roll command reads sheets of, and (when it is not the system's own command) its name for messages. */
export interface SheetNeed {
  system: SystemId;
  command?: string;
}

/** The roller's sheet; with `optional`, null when the member has no sheet of the system (a roll that can go without one). */
export async function rollerSheet(interaction: ChatInputCommandInteraction, context: HandlerContext, need: SheetNeed, want: 'required'): Promise<OperatorSheet>;
export async function rollerSheet(interaction: ChatInputCommandInteraction, context: HandlerContext, need: SheetNeed, want: 'optional'): Promise<OperatorSheet | null>;
export async function rollerSheet(interaction: ChatInputCommandInteraction, context: HandlerContext, need: SheetNeed, want: 'required' | 'optional'): Promise<OperatorSheet | null> {
  const npc = interaction.options.getString('as_npc');
  if (npc !== null) {
    await context.requireDispatcher('roll for an NPC');
    return context.store.operators.byNameOrActive(npcOwner(context.guildId), npc, need.system, { command: need.command });
  }
  const owner = { guildId: context.guildId, ownerId: context.userId };
  return want === 'required' ? context.store.operators.requireActive(owner, need.system, { command: need.command }) : context.store.operators.active(owner, need.system);
}

/** The target's sheet: a member's active sheet of the system or (Dispatchers only) an NPC; null when neither is named. */
export async function targetSheet(interaction: ChatInputCommandInteraction, context: HandlerContext, need: SheetNeed): Promise<OperatorSheet | null> {
  const user = interaction.options.getUser('target');
  const npc = interaction.options.getString('target_npc');
  if (user && npc !== null) throw new UserError('Name one target: `target` (a member) or `target_npc` (an NPC), not both.');
  if (npc !== null) {
    await context.requireDispatcher('name an NPC as the target');
    return context.store.operators.byNameOrActive(npcOwner(context.guildId), npc, need.system, { command: need.command });
  }
  if (!user) return null;
  return context.store.operators.requireActive({ guildId: context.guildId, ownerId: user.id }, need.system, {
    command: need.command,
    ...(user.id === context.userId ? {} : { someoneElse: `<@${user.id}>` }),
  });
}

/** An NPC of this server by name (of `system` when given), for autocomplete (which must not throw): null when there is none. */
export async function npcNamed(context: HandlerContext, name: string, system?: SystemId): Promise<OperatorSheet | null> {
  const key = nameKey(name);
  const npc = (await context.store.operators.list(npcOwner(context.guildId))).find((sheet) => nameKey(sheet.name) === key) ?? null;
  return npc && (system === undefined || npc.system === system) ? npc : null;
}

/**
 * A Tac Talk roll's `skill` (each with its level) or `archetypes` (a comma list, completed name by name) suggestions
 * from the sheet it is rolled from; none for any other option. Which sheet, and what to offer without one, is the
 * command's to say.
 */
export function skillOrArchetypeChoices(sheet: OperatorSheet, option: string, typed: string) {
  if (option === 'skill') {
    const levels = new Map(sheet.skills.map((skill) => [skill.name, skill.level]));
    return nameChoices([...levels.keys()], typed, (name) => `${name} (${levels.get(name)})`);
  }
  if (option === 'archetypes') return listChoices(sheet.archetypes.map((archetype) => archetype.name), typed);
  return [];
}
