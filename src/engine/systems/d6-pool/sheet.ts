/**
 * What a d6 pools sheet holds (seed 003): the thirteen core skills at 0–5 (Unranked … Elite), the four attributes
 * STR, AGI, WIT, EMP (0–10: the seed gives no range; the pool's own limit), and conditions (a push's costs, −1 each).
 */
import { rangeOf, type SheetRules } from '../../sheet.js';
import { ATTRIBUTE_MAX, D6_SKILLS, MODIFIER_LIMIT, SKILL_LEVEL_MAX } from './pool.js';

export const D6_ATTRIBUTES = ['STR', 'AGI', 'WIT', 'EMP'] as const;

export const D6_POOL_SHEET: SheetRules = {
  holds: `the thirteen skills (0–${SKILL_LEVEL_MAX}), the attributes ${D6_ATTRIBUTES.join(', ')} (0–${ATTRIBUTE_MAX}) and conditions`,
  start: `Set ${D6_ATTRIBUTES.join(', ')} with \`/sheet attribute set\` (0–${ATTRIBUTE_MAX}), then its skills with \`/sheet skill set\` (0–${SKILL_LEVEL_MAX}).`,
  firstEntries: 'attributes and skills',
  skill: {
    known: D6_SKILLS.map((skill) => skill.name),
    custom: false,
    describe: `the thirteen skills at 0–${SKILL_LEVEL_MAX}: ${D6_SKILLS.map((skill) => skill.name).join(', ')}`,
    range: rangeOf(0, SKILL_LEVEL_MAX),
  },
  archetype: null,
  condition: { known: [], custom: true, describe: 'conditions of any name', range: rangeOf(-MODIFIER_LIMIT, MODIFIER_LIMIT) },
  attribute: { known: D6_ATTRIBUTES, custom: false, describe: `${D6_ATTRIBUTES.join(', ')} at 0–${ATTRIBUTE_MAX}`, range: rangeOf(0, ATTRIBUTE_MAX) },
};
