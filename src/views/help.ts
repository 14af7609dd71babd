/**
 * /help and the one-time welcome: what the bot does, its commands by who uses them, and how to start. Short enough
 * to read on a phone; the command names and descriptions come from the command definitions (commands/help.ts).
 */
import { EmbedBuilder, MessageFlags } from 'discord.js';
import { DEFAULT_SYSTEM } from '../engine/systems/index.js';
import { playedSystems, type ServerSettings } from '../store/servers.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';
import type { StartSteps } from './system-view.js';
import { SYSTEM_VIEWS } from './systems.js';

export type Audience = 'player' | 'dispatcher' | 'admin';

export const AUDIENCES: readonly Audience[] = ['player', 'dispatcher', 'admin'];

const AUDIENCE_TITLES: Record<Audience, string> = {
  player: 'Players',
  dispatcher: 'Dispatchers (game masters)',
  admin: 'Server admins',
};

export interface HelpOption {
  name: string;
  description: string;
  required: boolean;
}

/** One command or subcommand as /help shows it: `path` is what follows the slash, e.g. "roll challenge". */
export interface HelpTopic {
  path: string;
  description: string;
  options: HelpOption[];
  audience: Audience;
  example: string;
}

const HELP_COLOR = 0x2e86c1;

/** "Rolls the dice…": what the bot is, in the words of the overview and the welcome. */
const ABOUT =
  'Tac Talk Bot rolls the dice for your table and keeps your characters (Operator sheets), NPCs and outcome tables in this server. ' +
  'Every roll is stored: `/log` lists them and `/roll replay` checks one.';

/** A new player's first steps in a system: make a character, then the steps the system's view gives. */
export function firstSteps(start: StartSteps): StartSteps {
  return { sheet: [{ what: 'Make your character', command: '/sheet create name:Troy' }, ...start.sheet], roll: start.roll };
}

/** The first steps in the server's default system when it plays it, else in the first system it plays. */
export function startSteps(settings: Pick<ServerSettings, 'guildId' | 'playedSystems' | 'defaultSystem'>): StartSteps {
  const played = playedSystems(settings);
  const system = played.find((id) => id === settings.defaultSystem) ?? played[0] ?? DEFAULT_SYSTEM;
  return firstSteps(SYSTEM_VIEWS.start(system));
}

/**
 * "`/sheet` create · show · … · skill" for one command's topics of an audience: subcommand groups ("skill set",
 * "skill remove") are named once.
 */
function commandLine(command: string, paths: string[], description: string): string {
  const parts = [...new Set(paths.map((path) => path.split(' ')[1]).filter((part): part is string => part !== undefined))];
  const names = parts.length > 0 ? ` ${parts.join(' · ')}` : '';
  return `**/${command}**${names} (${shortDescription(description)})`;
}

/** A description's first clause: "Die codes and result points: roll ND+P…" → "Die codes and result points". */
function shortDescription(description: string): string {
  // "Dispatcher: the NPC sheets…": the field already says who.
  const what = description.replace(/^Dispatcher: /, '');
  return (what.split(/[:;,(]| — /)[0] ?? what).trim();
}

/** Lines packed into fields of at most Discord's field size, the first named `name`, the rest continuing it. */
function packedFields(name: string, lines: readonly string[]): Array<{ name: string; value: string }> {
  const fields: Array<{ name: string; value: string }> = [];
  for (const line of lines.map((text) => truncate(text, DISCORD_LIMITS.fieldValue))) {
    const last = fields.at(-1);
    if (last && last.value.length + 1 + line.length <= DISCORD_LIMITS.fieldValue) last.value += `\n${line}`;
    else fields.push({ name: fields.length === 0 ? name : `${name} (more)`, value: line });
  }
  return fields;
}

export interface CommandSummary {
  name: string;
  description: string;
}

/** The overview: private, one embed, the commands by audience; `dispatchers` says who is a Dispatcher here. */
/** A context-menu command as the overview lists it: its name, what it is used on, and how. */
export interface MenuSummary {
  name: string;
  target: 'message' | 'user';
  example: string;
}

/** The overview's field of context-menu commands (right-click → Apps), those that save typing a command. */
function menuField(menus: readonly MenuSummary[]): { name: string; value: string } {
  const lines = menus.map((menu) => `**${menu.name}** (on ${menu.target === 'message' ? 'a message' : 'a member'}): ${menu.example}`);
  return { name: 'Right-click → Apps (press and hold on a phone)', value: truncate(lines.join('\n'), DISCORD_LIMITS.fieldValue) };
}

/** `example`: a command path played here, for the footer's `/help command:` example. */
export function helpOverview(topics: readonly HelpTopic[], commands: readonly CommandSummary[], start: StartSteps, dispatchers: string, menus: readonly MenuSummary[] = [], example = 'roll challenge'): ReplyPayload {
  const steps = [...start.sheet, { what: 'Roll', command: start.roll }].map((step, index) => `${index + 1}. ${step.what}: \`${step.command}\``).join('\n');
  const embed = new EmbedBuilder()
    .setColor(HELP_COLOR)
    .setTitle('Tac Talk Bot: help')
    .setDescription(truncate(`${ABOUT}\n\n**How to start**\n${steps}`, DISCORD_LIMITS.embedDescription));
  for (const audience of AUDIENCES) {
    const lines = commands.flatMap((command) => {
      const paths = topics.filter((topic) => topic.audience === audience && topic.path.split(' ')[0] === command.name).map((topic) => topic.path);
      return paths.length > 0 ? [commandLine(command.name, paths, command.description)] : [];
    });
    if (lines.length === 0) continue;
    embed.addFields(packedFields(AUDIENCE_TITLES[audience], audience === 'dispatcher' ? [dispatchers, ...lines] : lines));
  }
  if (menus.length > 0) embed.addFields(menuField(menus));
  embed.setFooter({ text: `One command, with an example: /help command:${example}` });
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS, flags: MessageFlags.Ephemeral };
}

