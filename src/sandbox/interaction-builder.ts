// Turns a sandbox request ("mike runs /roll challenge skill:Climbing cl:90") into the INTERACTION_CREATE
// payload Discord would send: the registered command's definition decides the subcommand path and how each
// option value is typed and resolved. Requests a real Discord client could not produce (unknown command or
// option, a missing required option, a value outside the choices, a button that is not on the message) are
// refused with a SandboxRequestError, so a script finds its mistake instead of watching the bot time out; a request
// marked `forged` sends a press of a component its message does not carry, as a forged client can.
// An interaction happens in one guild: for a component, and a modal opened from a message, the message's guild;
// otherwise the request's `guild`, or without one the guild the modal was opened in, or the default guild. Roles,
// members, channels and permissions resolve there.
import { ApplicationCommandOptionType, ApplicationCommandType, ComponentType, InteractionType } from 'discord-api-types/v10';
import type {
  APIApplicationCommandAutocompleteGuildInteraction,
  APIApplicationCommandInteractionDataBasicOption,
  APIChatInputApplicationCommandGuildInteraction,
  APIMessage,
  APIMessageApplicationCommandGuildInteraction,
  APIMessageApplicationCommandInteractionData,
  APIUserApplicationCommandGuildInteraction,
  APIUserApplicationCommandInteractionData,
  APIMessageComponentGuildInteraction,
  APIModalSubmitGuildInteraction,
  GatewayInteractionCreateDispatchData,
  APIApplicationCommandInteractionDataOption,
  APIAutocompleteApplicationCommandInteractionData,
  APIChatInputApplicationCommandInteractionData,
  APIInteractionDataResolved,
  APIMessageComponentInteractionData,
  APIMessageSelectMenuInteractionData,
  APIModalSubmission,
  APIModalSubmissionComponent,
  APIModalSubmitTextInputComponent,
  ModalSubmitComponent,
} from 'discord-api-types/v10';
import { isSelectMenu, isSubcommandOrGroup } from './discord-limits.js';
import type { FakeGuild, FakeState, Json, MessageRecord, RoleRecord, StoredFile } from './fake-state.js';
import { EVERYONE_PERMISSIONS, PERMISSION_NAMES, permissionBits } from './fake-state.js';
import type { OpenedModal } from './interaction-tracker.js';
import type { SandboxAttachment, SandboxInteractionRequest } from './types.js';
import { SandboxRequestError } from './types.js';

/**
 * An interaction's type and its `data`, typed by discord-api-types (where Discord's HTTP spec has no gateway
 * payloads): tsc proves each kind's data has the shape Discord sends, and fake-gateway.ts proves the whole
 * INTERACTION_CREATE (interactionPayload in fake-discord.ts).
 */
export type InteractionData =
  | { type: InteractionType.ApplicationCommand; data: APIChatInputApplicationCommandInteractionData }
  | { type: InteractionType.ApplicationCommand; data: APIUserApplicationCommandInteractionData | APIMessageApplicationCommandInteractionData }
  | { type: InteractionType.ApplicationCommandAutocomplete; data: APIAutocompleteApplicationCommandInteractionData & Required<Pick<APIAutocompleteApplicationCommandInteractionData, 'options'>> }
  | { type: InteractionType.MessageComponent; data: APIMessageComponentInteractionData }
  | { type: InteractionType.ModalSubmit; data: APIModalSubmission };

export type BuiltInteraction = InteractionData & {
  guild: FakeGuild;
  channelId: string;
  userId: string;
  sourceMessage?: MessageRecord;
  commandName?: string;
};

type CommandKind = InteractionType.ApplicationCommand | InteractionType.ApplicationCommandAutocomplete;

/** What every interaction the fake sends carries besides its type, data and message (a guild interaction's fields). */
export type InteractionCommon = Omit<APIChatInputApplicationCommandGuildInteraction, 'type' | 'data' | 'message'>;

/**
 * The INTERACTION_CREATE payload of a built interaction: each kind is checked by tsc against discord-api-types' type
 * of a guild interaction of that kind (a component's carries the message it sits on, a modal's the message it was
 * opened from, if any).
 */
