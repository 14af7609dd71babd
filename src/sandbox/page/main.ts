// The sandbox page: one Discord channel, live over GET /api/events, played as any user through
// POST /api/interactions. Players are kept in localStorage; everything else comes from the sandbox.
import { ApiError, get, interact, type Choice, type Command, type Component, type Message, type Modal, type Player, type SelectOption, type ServerInfo, type UploadedFile, type User } from './api.js';
import { ApplicationCommandOptionType, ComponentType, InteractionType, TextInputStyle } from 'discord-api-types/payloads/v10';
import { avatar, h } from './dom.js';
import { markdown, type Names } from './markdown.js';
import { renderMessage, type RenderContext } from './render.js';
import {
  autocompleteOptions, buildRequest, contextAt, leafCommands, matchingChoices, matchingLeaves, typeName, unusedOptions,
  type CaretContext, type Leaf,
} from './slash.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const list = $<HTMLDivElement>('messages');
const input = $<HTMLInputElement>('composer');
const popup = $<HTMLDivElement>('popup');
const composerError = $<HTMLDivElement>('composer-error');
const dialog = $<HTMLDialogElement>('modal');

let server: ServerInfo = { guild: { id: '', name: 'Sandbox Server' }, channel: { id: '', name: 'table' }, bot: { id: '', username: 'Tac Talk Bot', bot: true }, roles: [] };
let leaves: Leaf[] = [];
/** The context-menu commands the server offers (right-click a message or a player → Apps): 2 a member's, 3 a message's. */
let menus: AppMenu[] = [];
interface AppMenu {
  name: string;
  type: number;
}
const MENU_TYPE = { user: 2, message: 3 } as const;
const users = new Map<string, User>();
const messages = new Map<string, Message>();
const failures = new Map<string, string>();
const dismissed = new Set<string>();
let events: EventSource | undefined;

// ---- players ---------------------------------------------------------------------------------------------

const STORAGE_KEY = 'tactalk-sandbox';
let players: Player[] = [];
let me: Player | undefined;

function load(): void {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as { players?: Player[]; current?: string };
    players = saved.players ?? [];
    me = players.find((p) => p.name === saved.current);
  } catch {
    players = [];
  }
}

function save(): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ players, current: me?.name }));
}

function switchTo(name: string): void {
  const clean = name.trim().replace(/^@/, '');
  if (!clean) return;
  let player = players.find((p) => p.name.toLowerCase() === clean.toLowerCase());
  if (!player) {
    player = { name: clean, dispatcher: false, manageServer: false };
    players.push(player);
  }
  closeDrawer();
  if (me === player) return renderPlayers();
  me = player;
  save();
  renderPlayers();
  closePopup();
  connect();
  if (!phone.matches) input.focus();
}

// ---- the drawer: on a phone the channel and player list slides in over the channel ----------------------------

const phone = window.matchMedia('(max-width: 720px)');

function openDrawer(): void {
  document.body.classList.add('drawer-open');
  $('menu-button').setAttribute('aria-expanded', 'true');
  closePopup();
}

function closeDrawer(): void {
  document.body.classList.remove('drawer-open');
  $('menu-button').setAttribute('aria-expanded', 'false');
}

