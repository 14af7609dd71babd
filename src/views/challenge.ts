/** Challenge roll results (RULES 1.2, 1.3) as embeds: both dice, every term, the CL, the margin and the odds. */
import { EmbedBuilder, type APIEmbed } from 'discord.js';
import type { ChallengeResult, LinkedChallengeResult } from '../engine/systems/tactalk/challenge.js';
import { escapeMarkdown, formatD100, formatTerms, percent, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';
import { seedNoteOfRoll } from '../store/seed-notes.js';
import { seedNoteText } from './sessions.js';

const COLOR = { success: 0x2e9e5b, failure: 0xc0392b, neutral: 0x7f8c8d } as const;

/** The terms a challenge adds to its D100: `60 Lock Picking + 10 Acuity − 10 situational`. */
export function termsOf(result: Pick<ChallengeResult, 'input'>): string {
  const { input } = result;
  const terms = [
    ...input.archetypeModifiers,
    ...input.conditionModifiers.map((condition) => ({ name: `${condition.name} (condition)`, value: condition.value })),
    ...(input.situationalModifier !== 0 ? [{ name: 'situational', value: input.situationalModifier }] : []),
  ];
  return `${input.skill.level} ${escapeMarkdown(input.skill.name)}${formatTerms(terms)}`;
}

/** The lines that explain one challenge: the dice, the sum, the comparison, the odds. */
export function challengeLines(result: ChallengeResult): string[] {
  const cl = result.input.challengeLevel;
  const odds = `Chance of success: ${percent(result.successFaces)}`;
  if (result.outcome === 'guaranteed') {
    return [
      `No roll needed: lowest possible result ${result.boundary} ≥ CL ${cl}.`,
      `${termsOf(result)} = ${result.base}, and the D100 adds at least 1.`,
      `**Success is certain.**`,
    ];
  }
  if (result.outcome === 'impossible') {
    return [
      `No roll can succeed: highest possible result ${result.boundary} < CL ${cl}.`,
      `${termsOf(result)} = ${result.base}, and the D100 adds at most 100.`,
      `**Failure is certain.**`,
    ];
  }
  const comparison = result.success
    ? `**${result.result} ≥ ${cl}: success** (margin ${signedCompact(result.margin)})`
    : `**${result.result} < ${cl}: failure** (margin ${signedCompact(result.margin)})`;
  return [`🎲 \`${formatD100(result.d100)}\``, `${result.d100.value} (D100) + ${termsOf(result)} = **${result.result}**`, comparison, odds];
}

/**
 * A roll against a hidden CL as its player sees it (RULES 1.5): the dice and the total they make, never the CL, the
 * margin or the chance, which would give the CL away. A hidden CL is always rolled, so there are always dice.
 */
export function hiddenChallengeLines(result: ChallengeResult): string[] {
  if (result.outcome !== 'rolled') return [];
  return [`🎲 \`${formatD100(result.d100)}\``, `${result.d100.value} (D100) + ${termsOf(result)} = **${result.result}**`];
}

function verdict(result: ChallengeResult): string {
  if (result.outcome === 'guaranteed') return 'certain success';
  if (result.outcome === 'impossible') return 'certain failure';
  return result.success ? 'success' : 'failure';
}

function colorOf(result: ChallengeResult): number {
  if (result.outcome !== 'rolled') return COLOR.neutral;
  return result.success ? COLOR.success : COLOR.failure;
}

/** A roll's footer: its id to replay it by, and, when its seed came from a session, the seed's number in it. */
export function rollFooter(rollId: string | null): string {
  return rollId ? `Roll ${rollId} · check it with /roll replay id:${rollId}${seedNoteText(seedNoteOfRoll(rollId))}` : 'No dice were rolled, so nothing was stored.';
}

/**
 * Plain data rather than an EmbedBuilder: every length is already bounded here, and the builder's validation of
 * each field again was a tenth of what a /roll challenge cost the bot (it is the most frequent reply).
 */
export function challengeEmbed(result: ChallengeResult, who: string, rollId: string | null): APIEmbed {
  const title = `${result.success ? '✅' : '❌'} ${result.input.skill.name} vs CL ${result.input.challengeLevel}: ${verdict(result)}`;
  return {
    color: colorOf(result),
    title: truncate(title, DISCORD_LIMITS.embedTitle),
    description: truncate([`**${escapeMarkdown(who)}**`, ...challengeLines(result)].join('\n'), DISCORD_LIMITS.embedDescription),
    footer: { text: rollFooter(rollId) },
  };
}

export function challengeReply(result: ChallengeResult, who: string, rollId: string | null): ReplyPayload {
  return { embeds: [challengeEmbed(result, who, rollId)], allowedMentions: NO_PINGS };
}

export function linkedEmbed(linked: LinkedChallengeResult, who: string, rollId: string | null): EmbedBuilder {
  const total = linked.results.length;
  const embed = new EmbedBuilder()
    .setColor(linked.succeeded === total ? COLOR.success : linked.succeeded === 0 ? COLOR.failure : COLOR.neutral)
    .setTitle(`🔗 Linked roll: ${linked.succeeded} of ${total} succeeded`)
    .setDescription(`**${escapeMarkdown(who)}** · each roll stands on its own; a success is never overturned.`)
    .setFooter({ text: rollFooter(rollId) });
  linked.results.forEach((result, index) => {
    embed.addFields({
      name: truncate(`${index + 1}. ${result.success ? '✅' : '❌'} ${result.input.skill.name} vs CL ${result.input.challengeLevel}: ${verdict(result)}`, DISCORD_LIMITS.fieldName),
      value: truncate(challengeLines(result).join('\n'), DISCORD_LIMITS.fieldValue),
    });
  });
  return embed;
}
