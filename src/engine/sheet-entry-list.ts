/**
 * A list of sheet entries typed in one go (`/sheet set skills:Climbing 40, CQC 37, Driving 55`): how the text
 * reads as entries, each a name and a whole number, and which entry of a list repeats or looks just like another.
 * Each entry's name and number are then checked as the single-entry commands check them (sheet.ts, names.ts).
 */
import { lookAlikeKey, nameKey } from './names.js';

/** What an entry's number is called in its list, with an example of a whole entry: `level`, `Climbing 40`. */
export interface ListNumber {
  word: string;
  example: string;
}

/** One entry of a list as typed: its place (from 1), its text, and its name and number, or what is wrong with it. */
export type ListedEntry = { position: number; typed: string } & ({ name: string; value: number } | { problem: string });

/** Entries are parted by commas, semicolons or lines (a full-width or ideographic comma too, as phones type them). */
const SEPARATORS = /[,;\n\r\uff0c\uff1b\u3001]/u;
/** A name, then a space, a colon or an equals sign, then a whole number with its sign (a typed minus too). */
const ENTRY = /^(.+?)(?:\s*[:=]\s*|\s+)([+\-\u2212]?)(\d+)$/u;
/** Past this many digits a number is no level, modifier or value of any sheet (and would lose its precision). */
const DIGITS_MAX = 9;

/** Reads a typed list into its entries, in order; an empty entry (`a 1,, b 2`, a trailing comma) is skipped. */
export function parseEntryList(text: string, number: ListNumber): ListedEntry[] {
  const entries: ListedEntry[] = [];
  for (const part of text.split(SEPARATORS)) {
    const typed = part.trim();
    if (typed === '') continue;
    const position = entries.length + 1;
    const match = ENTRY.exec(typed);
    if (!match) {
      const problem = /\d[.,]\d+$/.test(typed)
        ? `its ${number.word} must be a whole number, e.g. \`${number.example}\``
        : `it has no ${number.word}: write the name, a space and its ${number.word}, e.g. \`${number.example}\``;
      entries.push({ position, typed, problem });
      continue;
    }
    const [, name, sign, digits] = match as unknown as [string, string, string, string];
    if (digits.length > DIGITS_MAX) {
      entries.push({ position, typed, problem: `its ${number.word} ${sign}${digits} is far too large` });
      continue;
    }
    entries.push({ position, typed, name, value: (sign === '' || sign === '+' ? 1 : -1) * Number(digits) });
  }
  return entries;
}

/**
 * The first name of a list (by index) that is given twice, or that looks just like an earlier one (names.ts,
 * `lookAlikeIn`), with the index of that earlier one; null when every name stands apart.
 */
export function listClash(names: readonly string[]): { index: number; other: number; kind: 'twice' | 'looks-alike' } | null {
  // Each name's keys are made once: a list may hold a sheet's hundred skills.
  const keys = names.map(nameKey);
  const looks = names.map(lookAlikeKey);
  for (let index = 1; index < names.length; index++) {
    const twice = keys.indexOf(keys[index]!);
    if (twice < index) return { index, other: twice, kind: 'twice' };
    const lookAlike = looks.indexOf(looks[index]!);
    if (lookAlike < index) return { index, other: lookAlike, kind: 'looks-alike' };
  }
  return null;
}
