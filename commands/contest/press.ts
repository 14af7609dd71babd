/**
 * A press on a contest's message, or a submit of one of its forms: reload, decide, save with a compare-and-set.
 * When another press saved first, the press is decided again on the new state: a different move (the other player's
 * role) still counts, the same move twice is then refused by the engine as already handled.
 */
import { fromMessage } from '../../src/discord/interaction-kinds.js';
import { typedBack } from '../../src/discord/form-text.js';
import { rolledBy, type ComponentInteraction, type HandlerContext } from '../../src/discord/command.js';
import { answerFromStore, shownControls } from '../../src/discord/stored-message.js';
import type { Responder } from '../../src/discord/responder.js';
import { UserError } from '../../src/errors.js';
import { nameKey } from '../../src/engine/names.js';
import { seededRng } from '../../src/engine/rng.js';
import {
  ContestRefusal,
  OPEN_PHASES,
  READS_SKILLS_LEFT,
  applyContestAction,
  contestRefusal,
  sideOf,
  type ContestAction,
  type ContestActor,
  type ContestMove,
  type ContestState,
} from '../../src/engine/systems/tactalk/contest.js';
import type { StoredContest } from '../../src/store/contests.js';
import type { ServerSettings } from '../../src/store/servers.js';
import { adjustModal, skillSearchModal } from '../../src/views/contest/forms.js';
import { PLAIN_PRESSES, SKILL_SEARCH_VALUE, contestIds, isPlainPress, type ContestControl } from '../../src/views/contest/ids.js';
import { contestMessage } from '../../src/views/contest/message.js';
import { privateNote, userErrorText } from '../../src/views/messages.js';
import { announce, postLostResult } from './announce.js';
import { acceptAction, adjustActions, openAcceptForm, openForm, searchedSkill, skillChoice } from './forms.js';
import { drawn, expiryFrom, memberName } from './message.js';
import { SAVE_ATTEMPTS, inTurn } from './turns.js';

/** What a press means; null when it only opens a form (the form's submit is the action). */
async function actionsFor(interaction: ComponentInteraction, context: HandlerContext, contest: StoredContest, control: ContestControl, actor: ContestActor): Promise<ContestAction[] | null> {
  const { state } = contest;
  if (isPlainPress(control)) {
    const move = PLAIN_PRESSES[control.action];
    return [{ type: move, ...(READS_SKILLS_LEFT.includes(move) ? await skillsGone(context, state) : {}) }];
  }
  switch (control.action) {
    case 'accept': {
      // Only the challenged player, and only now, gets the form.
      mayMake(state, actor, 'accept');
      return openAcceptForm(interaction, context, contest);
    }
    case 'acceptform': {
      // Who and when first: what the form holds is only read from someone who may send it now.
      mayMake(state, actor, 'accept');
      return [await acceptAction(interaction, context)];
    }
    case 'role':
      return [{ type: 'chooseRole', role: control.role }];
    case 'skill':
    case 'searchform': {
      const { side } = control;
      if (sideOf(state, context.userId) !== side) throw new ContestRefusal({ kind: 'not-your-menu', owner: state[side].operator?.name ?? null });
      const typed = interaction.isStringSelectMenu() ? (interaction.values[0] ?? '') : searchedSkill(interaction);
      if (typed === SKILL_SEARCH_VALUE) {
        // Not when this side cannot pick a skill now (wrong step, or the Dispatcher set it).
        mayMake(state, actor, 'chooseSkill');
        return openForm(interaction, context.answer, skillSearchModal(contest.id, side));
      }
      const choice = await skillChoice(context, state, side, typed);
      return [{ type: 'chooseSkill', ...choice }];
    }
    case 'adjust': {
      mayMake(state, actor, 'adjust');
      return openForm(interaction, context.answer, adjustModal(contest.id, state));
    }
    case 'adjustform': {
      // The form may come from a stale client (opened before, or never): the same check as the button.
      mayMake(state, actor, 'adjust');
      return adjustActions(interaction, context, state);
    }
  }
}

/**
 * Whether the presser's side has no skill left to pick: none on its sheet, as it is now, that was not rolled in an
 * earlier round of the contest (a skill added since counts). A sheet deleted since has none.
 */
async function skillsGone(context: HandlerContext, state: ContestState): Promise<{ noSkillLeft?: true }> {
  const side = sideOf(state, context.userId);
  if (!side || !OPEN_PHASES.includes(state.phase)) return {};
  const operator = state[side].operator;
  const sheet = operator ? await context.store.operators.get(context.guildId, operator.id) : null;
  const used = new Set(state[side].usedSkills.map(nameKey));
  return (sheet?.skills ?? []).some((skill) => !used.has(nameKey(skill.name))) ? {} : { noSkillLeft: true };
}

/** Refuses a move the engine would not take from this presser now, before a form opens or its values are read. */
function mayMake(state: ContestState, actor: ContestActor, move: ContestMove): void {
  const refusal = contestRefusal(state, actor, move);
  if (refusal) throw new ContestRefusal(refusal);
}