function renderPlayers(): void {
  $('players').replaceChildren(
    ...players.map((p) =>
      h('button', { class: `player${p === me ? ' active' : ''}`, type: 'button', 'data-user': p.name, title: `Play as ${p.name}`, onclick: () => switchTo(p.name) },
        avatar(p.name, false, 'small'), h('span', { class: 'player-name' }, p.name), p.dispatcher ? h('span', { class: 'badge' }, 'Dispatcher') : null)),
  );
  // As in Discord's member list: right-click a player (or their ⋯ without a mouse) → Apps.
  for (const row of $('players').querySelectorAll<HTMLElement>('.player')) {
    const name = row.dataset.user ?? '';
    row.after(h('button', { class: 'apps-button player-apps', type: 'button', 'aria-label': `Apps for ${name}`, title: `Apps for ${name}`, 'aria-haspopup': 'menu', onclick: (event: Event) => openApps(event.currentTarget as HTMLElement, 'user', name) }, '⋯'));
  }
  $('me-avatar').replaceWith(Object.assign(avatar(me?.name ?? '?', false, 'small'), { id: 'me-avatar' }));
  $('me-name').textContent = me?.name ?? 'nobody yet';
  const chip = $('me-chip');
  chip.classList.toggle('nobody', !me);
  chip.setAttribute('aria-label', me ? `Playing as ${me.name}${me.dispatcher ? ' (Dispatcher)' : ''}: switch player` : 'Choose who you are');
  chip.replaceChildren(
    ...(me ? [avatar(me.name, false, 'small'), h('span', { class: 'chip-name' }, me.name), me.dispatcher ? h('span', { class: 'badge' }, 'Dispatcher') : null] : ['Play as…'])
      .filter((c): c is HTMLElement | string => c !== null),
  );
  $('me-sub').textContent = me ? [me.dispatcher ? 'Dispatcher' : 'Player', me.manageServer ? 'Manage Server' : ''].filter(Boolean).join(' · ') : 'type a name above';
  $<HTMLInputElement>('user-dispatcher').checked = me?.dispatcher ?? false;
  $<HTMLInputElement>('user-manage').checked = me?.manageServer ?? false;
  $<HTMLInputElement>('user-dispatcher').disabled = !me;
  $<HTMLInputElement>('user-manage').disabled = !me;
  input.placeholder = me
    ? `Message #${server.channel.name} as ${me.name} — type / for commands`
    : `Choose who you are first (${phone.matches ? '☰' : 'left'}, “Play as…”)`;
}

// ---- names and rendering ---------------------------------------------------------------------------------

let usersRefresh: Promise<void> | undefined;
/** Whether a message on screen names someone as "unknown user": only then does learning new names redraw the channel. */
let unknownNamed = false;
function refreshUsers(): Promise<void> {
  usersRefresh ??= get<{ users: User[] }>('/api/users')
    .then(({ users: known }) => {
      const before = users.size;
      for (const user of known) users.set(user.id, user);
      if (users.size === before || !unknownNamed) return;
      unknownNamed = false;
      // A name learned while someone reads back up the channel must not throw them to its end.
      renderAll(nearBottom());
    })
    .catch(() => undefined)
    .finally(() => (usersRefresh = undefined));
  return usersRefresh;
}

const names: Names = {
  user: (id) => {
    const user = users.get(id);
    if (!user) {
      unknownNamed = true;
      void refreshUsers();
    }
    return user?.username ?? 'unknown user';
  },
  role: (id) => server.roles.find((r) => r.id === id)?.name ?? (id === server.guild.id ? 'everyone' : 'role'),
  channel: (id) => (id === server.channel.id ? server.channel.name : 'channel'),
};

const context: RenderContext = {
  names,
  get botId() {
    return server.bot.id;
  },
  selectOptions: (select) => selectOptions(select),
  onButton: (message, button, element) => {
    element.classList.add('pending');
    element.disabled = true;
    void componentAction(message, { button: button.custom_id, message: message.id }).then(() => {
      element.classList.remove('pending');
      element.disabled = button.disabled === true;
    });
  },
  onSelect: (message, select, values) => void componentAction(message, { select: select.custom_id, values, message: message.id }),
  onDismiss: (message) => {
    dismissed.add(message.id);
    list.querySelector(`[data-id="${message.id}"]`)?.remove();
  },
  failure: (id) => failures.get(id),
};

/** The select menu whose choices a user, channel, role or mentionable option offers as it is typed. */
const SELECT_FOR_OPTION: Record<number, ComponentType> = {
  [ApplicationCommandOptionType.User]: ComponentType.UserSelect,
  [ApplicationCommandOptionType.Channel]: ComponentType.ChannelSelect,
  [ApplicationCommandOptionType.Role]: ComponentType.RoleSelect,
  [ApplicationCommandOptionType.Mentionable]: ComponentType.MentionableSelect,
};

function selectOptions(select: Component): SelectOption[] {
  const people = [...new Set([...players.map((p) => p.name), ...[...users.values()].filter((u) => !u.bot).map((u) => u.username)])];
  const roles = server.roles.map((r) => r.name);
  const options = select.type === ComponentType.UserSelect ? people : select.type === ComponentType.RoleSelect ? roles : select.type === ComponentType.MentionableSelect ? [...people, ...roles] : [server.channel.name];
  return options.map((name) => ({ label: name, value: name }));
}

function visible(): Message[] {
  return [...messages.values()].filter((m) => !dismissed.has(m.id));
}

