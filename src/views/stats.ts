/**
 * /stats' answer: whether the dice behave as their odds say, for a scope (a member, a sheet, a play session, the
 * server), in words and in a chart (src/views/stats-chart.ts) attached to the embed.
 */
import { MessageFlags, type APIEmbed } from 'discord.js';
import { CALIBRATION_ROLLS_MAX, chanceWords, HISTOGRAM_FACES_MIN } from '../engine/calibration.js';
import { escapeMarkdown } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import { privateNote, type ReplyPayload } from './messages.js';
import type { StatsSummary } from './stats-thread.js';

const STATS_COLOUR = 0x5865f2;

// The chart's file name here, not beside its drawing: the bot's thread never loads ECharts or resvg, only the stats
// thread does.
export const STATS_CHART_NAME = 'stats.png';

/** The scope as the answer names it. */
export interface StatsScopeView {
  userId?: string;
  sheet?: { name: string; ownerId: string | null };
  session?: { title: string; open: boolean };
}

/** "Mike's rolls", "Troy's rolls", "the server's rolls", with the session when there is one. */
export function scopeWords(scope: StatsScopeView): string {
  const whose = scope.sheet
    ? `**${escapeMarkdown(scope.sheet.name)}**${scope.sheet.ownerId ? ` (<@${scope.sheet.ownerId}>'s sheet)` : ' (NPC)'}`
    : scope.userId
      ? `<@${scope.userId}>`
      : 'everyone on this server';
  const when = scope.session ? ` in the play session “${escapeMarkdown(scope.session.title)}”${scope.session.open ? ' (open now)' : ''}` : '';
  return `${whose}${when}`;
}

const oneDecimal = (value: number) => value.toFixed(1);
const pText = (pValue: number) => (pValue >= 0.001 ? `p = ${pValue.toFixed(3)}` : pValue >= 1e-12 ? `p = ${pValue.toExponential(1)}` : 'p < 10⁻¹²');

function successLines(summary: StatsSummary): string[] {
  if (summary.rolls === 0) return ['🎯 No rolls with a chance of success in this scope yet.'];
  const difference = summary.got - summary.expected;
  const direction = Math.abs(difference) < 0.05 ? 'right on the odds' : `${oneDecimal(Math.abs(difference))} ${difference > 0 ? 'more' : 'fewer'} than expected`;
  return [
    `🎯 **${summary.rolls}** roll${summary.rolls === 1 ? '' : 's'} with a success or failure: **${summary.got}** succeeded; their odds expected **${oneDecimal(summary.expected)}** (± ${oneDecimal(summary.spread)}).`,
    `That is ${direction}: **${chanceWords(summary.pValue)}** (${pText(summary.pValue)}, exact, two-sided).`,
  ];
}

function faceLines(summary: StatsSummary): string[] {
  if (summary.faces === 0) return ['🎲 No D100 rolled in this scope yet.'];
  const rolled = `🎲 **${summary.faces}** D100 face${summary.faces === 1 ? '' : 's'} in tens: ${summary.bins.join(' · ')}.`;
  if (!summary.evenness) return [rolled, `Too few to judge their spread: a fair test needs ${HISTOGRAM_FACES_MIN} faces.`];
  return [rolled, `Spread against an even die: **${chanceWords(summary.evenness.pValue)}** (chi-square ${oneDecimal(summary.evenness.statistic)}, 9 degrees of freedom, ${pText(summary.evenness.pValue)}).`];
}

/** The answer with its chart; private unless shared. */
export function statsReply(summary: StatsSummary, png: Buffer, facts: { scope: StatsScopeView; capped: boolean; hiddenLeftOut: boolean; shared: boolean }): ReplyPayload {
  const notes = [
    ...(facts.capped ? [`Only the newest ${CALIBRATION_ROLLS_MAX.toLocaleString('en-US')} rolls of this scope are weighed.`] : []),
    ...(facts.hiddenLeftOut ? ['Rolls only Dispatchers may see (blind, secret, hidden CL) are left out.'] : []),
    'Linked rolls and contest rounds have no single verdict and are not counted.',
  ];
  const embed: APIEmbed = {
    title: '📊 Do the dice match their odds?',
    color: STATS_COLOUR,
    description: truncate([`Rolls of ${scopeWords(facts.scope)}.`, '', ...successLines(summary), '', ...faceLines(summary)].join('\n'), DISCORD_LIMITS.embedDescription),
    image: { url: `attachment://${STATS_CHART_NAME}` },
    footer: { text: truncate(notes.join(' '), DISCORD_LIMITS.footer) },
  };
  return {
    embeds: [embed],
    files: [{ attachment: png, name: STATS_CHART_NAME }],
    ...(facts.shared ? {} : { flags: MessageFlags.Ephemeral }),
    allowedMentions: NO_PINGS,
  };
}

/** Nothing to weigh: what /stats counts, and how to get some. */
export function noStatsNote(scope: StatsScopeView): ReplyPayload {
  return privateNote(
    `No rolls to weigh for ${scopeWords(scope)}: /stats counts rolls with a chance of success (challenges, checks, pools) and the D100's faces. ` +
      'Roll some, or pick another scope (`player:`, `sheet:`, `session:`), or none for the whole server.',
  );
}
