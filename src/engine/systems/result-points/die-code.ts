/**
 * Die codes (RULES 3, seed 002): `ND+P` rolls N six-sided dice and adds P pips. Pure: text in, numbers out.
 */
import { z } from 'zod';
import { UserError } from '../../../errors.js';
import type { Rng } from '../../rng.js';

export const DIE_CODE_DICE_MAX = 30;
export const DIE_CODE_PIPS_LIMIT = 30;
/** Boost or penalty dice: at most this many die codes (helpers' skills and specializations) per side. */
export const HELPER_CODES_MAX = 6;
/** All the dice one check may throw (the roller's, every helper's and the opponent's): keeps odds and embeds small. */
export const CHECK_DICE_MAX = 60;

export const dieCodeSchema = z.object({
  /** Six-sided dice, 1–30. */
  dice: z.number(),
  /** Pips added to their sum, −30…+30 (the seed's table uses 0–2). */
  pips: z.number(),
});
export type DieCode = z.infer<typeof dieCodeSchema>;

/** A die code as rolled: every die, the pips, and their sum. */
export interface CodeRoll {
  code: DieCode;
  dice: number[];
  total: number;
}

const DIE_CODE = /^(\d+)\s*d\s*(?:([+-])\s*(\d+))?$/i;

/** `3D+2` → { dice: 3, pips: 2 }. Accepts `3d+2`, `3D + 2`, `3D-1`, `4D`. `what` names the option in errors. */
export function parseDieCode(text: string, what = 'die code'): DieCode {
  const trimmed = text.trim();
  const match = DIE_CODE.exec(trimmed);
  const shown = `\`${trimmed.slice(0, 20)}\``;
  if (!match) {
    throw new UserError(`The ${what} ${shown} is not a die code: write it as six-sided dice and pips, e.g. \`3D+2\`, \`4D\` or \`2D-1\`.`);
  }
  const dice = Number(match[1]);
  const pips = match[3] === undefined ? 0 : (match[2] === '-' ? -1 : 1) * Number(match[3]);
  if (dice < 1 || dice > DIE_CODE_DICE_MAX) {
    throw new UserError(`The ${what} ${shown} has ${dice} dice; a die code has 1 to ${DIE_CODE_DICE_MAX}.`);
  }
  if (Math.abs(pips) > DIE_CODE_PIPS_LIMIT) {
    throw new UserError(`The ${what} ${shown} has ${pips} pips; a die code has −${DIE_CODE_PIPS_LIMIT} to +${DIE_CODE_PIPS_LIMIT}.`);
  }
  return { dice, pips };
}

/** `2D+1, 1D` (several helpers' skill and specialization dice) → their die codes, in order. Empty → none. */
export function parseDieCodeList(text: string | null | undefined, what: string): DieCode[] {
  if (text === null || text === undefined || text.trim() === '') return [];
  const parts = text.split(/[,;]/).map((part) => part.trim());
  if (parts.some((part) => part === '')) throw new UserError(`The ${what} dice have an empty entry: separate die codes with commas, e.g. \`2D+1, 1D\`.`);
  if (parts.length > HELPER_CODES_MAX) throw new UserError(`At most ${HELPER_CODES_MAX} die codes of ${what} dice, not ${parts.length}.`);
  return parts.map((part) => parseDieCode(part, `${what} die code`));
}

/** `3D+2`, `4D`, `2D-1`. */
export function formatDieCode(code: DieCode): string {
  return `${code.dice}D${code.pips === 0 ? '' : code.pips > 0 ? `+${code.pips}` : `-${-code.pips}`}`;
}

/** Fixed resistance: the dice value times 3 plus the pips (1D → 3 … 6D+2 → 20, the seed's table). */
export function fixedResistance(code: DieCode): number {
  return 3 * code.dice + code.pips;
}

export function rollDieCode(code: DieCode, rng: Rng): CodeRoll {
  const dice = Array.from({ length: code.dice }, () => rng.int(6) + 1);
  return { code, dice, total: dice.reduce((sum, die) => sum + die, 0) + code.pips };
}
