/**
 * A character's abilities on a die-code sheet (seed 002: "the rank of the opposing ability", "their skill and
 * specialization dice"): each a rank, a die code from 1D up. The sheet keeps a rank as a skill whose level is the
 * rank's fixed value, 3 × dice + pips, which is the seed's own rank table read the other way: its ranks step
 * 1D, 1D+1, 1D+2, 2D … with pips 0–2, so each fixed value (1D → 3 … 6D+2 → 20) is exactly one rank.
 */
import { UserError } from '../../../errors.js';
import { cleanName, closestNames, nameKey } from '../../names.js';
import type { OperatorSheet } from '../../sheet.js';
import { DIE_CODE_DICE_MAX, fixedResistance, formatDieCode, parseDieCode, type DieCode } from './die-code.js';

/** A rank's pips: 0, 1 or 2 (3D+2 is followed by 4D). */
export const RANK_PIPS_MAX = 2;
/** The lowest rank, 1D (fixed value 3), and the highest, 30D+2 (92). */
export const RANK_VALUE_MIN = 3;
export const RANK_VALUE_MAX = 3 * DIE_CODE_DICE_MAX + RANK_PIPS_MAX;

/** The rank a fixed value stands for: 11 → 3D+2. */
export function rankOfValue(value: number): DieCode {
  if (!Number.isInteger(value) || value < RANK_VALUE_MIN || value > RANK_VALUE_MAX) {
    throw new UserError(`A rank's fixed value is a whole number from ${RANK_VALUE_MIN} (1D) to ${RANK_VALUE_MAX} (30D+2); ${value} is not.`);
  }
  return { dice: Math.floor(value / 3), pips: value % 3 };
}

/** The fixed value a rank is kept as: 3D+2 → 11. A die code with pips outside 0–2 is no rank of the seed's table. */
export function valueOfRank(code: DieCode): number {
  if (code.pips < 0 || code.pips > RANK_PIPS_MAX) {
    const next = formatDieCode(rankOfValue(Math.min(RANK_VALUE_MAX, Math.max(RANK_VALUE_MIN, fixedResistance(code)))));
    throw new UserError(
      `A rank has 0, 1 or 2 pips (the seed's ranks step 3D, 3D+1, 3D+2, then 4D), so ${formatDieCode(code)} is not one; the rank of the same fixed value is ${next}.`,
    );
  }
  return fixedResistance(code);
}

/** An ability as the sheet holds it: its name and its rank. */
export interface Ability {
  name: string;
  code: DieCode;
}

/** The sheet's abilities: every skill whose level is a rank's fixed value (others do not fit the sheet and are skipped). */
export function abilitiesOf(sheet: OperatorSheet): Ability[] {
  return sheet.skills
    .filter((skill) => Number.isInteger(skill.level) && skill.level >= RANK_VALUE_MIN && skill.level <= RANK_VALUE_MAX)
    .map((skill) => ({ name: skill.name, code: rankOfValue(skill.level) }));
}

/** The ability of the sheet by name (case and spaces aside), or a refusal naming the nearest ones. `what` names the option. */
export function findAbility(sheet: OperatorSheet, typed: string, what: string): Ability {
  const abilities = abilitiesOf(sheet);
  const key = nameKey(typed);
  const found = abilities.find((ability) => nameKey(ability.name) === key);
  if (found) return found;
  const listed = (names: string[]) => names.map((name) => `${name} ${formatDieCode(abilities.find((ability) => ability.name === name)!.code)}`).join(', ');
  const nearest = closestNames(typed, abilities.map((ability) => ability.name));
  const hint =
    nearest.length > 0
      ? ` Did you mean ${listed(nearest)}?`
      : abilities.length > 0
        ? ` It has ${listed(abilities.slice(0, 5).map((ability) => ability.name))}${abilities.length > 5 ? ', …' : ''}.`
        : ' It has no abilities yet.';
  throw new UserError(`${cleanName(sheet.name)} has no ability named **${cleanName(typed).slice(0, 64)}** for ${what}.${hint} Or give ${what} as a die code, e.g. \`3D+2\`.`);
}

/** Whether text reads as an attempt at a die code (`3D+2`, `3d6`, `31D`) rather than a name. */
export function looksLikeDieCode(text: string): boolean {
  return /^\s*\d+\s*d(\s*[+-]?\s*\d*)?\s*$/i.test(text);
}

/**
 * A die code as typed, or the ability of `sheet` it names (null sheet: none to read from). A die code that does not
 * read (`3d6`, `31D`) is refused as such, never looked up as a name; a name without a sheet is refused by `noSheet`.
 */
export function dieCodeOrAbility(text: string, sheet: OperatorSheet | null, what: string, noSheet: (name: string, notACode: string) => never): { code: DieCode; ability?: string } {
  try {
    return { code: parseDieCode(text, what) };
  } catch (error) {
    if (!(error instanceof UserError) || looksLikeDieCode(text)) throw error;
    const name = cleanName(text);
    if (!sheet) return noSheet(name, error.message);
    const ability = findAbility(sheet, name, what);
    return { code: ability.code, ability: ability.name };
  }
}
