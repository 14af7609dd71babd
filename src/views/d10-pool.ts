/**
 * d10 pool rolls (RULES 5) as embeds: every die, the highest and its matches, every term, the TN and the verdict;
 * cumulative rolls as one message that grows a line per roll, with a *Roll again* button for the roller.
 */
import { ButtonStyle, ComponentType, EmbedBuilder, type APIActionRowComponent, type APIComponentInMessageActionRow } from 'discord.js';
import { reachedGoal, type CumulativeStepResult } from '../engine/systems/d10-pool/cumulative.js';
import { fastdrawOutcome } from '../engine/systems/d10-pool/actions.js';
import { partialAllowed, poolOdds, poolSize, type AdvancedInput, type PoolInput, type PoolResult } from '../engine/systems/d10-pool/pool.js';
import { d10Pool } from '../engine/systems/d10-pool/index.js';
import { percentOf } from '../engine/odds.js';
import { rollFooter } from './challenge.js';
import { componentIds, rollIdIn, wholeNumber } from './component-id.js';
import { escapeMarkdown, formatTerms, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';
import { replayFieldsOfInitiative } from './initiative.js';
import { defineSystemView } from './system-view.js';

/** `1 match`, `2 matches`. */
function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

const COLOR = { solid: 0x1e8449, success: 0x2e9e5b, partial: 0xd4ac0d, failure: 0xc0392b, neutral: 0x7f8c8d } as const;

/** `[2][8][8] → 8 + 1 match = 9`. */
export function formatPool(result: PoolResult): string {
  const { reading } = result;
  const dice = `\`${reading.faces.map((face) => `[${face}]`).join('')}\``;
  const matches = reading.matches === 0 ? '' : ` + ${counted(reading.matches, 'match', 'matches')} = ${reading.natural}`;
  return `${dice} → ${reading.highest}${matches}`;
}

function mishapLine(result: PoolResult): string | null {
  const { reading } = result;
  switch (reading.mishap) {
    case 'botch':
      return `💀 **Botch**: every die shows 1 (under stress).`;
    case 'automatic failure':
      return `**Automatic failure**: ${reading.ones} of ${reading.faces.length} dice show 1, a majority (under stress).`;
    case 'critical failure':
      return reading.worseThanBotch
        ? `💀 **Critical failure**: zero dice, and the one die shows 1: worse than a normal botch.`
        : `💀 **Critical failure**: zero dice, and the one die shows 2.`;
    default:
      return null;
  }
}

/** Why a near miss is not a partial success here, or null when it may be one. */
function noPartialReason(input: PoolInput): string | null {
  if (input.action === 'fastdraw') return 'a fastdraw succeeds or fails';
  return input.unsafe ? 'no partial success: missing is not safe' : null;
}

export function verdictLine(result: PoolResult): string | null {
  const tn = result.input.targetNumber;
  if (tn === null || result.verdict === null) return null;
  if (result.reading.mishap) return `**${result.result} vs TN ${tn}: failure** (${result.reading.mishap})`;
  const shortBy = tn - result.result;
  const noPartial = noPartialReason(result.input);
  if (result.verdict === 'failure' && noPartial && 4 * shortBy <= tn) return `**${result.result} < TN ${tn}: failure** (short by ${shortBy}; ${noPartial})`;
  switch (result.verdict) {
    case 'solid success':
      return `**${result.result} > ${(tn * 1.5).toString()} (1.5 × TN ${tn}): solid success**`;
    case 'success':
      return `**${result.result} ≥ TN ${tn}: success**`;
    case 'partial success':
      return `**${result.result} < TN ${tn}: partial success** (short by ${shortBy}, at most 25 % of the TN: ${tn / 4})`;
    case 'failure':
      return `**${result.result} < TN ${tn}: failure** (short by ${shortBy}, more than 25 % of the TN: ${tn / 4})`;
  }
}

/** The exact chances of each verdict for this pool, TN and terms. */
export function oddsLine(result: PoolResult): string | null {
  const tn = result.input.targetNumber;
  if (tn === null) return null;
  const bonus = result.terms.reduce((sum, term) => sum + term.value, 0);
  const partial = partialAllowed(result.input);
  const odds = poolOdds(poolSize(result.input), tn, bonus, result.input.calm, partial);
  const pct = (count: bigint) => `${percentOf(count, odds.outcomes)}%`;
  const parts = [`success ${pct(odds.solid + odds.success)} (solid ${pct(odds.solid)})`, ...(partial ? [`partial ${pct(odds.partial)}`] : []), `failure ${pct(odds.failure)}`];
  if (!result.input.calm) parts.push(`${result.reading.zeroDice ? 'critical failure' : 'automatic failure or botch'} ${pct(odds.mishap)}`);
  return `Odds: ${parts.join(' · ')}`;
}

/** `4 − 1 (in the dark) − 1 (wounded) = 2`: the dice asked for, each situation taking one. */
export function situationsText(input: Pick<PoolInput, 'dice' | 'situations'>): string | null {
  const situations = input.situations ?? [];
  if (situations.length === 0) return null;
  return `${input.dice}${situations.map((name) => ` − 1 (${escapeMarkdown(name)})`).join('')} = ${poolSize(input)}`;
}

/** What a fastdraw did to this phase (the seed's sample actions). */
export function fastdrawLine(result: PoolResult): string | null {
  if (result.input.action !== 'fastdraw') return null;
  return fastdrawOutcome(result) === 'drawn as a free action'
    ? '⚡ **Drawn as a free action**: this phase’s action is still yours to declare.'
    : '✋ **Fastdraw failed**: this phase’s action is lost.';
}

/** `Pistol (skill): 4 dice · Tactics (skill): level 3, the secondary skill`: what the sheet gave the roll, or null. */
export function fromSheetLine(input: PoolInput & Partial<Pick<AdvancedInput, 'secondary' | 'secondaryFrom'>>): string | null {
  const parts: string[] = [];
  if (input.pool) parts.push(`${escapeMarkdown(input.pool.name)} (${input.pool.kind}): ${counted(input.dice, 'die', 'dice')}`);
  if (input.secondaryFrom && input.secondary !== undefined) {
    parts.push(`${escapeMarkdown(input.secondaryFrom.name)} (${input.secondaryFrom.kind}): level ${input.secondary}, the secondary skill`);
  }
  return parts.length > 0 ? `📋 ${parts.join(' · ')}` : null;
}

/** The lines that explain one pool roll: the dice, the reading, the sum, the mishap, the verdict, the odds. */
export function poolLines(result: PoolResult, options: { odds?: boolean } = {}): string[] {
  const { reading, input } = result;
  const lines: string[] = [];
  const fromSheet = fromSheetLine(input);
  if (fromSheet) lines.push(fromSheet);
  const situations = situationsText(input);
  if (situations) lines.push(`Dice: ${situations} (each situation takes one die)`);
  if (reading.zeroDice) lines.push(`Zero dice (${poolSize(input)}): one die is rolled${input.calm ? '' : ', and a 1 or 2 is a critical failure'}.`);
  lines.push(`🎲 ${formatPool(result)}`);
  lines.push(`${reading.natural} (dice)${formatTerms(result.terms)} = **${result.result}**`);
  const mishap = mishapLine(result);
  if (mishap) lines.push(mishap);
  const verdict = verdictLine(result);
  if (verdict) lines.push(verdict);
  else lines.push(`Result **${result.result}** (no TN: e.g. the TN your allies roll against).`);
  const fastdraw = fastdrawLine(result);
  if (fastdraw) lines.push(fastdraw);
  if (input.unsafe) lines.push('Missing is not safe: a near miss is a failure, not a partial success.');
  if (input.calm) lines.push('Calm: no automatic failure, botch or critical failure.');
  if (options.odds !== false) {
    const odds = oddsLine(result);
    if (odds) lines.push(odds);
  }
  return lines;
}

function colorOf(result: PoolResult): number {
  switch (result.verdict) {
    case 'solid success':
      return COLOR.solid;
    case 'success':
      return COLOR.success;
    case 'partial success':
      return COLOR.partial;
    case 'failure':
      return COLOR.failure;
    default:
      return result.reading.mishap ? COLOR.failure : COLOR.neutral;
  }
}

function verdictWord(result: PoolResult): string {
  if (result.reading.mishap) return result.reading.mishap;
  return result.verdict ?? `result ${result.result}`;
}

/** The skill or attribute the dice came from, before the dice: `Pistol `, or nothing for dice given as a number. */
function poolName(input: Pick<PoolInput, 'pool'>): string {
  return input.pool ? `${escapeMarkdown(input.pool.name)} ` : '';
}

/** `4d10`, `Pistol 4d10`, or `Fastdraw 4d10`: what a basic roll is called in its title. */
export function basicRollName(input: PoolInput): string {
  return `${input.action === 'fastdraw' ? 'Fastdraw ' : ''}${poolName(input)}${input.dice}d10`;
}

/** `3d10 additive`, `Pistol 4d10 subtractive`: what an advanced roll is called in its title. */
export function advancedRollName(input: PoolInput & { mode?: string }): string {
  return `${poolName(input)}${input.dice}d10 ${input.mode ?? 'advanced'}`;
}

/** Who a roll names: the character (sheet) that rolled, else `fallback` (the member, for rolls made without a sheet). */
export function rollerName(input: Pick<PoolInput, 'sheet'>, fallback: string): string {
  return input.sheet?.name ?? fallback;
}

export function poolTitle(result: PoolResult, what: string): string {
  const icon = result.success ? '✅' : result.verdict === 'partial success' ? '➗' : result.verdict === null && !result.reading.mishap ? '🎲' : '❌';
  const tn = result.input.targetNumber === null ? '' : ` vs TN ${result.input.targetNumber}`;
  return `${icon} ${what}${tn}: ${verdictWord(result)}`;
}

export function poolReply(result: PoolResult, what: string, who: string, rollId: string): ReplyPayload {
  const embed = new EmbedBuilder()
    .setColor(colorOf(result))
    .setTitle(truncate(poolTitle(result, what), DISCORD_LIMITS.embedTitle))
    .setDescription(truncate([`**${escapeMarkdown(who)}**`, ...poolLines(result)].join('\n'), DISCORD_LIMITS.embedDescription))
    .setFooter({ text: rollFooter(rollId) });
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS };
}

