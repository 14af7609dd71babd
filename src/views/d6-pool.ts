/**
 * d6 pool rolls (RULES 4) as one message: every die by where it came from (skill, gear, attribute), sixes, banes
 * and net successes, the odds; a *Push* button for the roller, then a select of the condition the push cost.
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  EmbedBuilder,
  StringSelectMenuBuilder,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
} from 'discord.js';
import { percentOf } from '../engine/odds.js';
import {
  CONDITION_MODIFIER,
  PUSH_CONDITIONS,
  poolSize,
  pushable,
  opposedResult,
  successChance,
  type D6Die,
  type D6PoolResult,
  type DieSource,
  type PushedDie,
  type PoolConditionRecord,
  type PushResult,
  type Tally,
} from '../engine/systems/d6-pool/pool.js';
import { rollFooter } from './challenge.js';
import { escapeMarkdown, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';

export interface PoolMessageState {
  who: string;
  roll: { rollId: string; result: D6PoolResult };
  push?: { rollId: string; result: PushResult };
  condition?: string;
  /** The opponent's roll, once made (only on an opposed roll). */
  opposed?: { rollId: string; result: D6PoolResult };
}

/** `1 die`, `2 dice`. */
function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
const dice = (count: number) => counted(count, 'die', 'dice');
const successes = (count: number) => counted(count, 'success', 'successes');

export const pushButtonId = (rollId: string) => `pool:push:${rollId}`;
export const conditionSelectId = (rollId: string) => `pool:condition:${rollId}`;
export const opposeButtonId = (rollId: string) => `pool:oppose:${rollId}`;

function sourceLabel(source: DieSource, attribute: string): string {
  return source === 'skill' ? 'Skill' : source === 'gear' ? 'Gear' : attribute;
}

function dieText(die: D6Die | PushedDie): string {
  return 'rerolled' in die && die.rerolled ? `[${die.before}→${die.face}]` : `[${die.face}]`;
}

/** `Skill [6][3] · Gear [1] · STR [4][5]`: the dice grouped by where they came from, in the order rolled. */
export function formatD6Dice(dice: ReadonlyArray<D6Die | PushedDie>, attribute: string): string {
  const groups: string[] = [];
  for (const source of ['skill', 'gear', 'attribute'] as const) {
    const own = dice.filter((die) => die.source === source);
    if (own.length > 0) groups.push(`${sourceLabel(source, attribute)} \`${own.map(dieText).join('')}\``);
  }
  return groups.join(' · ');
}

export function tallyLine(tally: Tally): string {
  const net = tally.successes === 0 ? '**no success: failure**' : `**${successes(tally.successes)}**`;
  return `${counted(tally.sixes, 'six', 'sixes')} − ${counted(tally.banes, 'bane', 'banes')} → ${net}`;
}

/** `Force 2 + STR 3 + gear 1, Hard −2, help (1) +1 = 5 dice`. */
export function poolLine(result: D6PoolResult): string {
  const { input, base, modifier, pool } = result;
  const parts = [`${escapeMarkdown(input.skill)} ${base.skill}`, `${input.attribute} ${base.attribute}`];
  if (base.gear > 0) parts.push(`gear ${base.gear}`);
  const terms = input.modifiers.map((term) => `${escapeMarkdown(term.name)} ${signedCompact(term.value)}`);
  const size = poolSize(pool);
  const shape = `${pool.skill} skill · ${pool.gear} gear · ${pool.attribute} ${input.attribute}`;
  const removed = modifier < 0 ? ` (modifiers ${signedCompact(modifier)}: skill dice go first, then gear, then ${input.attribute})` : modifier > 0 ? ` (modifiers ${signedCompact(modifier)} as skill dice)` : '';
  return `${parts.join(' + ')}${terms.length > 0 ? `, ${terms.join(', ')}` : ''} = **${dice(size)}**: ${shape}${removed}`;
}

export function oddsLine(count: number): string {
  const chance = successChance(count);
  return `Odds of at least one success with ${dice(count)}: ${percentOf(chance.favourable, chance.total)}%`;
}

/** The lines of the first roll. */
export function rollLines(result: D6PoolResult): string[] {
  return [poolLine(result), `🎲 ${formatD6Dice(result.dice, result.input.attribute)}`, tallyLine(result), oddsLine(result.dice.length)];
}

