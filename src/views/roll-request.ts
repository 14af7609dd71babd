/**
 * A challenge roll as a conversation, on its public message: the player's intent and outcome, then the roll the
 * Dispatcher calls for and what failing costs, then the player's choice (take it or decline) and what came of it.
 * Also the Dispatcher's private details and the form that answers an intent. A hidden CL never appears here except in
 * `requestDetails`, which only a Dispatcher is shown.
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, MessageFlags, ModalBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import { NAME_LENGTH_MAX } from '../engine/names.js';
import { LINKED_ROLL_MAX_LENGTH } from '../engine/systems/tactalk/linked-notation.js';
import { challengeBase, successFaces, type ChallengeInput } from '../engine/systems/tactalk/challenge.js';
import { mayInvestigate, mayRollConsequence, ROLL_REQUEST_LIMITS, rollFailed, type RollRequestPhase, type RollRequestState } from '../engine/systems/tactalk/roll-request.js';
import type { TableDieRoll } from '../engine/tables.js';
import { blindButtonBuilders } from './blind.js';
import { challengeLines, hiddenChallengeLines, rollFooter, termsOf } from './challenge.js';
import { actionIds } from './component-id.js';
import { percentOf } from './contest/rounds.js';
import { authorMarkdown, authorMarkdownWithin, escapeMarkdown, percent, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';
import { formatTableDice } from './tables.js';

export interface RollRequestView {
  id: number;
  state: RollRequestState;
  /** What the message shows as it is drawn, read then from the store (never kept in the request's state). */
  live?: RequestLive;
}

/** Read each time a request's message is drawn, so a redraw shows the sheet and the tables as they are now. */
export interface RequestLive {
  /**
   * An open request with shown CLs: each part as the player's active sheet makes it now (the chance the player weighs
   * before choosing), or why that sheet cannot make it now. Null for a hidden CL, which shows nothing of its odds.
   */
  odds: { sheet: string; inputs: ChallengeInput[] } | { problem: string } | null;
  /** The investigation table a hidden single challenge offers now (the first of its names the server has), if any. */
  investigationTable: string | null;
}

function partLine(state: RollRequestState, index: number): string {
  const part = state.parts[index]!;
  const adds = [...part.archetypes.map((name) => `+ ${escapeMarkdown(name)}`), ...(part.situationalModifier ? [signedCompact(part.situationalModifier)] : [])];
  const cl = state.hidden ? '**hidden**' : `**${part.challengeLevel}**`;
  return `**${escapeMarkdown(part.skill)}**${adds.length ? ` ${adds.join(' ')}` : ''} vs CL ${cl}`;
}

/** Who acts: "<@player> (**Troy**)", or the player alone when no Operator was named. */
function actor(state: RollRequestState): string {
  return `<@${state.playerId}>${state.operatorName ? ` (**${escapeMarkdown(state.operatorName)}**)` : ''}`;
}

/** The Operator by name where the message says what they did, else the player. */
function operatorOrPlayer(state: RollRequestState): string {
  const name = state.result?.operatorName ?? state.operatorName;
  return name ? `**${escapeMarkdown(name)}**` : `<@${state.playerId}>`;
}

/** What failing costs, in the words the player decides on. */
export function consequenceText(state: Pick<RollRequestState, 'consequence' | 'consequenceTable'>): string {
  const words = state.consequence ? escapeMarkdown(/[.!?…]$/.test(state.consequence) ? state.consequence : `${state.consequence}.`) : null;
  const table = state.consequenceTable ? `an **Outcome Roll on ${escapeMarkdown(state.consequenceTable)}**` : null;
  if (words && table) return `${words} Then ${table}.`;
  if (table) return `${table.charAt(0).toUpperCase()}${table.slice(1)}.`;
  return words ?? 'It does not happen; the Dispatcher named no other consequence.';
}

/**
 * The odds of a request whose CLs are shown, before the player chooses (seed 000: the player understands what the
 * roll means before deciding): the exact chance, as `/roll challenge` shows it with a roll, or that success or failure
 * is certain, in which case taking the roll rolls no dice. A linked roll gives each part's, and that of every part
 * succeeding (exact, as a contest's odds). Nothing for a hidden CL: the odds would give it away.
 */
