/**
 * d6 pool rolls (RULES 4) as one message: every die by where it came from (skill, gear, attribute), sixes, banes
 * and net successes, the odds; a *Push* select for the roller whose choice is the condition the push costs (one
 * step: no push without its condition); on an opposed roll, the opponent's button and a Dispatcher's tie-break.
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
  BROKEN,
  CONDITION_MODIFIER,
  TIE_BREAKS_MAX,
  poolSize,
  pushable,
  opposedResult,
  opposedStanding,
  skillExtras,
  successChance,
  type D6Die,
  type D6PoolResult,
  type DieSource,
  type OpposedOutcome,
  type PushedDie,
  type PoolConditionRecord,
  type PushResult,
  type Tally,
  type TieBreakResult,
} from '../engine/systems/d6-pool/pool.js';
import { d6Pool } from '../engine/systems/d6-pool/index.js';
import { rollFooter } from './challenge.js';
import { BUTTON, componentIds, oneOf, rollIdIn, SELECT, wholeNumber } from './component-id.js';
import { escapeMarkdown, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';
import { defineSystemView } from './system-view.js';

export interface PoolMessageState {
  who: string;
  roll: { rollId: string; result: D6PoolResult };
  push?: { rollId: string; result: PushResult };
  condition?: string;
  /** The opponent's roll, once made (only on an opposed roll). */
  opposed?: { rollId: string; result: D6PoolResult };
  /** The re-rolls that broke (or tried to break) a tie, in order (only on an opposed roll). */
  tieBreaks?: Array<{ rollId: string; result: TieBreakResult }>;
  /**
   * The conditions a push can still cost the rolled sheet, read from it now (`pushCosts`): none left means no push.
   * Absent when the roll has no sheet any more, so nothing can be pushed.
   */
  pushCosts?: string[];
}

/** `1 die`, `2 dice`. */
function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
const dice = (count: number) => counted(count, 'die', 'dice');
const successes = (count: number) => counted(count, 'success', 'successes');

/**
 * `pool:push:<roll id>`: the Push select (choosing the condition is the push; a Push button on older messages);
 * `pool:condition:<roll id>`: the condition of a push stored before a push took its condition at once (those rolls
 * still pick it here); `pool:oppose:<roll id>`; `pool:tiebreak:<roll id>:<round>`: a Dispatcher re-rolls a tie,
 * `round` counting from 1, so a second press of the same round rolls nothing.
 */
export type PoolPress = { action: 'push' | 'condition' | 'oppose'; rollId: string } | { action: 'tiebreak'; rollId: string; round: number };
export const poolIds = componentIds<PoolPress>('pool', {
  write: (press) => [press.action, press.rollId, ...(press.action === 'tiebreak' ? [press.round] : [])],
  read: ([actionText, rollText, roundText, ...rest]) => {
    const rollId = rollIdIn(rollText);
    if (!rollId || rest.length > 0) return null;
    if (actionText === 'tiebreak') {
      const round = roundText && roundText.length <= 2 ? wholeNumber(roundText) : null;
      return round === null ? null : { action: actionText, rollId, round };
    }
    const action = oneOf(actionText, ['push', 'condition', 'oppose']);
    return action && roundText === undefined ? { action, rollId } : null;
  },
  // Push is a select now and a button on older messages; the condition is a select.
  origin: (press) => (press.action === 'push' ? { pressed: ['select', 'button'] } : press.action === 'condition' ? SELECT : BUTTON),
});

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

/** The opposed outcome as it stands (the last tie-break decides, once there is one). */
function standing(state: PoolMessageState & { opposed: NonNullable<PoolMessageState['opposed']> }): OpposedOutcome {
  return opposedStanding(state.roll.result, state.push?.result, state.opposed.result, (state.tieBreaks ?? []).map((entry) => entry.result));
}

/** A tie still open to a re-roll: the opponent rolled, it stands tied, and fewer than the most re-rolls were made. */
function tieOpen(state: PoolMessageState): boolean {
  if (!state.roll.result.input.opposed || !state.opposed) return false;
  return standing({ ...state, opposed: state.opposed }).tie && (state.tieBreaks?.length ?? 0) < TIE_BREAKS_MAX;
}