/** Shows the contest's current state on its message: in place when the press came from it, else by editing it. */
async function show(interaction: ComponentInteraction, answer: Responder, payload: ReturnType<typeof contestMessage>, note?: string): Promise<void> {
  if (fromMessage(interaction)) {
    await answer.update(payload);
    if (note) await answer.followUp(privateNote(note));
    return;
  }
  await answer.reply(privateNote(note ?? 'Done.'));
}

/** A press refused: privately, and if its message lags behind the stored contest, by bringing it up to date too. */
async function refuse(interaction: ComponentInteraction, context: HandlerContext, settings: ServerSettings, contest: StoredContest, note: string): Promise<void> {
  await answerFromStore(interaction, context, contestMessage(await drawn(context, contest, settings)), note);
}

export async function press(interaction: ComponentInteraction, control: ContestControl, context: HandlerContext): Promise<void> {
  await inTurn(context.store, control.contestId, () => decide(interaction, control, context));
}

/**
 * Records the message a press came from as the contest's, when it is the contest's own: a press from it proves that
 * message is in the channel. So a draft it comes from is posted now, on that message (the bot died between posting
 * its opening and recording that), and an open contest missing its message id gets it (the expiry sweep needs it to
 * grey the message out). Null when another change came first: reload and decide again.
 */
async function recordPressedMessage(interaction: ComponentInteraction, context: HandlerContext, contest: StoredContest): Promise<StoredContest | null> {
  const ownControl = (customId = '') => contestIds.parse(customId)?.contestId === contest.id;
  const messageId = interaction.message && shownControls(interaction).some(({ customId }) => ownControl(customId)) ? interaction.message.id : null;
  if (contest.state.phase === 'draft') {
    // Anything else pressing it did not come from its message; a draft has no message of its own to bring up to date.
    if (!messageId) throw new ContestRefusal({ kind: 'not-posted' });
    return context.store.contests.post(contest, messageId);
  }
  if (messageId && !contest.messageId && OPEN_PHASES.includes(contest.state.phase)) return context.store.contests.fillMessage(contest, messageId);
  return contest;
}

async function decide(interaction: ComponentInteraction, control: ContestControl, context: HandlerContext): Promise<void> {
  const { store } = context;
  const settings = await store.servers.settings(context.guildId);
  const isDispatcher = await context.isDispatcher();
  for (let attempt = 1; ; attempt++) {
    const found = await store.contests.find(context.guildId, control.contestId);
    if (!found) throw new UserError('This contest no longer exists.');
    const contest = await recordPressedMessage(interaction, context, found);
    if (!contest) continue;
    if (!OPEN_PHASES.includes(contest.state.phase)) {
      await refuse(interaction, context, settings, contest, 'This contest is over; its buttons do nothing now.');
      await postLostResult(interaction, context, settings, contest);
      return;
    }
    const side = sideOf(contest.state, context.userId);
    const actor: ContestActor = { userId: context.userId, isDispatcher, name: (side && contest.state[side].operator?.name) || memberName(interaction) };
    const now = context.now();

    if (contest.expiresAt <= now) {
      const expired = applyContestAction(contest.state, { type: 'expire' }, actor, seededRng('expire'));
      const saved = await store.contests.save(contest, expired, contest.expiresAt);
      if (!saved) continue;
      await show(interaction, context.answer, contestMessage(await drawn(context, saved, settings)), `This contest expired: nobody moved within ${settings.contestTimeoutMinutes} min.`);
      return;
    }

    let next: ContestState;
    let seed: string;
    let actions: ContestAction[] | null;
    try {
      actions = await actionsFor(interaction, context, contest, control, actor);
      if (actions === null) return; // a form was opened
      if (actions.length === 0) {
        await refuse(interaction, context, settings, contest, 'Nothing to change: the form matches the contest as it is.');
        return;
      }
      seed = context.newSeed();
      const rng = seededRng(seed);
      next = actions.reduce((state, action) => applyContestAction(state, action, actor, rng), contest.state);
    } catch (error) {
      if (error instanceof UserError) {
        const dispatcherOnly = error instanceof ContestRefusal && error.reason === 'dispatcherOnly';
        const message = dispatcherOnly ? `${userErrorText(error)} ${await context.dispatcherRequirement()}` : userErrorText(error);
        // A form refused for what was in it is shown back, so nothing typed is lost; a refusal of who or when is not.
        const shownBack = error instanceof ContestRefusal && error.reason !== 'invalid' ? '' : typedBack(interaction);
        await refuse(interaction, context, settings, contest, message + shownBack);
        return;
      }
      throw error;
    }

    // A round rolled by the move is stored with it, as the presser's roll with this seed.
    const saved = await store.contests.saveMove(contest, next, expiryFrom(now, settings), { by: rolledBy(context), seed });
    if (!saved) {
      if (attempt < SAVE_ATTEMPTS) continue;
      await context.answer.reply(privateNote('The contest is changing fast right now; nothing changed. Please press again.'));
      return;
    }
    await show(interaction, context.answer, contestMessage(await drawn(context, saved, settings)));
    // A tie whose result was lost: posted before the prompt of the step it led to.
    if (saved.state.rounds.length === contest.state.rounds.length) await postLostResult(interaction, context, settings, contest);
    await announce(interaction, context, settings, saved, contest.state, actions, side, actor.name);
    return;
  }
}
