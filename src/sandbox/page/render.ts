// Messages as Discord draws them: author line, markdown content, embeds, files, buttons and select menus,
// ephemeral replies marked "Only you can see this".
import { ButtonStyle, ComponentType, InteractionType, MessageFlags } from 'discord-api-types/payloads/v10';
import type { Attachment, Component, Embed, EmbedField, Message, SelectOption } from './api.js';
import { avatar, h, type Child } from './dom.js';
import { markdown, type Names } from './markdown.js';

export interface RenderContext {
  names: Names;
  botId: string;
  /** The options of a user, role, mentionable or channel select (string selects carry their own). */
  selectOptions(select: Component): SelectOption[];
  onButton(message: Message, button: Component, element: HTMLButtonElement): void;
  onSelect(message: Message, select: Component, values: string[]): void;
  onDismiss(message: Message): void;
  /** Why the last interaction with this message failed, if it did. */
  failure(messageId: string): string | undefined;
}

function time(iso: string, long: boolean): string {
  const date = new Date(iso);
  const clock = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (!long) return clock;
  const today = new Date().toDateString() === date.toDateString();
  return today ? `Today at ${clock}` : `${date.toLocaleDateString()} ${clock}`;
}

function colour(value: number | undefined): string {
  return value === undefined || value === null ? '#1e1f22' : `#${value.toString(16).padStart(6, '0')}`;
}

function emoji(e: Component['emoji']): string {
  return e?.name && !e.id ? e.name : e?.name ? `:${e.name}:` : '';
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(2)} KB` : `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function md(text: string, ctx: RenderContext, tag: 'div' | 'span' = 'div', cls = ''): HTMLElement {
  return h(tag, { class: cls, html: markdown(text, ctx.names) });
}

/** Consecutive inline fields share rows of up to three; other fields take a whole row. */
function fieldGrid(fields: EmbedField[], ctx: RenderContext): HTMLElement {
  const grid = h('div', { class: 'embed-fields' });
  let index = 0;
  while (index < fields.length) {
    let run = 1;
    if (fields[index]!.inline) while (run < 3 && fields[index + run]?.inline) run++;
    const span = 12 / run;
    for (let i = 0; i < run; i++) {
      const field = fields[index + i]!;
      grid.append(
        h('div', { class: 'embed-field', style: `grid-column:${1 + i * span} / ${1 + (i + 1) * span}` },
          md(field.name, ctx, 'div', 'embed-field-name'),
          md(field.value, ctx, 'div', 'embed-field-value')),
      );
    }
    index += run;
  }
  return grid;
}

function renderEmbed(embed: Embed, ctx: RenderContext): HTMLElement {
  const footerText = [embed.footer?.text, embed.timestamp ? time(embed.timestamp, true) : undefined].filter(Boolean).join(' • ');
  const title = embed.title
    ? embed.url
      ? h('a', { class: 'embed-title link', href: embed.url, target: '_blank', rel: 'noreferrer', html: markdown(embed.title, ctx.names) })
      : md(embed.title, ctx, 'div', 'embed-title')
    : null;
  return h('div', { class: 'embed', style: `border-left-color:${colour(embed.color)}` },
    h('div', { class: 'embed-body' },
      embed.author?.name ? h('div', { class: 'embed-author' }, embed.author.icon_url ? h('img', { src: embed.author.icon_url, alt: '' }) : null, embed.author.name) : null,
      title,
      embed.description ? md(embed.description, ctx, 'div', 'embed-description') : null,
      embed.fields?.length ? fieldGrid(embed.fields, ctx) : null,
      embed.image?.url ? h('img', { class: 'embed-image', src: embed.image.url, alt: '' }) : null,
      footerText ? h('div', { class: 'embed-footer' }, embed.footer?.icon_url ? h('img', { src: embed.footer.icon_url, alt: '' }) : null, footerText) : null),
    embed.thumbnail?.url ? h('img', { class: 'embed-thumbnail', src: embed.thumbnail.url, alt: '' }) : null,
  );
}