function title(state: PoolMessageState): string {
  const { input } = state.roll.result;
  const final = state.push?.result ?? state.roll.result;
  const pushed = state.push ? ' (pushed)' : '';
  if (input.opposed) {
    const versus = `${input.skill} (${input.attribute}) vs ${input.opposed.skill} (${input.opposed.attribute})`;
    if (!state.opposed) return `⏳ ${versus}: ${successes(final.successes)}${pushed}, the opponent rolls next`;
    const outcome = standing({ ...state, opposed: state.opposed });
    const rerolled = state.tieBreaks?.length ? `, tie re-rolled ×${state.tieBreaks.length}` : '';
    return `${outcome.win ? '✅' : '❌'} ${versus}: ${outcome.active}–${outcome.opponent}, ${outcome.win ? 'the active party wins' : outcome.tie ? 'a tie: the active party fails' : 'the opponent wins'}${pushed}${rerolled}`;
  }
  const verdict = final.successes === 0 ? 'failure' : successes(final.successes);
  return `${final.success ? '✅' : '❌'} ${input.skill} (${input.attribute}): ${verdict}${pushed}`;
}

const pushableCount = (result: D6PoolResult) => result.dice.filter((die) => pushable(die.face)).length;

function costText(name: string): string {
  return name === BROKEN ? `Every other condition is taken; ${CONDITION_MODIFIER} until removed` : `${CONDITION_MODIFIER} on later rolls until removed`;
}

