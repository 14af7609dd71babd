/**
 * The words of what a contest stores and refuses as data (src/engine/systems/tactalk/contest.ts): why it ended
 * (`contestEndText`), why both confirm again (`contestNoticeText`), the Dispatcher's changes (`contestChangeText`),
 * its refusals (`contestRefusalText`) and what a move did (`contestHappened`). A contest stored before these were
 * data holds sentences, shown as they are (test/views/contest-stored.test.ts).
 */
import {
  tieChoiceOf,
  type ContestAction,
  type ContestChange,
  type ContestRefusalData,
  type ContestSideName,
  type ContestState,
} from '../../engine/systems/tactalk/contest.js';
import { signedCompact } from '../format.js';
import { shortName } from './view.js';

/** A list of skills as the Dispatcher's changes name them: "Handgun Handling 40 + Driving 30". */
const skillsText = (skills: { name: string; level: number }[]) => skills.map((skill) => `${skill.name} ${skill.level}`).join(' + ');

/** "Kat accepted the tie; Troy had not chosen": each side's choice after a tie, in the players' words. */
function tieChoicesText(state: ContestState): string {
  const one = (side: ContestSideName) => {
    const choice = tieChoiceOf(state[side]);
    return `${shortName(state, side)} ${choice === 'accept' ? 'accepted the tie' : choice === 'another' ? 'wanted another round' : 'had not chosen'}`;
  };
  return `${one('challenger')}; ${one('opponent')}`;
}

/** Why the contest ended without a winner; null while it has not. */
export function contestEndText(state: ContestState): string | null {
  const reason = state.endReason;
  if (reason === null || typeof reason === 'string') return reason;
  const differentCourse = 'The challenger must choose a different course of action.';
  switch (reason.kind) {
    case 'declined':
      return `${reason.by} declined. ${differentCourse}`;
    case 'not-agreed':
      return `${reason.by} did not agree to the terms. ${differentCourse}`;
    case 'withdrew':
      return `${reason.by} withdrew before the dice were rolled. ${differentCourse}`;
    case 'both-defenders':
      return `Both players are defenders: there is no reason for a contest. ${differentCourse}`;
    case 'cancelled':
      return `Cancelled by the Dispatcher ${reason.by}.`;
    case 'tie-accepted':
      return `${shortName(state, 'challenger')} and ${shortName(state, 'opponent')} accepted the tie: the players decide the outcome together.`;
    case 'tie-rounds':
      return `After ${reason.rounds} tied rounds the contest stops as a tie: decide the outcome together.`;
    case 'no-skill-left': {
      const who = shortName(state, reason.side);
      return `${who} has no skill left that was not rolled in this contest, so it cannot go on: ${who} accepted the tie, which stands. The players decide the outcome together.`;
    }
    case 'expired':
      return `Nobody acted in time: the contest expired.${reason.tied ? ` The round stays a tie with no outcome agreed (${tieChoicesText(state)}).` : ''}`;
  }
}

/** Why both players must confirm again; null when nothing was cleared. */
export function contestNoticeText(state: ContestState): string | null {
  const notice = state.notice;
  if (!notice || typeof notice === 'string') return notice ?? null;
  const why =
    notice.kind === 'picked'
      ? `${notice.who} picked ${notice.skill?.name} ${notice.skill?.level}`
      : notice.kind === 'disputed'
        ? `The Dispatcher disputed ${notice.who}'s skill`
        : notice.kind === 'linked'
          ? `The Dispatcher made ${notice.who}'s roll a linked roll`
          : `The Dispatcher changed ${notice.who}'s modifiers`;
  const how = notice.byAgreeing ? `both confirm again, ${shortName(state, 'challenger')} by agreeing` : 'both confirm again';
  const had = notice.cleared.length ? ` (${notice.cleared.map((side) => shortName(state, side)).join(' and ')} had confirmed)` : '';
  return `${why}: ${how}${had}.`;
}

/** One of the Dispatcher's changes, as the message lists them. */
export function contestChangeText(change: string | ContestChange): string {
  if (typeof change === 'string') return change;
  switch (change.kind) {
    case 'disputed':
      return `${change.by} disputed ${change.who}'s skill: ${change.before.length ? `${skillsText(change.before)} → ` : ''}${change.after.name} ${change.after.level}`;
    case 'linked':
      return `${change.by} made ${change.who}'s roll a linked roll: ${change.before.length ? `${skillsText(change.before)} → ` : ''}${skillsText(change.after)}`;
    case 'modifiers': {
      const terms = [...change.archetypes.map((modifier) => `${modifier.name} ${signedCompact(modifier.value)}`), ...(change.situational ? [`situational ${signedCompact(change.situational)}`] : [])];
      return `${change.by} set ${change.who}'s modifiers: ${terms.length ? terms.join(', ') : 'none'}`;
    }
  }
}