export function pushLines(push: PushResult): string[] {
  return [
    `💪 ${push.rerolled === 0 ? 'Nothing to re-roll (every die shows 1 or 6)' : `${dice(push.rerolled)} re-rolled`}; 1s and 6s stay:`,
    `🎲 ${formatD6Dice(push.dice, push.input.attribute)}`,
    tallyLine(push),
  ];
}

function title(state: PoolMessageState): string {
  const { input } = state.roll.result;
  const final = state.push?.result ?? state.roll.result;
  const pushed = state.push ? ' (pushed)' : '';
  if (input.opposed) {
    const versus = `${input.skill} (${input.attribute}) vs ${input.opposed.skill} (${input.opposed.attribute})`;
    if (!state.opposed) return `⏳ ${versus}: ${successes(final.successes)}${pushed}, the opponent rolls next`;
    const outcome = opposedResult(state.roll.result, state.push?.result, state.opposed.result);
    return `${outcome.win ? '✅' : '❌'} ${versus}: ${outcome.active}–${outcome.opponent}, ${outcome.win ? 'the active party wins' : outcome.tie ? 'a tie: the active party fails' : 'the opponent wins'}${pushed}`;
  }
  const verdict = final.successes === 0 ? 'failure' : successes(final.successes);
  return `${final.success ? '✅' : '❌'} ${input.skill} (${input.attribute}): ${verdict}${pushed}`;
}

function components(state: PoolMessageState): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const { rollId, result } = state.roll;
  const rows: APIActionRowComponent<APIComponentInMessageActionRow>[] = [];
  const buttons: ButtonBuilder[] = [];
  if (result.input.opposed && !state.opposed) {
    buttons.push(new ButtonBuilder().setCustomId(opposeButtonId(rollId)).setStyle(ButtonStyle.Primary).setLabel(`Roll ${result.input.opposed.skill} (opponent)`));
  }
  if (!state.push) {
    const count = result.dice.filter((die) => pushable(die.face)).length;
    if (count > 0) {
      buttons.push(new ButtonBuilder().setCustomId(pushButtonId(rollId)).setStyle(ButtonStyle.Danger).setLabel(`Push (re-roll ${dice(count)}, take a condition)`));
    }
  } else if (state.condition === undefined && result.input.sheet !== null) {
    const menu = new StringSelectMenuBuilder()
      .setCustomId(conditionSelectId(rollId))
      .setPlaceholder('Pushing costs a condition: pick it')
      .addOptions(PUSH_CONDITIONS.map((name) => ({ label: name, value: name, description: `${CONDITION_MODIFIER} on later rolls until removed` })));
    rows.push(new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu).toJSON());
  }
  if (buttons.length > 0) rows.unshift(new ActionRowBuilder<ButtonBuilder>().addComponents(...buttons).toJSON());
  return rows;
}

/** The opponent's side of an opposed roll: waiting for them, or their pool, and the cancellation. */
function opposedFields(state: PoolMessageState): Array<{ name: string; value: string }> {
  const by = state.roll.result.input.opposed;
  if (!by) return [];
  if (!state.opposed) {
    return [{ name: 'Opposed roll', value: `<@${by.userId}> rolls ${escapeMarkdown(by.skill)} (${by.attribute}) from their active sheet: press the button. The active party may push before or after.` }];
  }
  const { rollId, result } = state.opposed;
  const outcome = opposedResult(state.roll.result, state.push?.result, result);
  const activeName = state.roll.result.input.sheet ? escapeMarkdown(state.roll.result.input.sheet.name) : escapeMarkdown(state.who);
  const opponentName = result.input.sheet ? escapeMarkdown(result.input.sheet.name) : `<@${by.userId}>`;
  const lines = result.empty ? [poolLine(result), 'An empty pool: nothing rolled, no successes.'] : rollLines(result).slice(0, 3);
  const verdict = outcome.win
    ? `**${activeName} wins** with ${successes(outcome.left)} left`
    : outcome.tie
      ? `**a tie: ${activeName} fails** (a tie fails for the active party)`
      : `**${opponentName} wins**: ${activeName} has no success left`;
  return [
    { name: truncate(`Opposed: ${opponentName} · roll ${rollId}`, DISCORD_LIMITS.fieldName), value: truncate([`**${opponentName}** (<@${by.userId}>)`, ...lines].join('\n'), DISCORD_LIMITS.fieldValue) },
    {
      name: 'Outcome',
      value: truncate(`${activeName} ${successes(outcome.active)}${state.push ? ' (pushed)' : ''} − ${opponentName} ${successes(outcome.opponent)}: ${outcome.cancelled} cancelled → ${verdict}`, DISCORD_LIMITS.fieldValue),
    },
  ];
}

