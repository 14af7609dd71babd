/**
 * Operator sheets (RULES 1.7): what a sheet holds, its limits, and the pure decisions about it
 * (which conditions apply to a skill, which archetypes a roll names, what an import file must look like).
 */
import { UserError } from '../errors.js';
import { Refused } from './refusals.js';
import { checkName, cleanName, closestNames, NAME_LENGTH_MAX, nameKey } from './names.js';
import { SKILL_LEVEL_MAX, SKILL_LEVEL_MIN, type Modifier } from './systems/tactalk/challenge.js';

/**
 * What a sheet may hold, whether built with slash commands or imported from a file: one set of limits for both, so
 * whatever `/sheet export` writes `/sheet import` reads back (the file size follows from these, in sheet-file.ts).
 */
export const SHEET_LIMITS = {
  nameLength: NAME_LENGTH_MAX,
  notesLength: 1000,
  sheetsPerUser: 10,
  npcsPerServer: 100,
  skills: 100,
  archetypes: 25,
  conditions: 25,
  attributes: 30,
  /** An attribute is a rule system's number (Aim 65, STR 4, Health 12); past this is a typo. */
  attributeMagnitude: 1000,
  /** Archetype and condition modifiers are small numbers; past this is a typo. */
  modifierMagnitude: 100,
  /** A condition names each skill at most once, and only skills on its sheet: at most as many as a sheet holds. */
  skillsPerCondition: 100,
  conditionMinutesMax: 60 * 24 * 30,
} as const;

export interface SkillEntry {
  name: string;
  level: number;
}
export interface ArchetypeEntry {
  name: string;
  modifier: number;
}
/** A rule system's attribute: Aim, Will, Defense (seed 001), STR, AGI, WIT, EMP (seed 003)… */
export interface AttributeEntry {
  name: string;
  value: number;
}
export interface ConditionEntry {
  name: string;
  modifier: number;
  /** The skills it applies to; null = every skill. */
  skills: string[] | null;
  expiresAt: Date | null;
}

/**
 * The owner id of NPC sheets, which belong to the server. A sentinel rather than null: the unique index on
 * (guildId, ownerId, nameKey) treats NULLs as distinct, and user ids are numbers, so it never clashes.
 */
export const NPC_OWNER_ID = 'npc';

export interface OperatorSheet {
  id: number;
  guildId: string;
  /** The player's user id; NPC_OWNER_ID for an NPC owned by the server (null only on rows written before NPCs). */
  ownerId: string | null;
  name: string;
  system: string;
  active: boolean;
  notes: string;
  skills: SkillEntry[];
  archetypes: ArchetypeEntry[];
  conditions: ConditionEntry[];
  attributes: AttributeEntry[];
  /** An NPC's picture when it speaks through a channel webhook (`/npc avatar`); absent: Discord's default. */
  avatarUrl?: string;
}

export function isNpc(sheet: Pick<OperatorSheet, 'ownerId'>): boolean {
  return sheet.ownerId === NPC_OWNER_ID;
}

/** Checks a new name for a sheet, skill, archetype, condition or attribute and returns it cleaned (names.ts). */
export function validName(what: string, raw: string): string {
  return checkName(what, raw, SHEET_LIMITS.nameLength);
}

export function validSkillLevel(level: number): number {
  if (!Number.isInteger(level) || level < SKILL_LEVEL_MIN || level > SKILL_LEVEL_MAX) {
    throw new UserError(`A skill level must be a whole number from ${SKILL_LEVEL_MIN} to ${SKILL_LEVEL_MAX}; ${level} is not.`);
  }
  return level;
}

export function validModifier(what: string, modifier: number): number {
  const limit = SHEET_LIMITS.modifierMagnitude;
  if (!Number.isInteger(modifier) || Math.abs(modifier) > limit) {
    throw new UserError(`${what} must be a whole number from -${limit} to +${limit}; ${modifier} is not.`);
  }
  return modifier;
}

