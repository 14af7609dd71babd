/** The words for who is a Dispatcher and who manages the server: refusals and /config show. Roles are named, never pinged. */
import type { DispatcherRule } from '../store/servers.js';
import { escapeMarkdown } from './format.js';

/** "the @Game Master role" / "a role named @Dispatcher or the Manage Server permission". */
export function dispatcherRuleText(rule: DispatcherRule): string {
  if (rule.kind === 'default') return 'a role named @Dispatcher or the Manage Server permission';
  if (rule.roleName === null) return 'the configured Dispatcher role, which no longer exists (someone with Manage Server can set another with `/config dispatcher-role`)';
  return `the @${escapeMarkdown(rule.roleName)} role`;
}

const CHANGED_BY = 'a member with Manage Server';

/**
 * The sentence every Dispatcher-only refusal ends with: what makes a Dispatcher on this server, and who changes that
 * and how, so a refused player knows whom to ask.
 */
export function dispatcherRequirement(rule: DispatcherRule): string {
  if (rule.kind === 'role' && rule.roleName === null) {
    return `The Dispatcher role set here no longer exists; ${CHANGED_BY} can pick another with \`/config dispatcher-role\`.`;
  }
  if (rule.kind === 'role') return `Here a Dispatcher has ${dispatcherRuleText(rule)}; ${CHANGED_BY} can change that with \`/config dispatcher-role\`.`;
  return `Here a Dispatcher has ${dispatcherRuleText(rule)}; ${CHANGED_BY} can pick one role instead with \`/config dispatcher-role\`.`;
}

/** "Only a Dispatcher can <action>. Here a Dispatcher has the @Game Master role; …" */
export function dispatcherOnlyText(action: string, rule: DispatcherRule, advice?: string): string {
  return `Only a Dispatcher can ${action}. ${dispatcherRequirement(rule)}${advice ? ` ${advice}` : ''}`;
}

export function manageServerOnlyText(action: string): string {
  return `Only members with the Manage Server permission can ${action}. Ask a server admin.`;
}
