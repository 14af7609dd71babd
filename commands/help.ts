/**
 * /help: what the bot does, its commands by who uses them (players, Dispatchers, server admins) and how to start,
 * privately. `/help command:<name>` explains one command or subcommand with an example. Names, descriptions and
 * options come from the command definitions; HELP_ENTRIES adds only who uses each, an example and its system, and a
 * test fails when a command has no entry. On a server that plays only some systems, their commands only are listed.
 */
import { ApplicationCommandOptionType, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { APIApplicationCommandOption } from 'discord.js';
import { defineCommand, type BotCommand, type HandlerContext, type HelpEntry } from '../src/discord/command.js';
import { dispatcherRule } from '../src/discord/permissions.js';
import { systemsOfSubcommand } from '../src/discord/slash-list.js';
import { UserError } from '../src/errors.js';
import { systemName, type SystemId } from '../src/engine/systems/index.js';
import { playedSystems } from '../src/store/servers.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { dispatcherRuleLine } from '../src/views/config.js';
import { audienceText, helpOverview, helpTopic, startSteps, type CommandSummary, type HelpTopic } from '../src/views/help.js';

/** Long enough for any "command group subcommand" path. */
const COMMAND_NAME_MAX = 60;

const CONFIG_SHOW = 'Anyone may look; changing a setting needs the Manage Server permission.';

/**
 * Every command and subcommand, by its path: who uses it and an example (its systems are the command's own, see
 * `BotCommand.systems`). Option names in the examples
 * are checked against the definitions (test/e2e/help.test.ts).
 */
export const HELP_ENTRIES: Readonly<Record<string, HelpEntry>> = {

  'roll challenge': { audience: 'player', example: '/roll challenge skill:Climbing cl:90' },
  'roll linked': { audience: 'player', example: '/roll linked rolls:Handgun Handling +Acuity vs 90; Driving -10 vs 110' },
  'roll intent': { audience: 'player', example: '/roll intent intent:scale the wall to the balcony outcome:Troy reaches it unseen' },
  'roll outcome': { audience: 'player', example: '/roll outcome table:Search skill:Investigation' },
  'roll dice': { audience: 'player', example: '/roll dice expression:4d6kh3+2 label:Strength' },
  'roll replay': { audience: 'player', example: '/roll replay id:a1b2c3d4' },
  'contest start': { audience: 'player', example: '/contest start opponent:@Sasha intent:grab the keys first stakes:Kat walks home skill:Athletics role:attacker' },

  'dispatch challenge': {
    audience: 'dispatcher',
    example: '/dispatch challenge player:@Mike skill:Climbing cl:90 intent:scale the wall outcome:reach the balcony unseen consequence:the guard hears you',
  },
  'dispatch linked': {
    audience: 'dispatcher',
    example: '/dispatch linked player:@Mike rolls:Driving vs 90; Handgun Handling vs 110 intent:shoot from the car outcome:the tyre bursts',
  },
  'table import': { audience: 'dispatcher', example: '/table import file:search.csv name:Search' },
  'table export': { audience: 'player', example: '/table export name:Search format:csv' },
  'table show': { audience: 'player', example: '/table show name:Search' },
  'table list': { audience: 'player', example: '/table list' },
  'table delete': { audience: 'dispatcher', example: '/table delete name:Search' },

  'config show': { audience: 'admin', example: '/config show', who: CONFIG_SHOW },
  'config dispatcher-role': { audience: 'admin', example: '/config dispatcher-role role:@Game Master' },
  'config contest-timeout': { audience: 'admin', example: '/config contest-timeout minutes:30' },
  'config house-rule': { audience: 'admin', example: '/config house-rule name:contest_adds_own_skill state:on' },
  'config player-challenge-rolls': { audience: 'admin', example: '/config player-challenge-rolls state:off' },
  'config system': { audience: 'admin', example: '/config system name:d10-pool' },
  'config systems': { audience: 'admin', example: '/config systems play:d6 pools, d10 pools' },

  log: { audience: 'player', example: '/log user:@Sasha count:50' },

  'code roll': { audience: 'player', example: '/code roll code:3D+2 difficulty:moderate' },
  'code ability': { audience: 'player', example: '/code ability name:Blaster code:3D+2' },
  'code track': { audience: 'player', example: '/code track name:Wounds points:2' },
  'code status': { audience: 'player', example: '/code status' },
  'code concede': { audience: 'player', example: '/code concede' },
  'code scene-end': { audience: 'dispatcher', example: '/code scene-end' },
  'code action-point': { audience: 'player', example: '/code action-point reason:dodge the falling crate' },

  'd10 roll': { audience: 'player', example: '/d10 roll dice:5 tn:7' },
  'd10 fastdraw': { audience: 'player', example: '/d10 fastdraw dice:4 tn:7' },
  'd10 advanced': { audience: 'player', example: '/d10 advanced primary:5 secondary:2 mode:additive tn:7' },
  'd10 extended': { audience: 'player', example: '/d10 extended dice:4 tn:7 target:20' },

  pool: { audience: 'player', example: '/pool skill:Stealth gear:1 difficulty:Hard' },

  'tactics check': { audience: 'player', example: '/tactics check attribute:Tech modifier:-20' },
  'tactics social': { audience: 'player', example: '/tactics social species_distance:50 alien:true' },
  'tactics reaction': { audience: 'player', example: '/tactics reaction kind:dodge' },
  'tactics attack': { audience: 'player', example: '/tactics attack weapon_base:4 weapon_range:2 cover:half target:@Sasha' },
  'tactics damage': { audience: 'player', example: '/tactics damage base:4 range:2' },
  'tactics psi': { audience: 'player', example: '/tactics psi difficulty:-10' },
  'tactics move': { audience: 'player', example: '/tactics move path:3s 2d 1rd' },

  'initiative start': { audience: 'dispatcher', example: '/initiative start rule:d10-phase' },
  'initiative join': { audience: 'player', example: '/initiative join value:5' },
  'initiative leave': { audience: 'player', example: '/initiative leave' },
  'initiative npc': { audience: 'dispatcher', example: '/initiative npc name:Thug value:4' },
  'initiative remove': { audience: 'dispatcher', example: '/initiative remove name:Thug' },
  'initiative set': { audience: 'dispatcher', example: '/initiative set name:Thug value:12' },
  'initiative show': { audience: 'player', example: '/initiative show' },
  'initiative end': { audience: 'dispatcher', example: '/initiative end' },
};

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

function playedHere(command: { systems: readonly SystemId[] | undefined }, played: readonly SystemId[]): boolean {
  return !command.systems || command.systems.some((system) => played.includes(system));
}

/** The runnable commands /help knows, with their entry; a command with no entry is left out (a test catches it). */
/** Each runnable path's help, as its subcommand declares it: `sheet skill set` → its entry. */
export function helpEntries(definitions: readonly BotCommand[]): Map<string, HelpEntry> {
  const declared = definitions.flatMap((command) => (command.subcommands ?? []).map((sub) => [`${command.data.name} ${sub.path}`.trim(), sub.help] as const));
  return new Map([...Object.entries(HELP_ENTRIES), ...declared]);
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
    const summaries: CommandSummary[] = definitions.map((command) => ({ name: command.data.name, description: command.data.toJSON().description }));
    await context.answer.reply(helpOverview(shown, summaries, startSteps(settings), dispatchers));
    return;
  }

  const path = normalizedPath(typed);
  const defined = definedCommands(definitions).find((command) => command.path === path);
  const subtopics = topics.filter((topic) => topic.path.startsWith(`${path} `));
  const topic = topics.find((candidate) => candidate.path === path);
  if (!defined || (!topic && subtopics.length === 0)) {
    const near = topics.filter((candidate) => candidate.path.includes(path.split(' ')[0] ?? '')).slice(0, 3);
    const suggestion = near.length > 0 ? `Did you mean ${near.map((candidate) => `\`/help command:${candidate.path}\``).join(', ')}?` : 'For example `/help command:roll challenge`.';
    throw new UserError(`There is no command \`/${path.slice(0, COMMAND_NAME_MAX)}\`. \`/help\` lists them all. ${suggestion}`);
  }
  const first = topic ?? subtopics[0]!;
  const shownTopic: HelpTopic = topic ?? { path, description: defined.description, options: [], audience: first.audience, example: first.example };
  // A runnable topic has its own systems (none: every server has it); a group has those of all its subcommands.
  const systems = topic ? topic.systems : subtopics.every((sub) => sub.systems) ? [...new Set(subtopics.flatMap((sub) => sub.systems ?? []))] : undefined;
  const notPlayed = systems && !systems.some((system) => played.includes(system));
  const note = notPlayed ? `This server does not play ${systems.map(systemName).join(' or ')}: a server admin chooses its systems in \`/config\`.` : undefined;
  const who = topic?.entry.who ?? audienceText(first.audience, dispatchers);
  await context.answer.reply(helpTopic(shownTopic, subtopics, who, note));
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
