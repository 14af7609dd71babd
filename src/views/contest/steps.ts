/**
 * What each player must do now, in words: the message's next step, the turn prompt's move for each side, what a side
 * with no skill left can do, and each side's choice after a tie. The message (message.ts) and the prompts (prompts.ts)
 * both say them, so they are written once here.
 */
import type { SkillEntry } from '../../engine/sheet.js';
import { nameKey } from '../../engine/names.js';
import { chosenSkills, tieChoiceOf, waitingOn, type ContestSideName, type ContestState } from '../../engine/systems/tactalk/contest.js';
import { escapeMarkdown } from '../format.js';
import { shortName, type ContestView } from './view.js';

/** Whether this round follows a tie: its players may still accept the tie instead of picking a skill. */
export function afterTie(state: ContestState): boolean {
  return state.rounds.at(-1)?.winner === 'tie';
}

/**
 * The skills a side may still pick, as its sheet holds them now (none rolled in an earlier round of the contest);
 * null when the view was drawn without the sheets.
 */
export function skillsLeft(view: ContestView, side: ContestSideName): SkillEntry[] | null {
  const skills = view.skills?.[side];
  if (!skills) return null;
  const used = new Set(view.state[side].usedSkills.map(nameKey));
  return skills.filter((skill) => !used.has(nameKey(skill.name)));
}

/** A side that must pick a skill and has none left to pick: it is stuck unless told what it can do. */
export function outOfSkills(view: ContestView, side: ContestSideName): boolean {
  const own = view.state[side];
  return view.state.phase === 'skills' && chosenSkills(own).length === 0 && !own.disputed && skillsLeft(view, side)?.length === 0;
}

/** What a side with no skill left can do, for the message and its prompt. */
export function outOfSkillsText(view: ContestView, side: ContestSideName): string {
  const { state } = view;
  const name = escapeMarkdown(shortName(state, side));
  const used = state[side].usedSkills.map((skill) => `**${escapeMarkdown(skill)}**`).join(', ');
  const tie = afterTie(state)
    ? ', or press **Accept the tie**, which then ends the contest as a tie'
    : side === 'challenger' && state.rounds.length === 0
      ? ', or **Withdraw**'
      : '';
  return `${name} has no skill left that was not rolled in this contest${used ? ` (rolled: ${used})` : ''}. Add one to ${name}'s sheet with \`/sheet skill set\` and press **Ready** to have it offered${tie}.`;
}

export function nextStep(view: ContestView): string {
  const { state } = view;
  const c = escapeMarkdown(shortName(state, 'challenger'));
  switch (state.phase) {
    case 'proposed':
      return state.challenger.skill
        ? `Waiting for <@${state.opponent.userId}> to **Accept** (one form: their terms, role and skill) or **Decline**.`
        : `Waiting for <@${state.opponent.userId}> to **Accept** (and state their own terms) or **Decline**.`;
    case 'countered': {
      const rolls = state.challenger.role && state.opponent.role ? ': the dice roll as soon as they agree' : '';
      const confirm = waitingOn(state).includes('opponent') ? ` and for <@${state.opponent.userId}> to **Confirm** the Dispatcher's change` : '';
      return `Waiting for <@${state.challenger.userId}> (${c}) to **Agree** to both terms${rolls}, or **Withdraw**${confirm}. No bargaining: terms cannot be edited. A Dispatcher may adjust before then.`;
    }
    case 'roles':
      return 'Each player picks **Attacker** or **Defender**. Both defenders: no contest.';
    case 'skills': {
      if (state.secretRoles && state.rounds.length === 0) {
        const waiting = waitingOn(state).map((side) => `<@${state[side].userId}>`);
        return `Waiting for ${waiting.join(' and ')} to **Confirm**; the dice roll when both have.`;
      }
      const pick = 'Each player picks a skill from their own sheet, then presses **Ready**. When both are ready, both sides roll at once.';
      if (!afterTie(state)) return pick;
      const choices = tieChoicesLine(state);
      return `${pick} Either may instead **Accept the tie**: it ends when both do, or when one with no skill left does.${choices ? `\n${choices}` : ''}`;
    }
    case 'tied':
      return 'Two attackers and a tie: both choose **Another round** (new skills, none used before) or both **Accept the tie** and decide the outcome together. Each may change their choice until both agree.';
    default:
      return '';
  }
}

/** After a tie: what each player chose so far ("Kat accepts the tie — waiting for Troy"). */
export function tieChoicesLine(state: ContestState): string | null {
  const choice = (side: ContestSideName) => tieChoiceOf(state[side]);
  const says = (side: ContestSideName) => {
    const name = escapeMarkdown(shortName(state, side));
    const changed = state[side].tieChoiceChanged ? ' (changed their mind)' : '';
    return `${name} ${choice(side) === 'accept' ? 'accepts the tie' : 'wants another round'}${changed}`;
  };
  const [c, o] = [choice('challenger'), choice('opponent')];
  if (c === null && o === null) return null;
  if (c !== null && o !== null) return `${says('challenger')}; ${says('opponent')}: they disagree. Either may change their choice with the other button.`;
  const chosen: ContestSideName = c !== null ? 'challenger' : 'opponent';
  return `${says(chosen)} — waiting for ${escapeMarkdown(shortName(state, chosen === 'challenger' ? 'opponent' : 'challenger'))}.`;
}

/** What a player must press now, in a few words. */
export function moveOf(view: ContestView, side: ContestSideName): string {
  const { state } = view;
  switch (state.phase) {
    case 'countered':
      return side === 'challenger'
        ? `**Agree** to the terms${state.challenger.role && state.opponent.role ? ' (the dice roll then)' : ''}, or **Withdraw**`
        : '**Confirm** the change';
    case 'roles':
      return 'pick **Attacker** or **Defender**';
    case 'skills': {
      const tie = afterTie(state);
      if (tie && tieChoiceOf(state[side]) === 'accept') return `you accept the tie; to play the round after all, pick your skill and press **Ready**`;
      if (outOfSkills(view, side)) return outOfSkillsText(view, side);
      const orTie = tie ? ', or **Accept the tie**' : '';
      if (chosenSkills(state[side]).length === 0) return `pick your skill, then press **Ready**${orTie}`;
      return state.secretRoles && state.rounds.length === 0 ? 'press **Confirm**' : `press **Ready**${orTie}`;
    }
    case 'tied':
      return 'choose **Another round** or **Accept the tie**';
    default:
      return 'answer';
  }
}
