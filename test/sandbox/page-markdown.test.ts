// The sandbox page shows the bot's Markdown as Discord does, escapes included: what the bot escaped opens nothing.
import { describe, expect, it } from 'vitest';
import { markdown } from '../../src/sandbox/page/markdown.js';
import { authorMarkdown } from '../../src/views/format.js';

const names = { user: (id: string) => id, role: (id: string) => id, channel: (id: string) => id };
const html = (text: string) => markdown(text, names);

describe('the page reads backslash escapes as Discord does', () => {
  it('shows an escaped masked link, code block, heading and quote as the characters typed', () => {
    const row = '[click me](https://evil.example) and ```cannot``` run\n# not a heading\n> not a quote';
    const shown = html(authorMarkdown(row));
    expect(shown).not.toMatch(/<a [^>]*>click me<\/a>|<pre|<code|<h\d|<blockquote/);
    expect(shown).toContain('[click me]');
    expect(shown).toContain('```cannot```');
    expect(shown).toContain('# not a heading');
    expect(shown).toContain('&gt; not a quote');
  });

  it('keeps what is not escaped: emphasis, a bold name, a backslash shown by escaping it', () => {
    expect(html('**Troy** is _bruised_')).toBe('<strong>Troy</strong> is <em>bruised</em>');
    expect(html('a \\\\ b')).toBe('a \\ b');
    expect(html('\\*not italic\\*')).toBe('*not italic*');
  });
});
