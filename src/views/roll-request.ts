/**
 * A Dispatcher's roll request on its public message, and the Dispatcher's private details. A hidden CL never
 * appears here except in `requestDetails`, which only a Dispatcher is shown.
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, MessageFlags } from 'discord.js';
import { mayInvestigate, type RollRequestState } from '../engine/systems/tactalk/roll-request.js';
import type { TableDieRoll } from '../engine/tables.js';
import { challengeLines, rollFooter } from './challenge.js';
import { authorMarkdown, authorMarkdownWithin, escapeMarkdown, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';
import { formatTableDice } from './tables.js';

export interface RollRequestView {
  id: number;
  state: RollRequestState;
}

function partLine(state: RollRequestState, index: number): string {
  const part = state.parts[index]!;
  const adds = [...part.archetypes.map((name) => `+ ${escapeMarkdown(name)}`), ...(part.situationalModifier ? [signedCompact(part.situationalModifier)] : [])];
  const cl = state.hidden ? '**hidden**' : `**${part.challengeLevel}**`;
  return `**${escapeMarkdown(part.skill)}**${adds.length ? ` ${adds.join(' ')}` : ''} vs CL ${cl}`;
}

export function requestEmbed(view: RollRequestView): EmbedBuilder {
  const { state } = view;
  const title = state.kind === 'linked' ? `🔗 Linked roll request #${view.id}` : `🎯 Roll request #${view.id}: ${state.parts[0]!.skill}`;
  const lines = [`<@${state.dispatcherId}> asks <@${state.playerId}> for ${state.kind === 'linked' ? 'a linked roll' : 'a challenge roll'}:`];
  state.parts.forEach((_, index) => lines.push(`${state.parts.length > 1 ? `${index + 1}. ` : ''}${partLine(state, index)}`));
  if (state.investigation) lines.push('', `🔎 <@${state.playerId}> investigated the difficulty (${escapeMarkdown(state.investigationTable ?? '')}).`);
  const embed = new EmbedBuilder().setTitle(truncate(title, DISCORD_LIMITS.embedTitle)).setColor(0x2c3e50);
  if (state.phase === 'open') {
    lines.push('', state.hidden ? 'The Challenge Level is hidden. Press **Roll** when ready' + (mayInvestigate(state) ? ', or **Investigate** first.' : '.') : 'Press **Roll** when ready.');
  } else if (state.phase === 'cancelled') {
    lines.push('', '⛔ Cancelled by the Dispatcher.');
    embed.setColor(0x7f8c8d);
  } else if (state.result) {
    const { succeeded, total, operatorName, results } = state.result;
    embed.setColor(succeeded === total ? 0x2e9e5b : succeeded === 0 ? 0xc0392b : 0xd4ac0d);
    lines.push('', `**${escapeMarkdown(operatorName)}**: ${total > 1 ? `${succeeded} of ${total} succeeded` : succeeded ? '✅ **success**' : '❌ **failure**'}`);
    if (!state.hidden) {
      results.forEach((result, index) => {
        embed.addFields({
          name: truncate(`${index + 1}. ${result.input.skill.name} vs CL ${result.input.challengeLevel}: ${result.success ? 'success' : 'failure'}`, DISCORD_LIMITS.fieldName),
          value: truncate(challengeLines(result).join('\n'), DISCORD_LIMITS.fieldValue),
        });
      });
    } else if (total > 1) {
      lines.push(...results.map((result, index) => `${index + 1}. ${escapeMarkdown(result.input.skill.name)}: ${result.success ? '✅ success' : '❌ failure'}`));
    }
  }
  embed.setDescription(truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription));
  // The footer carries the roll id only; replaying a hidden roll shows its CL to Dispatchers alone.
  embed.setFooter({ text: state.result?.rollId ? rollFooter(state.result.rollId) : `Request #${view.id}` });
  return embed;
}

export function requestComponents(view: RollRequestView) {
  const { state, id } = view;
  const buttons: ButtonBuilder[] = [];
  if (state.phase === 'open') {
    buttons.push(new ButtonBuilder().setCustomId(`dispatch:roll:${id}`).setLabel('Roll').setStyle(ButtonStyle.Success));
    if (mayInvestigate(state) && state.investigationTable) {
      buttons.push(new ButtonBuilder().setCustomId(`dispatch:investigate:${id}`).setLabel('Investigate').setStyle(ButtonStyle.Primary));
    }
    buttons.push(new ButtonBuilder().setCustomId(`dispatch:cancel:${id}`).setLabel('Cancel (Dispatcher)').setStyle(ButtonStyle.Secondary));
  }
  if (state.hidden && state.phase !== 'cancelled') {
    buttons.push(new ButtonBuilder().setCustomId(`dispatch:details:${id}`).setLabel('Numbers (Dispatcher)').setStyle(ButtonStyle.Secondary));
  }
  return buttons.length ? [new ActionRowBuilder<ButtonBuilder>().addComponents(buttons).toJSON()] : [];
}

export function requestMessage(view: RollRequestView): MessageBody {
  return { embeds: [requestEmbed(view).toJSON()], components: requestComponents(view), allowedMentions: NO_PINGS };
}

/** The first post pings the player, and only them. */
export function requestOpening(view: RollRequestView) {
  return {
    ...requestMessage(view),
    content: `<@${view.state.playerId}>, a roll for you.`,
    allowedMentions: { parse: [] as never[], users: [view.state.playerId] },
  };
}

/** The Dispatcher's private view: every CL and, once rolled, every number. */
export function requestDetails(view: RollRequestView): ReplyPayload {
  const { state } = view;
  const lines = state.parts.map((part, index) => `${state.parts.length > 1 ? `${index + 1}. ` : ''}${escapeMarkdown(part.skill)} vs CL **${part.challengeLevel}**`);
  const embed = new EmbedBuilder().setTitle(`🔒 Request #${view.id}: the numbers`).setColor(0x34495e).setDescription(lines.join('\n'));
  if (state.investigation) {
    const revealed = state.investigation.revealed ?? 'Nothing revealed.';
    embed.addFields({ name: 'Investigation', value: `${authorMarkdownWithin(state.investigation.rowText, DISCORD_LIMITS.fieldValue - revealed.length - 1)}\n${revealed}` });
  }
  (state.result?.results ?? []).forEach((result, index) => {
    embed.addFields({ name: truncate(`${index + 1}. ${result.input.skill.name}`, DISCORD_LIMITS.fieldName), value: truncate(challengeLines(result).join('\n'), DISCORD_LIMITS.fieldValue) });
  });
  if (state.result?.rollId) embed.setFooter({ text: rollFooter(state.result.rollId) });
  return { embeds: [embed.toJSON()], flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS };
}

/** What an investigation showed the player, privately: the roll on the table, its row, and what it revealed. */
export function investigationNote(investigation: {
  table: string;
  roll: TableDieRoll;
  skill: { name: string; level: number };
  result: number;
  rowText: string;
  revealed: string | null;
  rollId: string;
}): string {
  const { table, roll, skill, result, rowText, revealed, rollId } = investigation;
  return [
    `🔎 **${escapeMarkdown(table)}**: 🎲 \`${formatTableDice(roll)}\``,
    `${roll.total} + ${skill.level} ${escapeMarkdown(skill.name)} = **${result}**`,
    ...authorMarkdown(rowText).split('\n').map((line) => `> ${line}`),
    revealed ?? 'Nothing about the Challenge Level is revealed.',
    `(roll ${rollId}; only you see this)`,
  ].join('\n');
}