// ---- cumulative rolls ------------------------------------------------------------------------------------------

export interface StoredStep {
  rollId: string;
  result: CumulativeStepResult;
}

export interface RollAgainPress {
  cumulativeId: string;
  /** The step it rolls: 2 for the first press. */
  step: number;
}

/** `d10:again:<cumulative roll id>:<the step it rolls>`. */
export const d10Ids = componentIds<RollAgainPress>('d10', {
  write: ({ cumulativeId, step }) => ['again', cumulativeId, step],
  read: ([action, idText, stepText, ...rest]) => {
    const cumulativeId = rollIdIn(idText);
    const step = wholeNumber(stepText);
    return action === 'again' && cumulativeId && step !== null && rest.length === 0 ? { cumulativeId, step } : null;
  },
});

function goalText(step: CumulativeStepResult): string {
  const { input, after } = step;
  const goals = [
    ...(input.target !== null ? [`total **${after.total} / ${input.target}**`] : []),
    ...(input.count !== null ? [`successes **${after.successes} / ${input.count}**`] : []),
  ];
  return goals.join(' · ');
}

/** One roll of a cumulative roll, on one line. */
export function stepLine(step: StoredStep): string {
  const { result } = step;
  const roll = result.roll;
  const terms = roll.terms.length > 0 ? `${formatTerms(roll.terms)} = ${roll.result}` : '';
  const verdict = roll.reading.mishap ? roll.reading.mishap : roll.verdict ?? null;
  const gained = `+${result.gained.total}${result.input.count !== null ? `, ${counted(result.gained.successes, 'success', 'successes')}` : ''}`;
  return `**${result.input.step}.** ${formatPool(roll)}${terms}${verdict ? ` · ${verdict}` : ''} · ${gained} · \`${step.rollId}\``;
}