function oddsLines(view: RollRequestView): string[] {
  const { state, live } = view;
  if (state.phase !== 'open' || state.hidden || !live?.odds) return [];
  if ('problem' in live.odds) return [`🎯 No chance to show yet: ${live.odds.problem}`];
  const { sheet, inputs } = live.odds;
  const who = `**${escapeMarkdown(sheet)}**`;
  const faces = inputs.map((input) => successFaces(challengeBase(input), input.challengeLevel));
  if (inputs.length === 1) {
    const input = inputs[0]!;
    const base = challengeBase(input);
    const cl = input.challengeLevel;
    const terms = termsOf({ input });
    if (faces[0] === 100) return [`🎯 **Success is certain** for ${who}: the lowest possible result is ${base + 1} (${terms} + 1) ≥ CL ${cl}. Taking the roll succeeds with no dice rolled.`];
    if (faces[0] === 0) {
      return [`🎯 **Failure is certain** for ${who}: the highest possible result is ${base + 100} (${terms} + 100) < CL ${cl}. Taking the roll fails with no dice rolled, and what failing costs applies.`];
    }
    return [`🎯 **Chance of success: ${percent(faces[0]!)}** for ${who}: D100 + ${base} (${terms}) against CL ${cl}: a D100 of ${cl - base} or more succeeds.`];
  }
  const partLines = inputs.map((input, index) => {
    const base = challengeBase(input);
    const cl = input.challengeLevel;
    const odds =
      faces[index] === 100
        ? `**success is certain** (at least ${base + 1} ≥ CL ${cl})`
        : faces[index] === 0
          ? `**failure is certain** (at most ${base + 100} < CL ${cl})`
          : `**${percent(faces[index]!)}** (D100 + ${base} against CL ${cl})`;
    return `${index + 1}. **${escapeMarkdown(input.skill.name)}**: ${odds}`;
  });
  const every = percentOf(
    faces.reduce((ways, count) => ways * BigInt(count), 1n),
    100n ** BigInt(faces.length),
  );
  return [`🎯 Chances for ${who}, from the sheet now:`, ...partLines, `Every part succeeds: **${every}**.`];
}

/** The odds in a line for the Dispatcher who called for the roll (shown CLs only), or null. */
export function oddsNote(odds: RequestLive['odds']): string | null {
  if (!odds || 'problem' in odds) return null;
  const name = escapeMarkdown(odds.sheet);
  const faces = odds.inputs.map((input) => successFaces(challengeBase(input), input.challengeLevel));
  const impossible = faces.findIndex((count) => count === 0);
  if (impossible >= 0) {
    const input = odds.inputs[impossible]!;
    const part = odds.inputs.length > 1 ? ` part ${impossible + 1} (${escapeMarkdown(input.skill.name)}):` : '';
    return `${name} cannot succeed: failure is certain,${part} at most ${challengeBase(input) + 100} < CL ${input.challengeLevel}. The request says so before they choose.`;
  }
  if (faces.every((count) => count === 100)) return `${name} cannot fail: success is certain. The request says so before they choose.`;
  const every = percentOf(faces.reduce((ways, count) => ways * BigInt(count), 1n), 100n ** BigInt(faces.length));
  return `${name}'s chance of success${odds.inputs.length > 1 ? ' at every part' : ''}: ${every}, shown on the request.`;
}

function intentLines(state: RollRequestState): string[] {
  if (state.intent === null) return [];
  return [`${actor(state)} wants to **${escapeMarkdown(state.intent)}**`, `**If it works:** ${escapeMarkdown(state.outcome ?? '')}`];
}

