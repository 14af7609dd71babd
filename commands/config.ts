/**
 * /config: the server's settings. Anyone may see them (`show`, privately); only members with the Manage Server
 * permission change them: each changing subcommand requires it, checked by the bot whatever Discord's command
 * permissions say.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, type ComponentInteraction, type HandlerContext, type Requirement } from '../src/discord/command.js';
import { dispatcherRule, managesServer } from '../src/discord/permissions.js';
import { commandsOf, commonCommands } from '../src/discord/played-here.js';
import { mayManageWebhooks } from '../src/discord/npc-voice.js';
import { npcVoiceLine } from '../src/views/npc-voice.js';
import { UserError } from '../src/errors.js';
import { isSystemId, SYSTEMS, SYSTEM_IDS, systemChoices, systemName, type SystemId } from '../src/engine/systems/index.js';
import type { DispatcherRule, ServerSettings } from '../src/store/servers.js';
import { playedSystems, playedSystemsColumn } from '../src/store/servers.js';
import { configIds, configReply, dispatcherRuleLine, playedSystemsLine, playerChallengeRollsText, systemsMenuReply, systemsSavedText } from '../src/views/config.js';
import { escapeMarkdown } from '../src/views/format.js';
import { privateNote } from '../src/views/messages.js';
import { manageServerOnlyText } from '../src/views/permissions.js';

export const CONTEST_TIMEOUT_MINUTES_MAX = 24 * 60;
const SYSTEMS_TEXT_MAX = 200;

/**
 * The house rules a server can switch, by the name users type: the setting each one is, the system it belongs to
 * (shown where that system is played) and what it changes from when it is switched.
 */
const HOUSE_RULES = {
  contest_adds_own_skill: {
    setting: 'contestAddsOwnSkill',
    system: 'tactalk',
    description: 'in a contest each side also adds its own skill to its roll, the literal reading of the seed',
    appliesTo: 'New contests use it.',
  },
  flanking_needs_own_crit: {
    setting: 'flankingNeedsOwnCrit',
    system: 'd100-tactics',
    description: "a d100 tactics attacker flanking checks Crit only with Crit above 0: flanking's +50 grants no Crit check of its own, the literal reading of seed 001",
    appliesTo: 'New `/tactics attack`s use it; attacks already rolled keep the reading they were rolled with.',
  },
} as const satisfies Record<string, { setting: keyof ServerSettings; system: SystemId; description: string; appliesTo: string }>;
type HouseRuleName = keyof typeof HOUSE_RULES;

/** How a system may be typed: its id, its name or the start of it, or its command (`d6-pool`, `d6 pools`, `/pool`). */
const typedForms = (system: (typeof SYSTEMS)[number]) => [system.id, system.name, system.command, system.command.slice(1)].map(typedKey);
const typedKey = (text: string) => text.trim().toLowerCase().replace(/[\s_-]+/g, ' ');

/** `play`: a comma list of systems, or `all`. */
function readSystems(text: string): SystemId[] {
  const words = text.split(',').map(typedKey).filter(Boolean);
  if (words.length === 1 && words[0] === 'all') return [...SYSTEM_IDS];
  const chosen = new Set<SystemId>();
  for (const word of words) {
    // Exactly as typed first: `d10` is /d10's system, though "d100 tactics" starts with it too.
    const system =
      SYSTEMS.find((candidate) => typedForms(candidate).includes(word)) ??
      SYSTEMS.find((candidate) => word.length >= 3 && typedForms(candidate).some((form) => form.startsWith(word)));
    if (!system) {
      throw new UserError(`No system is called "${word}". Name them by ${SYSTEMS.map((candidate) => `${candidate.name} (\`${candidate.id}\`)`).join(', ')}, comma separated, or \`all\`.`);
    }
    chosen.add(system.id);
  }
  if (chosen.size === 0) throw new UserError('Name at least one system (e.g. `d6 pools`), or `all`.');
  return SYSTEM_IDS.filter((id) => chosen.has(id));
}

/** The menu, each system described by its own commands. */
function systemsMenu(context: HandlerContext, played: readonly SystemId[]) {
  return systemsMenuReply(played, (id) => commandsOf(context.commands, id), commonCommands(context.commands));
}

/**
 * Saves the systems played: it applies to the next command, as every command reads the setting when it runs (the
 * command list is the same for every server, so nothing is registered). A default system no longer played moves
 * to the first one played, so new sheets are of a system the server has commands for.
 */