function compact(previous: Message | undefined, message: Message): boolean {
  // Every NPC speaks through the channel's one webhook: a change of name is a change of author.
  if (!previous || previous.authorId !== message.authorId || previous.webhook?.username !== message.webhook?.username || previous.ephemeral || message.ephemeral) return false;
  if (message.interaction?.type === InteractionType.ApplicationCommand) return false;
  return Date.parse(message.createdAt) - Date.parse(previous.createdAt) < 7 * 60_000;
}

function welcome(): HTMLElement {
  return h('div', { class: 'welcome' },
    h('div', { class: 'welcome-icon' }, '#'),
    h('h1', {}, `Welcome to #${server.channel.name}!`),
    h('p', {}, `This is the start of the #${server.channel.name} channel of ${server.guild.name}, where ${server.bot.username} plays on a fake Discord on your machine.`),
    h('p', { class: 'hint' }, `Choose who you are ${phone.matches ? 'under ☰ (one tap' : 'on the left (one click'} switches players), then type / to see the bot’s commands.`));
}

function nearBottom(): boolean {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 80;
}

function scrollToBottom(): void {
  list.scrollTop = list.scrollHeight;
}

/** A message as render.ts draws it, with its ⋯ (Apps) for those who use no mouse: what right-clicking it offers. */
function drawn(message: Message, compactly: boolean): HTMLElement {
  const element = renderMessage(message, context, compactly);
  if ((message.flags & 64) === 0) {
    element.append(h('button', { class: 'apps-button message-apps', type: 'button', 'aria-label': 'Apps for this message', title: 'Apps', 'aria-haspopup': 'menu', onclick: (event: Event) => openApps(event.currentTarget as HTMLElement, 'message', message.id) }, '⋯'));
  }
  return element;
}

function renderAll(stick = true): void {
  const shown = visible();
  const top = list.scrollTop;
  list.replaceChildren(welcome(), ...shown.map((m, i) => drawn(m, compact(shown[i - 1], m))));
  if (stick) scrollToBottom();
  else list.scrollTop = top;
}

function rerender(message: Message): void {
  const shown = visible();
  const index = shown.findIndex((m) => m.id === message.id);
  if (index < 0) return;
  const element = drawn(message, compact(shown[index - 1], message));
  const existing = list.querySelector(`[data-id="${message.id}"]`);
  if (existing) existing.replaceWith(element);
  else {
    const next = shown.slice(index + 1).map((m) => list.querySelector(`[data-id="${m.id}"]`)).find(Boolean);
    if (next) next.before(element);
    else list.append(element);
  }
}

type Change = { type: 'create' | 'update'; message: Message } | { type: 'delete'; id: string };

function applyChange(change: Change): void {
  const stick = nearBottom();
  if (change.type === 'delete') {
    const shown = visible();
    const next = shown[shown.findIndex((m) => m.id === change.id) + 1];
    messages.delete(change.id);
    list.querySelector(`[data-id="${change.id}"]`)?.remove();
    if (next) rerender(next);
  } else {
    messages.set(change.message.id, change.message);
    rerender(change.message);
  }
  if (stick) scrollToBottom();
}

/** A message from the sandbox itself (a request it refused), shown only here. */
function notice(text: string, kind: 'notice' | 'violation' = 'notice'): void {
  const stick = nearBottom();
  list.append(
    h('article', { class: `message ephemeral notice${kind === 'violation' ? ' violation' : ''}`, ...(kind === 'violation' ? { role: 'alert' } : {}) },
      h('div', { class: 'message-main' }, h('div', { class: 'avatar sandbox', 'aria-hidden': 'true' }, '⚙'),
        h('div', { class: 'message-body' },
          h('div', { class: 'message-header' }, h('span', { class: 'author' }, 'Sandbox'), h('span', { class: 'app-tag system' }, 'SYSTEM')),
          h('div', { class: 'content' }, text),
          h('div', { class: 'ephemeral-note' }, h('span', { class: 'eye', 'aria-hidden': 'true' }, '👁'), 'Only you can see this')))),
  );
  if (stick) scrollToBottom();
}

function setStatus(text: string, ok: boolean): void {
  const status = $('status');
  status.textContent = text;
  status.classList.toggle('ok', ok);
}