/** The roll's result as the player and the channel see it: every number for a shown CL, dice and totals for a hidden one. */
function addResult(state: RollRequestState, lines: string[], embed: EmbedBuilder): void {
  const { succeeded, total, operatorName, results, rollId } = state.result!;
  if (state.blind) {
    // Blind: that it was rolled, never what came of it; Reveal posts the result as its own message.
    lines.push('', `🙈 **${escapeMarkdown(operatorName)}** took the roll blind${rollId ? ` · roll \`${rollId}\`` : ''} — its result is for the Dispatchers.`);
    return;
  }
  embed.setColor(succeeded === total ? 0x2e9e5b : succeeded === 0 ? 0xc0392b : 0xd4ac0d);
  lines.push('', `**${escapeMarkdown(operatorName)}**: ${total > 1 ? `${succeeded} of ${total} succeeded` : succeeded ? '✅ **success**' : '❌ **failure**'}`);
  if (!state.hidden) {
    results.forEach((result, index) => {
      embed.addFields({
        name: truncate(`${index + 1}. ${result.input.skill.name} vs CL ${result.input.challengeLevel}: ${result.success ? 'success' : 'failure'}`, DISCORD_LIMITS.fieldName),
        value: truncate(challengeLines(result).join('\n'), DISCORD_LIMITS.fieldValue),
      });
    });
    return;
  }
  results.forEach((result, index) => {
    embed.addFields({
      name: truncate(`${total > 1 ? `${index + 1}. ` : ''}${result.input.skill.name} vs a hidden CL${total > 1 ? `: ${result.success ? 'success' : 'failure'}` : ''}`, DISCORD_LIMITS.fieldName),
      value: truncate(hiddenChallengeLines(result).join('\n') || '—', DISCORD_LIMITS.fieldValue),
    });
  });
}

function phaseLines(view: RollRequestView, lines: string[], embed: EmbedBuilder): void {
  const { state } = view;
  switch (state.phase) {
    case 'stated':
      lines.push('', 'A Dispatcher answers: **Call for a roll**, or **No roll needed** if it simply happens. The player may **Withdraw** it.');
      return;
    case 'open':
      lines.push(
        '',
        `Knowing this, <@${state.playerId}> chooses: **Take the roll** or **Decline**` +
          (state.blind
            ? '. 🙈 The roll is **blind**: its Challenge Level is hidden, and only the Dispatchers will see its result.'
            : state.hidden
              ? `. The Challenge Level is hidden${investigationOffered(view) ? '; **Investigate** first if you like' : ''}.`
              : '.'),
      );
      return;
    case 'declined':
      lines.push('', `🙅 ${operatorOrPlayer(state)} does not attempt it. Nothing was rolled.`);
      embed.setColor(0x7f8c8d);
      return;
    case 'cancelled':
      lines.push('', '⛔ Cancelled by the Dispatcher.');
      embed.setColor(0x7f8c8d);
      return;
    case 'withdrawn':
      lines.push('', `↩️ ${operatorOrPlayer(state)} withdrew the intent. Nothing was rolled.`);
      embed.setColor(0x7f8c8d);
      return;
    case 'granted':
      lines.push('', `✅ <@${state.dispatcherId}>: no roll needed. It happens as stated. Nothing was rolled.`);
      embed.setColor(0x2e9e5b);
      return;
    case 'rolled': {
      if (!state.result) return;
      addResult(state, lines, embed);
      if (state.blind) return;
      if (rollFailed(state) && (state.consequence || state.consequenceTable)) lines.push(`**It failed, so:** ${consequenceText(state)}`);
      const made = state.consequenceRoll;
      if (made) {
        lines.push(`🎲 Outcome Roll on **${escapeMarkdown(made.table)}**: **${made.result}**: ${authorMarkdownWithin(made.rowText.replace(/\s+/g, ' '), 300)} (roll ${made.rollId})`);
      } else if (mayRollConsequence(state)) {
        lines.push(`<@${state.playerId}>, press **Outcome Roll: ${escapeMarkdown(state.consequenceTable ?? '')}**.`);
      }
    }
  }
}

export function requestEmbed(view: RollRequestView): EmbedBuilder {
  const { state } = view;
  const stated = state.parts.length === 0;
  const title = stated
    ? `💬 Intent #${view.id}`
    : state.kind === 'linked'
      ? `🔗 Linked roll request #${view.id}`
      : `🎯 Roll request #${view.id}: ${state.parts[0]!.skill}`;
  const lines = intentLines(state);
  if (!stated) {
    if (lines.length) lines.push('');
    lines.push(`<@${state.dispatcherId}> calls for ${state.kind === 'linked' ? 'a linked roll' : 'a challenge roll'}:`);
    state.parts.forEach((_, index) => lines.push(`${state.parts.length > 1 ? `${index + 1}. ` : ''}${partLine(state, index)}`));
    if (state.phase === 'open' || state.phase === 'declined' || (state.phase === 'cancelled' && state.intent !== null)) {
      lines.push(`**If it fails:** ${consequenceText(state)}`);
    }
    lines.push(...oddsLines(view));
  }
  if (state.investigation) lines.push('', `🔎 <@${state.playerId}> investigated the difficulty (${escapeMarkdown(state.investigationTable ?? '')}).`);
  const embed = new EmbedBuilder().setTitle(truncate(title, DISCORD_LIMITS.embedTitle)).setColor(0x2c3e50);
  phaseLines(view, lines, embed);
  embed.setDescription(truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription));
  // The footer carries the roll id only; replaying a hidden roll shows its CL to Dispatchers alone.
  embed.setFooter({ text: state.result?.rollId ? rollFooter(state.result.rollId) : `Request #${view.id}` });
  return embed;
}

