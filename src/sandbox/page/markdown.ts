// Discord's message markdown, the part bots use: bold, italics, underline, strike, spoilers, code, code blocks,
// headings, subtext, quotes, lists, masked links, mentions and timestamps, and backslash escapes. Text is escaped
// (as HTML) before anything else.

export interface Names {
  user(id: string): string;
  role(id: string): string;
  channel(id: string): string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function timestamp(seconds: number, style: string): string {
  const date = new Date(seconds * 1000);
  const time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const day = date.toLocaleDateString([], { day: 'numeric', month: 'long', year: 'numeric' });
  if (style === 'R') {
    const minutes = Math.round((seconds * 1000 - Date.now()) / 60_000);
    const rtf = new Intl.RelativeTimeFormat([], { numeric: 'auto' });
    return Math.abs(minutes) < 60 ? rtf.format(minutes, 'minute') : rtf.format(Math.round(minutes / 60), 'hour');
  }
  if (style === 't') return time;
  if (style === 'd' || style === 'D') return day;
  return `${day} ${time}`;
}

/** One line's inline formatting; `code` spans were taken out before (placeholders \u0000N\u0000). */
function inline(text: string, names: Names): string {
  return text
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id: string) => `<span class="mention">@${escapeHtml(names.user(id))}</span>`)
    .replace(/&lt;@&amp;(\d+)&gt;/g, (_, id: string) => `<span class="mention">@${escapeHtml(names.role(id))}</span>`)
    .replace(/&lt;#(\d+)&gt;/g, (_, id: string) => `<span class="mention">#${escapeHtml(names.channel(id))}</span>`)
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, s: string, style?: string) => `<span class="timestamp">${escapeHtml(timestamp(Number(s), style ?? 'f'))}</span>`)
    .replace(/&lt;a?:(\w+):\d+&gt;/g, ':$1:')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noreferrer">$1</a>')
    .replace(/(^|[\s(])(https?:\/\/[^\s<]+[^\s<.,:;"')\]])/g, '$1<a href="$2" target="_blank" rel="noreferrer">$2</a>')
    .replace(/\*\*\*(.+?)\*\*\*/g, '<strong><em>$1</em></strong>')
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/__(.+?)__/g, '<u>$1</u>')
    .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, '$1<em>$2</em>')
    .replace(/~~(.+?)~~/g, '<s>$1</s>')
    .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler" tabindex="0">$1</span>');
}

/** Renders Discord markdown to HTML. */
export function markdown(source: string, names: Names): string {
  const codes: string[] = [];
  const hold = (html: string): string => `\u0000${codes.push(html) - 1}\u0000`;
  let text = escapeHtml(source)
    // A backslash before a punctuation mark shows the mark as it is (how the bot escapes user text), so it can
    // open nothing: held out, like code, until the end.
    .replace(/\\(&gt;|&lt;|&amp;|&quot;|&#39;|[!-/:-@[-`{-~])/g, (_, mark: string) => hold(mark))
    .replace(/```(?:[\w+-]*\n)?([\s\S]*?)```/g, (_, code: string) => hold(`<pre class="codeblock"><code>${code.replace(/\n$/, '')}</code></pre>`))
    .replace(/``([^`]+?)``|`([^`\n]+?)`/g, (_, a?: string, b?: string) => hold(`<code class="inline">${a ?? b}</code>`));

  const out: string[] = [];
  let list: string[] = [];
  let quote: string[] = [];
  const flush = (): void => {
    if (list.length) out.push(`<ul>${list.map((item) => `<li>${item}</li>`).join('')}</ul>`);
    if (quote.length) out.push(`<blockquote>${quote.join('<br>')}</blockquote>`);
    list = [];
    quote = [];
  };
  for (const line of text.split('\n')) {
    const heading = /^(#{1,3}) (.+)$/.exec(line);
    const sub = /^-# (.+)$/.exec(line);
    const item = /^\s*[-*] (.+)$/.exec(line);
    const quoted = /^&gt; ?(.*)$/.exec(line);
    if (quoted) {
      if (list.length) flush();
      quote.push(inline(quoted[1]!, names));
      continue;
    }
    if (item && !sub) {
      if (quote.length) flush();
      list.push(inline(item[1]!, names));
      continue;
    }
    flush();
    if (heading) out.push(`<h${heading[1]!.length + 2} class="md-heading">${inline(heading[2]!, names)}</h${heading[1]!.length + 2}>`);
    else if (sub) out.push(`<div class="subtext">${inline(sub[1]!, names)}</div>`);
    else out.push(`${inline(line, names)}<br>`);
  }
  flush();
  text = out.join('').replace(/<br>$/, '');
  return text.replace(/\u0000(\d+)\u0000/g, (_, n: string) => codes[Number(n)]!);
}