function endText(last: CumulativeStepResult): string {
  switch (last.end) {
    case 'target reached':
      return `✅ **Target reached** in ${counted(last.input.step, 'roll', 'rolls')}.`;
    case 'count reached':
      return `✅ **Successes reached** in ${counted(last.input.step, 'roll', 'rolls')}.`;
    case 'botched':
      return `💀 **Botched**: the cumulative roll fails (${last.roll.reading.mishap}).`;
    case 'out of rolls':
      return `❌ **Out of rolls**: ${counted(last.input.maxRolls, 'roll', 'rolls')} used and the goal not reached.`;
    default:
      return `Roll ${last.input.step + 1} of at most ${last.input.maxRolls} is next.`;
  }
}

/**
 * The cumulative roll's message: every step so far (the oldest folded away if it grows too long), and the button.
 * It names the character stored with the roll, else `who` (the member who started it without a sheet).
 */
export function cumulativeMessage(steps: StoredStep[], who: string): MessageBody {
  const last = steps[steps.length - 1]!;
  const { input } = last.result;
  const situations = situationsText(input);
  const settings = [
    `${input.pool ? `${escapeMarkdown(input.pool.name)}: ` : ''}${situations ? `dice ${situations}` : counted(input.dice, 'die', 'dice')}${input.targetNumber !== null ? ` vs TN ${input.targetNumber}` : ''}`,
    ...(input.modifier !== 0 ? [`modifier ${signedCompact(input.modifier)}`] : []),
    input.calm ? 'calm' : 'under stress',
  ].join(' · ');
  const header = [`**${escapeMarkdown(rollerName(input, who))}** · ${settings}`, `Goal: ${goalText(last.result)} (a solid success counts as two)`];
  const footerLines = [endText(last.result)];
  let lines = steps.map(stepLine);
  let folded = 0;
  const budget = DISCORD_LIMITS.embedDescription - 200;
  while (lines.length > 1 && [...header, ...lines, ...footerLines].join('\n').length > budget) {
    lines = lines.slice(1);
    folded++;
  }
  const body = [...header, ...(folded > 0 ? [`… ${counted(folded, 'earlier roll', 'earlier rolls')} (see /log)`] : []), ...lines, ...footerLines];
  const reached = reachedGoal(last.result.end);
  const embed = new EmbedBuilder()
    .setColor(last.result.end === null ? COLOR.neutral : reached ? COLOR.success : COLOR.failure)
    .setTitle(truncate(`🔁 Cumulative roll: ${goalText(last.result).replace(/\*\*/g, '')}${last.result.end ? ` · ${last.result.end}` : ''}`, DISCORD_LIMITS.embedTitle))
    .setDescription(truncate(body.join('\n'), DISCORD_LIMITS.embedDescription))
    .setFooter({ text: `Cumulative roll ${input.cumulativeId} · each roll's id is on its line · check one with /roll replay id:${last.rollId}` });
  const components: APIActionRowComponent<APIComponentInMessageActionRow>[] =
    last.result.end === null
      ? [
          {
            type: ComponentType.ActionRow,
            components: [
              {
                type: ComponentType.Button,
                style: ButtonStyle.Primary,
                custom_id: d10Ids.encode({ cumulativeId: input.cumulativeId, step: input.step + 1 }),
                label: `Roll again (${input.step + 1} of ${input.maxRolls})`,
              },
            ],
          },
        ]
      : [];
  return { embeds: [embed.toJSON()], components, allowedMentions: NO_PINGS };
}

