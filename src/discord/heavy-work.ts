/**
 * Heavy work: what reads or writes a whole file, or runs the dice-notation library. A member runs at most one of them
 * at a time (src/discord/turns.ts); the others wait behind it without holding a turn, so a member's flood of imports
 * holds one of the router's turns, not all of them. Each subcommand declares whether it is (`heavy`).
 */
import type { Interaction } from 'discord.js';
import { runnableOf, type BotCommand } from './command.js';

/** Whether the interaction runs heavy work (one at a time per member): only slash commands do. */
export function isHeavyWork(interaction: Interaction, command: BotCommand | undefined): boolean {
  if (!interaction.isChatInputCommand() || !command) return false;
  return runnableOf(command, interaction)?.heavy === true;
}