function components(state: PoolMessageState): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const { rollId, result } = state.roll;
  const rows: APIActionRowComponent<APIComponentInMessageActionRow>[] = [];
  const buttons: ButtonBuilder[] = [];
  if (result.input.opposed && !state.opposed) {
    buttons.push(new ButtonBuilder().setCustomId(poolIds.encode({ action: 'oppose', rollId })).setStyle(ButtonStyle.Primary).setLabel(`Roll ${result.input.opposed.skill} (opponent)`));
  }
  const tieBreaks = state.tieBreaks?.length ?? 0;
  if (tieOpen(state)) {
    buttons.push(
      new ButtonBuilder()
        .setCustomId(poolIds.encode({ action: 'tiebreak', rollId, round: tieBreaks + 1 }))
        .setStyle(ButtonStyle.Secondary)
        .setLabel(`Break the tie: re-roll both (Dispatcher)${tieBreaks > 0 ? ` · ${tieBreaks + 1}/${TIE_BREAKS_MAX}` : ''}`),
    );
  }
  const costs = state.pushCosts ?? [];
  if (!state.push && tieBreaks === 0 && costs.length > 0) {
    const count = pushableCount(result);
    if (count > 0) {
      const menu = new StringSelectMenuBuilder()
        .setCustomId(poolIds.encode({ action: 'push', rollId }))
        .setPlaceholder(`Push: re-roll ${dice(count)} and suffer a condition: pick it to push`)
        .addOptions(costs.map((name) => ({ label: `Push, suffer ${name}`, value: name, description: costText(name) })));
      rows.push(new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu).toJSON());
    }
  } else if (state.push && state.condition === undefined && result.input.sheet !== null && costs.length > 0) {
    // A push stored before the push took its condition at once: its cost is still to be paid.
    const menu = new StringSelectMenuBuilder()
      .setCustomId(poolIds.encode({ action: 'condition', rollId }))
      .setPlaceholder('This push has not taken its condition yet: pick it')
      .addOptions(costs.map((name) => ({ label: name, value: name, description: costText(name) })));
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
  const tieBreaks = state.tieBreaks ?? [];
  const activeName = state.roll.result.input.sheet ? escapeMarkdown(state.roll.result.input.sheet.name) : escapeMarkdown(state.who);
  const opponentName = result.input.sheet ? escapeMarkdown(result.input.sheet.name) : `<@${by.userId}>`;
  const lines = result.empty ? [poolLine(result), 'An empty pool: nothing rolled, no successes.'] : rollLines(result).slice(0, 3);
  const verdictOf = (outcome: OpposedOutcome) =>
    outcome.win
      ? `**${activeName} wins** with ${successes(outcome.left)} left`
      : outcome.tie
        ? `**a tie: ${activeName} fails** (a tie fails for the active party)`
        : `**${opponentName} wins**: ${activeName} has no success left`;
  const verdict = verdictOf(outcome);
  const tieNote =
    outcome.tie && tieBreaks.length === 0 && tieOpen(state) ? '\nIf this tie needs to be broken, a Dispatcher re-rolls the opposed roll: *Break the tie*.' : '';
  const tieFields: Array<{ name: string; value: string }> = [];
  const last = tieBreaks.at(-1);
  if (last) {
    const earlier = tieBreaks.slice(0, -1).map(({ rollId: id, result: round }) => `Re-roll ${round.input.round} (roll ${id}): ${round.outcome.active}–${round.outcome.opponent}, a tie again`);
    const side = (name: string, pool: D6PoolResult) => (pool.empty ? `${name}: an empty pool, no successes` : `${name}: 🎲 ${formatD6Dice(pool.dice, pool.input.attribute)} → ${tallyLine(pool)}`);
    const round = last.result;
    const after = round.outcome.tie
      ? round.input.round >= TIE_BREAKS_MAX
        ? `a tie again, after ${TIE_BREAKS_MAX} re-rolls: the tie stands, ${activeName} fails`
        : 'a tie again: a Dispatcher may re-roll once more'
      : verdictOf(round.outcome);
    tieFields.push({
      name: truncate(`Tie broken by re-roll ${round.input.round} · roll ${last.rollId}`, DISCORD_LIMITS.fieldName),
      value: truncate(
        [...earlier.slice(-5), ...(earlier.length > 5 ? [`(${earlier.length - 5} earlier re-rolls tied too)`] : []), side(activeName, round.active), side(opponentName, round.opponent), `${round.outcome.active}–${round.outcome.opponent}: ${after}`].join('\n'),
        DISCORD_LIMITS.fieldValue,
      ),
    });
  }
  return [
    { name: truncate(`Opposed: ${opponentName} · roll ${rollId}`, DISCORD_LIMITS.fieldName), value: truncate([`**${opponentName}** (<@${by.userId}>)`, ...lines].join('\n'), DISCORD_LIMITS.fieldValue) },
    {
      name: 'Outcome',
      value: truncate(`${activeName} ${successes(outcome.active)}${state.push ? ' (pushed)' : ''} − ${opponentName} ${successes(outcome.opponent)}: ${outcome.cancelled} cancelled → ${verdict}${tieNote}`, DISCORD_LIMITS.fieldValue),
    },
    ...tieFields,
  ];
}

/** Persuasion's stakes (any roll's, when stated), as typed: no pings, no formatting. */
function stakesLines(result: D6PoolResult): string[] {
  return result.input.stakes ? [`Stakes: ${escapeMarkdown(result.input.stakes)}`] : [];
}

/** What the skill's successes give (Insight), on a plain roll. */
function extrasLine(result: D6PoolResult, finalSuccesses: number): string | null {
  if (result.input.opposed || result.input.against) return null;
  const extras = skillExtras(result.input.skill, finalSuccesses);
  return extras ? `🔎 ${result.input.skill}: ${extras}` : null;
}

/** Why no push is offered where one could be: nothing left to pay with, or no sheet to pay from. */
function pushNote(state: PoolMessageState, sheetName: string): string[] {
  const { result } = state.roll;
  const lines: string[] = [];
  if (!state.push) {
    const extras = extrasLine(result, result.successes);
    if (extras) lines.push(extras);
  }
  if (state.push || (state.tieBreaks?.length ?? 0) > 0 || pushableCount(result) === 0) return lines;
  if (state.pushCosts === undefined) lines.push(`No push: the sheet ${sheetName} no longer exists to suffer its condition.`);
  else if (state.pushCosts.length === 0) lines.push(`No push: ${sheetName} is ${BROKEN} and suffers every condition a push can cost; remove one first (\`/sheet condition remove\`).`);
  return lines;
}