function renderAttachment(file: Attachment): HTMLElement {
  const href = new URL(file.url).pathname;
  if (file.contentType.startsWith('image/')) return h('a', { href, target: '_blank' }, h('img', { class: 'attachment-image', src: href, alt: file.filename }));
  return h('div', { class: 'attachment' },
    h('div', { class: 'file-icon', 'aria-hidden': 'true' }, h('span', {}, file.filename.split('.').pop()?.slice(0, 4) ?? 'file')),
    h('div', { class: 'file-meta' },
      h('a', { class: 'file-name', href, download: file.filename }, file.filename),
      h('div', { class: 'file-size' }, size(file.size))),
    h('a', { class: 'file-download', href, download: file.filename, title: `Download ${file.filename}`, 'aria-label': `Download ${file.filename}` }, '⤓'),
  );
}

const BUTTON_STYLES: Record<number, string> = {
  [ButtonStyle.Primary]: 'primary',
  [ButtonStyle.Secondary]: 'secondary',
  [ButtonStyle.Success]: 'success',
  [ButtonStyle.Danger]: 'danger',
  [ButtonStyle.Link]: 'link',
  [ButtonStyle.Premium]: 'premium',
};
const SELECT_MENUS: readonly number[] = [ComponentType.StringSelect, ComponentType.UserSelect, ComponentType.RoleSelect, ComponentType.MentionableSelect, ComponentType.ChannelSelect];

function renderButton(message: Message, button: Component, ctx: RenderContext): HTMLElement {
  const style = BUTTON_STYLES[button.style ?? ButtonStyle.Secondary] ?? 'secondary';
  const inner: Child[] = [emoji(button.emoji) ? h('span', { class: 'emoji' }, emoji(button.emoji)) : null, button.label ?? ''];
  if (button.style === ButtonStyle.Link) {
    return h('a', { class: `button ${style}${button.disabled ? ' disabled' : ''}`, href: button.url, target: '_blank', rel: 'noreferrer' }, ...inner, h('span', { class: 'external' }, '↗'));
  }
  const element: HTMLButtonElement = h('button', { class: `button ${style}`, type: 'button', 'data-custom-id': button.custom_id, disabled: button.disabled === true }, ...inner);
  element.addEventListener('click', () => ctx.onButton(message, button, element));
  return element;
}

function renderSelect(message: Message, select: Component, ctx: RenderContext): HTMLElement {
  const options = select.type === ComponentType.StringSelect ? (select.options ?? []) : ctx.selectOptions(select);
  const multi = (select.max_values ?? 1) > 1;
  const chosen = new Set(options.filter((o) => o.default).map((o) => o.value));
  const label = (): string => options.filter((o) => chosen.has(o.value)).map((o) => o.label).join(', ') || select.placeholder || 'Make a selection';
  const box = h('button', { class: 'select-box', type: 'button', disabled: select.disabled === true, 'aria-haspopup': 'listbox' },
    h('span', { class: chosen.size ? 'select-value' : 'select-placeholder' }, label()), h('span', { class: 'chevron' }, '⌄'));
  const menu = h('div', { class: 'select-menu', role: 'listbox', hidden: true });
  const wrapper = h('div', { class: `select${select.disabled ? ' disabled' : ''}`, 'data-custom-id': select.custom_id }, box, menu);
  const before = new Set(chosen);
  const close = (send: boolean): void => {
    if (menu.hidden) return;
    menu.hidden = true;
    wrapper.classList.remove('open');
    document.removeEventListener('mousedown', outside, true);
    const changed = chosen.size !== before.size || [...chosen].some((v) => !before.has(v));
    if (send && multi && changed && chosen.size >= (select.min_values ?? 1)) ctx.onSelect(message, select, [...chosen]);
  };
  const outside = (event: Event): void => {
    if (!wrapper.contains(event.target as Node)) close(true);
  };
  for (const option of options) {
    const row = h('div', { class: `select-option${chosen.has(option.value) ? ' chosen' : ''}`, role: 'option', 'data-value': option.value },
      emoji(option.emoji) ? h('span', { class: 'emoji' }, emoji(option.emoji)) : null,
      h('div', { class: 'select-option-text' }, h('div', { class: 'select-option-label' }, option.label), option.description ? h('div', { class: 'select-option-description' }, option.description) : null),
      multi ? h('span', { class: 'checkbox' }, chosen.has(option.value) ? '✓' : '') : null);
    row.addEventListener('click', () => {
      if (!multi) {
        chosen.clear();
        chosen.add(option.value);
        close(false);
        box.firstElementChild!.textContent = label();
        ctx.onSelect(message, select, [option.value]);
        return;
      }
      if (chosen.has(option.value)) chosen.delete(option.value);
      else if (chosen.size < (select.max_values ?? 1)) chosen.add(option.value);
      row.classList.toggle('chosen', chosen.has(option.value));
      row.lastElementChild!.textContent = chosen.has(option.value) ? '✓' : '';
      box.firstElementChild!.textContent = label();
    });
    menu.append(row);
  }
  box.addEventListener('click', () => {
    if (!menu.hidden) return close(true);
    menu.hidden = false;
    wrapper.classList.add('open');
    const scroller = wrapper.closest('.messages');
    const room = scroller ? scroller.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom : 1000;
    wrapper.classList.toggle('up', room < Math.min(menu.scrollHeight, 320) + 12);
    document.addEventListener('mousedown', outside, true);
  });
  return wrapper;
}