function notOnSheet(entry: 'attribute' | 'archetype', typed: string, sheet: OperatorSheet, names: string[]): Refused {
  return new Refused({ kind: 'no-such-entry', sheet: sheet.name, entry, typed: cleanName(typed), suggestions: closestNames(typed, names), hasAny: names.length > 0 });
}

/**
 * The sheet's skill by name, or a refusal that says what would work: the nearest skills with their levels (or the
 * sheet's first ones), adding the skill to the sheet, and `otherwise` (what else the command accepts: `level:`).
 */
export function findSkill(sheet: OperatorSheet, typed: string, otherwise?: string): SkillEntry {
  const key = nameKey(typed);
  const skill = sheet.skills.find((entry) => nameKey(entry.name) === key);
  if (skill) return skill;
  const nearest = closestNames(typed, sheet.skills.map((entry) => entry.name)).map((name) => sheet.skills.find((entry) => entry.name === name)!);
  throw new Refused({
    kind: 'no-such-skill',
    sheet: sheet.name,
    npc: isNpc(sheet),
    typed: cleanName(typed),
    nearest,
    first: sheet.skills.slice(0, 5),
    more: sheet.skills.length > 5,
    otherwise: otherwise ?? null,
  });
}

export function validAttributeValue(value: number): number {
  const limit = SHEET_LIMITS.attributeMagnitude;
  if (!Number.isInteger(value) || Math.abs(value) > limit) {
    throw new UserError(`An attribute must be a whole number from -${limit} to ${limit}; ${value} is not.`);
  }
  return value;
}

export function findAttribute(sheet: OperatorSheet, typed: string): AttributeEntry {
  const key = nameKey(typed);
  const attribute = sheet.attributes.find((entry) => nameKey(entry.name) === key);
  if (!attribute) throw notOnSheet('attribute', typed, sheet, sheet.attributes.map((entry) => entry.name));
  return attribute;
}

export function findArchetype(sheet: OperatorSheet, typed: string): ArchetypeEntry {
  const key = nameKey(typed);
  const archetype = sheet.archetypes.find((entry) => nameKey(entry.name) === key);
  if (!archetype) throw notOnSheet('archetype', typed, sheet, sheet.archetypes.map((entry) => entry.name));
  return archetype;
}

/** "Acuity, Dexterity" → the sheet's modifiers, each named once. */
export function archetypeModifiers(sheet: OperatorSheet, typedNames: string[]): Modifier[] {
  const seen = new Set<string>();
  const modifiers: Modifier[] = [];
  for (const typed of typedNames) {
    const archetype = findArchetype(sheet, typed);
    const key = nameKey(archetype.name);
    if (seen.has(key)) throw new UserError(`The archetype **${archetype.name}** is named twice; each adds once.`);
    seen.add(key);
    modifiers.push({ name: archetype.name, value: archetype.modifier });
  }
  return modifiers;
}

export function splitNameList(list: string | null | undefined): string[] {
  return (list ?? '').split(',').map(cleanName).filter((name) => name.length > 0);
}

/**
 * The skills a new condition applies to, from the list the user typed: each must be on the sheet, and one named
 * twice counts once, so a condition never names more than the sheet's skills. None listed: every skill (null).
 */
export function conditionSkills(sheet: OperatorSheet, list: string | null | undefined): string[] | null {
  const typed = splitNameList(list);
  if (typed.length === 0) return null;
  const skills = new Map<string, string>();
  for (const name of typed) {
    const skill = findSkill(sheet, name).name;
    skills.set(nameKey(skill), skill);
  }
  return [...skills.values()];
}

export function isConditionActive(condition: ConditionEntry, now: Date): boolean {
  return condition.expiresAt === null || condition.expiresAt.getTime() > now.getTime();
}

/** The sheet's active conditions that apply to this skill, as terms of the sum. */
export function conditionModifiers(sheet: OperatorSheet, skillName: string, now: Date): Modifier[] {
  const key = nameKey(skillName);
  return sheet.conditions
    .filter((condition) => isConditionActive(condition, now))
    .filter((condition) => condition.skills === null || condition.skills.some((skill) => nameKey(skill) === key))
    .map((condition) => ({ name: condition.name, value: condition.modifier }));
}