/** The live feed for the current player: a snapshot, then every change (their own ephemeral messages too). */
function connect(): void {
  events?.close();
  const source = new EventSource(`/api/events${me ? `?user=${encodeURIComponent(me.name)}` : ''}`);
  events = source;
  source.addEventListener('snapshot', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as { messages: Message[] };
    messages.clear();
    for (const message of data.messages) messages.set(message.id, message);
    setStatus('live', true);
    renderAll();
    list.dataset.viewer = me?.name ?? '';
  });
  source.addEventListener('message', (event) => applyChange(JSON.parse((event as MessageEvent<string>).data) as Change));
  source.addEventListener('violation', (event) => {
    const { text, spec } = JSON.parse((event as MessageEvent<string>).data) as { text: string; spec: boolean };
    showViolation(text, spec);
  });
  source.addEventListener('error', () => setStatus('reconnecting…', false));
}

/** Violations already shown: one reaches the page both as a live event and in the answer to the player's own action. */
const shownViolations = new Set<string>();

/**
 * A rule the bot broke (whoever acted): shown in the channel, marked in red, and logged in the browser's console. A
 * body Discord's API spec rejects would fail on the real Discord the same way.
 */
function showViolation(text: string, spec: boolean): void {
  if (shownViolations.has(text)) return;
  shownViolations.add(text);
  console.error(`fake Discord violation: ${text}`);
  notice(`${spec ? 'The bot sent what Discord’s API spec rejects' : 'The bot broke Discord’s rules'}: ${text}`, 'violation');
}

// ---- acting ----------------------------------------------------------------------------------------------

/** Sends an interaction as the current player; opens the modal the bot answered with. Returns an error, if any. */
async function act(request: Record<string, unknown>): Promise<string | undefined> {
  if (!me) return 'Choose who you are first: type a name under Players.';
  try {
    const result = await interact(me, request);
    for (const error of result.errors) showViolation(error, error.includes('Discord\'s API spec'));
    const modal = result.responses.find((r) => r.kind === 'modal')?.modal;
    if (modal) openModal(modal, typeof request.message === 'string' ? request.message : undefined);
    void refreshUsers();
    void refreshCommands();
    return undefined;
  } catch (error) {
    return error instanceof ApiError || error instanceof Error ? error.message : String(error);
  }
}

/** The popup offers what the server offers now: the bot's global list (a new version registers it anew), and a list of the server's own if one is left. */
async function refreshCommands(): Promise<void> {
  try {
    const offered = await get<{ commands: Command[]; menus?: AppMenu[] }>('/api/commands');
    leaves = leafCommands(offered.commands);
    menus = offered.menus ?? [];
  } catch {
    // The list in hand stays; the next answer tries again.
  }
}

async function componentAction(message: Message, request: Record<string, unknown>): Promise<void> {
  const error = await act(request);
  const had = failures.has(message.id);
  if (error) failures.set(message.id, error);
  else failures.delete(message.id);
  const current = messages.get(message.id);
  if (current && (error || had)) rerender(current);
}

// ---- Apps: the context-menu commands --------------------------------------------------------------------

let appsMenu: HTMLElement | undefined;

function closeApps(): void {
  appsMenu?.remove();
  appsMenu = undefined;
}

/**
 * Discord's Apps submenu: the context-menu commands of a message or a member, at the pointer (right-click) or under
 * the ⋯ pressed. Choosing one runs it as the current player on that message or member.
 */
function openApps(at: HTMLElement | { x: number; y: number }, kind: 'message' | 'user', target: string): void {
  closeApps();
  const offered = menus.filter((menu) => menu.type === MENU_TYPE[kind]);
  const run = async (menu: AppMenu): Promise<void> => {
    closeApps();
    const error = await act(kind === 'message' ? { menu: menu.name, message: target } : { menu: menu.name, target });
    const message = kind === 'message' ? messages.get(target) : undefined;
    if (message) {
      const had = failures.has(target);
      if (error) failures.set(target, error);
      else failures.delete(target);
      if (error || had) rerender(message);
    } else if (error) notice(error);
  };
  const items = offered.map((menu) => h('button', { class: 'apps-item', type: 'button', role: 'menuitem', onclick: () => void run(menu) }, menu.name));
  const panel = h('div', { class: 'apps-menu', role: 'menu', 'aria-label': kind === 'message' ? 'Apps for this message' : `Apps for ${target}` },
    h('div', { class: 'apps-title' }, 'Apps'),
    ...(items.length ? items : [h('div', { class: 'apps-empty' }, 'No apps here')]));
  document.body.append(panel);
  const point = 'x' in at ? at : (() => {
    const box = at.getBoundingClientRect();
    return { x: box.left, y: box.bottom + 4 };
  })();
  const { width, height } = panel.getBoundingClientRect();
  panel.style.left = `${Math.max(4, Math.min(point.x, window.innerWidth - width - 4))}px`;
  panel.style.top = `${Math.max(4, Math.min(point.y, window.innerHeight - height - 4))}px`;
  appsMenu = panel;
  items[0]?.focus();
}

