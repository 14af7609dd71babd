/**
 * Which commands a server plays. Every server is offered every command (slash-list.ts registers one global list);
 * what `/config systems` chose is applied when a command arrives: one of a system this server does not play is
 * refused privately with how to turn it on, its autocomplete offers only that, and /help leaves it out there.
 */
import type {
  ApplicationCommandOptionChoiceData,
  AutocompleteInteraction,
  ChatInputCommandInteraction,
  ContextMenuCommandInteraction,
  ModalSubmitInteraction,
} from 'discord.js';
import type { SystemId } from '../engine/systems/index.js';
import { UserError } from '../errors.js';
import { playedSystems, type ServerStore } from '../store/servers.js';
import { unplayedChoice } from '../views/autocomplete.js';
import { unplayedCommandText } from '../views/config.js';
import type { BotCommand, BotContextMenu } from './command.js';

/** The subcommands of a command every server has, whatever it plays (`dice`, `replay` of /roll). */
function everywherePaths(command: BotCommand): string[] {
  return command.subcommands.filter((subcommand) => subcommand.everywhere).map((subcommand) => subcommand.path);
}

/**
 * Every server is offered every context menu: one of a system this server does not play (and a form it opened) is
 * refused, privately, with how to turn the system on, as a slash command of that system is.
 */
export async function requireMenuPlayedHere(interaction: ContextMenuCommandInteraction | ModalSubmitInteraction, menu: BotContextMenu, servers: ServerStore): Promise<void> {
  if (!menu.systems) return;
  const played = playedSystems(await servers.settings(interaction.guildId ?? ''));
  if (playedHere(menu, played)) return;
  throw new UserError(unplayedCommandText(menu.name, menu.systems, played));
}

/** The systems a command (or one of its subcommands) belongs to; undefined when every server has it. */
export function systemsOfSubcommand(command: BotCommand, subcommand: string | null): readonly SystemId[] | undefined {
  if (subcommand !== null && everywherePaths(command).includes(subcommand)) return undefined;
  return command.systems;
}

/** What a command as typed (its subcommand) belongs to, when this server plays none of it: how to say so. */
async function unplayedHere(interaction: ChatInputCommandInteraction | AutocompleteInteraction, command: BotCommand, servers: ServerStore) {
  const subcommand = interaction.options.getSubcommand(false);
  if (!systemsOfSubcommand(command, subcommand) || !command.systems) return null;
  const played = playedSystems(await servers.settings(interaction.guildId ?? ''));
  if (playedHere(command, played)) return null;
  return { shown: `/${command.data.name}${subcommand ? ` ${subcommand}` : ''}`, systems: command.systems, played };
}

/**
 * Every server is offered every command: one of a system this server does not play is refused, privately, with
 * how to turn the system on. Commands of no system pass without a look at the settings.
 */
export async function requirePlayedHere(interaction: ChatInputCommandInteraction, command: BotCommand, servers: ServerStore): Promise<void> {
  const unplayed = await unplayedHere(interaction, command, servers);
  if (unplayed) throw new UserError(unplayedCommandText(unplayed.shown, unplayed.systems, unplayed.played));
}

/**
 * The suggestions of a command this server does not play: none of its own (a sheet's skills, say), only one that
 * says how to turn its system on; null when it is played here.
 */
export async function unplayedSuggestions(interaction: AutocompleteInteraction, command: BotCommand, servers: ServerStore): Promise<ApplicationCommandOptionChoiceData<string>[] | null> {
  const unplayed = await unplayedHere(interaction, command, servers);
  return unplayed ? unplayedChoice(unplayed.shown, unplayed.systems) : null;
}

/** Whether this server plays a command (or a context menu): it belongs to no system, or to one the server plays. */
export function playedHere(item: { systems?: readonly SystemId[] | undefined }, played: readonly SystemId[]): boolean {
  return !item.systems || item.systems.some((id) => played.includes(id));
}

/** The names of a system's own commands (`pool` for d6 pools): what the `/config systems` menu says of it. */
export function commandsOf(commands: readonly BotCommand[], system: SystemId): string[] {
  return commands.filter((command) => command.systems?.includes(system)).map((command) => command.data.name);
}

/** What every server uses, whatever it plays: `sheet`, `config`…, and `roll dice`. */
export function commonCommands(commands: readonly BotCommand[]): string[] {
  return commands.flatMap((command) => (!command.systems ? [command.data.name] : everywherePaths(command).map((sub) => `${command.data.name} ${sub}`)));
}
