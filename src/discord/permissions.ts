/**
 * Who is a Dispatcher, and who may change the server's settings.
 * - A role is configured (`/config dispatcher-role`): exactly the members with that role are Dispatchers.
 * - No role is configured: members with a role named "Dispatcher", and members with the Manage Server permission.
 * The server's settings (`/config …`) need Manage Server, whatever the Dispatcher rule.
 */
import { PermissionFlagsBits, type Interaction } from 'discord.js';
import type { DispatcherRule, ServerSettings } from '../store/servers.js';

export const DEFAULT_DISPATCHER_ROLE_NAME = 'dispatcher';

/** What the rule looks at about one member. */
export interface MemberFacts {
  roleIds: readonly string[];
  roleNames: readonly string[];
  managesServer: boolean;
}

export function meetsDispatcherRule(member: MemberFacts, rule: DispatcherRule): boolean {
  if (rule.kind === 'role') return member.roleIds.includes(rule.roleId);
  return member.managesServer || member.roleNames.some((name) => name.trim().toLowerCase() === DEFAULT_DISPATCHER_ROLE_NAME);
}

/** The role ids the acting member has, whether discord.js gave us a full member or the raw API one. */
function memberRoleIds(interaction: Interaction): string[] {
  const member = interaction.member;
  if (!member) return [];
  if (Array.isArray(member.roles)) return member.roles;
  return [...member.roles.cache.keys()];
}

function roleName(interaction: Interaction, roleId: string): string | null {
  return interaction.guild?.roles.cache.get(roleId)?.name ?? null;
}

/** Whether the acting member has Manage Server (Administrator implies it). */
export function managesServer(interaction: Interaction): boolean {
  return interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
}

export function dispatcherRule(interaction: Interaction, settings: ServerSettings): DispatcherRule {
  const roleId = settings.dispatcherRoleId;
  return roleId ? { kind: 'role', roleId, roleName: roleName(interaction, roleId) } : { kind: 'default' };
}

export function isDispatcher(interaction: Interaction, settings: ServerSettings): boolean {
  const roleIds = memberRoleIds(interaction);
  const facts: MemberFacts = {
    roleIds,
    roleNames: roleIds.map((id) => roleName(interaction, id) ?? ''),
    managesServer: managesServer(interaction),
  };
  return meetsDispatcherRule(facts, dispatcherRule(interaction, settings));
}
