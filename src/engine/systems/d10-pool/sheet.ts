/**
 * What a d10 pools sheet holds (seed 004): skills and attributes of any name, each a number of d10s (the seed's
 * "low attributes" and skill levels make the pool; an advanced roll adds or subtracts a secondary skill's level),
 * and conditions. `/d10` rolls them by name (`dice:Pistol`), or a number of dice given on the roll.
 */
import { UserError } from '../../../errors.js';
import { closestNames, cleanName, nameKey } from '../../names.js';
import { rangeOf, type OperatorSheet, type SheetRules } from '../../sheet.js';
import { POOL_DICE_MAX, type SheetEntryRef } from './pool.js';

export const D10_POOL_SHEET: SheetRules = {
  holds: `skills and attributes of any name (0–${POOL_DICE_MAX} dice) and conditions`,
  start: `Add its skills and attributes with \`/sheet skill set\` and \`/sheet attribute set\` (0–${POOL_DICE_MAX} dice); \`/d10 roll dice:<skill>\` rolls them by name.`,
  firstEntries: 'skills',
  skill: { known: [], custom: true, describe: `skills of any name, 0–${POOL_DICE_MAX} dice`, range: rangeOf(0, POOL_DICE_MAX) },
  archetype: null,
  condition: { known: [], custom: true, describe: 'conditions of any name', range: rangeOf(-100, 100) },
  attribute: { known: [], custom: true, describe: `attributes of any name, 0–${POOL_DICE_MAX}`, range: rangeOf(0, POOL_DICE_MAX) },
};

/** A number typed in a dice or level option: a whole number, signs allowed (`-2`, `+3`). */
const WHOLE = /^[+-]?\d{1,6}$/;

/** What a dice or level option says: a number given outright, or the name of a skill or attribute of the sheet. */
export function numberOrName(text: string): { value: number } | { name: string } {
  const trimmed = cleanName(text);
  return WHOLE.test(trimmed) ? { value: Number(trimmed) } : { name: trimmed };
}

/** The skills and the attributes of a sheet, each with its number: skills first, as a name is looked up. */
export function poolEntries(sheet: OperatorSheet): Array<SheetEntryRef & { value: number }> {
  return [
    ...sheet.skills.map((skill) => ({ name: skill.name, kind: 'skill' as const, value: skill.level })),
    ...sheet.attributes.map((attribute) => ({ name: attribute.name, kind: 'attribute' as const, value: attribute.value })),
  ];
}

/**
 * A skill or attribute of the sheet by name (case and spaces aside; a skill first when an attribute has the same
 * name) and its number. Not on the sheet: a refusal naming the nearest entries, and that a number works too.
 * `what` names the option ("dice", "the secondary skill").
 */
export function sheetEntry(sheet: OperatorSheet, typed: string, what: string): { from: SheetEntryRef; value: number } {
  const entries = poolEntries(sheet);
  const key = nameKey(typed);
  const found = entries.find((entry) => nameKey(entry.name) === key);
  if (found) return { from: { name: found.name, kind: found.kind }, value: found.value };
  const shown = `**${cleanName(typed).slice(0, 64)}**`;
  const nearest = closestNames(typed, entries.map((entry) => entry.name));
  const listed = (names: string[]) => names.map((name) => `${name} ${entries.find((entry) => entry.name === name)!.value}`).join(', ');
  const hint =
    nearest.length > 0
      ? ` Did you mean ${listed(nearest)}?`
      : entries.length > 0
        ? ` It has ${listed(entries.slice(0, 5).map((entry) => entry.name))}${entries.length > 5 ? ', …' : ''}.`
        : ' It has no skills or attributes yet.';
  throw new UserError(`${cleanName(sheet.name)} has no skill or attribute named ${shown} for ${what}.${hint} Or give ${what} as a number.`);
}
