/** /config show: the server's settings and who is a Dispatcher here. */
import { ActionRowBuilder, EmbedBuilder, MessageFlags, StringSelectMenuBuilder } from 'discord.js';
import { SYSTEMS, SYSTEM_IDS, systemCommand, systemName, type SystemId } from '../engine/systems/index.js';
import type { DispatcherRule, ServerSettings } from '../store/servers.js';
import { componentIds, SELECT } from './component-id.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';
import { dispatcherRuleText } from './permissions.js';

export interface HouseRuleView {
  name: string;
  /** The system it belongs to: shown only where that system is played. */
  system: SystemId;
  description: string;
  on: boolean;
}

/** The house rules of the systems played, one line each; null when none is. */
function houseRulesField(houseRules: HouseRuleView[], played: readonly SystemId[]): { name: string; value: string } | null {
  const shown = houseRules.filter((houseRule) => played.includes(houseRule.system));
  if (shown.length === 0) return null;
  const lines = shown.map((houseRule) => `\`${houseRule.name}\`: **${houseRule.on ? 'on' : 'off'}** (${houseRule.description})`);
  return { name: 'House rules', value: truncate(lines.join('\n'), DISCORD_LIMITS.fieldValue) };
}

export function dispatcherRuleLine(rule: DispatcherRule): string {
  return rule.kind === 'role'
    ? `Members with ${dispatcherRuleText(rule)} (set with \`/config dispatcher-role\`).`
    : `No Dispatcher role is set, so members with ${dispatcherRuleText(rule)}. \`/config dispatcher-role\` sets one role instead.`;
}

/** What the `player-challenge-rolls` setting means for the table. */
export function playerChallengeRollsText(on: boolean): string {
  return on
    ? 'players may make their own `/roll challenge` and `/roll linked` with a CL they choose, as well as state an intent with `/roll intent` for a Dispatcher to answer.'
    : 'a player states an intent with `/roll intent` and a Dispatcher answers it with a roll (or `/dispatch`); only Dispatchers make their own `/roll challenge` and `/roll linked`.';
}

/** `npcVoices`: how NPCs speak in the channel /config show was asked in (src/views/npc-voice.ts). */
export function configReply(settings: ServerSettings, rule: DispatcherRule, houseRules: HouseRuleView[], systemName: string, played: readonly SystemId[], npcVoices?: string): ReplyPayload {
  const houseRulesShown = houseRulesField(houseRules, played);
  const embed = new EmbedBuilder()
    .setColor(0x34495e)
    .setTitle('Server settings')
    .addFields(
      { name: 'Dispatchers', value: truncate(dispatcherRuleLine(rule), DISCORD_LIMITS.fieldValue) },
      // Contests and players' own challenge rolls are Tac Talk's: shown where it is played.
      ...(played.includes('tactalk')
        ? [{ name: 'Contest timeout', value: `Each step of a contest expires after **${settings.contestTimeoutMinutes} min**.` }]
        : []),
      // Each house rule belongs to one system: shown where that system is played.
      ...(houseRulesShown ? [houseRulesShown] : []),
      ...(played.includes('tactalk')
        ? [
            { name: "Players' own challenge rolls", value: `**${settings.playerChallengeRolls ? 'on' : 'off'}**: ${playerChallengeRollsText(settings.playerChallengeRolls)} (\`/config player-challenge-rolls\`)` },
          ]
        : []),
      { name: 'Systems played', value: truncate(`${playedSystemsLine(played)}. Change them with \`/config systems\`.`, DISCORD_LIMITS.fieldValue) },
      { name: 'Default system', value: systemName },
      ...(npcVoices ? [{ name: 'NPC voices here', value: truncate(npcVoices, DISCORD_LIMITS.fieldValue) }] : []),
    )
    .setFooter({ text: 'Members with the Manage Server permission change these with /config.' });
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS, flags: MessageFlags.Ephemeral };
}

/** "a", "a and b", "a, b and c". */
function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const systemWithCommand = (id: SystemId) => `${systemName(id)} (\`${systemCommand(id)}\`)`;

/** Which systems the server plays, with the command that rolls each. */
export function playedSystemsLine(played: readonly SystemId[]): string {
  const list = andList(played.map(systemWithCommand));
  return played.length === SYSTEM_IDS.length ? `All of them: ${list}` : list;
}

/**
 * A command of a system the server does not play: Discord offers every command in every server (one global list),
 * so the setting is applied when the command arrives, with how to turn the system on.
 */
export function unplayedCommandText(command: string, systems: readonly SystemId[], played: readonly SystemId[]): string {
  return (
    `\`${command}\` is for ${andList(systems.map(systemName))}, which this server does not play (it plays ${andList(played.map(systemName))}). ` +
    'Someone with Manage Server can add it with `/config systems`; `/help` lists the commands played here.'
  );
}

/** `config:systems`: the menu of the systems a server plays. */
export const configIds = componentIds<'systems'>('config', {
  write: (menu) => [menu],
  read: (parts) => (parts.length === 1 && parts[0] === 'systems' ? 'systems' : null),
  origin: () => SELECT,
});

/**
 * `/config systems` without a choice: a menu of the systems, the played ones ticked. `commandsOf` names each
 * system's own commands; `common` the commands every server has.
 */
export function systemsMenuReply(played: readonly SystemId[], commandsOf: (id: SystemId) => readonly string[], common: readonly string[]): ReplyPayload {
  const menu = new StringSelectMenuBuilder()
    .setCustomId(configIds.encode('systems'))
    .setPlaceholder('The systems this server plays')
    .setMinValues(1)
    .setMaxValues(SYSTEMS.length)
    .addOptions(
      SYSTEMS.map((system) => ({
        label: system.name,
        value: system.id,
        description: truncate(commandsOf(system.id).map((name) => `/${name}`).join(', '), 100),
        default: played.includes(system.id),
      })),
    );
  const content =
    '**Which systems does this server play?** Their commands run here and `/help` lists them, with the ones every server has: ' +
    `${common.map((name) => `\`/${name}\``).join(', ')}. Pick one or more; a command of another system then answers privately how to turn it on.`;
  return {
    content: truncate(content, DISCORD_LIMITS.content),
    components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu).toJSON()],
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_PINGS,
  };
}

/** Where a server admin hides a command from Discord's `/` list (Discord's own setting: the bot registers one list for every server). */
const HIDE_COMMANDS_TEXT = "To hide a command from Discord's `/` list, use Server Settings → Integrations → Tac Talk Bot, where Discord sets who sees each command.";

/** What `/config systems` did: the setting, applied at once, and what members see now. */
export function systemsSavedText(played: readonly SystemId[], defaultMoved: SystemId | null): string {
  const lines = [
    `This server plays **${andList(played.map(systemName))}**, from now on.`,
    "Members still see every command in Discord's `/` list: one of another system answers them, privately, how to turn it on, and `/help` lists only the commands played here.",
    HIDE_COMMANDS_TEXT,
  ];
  if (defaultMoved) lines.push(`New sheets are now **${systemName(defaultMoved)}** sheets by default (\`/config system\` changes it).`);
  return truncate(lines.join('\n'), DISCORD_LIMITS.content);
}
