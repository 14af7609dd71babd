/** Small text pieces shared by the views. */
import type { D100 } from '../engine/dice.js';
import type { Modifier } from '../engine/systems/tactalk/challenge.js';
import { truncate } from './limits.js';

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

// Markdown in user text. Names, labels and stakes are shown exactly as typed: every character Discord would read
// as Markdown is escaped (a backslash before it, which Discord does not show). The text of a table's rows and a
// sheet's notes may use inline emphasis, as docs/tables.md says: bold, italic, underline, strikethrough and
// spoilers, each opened and closed on one line; the rest (code, headings, quotes, lists, masked links) is escaped,
// so no user text can open a code block or a heading that swallows what the bot writes after it. Mentions, emoji
// and timestamps (`<…>`) stay: each is one token that cannot spill over, and NO_PINGS keeps mentions silent.

/** Characters that are Markdown wherever they stand: the escape itself, code, and the brackets of a masked link. */
const ALWAYS_MARKUP = /[\\`[\]]/g;
/** What starts a heading, a quote, a list item or a numbered item at the start of a line. */
const LINE_START_MARKUP = /^(\s*)(?:([#>])|([-+*])(?=\s|#)|(\d+)\.(?=\s))/gm;

function escapeLineStarts(text: string): string {
  return text.replace(LINE_START_MARKUP, (_, space: string, mark?: string, bullet?: string, number?: string) =>
    number !== undefined ? `${space}${number}\\.` : `${space}\\${mark ?? bullet}`,
  );
}

/**
 * Text-direction overrides and isolates (U+202A–U+202E, U+2066–U+2069): in a stake, a label or a note, one would
 * turn around or hide what follows it in the bot's public message ("If Kat wins: " + reversed text that reads as
 * something else), beyond the user's own text. They are left out of every user text the views show, here, and only
 * here: `escapeMarkdown`, `authorMarkdown` and `copyableBlock`, which every user text passes, start with it.
 */
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** User text without text-direction overrides and isolates (see above). */
function withoutDirectionControls(text: string): string {
  return text.replace(DIRECTION_CONTROLS, '');
}

/**
 * User text in a code block, to copy as it was typed (a refused list, sent again once mended); null when it holds
 * a fence of its own, which would end the block early.
 */
export function copyableBlock(text: string): string | null {
  return text.includes('```') ? null : `\`\`\`\n${withoutDirectionControls(text)}\n\`\`\``;
}

/** A name or any other user text, shown literally (a sheet called `**x**` stays `**x**`). */
export function escapeMarkdown(text: string): string {
  return escapeLineStarts(withoutDirectionControls(text).replace(/[\\*_`~|[\]]/g, '\\$&'));
}

/** How long a run of each emphasis character is when it is a style: `*` italic, `**` bold, `***` both… */
const STYLE_RUNS: Record<string, readonly number[]> = { '*': [1, 2, 3], _: [1, 2, 3], '~': [2], '|': [2] };
const WORD = /[\p{L}\p{N}_]/u;

/** One line of author text: the emphasis runs that open and close in order are kept, every other one escaped. */
function authorLine(line: string): string {
  const runs: Array<{ text: string; style: boolean; kept: boolean }> = [];
  for (const match of line.matchAll(/([*_~|])\1*|[^*_~|]+/g)) runs.push({ text: match[0], style: match[1] !== undefined, kept: false });
  const open: number[] = [];
  let at = 0;
  runs.forEach((run, index) => {
    const before = line[at - 1];
    at += run.text.length;
    const after = line[at];
    if (!run.style || !STYLE_RUNS[run.text[0]!]!.includes(run.text.length)) return;
    // Discord reads `_` as emphasis only at a word's edge (snake_case stays as it is), any other run next to text.
    const edge = run.text[0] === '_';
    const canOpen = after !== undefined && !/\s/.test(after) && !(edge && before !== undefined && WORD.test(before));
    const canClose = before !== undefined && !/\s/.test(before) && !(edge && after !== undefined && WORD.test(after));
    const top = open.at(-1);
    if (top !== undefined && runs[top]!.text === run.text && canClose) {
      runs[top]!.kept = true;
      run.kept = true;
      open.pop();
    } else if (canOpen) open.push(index);
  });
  const text = runs.map((run) => (run.kept ? run.text : run.style ? run.text.replace(/./g, '\\$&') : run.text.replace(ALWAYS_MARKUP, '\\$&'))).join('');
  return escapeLineStarts(text);
}

/** The text of a table row or a sheet's notes: inline emphasis shown as such, any other Markdown as typed. */
export function authorMarkdown(text: string): string {
  return withoutDirectionControls(text).split('\n').map(authorLine).join('\n');
}

/** authorMarkdown within `max` characters: the text is cut before it is escaped, so no cut splits an escape or a style. */
export function authorMarkdownWithin(text: string, max: number): string {
  let cut = max;
  for (;;) {
    const shown = authorMarkdown(truncate(text, cut));
    if (shown.length <= max) return shown;
    cut -= shown.length - max;
  }
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

/** A value inside stored JSON, by path; undefined where the path does not lead. */
export function storedAt(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** Stored text on one line of a message (a row's line breaks read as spaces), escaped; '?' where it is not text. */
export function storedText(value: unknown): string {
  return typeof value === 'string' ? escapeMarkdown(value.replace(/\s+/g, ' ')) : '?';
}
