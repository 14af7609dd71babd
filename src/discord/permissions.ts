/** Who is a Dispatcher: the server's configured role, or by default any role named "Dispatcher". */
import type { Interaction } from 'discord.js';
import type { ServerSettings } from '../store/servers.js';

export const DEFAULT_DISPATCHER_ROLE_NAME = 'dispatcher';

/** The role ids the acting member has, whether discord.js gave us a full member or the raw API one. */
function memberRoleIds(interaction: Interaction): string[] {
  const member = interaction.member;
  if (!member) return [];
  if (Array.isArray(member.roles)) return member.roles;
  return [...member.roles.cache.keys()];
}

export function isDispatcher(interaction: Interaction, settings: ServerSettings): boolean {
  const roleIds = memberRoleIds(interaction);
  if (settings.dispatcherRoleId) return roleIds.includes(settings.dispatcherRoleId);
  const roles = interaction.guild?.roles.cache;
  return roleIds.some((id) => roles?.get(id)?.name.trim().toLowerCase() === DEFAULT_DISPATCHER_ROLE_NAME);
}