/** What a contest refuses, as the presser reads it. */
export function contestRefusalText(refusal: ContestRefusalData): string {
  switch (refusal.kind) {
    case 'not-a-player':
      return 'This is not your contest; only its two players can press that.';
    case 'only-side':
      return refusal.side === 'opponent' ? 'Only the challenged player can answer this.' : 'Only the challenger can answer this.';
    case 'dispatcher-only':
      return refusal.adjust ? 'Only a Dispatcher can adjust a contest.' : 'Only a Dispatcher can do that.';
    case 'not-posted':
      return 'This contest is not posted yet; try again in a moment.';
    case 'already-posted':
      return 'This contest is already posted.';
    case 'over':
      return 'This contest is over.';
    case 'step-past':
      return 'This step of the contest is already handled; nothing changed.';
    case 'dice-rolled':
      return 'The dice have rolled: after a tie the contest ends only when both accept the tie (or it expires).';
    case 'agree-instead':
      return 'Press **Agree** to accept the terms: agreeing is your confirmation.';
    case 'pick-skill-first':
      return 'Pick your skill in the menu first, then press Ready.';
    case 'already-ready':
      return 'You are already ready; waiting for the other player.';
    case 'already-chose':
      return `${refusal.choice === 'accept' ? 'You already accept the tie' : 'You already asked for another round'}; waiting for ${refusal.other}.`;
    case 'no-skill-left': {
      const { who } = refusal;
      const rolled = refusal.rolled.length ? ` (rolled: ${refusal.rolled.map((name) => `**${name}**`).join(', ')})` : '';
      const next = refusal.next === 'another' ? 'press **Another round** again' : 'press **Ready** again: the menu then offers it';
      const instead = refusal.instead === 'accept-tie' ? ', or press **Accept the tie**: with no skill left, that ends the contest as a tie' : refusal.instead === 'withdraw' ? ', or **Withdraw**' : '';
      return `${who} has no skill left that was not rolled in this contest${rolled}, and a skill is never rolled twice in a contest. Add one to ${who}'s sheet with \`/sheet skill set\` and ${next}${instead}.`;
    }
    case 'skill-set-by-dispatcher':
      return 'The Dispatcher chose your skill for this round; it stands.';
    case 'skill-rolled':
      return `**${refusal.skill}** was already rolled in this contest; pick another skill.`;
    case 'linked-too-few':
      return 'A linked roll needs at least two skills, separated by `;`.';
    case 'linked-too-many':
      return `A linked roll in a contest may have at most ${refusal.most} skills; this one has ${refusal.count}.`;
    case 'linked-twice':
      return `**${refusal.skill}** is named twice in the linked roll; each skill is rolled once.`;
    case 'not-your-menu':
      return `This menu is for ${refusal.owner ?? 'the other player'}’s player only.`;
    case 'sheet-gone':
      return `The sheet of ${refusal.operator ?? 'this side'} no longer exists. A Dispatcher can cancel the contest.`;
    case 'not-adjustable':
      return 'Skills and modifiers can be adjusted once both players have chosen their skills, until the dice roll.';
  }
}

/** What a move did, in a few words, for the turn prompt (`name`: who moved). */
export function contestHappened(before: ContestState, after: ContestState, actions: readonly ContestAction[], name: string): string {
  // A notice is news only when this move set it: one left from an earlier move is not what happened now.
  if (after.notice && JSON.stringify(after.notice) !== JSON.stringify(before.notice)) return contestNoticeText(after)!.replace(/\.$/, '');
  const last = actions.at(-1)!;
  switch (last.type) {
    case 'accept':
      return `${name} accepted with their own terms, role and skill`;
    case 'agree':
      return `${name} agreed to the terms`;
    case 'ready':
      return `${name} ${after.secretRoles && after.rounds.length === 0 ? 'confirmed' : 'is ready'}`;
    case 'chooseRole':
      return `${name} chose a role`;
    case 'chooseSkill':
      return `${name} picked ${last.skill.name}`;
    case 'anotherRound':
      return after.phase === 'skills' ? `Both want another round: round ${after.rounds.length + 1}, each with a skill not rolled before` : `${name} wants another round`;
    case 'acceptTie':
      return `${name} accepts the tie`;
    default:
      return `${name} changed the contest`;
  }
}