export function interactionPayload(built: InteractionData, common: InteractionCommon, message: APIMessage | undefined): GatewayInteractionCreateDispatchData {
  switch (built.type) {
    case InteractionType.ApplicationCommand:
      if (built.data.type === ApplicationCommandType.User) return { ...common, type: built.type, data: built.data } satisfies APIUserApplicationCommandGuildInteraction;
      if (built.data.type === ApplicationCommandType.Message) return { ...common, type: built.type, data: built.data } satisfies APIMessageApplicationCommandGuildInteraction;
      return { ...common, type: built.type, data: built.data } satisfies APIChatInputApplicationCommandGuildInteraction;
    case InteractionType.ApplicationCommandAutocomplete:
      return { ...common, type: built.type, data: built.data } satisfies APIApplicationCommandAutocompleteGuildInteraction;
    case InteractionType.MessageComponent:
      if (!message) throw new Error('a component interaction needs the message its component sits on');
      return { ...common, type: built.type, data: built.data, message } satisfies APIMessageComponentGuildInteraction;
    case InteractionType.ModalSubmit:
      return { ...common, type: built.type, data: built.data, ...(message ? { message } : {}) } satisfies APIModalSubmitGuildInteraction;
  }
}

type OptionDef = Json & { name: string; type: number };

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionsOf = (node: Json | undefined): OptionDef[] =>
  (Array.isArray(node?.options) ? node.options : []).filter((o): o is OptionDef => isObject(o) && typeof o.name === 'string');

export function buildInteraction(
  state: FakeState,
  request: SandboxInteractionRequest,
  findModal: (customId: string) => OpenedModal | undefined,
): BuiltInteraction {
  if (!isObject(request)) throw new SandboxRequestError('the request must be a JSON object');
  if (typeof request.user !== 'string' || !request.user.trim()) throw new SandboxRequestError('"user" is required (a user name or id)');
  const user = state.user(request.user);
  if (user.bot) throw new SandboxRequestError(`"${request.user}" is the bot; interactions come from users`);
  if (request.roles !== undefined && (!Array.isArray(request.roles) || request.roles.some((r) => typeof r !== 'string'))) {
    throw new SandboxRequestError('"roles" must be a list of role names');
  }
  const permissions = Array.isArray(request.permissions ?? []) ? permissionBits(request.permissions ?? []) : undefined;
  if (permissions === undefined) {
    throw new SandboxRequestError(`"permissions" must be a list of permission names: ${PERMISSION_NAMES.join(', ')}`);
  }
  const kinds = ['command', 'menu', 'button', 'select', 'modal'].filter((key) => request[key as keyof SandboxInteractionRequest] !== undefined);
  if (kinds.length !== 1) {
    throw new SandboxRequestError('give exactly one of "command", "menu", "button", "select" or "modal"');
  }
  const isComponent = request.button !== undefined || request.select !== undefined;
  const source = isComponent
    ? sourceMessage(state, request.message, request.button !== undefined ? 'button press' : 'select')
    : request.modal !== undefined && request.message !== undefined
      ? sourceMessage(state, request.message, 'modal')
      : undefined;
  const opened = request.modal !== undefined ? findModal(String(request.modal)) : undefined;
  const guild = resolveGuild(state, request.guild, source, opened?.guildId);
  const roleIds = (request.roles ?? []).map((name) => role(guild, name).id);
  guild.member(user.id, roleIds, permissions);
  if (request.menu !== undefined) {
    // A context menu acts where what was clicked is: a message's channel and guild, or the request's guild.
    const target = request.message !== undefined ? sourceMessage(state, request.message, 'message context menu') : undefined;
    const where = target ? (state.guildOfChannel(target.channelId) ?? state.defaultGuild) : resolveGuild(state, request.guild, undefined, undefined);
    const menuRoles = (request.roles ?? []).map((name) => role(where, name).id);
    where.member(user.id, menuRoles, permissions);
    const built = buildMenu(state, where, request, target);
    return { ...built, guild: where, channelId: target?.channelId ?? resolveChannel(where, request.channel), userId: user.id };
  }
  const channelId = request.thread !== undefined ? guild.thread(String(request.thread)).id : resolveChannel(guild, request.channel);

  if (request.command !== undefined) {
    return { ...buildCommand(state, guild, request), guild, channelId, userId: user.id };
  }
  if (request.modal !== undefined) {
    return { ...buildModalSubmit(request, source, opened?.modal), guild, channelId, userId: user.id };
  }
  return { ...buildComponent(state, guild, request, source!), guild, userId: user.id };
}

/**
 * The guild the interaction happens in. A message's guild wins, since a component is pressed where its message
 * is; naming another guild with it is a mistake worth reporting.
 */