/**
 * `dispatch:<action>:<request id>`: the request's buttons, and `callform`, the submit of the Dispatcher's form (which
 * its `call` button opens); `fixform` and `fixedform`, the same form reopened from the private note of a refusal.
 * `roll` keeps its old name, so a request posted before the conversation still works.
 */
export const dispatchIds = actionIds(
  'dispatch',
  ['call', 'callform', 'fixform', 'fixedform', 'noroll', 'withdraw', 'cancel', 'roll', 'decline', 'investigate', 'consequence', 'details'],
  'requestId',
  // `fixform`: *Fix the form* on the private note of a refused form; it reopens the form as `fixedform`.
  { callform: 'call', fixedform: 'fixform' },
);
export type DispatchControl = NonNullable<ReturnType<typeof dispatchIds.parse>>;

/** Whether the message offers *Investigate*: a hidden single challenge not investigated, with a table for it now. */
function investigationOffered(view: RollRequestView): boolean {
  const table = view.live ? view.live.investigationTable : view.state.investigationTable;
  return mayInvestigate(view.state) && table !== null;
}

const button = (customId: string, label: string, style: ButtonStyle) => new ButtonBuilder().setCustomId(customId).setLabel(truncate(label, DISCORD_LIMITS.buttonLabel)).setStyle(style);

export function requestComponents(view: RollRequestView) {
  const { state, id: requestId } = view;
  const press = (action: DispatchControl['action']) => dispatchIds.encode({ action, requestId });
  const buttons: ButtonBuilder[] = [];
  if (state.phase === 'stated') {
    buttons.push(
      button(press('call'), 'Call for a roll (Dispatcher)', ButtonStyle.Primary),
      button(press('noroll'), 'No roll needed (Dispatcher)', ButtonStyle.Success),
      button(press('withdraw'), 'Withdraw', ButtonStyle.Secondary),
      button(press('cancel'), 'Cancel (Dispatcher)', ButtonStyle.Secondary),
    );
  }
  if (state.phase === 'open') {
    buttons.push(button(press('roll'), 'Take the roll', ButtonStyle.Success), button(press('decline'), 'Decline', ButtonStyle.Danger));
    if (investigationOffered(view)) buttons.push(button(press('investigate'), 'Investigate', ButtonStyle.Primary));
    buttons.push(button(press('cancel'), 'Cancel (Dispatcher)', ButtonStyle.Secondary));
  }
  if (mayRollConsequence(state)) buttons.push(button(press('consequence'), `Outcome Roll: ${state.consequenceTable}`, ButtonStyle.Danger));
  const blindRollId = state.blind && state.phase === 'rolled' ? state.result?.rollId : null;
  if (blindRollId) buttons.push(...blindButtonBuilders(blindRollId));
  else if (state.hidden && (state.phase === 'open' || state.phase === 'rolled')) {
    buttons.push(button(press('details'), 'Numbers (Dispatcher)', ButtonStyle.Secondary));
  }
  return buttons.length ? [new ActionRowBuilder<ButtonBuilder>().addComponents(buttons).toJSON()] : [];
}

export function requestMessage(view: RollRequestView): MessageBody {
  // Once the player has chosen, the opening's "take it or decline" would be stale: an edit keeps content it omits.
  const closed = view.state.phase !== 'open' && view.state.phase !== 'stated';
  return { ...(closed ? { content: '' } : {}), embeds: [requestEmbed(view).toJSON()], components: requestComponents(view), allowedMentions: NO_PINGS };
}