/** The four kinds of entry a sheet holds, as the entry subcommands and the sheet file name them. */
export type EntryKind = 'skill' | 'archetype' | 'condition' | 'attribute';

/** What one kind of entry may be on a sheet of a system: which names, and the range of the number. */
export interface EntryRule {
  /** The names the system reads, offered while typing; with `custom` false, the only ones it accepts. */
  known: readonly string[];
  /** Whether other names are accepted too (a name `accepts` when given). */
  custom: boolean;
  /** For custom names of a set form (a die-code sheet's `<name> track`); none: any name. */
  accepts?: (name: string) => boolean;
  /** How the accepted names are described in a refusal ("the thirteen skills: Force, Melee, …"). */
  describe: string;
  /** The range of the number (a skill's level, an attribute's value, a modifier), per name when it differs. */
  range: (name: string) => { min: number; max: number };
}

/**
 * What a sheet of one rule system holds (RULES 6.1: sheets carry their system), defined in the system's own folder
 * (`src/engine/systems/<id>/sheet.ts`) and checked when an entry is set or a sheet imported. A kind the system has
 * no use for is null: set, it is refused, naming what the system holds instead.
 */
export interface SheetRules {
  /** What a sheet of the system holds, in a sentence for a refusal: "A d6 pools sheet holds …". */
  holds: string;
  /** Said when a sheet is made: what to add first. */
  start: string;
  /** What a player adds first, for the hint of an autocomplete with no sheet: "skills", "attributes". */
  firstEntries: string;
  skill: EntryRule | null;
  archetype: EntryRule | null;
  condition: EntryRule | null;
  attribute: EntryRule | null;
}

/** A number's range, the same for every name. */
export function rangeOf(min: number, max: number): (name: string) => { min: number; max: number } {
  return () => ({ min, max });
}

/**
 * Why an entry does not fit a sheet of this system, in a sentence (null: it fits). `systemLabel` is the system's
 * display name. The value is checked only when given (a condition's name alone, a sheet shown).
 */
export function entryProblem(rules: SheetRules, systemLabel: string, kind: EntryKind, name: string, value?: number): string | null {
  const rule = rules[kind];
  if (!rule) return `a ${systemLabel} sheet holds no ${kind}s (${rules.holds})`;
  const key = nameKey(name);
  const known = rule.known.find((entry) => nameKey(entry) === key);
  if (!known && (!rule.custom || (rule.accepts && !rule.accepts(name)))) {
    return `**${cleanName(name)}** is not ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} of a ${systemLabel} sheet, which holds ${rule.describe}`;
  }
  if (value !== undefined) {
    const { min, max } = rule.range(known ?? name);
    if (!Number.isInteger(value) || value < min || value > max) {
      const what = kind === 'skill' ? 'a skill level' : kind === 'attribute' ? 'a value' : 'a modifier';
      return `${known ?? cleanName(name)} takes ${what} from ${min} to ${max} on a ${systemLabel} sheet, not ${value}`;
    }
  }
  return null;
}

/** The names of a sheet's entries that do not fit its system (kept, shown marked: nothing is ever dropped). */
export function misfits(sheet: OperatorSheet, rules: SheetRules, systemLabel: string): Set<string> {
  const out = new Set<string>();
  const mark = (kind: EntryKind, name: string, value?: number) => {
    if (entryProblem(rules, systemLabel, kind, name, value) !== null) out.add(`${kind}:${nameKey(name)}`);
  };
  for (const skill of sheet.skills) mark('skill', skill.name, skill.level);
  for (const archetype of sheet.archetypes) mark('archetype', archetype.name, archetype.modifier);
  for (const condition of sheet.conditions) mark('condition', condition.name, condition.modifier);
  for (const attribute of sheet.attributes) mark('attribute', attribute.name, attribute.value);
  return out;
}

/** The key `misfits` marks an entry with. */
export function misfitKey(kind: EntryKind, name: string): string {
  return `${kind}:${nameKey(name)}`;
}
