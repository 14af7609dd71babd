/**
 * Whose sheet a roll command reads, the same way in every system: the roller (the member's active sheet, or an NPC
 * a Dispatcher names with `as_npc`) and the target (a member's active sheet, or an NPC with `target_npc`).
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { HandlerContext } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { nameKey } from '../../src/engine/names.js';
import type { OperatorSheet } from '../../src/engine/sheet.js';
import { npcOwner } from '../../src/store/operators.js';

/** The roller's sheet; with `optional`, null when the member has no active sheet (a roll that can go without one). */
export async function rollerSheet(interaction: ChatInputCommandInteraction, context: HandlerContext, need: 'required'): Promise<OperatorSheet>;
export async function rollerSheet(interaction: ChatInputCommandInteraction, context: HandlerContext, need: 'optional'): Promise<OperatorSheet | null>;
export async function rollerSheet(interaction: ChatInputCommandInteraction, context: HandlerContext, need: 'required' | 'optional'): Promise<OperatorSheet | null> {
  const npc = interaction.options.getString('as_npc');
  if (npc !== null) {
    await context.requireDispatcher('roll for an NPC');
    return context.store.operators.byNameOrActive(npcOwner(context.guildId), npc);
  }
  const owner = { guildId: context.guildId, ownerId: context.userId };
  return need === 'required' ? context.store.operators.requireActive(owner) : context.store.operators.active(owner);
}

/** The target's sheet: a member's active sheet or (Dispatchers only) an NPC; null when neither is named. */
export async function targetSheet(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<OperatorSheet | null> {
  const user = interaction.options.getUser('target');
  const npc = interaction.options.getString('target_npc');
  if (user && npc !== null) throw new UserError('Name one target: `target` (a member) or `target_npc` (an NPC), not both.');
  if (npc !== null) {
    await context.requireDispatcher('name an NPC as the target');
    return context.store.operators.byNameOrActive(npcOwner(context.guildId), npc);
  }
  if (!user) return null;
  return context.store.operators.requireActive({ guildId: context.guildId, ownerId: user.id }, user.id === context.userId ? undefined : `<@${user.id}>`);
}

/** An NPC of this server by name, for autocomplete (which must not throw): null when there is none. */
export async function npcNamed(context: HandlerContext, name: string): Promise<OperatorSheet | null> {
  const key = nameKey(name);
  return (await context.store.operators.list(npcOwner(context.guildId))).find((sheet) => nameKey(sheet.name) === key) ?? null;
}