list.addEventListener('contextmenu', (event) => {
  const article = (event.target as Element).closest<HTMLElement>('article[data-id]');
  const message = article ? messages.get(article.dataset.id ?? '') : undefined;
  if (!message || (message.flags & 64) !== 0) return;
  event.preventDefault();
  openApps({ x: event.clientX, y: event.clientY }, 'message', message.id);
});
$('players').addEventListener('contextmenu', (event) => {
  const player = (event.target as Element).closest<HTMLElement>('.player[data-user]');
  if (!player) return;
  event.preventDefault();
  openApps({ x: event.clientX, y: event.clientY }, 'user', player.dataset.user ?? '');
});
document.addEventListener('click', (event) => {
  if (appsMenu && !appsMenu.contains(event.target as Node) && !(event.target as Element).closest?.('.apps-button')) closeApps();
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') closeApps();
});

// ---- modals ----------------------------------------------------------------------------------------------

function textField(input: Component, label: string | undefined, description: string | undefined): HTMLElement {
  const id = `field-${input.custom_id}`;
  const attrs = {
    id,
    name: input.custom_id,
    'data-custom-id': input.custom_id,
    placeholder: input.placeholder,
    maxlength: input.max_length,
    minlength: input.min_length,
    required: input.required !== false,
  };
  const control = input.style === TextInputStyle.Paragraph ? h('textarea', { ...attrs, rows: 4 }) : h('input', { ...attrs, type: 'text' });
  control.value = input.value ?? '';
  const counter = input.max_length ? h('div', { class: 'counter' }) : null;
  const count = (): void => {
    if (!counter) return;
    const length = [...control.value].length;
    counter.textContent = input.style === TextInputStyle.Paragraph || length > 0 ? `${length}/${input.max_length}` : '';
  };
  control.addEventListener('input', count);
  count();
  return h('div', { class: 'field' },
    h('label', { for: id }, label ?? input.label ?? input.custom_id ?? '', input.required !== false ? h('span', { class: 'required' }, ' *') : null),
    description ? h('div', { class: 'field-description' }, description) : null,
    control, counter);
}

function selectField(select: Component, label: string | undefined): HTMLElement {
  const control = h('select', { name: select.custom_id, 'data-custom-id': select.custom_id, required: select.required !== false },
    h('option', { value: '' }, select.placeholder ?? 'Make a selection'),
    ...(select.options ?? []).map((o) => h('option', { value: o.value, selected: o.default === true }, o.label)));
  return h('div', { class: 'field' }, h('label', {}, label ?? ''), control);
}

function openModal(modal: Modal, messageId: string | undefined): void {
  const body = h('div', { class: 'modal-body' });
  for (const row of modal.components) {
    if (row.type === ComponentType.ActionRow) for (const c of row.components ?? []) if (c.type === ComponentType.TextInput) body.append(textField(c, c.label, undefined));
    if (row.type === ComponentType.Label && row.component) {
      body.append(row.component.type === ComponentType.TextInput ? textField(row.component, row.label, row.description) : selectField(row.component, row.label));
    }
    if (row.type === ComponentType.TextDisplay && row.content) body.append(h('div', { class: 'modal-text', html: markdown(row.content, names) }));
  }
  const error = h('div', { class: 'modal-error', hidden: true });
  const submit = h('button', { class: 'button primary', type: 'submit' }, 'Submit');
  const form = h('form', { class: 'modal-form', novalidate: false },
    h('header', { class: 'modal-header' }, h('h2', {}, modal.title),
      h('button', { class: 'modal-close', type: 'button', 'aria-label': 'Close', onclick: () => dialog.close() }, '✕')),
    body, error,
    h('footer', { class: 'modal-footer' }, h('button', { class: 'linklike cancel', type: 'button', onclick: () => dialog.close() }, 'Cancel'), submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const fields: Record<string, string> = {};
    for (const control of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>('[data-custom-id]')) {
      fields[control.dataset.customId!] = control.value;
    }
    submit.disabled = true;
    submit.classList.add('pending');
    void act({ modal: modal.custom_id, fields, ...(messageId ? { message: messageId } : {}) }).then((failure) => {
      submit.disabled = false;
      submit.classList.remove('pending');
      if (!failure) return dialog.close();
      error.textContent = failure;
      error.hidden = false;
    });
  });
  dialog.replaceChildren(form);
  dialog.dataset.customId = modal.custom_id;
  if (!dialog.open) dialog.showModal();
  form.querySelector<HTMLElement>('input, textarea, select')?.focus();
}

