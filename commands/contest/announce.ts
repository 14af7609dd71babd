/**
 * After a move, a NEW message tells whoever must act next (an edit notifies nobody on Discord): the turn prompt,
 * the end of the contest, or a round's result. A result is posted with a link to the contest message, and the contest
 * message then links to the result. Failing to post it leaves the contest as saved: its message shows the outcome.
 */
import type { ComponentInteraction, HandlerContext } from '../../src/discord/command.js';
import { fromMessage } from '../../src/discord/interaction-kinds.js';
import type { ContestAction, ContestSideName, ContestState } from '../../src/engine/systems/tactalk/contest.js';
import type { StoredContest } from '../../src/store/contests.js';
import type { ServerSettings } from '../../src/store/servers.js';
import { contestMessage } from '../../src/views/contest/message.js';
import { contestEndNotice, contestPrompt, contestResultMessage } from '../../src/views/contest/prompts.js';
import { contestHappened } from '../../src/views/contest/words.js';
import { drawn, viewOf } from './message.js';
import { SAVE_ATTEMPTS } from './turns.js';

export async function announce(
  interaction: ComponentInteraction,
  context: HandlerContext,
  settings: ServerSettings,
  saved: StoredContest,
  before: ContestState,
  actions: ContestAction[],
  side: ContestSideName | null,
  name: string,
): Promise<void> {
  const after = saved.state;
  // With the sheets' skills: a player with none left to pick is told what they can do instead.
  const view = await drawn(context, saved, settings);
  // The opponent's Operator is known only once they accept: name them by it from then on.
  name = (side && after[side].operator?.name) || name;
  const rolled = after.rounds.length > before.rounds.length ? after.rounds.at(-1)! : null;
  if (rolled) {
    const posted = await context.answer.followUp(contestResultMessage(view, rolled, side));
    const linked = await linkResult(context, saved, rolled.number, posted.id);
    if (linked && fromMessage(interaction)) await context.answer.editReply(contestMessage(await drawn(context, linked, settings)));
    return;
  }
  if (after.phase === 'ended' && before.phase !== 'ended') {
    await context.answer.followUp(contestEndNotice(view, side));
    return;
  }
  const prompt = contestPrompt(view, side, contestHappened(before, after, actions, name));
  if (prompt) await context.answer.followUp(prompt);
}

/**
 * A round whose result message was never posted (the bot died between saving the roll and posting it, or the post
 * failed) is posted by the next press on the contest, so its dice and why it ended never go missing from the channel.
 * Only contests of this version: before it, the result was shown on the contest message itself.
 */
export async function postLostResult(interaction: ComponentInteraction, context: HandlerContext, settings: ServerSettings, contest: StoredContest): Promise<void> {
  const round = contest.state.rounds.at(-1);
  if (!round || round.resultMessageId || contest.state.secretRoles !== true) return;
  const posted = await context.answer.followUp(contestResultMessage(viewOf(contest, settings), round, null));
  const linked = await linkResult(context, contest, round.number, posted.id);
  if (linked && fromMessage(interaction)) await interaction.message?.edit(contestMessage(await drawn(context, linked, settings)));
}

/** Records the message a round's result was posted as, so the contest message keeps linking to it. */
async function linkResult(context: HandlerContext, contest: StoredContest, round: number, messageId: string): Promise<StoredContest | null> {
  for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
    const current = attempt === 1 ? contest : await context.store.contests.find(contest.guildId, contest.id);
    if (!current) return null;
    const rounds = current.state.rounds.map((each) => (each.number === round ? { ...each, resultMessageId: messageId } : each));
    const saved = await context.store.contests.save(current, { ...current.state, rounds }, current.expiresAt);
    if (saved) return saved;
  }
  return null;
}
