/** What a Tac Talk Operator sheet holds (RULES 1.7): skills 0–100, archetype modifiers, conditions; no attributes. */
import { SHEET_LIMITS, rangeOf, type SheetRules } from '../../sheet.js';
import { SKILL_LEVEL_MAX, SKILL_LEVEL_MIN } from './challenge.js';

const modifiers = rangeOf(-SHEET_LIMITS.modifierMagnitude, SHEET_LIMITS.modifierMagnitude);

export const TACTALK_SHEET: SheetRules = {
  holds: `skills ${SKILL_LEVEL_MIN}–${SKILL_LEVEL_MAX}, archetype modifiers and conditions`,
  start: 'Add skills with `/sheet skill set` (0–100) and archetype modifiers with `/sheet archetype set`.',
  firstEntries: 'skills',
  skill: { known: [], custom: true, describe: `skills of any name, ${SKILL_LEVEL_MIN}–${SKILL_LEVEL_MAX}`, range: rangeOf(SKILL_LEVEL_MIN, SKILL_LEVEL_MAX) },
  archetype: { known: [], custom: true, describe: 'archetypes of any name', range: modifiers },
  condition: { known: [], custom: true, describe: 'conditions of any name', range: modifiers },
  attribute: null,
};
