/**
 * The contest's forms: the Accept form (the challenged player's terms, role and skill), the skill search, and the
 * Dispatcher's form; each opened by a press, and its submit read into the actions it asks for.
 */
import type { Responder } from '../../src/discord/responder.js';
import type { ComponentInteraction, HandlerContext } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { archetypeModifiers, conditionModifiers, findSkill, splitNameList, type OperatorSheet } from '../../src/engine/sheet.js';
import { ContestRefusal, type ContestAction, type ContestLinkedPart, type ContestSideName, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import { validateChallengeInput } from '../../src/engine/systems/tactalk/challenge.js';
import { challengeFromSheet } from '../../src/engine/systems/tactalk/from-sheet.js';
import { parseLinkedRoll } from '../../src/engine/systems/tactalk/linked-notation.js';
import type { acceptModal, ContestControl } from '../../src/views/contest.js';

/** The buttons that answer with a form: accept (the opponent's stakes), adjust, and the skill menu's search. */
export const mayOpenForm = (control: ContestControl): boolean => control.action === 'accept' || control.action === 'adjust' || control.action === 'skill';

export async function openForm(interaction: ComponentInteraction, answer: Responder, modal: ReturnType<typeof acceptModal>): Promise<null> {
  if (interaction.isModalSubmit()) throw new UserError('A form cannot open another form.');
  await answer.showModal(modal);
  return null;
}

/** A form's field as text: a text input's value, or a menu's picks joined by commas; empty when the form has no such field. */
export function field(interaction: ComponentInteraction, name: string): string {
  if (!interaction.isModalSubmit()) return '';
  const data = interaction.fields.fields.get(name);
  if (!data) return '';
  if ('value' in data && typeof data.value === 'string') return data.value;
  if ('values' in data && Array.isArray(data.values)) return data.values.join(', ');
  return '';
}

/** Everything a refused form held, shown back to its sender (a sent form cannot be reopened as it was). */
export function typedBack(interaction: ComponentInteraction): string {
  if (!interaction.isModalSubmit()) return '';
  const lines = [...interaction.fields.fields.keys()].map((name) => `- ${name}: ${field(interaction, name) ? `\`${field(interaction, name).replace(/`/g, "'").slice(0, 500)}\`` : '(empty)'}`);
  return lines.length ? `\nWhat you typed:\n${lines.join('\n')}` : '';
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

/**
 * What the Dispatcher typed as a side's skill: one skill, or a linked roll (RULES 1.3), its skills separated by `;`,
 * each with its own `+Archetype` and `±N` terms. Null when it is the side's roll as it is (no dispute).
 */
function disputeOf(sheet: OperatorSheet, state: ContestState, side: ContestSideName, typed: string, now: Date): ContestAction | null {
  const current = state[side];
  if (/[;\n]/.test(typed)) {
    // The CL of every part is the other side's aptitude (RULES 1.6), never one the Dispatcher names.
    if (/\bvs\b/i.test(typed)) throw new UserError('In a contest each part’s Challenge Level is the other side’s aptitude: leave out `vs`.');
    if (typed.split(/[;\n]/).filter((part) => part.trim()).length < 2) {
      throw new UserError('A linked roll needs at least two skills separated by `;`, e.g. `Handgun Handling +Acuity; Driving`.');
    }
    const parts: ContestLinkedPart[] = parseLinkedRoll(typed, 0).map((part) => {
      const challenge = challengeFromSheet(sheet, part, { force: false, hidden: false }, now);
      validateChallengeInput(challenge);
      return { skill: challenge.skill, archetypeModifiers: challenge.archetypeModifiers, conditionModifiers: challenge.conditionModifiers, situationalModifier: challenge.situationalModifier };
    });
    const comparable = (list: ContestLinkedPart[]) => JSON.stringify(list.map(({ skill, archetypeModifiers, situationalModifier }) => [skill.name, archetypeModifiers, situationalModifier]));
    if (current.linked && comparable(current.linked) === comparable(parts)) return null;
    return { type: 'disputeLinked', side, parts };
  }
  if (!typed || (!current.linked && typed.toLowerCase() === current.skill?.name.toLowerCase())) return null;
  if (/\s[+-]/.test(typed)) {
    throw new UserError('`+Archetype` and `±N` after a skill are for the parts of a linked roll (`Handgun Handling +Acuity; Driving -10`). For one skill, use the archetypes field and Situational.');
  }
  const chosen = findSkill(sheet, typed);
  return { type: 'dispute', side, skill: { name: chosen.name, level: chosen.level }, conditionModifiers: conditionModifiers(sheet, chosen.name, now) };
}

/** The Dispatcher's form becomes a list of actions, applied together or not at all. */
export async function adjustActions(interaction: ComponentInteraction, context: HandlerContext, state: ContestState): Promise<ContestAction[]> {
  const actions: ContestAction[] = [];
  const modifiersText = field(interaction, 'modifiers').trim();
  const modifiers = modifiersText.split(',').map((part) => part.trim().replace('−', '-'));
  if (modifiers.length !== 2 || modifiers.some((part) => !/^[+-]?\d{1,3}$/.test(part))) {
    throw new UserError('Situational modifiers: write two whole numbers, the challenger’s then the opponent’s, e.g. `0, -10`.');
  }
  for (const [index, side] of (['challenger', 'opponent'] as const).entries()) {
    const sheet = await operatorOf(context, state, side);
    const dispute = disputeOf(sheet, state, side, field(interaction, `${side}_skill`).trim(), context.now());
    if (dispute) actions.push(dispute);
    const archetypes = archetypeModifiers(sheet, splitNameList(field(interaction, `${side}_archetypes`)));
    const situationalModifier = Number(modifiers[index]);
    const current = state[side];
    const unchanged =
      situationalModifier === current.situationalModifier &&
      JSON.stringify(archetypes) === JSON.stringify(current.archetypeModifiers);
    if (!unchanged) actions.push({ type: 'setModifiers', side, archetypeModifiers: archetypes, situationalModifier });
  }
  return actions;
}