function renderComponents(message: Message, ctx: RenderContext): HTMLElement | null {
  if (!message.components.length) return null;
  const rows = message.components.map((row) =>
    h('div', { class: 'action-row' },
      ...(row.components ?? []).map((c) => (c.type === ComponentType.Button ? renderButton(message, c, ctx) : SELECT_MENUS.includes(c.type) ? renderSelect(message, c, ctx) : null))),
  );
  return h('div', { class: 'components' }, ...rows);
}

/** A whole message; `compact` leaves out the author line (a follow-on message of the same author). */
export function renderMessage(message: Message, ctx: RenderContext, compact: boolean): HTMLElement {
  // A webhook's message shows the name and picture it was posted under (an NPC's), tagged as an app's, as Discord does.
  const author = message.webhook?.username ?? ctx.names.user(message.authorId);
  const bot = message.webhook !== undefined || message.authorId === ctx.botId;
  const picture = message.webhook?.avatarUrl
    ? h('img', { class: 'avatar', src: message.webhook.avatarUrl, alt: '' })
    : avatar(author, bot && !message.webhook);
  const command = message.interaction?.type === InteractionType.ApplicationCommand ? message.interaction : undefined;
  const loading = (message.flags & MessageFlags.Loading) !== 0;
  const ephemeral = (message.flags & MessageFlags.Ephemeral) !== 0;
  const failure = ctx.failure(message.id);
  const showHeader = !compact || command !== undefined;

  const content = loading
    ? h('div', { class: 'content thinking' }, `${author} is thinking`, h('span', { class: 'dots' }, h('i'), h('i'), h('i')))
    : message.content
      ? h('div', { class: 'content' }, md(message.content, ctx, 'span'), message.editedAt ? h('span', { class: 'edited', title: time(message.editedAt, true) }, ' (edited)') : null)
      : null;

  const body = h('div', { class: 'message-body' },
    showHeader ? h('div', { class: 'message-header' },
      h('span', { class: 'author' }, author),
      bot ? h('span', { class: 'app-tag' }, '✓ APP') : null,
      h('time', { datetime: message.createdAt }, time(message.createdAt, true))) : null,
    content,
    message.embeds.length ? h('div', { class: 'embeds' }, ...message.embeds.map((e) => renderEmbed(e, ctx))) : null,
    message.attachments.length ? h('div', { class: 'attachments' }, ...message.attachments.map(renderAttachment)) : null,
    renderComponents(message, ctx),
    ephemeral ? h('div', { class: 'ephemeral-note' },
      h('span', { class: 'eye', 'aria-hidden': 'true' }, '👁'), 'Only you can see this • ',
      h('button', { class: 'linklike', type: 'button', onclick: () => ctx.onDismiss(message) }, 'Dismiss message')) : null,
    failure ? h('div', { class: 'interaction-failed', title: failure }, h('span', { 'aria-hidden': 'true' }, '⚠ '), 'This interaction failed: ', failure) : null,
  );

  return h('article', { class: `message${showHeader ? '' : ' compact'}${ephemeral ? ' ephemeral' : ''}`, 'data-id': message.id, 'data-author': author },
    command ? h('div', { class: 'reply-context' },
      h('span', { class: 'spine' }), avatar(command.username, false, 'small'),
      h('span', { class: 'who' }, command.username), ' used ', h('span', { class: 'command-name' }, `${command.contextMenu ? '' : '/'}${command.command ?? ''}`)) : null,
    h('div', { class: 'message-main' },
      showHeader ? picture : h('time', { class: 'gutter-time', datetime: message.createdAt }, time(message.createdAt, false)),
      body),
  );
}
