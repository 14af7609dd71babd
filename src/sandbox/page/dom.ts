// A tiny element builder: h('div', { class: 'x', onclick: f }, child, 'text').

type Attrs = Record<string, string | number | boolean | undefined | null | EventListener>;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (name === 'html') element.innerHTML = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** A stable colour for a name (avatars). */
export function colourFor(name: string): string {
  const palette = ['#5865f2', '#3ba55d', '#faa61a', '#ed4245', '#eb459e', '#747f8d', '#1abc9c', '#e67e22'];
  let hash = 0;
  for (const char of name.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return palette[hash % palette.length]!;
}

export function avatar(name: string, bot = false, size: 'normal' | 'small' = 'normal'): HTMLElement {
  const initial = bot ? '🎲' : (name.trim()[0] ?? '?').toUpperCase();
  return h('div', { class: `avatar ${size}${bot ? ' bot' : ''}`, style: `background:${bot ? '#5865f2' : colourFor(name)}`, 'aria-hidden': 'true' }, initial);
}