function optionLine(option: HelpOption): string {
  return `\`${option.name}\`${option.required ? ' (required)' : ''}: ${option.description}`;
}

/**
 * One command or subcommand: what it does, its options, an example and who uses it. `subtopics` are the
 * subcommands when the path is a whole command with some (`/help command:roll`). `note` is said under it (e.g.
 * that this server does not play its system).
 */
export function helpTopic(topic: HelpTopic, subtopics: readonly HelpTopic[], who: string, note?: string): ReplyPayload {
  const embed = new EmbedBuilder()
    .setColor(HELP_COLOR)
    .setTitle(truncate(`/${topic.path}`, DISCORD_LIMITS.embedTitle))
    .setDescription(truncate([topic.description, note].filter(Boolean).join('\n\n'), DISCORD_LIMITS.embedDescription));
  if (subtopics.length > 0) {
    const lines = subtopics.map((sub) => `\`/${sub.path}\`: ${sub.description}`);
    embed.addFields({ name: 'Subcommands', value: truncate(lines.join('\n'), DISCORD_LIMITS.fieldValue) });
  } else if (topic.options.length > 0) {
    embed.addFields({ name: 'Options', value: truncate(topic.options.map(optionLine).join('\n'), DISCORD_LIMITS.fieldValue) });
  }
  embed.addFields({ name: 'Example', value: truncate(`\`${topic.example}\``, DISCORD_LIMITS.fieldValue) }, { name: 'Who', value: truncate(who, DISCORD_LIMITS.fieldValue) });
  if (subtopics.length > 0) embed.setFooter({ text: `One of them in detail: /help command:${subtopics[0]!.path}` });
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS, flags: MessageFlags.Ephemeral };
}

/** "Players" / "Dispatchers (game masters): here, members with …" / "Server admins (the Manage Server permission)". */
export function audienceText(audience: Audience, dispatchers: string): string {
  if (audience === 'dispatcher') return `${AUDIENCE_TITLES.dispatcher}. ${dispatchers}`;
  if (audience === 'admin') return `${AUDIENCE_TITLES.admin}: members with the Manage Server permission.`;
  return 'Players: everyone in the server.';
}

/** Posted once in a server's channel after the first command there: where to start. Pings nobody. */
export function welcomeMessage(start: StartSteps): MessageBody {
  const steps = start.sheet.map((step, index) => `${index === 0 ? step.what : step.what.toLowerCase()} with \`${step.command}\``).join(', ');
  return {
    content: truncate(
      `👋 **Tac Talk Bot is here.** \`/help\` shows what it does and how to start. ${steps}, then roll: \`${start.roll}\`. ` +
        'A Dispatcher (game master) calls for rolls with `/dispatch`; a server admin chooses who is a Dispatcher with `/config dispatcher-role`.',
      DISCORD_LIMITS.content,
    ),
    allowedMentions: NO_PINGS,
  };
}

/**
 * The welcome after a first command that was the /help overview: its asker has just read, privately, what the
 * welcome would say, but the rest of the table has not (that answer was private), so the bot still says it is here,
 * in one line, and points everyone to /help rather than repeating the steps in public.
 */
export function shortWelcomeMessage(): MessageBody {
  return {
    content: '👋 **Tac Talk Bot is here.** Each of you can type `/help`: it shows you, privately, what the bot does and how to start.',
    allowedMentions: NO_PINGS,
  };
}
