/**
 * The contest's forms: the Accept form (the challenged player's terms, role and skill), the skill search, and the
 * Dispatcher's form. Each form's fields and how its text reads are the view's (src/views/contest/forms.ts); here a form
 * is opened, and what it holds is checked against the sheets and made the actions it asks for.
 */
import { formText } from '../../src/discord/form-text.js';
import type { Responder } from '../../src/discord/responder.js';
import type { ComponentInteraction, HandlerContext } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { archetypeModifiers, conditionModifiers, findSkill, splitNameList, type OperatorSheet } from '../../src/engine/sheet.js';
import { ContestRefusal, type ContestAction, type ContestLinkedPart, type ContestSideName, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import { validateChallengeInput } from '../../src/engine/systems/tactalk/challenge.js';
import { challengeFromSheet } from '../../src/engine/systems/tactalk/from-sheet.js';
import type { StoredContest } from '../../src/store/contests.js';
import {
  acceptModal,
  readAcceptForm,
  readAdjustForm,
  readSkillSearchForm,
  type AdjustedSkill,
} from '../../src/views/contest/forms.js';
import { choiceFrom } from './start.js';

export async function openForm(interaction: ComponentInteraction, answer: Responder, modal: ReturnType<typeof acceptModal>): Promise<null> {
  if (interaction.isModalSubmit()) throw new UserError('A form cannot open another form.');
  await answer.showModal(modal);
  return null;
}

/** The Accept form, for the challenged player's active Tac Talk sheet: its skills not rolled yet, its archetypes. */
export async function openAcceptForm(interaction: ComponentInteraction, context: HandlerContext, contest: StoredContest): Promise<null> {
  const owner = { guildId: context.guildId, ownerId: context.userId };
  if (!(await context.store.operators.list(owner)).some((sheet) => sheet.system === 'tactalk')) {
    throw new UserError('A contest is played with a Tac Talk sheet, and you have none: create one with `/sheet create name:… system:Tac Talk`, then press Accept again.');
  }
  // The form's skill menu lists one sheet's skills, so it is for the active sheet (another: `/sheet use` first).
  const sheet = await context.store.operators.requireActive(owner, 'tactalk', { command: '/contest' });
  const used = new Set(contest.state.opponent.usedSkills.map((name) => name.toLowerCase()));
  return openForm(interaction, context.answer, acceptModal(contest.id, { name: sheet.name, skills: sheet.skills.filter((skill) => !used.has(skill.name.toLowerCase())), archetypes: sheet.archetypes }));
}

/** The Accept form's submit: the challenged player's terms, and their role, skill and archetypes from their sheet. */
export async function acceptAction(interaction: ComponentInteraction, context: HandlerContext): Promise<ContestAction> {
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/contest' });
  const form = readAcceptForm(formText(interaction));
  const choice = choiceFrom(sheet, form.role, form.skill, form.archetypes, context.now());
  return { type: 'accept', stakes: form.stakes, operator: { id: sheet.id, name: sheet.name }, choice };
}

/** The skill typed in the search form. */
export function searchedSkill(interaction: ComponentInteraction): string {
  return readSkillSearchForm(formText(interaction)).skill;
}

async function operatorOf(context: HandlerContext, state: ContestState, side: ContestSideName): Promise<OperatorSheet> {
  const operator = state[side].operator;
  const sheet = operator ? await context.store.operators.get(context.guildId, operator.id) : null;
  if (!sheet) throw new ContestRefusal({ kind: 'sheet-gone', operator: operator?.name ?? null });
  return sheet;
}

export async function skillChoice(context: HandlerContext, state: ContestState, side: ContestSideName, typed: string) {
  const sheet = await operatorOf(context, state, side);
  const skill = findSkill(sheet, typed);
  return { skill: { name: skill.name, level: skill.level }, conditionModifiers: conditionModifiers(sheet, skill.name, context.now()) };
}

/** The Dispatcher's skill for a side, checked against its sheet; null when it is the side's roll as it is (no dispute). */
function disputeOf(sheet: OperatorSheet, state: ContestState, side: ContestSideName, typed: AdjustedSkill, now: Date): ContestAction | null {
  const current = state[side];
  if (typed.kind === 'linked') {
    const parts: ContestLinkedPart[] = typed.parts.map((part) => {
      const challenge = challengeFromSheet(sheet, part, { force: false, hidden: false }, now);
      validateChallengeInput(challenge);
      return { skill: challenge.skill, archetypeModifiers: challenge.archetypeModifiers, conditionModifiers: challenge.conditionModifiers, situationalModifier: challenge.situationalModifier };
    });
    const comparable = (list: ContestLinkedPart[]) => JSON.stringify(list.map(({ skill, archetypeModifiers, situationalModifier }) => [skill.name, archetypeModifiers, situationalModifier]));
    if (current.linked && comparable(current.linked) === comparable(parts)) return null;
    return { type: 'disputeLinked', side, parts };
  }
  if (typed.kind === 'none' || (!current.linked && typed.name.toLowerCase() === current.skill?.name.toLowerCase())) return null;
  if (/\s[+-]/.test(typed.name)) {
    throw new UserError('`+Archetype` and `±N` after a skill are for the parts of a linked roll (`Handgun Handling +Acuity; Driving -10`). For one skill, use the archetypes field and Situational.');
  }
  const chosen = findSkill(sheet, typed.name);
  return { type: 'dispute', side, skill: { name: chosen.name, level: chosen.level }, conditionModifiers: conditionModifiers(sheet, chosen.name, now) };
}

/** The Dispatcher's form becomes a list of actions, applied together or not at all. */
export async function adjustActions(interaction: ComponentInteraction, context: HandlerContext, state: ContestState): Promise<ContestAction[]> {
  const form = readAdjustForm(formText(interaction));
  const actions: ContestAction[] = [];
  for (const side of ['challenger', 'opponent'] as const) {
    const sheet = await operatorOf(context, state, side);
    const dispute = disputeOf(sheet, state, side, form[side].skill, context.now());
    if (dispute) actions.push(dispute);
    const archetypes = archetypeModifiers(sheet, splitNameList(form[side].archetypes));
    const situationalModifier = form[side].situational;
    const current = state[side];
    const unchanged =
      situationalModifier === current.situationalModifier &&
      JSON.stringify(archetypes) === JSON.stringify(current.archetypeModifiers);
    if (!unchanged) actions.push({ type: 'setModifiers', side, archetypeModifiers: archetypes, situationalModifier });
  }
  return actions;
}
