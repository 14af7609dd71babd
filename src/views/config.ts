/** /config show: the server's settings and who is a Dispatcher here. */
import { EmbedBuilder, MessageFlags } from 'discord.js';
import type { DispatcherRule } from '../discord/permissions.js';
import type { ServerSettings } from '../store/servers.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';
import { dispatcherRuleText } from './permissions.js';

export interface HouseRuleView {
  name: string;
  description: string;
  on: boolean;
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

export function configReply(settings: ServerSettings, rule: DispatcherRule, houseRules: HouseRuleView[], systemName: string): ReplyPayload {
  const embed = new EmbedBuilder()
    .setColor(0x34495e)
    .setTitle('Server settings')
    .addFields(
      { name: 'Dispatchers', value: truncate(dispatcherRuleLine(rule), DISCORD_LIMITS.fieldValue) },
      { name: 'Contest timeout', value: `Each step of a contest expires after **${settings.contestTimeoutMinutes} min**.` },
      {
        name: 'House rules',
        value: truncate(houseRules.map((houseRule) => `\`${houseRule.name}\`: **${houseRule.on ? 'on' : 'off'}** (${houseRule.description})`).join('\n'), DISCORD_LIMITS.fieldValue),
      },
      { name: "Players' own challenge rolls", value: `**${settings.playerChallengeRolls ? 'on' : 'off'}**: ${playerChallengeRollsText(settings.playerChallengeRolls)} (\`/config player-challenge-rolls\`)` },
      { name: 'Default system', value: systemName },
    )
    .setFooter({ text: 'Members with the Manage Server permission change these with /config.' });
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS, flags: MessageFlags.Ephemeral };
}