/** A roll called for pings the player, and only them: the choice is theirs. */
export function requestOpening(view: RollRequestView) {
  return {
    ...requestMessage(view),
    content: `<@${view.state.playerId}>, a roll for you: take it or decline.`,
    allowedMentions: { parse: [] as never[], users: [view.state.playerId] },
  };
}

/** A stated intent pings nobody: the Dispatchers at the table read it. */
export function intentOpening(view: RollRequestView): MessageBody {
  return requestMessage(view);
}

/** The Dispatcher's private view: every CL and, once rolled, every number. */
export function requestDetails(view: RollRequestView): ReplyPayload {
  const { state } = view;
  const lines = state.parts.map((part, index) => `${state.parts.length > 1 ? `${index + 1}. ` : ''}${escapeMarkdown(part.skill)} vs CL **${part.challengeLevel}**`);
  const embed = new EmbedBuilder().setTitle(`🔒 Request #${view.id}: the numbers`).setColor(0x34495e).setDescription(lines.join('\n') || 'No roll called for yet.');
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

/** The fields of the Dispatcher's answer to an intent, as typed: a refusal shows them back. */
export const CALL_FIELDS = {
  skill: 'skill',
  cl: 'cl',
  adds: 'adds',
  consequence: 'consequence',
  consequenceTable: 'consequence_table',
} as const;

/**
 * The Dispatcher's form that answers an intent with a roll; with `typed`, filled in with what was typed in a form that
 * was refused (Discord keeps nothing of a form once sent). `fixed`: opened from the private note of that refusal.
 */
export function callModal(id: number, options: { typed?: Record<string, string> | null; fixed?: boolean } = {}) {
  const row = (input: TextInputBuilder) => new ActionRowBuilder<TextInputBuilder>().addComponents(input);
  const input = (customId: string, label: string, style: TextInputStyle, required: boolean, max: number, placeholder: string) => {
    const field = new TextInputBuilder().setCustomId(customId).setLabel(label).setStyle(style).setRequired(required).setMaxLength(max).setPlaceholder(placeholder);
    const typed = options.typed?.[customId];
    if (typed) field.setValue(typed.slice(0, max));
    return row(field);
  };
  return new ModalBuilder()
    .setCustomId(dispatchIds.encode({ action: options.fixed ? 'fixedform' : 'callform', requestId: id }))
    .setTitle(truncate(`Call for a roll: intent #${id}`, 45))
    .addComponents(
      input(CALL_FIELDS.skill, 'Skill (or a linked roll, parts split by ;)', TextInputStyle.Short, true, Math.min(LINKED_ROLL_MAX_LENGTH, 4000), 'Climbing   or   Handgun Handling +Acuity vs 90; Driving vs 110'),
      input(CALL_FIELDS.cl, 'Challenge Level 0–200; ?120 hides it', TextInputStyle.Short, false, 4, '120, or ?120 to hide it'),
      input(CALL_FIELDS.adds, 'Archetypes and a modifier', TextInputStyle.Short, false, 200, 'Acuity, Dexterity, -10'),
      input(CALL_FIELDS.consequence, 'If it fails (what it costs)', TextInputStyle.Paragraph, false, ROLL_REQUEST_LIMITS.consequenceLength, 'Troy falls.'),
      input(CALL_FIELDS.consequenceTable, 'Outcome table to roll if it fails', TextInputStyle.Short, false, NAME_LENGTH_MAX, 'Fall Damage'),
    );
}

/**
 * A refused *Call for a roll* form, privately: what is wrong, and *Fix the form*, which reopens it as it was typed (a
 * form cannot open in answer to a form). `typedBack` instead when what was typed could not be kept (the intent was
 * answered meanwhile): the words to copy.
 */
export function callRefusedNote(requestId: number, problem: string, typedBack: string | null) {
  if (typedBack !== null) {
    return { content: truncate(`⚠️ ${problem}\nNothing was posted. What you typed:\n${typedBack}`, DISCORD_LIMITS.content), components: [], allowedMentions: NO_PINGS };
  }
  const fix = button(dispatchIds.encode({ action: 'fixform', requestId }), 'Fix the form', ButtonStyle.Primary);
  return {
    content: truncate(`⚠️ ${problem}\nNothing was posted. **Fix the form** reopens it with what you typed.`, DISCORD_LIMITS.content),
    components: [new ActionRowBuilder<ButtonBuilder>().addComponents(fix).toJSON()],
    allowedMentions: NO_PINGS,
  };
}

/** A message that pings exactly these players (none, or the player) and nobody else. */
export interface RequestNotice {
  content: string;
  allowedMentions: { parse: never[]; users?: string[] };
}

/** "[request #3](link)", or the words alone when the message is not known. */
function linked(words: string, link: string | null): string {
  return link ? `[${words}](${link})` : words;
}

/** What became of a settled request, in a few words: "**Troy** took the roll: ❌ failure". */
function settledWords(state: RollRequestState): string {
  const who = operatorOrPlayer(state);
  switch (state.phase) {
    case 'rolled': {
      const result = state.result;
      if (!result) return `${who} took the roll`;
      if (state.blind) return `${who} took the roll blind: its result is for the Dispatchers`;
      const verdict = result.total > 1 ? `${result.succeeded} of ${result.total} succeeded` : result.succeeded ? '✅ success' : '❌ failure';
      return `${who} took the roll: ${verdict}`;
    }
    case 'declined':
      return `${who} declined it: nothing was rolled`;
    case 'cancelled':
      return 'the Dispatcher cancelled it';
    case 'withdrawn':
      return `${who} withdrew it`;
    case 'granted':
      return 'no roll needed, it happens as stated';
    default:
      return 'it waits';
  }
}

/**
 * The player's turn, pinged in a NEW message (an edit notifies nobody) that links to the request: a Dispatcher
 * answered their intent with a roll. Pings the player alone.
 */
export function answeredPing(view: RollRequestView, link: string | null): RequestNotice {
  const { state } = view;
  return {
    content: truncate(`🔔 <@${state.playerId}>, the Dispatcher answered your intent with a roll: take it or decline it on ${linked(`request #${view.id}`, link)}.`, DISCORD_LIMITS.content),
    allowedMentions: { parse: [], users: [state.playerId] },
  };
}

/** That ping once the request is settled, so it no longer asks for a choice that was made: pings nobody. */
export function settledPing(view: RollRequestView, link: string | null) {
  const content = `🔔 <@${view.state.playerId}>, the Dispatcher answered your intent with a roll. Settled: ${settledWords(view.state)} (${linked(`request #${view.id}`, link)}).`;
  return { content: truncate(content, DISCORD_LIMITS.content), allowedMentions: NO_PINGS };
}

/**
 * A request just settled (or an intent just answered without a roll), said in a short NEW message where the channel
 * is now, linking to the request, whose own message was edited wherever it is in the channel: what came of it, and
 * an Outcome Roll still due. Pings the player only when someone else settled it for them (the Dispatcher's *No roll
 * needed* or *Cancel*); their own press pings nobody.
 */
export function settledNotice(view: RollRequestView, before: RollRequestPhase, link: string | null): RequestNotice | null {
  const { state } = view;
  if (before === state.phase || !['rolled', 'declined', 'cancelled', 'withdrawn', 'granted'].includes(state.phase)) return null;
  const what = linked(`${before === 'stated' ? 'Intent' : 'Request'} #${view.id}`, link);
  if (state.phase === 'granted' || state.phase === 'cancelled') {
    const icon = state.phase === 'granted' ? '✅' : '⛔';
    return { content: truncate(`${icon} <@${state.playerId}>, ${what}: ${settledWords(state)}.`, DISCORD_LIMITS.content), allowedMentions: { parse: [], users: [state.playerId] } };
  }
  const icon = state.phase === 'rolled' ? '🎲' : state.phase === 'declined' ? '🙅' : '↩️';
  const due = mayRollConsequence(state) ? ` Next: **Outcome Roll: ${escapeMarkdown(state.consequenceTable ?? '')}**, on the request.` : '';
  return { content: truncate(`${icon} ${what}: ${settledWords(state)}.${due}`, DISCORD_LIMITS.content), allowedMentions: { parse: [] } };
}
