/**
 * What a contest posts anew, beside its message (an edit notifies nobody): the turn prompt pinging the players who
 * must act now, the notice of a contest that ended without a roll, and a round's result with its dice. Each pings
 * exactly the players it is for.
 */
import { EmbedBuilder } from 'discord.js';
import { waitingOn, type ContestRound, type ContestSideName } from '../../engine/systems/tactalk/contest.js';
import { escapeMarkdown } from '../format.js';
import { DISCORD_LIMITS, truncate } from '../limits.js';
import { nothingChangesLines, outcomeWords, roundField, standingSuccesses, whyLine } from './rounds.js';
import { moveOf } from './steps.js';
import { COLOR, linkTo, shortName, type ContestView } from './view.js';
import { contestEndText } from './words.js';
import { rollSeedNote } from '../sessions.js';

/** A message that pings exactly these players and nobody else (user text inside it never pings). */
export interface PingMessage {
  content: string;
  embeds?: ReturnType<EmbedBuilder['toJSON']>[];
  allowedMentions: { parse: never[]; users: string[] };
}

/**
 * The turn prompt: a new message (an edit notifies nobody) naming what happened and pinging only the players who
 * must act now, each told their move, with a link to the contest message. Null when nobody but the actor must act.
 */
export function contestPrompt(view: ContestView, actor: ContestSideName | null, happened: string): PingMessage | null {
  const { state } = view;
  const next = waitingOn(state).filter((side) => side !== actor);
  if (next.length === 0) return null;
  const link = linkTo(view, view.where?.messageId);
  const moves = next.map((side) => `<@${state[side].userId}>, your move: ${moveOf(view, side).replace(/\.$/, '')}`).join('. ');
  const content = `🔔 ${escapeMarkdown(happened)}. ${moves}.${link ? ` [Contest #${view.id}](${link})` : ''}`;
  return { content: truncate(content, DISCORD_LIMITS.content), allowedMentions: { parse: [], users: next.map((side) => state[side].userId) } };
}

/** A contest that ended without a roll (declined, withdrawn, cancelled, both defenders, a tie accepted): said anew, to the other players. */
export function contestEndNotice(view: ContestView, actor: ContestSideName | null): PingMessage {
  const { state } = view;
  const told = (['challenger', 'opponent'] as const).filter((side) => side !== actor && (side === 'challenger' || state.opponent.userId));
  const link = linkTo(view, view.where?.messageId);
  const pings = told.map((side) => `<@${state[side].userId}>`).join(' ');
  const content = `${pings} ⛔ Contest #${view.id} is over: ${escapeMarkdown(contestEndText(state) ?? 'it ended.')}${link ? ` [Contest #${view.id}](${link})` : ''}`;
  return { content: truncate(content, DISCORD_LIMITS.content), allowedMentions: { parse: [], users: told.map((side) => state[side].userId) } };
}

/**
 * A round's result, posted as a new message: who won and why, each side's skill, dice and sum against the CL the
 * other side's skill sets, the winner's stated outcome, and a link back to the contest message. Pings the players
 * who did not make the last press (the one who did sees it land).
 */
export function contestResultMessage(view: ContestView, round: ContestRound, actor: ContestSideName | null): PingMessage {
  const { state } = view;
  const told = (['challenger', 'opponent'] as const).filter((side) => side !== actor);
  const link = linkTo(view, view.where?.messageId);
  const lines: string[] = [];
  if (round.winner === 'tie') {
    lines.push(`🤝 ${whyLine(state, round)}`, ...standingSuccesses(state, round));
    lines.push(`Both choose **Another round** or **Accept the tie** on ${link ? `[the contest message](${link})` : 'the contest message'}.`);
  } else if (round.winner === 'nobody') {
    lines.push(...nothingChangesLines(state, round), ...standingSuccesses(state, round));
  } else {
    const loser = round.winner === 'challenger' ? 'opponent' : 'challenger';
    const winnerName = escapeMarkdown(shortName(state, round.winner));
    lines.push(`🏆 **${winnerName} wins.** ${whyLine(state, round)}`, `${escapeMarkdown(shortName(state, loser))} suffers ${winnerName}'s stated outcome:`, `> ${escapeMarkdown(state[round.winner].stakes)}`);
    lines.push(...standingSuccesses(state, round));
  }
  if (link) lines.push('', `[Contest #${view.id}](${link}): ${escapeMarkdown(state.intent)}`);
  const title = `🎲 Contest #${view.id}${state.rounds.length > 1 || round.number > 1 ? `, round ${round.number}` : ''}: ${outcomeWords(state, round)}`;
  const embed = new EmbedBuilder()
    .setTitle(truncate(title, DISCORD_LIMITS.embedTitle))
    .setColor(round.winner === 'tie' ? COLOR.tie : round.winner === 'nobody' ? COLOR.over : COLOR.won)
    .setDescription(truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription))
    .addFields(roundField(state, round, 'challenger'), roundField(state, round, 'opponent'))
    .setFooter({ text: `Contest #${view.id}${round.rollId ? ` · roll ${round.rollId}${rollSeedNote(round.rollId)} · check with /roll replay` : ''}` });
  const content = `${told.map((side) => `<@${state[side].userId}>`).join(' ')} the dice of contest #${view.id} have rolled.`;
  return { content, embeds: [embed.toJSON()], allowedMentions: { parse: [], users: told.map((side) => state[side].userId) } };
}
