/**
 * The session journal as text: a span's story (entries and rolls, interleaved by time) as Markdown and as a
 * self-contained HTML page, each with the proof the verifier reads (src/engine/commitment.ts). Pure: the command
 * gathers the rows, this only words them.
 */
import { JOURNAL_PROOF_HTML_ID, JOURNAL_PROOF_MARKDOWN_FENCE, type JournalProof, type JournalProofRoll } from '../engine/commitment.js';
import { d100FromDice } from '../engine/dice.js';

const SEPARATOR = ' · ';

function isD100(value: object): value is { tens: number; ones: number } {
  const keys = Object.keys(value);
  return keys.length === 2 && typeof (value as { tens?: unknown }).tens === 'number' && typeof (value as { ones?: unknown }).ones === 'number';
}

/** Stored dice of any kind, in plain words: a D100 with its two dice, numbers as they fell, nested parts in brackets. */
function diceText(dice: unknown): string {
  if (dice === null || dice === undefined) return 'none';
  if (typeof dice === 'number' || typeof dice === 'boolean' || typeof dice === 'string') return String(dice);
  if (Array.isArray(dice)) return `[${dice.map(diceText).join(', ')}]`;
  if (typeof dice === 'object') {
    if (isD100(dice)) return `D100 ${d100FromDice(dice.tens, dice.ones).value} (${dice.tens}, ${dice.ones})`;
    return Object.entries(dice)
      .map(([key, value]) => `${key} ${diceText(value)}`)
      .join('; ');
  }
  return String(dice);
}

/**
 * A roll's visible line in a journal, from its proof fields only: the verifier recomputes the roll from its seed,
 * renders this line anew and looks for it in the document, so a die changed in the text is caught. Plain text, no
 * Markdown or HTML syntax, so the very same line is in the .md and in the page's text; who rolled is written before
 * it, outside it.
 */
export function journalRollLine(roll: JournalProofRoll): string {
  const dice = diceText(roll.dice);
  const parts = [`roll ${roll.id}`, roll.kind, isD100Only(roll.dice) ? dice : `dice ${dice}`];
  if (roll.total !== null) parts.push(`total ${roll.total}`);
  if (roll.success !== null) parts.push(roll.success ? 'success' : 'failure');
  parts.push(roll.sessionId !== null && roll.seedIndex !== null ? `seed ${roll.seedIndex} of session ${roll.sessionId}` : `seed ${roll.seed}`);
  return parts.join(SEPARATOR);
}

function isD100Only(dice: unknown): boolean {
  return typeof dice === 'object' && dice !== null && !Array.isArray(dice) && isD100(dice);
}

/**
 * The proof as JSON safe inside a Markdown fence and an HTML script element: characters that could close either
 * (`<`, `>`, `&`, backticks, and the line separators old parsers split on) are written as JSON escapes, which
 * JSON.parse reads back unchanged.
 */
export function journalProofJson(proof: JournalProof): string {
  return JSON.stringify(proof, null, 1).replace(/[<>&`\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The proof as the Markdown journal ends with it: a fenced block the verifier finds by its opening line. */
export function journalProofMarkdown(proof: JournalProof): string {
  return `${JOURNAL_PROOF_MARKDOWN_FENCE}\n${journalProofJson(proof)}\n\`\`\`\n`;
}

/** The proof as the HTML page carries it: data, never run, found by its id. */
export function journalProofHtml(proof: JournalProof): string {
  return `<script type="application/json" id="${JOURNAL_PROOF_HTML_ID}">\n${journalProofJson(proof)}\n</script>\n`;
}
