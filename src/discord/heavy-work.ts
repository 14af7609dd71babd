/**
 * Heavy work: the commands that read or write a whole file, or run the dice-notation library. A member runs at most
 * one of them at a time (src/discord/turns.ts); the others wait behind it without holding a turn, so a member's flood
 * of imports holds one of the router's turns, not all of them.
 *
 * A command module may say so itself (`heavyWork` on BotCommand); the commands that do not are classified here, in
 * one list.
 */
import type { ChatInputCommandInteraction, Interaction } from 'discord.js';
import type { BotCommand } from './command.js';

/** By command path: the command name, then the subcommand group and subcommand if any (`sheet import`). */
export const HEAVY_COMMANDS: ReadonlySet<string> = new Set([
  // Fetch an attachment of up to 100 kB, check every entry, write the sheet in one transaction.
  'sheet import',
  // Read the whole sheet and send it as a file.
  'sheet export',
  // Fetch up to 200 kB, parse JSON or CSV, write up to 100 rows in one transaction.
  'table import',
  // Read the whole table and send it as a file.
  'table export',
  // The notation library: its first use loads mathjs (a second or two holding the whole process), and an
  // expression may roll up to 100 dice with repeats.
  'roll dice',
  // Replaying a dice-notation roll runs that library too (and may load it); which kind a roll is shows only once
  // it is read, so every replay counts.
  'roll replay',
]);

/** The command path a slash command runs, as `HEAVY_COMMANDS` names it. */
function commandPath(interaction: ChatInputCommandInteraction): string {
  const { options } = interaction;
  return [interaction.commandName, options.getSubcommandGroup(false), options.getSubcommand(false)].filter(Boolean).join(' ');
}

/** Whether the interaction runs heavy work (one at a time per member): only slash commands do. */
export function isHeavyWork(interaction: Interaction, command: BotCommand | undefined): boolean {
  if (!interaction.isChatInputCommand()) return false;
  return command?.heavyWork?.(interaction) ?? HEAVY_COMMANDS.has(commandPath(interaction));
}
