/**
 * The contest's forms (modals): the Accept form, the skill search and the Dispatcher's form, each with its field ids,
 * its builder and its reader (`readAcceptForm`, `readSkillSearchForm`, `readAdjustForm`), written side by side so a
 * field's id is named once.
 */
import { ActionRowBuilder, LabelBuilder, ModalBuilder, StringSelectMenuBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import { UserError } from '../../errors.js';
import type { SkillEntry } from '../../engine/sheet.js';
import { CONTEST_LIMITS, type ContestLinkedPart, type ContestRole, type ContestSide, type ContestSideName, type ContestState } from '../../engine/systems/tactalk/contest.js';
import { parseLinkedRoll, type LinkedRollPart } from '../../engine/systems/tactalk/linked-notation.js';
import { signedCompact } from '../format.js';
import type { FormText } from '../messages.js';
import { DISCORD_LIMITS, truncate } from '../limits.js';
import { contestIds } from './ids.js';
import { shortName } from './view.js';


/** The fields of the Accept form, by id: `acceptModal` writes them, `readAcceptForm` reads them. */
const ACCEPT_FIELDS = { stakes: 'stakes', role: 'role', skill: 'skill', archetypes: 'archetypes' } as const;

/** The Accept form as sent: the skill and archetypes as typed or picked, for the sheet to check. */
export interface AcceptForm {
  stakes: string;
  role: ContestRole;
  skill: string;
  archetypes: string;
}

export function readAcceptForm(text: FormText): AcceptForm {
  return { stakes: text(ACCEPT_FIELDS.stakes), role: readRole(text(ACCEPT_FIELDS.role)), skill: text(ACCEPT_FIELDS.skill), archetypes: text(ACCEPT_FIELDS.archetypes) };
}

/** The sheet the challenged player accepts with: its skills (those not rolled yet in this contest) and archetypes. */
export interface AcceptSheet {
  name: string;
  skills: SkillEntry[];
  archetypes: { name: string }[];
}

/**
 * The Accept form: everything the challenged player chooses at once, their stakes, their role (secret until the
 * roll) and their skill. Role and skill are menus; a sheet with more skills than a menu holds gets a text field,
 * checked against the sheet (the nearest names are suggested). The archetypes they add are a comma list.
 */
export function acceptModal(id: number, sheet: AcceptSheet) {
  const stakes = formLabel('If you win, what happens to the challenger?').setTextInputComponent(
    new TextInputBuilder().setCustomId(ACCEPT_FIELDS.stakes).setStyle(TextInputStyle.Paragraph).setRequired(true).setMaxLength(CONTEST_LIMITS.stakesLength),
  );
  return new ModalBuilder()
    .setCustomId(contestIds.encode({ action: 'acceptform', contestId: id }))
    .setTitle(truncate(`Accept contest #${id} as ${sheet.name}`, DISCORD_LIMITS.formTitle))
    .addLabelComponents(
      stakes,
      roleField(ACCEPT_FIELDS.role),
      skillField(ACCEPT_FIELDS.skill, sheet, 'Its aptitude is the challenger’s Challenge Level.'),
      archetypesField(ACCEPT_FIELDS.archetypes, sheet, 'Each once; a Dispatcher may still adjust.'),
    );
}

// ---- a contest side's choices, as the Accept form and the Challenge form (src/views/menus.ts) both ask them ----

/** A form field's label, and the description under it, cut to Discord's sizes. */
export function formLabel(text: string, description?: string): LabelBuilder {
  const built = new LabelBuilder().setLabel(truncate(text, DISCORD_LIMITS.formLabel));
  return description ? built.setDescription(truncate(description, DISCORD_LIMITS.formLabelDescription)) : built;
}

/** Attacker or Defender, secret until the roll. */
export function roleField(customId: string): LabelBuilder {
  return formLabel('Your role', 'Secret until the dice roll. Both defenders: no contest.').setStringSelectMenuComponent(
    new StringSelectMenuBuilder()
      .setCustomId(customId)
      .setPlaceholder('Attacker or Defender')
      .setRequired(true)
      .addOptions(
        { label: 'Attacker', value: 'attacker', description: 'You act: if both succeed, the defender wins' },
        { label: 'Defender', value: 'defender', description: 'You resist: if both succeed, you win; both fail: nothing changes' },
      ),
  );
}

/** The role as the form sent it: refused unless one of the two. */
export function readRole(typed: string): ContestRole {
  const role = typed.trim().toLowerCase();
  if (role !== 'attacker' && role !== 'defender') throw new UserError('Pick your role: **Attacker** or **Defender**.');
  return role;
}

/** The side's skill: a menu of the sheet's skills, or a text field past a menu's size (checked against the sheet). */
export function skillField(customId: string, sheet: AcceptSheet, description: string): LabelBuilder {
  const skillLabel = formLabel(`Your skill (${sheet.name})`, description);
  const options = sheet.skills.map((skill) => ({ label: truncate(`${skill.name} (${skill.level})`, DISCORD_LIMITS.optionLabel), value: truncate(skill.name, DISCORD_LIMITS.optionValue) }));
  if (options.length > 0 && options.length <= DISCORD_LIMITS.selectOptions) {
    return skillLabel.setStringSelectMenuComponent(new StringSelectMenuBuilder().setCustomId(customId).setPlaceholder('Pick your skill').setRequired(true).addOptions(options));
  }
  const example = sheet.skills.length ? `As on your sheet, e.g. ${sheet.skills.slice(0, 3).map((s) => s.name).join(', ')}` : 'Your sheet has no skills yet';
  return skillLabel.setTextInputComponent(
    new TextInputBuilder().setCustomId(customId).setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(64).setPlaceholder(truncate(example, DISCORD_LIMITS.placeholder)),
  );
}

/** The archetypes the side adds, a comma list (optional). */
export function archetypesField(customId: string, sheet: Pick<AcceptSheet, 'archetypes'>, description: string): LabelBuilder {
  return formLabel('Archetypes you add (comma list, optional)', description).setTextInputComponent(
    new TextInputBuilder()
      .setCustomId(customId)
      .setStyle(TextInputStyle.Short)
      .setRequired(false)
      .setMaxLength(200)
      .setPlaceholder(truncate(sheet.archetypes.length ? sheet.archetypes.map((a) => a.name).join(', ') : 'Your sheet has no archetypes', DISCORD_LIMITS.placeholder)),
  );
}

/** The skill search form's one field: a skill's name as typed, for the side's sheet to find. */
const SEARCH_FIELDS = { skill: 'skill' } as const;

export function readSkillSearchForm(text: FormText): { skill: string } {
  return { skill: text(SEARCH_FIELDS.skill) };
}

export function skillSearchModal(id: number, side: ContestSideName) {
  return new ModalBuilder()
    .setCustomId(contestIds.encode({ action: 'searchform', contestId: id, side }))
    .setTitle('Pick a skill by name')
    .addComponents(
      new ActionRowBuilder<TextInputBuilder>().addComponents(
        new TextInputBuilder().setCustomId(SEARCH_FIELDS.skill).setLabel('Skill name (as on your sheet)').setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(64),
      ),
    );
}

/** A linked side as the Dispatcher's form writes it: `Handgun Handling +Acuity; Driving -10`. */
export function linkedNotation(parts: ContestLinkedPart[]): string {
  return parts
    .map((part) => [part.skill.name, ...part.archetypeModifiers.map((modifier) => `+${modifier.name}`), ...(part.situationalModifier ? [signedCompact(part.situationalModifier).replace('−', '-')] : [])].join(' '))
    .join('; ');
}

/**
 * The Dispatcher's form: both skills (or linked rolls), both sides' archetypes, both situational modifiers, prefilled.
 * Each field's label says plainly whose it is ("Kat's skill"); how to fill it is the label's description.
 */
export function adjustModal(id: number, state: ContestState) {
  const input = (customId: string, label: string, description: string, value: string, options: { required?: boolean; placeholder?: string; maxLength?: number } = {}) => {
    const text = new TextInputBuilder()
      .setCustomId(customId)
      .setStyle(TextInputStyle.Short)
      .setRequired(options.required ?? false)
      .setMaxLength(options.maxLength ?? 200);
    if (options.placeholder) text.setPlaceholder(truncate(options.placeholder, DISCORD_LIMITS.placeholder));
    if (value) text.setValue(value);
    return formLabel(label, description).setTextInputComponent(text);
  };
  const c = shortName(state, 'challenger');
  const o = shortName(state, 'opponent');
  const names = (side: ContestSideName) => state[side].archetypeModifiers.map((modifier) => modifier.name).join(', ');
  const skills = (side: ContestSideName) => {
    const own: ContestSide = state[side];
    return own.linked ? linkedNotation(own.linked) : (own.skill?.name ?? '');
  };
  // One skill, or a linked roll: its skills separated by `;`, each with its own +Archetype and ±N terms.
  const skillHelp = 'One skill, or several joined with ; for a linked roll (each may add +Archetype and ±N).';
  const skillExample = 'e.g. Handgun Handling +Acuity; Driving -10';
  const skillLength = 600;
  const archetypeHelp = 'A comma list, e.g. Acuity, Grit. Added to every part of a linked roll.';
  return new ModalBuilder()
    .setCustomId(contestIds.encode({ action: 'adjustform', contestId: id }))
    .setTitle(`Dispatcher: contest #${id}`)
    .addLabelComponents(
      input(ADJUST_FIELDS.skill.challenger, `${c}'s skill`, skillHelp, skills('challenger'), { placeholder: skillExample, maxLength: skillLength }),
      input(ADJUST_FIELDS.skill.opponent, `${o}'s skill`, skillHelp, skills('opponent'), { placeholder: skillExample, maxLength: skillLength }),
      input(ADJUST_FIELDS.archetypes.challenger, `${c}'s archetypes`, archetypeHelp, names('challenger')),
      input(ADJUST_FIELDS.archetypes.opponent, `${o}'s archetypes`, archetypeHelp, names('opponent')),
      input(
        ADJUST_FIELDS.modifiers,
        'Situational modifiers',
        `${c}'s, then ${o}'s, as two whole numbers, e.g. 0, -10`,
        `${signedCompact(state.challenger.situationalModifier).replace('−', '-')}, ${signedCompact(state.opponent.situationalModifier).replace('−', '-')}`,
        { required: true },
      ),
    );
}

/** The fields of the Dispatcher's form, by id: `adjustModal` writes them, `readAdjustForm` reads them. */
const ADJUST_FIELDS = {
  skill: { challenger: 'challenger_skill', opponent: 'opponent_skill' },
  archetypes: { challenger: 'challenger_archetypes', opponent: 'opponent_archetypes' },
  modifiers: 'modifiers',
} as const;

/** What the Dispatcher typed as a side's skill: nothing, one skill's name, or a linked roll's parts (RULES 1.3). */
export type AdjustedSkill = { kind: 'none' } | { kind: 'one'; name: string } | { kind: 'linked'; parts: LinkedRollPart[] };

/** The Dispatcher's form as sent: each side's skill, archetype names and situational modifier, for the sheets to check. */
export type AdjustForm = Record<ContestSideName, { skill: AdjustedSkill; archetypes: string; situational: number }>;

/**
 * A side's skill field: one skill, or a linked roll, its skills separated by `;`, each with its own `+Archetype` and
 * `±N` terms. The CL of every part is the other side's aptitude (RULES 1.6), never one the Dispatcher names.
 */
function adjustedSkill(typed: string): AdjustedSkill {
  if (/[;\n]/.test(typed)) {
    if (/\bvs\b/i.test(typed)) throw new UserError('In a contest each part’s Challenge Level is the other side’s aptitude: leave out `vs`.');
    if (typed.split(/[;\n]/).filter((part) => part.trim()).length < 2) {
      throw new UserError('A linked roll needs at least two skills separated by `;`, e.g. `Handgun Handling +Acuity; Driving`.');
    }
    return { kind: 'linked', parts: parseLinkedRoll(typed, 0) };
  }
  if (!typed) return { kind: 'none' };
  return { kind: 'one', name: typed };
}

export function readAdjustForm(text: FormText): AdjustForm {
  const modifiers = text(ADJUST_FIELDS.modifiers).trim().split(',').map((part) => part.trim().replace('−', '-'));
  if (modifiers.length !== 2 || modifiers.some((part) => !/^[+-]?\d{1,3}$/.test(part))) {
    throw new UserError('Situational modifiers: write two whole numbers, the challenger’s then the opponent’s, e.g. `0, -10`.');
  }
  const side = (name: ContestSideName, index: number) => ({
    skill: adjustedSkill(text(ADJUST_FIELDS.skill[name]).trim()),
    archetypes: text(ADJUST_FIELDS.archetypes[name]),
    situational: Number(modifiers[index]),
  });
  return { challenger: side('challenger', 0), opponent: side('opponent', 1) };
}
