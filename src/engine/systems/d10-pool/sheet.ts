/**
 * What a d10 pools sheet holds (seed 004): skills and attributes of any name, each a number of d10s (the seed's
 * "low attributes" and skill levels make the pool; an advanced roll adds or subtracts a secondary skill's level),
 * and conditions. `/d10` takes its dice on the roll, so the sheet is the table's record.
 */
import { rangeOf, type SheetRules } from '../../sheet.js';
import { POOL_DICE_MAX } from './pool.js';

export const D10_POOL_SHEET: SheetRules = {
  holds: `skills and attributes of any name (0–${POOL_DICE_MAX} dice) and conditions`,
  start: `Add its skills and attributes with \`/sheet skill set\` and \`/sheet attribute set\` (0–${POOL_DICE_MAX} dice); \`/d10\` takes the dice on each roll.`,
  firstEntries: 'skills',
  skill: { known: [], custom: true, describe: `skills of any name, 0–${POOL_DICE_MAX} dice`, range: rangeOf(0, POOL_DICE_MAX) },
  archetype: null,
  condition: { known: [], custom: true, describe: 'conditions of any name', range: rangeOf(-100, 100) },
  attribute: { known: [], custom: true, describe: `attributes of any name, 0–${POOL_DICE_MAX}`, range: rangeOf(0, POOL_DICE_MAX) },
};
