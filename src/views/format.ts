/** Small text pieces shared by the views. */
import type { D100 } from '../engine/dice.js';
import type { Modifier } from '../engine/systems/tactalk/challenge.js';

/** `[4][8] → 48`, `[0][0] → 100`: both dice, as players read them at the table. */
export function formatD100(d100: D100): string {
  return `[${d100.tens}][${d100.ones}] → ${d100.value}`;
}

/** A term of a sum: `+ 10`, `− 5`. */
export function signed(value: number): string {
  return value < 0 ? `− ${-value}` : `+ ${value}`;
}

/** A modifier on its own: `+10`, `−5`. */
export function signedCompact(value: number): string {
  return signed(value).replace(' ', '');
}

/** Markdown in names is shown as typed, not interpreted (a sheet called `**x**` stays literal). */
export function escapeMarkdown(text: string): string {
  // Only what would change the look of inline text; a hyphen or parenthesis in a skill name stays readable.
  return text.replace(/([\\*_`~|[\]])/g, '\\$1');
}

export function formatTerms(terms: Modifier[]): string {
  return terms.map((term) => ` ${signed(term.value)} ${escapeMarkdown(term.name)}`).join('');
}

export function percent(faces: number): string {
  return `${faces}%`;
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