/** A replayed pool roll (basic, advanced or one cumulative step), as [name, value] fields for the replay embed. */
export function replayFieldsOfPool(
  rederived: { kind: 'd10'; result: PoolResult } | { kind: 'd10-advanced'; result: PoolResult } | { kind: 'd10-extended'; result: CumulativeStepResult },
): Array<[string, string]> {
  if (rederived.kind === 'd10-extended') {
    const step = rederived.result;
    const name = `Cumulative roll ${step.input.cumulativeId}, roll ${step.input.step} of at most ${step.input.maxRolls}`;
    const progress = `Before: total ${step.input.before.total}, ${counted(step.input.before.successes, 'success', 'successes')} · this roll: +${step.gained.total}, +${step.gained.successes} · after: **${goalText(step)}**`;
    return [[name, [...poolLines(step.roll), progress, endText(step)].join('\n')]];
  }
  const { result } = rederived;
  const what = rederived.kind === 'd10' ? basicRollName(result.input) : advancedRollName(result.input);
  return [[poolTitle(result, what), poolLines(result).join('\n')]];
}

export const d10PoolView = defineSystemView(d10Pool, {
  start: { sheet: [{ what: 'Add a skill (its number of dice)', command: '/sheet skill set name:Firearms level:4' }], roll: '/d10 roll dice:Firearms tn:7' },
  replay: {
    d10: replayFieldsOfPool,
    'd10-advanced': replayFieldsOfPool,
    'd10-extended': replayFieldsOfPool,
    'd10-initiative': replayFieldsOfInitiative,
  },
});
