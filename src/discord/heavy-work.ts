/**
 * Heavy work: what reads or writes a whole file, or runs the dice-notation library. A member runs at most one of them
 * at a time (src/discord/turns.ts); the others wait behind it without holding a turn, so a member's flood of imports
 * holds one of the router's turns, not all of them. Each command names its heavy subcommands (`heavyWork`).
 */
import type { ChatInputCommandInteraction, Interaction } from 'discord.js';
import type { BotCommand } from './command.js';

/** The subcommand path of a slash command, as `heavyWork` names it: `import`, `skill set`. */
function subcommandPath(interaction: ChatInputCommandInteraction): string {
  const { options } = interaction;
  return [options.getSubcommandGroup(false), options.getSubcommand(false)].filter(Boolean).join(' ');
}

/** Whether the interaction runs heavy work (one at a time per member): only slash commands do. */
export function isHeavyWork(interaction: Interaction, command: BotCommand | undefined): boolean {
  if (!interaction.isChatInputCommand() || !command?.heavyWork) return false;
  return command.heavyWork.includes(subcommandPath(interaction));
}