// ---- the composer: slash commands with suggestions -------------------------------------------------------

interface Suggestion {
  label: string;
  detail?: string;
  tags?: string[];
  start: number;
  end: number;
  insert: string;
  /** For values: the option and the choice (its value is sent, its name shown). */
  option?: string;
  choice?: Choice;
  file?: boolean;
}

interface PopupContent {
  title?: string;
  items: Suggestion[];
  /** Whether the first item is highlighted, so that Enter takes it. */
  auto: boolean;
  loading?: boolean;
}

const picked = new Map<string, Choice>();
const files = new Map<string, UploadedFile>();
let shown: PopupContent = { items: [], auto: false };
let active = -1;
let pendingFile: Suggestion | undefined;
const autocomplete: { key: string; choices?: Choice[]; timer?: number } = { key: '' };

function optionTags(option: { type: number; required?: boolean; autocomplete?: boolean }): string[] {
  return [typeName(option.type), ...(option.required ? ['required'] : [])];
}

function valueSuggestions(ctx: Extract<CaretContext, { kind: 'value' }>): PopupContent {
  const { token, typed, leaf, parsed } = ctx;
  const option = token.option;
  const range = { start: token.valueStart, end: token.end };
  const value = (name: string, choice?: Choice): Suggestion => ({ label: name, ...range, insert: `${name} `, option: option.name, ...(choice ? { choice } : {}) });
  const limits = [option.min_value !== undefined ? `min ${option.min_value}` : '', option.max_value !== undefined ? `max ${option.max_value}` : '', option.max_length ? `up to ${option.max_length} characters` : ''].filter(Boolean).join(', ');
  const title = `${option.name} · ${typeName(option.type)}${option.required ? ' · required' : ''}${limits ? ` (${limits})` : ''} — ${option.description}`;
  let items: Suggestion[] = [];
  let loading = false;
  if (option.choices?.length) items = matchingChoices(typed, option.choices).map((c) => value(c.name, c));
  else if (option.autocomplete && me) {
    const key = `${me.name}|${leaf.path}|${option.name}|${typed.trim()}|${parsed.tokens.map((t) => `${t.option.name}=${t.value}`).join('&')}`;
    if (autocomplete.key !== key) requestAutocomplete(key, ctx);
    if (autocomplete.choices) items = autocomplete.choices.map((c) => value(c.name, c));
    else loading = true;
  } else if (option.type === ApplicationCommandOptionType.Boolean) items = matchingChoices(typed, [{ name: 'True', value: 'true' }, { name: 'False', value: 'false' }]).map((c) => value(c.name));
  else if (option.type in SELECT_FOR_OPTION) items = matchingChoices(typed.replace(/^[@#]/, ''), selectOptions({ type: SELECT_FOR_OPTION[option.type]! }).map((o) => ({ name: o.label, value: o.value }))).map((c) => value(c.name));
  else if (option.type === ApplicationCommandOptionType.Attachment) items = [{ label: files.get(option.name) ? `Replace ${files.get(option.name)!.filename}…` : 'Upload a file…', ...range, insert: '', option: option.name, file: true }];
  const exact = items.some((s) => s.label.toLowerCase() === typed.trim().toLowerCase());
  // A file option's "Upload a file…" is highlighted until a file is chosen: Enter opens the file picker, then sends.
  let auto = items.length > 0 && !exact && (!items[0]!.file || !files.has(option.name));
  let heading = title;
  // After a word and a space, the next option may be starting.
  if (/\S\s+\S*$/.test(typed)) {
    if (/\s$/.test(typed) && (exact || !items.length)) {
      items = [];
      auto = false;
      heading = `/${leaf.path} — ${leaf.description}`;
    }
    const partial = input.value.slice(ctx.wordStart, input.selectionStart ?? input.value.length);
    const names = unusedOptions(leaf, parsed).filter((o) => o.name.startsWith(partial.toLowerCase()));
    if (partial) auto ||= names.length > 0 && !items.length;
    items = [...items, ...names.map((o) => ({ label: `${o.name}:`, detail: o.description, tags: optionTags(o), start: ctx.wordStart, end: ctx.wordStart + partial.length, insert: `${o.name}:` }))];
  }
  return { title: heading, items, auto, loading };
}

function requestAutocomplete(key: string, ctx: Extract<CaretContext, { kind: 'value' }>): void {
  autocomplete.key = key;
  autocomplete.choices = undefined;
  window.clearTimeout(autocomplete.timer);
  const player = me!;
  autocomplete.timer = window.setTimeout(() => {
    const options = autocompleteOptions(ctx.parsed, ctx.token, ctx.typed, { picked });
    interact(player, { command: ctx.leaf.path, options, focused: ctx.token.option.name })
      .then((result) => result.responses.find((r) => r.kind === 'autocomplete')?.choices ?? [])
      .catch(() => [] as Choice[])
      .then((choices) => {
        if (autocomplete.key !== key) return;
        autocomplete.choices = choices;
        updatePopup();
      });
  }, 120);
}

function suggest(): PopupContent {
  const ctx = contextAt(input.value, input.selectionStart ?? input.value.length, leaves);
  switch (ctx.kind) {
    case 'none':
      return { items: [], auto: false };
    case 'command': {
      const items = matchingLeaves(ctx.typed, leaves).map((l) => ({ label: `/${l.path}`, detail: l.description, start: 0, end: ctx.end, insert: `/${l.path} ` }));
      return { title: items.length ? `Commands of ${server.bot.username}` : 'No command matches', items, auto: items.length > 0 };
    }
    case 'name': {
      const editing = ctx.parsed.tokens.find((t) => t.nameStart === ctx.start);
      const options = unusedOptions(ctx.leaf, ctx.parsed, editing).filter((o) => o.name.startsWith(ctx.partial.toLowerCase()));
      const items = options.map((o) => ({ label: `${o.name}:`, detail: o.description, tags: optionTags(o), start: ctx.start, end: ctx.end, insert: `${o.name}:` }));
      const title = items.length ? `/${ctx.leaf.path} — ${ctx.leaf.description}` : `/${ctx.leaf.path}: press Enter to send`;
      return { title, items, auto: ctx.partial.length > 0 && items.length > 0 };
    }
    case 'value':
      return valueSuggestions(ctx);
  }
}

function closePopup(): void {
  popup.hidden = true;
  shown = { items: [], auto: false };
  active = -1;
}

function updatePopup(): void {
  shown = suggest();
  active = shown.auto ? 0 : -1;
  drawPopup();
}

function drawPopup(): void {
  if (!shown.title && !shown.items.length) return closePopup();
  popup.hidden = false;
  popup.replaceChildren(
    h('div', { class: 'popup-title', hidden: !shown.title }, shown.title ?? ''),
    ...shown.items.map((s, i) => {
      const row = h('div', { class: `popup-item${i === active ? ' active' : ''}`, role: 'option', 'data-label': s.label },
        h('span', { class: 'popup-label' }, s.label),
        ...(s.tags ?? []).map((t) => h('span', { class: `tag${t === 'required' ? ' required' : ''}` }, t)),
        s.detail ? h('span', { class: 'popup-detail' }, s.detail) : null);
      row.addEventListener('mousedown', (event) => {
        event.preventDefault();
        take(s);
      });
      return row;
    }),
    h('div', { class: 'popup-loading', hidden: !shown.loading }, 'Asking the bot for suggestions…'),
  );
  popup.querySelector('.active')?.scrollIntoView({ block: 'nearest' });
}

function take(s: Suggestion): void {
  if (s.file) {
    pendingFile = s;
    $<HTMLInputElement>('file-picker').click();
    return;
  }
  const text = input.value;
  input.value = text.slice(0, s.start) + s.insert + text.slice(s.end);
  const caret = s.start + s.insert.length;
  input.setSelectionRange(caret, caret);
  if (s.option && s.choice) picked.set(s.option, { name: s.choice.name, value: s.choice.value });
  input.focus();
  updatePopup();
}

function showError(text: string | undefined): void {
  composerError.hidden = !text;
  composerError.textContent = text ?? '';
}

async function send(): Promise<void> {
  // A suggestion the user typed out in full counts as picked (its value is sent).
  for (const choice of autocomplete.choices ?? []) {
    const ctx = contextAt(input.value, input.value.length, leaves);
    if (ctx.kind === 'value' && ctx.token.value === choice.name) picked.set(ctx.token.option.name, choice);
  }
  const built = buildRequest(input.value, leaves, { picked, files });
  if ('error' in built) return showError(built.error);
  const text = input.value;
  input.value = '';
  picked.clear();
  files.clear();
  showError(undefined);
  closePopup();
  const failure = await act({ command: built.command, options: built.options });
  if (failure) {
    notice(`${text} — the sandbox could not send it: ${failure}`);
    if (!input.value) input.value = text;
  }
}

$('send').addEventListener('mousedown', (event) => event.preventDefault()); // keeps the keyboard up
$('send').addEventListener('click', () => void send());

input.addEventListener('input', () => {
  showError(undefined);
  updatePopup();
});
input.addEventListener('click', updatePopup);
input.addEventListener('blur', () => window.setTimeout(closePopup, 100));
input.addEventListener('keydown', (event) => {
  const open = !popup.hidden && shown.items.length > 0;
  if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && open) {
    event.preventDefault();
    const n = shown.items.length;
    active = event.key === 'ArrowDown' ? (active + 1) % n : (active - 1 + n) % n;
    drawPopup();
  } else if (event.key === 'Tab' && open) {
    event.preventDefault();
    take(shown.items[Math.max(active, 0)]!);
  } else if (event.key === 'Enter') {
    event.preventDefault();
    const choice = open && active >= 0 ? shown.items[active] : undefined;
    const after = choice ? input.value.slice(0, choice.start) + choice.insert + input.value.slice(choice.end) : '';
    if (choice && (choice.file || after.trimEnd() !== input.value.trimEnd())) take(choice);
    else void send();
  } else if (event.key === 'Escape') {
    closePopup();
  } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Home' || event.key === 'End') {
    window.setTimeout(updatePopup, 0);
  }
});

$<HTMLInputElement>('file-picker').addEventListener('change', (event) => {
  const picker = event.target as HTMLInputElement;
  const file = picker.files?.[0];
  const target = pendingFile;
  picker.value = '';
  if (!file || !target?.option) return;
  const reader = new FileReader();
  reader.onload = () => {
    const base64 = String(reader.result).split(',')[1] ?? '';
    files.set(target.option!, { filename: file.name, base64, ...(file.type ? { contentType: file.type } : {}) });
    take({ ...target, file: false, insert: `${file.name} ` });
  };
  reader.readAsDataURL(file);
});

// ---- start -----------------------------------------------------------------------------------------------

$('menu-button').addEventListener('click', () => (document.body.classList.contains('drawer-open') ? closeDrawer() : openDrawer()));
$('me-chip').addEventListener('click', openDrawer);
$('drawer-close').addEventListener('click', closeDrawer);
$('scrim').addEventListener('click', closeDrawer);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && document.body.classList.contains('drawer-open') && !dialog.open) closeDrawer();
});
phone.addEventListener('change', () => {
  if (!phone.matches) closeDrawer();
  renderPlayers();
});

