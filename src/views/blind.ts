/**
 * Blind rolls (issue 25 §2): the channel sees that a roll was made and by whom, never its dice, total, verdict, CL or
 * odds; a Dispatcher reads it with **Show me** (privately) and puts it in the channel with **Reveal**. Everything a
 * blind roll's message holds (text, custom_ids) is drawn here from what may be shown, so nothing of the result can
 * slip into it.
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord.js';
import type { DiceNotationResult } from '../engine/dice-notation.js';
import type { ChallengeResult, LinkedChallengeResult } from '../engine/systems/tactalk/challenge.js';
import type { StoredRoll } from '../store/rolls.js';
import { challengeEmbed, linkedEmbed } from './challenge.js';
import { rollActionIds } from './component-id.js';
import { diceEmbed } from './dice.js';
import { escapeMarkdown, storedAt, storedText } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import { privateNote, type MessageBody, type ReplyPayload } from './messages.js';
import type { ReplayFacts } from './replay.js';

/** The kinds a member can roll blind: a challenge, a linked roll, dice notation. */
export const BLIND_KINDS = ['challenge', 'linked', 'dice'] as const;

/** `blind:show:<roll id>` (a Dispatcher reads it privately), `blind:reveal:<roll id>` (to the channel, once). */
export const blindIds = rollActionIds('blind', ['show', 'reveal'] as const);
export type BlindPress = NonNullable<ReturnType<typeof blindIds.parse>>;


/**
 * What a blind roll was, as anyone may read it: the skills tested, or the dice expression and label. Never a level,
 * modifier or CL: those would give the odds away.
 */
export function blindWhat(roll: Pick<StoredRoll, 'kind' | 'inputs'>): string {
  if (roll.kind === 'challenge') return `${storedText(storedAt(roll.inputs, 'skill', 'name'))} roll`;
  if (roll.kind === 'linked') {
    const parts = Array.isArray(roll.inputs) ? (roll.inputs as unknown[]) : [];
    return `linked roll (${parts.map((part) => storedText(storedAt(part, 'skill', 'name'))).join('; ')})`;
  }
  if (roll.kind === 'dice') {
    const label = storedAt(roll.inputs, 'label');
    return `roll of \`${String(storedAt(roll.inputs, 'expression')).replace(/`/g, "'")}\`${typeof label === 'string' ? ` (${storedText(label)})` : ''}`;
  }
  return `${escapeMarkdown(roll.kind)} roll`;
}

/** The line that stands for a blind roll wherever its result would be: its message, the request it answered. */
export function blindLine(roll: Pick<StoredRoll, 'id' | 'kind' | 'inputs'>, who: string): string {
  return truncate(`🙈 **${escapeMarkdown(who)}** made a blind ${blindWhat(roll)} · roll \`${roll.id}\` — its result is for the Dispatchers.`, 1000);
}

/** Show me and Reveal, for Dispatchers; pressed by anyone else they are refused privately. */
export function blindButtonBuilders(rollId: string): ButtonBuilder[] {
  return [
    new ButtonBuilder().setCustomId(blindIds.encode({ action: 'show', rollId })).setLabel('Show me (Dispatcher)').setStyle(ButtonStyle.Secondary),
    new ButtonBuilder().setCustomId(blindIds.encode({ action: 'reveal', rollId })).setLabel('Reveal (Dispatcher)').setStyle(ButtonStyle.Primary),
  ];
}

/** Show me and Reveal as the row of a blind roll's own message. */
export function blindButtons(rollId: string) {
  return new ActionRowBuilder<ButtonBuilder>().addComponents(blindButtonBuilders(rollId)).toJSON();
}

/** The message a blind roll makes in the channel: who rolled what, and the Dispatchers' two buttons. */
export function blindMessage(roll: Pick<StoredRoll, 'id' | 'kind' | 'inputs'>, who: string): MessageBody {
  return { content: blindLine(roll, who), components: [blindButtons(roll.id)], allowedMentions: NO_PINGS };
}

