/**
 * What a d100 tactics sheet holds (seed 001 "Attributes"): the seed's attributes (Aim, Will, Tech; Health, Mobility,
 * Armor; Psi, Defense, Dodge, Crit) and custom ones ("a custom one", RULES 2). No skills, archetypes or conditions:
 * `/tactics` reads none of them (a situation is a `modifier` on the roll).
 */
import { SHEET_LIMITS, rangeOf, type SheetRules } from '../../sheet.js';

export const TACTICS_ATTRIBUTES = ['Aim', 'Will', 'Tech', 'Health', 'Mobility', 'Armor', 'Psi', 'Defense', 'Dodge', 'Crit'] as const;

export const D100_TACTICS_SHEET: SheetRules = {
  holds: `attributes: ${TACTICS_ATTRIBUTES.join(', ')} or one of your own`,
  start: 'Set its attributes with `/sheet attribute set` (Aim, Will, Tech, Health, Mobility, Defense…).',
  firstEntries: 'attributes',
  skill: null,
  archetype: null,
  condition: null,
  attribute: {
    known: TACTICS_ATTRIBUTES,
    custom: true,
    describe: `${TACTICS_ATTRIBUTES.join(', ')} or one of your own`,
    range: rangeOf(-SHEET_LIMITS.attributeMagnitude, SHEET_LIMITS.attributeMagnitude),
  },
};