function resolveGuild(state: FakeState, name: unknown, source: MessageRecord | undefined, modalGuildId: string | undefined): FakeGuild {
  if (name !== undefined && (typeof name !== 'string' || !name.trim())) throw new SandboxRequestError('"guild" must be a guild name');
  if (source) {
    const guild = state.guildOfChannel(source.channelId) ?? state.defaultGuild;
    if (name !== undefined && state.findGuild(name) !== guild) {
      throw new SandboxRequestError(`message ${source.id} is in the guild "${guild.name}", not "${name}"`);
    }
    return guild;
  }
  if (name === undefined && modalGuildId !== undefined) return state.guilds.get(modalGuildId) ?? state.defaultGuild;
  try {
    return state.guild(name);
  } catch (error) {
    throw new SandboxRequestError(`"guild": ${(error as Error).message}`);
  }
}

function role(guild: FakeGuild, name: string): RoleRecord {
  if (!name.trim()) throw new SandboxRequestError('a role name cannot be empty');
  return guild.role(name);
}

function resolveChannel(guild: FakeGuild, channel: string | undefined): string {
  if (channel === undefined) return guild.channelId;
  const key = String(channel).replace(/^#/, '').toLowerCase();
  if (key === guild.channelId || key === guild.channelName) return guild.channelId;
  throw new SandboxRequestError(`unknown channel "${channel}" (the guild "${guild.name}" has one channel: #${guild.channelName})`);
}

// ---- slash commands and autocomplete ---------------------------------------------------------------------

function buildCommand(
  state: FakeState,
  guild: FakeGuild,
  request: SandboxInteractionRequest,
): Extract<InteractionData, { type: CommandKind }> & { commandName: string } {
  if (typeof request.command !== 'string' || !request.command.trim()) throw new SandboxRequestError('"command" must be a non-empty string');
  const words = request.command.trim().replace(/^\//, '').split(/\s+/);
  const name = words[0]!.toLowerCase();
  // What the guild offers (FakeState.offeredCommands), or a command its list dropped, as a client that has not
  // refreshed its list still sends it.
  const record = state.commandFor(guild, name, words.slice(1));
  if (!record) {
    const known = state.offeredCommands(guild).map((c) => String(c.definition.name));
    throw new SandboxRequestError(`unknown command "/${name}"${known.length ? ` (registered: ${[...new Set(known)].sort().join(', ')})` : ' (the bot registered no commands)'}`);
  }
  const definition = record.definition;

  // Walk the words after the name down the subcommand groups and subcommands.
  const path: OptionDef[] = [];
  let level: Json = definition;
  for (const word of words.slice(1)) {
    const next = optionsOf(level).find((o) => isSubcommandOrGroup(o) && o.name === word.toLowerCase());
    if (!next) {
      const subs = optionsOf(level).filter(isSubcommandOrGroup).map((o) => o.name);
      throw new SandboxRequestError(`"/${[name, ...path.map((p) => p.name)].join(' ')}" has no subcommand "${word}"${subs.length ? ` (choose: ${subs.join(', ')})` : ''}`);
    }
    path.push(next);
    level = next;
  }
  const pending = optionsOf(level).filter(isSubcommandOrGroup);
  if (pending.length > 0) {
    throw new SandboxRequestError(`"/${[name, ...path.map((p) => p.name)].join(' ')}" needs a subcommand: ${pending.map((o) => o.name).join(', ')}`);
  }
  const fullName = [name, ...path.map((p) => p.name)].join(' ');
  const leaf = optionsOf(level);

  const given = request.options ?? {};
  if (!isObject(given)) throw new SandboxRequestError('"options" must be an object of option name → value');
  const values = new Map<string, unknown>();
  for (const [key, value] of Object.entries(given)) {
    const def = leaf.find((o) => o.name === key.toLowerCase());
    if (!def) {
      throw new SandboxRequestError(`unknown option "${key}" for /${fullName}${leaf.length ? ` (options: ${leaf.map((o) => o.name).join(', ')})` : ' (it takes no options)'}`);
    }
    if (value !== undefined && value !== null) values.set(def.name, value);
  }

  const autocomplete = request.focused !== undefined;
  let focusedDef: OptionDef | undefined;
  if (autocomplete) {
    focusedDef = leaf.find((o) => o.name === String(request.focused).toLowerCase());
    if (!focusedDef) throw new SandboxRequestError(`unknown option "${request.focused}" for /${fullName}`);
    if (focusedDef.autocomplete !== true) throw new SandboxRequestError(`option "${focusedDef.name}" of /${fullName} has no autocomplete`);
  } else {
    const missing = leaf.filter((o) => o.required === true && !values.has(o.name)).map((o) => o.name);
    if (missing.length) throw new SandboxRequestError(`/${fullName} needs the option${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  }

  const resolved: APIInteractionDataResolved = {};
  const kind: CommandKind = autocomplete ? InteractionType.ApplicationCommandAutocomplete : InteractionType.ApplicationCommand;
  const options: APIApplicationCommandInteractionDataBasicOption<CommandKind>[] = [];
  for (const def of leaf) {
    if (def === focusedDef) {
      // Discord sends what the user has typed so far, as a string, whatever the option's type.
      options.push({ ...dataOption(def, String(values.get(def.name) ?? ''), kind), focused: true } as APIApplicationCommandInteractionDataBasicOption<CommandKind>);
      continue;
    }
    if (!values.has(def.name)) continue;
    const value = convertOption(state, guild, def, values.get(def.name), `/${fullName}`, resolved);
    options.push(dataOption(def, value, kind));
  }

  let nested: APIApplicationCommandInteractionDataOption<CommandKind>[] = options;
  for (const step of [...path].reverse()) {
    nested = [
      step.type === ApplicationCommandOptionType.SubcommandGroup
        ? { name: step.name, type: ApplicationCommandOptionType.SubcommandGroup, options: nested as never }
        : { name: step.name, type: ApplicationCommandOptionType.Subcommand, ...(nested.length ? { options: nested as APIApplicationCommandInteractionDataBasicOption<CommandKind>[] } : {}) },
    ];
  }
  const base = {
    id: record.id,
    name: String(definition.name),
    type: ApplicationCommandType.ChatInput,
    // A guild command is the interaction's guild's own, wherever the sandbox registered it.
    ...(record.guildId ? { guild_id: guild.id } : {}),
    ...(Object.keys(resolved).length ? { resolved } : {}),
  } as const;
  if (kind === InteractionType.ApplicationCommandAutocomplete) {
    // Autocomplete always has options: the focused one at least.
    const data = { ...base, options: nested as APIApplicationCommandInteractionDataOption<InteractionType.ApplicationCommandAutocomplete>[] };
    return { type: kind, data, commandName: fullName };
  }
  const data = { ...base, ...(nested.length ? { options: nested as APIApplicationCommandInteractionDataOption<InteractionType.ApplicationCommand>[] } : {}) };
  return { type: kind, data, commandName: fullName };
}

// ---- context-menu commands -------------------------------------------------------------------------------

/**
 * A context-menu command run on a message (`message`) or a member (`target`), as Discord sends it: the command's
 * type (2 a member, 3 a message), `target_id`, and what was clicked in `resolved` (the user and member, or the message).
 * Only a command the guild offers (registered there, of that type and name) can be run, on a target of its kind.
 */
function buildMenu(
  state: FakeState,
  guild: FakeGuild,
  request: SandboxInteractionRequest,
  message: MessageRecord | undefined,
): Extract<InteractionData, { type: InteractionType.ApplicationCommand }> & { commandName: string } {
  if (typeof request.menu !== 'string' || !request.menu.trim()) throw new SandboxRequestError('"menu" must be a context-menu command\'s name');
  const onMessage = message !== undefined;
  if (onMessage === (request.target !== undefined)) {
    throw new SandboxRequestError('a context menu is run on one thing: give "message" (a message id) or "target" (a user name or id)');
  }
  const type = onMessage ? ApplicationCommandType.Message : ApplicationCommandType.User;
  const offered = state.offeredMenus(guild, type);
  const record = offered.find((c) => String(c.definition.name).toLowerCase() === request.menu!.trim().toLowerCase());
  if (!record) {
    const names = offered.map((c) => `"${String(c.definition.name)}"`);
    throw new SandboxRequestError(`no ${onMessage ? 'message' : 'user'} context menu "${request.menu}"${names.length ? ` (offered: ${names.join(', ')})` : ' (the bot registered none)'}`);
  }
  const base = { id: record.id, name: String(record.definition.name), ...(record.guildId ? { guild_id: guild.id } : {}) } as const;
  if (message) {
    if (state.guildOfChannel(message.channelId) !== guild) throw new SandboxRequestError(`message ${message.id} is not in the guild "${guild.name}"`);
    const data: APIMessageApplicationCommandInteractionData = { ...base, type: ApplicationCommandType.Message, target_id: message.id, resolved: { messages: { [message.id]: state.apiMessage(message) } } };
    return { type: InteractionType.ApplicationCommand, data, commandName: base.name };
  }
  if (typeof request.target !== 'string' || !request.target.trim()) throw new SandboxRequestError('"target" takes a user name or id');
  const user = state.user(request.target);
  guild.member(user.id);
  const resolved: APIInteractionDataResolved = {};
  resolver(state, guild, resolved).member(user.id);
  const data: APIUserApplicationCommandInteractionData = { ...base, type: ApplicationCommandType.User, target_id: user.id, resolved: { users: resolved.users ?? {}, ...(resolved.members ? { members: resolved.members } : {}) } };
  return { type: InteractionType.ApplicationCommand, data, commandName: base.name };
}

/**
 * An option as the interaction carries it, by its type. In an autocomplete interaction, integer and number options
 * come as the text typed so far (discord-api-types: Discord sends every autocomplete value as typed, a string).
 */
function dataOption(def: OptionDef, value: string | number | boolean, kind: CommandKind): APIApplicationCommandInteractionDataBasicOption<CommandKind> {
  const name = def.name;
  switch (def.type) {
    case ApplicationCommandOptionType.Integer:
      return kind === InteractionType.ApplicationCommandAutocomplete
        ? { name, type: ApplicationCommandOptionType.Integer, value: String(value) }
        : { name, type: ApplicationCommandOptionType.Integer, value: Number(value) };
    case ApplicationCommandOptionType.Number:
      return kind === InteractionType.ApplicationCommandAutocomplete
        ? { name, type: ApplicationCommandOptionType.Number, value: String(value) }
        : { name, type: ApplicationCommandOptionType.Number, value: Number(value) };
    case ApplicationCommandOptionType.Boolean:
      return { name, type: ApplicationCommandOptionType.Boolean, value: value === true };
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Channel:
    case ApplicationCommandOptionType.Role:
    case ApplicationCommandOptionType.Mentionable:
    case ApplicationCommandOptionType.Attachment:
      return { name, type: def.type, value: String(value) };
    default:
      return { name, type: ApplicationCommandOptionType.String, value: String(value) };
  }
}

function convertOption(state: FakeState, guild: FakeGuild, def: OptionDef, raw: unknown, where: string, resolved: APIInteractionDataResolved): string | number | boolean {
  const label = `option "${def.name}" of ${where}`;
  const add = resolver(state, guild, resolved);
  const choices = Array.isArray(def.choices) ? def.choices.filter(isObject) : [];
  const pickChoice = <T extends string | number>(value: T): T => {
    if (choices.length === 0) return value;
    const exact = choices.find((c) => c.value === value);
    if (exact) return exact.value as T;
    const byName = choices.find((c) => String(c.name).toLowerCase() === String(raw).toLowerCase() || String(c.value) === String(raw));
    if (byName) return byName.value as T;
    throw new SandboxRequestError(`${label} must be one of: ${choices.map((c) => String(c.value)).join(', ')}`);
  };
  switch (def.type) {
    case ApplicationCommandOptionType.String: {
      if (typeof raw === 'object') throw new SandboxRequestError(`${label} takes text`);
      const value = pickChoice(String(raw));
      const n = [...String(value)].length;
      if (typeof def.min_length === 'number' && n < def.min_length) throw new SandboxRequestError(`${label} needs at least ${def.min_length} characters`);
      if (typeof def.max_length === 'number' && n > def.max_length) throw new SandboxRequestError(`${label} takes at most ${def.max_length} characters`);
      return value;
    }
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const number = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (def.type === ApplicationCommandOptionType.Integer && !Number.isSafeInteger(number)) throw new SandboxRequestError(`${label} takes a whole number, not ${JSON.stringify(raw)}`);
      if (!Number.isFinite(number)) throw new SandboxRequestError(`${label} takes a number, not ${JSON.stringify(raw)}`);
      const value = pickChoice(number);
      if (typeof def.min_value === 'number' && number < def.min_value) throw new SandboxRequestError(`${label} must be at least ${def.min_value}`);
      if (typeof def.max_value === 'number' && number > def.max_value) throw new SandboxRequestError(`${label} must be at most ${def.max_value}`);
      return value;
    }
    case ApplicationCommandOptionType.Boolean: {
      if (raw === true || raw === 'true') return true;
      if (raw === false || raw === 'false') return false;
      throw new SandboxRequestError(`${label} takes true or false`);
    }
    case ApplicationCommandOptionType.User: {
      if (typeof raw !== 'string' || !raw.trim()) throw new SandboxRequestError(`${label} takes a user name or id`);
      const user = state.user(raw);
      guild.member(user.id);
      add.member(user.id);
      return user.id;
    }
    case ApplicationCommandOptionType.Channel: {
      const key = String(raw).replace(/^#/, '').toLowerCase();
      if (key !== guild.channelId && key !== guild.channelName) throw new SandboxRequestError(`${label}: unknown channel "${String(raw)}"`);
      add.channel();
      return guild.channelId;
    }
    case ApplicationCommandOptionType.Role: {
      if (typeof raw !== 'string') throw new SandboxRequestError(`${label} takes a role name`);
      const found = role(guild, raw);
      add.role(found);
      return found.id;
    }
    case ApplicationCommandOptionType.Mentionable: {
      if (typeof raw !== 'string' || !raw.trim()) throw new SandboxRequestError(`${label} takes a user or role name`);
      const found = guild.findRole(raw);
      if (found) {
        add.role(found);
        return found.id;
      }
      const user = state.user(raw);
      add.member(user.id);
      return user.id;
    }
    case ApplicationCommandOptionType.Attachment: {
      if (!isObject(raw) || typeof raw.filename !== 'string') {
        throw new SandboxRequestError(`${label} takes a file: { "filename": "…", "content": "text" } or { "filename": "…", "base64": "…" }`);
      }
      const file = state.storeUpload(raw as unknown as SandboxAttachment);
      add.attachment(file);
      return file.id;
    }
    default:
      throw new SandboxRequestError(`${label} has a type (${def.type}) the sandbox cannot fill`);
  }
}

/** Adds users, members, roles, channels and files to an interaction's `resolved`, as Discord gives them there. */
function resolver(state: FakeState, guild: FakeGuild, resolved: APIInteractionDataResolved) {
  return {
    /** A user who is a member: the user, and the member without its user (Discord's partial member, with permissions). */
    member(userId: string): void {
      (resolved.users ??= {})[userId] = state.apiUser(state.user(userId));
      (resolved.members ??= {})[userId] = guild.resolvedMember(userId);
    },
    role(found: RoleRecord): void {
      (resolved.roles ??= {})[found.id] = state.apiRole(found);
    },
    channel(): void {
      const channel = guild.apiChannel();
      (resolved.channels ??= {})[guild.channelId] = { id: channel.id, name: channel.name, type: channel.type, permissions: EVERYONE_PERMISSIONS };
    },
    attachment(file: StoredFile): void {
      (resolved.attachments ??= {})[file.id] = { ...state.apiAttachment(file), ephemeral: true };
    },
  };
}

// ---- message components --------------------------------------------------------------------------------

/** Every component of a message, through action rows, sections, containers and labels. */
function* walkComponents(nodes: unknown): Generator<Json> {
  if (!Array.isArray(nodes)) return;
  for (const node of nodes) {
    if (!isObject(node)) continue;
    yield node;
    yield* walkComponents(node.components);
    if (isObject(node.accessory)) yield* walkComponents([node.accessory]);
    if (isObject(node.component)) yield* walkComponents([node.component]);
  }
}

function sourceMessage(state: FakeState, id: unknown, what: string): MessageRecord {
  if (typeof id !== 'string' || !id) throw new SandboxRequestError(`a ${what} needs "message": the id of the message it sits on`);
  const message = state.messages.get(id);
  if (!message) throw new SandboxRequestError(`unknown message id "${id}"`);
  return message;
}

function buildComponent(
  state: FakeState,
  guild: FakeGuild,
  request: SandboxInteractionRequest,
  message: MessageRecord,
): Extract<InteractionData, { type: InteractionType.MessageComponent }> & { channelId: string; sourceMessage: MessageRecord } {
  const isButton = request.button !== undefined;
  const customId = String(isButton ? request.button : request.select);
  const found = [...walkComponents(message.components)].find((c) => c.custom_id === customId);
  const ids = [...walkComponents(message.components)].map((c) => c.custom_id).filter((c) => typeof c === 'string');
  // A forged press names a component the message does not carry, or one of another kind: it claims to be of the
  // kind the request says, with any values.
  const ofItsKind = found && (isButton ? found.type === ComponentType.Button : isSelectMenu(found.type as number));
  const component = request.forged === true && !ofItsKind ? forgedComponent(customId, isButton, request.values) : found;
  if (!component) {
    throw new SandboxRequestError(`message ${message.id} has no component "${customId}"${ids.length ? ` (it has: ${ids.join(', ')})` : ' (it has no components)'}`);
  }
  if (component.disabled === true) throw new SandboxRequestError(`component "${customId}" is disabled`);
  const type = component.type as number;
  if (isButton) {
    if (type !== ComponentType.Button) throw new SandboxRequestError(`component "${customId}" is not a button (type ${type})`);
    return { type: InteractionType.MessageComponent, data: { custom_id: customId, component_type: ComponentType.Button }, channelId: message.channelId, sourceMessage: message };
  }
  {
    if (!isSelectMenu(type)) throw new SandboxRequestError(`component "${customId}" is not a select menu (type ${type})`);
    if (!Array.isArray(request.values) || request.values.some((v) => typeof v !== 'string')) {
      throw new SandboxRequestError('a select needs "values": a list of strings');
    }
    const min = typeof component.min_values === 'number' ? component.min_values : 1;
    const max = typeof component.max_values === 'number' ? component.max_values : 1;
    if (request.values.length < min || request.values.length > max) {
      throw new SandboxRequestError(`select "${customId}" takes ${min === max ? min : `${min} to ${max}`} value(s), got ${request.values.length}`);
    }
    const data = selectData(state, guild, component, request.values);
    return { type: InteractionType.MessageComponent, data, channelId: message.channelId, sourceMessage: message };
  }
}

/** The component a forged press claims to come from (`forged`): a button, or a string select offering `values`. */
function forgedComponent(customId: string, isButton: boolean, values: unknown): Json {
  if (isButton) return { type: ComponentType.Button, custom_id: customId };
  const options = Array.isArray(values) ? values.map((value) => ({ label: String(value), value: String(value) })) : [];
  return { type: ComponentType.StringSelect, custom_id: customId, options, min_values: 0, max_values: Math.max(1, options.length) };
}

/** A select's data: the chosen values, and for user, role, mentionable and channel selects what they resolve to. */
function selectData(state: FakeState, guild: FakeGuild, select: Json, values: string[]): APIMessageSelectMenuInteractionData {
  const resolved: APIInteractionDataResolved = {};
  const add = resolver(state, guild, resolved);
  const custom_id = String(select.custom_id);
  switch (select.type) {
    case ComponentType.StringSelect: {
      const options = Array.isArray(select.options) ? select.options.filter(isObject) : [];
      const chosen = values.map((value) => {
        const option = options.find((o) => o.value === value) ?? options.find((o) => String(o.label).toLowerCase() === value.toLowerCase());
        if (!option) throw new SandboxRequestError(`select "${custom_id}" has no option "${value}" (options: ${options.map((o) => String(o.value)).join(', ')})`);
        return String(option.value);
      });
      return { custom_id, component_type: ComponentType.StringSelect, values: chosen };
    }
    case ComponentType.RoleSelect: {
      const chosen = values.map((value) => {
        const found = role(guild, value);
        add.role(found);
        return found.id;
      });
      return { custom_id, component_type: ComponentType.RoleSelect, values: chosen, resolved: { roles: resolved.roles ?? {} } };
    }
    case ComponentType.ChannelSelect: {
      const chosen = values.map((value) => {
        const key = value.replace(/^#/, '').toLowerCase();
        if (key !== guild.channelId && key !== guild.channelName) throw new SandboxRequestError(`unknown channel "${value}"`);
        add.channel();
        return guild.channelId;
      });
      return { custom_id, component_type: ComponentType.ChannelSelect, values: chosen, resolved: { channels: resolved.channels ?? {} } };
    }
    case ComponentType.MentionableSelect: {
      const chosen = values.map((value) => {
        const found = guild.findRole(value);
        if (found) {
          add.role(found);
          return found.id;
        }
        const user = state.user(value);
        add.member(user.id);
        return user.id;
      });
      return { custom_id, component_type: ComponentType.MentionableSelect, values: chosen, resolved };
    }
    default: {
      // a user select
      const chosen = values.map((value) => {
        const user = state.user(value);
        add.member(user.id);
        return user.id;
      });
      return { custom_id, component_type: ComponentType.UserSelect, values: chosen, resolved: { users: resolved.users ?? {}, ...(resolved.members ? { members: resolved.members } : {}) } };
    }
  }
}

// ---- modal submits ---------------------------------------------------------------------------------------

function buildModalSubmit(
  request: SandboxInteractionRequest,
  message: MessageRecord | undefined,
  modal: Json | undefined,
): Extract<InteractionData, { type: InteractionType.ModalSubmit }> & { sourceMessage: MessageRecord | undefined } {
  const customId = String(request.modal);
  const fields = request.fields ?? {};
  if (!isObject(fields) || Object.values(fields).some((v) => typeof v !== 'string')) {
    throw new SandboxRequestError('"fields" must be an object of text input custom_id → text');
  }
  let components: APIModalSubmissionComponent[];
  if (modal) {
    components = shapeModalSubmit(modal, fields as Record<string, string>);
  } else {
    // The bot never opened this modal in this process (e.g. the sandbox restarted): submit plain text inputs.
    components = Object.entries(fields).map(([id, value]) => ({ type: ComponentType.ActionRow, components: [{ type: ComponentType.TextInput, custom_id: id, value }] }));
  }
  const data: APIModalSubmission = { custom_id: customId, components };
  return { type: InteractionType.ModalSubmit, data, sourceMessage: message };
}

/** Mirrors the modal the bot showed: action rows of text inputs, or labels around inputs. */
function shapeModalSubmit(modal: Json, fields: Record<string, string>): APIModalSubmissionComponent[] {
  const known = new Set<string>();
  const out: APIModalSubmissionComponent[] = [];
  const idOf = (component: Json): { id?: number } => (typeof component.id === 'number' ? { id: component.id } : {});
  const textInput = (input: Json): APIModalSubmitTextInputComponent => {
    const component = fill(input);
    if (component.type !== ComponentType.TextInput) throw new SandboxRequestError(`modal "${String(modal.custom_id)}": an action row holds text inputs only`);
    return component;
  };
  const fill = (input: Json): ModalSubmitComponent => {
    const id = String(input.custom_id);
    known.add(id);
    const value = fields[id];
    const label = typeof input.label === 'string' ? ` ("${input.label}")` : '';
    if (input.type === ComponentType.TextInput) {
      const text = value ?? '';
      const required = input.required !== false;
      if (required && text === '') throw new SandboxRequestError(`modal field "${id}"${label} is required`);
      const n = [...text].length;
      if (text !== '' && typeof input.min_length === 'number' && n < input.min_length) throw new SandboxRequestError(`modal field "${id}" needs at least ${input.min_length} characters`);
      if (typeof input.max_length === 'number' && n > input.max_length) throw new SandboxRequestError(`modal field "${id}" takes at most ${input.max_length} characters`);
      return { type: ComponentType.TextInput, ...idOf(input), custom_id: id, value: text };
    }
    // A select inside a label: the field's text is one value, or several separated by commas.
    const values = value === undefined || value === '' ? [] : value.split(',').map((v) => v.trim());
    const selectType = input.type as ComponentType.StringSelect | ComponentType.UserSelect | ComponentType.RoleSelect | ComponentType.MentionableSelect | ComponentType.ChannelSelect;
    return { type: selectType, ...idOf(input), custom_id: id, values };
  };
  for (const row of Array.isArray(modal.components) ? modal.components.filter(isObject) : []) {
    if (row.type === ComponentType.ActionRow) {
      const inputs = Array.isArray(row.components) ? row.components.filter(isObject) : [];
      out.push({ type: ComponentType.ActionRow, ...idOf(row), components: inputs.map(textInput) });
    } else if (row.type === ComponentType.Label && isObject(row.component)) {
      out.push({ type: ComponentType.Label, ...idOf(row), component: fill(row.component) });
    }
  }
  const unknown = Object.keys(fields).filter((id) => !known.has(id));
  if (unknown.length) {
    throw new SandboxRequestError(`modal "${String(modal.custom_id)}" has no field ${unknown.map((u) => `"${u}"`).join(', ')} (fields: ${[...known].join(', ')})`);
  }
  return out;
}