async function saveSystems(context: HandlerContext, played: SystemId[]): Promise<string> {
  const { servers } = context.store;
  const before = await servers.settings(context.guildId);
  const defaultMoved = isSystemId(before.defaultSystem) && played.includes(before.defaultSystem) ? null : played[0]!;
  await servers.update(context.guildId, { playedSystems: playedSystemsColumn(played), ...(defaultMoved ? { defaultSystem: defaultMoved } : {}) });
  return systemsSavedText(played, defaultMoved);
}

function houseRuleViews(settings: ServerSettings) {
  return Object.entries(HOUSE_RULES).map(([name, rule]) => ({ name, system: rule.system, description: rule.description, on: settings[rule.setting] }));
}

/** What every subcommand but `show` requires: the router refuses anyone else before it runs. */
const CHANGES_SETTINGS: Requirement = { manageServer: "change this server's settings" };

/** A setting's change, said privately to whoever made it. */
function changing(apply: (interaction: ChatInputCommandInteraction, context: HandlerContext) => Promise<string>) {
  return async (interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> => {
    await context.answer.reply(privateNote(await apply(interaction, context)));
  };
}

async function show(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const settings = await context.store.servers.settings(context.guildId);
  const system = systemName(settings.defaultSystem);
  const npcVoices = npcVoiceLine(mayManageWebhooks(interaction));
  await context.answer.reply(configReply(settings, dispatcherRule(interaction, settings), houseRuleViews(settings), system, playedSystems(settings), npcVoices));
}

const setDispatcherRole = changing(async (interaction, context) => {
  const role = interaction.options.getRole('role');
  if (role && role.id === context.guildId) throw new UserError('@everyone cannot be the Dispatcher role: pick a role only the game masters have.');
  if (role?.managed) throw new UserError(`@${escapeMarkdown(role.name)} belongs to a bot or an integration; pick a role members can be given.`);
  await context.store.servers.update(context.guildId, { dispatcherRoleId: role?.id ?? null });
  const rule: DispatcherRule = role ? { kind: 'role', roleId: role.id, roleName: role.name } : { kind: 'default' };
  return `Dispatchers: ${dispatcherRuleLine(rule)}`;
});

const setContestTimeout = changing(async (interaction, context) => {
  const minutes = interaction.options.getInteger('minutes', true);
  if (minutes < 1 || minutes > CONTEST_TIMEOUT_MINUTES_MAX) {
    throw new UserError(`The contest timeout must be from 1 to ${CONTEST_TIMEOUT_MINUTES_MAX} minutes; ${minutes} is not.`);
  }
  await context.store.servers.update(context.guildId, { contestTimeoutMinutes: minutes });
  return `Each step of a contest now expires after **${minutes} min**. New contests and new steps use it.`;
});

const setHouseRule = changing(async (interaction, context) => {
  const name = interaction.options.getString('name', true);
  if (!(name in HOUSE_RULES)) throw new UserError(`There is no house rule \`${name}\`; see \`/config show\`.`);
  const on = interaction.options.getString('state', true) === 'on';
  const rule = HOUSE_RULES[name as HouseRuleName];
  await context.store.servers.update(context.guildId, { [rule.setting]: on });
  return `House rule \`${name}\` is now **${on ? 'on' : 'off'}**. ${rule.appliesTo}`;
});

const setPlayerChallengeRolls = changing(async (interaction, context) => {
  const on = interaction.options.getString('state', true) === 'on';
  await context.store.servers.update(context.guildId, { playerChallengeRolls: on });
  return `Players' own challenge rolls are now **${on ? 'on' : 'off'}**: ${playerChallengeRollsText(on)}`;
});

/** `play` left out: the menu to pick from, private (its choice comes to `component`). */
async function setSystems(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const play = interaction.options.getString('play');
  if (play === null) {
    await context.answer.reply(systemsMenu(context, playedSystems(await context.store.servers.settings(context.guildId))));
    return;
  }
  await context.answer.reply(privateNote(await saveSystems(context, readSystems(play))));
}

const setDefaultSystem = changing(async (interaction, context) => {
  const { servers } = context.store;
  const system = interaction.options.getString('name', true);
  if (!isSystemId(system)) throw new UserError(`The bot knows no system \`${system}\`; pick one of ${SYSTEM_IDS.join(', ')}.`);
  const played = playedSystems(await servers.settings(context.guildId));
  if (!played.includes(system)) {
    throw new UserError(`This server does not play ${systemName(system)} (it plays ${playedSystemsLine(played)}). Add it with \`/config systems\` first.`);
  }
  await servers.update(context.guildId, { defaultSystem: system });
  return `The default system is now **${systemName(system)}** (\`${system}\`). New sheets use it unless \`/sheet create\` names another.`;
});

/** The systems menu's choice: only a member who manages the server (the menu is private, but roles change). */
async function component(interaction: ComponentInteraction, _menu: 'systems', context: HandlerContext): Promise<void> {
  if (!interaction.isStringSelectMenu()) throw new UserError('This control belongs to an older version of /config; run `/config systems` again.');
  if (!managesServer(interaction)) throw new UserError(manageServerOnlyText('choose the systems this server plays'));
  const chosen = interaction.values.filter(isSystemId);
  if (chosen.length === 0) throw new UserError(`Pick at least one system: ${SYSTEMS.map((system) => system.name).join(', ')}.`);
  const text = await saveSystems(context, chosen);
  await context.answer.update({ content: text, components: [] });
}

export const configCommand = defineCommand<'systems'>({
  name: 'config',
  description: "This server's settings (changing them needs Manage Server)",
  subcommands: [
    {
      name: 'show',
      build: (sub) => sub.setDescription("Show this server's settings and who is a Dispatcher"),
      run: show,
      help: { audience: 'admin', example: '/config show', who: 'Anyone may look; changing a setting needs the Manage Server permission.' },
    },
    {
      name: 'dispatcher-role',
      build: (sub) =>
        sub
          .setDescription('Set the role whose members are Dispatchers (leave it out for the default rule)')
          .addRoleOption((o) => o.setName('role').setDescription('The Dispatcher role (default: a role named Dispatcher, or Manage Server)')),
      run: setDispatcherRole,
      requires: CHANGES_SETTINGS,
      help: { audience: 'admin', example: '/config dispatcher-role role:@Game Master' },
    },
    {
      name: 'contest-timeout',
      build: (sub) =>
        sub
          .setDescription('How long each step of a contest waits before it expires')
          .addIntegerOption((o) =>
            o.setName('minutes').setDescription(`Minutes, 1–${CONTEST_TIMEOUT_MINUTES_MAX}`).setRequired(true).setMinValue(1).setMaxValue(CONTEST_TIMEOUT_MINUTES_MAX),
          ),
      run: setContestTimeout,
      requires: CHANGES_SETTINGS,
      help: { audience: 'admin', example: '/config contest-timeout minutes:30' },
    },
    {
      name: 'house-rule',
      build: (sub) =>
        sub
          .setDescription('Switch a house rule on or off')
          .addStringOption((o) =>
            o
              .setName('name')
              .setDescription('The house rule')
              .setRequired(true)
              .addChoices(...Object.keys(HOUSE_RULES).map((name) => ({ name, value: name }))),
          )
          .addStringOption((o) =>
            o.setName('state').setDescription('On or off').setRequired(true).addChoices({ name: 'on', value: 'on' }, { name: 'off', value: 'off' }),
          ),
      run: setHouseRule,
      requires: CHANGES_SETTINGS,
      help: { audience: 'admin', example: '/config house-rule name:contest_adds_own_skill state:on' },
    },
    {
      name: 'player-challenge-rolls',
      build: (sub) =>
        sub
          .setDescription('Whether players may make their own /roll challenge and /roll linked (default: on)')
          .addStringOption((o) =>
            o.setName('state').setDescription('on: players may roll; off: only a Dispatcher calls for a roll').setRequired(true).addChoices({ name: 'on', value: 'on' }, { name: 'off', value: 'off' }),
          ),
      run: setPlayerChallengeRolls,
      requires: CHANGES_SETTINGS,
      help: { audience: 'admin', example: '/config player-challenge-rolls state:off' },
    },
    {
      name: 'systems',
      build: (sub) =>
        sub
          .setDescription('Which rule systems this server plays: their commands run here and /help lists them')
          .addStringOption((o) =>
            o.setName('play').setDescription('e.g. "d6 pools" or "d6 pools, d10 pools" or "all"; leave it out to pick from a menu').setMaxLength(SYSTEMS_TEXT_MAX),
          ),
      run: setSystems,
      requires: CHANGES_SETTINGS,
      help: { audience: 'admin', example: '/config systems play:d6 pools, d10 pools' },
    },
    {
      name: 'system',
      build: (sub) =>
        sub
          .setDescription("This server's default rule system")
          .addStringOption((o) =>
            o
              .setName('name')
              .setDescription('The system')
              .setRequired(true)
              .addChoices(...systemChoices()),
          ),
      run: setDefaultSystem,
      requires: CHANGES_SETTINGS,
      help: { audience: 'admin', example: '/config system name:d10-pool' },
    },
  ],
  ids: configIds,
  component,
});