export function poolMessage(state: PoolMessageState): MessageBody {
  const { result } = state.roll;
  const final = state.push?.result ?? result;
  const sheetName = result.input.sheet ? escapeMarkdown(result.input.sheet.name) : escapeMarkdown(state.who);
  const embed = new EmbedBuilder()
    .setColor(final.success ? 0x2e9e5b : 0xc0392b)
    .setTitle(truncate(title(state), DISCORD_LIMITS.embedTitle))
    .setDescription(truncate([`**${sheetName}**`, ...stakesLines(result), ...rollLines(result), ...pushNote(state, sheetName)].join('\n'), DISCORD_LIMITS.embedDescription));
  if (state.push) {
    const lines = pushLines(state.push.result);
    lines.push(
      state.condition !== undefined
        ? `${sheetName} suffers the condition **${escapeMarkdown(state.condition)}** (${CONDITION_MODIFIER} on later rolls until removed).`
        : `${sheetName} must take a condition for pushing: pick it below.`,
    );
    const extras = extrasLine(result, state.push.result.successes);
    if (extras) lines.push(extras);
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

/** /roll replay of a pool roll, a push, the condition a push cost, or a tie-break. */
export function replayFieldsOfD6(
  rederived:
    | { kind: 'pool'; result: D6PoolResult }
    | { kind: 'pool-opposed'; result: D6PoolResult }
    | { kind: 'pool-push'; result: PushResult }
    | { kind: 'pool-condition'; result: PoolConditionRecord }
    | { kind: 'pool-tiebreak'; result: TieBreakResult },
): Array<[string, string]> {
  if (rederived.kind === 'pool-tiebreak') {
    const { result } = rederived;
    const side = (label: string, pool: D6PoolResult) => [label, (pool.empty ? [poolLine(pool), 'An empty pool: nothing rolled.'] : rollLines(pool).slice(0, 3)).join('\n')] as [string, string];
    const { outcome } = result;
    return [
      side(`Tie-break ${result.input.round} of roll ${result.input.rollId}: the active party, ${result.active.input.skill} (${result.active.input.attribute})`, result.active),
      side(`The opponent, ${result.opponent.input.skill} (${result.opponent.input.attribute})`, result.opponent),
      ['Outcome', `${outcome.active}–${outcome.opponent}: ${outcome.win ? 'the active party wins' : outcome.tie ? 'a tie again' : 'the opponent wins'}`],
    ];
  }
  if (rederived.kind === 'pool' || rederived.kind === 'pool-opposed') {
    const { input } = rederived.result;
    const role = input.against ? `Opposing roll ${input.against}: ` : input.opposed ? `Opposed by <@${input.opposed.userId}> (${input.opposed.skill}): ` : '';
    const lines = rederived.result.empty ? [poolLine(rederived.result), 'An empty pool: nothing rolled.'] : rollLines(rederived.result);
    const stakes = stakesLines(rederived.result);
    return [[`${role}${input.skill} (${input.attribute})${input.sheet ? ` · ${input.sheet.name}` : ''}`, [...stakes, ...lines].join('\n')]];
  }
  if (rederived.kind === 'pool-push') {
    const { result } = rederived;
    return [[`Push of roll ${result.input.rollId}`, [`Before: 🎲 ${formatD6Dice(result.input.dice, result.input.attribute)}`, ...pushLines(result)].join('\n')]];
  }
  const { result } = rederived;
  return [[`Condition for pushing roll ${result.rollId}`, `${result.sheet.name} took **${escapeMarkdown(result.condition)}** (${CONDITION_MODIFIER}). No dice.`]];
}

export const d6PoolView = defineSystemView(d6Pool, {
  start: { sheet: [{ what: 'Set its attributes and a skill', command: '/sheet set attributes:STR 3, AGI 4, WIT 3, EMP 2 skills:Stealth 2' }], roll: '/pool skill:Stealth' },
  replay: {
    pool: replayFieldsOfD6,
    'pool-opposed': replayFieldsOfD6,
    'pool-push': replayFieldsOfD6,
    'pool-condition': replayFieldsOfD6,
    'pool-tiebreak': replayFieldsOfD6,
  },
});
