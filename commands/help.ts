/**
 * /help: what the bot does, its commands by who uses them (players, Dispatchers, server admins) and how to start,
 * privately. `/help command:<name>` explains one command or subcommand with an example. Names, descriptions and
 * options come from the command definitions, who uses each and an example from its subcommand's declared `help`
 * (src/discord/command.ts), and its systems from its command's. On a server that plays only some systems, their
 * commands only are listed and suggested: Discord shows every command in every server (one global list), so /help
 * is where a member learns what is played here.
 */
import { ApplicationCommandOptionType, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { APIApplicationCommandOption } from 'discord.js';
import { defineCommand, type BotCommand, type HandlerContext, type HelpEntry } from '../src/discord/command.js';
import { dispatcherRule } from '../src/discord/permissions.js';
import { playedHere, systemsOfSubcommand } from '../src/discord/played-here.js';
import { UserError } from '../src/errors.js';
import type { SystemId } from '../src/engine/systems/index.js';
import { playedSystems } from '../src/store/servers.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { dispatcherRuleLine, unplayedCommandText } from '../src/views/config.js';
import { audienceText, helpOverview, helpTopic, startSteps, type CommandSummary, type HelpTopic } from '../src/views/help.js';

/** The overview's example of `/help command:`, the first one played here. */
const FOOTER_EXAMPLES = ['roll challenge', 'roll dice'];

/** Long enough for any "command group subcommand" path. */
const COMMAND_NAME_MAX = 60;

/** A command or subcommand as its definition describes it, with the path /help names it by. */
export interface DefinedCommand {
  path: string;
  description: string;
  options: HelpTopic['options'];
  /** The systems it belongs to (`BotCommand.systems`); undefined: every server has it. */
  systems: readonly SystemId[] | undefined;
}

function leafOptions(options: readonly APIApplicationCommandOption[] | undefined): HelpTopic['options'] {
  return (options ?? []).map((option) => ({ name: option.name, description: option.description, required: option.required ?? false }));
}

/** Every command, group and subcommand the definitions declare, in order: "sheet", "sheet create", "sheet skill", "sheet skill set"… */
export function definedCommands(definitions: readonly BotCommand[]): DefinedCommand[] {
  return definitions.flatMap((command) => {
    const json = command.data.toJSON();
    const options = json.options ?? [];
    const subcommands = options.flatMap((option): DefinedCommand[] => {
      const systems = systemsOfSubcommand(command, option.name);
      if (option.type === ApplicationCommandOptionType.Subcommand) return [{ path: `${json.name} ${option.name}`, description: option.description, options: leafOptions(option.options), systems }];
      if (option.type === ApplicationCommandOptionType.SubcommandGroup) {
        const group = { path: `${json.name} ${option.name}`, description: option.description, options: [], systems };
        return [group, ...(option.options ?? []).map((sub) => ({ path: `${json.name} ${option.name} ${sub.name}`, description: sub.description, options: leafOptions(sub.options), systems }))];
      }
      return [];
    });
    const whole = { path: json.name, description: json.description, options: subcommands.length > 0 ? [] : leafOptions(options), systems: command.systems };
    return [whole, ...subcommands];
  });
}

/** Whether a path can be run as typed: a command without subcommands, or a subcommand. */
function isRunnable(path: string, defined: readonly DefinedCommand[]): boolean {
  return !defined.some((other) => other.path.startsWith(`${path} `));
}

/** The runnable commands /help knows, with their entry; a command with no entry is left out (a test catches it). */
/** Each runnable path's help, as its subcommand declares it: `sheet skill set` → its entry. */
export function helpEntries(definitions: readonly BotCommand[]): Map<string, HelpEntry> {
  return new Map(definitions.flatMap((command) => command.subcommands.map((sub) => [`${command.data.name} ${sub.path}`.trim(), sub.help] as const)));
}

function helpTopics(definitions: readonly BotCommand[]): Array<HelpTopic & { entry: HelpEntry; systems: DefinedCommand['systems'] }> {
  const defined = definedCommands(definitions);
  const entries = helpEntries(definitions);
  return defined.flatMap((command) => {
    const entry = entries.get(command.path);
    if (!entry || !isRunnable(command.path, defined)) return [];
    return [{ ...command, audience: entry.audience, example: entry.example, entry }];
  });
}

/** "roll challenge", "/Roll  Challenge" → "roll challenge". */
function normalizedPath(typed: string): string {
  return typed.trim().replace(/^\//, '').replace(/\s+/g, ' ').toLowerCase();
}

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const settings = await context.store.servers.settings(context.guildId);
  const played = playedSystems(settings);
  const definitions = context.commands;
  const topics = helpTopics(definitions);
  const dispatchers = dispatcherRuleLine(dispatcherRule(interaction, settings));
  const typed = interaction.options.getString('command');

  if (typed === null) {
    const shown = topics.filter((topic) => playedHere(topic, played));
    // A command played here only in its everywhere part (/roll dice on a d6 server) is described as that part.
    const summaries: CommandSummary[] = definitions.map((command) => ({
      name: command.data.name,
      description: playedHere(command, played) ? command.data.toJSON().description : (command.everywhereDescription ?? command.data.toJSON().description),
    }));
    const menus = context.menus.filter((menu) => playedHere({ systems: menu.systems }, played)).map((menu) => ({ name: menu.name, target: menu.target, example: menu.help.example }));
    const example = FOOTER_EXAMPLES.find((path) => shown.some((topic) => topic.path === path)) ?? shown[0]?.path ?? 'help';
    await context.answer.reply(helpOverview(shown, summaries, startSteps(settings), dispatchers, menus, example));
    return;
  }

  const path = normalizedPath(typed);
  const defined = definedCommands(definitions).find((command) => command.path === path);
  const known = defined ? topics.filter((candidate) => candidate.path === path || candidate.path.startsWith(`${path} `)) : [];
  // A command of a system not played here is left out, as in the overview; asked for by name, /help says how to
  // turn it on, as the command itself would.
  const shownHere = known.filter((candidate) => playedHere(candidate, played));
  if (known.length > 0 && shownHere.length === 0) {
    const systems = [...new Set(known.flatMap((candidate) => candidate.systems ?? []))];
    throw new UserError(unplayedCommandText(`/${path}`, systems, played));
  }
  const topic = shownHere.find((candidate) => candidate.path === path);
  const subtopics = shownHere.filter((candidate) => candidate.path.startsWith(`${path} `));
  if (!defined || (!topic && subtopics.length === 0)) {
    const near = topics.filter((candidate) => playedHere(candidate, played) && candidate.path.includes(path.split(' ')[0] ?? '')).slice(0, 3);
    const suggestion = near.length > 0 ? `Did you mean ${near.map((candidate) => `\`/help command:${candidate.path}\``).join(', ')}?` : 'For example `/help command:roll dice`.';
    throw new UserError(`There is no command \`/${path.slice(0, COMMAND_NAME_MAX)}\`. \`/help\` lists them all. ${suggestion}`);
  }
  const first = topic ?? subtopics[0]!;
  const shownTopic: HelpTopic = topic ?? { path, description: defined.description, options: [], audience: first.audience, example: first.example };
  const who = topic?.entry.who ?? audienceText(first.audience, dispatchers);
  await context.answer.reply(helpTopic(shownTopic, subtopics, who));
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const settings = await context.store.servers.settings(context.guildId);
  const played = playedSystems(settings);
  const topics = helpTopics(context.commands).filter((topic) => playedHere(topic, played));
  const typed = normalizedPath(String(interaction.options.getFocused()));
  const commandNames = [...new Set(topics.map((topic) => topic.path.split(' ')[0]!))];
  // Nothing typed yet: the commands, which fit in one list; then their subcommands as the name narrows them.
  const paths = typed === '' ? commandNames : [...new Set([...commandNames, ...topics.map((topic) => topic.path)])];
  await interaction.respond(nameChoices(paths, typed));
}

/** The overview (no `command`) shows how to start: the welcome after it does not repeat that (src/discord/router.ts). */
const showsHowToStart = (interaction: ChatInputCommandInteraction) => interaction.options.getString('command') === null;

export const helpCommand = defineCommand({
  name: 'help',
  description: 'What this bot does, its commands and how to start (only you see it)',
  build: (command) =>
    command.addStringOption((o) => o.setName('command').setDescription('One command explained with an example, e.g. roll challenge').setAutocomplete(true).setMaxLength(COMMAND_NAME_MAX)),
  run: execute,
  autocomplete,
  showsHowToStart,
  help: { audience: 'player', example: '/help command:roll challenge' },
});
