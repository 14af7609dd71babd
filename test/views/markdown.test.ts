// User text in embeds (issue 11, "Text and files"): a table's rows and a sheet's notes may use inline emphasis;
// nothing a user writes can open a code block, a heading, a quote, a list or a masked link.
import { describe, expect, it } from 'vitest';
import type { OutcomeRollResult, OutcomeTable } from '../../src/engine/tables.js';
import { authorMarkdown, authorMarkdownWithin, escapeMarkdown } from '../../src/views/format.js';
import { sheetReply } from '../../src/views/sheet.js';
import { outcomeReply, tableShowReply } from '../../src/views/tables.js';
import { liveMarkdown, troySheet } from '../helpers/text.js';

/** Every text the embeds of a reply show. */
function embedTexts(reply: { embeds?: unknown[] }): string[] {
  return (reply.embeds as Array<{ title?: string; description?: string; fields?: Array<{ name: string; value: string }> }>).flatMap((embed) => [
    embed.description ?? '',
    ...(embed.fields ?? []).map((field) => field.value),
  ]);
}

const BREAKING = ['```js', 'const x = 1', '```', '# Heading', '> quote', '- item', '1. first', '[site](https://example.com) <@123> <t:0:R> `code`'].join('\n');

const table: OutcomeTable = {
  name: 'Reload',
  die: 'd100',
  asks: '',
  skill: null,
  rows: [
    { min: 1, max: 50, text: `**Jammed**. ${BREAKING}`, next: null, reveals: null },
    { min: 51, max: 100, text: 'A clean reload', next: null, reveals: null },
  ],
};

function rolled(rowIndex: number): OutcomeRollResult {
  const row = table.rows[rowIndex]!;
  return {
    input: { table, modifiers: [] },
    roll: { dice: [{ value: 20, d100: { tens: 2, ones: 0, value: 20 } }], total: 20 },
    result: 20,
    rowIndex,
    row,
    clamped: null,
  };
}

describe("a table row's text", () => {
  it('in /roll outcome cannot open a code block, a heading, a quote, a list or a masked link', () => {
    const [description] = embedTexts(outcomeReply(rolled(0), 'Troy', 'abcd2345', null));
    // From the row on: the dice above it are the bot's own inline code.
    expect(liveMarkdown(description!.slice(description!.indexOf('**1–50** · ')))).toEqual([]);
    expect(description).toContain('**Jammed**.');
    expect(description).toContain('\\`\\`\\`js');
  });

  it('in /table show cannot either, and the next row is still shown as a row', () => {
    const [description] = embedTexts(tableShowReply(table));
    expect(liveMarkdown(description!)).toEqual([]);
    expect(description).toMatch(/^\*\*51–100\*\* · A clean reload$/m);
  });

  it('keeps bold, italic, underline, strikethrough and spoilers that close on the same line', () => {
    expect(authorMarkdown('**bold** *italic* _italic_ __underline__ ~~gone~~ ||secret|| ***both***')).toBe('**bold** *italic* _italic_ __underline__ ~~gone~~ ||secret|| ***both***');
    expect(authorMarkdown('*italic **bold** italic*')).toBe('*italic **bold** italic*');
  });

  it('shows emphasis that never closes as typed, so it cannot run into what the bot writes after it', () => {
    expect(authorMarkdown('**opens and never closes')).toBe('\\*\\*opens and never closes');
    expect(authorMarkdown('**bold\nstill bold**')).toBe('\\*\\*bold\nstill bold\\*\\*');
    expect(authorMarkdown('**a __b** c__')).toBe('\\*\\*a __b\\*\\* c__');
    expect(authorMarkdown('5 * 3 * 2, snake_case_name, a ~ b | c')).toBe('5 \\* 3 \\* 2, snake\\_case\\_name, a \\~ b \\| c');
  });

  it('shows a backslash as typed, so it cannot undo an escape', () => {
    expect(authorMarkdown('\\`code\\`')).toBe('\\\\\\`code\\\\\\`');
    expect(liveMarkdown(authorMarkdown('\\`code\\`'))).toEqual([]);
  });

  it('fits a limit by cutting the text before escaping it', () => {
    const shown = authorMarkdownWithin('`'.repeat(2000), 900);
    expect(shown.length).toBeLessThanOrEqual(900);
    expect(liveMarkdown(shown)).toEqual([]);
  });
});

describe('names, labels and stakes', () => {
  it('are shown literally: no emphasis, no code, no heading, quote or list at the start', () => {
    expect(escapeMarkdown('# **Big** `x` [a](b)')).toBe('\\# \\*\\*Big\\*\\* \\`x\\` \\[a\\](b)');
    expect(escapeMarkdown('> Troy')).toBe('\\> Troy');
    expect(escapeMarkdown('- Troy')).toBe('\\- Troy');
    expect(escapeMarkdown('1. Troy')).toBe('1\\. Troy');
    expect(escapeMarkdown('Rock-Climbing (free)')).toBe('Rock-Climbing (free)');
  });
});

describe("a sheet's notes", () => {
  it('shown to the channel cannot open a code block or a heading, and keep their emphasis', () => {
    const sheet = troySheet({ notes: `**Owes** the Dispatcher a favour.\n${BREAKING}`, skills: [{ name: '`Climbing', level: 40 }] });
    const texts = embedTexts(sheetReply(sheet, 'Mike', new Date(), false));
    for (const text of texts) expect(liveMarkdown(text), text).toEqual([]);
    expect(texts.join('\n')).toContain('**Owes** the Dispatcher a favour.');
  });
});

describe('text-direction controls in user text', () => {
  it('an override or isolate (U+202A–U+202E, U+2066–U+2069) is left out of a name, a stake or a row’s text', () => {
    const controls = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    expect(escapeMarkdown(`If I win, ${controls}you pay *double*`)).toBe('If I win, you pay \\*double\\*');
    expect(authorMarkdown(`**Loot**: \u202eelbat eht rednu\u202c\nline \u2067two\u2069`)).toBe('**Loot**: elbat eht rednu\nline two');
    // The marks that only hint a direction (LRM, RLM) turn nothing around, and stay.
    expect(escapeMarkdown('a\u200eb\u200fc')).toBe('a\u200eb\u200fc');
  });
});