export function poolMessage(state: PoolMessageState): MessageBody {
  const { result } = state.roll;
  const final = state.push?.result ?? result;
  const sheetName = result.input.sheet ? escapeMarkdown(result.input.sheet.name) : escapeMarkdown(state.who);
  const embed = new EmbedBuilder()
    .setColor(final.success ? 0x2e9e5b : 0xc0392b)
    .setTitle(truncate(title(state), DISCORD_LIMITS.embedTitle))
    .setDescription(truncate([`**${sheetName}**`, ...rollLines(result)].join('\n'), DISCORD_LIMITS.embedDescription));
  if (state.push) {
    const lines = pushLines(state.push.result);
    lines.push(
      state.condition !== undefined
        ? `${sheetName} takes the condition **${escapeMarkdown(state.condition)}** (${CONDITION_MODIFIER} on later rolls until removed).`
        : `${sheetName} must take a condition for pushing: pick it below.`,
    );
    embed.addFields({ name: truncate(`Pushed · roll ${state.push.rollId}`, DISCORD_LIMITS.fieldName), value: truncate(lines.join('\n'), DISCORD_LIMITS.fieldValue) });
  }
  const opposed = opposedFields(state);
  if (opposed.length > 0) embed.addFields(...opposed);
  embed.setFooter({ text: rollFooter(state.roll.rollId) });
  const by = result.input.opposed;
  const content = by ? { content: state.opposed ? `Opposed roll against <@${by.userId}>: decided.` : `<@${by.userId}>, you oppose this roll: press the button to roll ${by.skill}.` } : {};
  return { ...content, embeds: [embed.toJSON()], components: components(state), allowedMentions: NO_PINGS };
}

/** An empty pool: no chance to succeed, nothing rolled. */
export function emptyPoolReply(result: D6PoolResult): ReplyPayload {
  return {
    content: truncate(
      `🚫 ${poolLine(result)}\nAn empty pool has no chance to succeed: time to rethink the strategy. Nothing was rolled.`,
      DISCORD_LIMITS.content,
    ),
    allowedMentions: NO_PINGS,
  };
}

/** /roll replay of a pool roll, a push or the condition a push cost. */
export function replayFieldsOfD6(
  rederived:
    | { kind: 'pool'; result: D6PoolResult }
    | { kind: 'pool-opposed'; result: D6PoolResult }
    | { kind: 'pool-push'; result: PushResult } | { kind: 'pool-condition'; result: PoolConditionRecord },
): Array<[string, string]> {
  if (rederived.kind === 'pool' || rederived.kind === 'pool-opposed') {
    const { input } = rederived.result;
    const role = input.against ? `Opposing roll ${input.against}: ` : input.opposed ? `Opposed by <@${input.opposed.userId}> (${input.opposed.skill}): ` : '';
    const lines = rederived.result.empty ? [poolLine(rederived.result), 'An empty pool: nothing rolled.'] : rollLines(rederived.result);
    return [[`${role}${input.skill} (${input.attribute})${input.sheet ? ` · ${input.sheet.name}` : ''}`, lines.join('\n')]];
  }
  if (rederived.kind === 'pool-push') {
    const { result } = rederived;
    return [[`Push of roll ${result.input.rollId}`, [`Before: 🎲 ${formatD6Dice(result.input.dice, result.input.attribute)}`, ...pushLines(result)].join('\n')]];
  }
  const { result } = rederived;
  return [[`Condition for pushing roll ${result.rollId}`, `${result.sheet.name} took **${escapeMarkdown(result.condition)}** (${CONDITION_MODIFIER}). No dice.`]];
}
