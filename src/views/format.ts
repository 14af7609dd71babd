/** Small text pieces shared by the views. */
import type { D100 } from '../engine/dice.js';
import type { Modifier } from '../engine/systems/tactalk/challenge.js';

/** `[4][8] → 48`, `[0][0] → 100`: both dice, as players read them at the table. */
export function formatD100(d100: D100): string {
  return `[${d100.tens}][${d100.ones}] → ${d100.value}`;
}

export function signed(value: number): string {
  return value < 0 ? `− ${-value}` : `+ ${value}`;
}

/** Markdown in names is shown as typed, not interpreted (a sheet called `**x**` stays literal). */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\*_`~|>#[\]()-])/g, '\\$1');
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