$('add-player').addEventListener('submit', (event) => {
  event.preventDefault();
  const field = $<HTMLInputElement>('user-name');
  switchTo(field.value);
  field.value = '';
});
$('user-dispatcher').addEventListener('change', (event) => {
  if (!me) return;
  me.dispatcher = (event.target as HTMLInputElement).checked;
  save();
  renderPlayers();
});
$('user-manage').addEventListener('change', (event) => {
  if (!me) return;
  me.manageServer = (event.target as HTMLInputElement).checked;
  save();
  renderPlayers();
});

async function start(): Promise<void> {
  load();
  const [info, registered] = await Promise.all([get<ServerInfo>('/api/server'), get<{ commands: Command[]; menus?: AppMenu[] }>('/api/commands'), refreshUsers()]);
  server = info;
  leaves = leafCommands(registered.commands);
  menus = registered.menus ?? [];
  $('guild-name').textContent = server.guild.name;
  $('channel-name').textContent = server.channel.name;
  $('channel-name-side').textContent = server.channel.name;
  document.title = `#${server.channel.name} · ${server.guild.name}`;
  renderPlayers();
  connect();
  // A first visit on a phone opens the player list: nothing can be sent before choosing who you are.
  if (!me && phone.matches) openDrawer();
  if (!phone.matches) (me ? input : $<HTMLInputElement>('user-name')).focus();
  document.body.dataset.ready = 'true';
}

void start().catch((error: unknown) => {
  setStatus('offline', false);
  notice(`The page could not load the sandbox: ${error instanceof Error ? error.message : String(error)}`);
});