/** The result's embed as the roll would have shown it unblind: every die, term, CL and chance. */
export function blindResultEmbed(roll: StoredRoll, who: string): APIEmbed {
  if (roll.kind === 'challenge') return challengeEmbed(roll.result as ChallengeResult, who, roll.id);
  if (roll.kind === 'linked') return linkedEmbed(roll.result as LinkedChallengeResult, who, roll.id).toJSON();
  if (roll.kind === 'dice') return diceEmbed(roll.result as DiceNotationResult, roll.id).toJSON();
  throw new Error(`a ${roll.kind} roll cannot be blind`);
}

/** Show me: the result for the Dispatcher who asked, alone. */
export function blindShownPrivately(roll: StoredRoll, who: string): ReplyPayload {
  const state = roll.revealedAt ? `revealed <t:${Math.floor(roll.revealedAt.getTime() / 1000)}:R>` : 'not revealed: only Dispatchers see this';
  const note = { ...privateNote(`🙈 Blind roll \`${roll.id}\` by <@${roll.userId}> (${state}).`) };
  return { ...note, embeds: [blindResultEmbed(roll, who)] };
}

/** Reveal: the result in the channel, saying whose blind roll it was and who revealed it. */
export function blindRevealed(roll: StoredRoll, who: string, dispatcherId: string): MessageBody {
  return {
    content: truncate(`🙈 → 👁️ <@${dispatcherId}> revealed the blind roll \`${roll.id}\` by <@${roll.userId}>:`, DISCORD_LIMITS.content),
    embeds: [blindResultEmbed(roll, who)],
    allowedMentions: NO_PINGS,
  };
}

export type MessageRow = APIActionRowComponent<APIComponentInMessageActionRow>;

/**
 * The pressed message once its roll is revealed: what it said, and that the result now follows in the channel. Show me
 * and Reveal leave it (nothing is secret any more, and a live Reveal would invite a press that does nothing); its other
 * rows (Roll again, a request's own) stay as they were.
 */
export function revealedMark(content: string, dispatcherId: string, rows: readonly MessageRow[]): MessageBody {
  const mark = `👁️ Revealed by <@${dispatcherId}>: the result is below.`;
  const kept = rows
    .map((row) => ({ ...row, components: row.components.filter((component) => !('custom_id' in component && blindIds.parse(component.custom_id))) }))
    .filter((row) => row.components.length > 0);
  return { content: truncate(content ? `${content}\n${mark}` : mark, DISCORD_LIMITS.content), components: kept, allowedMentions: NO_PINGS };
}

/** A second Reveal: nothing more is posted. */
export function alreadyRevealedNote(roll: Pick<StoredRoll, 'id' | 'revealedAt'>): ReplyPayload {
  const when = roll.revealedAt ? ` <t:${Math.floor(roll.revealedAt.getTime() / 1000)}:R>` : '';
  return privateNote(`Roll \`${roll.id}\` was already revealed to the channel${when}; nothing more was posted. \`/roll replay id:${roll.id}\` shows it to anyone.`);
}

/** `/roll replay` of a blind roll not yet revealed, for anyone but a Dispatcher: whether its dice match, and not one number. */
export function blindReplayReply(facts: ReplayFacts): ReplyPayload {
  return privateNote(
    `🙈 Roll \`${facts.rollId}\` by <@${facts.userId}> <t:${Math.floor(facts.createdAt.getTime() / 1000)}:f> is a blind roll: its result is for the Dispatchers until one reveals it. ` +
      (facts.matches ? 'Its stored seed gives the stored dice.' : 'Its stored seed does NOT give the stored dice: please report this roll id.'),
  );
}

/** A roll pressed or named for a reveal that was never blind. */
export function notBlindText(rollId: string): string {
  return `Roll \`${rollId}\` is not a blind roll: its result was shown when it was made. \`/roll replay id:${rollId}\` shows it again.`;
}
