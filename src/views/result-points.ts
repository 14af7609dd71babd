/** Die-code checks (RULES 3) as embeds: every die, the pips, each helper's dice, the opposition and the result points. */
import { EmbedBuilder } from 'discord.js';
import {
  describeOpposition,
  outcomesAbove,
  resultPointsDistribution,
  type CodeCheckResult,
} from '../engine/systems/result-points/check.js';
import { formatDieCode, type CodeRoll } from '../engine/systems/result-points/die-code.js';
import { percentOf } from '../engine/odds.js';
import { rollFooter } from './challenge.js';
import { escapeMarkdown, signed } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';

const COLOR = { success: 0x2e9e5b, failure: 0xc0392b, neutral: 0x7f8c8d } as const;

/** `[4][2][6] + 2 = 14`: every die, then the pips. */
export function formatCodeRoll(roll: CodeRoll): string {
  const dice = roll.dice.map((die) => `[${die}]`).join('');
  return `\`${dice}\`${roll.code.pips === 0 ? '' : ` ${signed(roll.code.pips)}`} = ${roll.total}`;
}

function oppositionLine(result: CodeCheckResult): string | null {
  const { against } = result.input;
  switch (against.kind) {
    case 'standing':
      return null;
    case 'difficulty':
      return against.name ? `Difficulty **${against.name}**: the top of its range, **${against.value}**` : `Difficulty **${against.value}**`;
    case 'fixed':
      return against.code
        ? `Fixed resistance ${formatDieCode(against.code)} = 3 × ${against.code.dice}${against.code.pips === 0 ? '' : ` ${signed(against.code.pips)}`} = **${against.value}**`
        : `Fixed resistance **${against.value}**`;
    case 'active':
      return `Opponent rolls ${formatDieCode(against.code)}: ${formatCodeRoll(result.opponent!)} → **${result.opposition}**`;
  }
}

function pointsLine(result: CodeCheckResult): string {
  const band = result.effectiveness;
  const reading = band ? `**${band.name}** (${band.min}–${band.max === 30 ? '30 and above' : band.max}): ${band.meaning}` : null;
  if (result.opposition === null) {
    return band ? `Result points **${result.resultPoints}** → ${reading}` : `Result points **${result.resultPoints}**: 0 or less, **no effect**`;
  }
  const sum = `Result points ${result.total} − ${result.opposition} = **${result.resultPoints}**`;
  return band ? `${sum} → success, ${reading}` : `${sum}: 0 or less, **failure**`;
}

/** The exact chance the result points are above 0 (success, or for a standing check any effect). */
export function codeCheckChance(result: CodeCheckResult): number {
  const distribution = resultPointsDistribution(result.input);
  return percentOf(outcomesAbove(distribution, 0), distribution.outcomes);
}

/** The lines that explain a check: each roll, the total, the opposition, the result points and the odds. */
export function codeCheckLines(result: CodeCheckResult): string[] {
  const lines = [`🎲 ${formatDieCode(result.input.code)}: ${formatCodeRoll(result.roll)}`];
  result.boosts.forEach((roll) => lines.push(`➕ Boost ${formatDieCode(roll.code)}: ${formatCodeRoll(roll)}`));
  result.penalties.forEach((roll) => lines.push(`➖ Penalty ${formatDieCode(roll.code)}: ${formatCodeRoll(roll)}`));
  if (result.boosts.length + result.penalties.length > 0) {
    const terms = [...result.boosts.map((roll) => signed(roll.total)), ...result.penalties.map((roll) => signed(-roll.total))].join(' ');
    lines.push(`Total ${result.roll.total} ${terms} = **${result.total}**`);
  } else {
    lines.push(`Total **${result.total}**`);
  }
  const opposition = oppositionLine(result);
  if (opposition) lines.push(opposition);
  lines.push(pointsLine(result));
  lines.push(`${result.opposition === null ? 'Chance of an effect' : 'Chance of success'}: ${codeCheckChance(result)}%`);
  return lines;
}

export function codeCheckTitle(result: CodeCheckResult): string {
  const what = `${formatDieCode(result.input.code)}${result.input.against.kind === 'standing' ? '' : ` vs ${describeOpposition(result.input.against)}`}`;
  const band = result.effectiveness?.name;
  if (result.success === null) return `🎲 ${what}: ${band ? `${band} (${result.resultPoints})` : 'no effect'}`;
  return `${result.success ? '✅' : '❌'} ${what}: ${result.success ? `success, ${band}` : 'failure'} (${result.resultPoints} result points)`;
}

export function codeCheckReply(result: CodeCheckResult, who: string, rollId: string | null): ReplyPayload {
  const color = result.success === null ? COLOR.neutral : result.success ? COLOR.success : COLOR.failure;
  const embed = new EmbedBuilder()
    .setColor(color)
    .setTitle(truncate(codeCheckTitle(result), DISCORD_LIMITS.embedTitle))
    .setDescription(truncate([`**${escapeMarkdown(who)}**`, ...codeCheckLines(result)].join('\n'), DISCORD_LIMITS.embedDescription))
    .setFooter({ text: rollFooter(rollId) });
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS };
}

/** A replayed check, as [name, value] fields for the replay embed. */
export function replayFieldsOfCheck(result: CodeCheckResult): Array<[string, string]> {
  return [[codeCheckTitle(result), codeCheckLines(result).join('\n')]];
}
