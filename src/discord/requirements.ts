/** A subcommand's declared requirement (`requires`), checked before its handler runs: typed, or run anew by Roll again. */
import type { Interaction } from 'discord.js';
import { UserError } from '../errors.js';
import { manageServerOnlyText } from '../views/permissions.js';
import type { HandlerContext, Requirement } from './command.js';
import { managesServer } from './permissions.js';

/** Refuses, naming the action, unless the acting member meets `requirement`. */
export async function meetRequirement(requirement: Requirement | undefined, interaction: Interaction, context: HandlerContext): Promise<void> {
  if (!requirement) return;
  if ('dispatcher' in requirement) await context.requireDispatcher(requirement.dispatcher, requirement.advice);
  else if (!managesServer(interaction)) throw new UserError(manageServerOnlyText(requirement.manageServer));
}
