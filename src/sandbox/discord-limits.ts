// Discord's documented limits on what a bot may send, checked by the fake so that a breach fails a test here
// instead of failing in production. Each check returns issues with a path in the request body; the fake turns
// them into Discord's own error shape (code 50035 "Invalid Form Body" with nested `_errors`), which discord.js
// flattens into messages like `data.embeds[0].fields[BASE_TYPE_MAX_LENGTH]: Must be 25 or fewer in length.`

import { ApplicationCommandOptionType, ApplicationCommandType, ButtonStyle, ComponentType, MessageFlags, RESTJSONErrorCodes, TextInputStyle } from 'discord-api-types/v10';

export interface LimitIssue {
  path: (string | number)[];
  code: string;
  message: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** Discord counts characters, not UTF-16 code units. */
const length = (value: unknown): number => (typeof value === 'string' ? [...value].length : 0);

const SELECT_TYPES = new Set<unknown>([
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
]);

/** Whether a component of this type is a select menu (of text, users, roles, both, or channels). */
export function isSelectMenu(type: unknown): boolean {
  return SELECT_TYPES.has(type);
}

class IssueList {
  readonly issues: LimitIssue[] = [];
  add(path: (string | number)[], code: string, message: string): void {
    this.issues.push({ path, code, message });
  }
  maxLength(path: (string | number)[], value: unknown, max: number): void {
    if (typeof value === 'string' && length(value) > max) {
      this.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length (got ${length(value)}).`);
    }
  }
  between(path: (string | number)[], value: unknown, min: number, max: number, required = true): void {
    if (value === undefined || value === null) {
      if (required) this.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    if (typeof value !== 'string') {
      this.add(path, 'STRING_TYPE_CONVERT', 'Must be a string.');
      return;
    }
    const n = length(value);
    if (n < min || n > max) this.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length (got ${n}).`);
  }
  maxItems(path: (string | number)[], value: unknown, max: number): void {
    if (Array.isArray(value) && value.length > max) {
      this.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length (got ${value.length}).`);
    }
  }
}

/** `data.embeds[0].fields` */
export function issuePath(path: (string | number)[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}

/** Human-readable, one line per issue. */
export function describeIssues(issues: LimitIssue[]): string {
  return issues.map((issue) => `${issuePath(issue.path) || '(body)'}: ${issue.message.replace(/\.$/, '')}`).join('; ');
}

/** Discord's error body for a failed validation: nested objects keyed by path with `_errors` leaves. */
export function invalidFormBody(issues: LimitIssue[]): { code: number; message: string; errors: Json } {
  const errors: Json = {};
  for (const issue of issues) {
    let node = errors;
    for (const part of issue.path) {
      const key = String(part);
      if (!isObject(node[key])) node[key] = {};
      node = node[key] as Json;
    }
    const list = (node._errors as unknown[] | undefined) ?? [];
    list.push({ code: issue.code, message: issue.message });
    node._errors = list;
  }
  return { code: RESTJSONErrorCodes.InvalidFormBodyOrContentType, message: 'Invalid Form Body', errors };
}

// ---------------------------------------------------------------------------------------------------------
// Messages

export interface MessageCheckOptions {
  /** Path prefix of the message inside the request body: `['data']` for interaction callbacks. */
  prefix?: (string | number)[];
  /** Number of files uploaded with the request (a message with only files is not empty). */
  fileCount?: number;
  /** Edits may leave out everything; new messages may not be empty. */
  edit?: boolean;
}

/** True when a new message would have nothing to show (Discord: 50006 "Cannot send an empty message"). */
export function isEmptyMessage(body: Json, fileCount: number): boolean {
  const flags = typeof body.flags === 'number' ? body.flags : 0;
  return (
    !(typeof body.content === 'string' && body.content.length > 0) &&
    asArray(body.embeds).length === 0 &&
    asArray(body.components).length === 0 &&
    asArray(body.sticker_ids).length === 0 &&
    body.poll === undefined &&
    fileCount === 0 &&
    (flags & MessageFlags.IsComponentsV2) === 0
  );
}

export function checkMessage(body: Json, options: MessageCheckOptions = {}): LimitIssue[] {
  const prefix = options.prefix ?? [];
  const list = new IssueList();
  const flags = typeof body.flags === 'number' ? body.flags : 0;
  const v2 = (flags & MessageFlags.IsComponentsV2) !== 0;

  if (body.content !== undefined && body.content !== null) {
    if (typeof body.content !== 'string') list.add([...prefix, 'content'], 'STRING_TYPE_CONVERT', 'Must be a string.');
    else list.maxLength([...prefix, 'content'], body.content, 2000);
    if (v2 && length(body.content) > 0) {
      list.add([...prefix, 'content'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2', 'content cannot be used with the IS_COMPONENTS_V2 flag.');
    }
  }
  checkEmbeds(list, [...prefix, 'embeds'], body.embeds);
  if (v2 && asArray(body.embeds).length > 0) {
    list.add([...prefix, 'embeds'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2', 'embeds cannot be used with the IS_COMPONENTS_V2 flag.');
  }
  checkMessageComponents(list, [...prefix, 'components'], body.components, v2);
  checkAllowedMentions(list, [...prefix, 'allowed_mentions'], body.allowed_mentions);
  return list.issues;
}

function checkEmbeds(list: IssueList, path: (string | number)[], embeds: unknown): void {
  if (embeds === undefined || embeds === null) return;
  if (!Array.isArray(embeds)) {
    list.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return;
  }
  list.maxItems(path, embeds, 10);
  let total = 0;
  embeds.forEach((embed, i) => {
    const at = [...path, i];
    if (!isObject(embed)) {
      list.add(at, 'DICT_TYPE_CONVERT', 'Must be an object.');
      return;
    }
    list.maxLength([...at, 'title'], embed.title, 256);
    list.maxLength([...at, 'description'], embed.description, 4096);
    total += length(embed.title) + length(embed.description);
    const fields = asArray(embed.fields);
    list.maxItems([...at, 'fields'], fields, 25);
    fields.forEach((field, j) => {
      if (!isObject(field)) return;
      list.between([...at, 'fields', j, 'name'], field.name, 1, 256);
      list.between([...at, 'fields', j, 'value'], field.value, 1, 1024);
      total += length(field.name) + length(field.value);
    });
    if (isObject(embed.footer)) {
      list.between([...at, 'footer', 'text'], embed.footer.text, 1, 2048);
      total += length(embed.footer.text);
    }
    if (isObject(embed.author)) {
      list.between([...at, 'author', 'name'], embed.author.name, 1, 256);
      total += length(embed.author.name);
    }
    if (embed.color !== undefined && embed.color !== null) {
      if (typeof embed.color !== 'number' || !Number.isInteger(embed.color) || embed.color < 0 || embed.color > 0xffffff) {
        list.add([...at, 'color'], 'NUMBER_TYPE_MAX', 'Must be an integer between 0 and 16777215.');
      }
    }
  });
  if (total > 6000) {
    list.add(path, 'MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of 6000 (got ${total}).`);
  }
}

function checkMessageComponents(list: IssueList, path: (string | number)[], components: unknown, v2: boolean): void {
  if (components === undefined || components === null) return;
  if (!Array.isArray(components)) {
    list.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return;
  }
  const customIds = new Map<string, string>();
  const seen = (at: (string | number)[], customId: unknown): void => {
    if (typeof customId !== 'string') return;
    const first = customIds.get(customId);
    if (first !== undefined) {
      list.add([...at, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', `Component custom id cannot be duplicated ("${customId}" is also at ${first}).`);
    } else customIds.set(customId, issuePath(at));
  };
  if (v2) {
    let count = 0;
    const walk = (node: unknown, at: (string | number)[]): void => {
      if (!isObject(node)) return;
      count++;
      if (node.type === ComponentType.ActionRow) checkActionRow(list, at, node, seen);
      else {
        if (node.custom_id !== undefined) seen(at, node.custom_id);
        asArray(node.components).forEach((child, i) => walk(child, [...at, 'components', i]));
        if (isObject(node.accessory)) walk(node.accessory, [...at, 'accessory']);
      }
    };
    components.forEach((component, i) => walk(component, [...path, i]));
    if (count > 40) list.add(path, 'BASE_TYPE_MAX_LENGTH', `A message may hold at most 40 components (got ${count}).`);
    return;
  }
  list.maxItems(path, components, 5);
  components.forEach((row, i) => {
    const at = [...path, i];
    if (!isObject(row) || row.type !== ComponentType.ActionRow) {
      list.add(at, 'COMPONENT_TYPE_INVALID', 'Top-level components must be action rows (type 1) without the IS_COMPONENTS_V2 flag.');
      return;
    }
    checkActionRow(list, at, row, seen);
  });
}

function checkActionRow(
  list: IssueList,
  at: (string | number)[],
  row: Json,
  seen: (at: (string | number)[], customId: unknown) => void,
): void {
  const children = asArray(row.components);
  if (children.length === 0) {
    list.add([...at, 'components'], 'BASE_TYPE_BAD_LENGTH', 'An action row must hold 1 to 5 components.');
    return;
  }
  const buttons = children.filter((c) => isObject(c) && c.type === ComponentType.Button).length;
  const selects = children.filter((c) => isObject(c) && isSelectMenu(c.type)).length;
  if (buttons > 5) list.add([...at, 'components'], 'BASE_TYPE_MAX_LENGTH', `An action row holds at most 5 buttons (got ${buttons}).`);
  if (selects > 0 && children.length > 1) {
    list.add([...at, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'A select menu must be alone in its action row.');
  }
  children.forEach((child, j) => {
    const cat = [...at, 'components', j];
    if (!isObject(child)) return;
    if (child.type === ComponentType.Button) checkButton(list, cat, child);
    else if (isSelectMenu(child.type)) checkSelect(list, cat, child);
    else list.add([...cat, 'type'], 'COMPONENT_TYPE_INVALID', `Component type ${String(child.type)} is not allowed in a message action row.`);
    if (child.custom_id !== undefined) seen(cat, child.custom_id);
  });
}

function checkButton(list: IssueList, at: (string | number)[], button: Json): void {
  const style = button.style;
  if (typeof style !== 'number' || style < ButtonStyle.Primary || style > ButtonStyle.Premium) {
    list.add([...at, 'style'], 'BASE_TYPE_CHOICES', 'Button style must be 1 to 6.');
    return;
  }
  if (style === ButtonStyle.Link) {
    if (typeof button.url !== 'string') list.add([...at, 'url'], 'BASE_TYPE_REQUIRED', 'A link button needs a url.');
    if (button.custom_id !== undefined) list.add([...at, 'custom_id'], 'BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED', 'A link button cannot have a custom_id.');
  } else if (style !== ButtonStyle.Premium) {
    list.between([...at, 'custom_id'], button.custom_id, 1, 100);
  }
  list.maxLength([...at, 'label'], button.label, 80);
  if (style !== ButtonStyle.Premium && !(typeof button.label === 'string' && button.label.length > 0) && !isObject(button.emoji)) {
    list.add([...at, 'label'], 'BUTTON_COMPONENT_INVALID', 'A button needs a label or an emoji.');
  }
}

function checkSelect(list: IssueList, at: (string | number)[], select: Json): void {
  list.between([...at, 'custom_id'], select.custom_id, 1, 100);
  list.maxLength([...at, 'placeholder'], select.placeholder, 150);
  const min = select.min_values;
  const max = select.max_values;
  if (typeof min === 'number' && (min < 0 || min > 25)) list.add([...at, 'min_values'], 'NUMBER_TYPE_MAX', 'Must be between 0 and 25.');
  if (typeof max === 'number' && (max < 1 || max > 25)) list.add([...at, 'max_values'], 'NUMBER_TYPE_MAX', 'Must be between 1 and 25.');
  if (select.type !== ComponentType.StringSelect) return;
  const options = asArray(select.options);
  if (options.length < 1 || options.length > 25) {
    list.add([...at, 'options'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and 25 in length (got ${options.length}).`);
  }
  if (typeof max === 'number' && max > options.length) {
    list.add([...at, 'max_values'], 'SELECT_COMPONENT_MAX_VALUES_TOO_HIGH', `max_values (${max}) exceeds the number of options (${options.length}).`);
  }
  const values = new Set<unknown>();
  options.forEach((option, k) => {
    if (!isObject(option)) return;
    list.between([...at, 'options', k, 'label'], option.label, 1, 100);
    list.between([...at, 'options', k, 'value'], option.value, 1, 100);
    list.maxLength([...at, 'options', k, 'description'], option.description, 100);
    if (values.has(option.value)) list.add([...at, 'options', k, 'value'], 'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED', 'Option values must be unique.');
    values.add(option.value);
  });
}

function checkAllowedMentions(list: IssueList, path: (string | number)[], mentions: unknown): void {
  if (mentions === undefined || mentions === null) return;
  if (!isObject(mentions)) {
    list.add(path, 'DICT_TYPE_CONVERT', 'Must be an object.');
    return;
  }
  const parse = asArray(mentions.parse);
  for (const kind of parse) {
    if (kind !== 'users' && kind !== 'roles' && kind !== 'everyone') {
      list.add([...path, 'parse'], 'BASE_TYPE_CHOICES', `Value "${String(kind)}" is not one of users, roles, everyone.`);
    }
  }
  if (parse.includes('users') && asArray(mentions.users).length > 0) {
    list.add([...path, 'parse'], 'ALLOWED_MENTIONS_PARSE_EXCLUSIVE', 'parse "users" and a users list are mutually exclusive.');
  }
  if (parse.includes('roles') && asArray(mentions.roles).length > 0) {
    list.add([...path, 'parse'], 'ALLOWED_MENTIONS_PARSE_EXCLUSIVE', 'parse "roles" and a roles list are mutually exclusive.');
  }
  list.maxItems([...path, 'users'], mentions.users, 100);
  list.maxItems([...path, 'roles'], mentions.roles, 100);
}

// ---------------------------------------------------------------------------------------------------------
// Interaction callbacks other than messages

export function checkAutocompleteChoices(data: unknown): LimitIssue[] {
  const list = new IssueList();
  if (!isObject(data) || !Array.isArray(data.choices)) {
    list.add(['data', 'choices'], 'BASE_TYPE_REQUIRED', 'This field is required');
    return list.issues;
  }
  list.maxItems(['data', 'choices'], data.choices, 25);
  data.choices.forEach((choice, i) => {
    const at = ['data', 'choices', i];
    if (!isObject(choice)) {
      list.add(at, 'DICT_TYPE_CONVERT', 'Must be an object.');
      return;
    }
    list.between([...at, 'name'], choice.name, 1, 100);
    if (typeof choice.value === 'string') list.maxLength([...at, 'value'], choice.value, 100);
    else if (typeof choice.value !== 'number') list.add([...at, 'value'], 'BASE_TYPE_REQUIRED', 'A choice needs a string or number value.');
  });
  return list.issues;
}

export function checkModal(data: unknown): LimitIssue[] {
  const list = new IssueList();
  if (!isObject(data)) {
    list.add(['data'], 'BASE_TYPE_REQUIRED', 'This field is required');
    return list.issues;
  }
  list.between(['data', 'custom_id'], data.custom_id, 1, 100);
  list.between(['data', 'title'], data.title, 1, 45);
  const rows = asArray(data.components);
  if (rows.length < 1 || rows.length > 5) {
    list.add(['data', 'components'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and 5 in length (got ${rows.length}).`);
  }
  const ids = new Set<string>();
  rows.forEach((row, i) => {
    const at = ['data', 'components', i];
    if (!isObject(row)) return;
    let input: Json | undefined;
    let inputAt: (string | number)[] = at;
    if (row.type === ComponentType.ActionRow) {
      const children = asArray(row.components);
      if (children.length !== 1) list.add([...at, 'components'], 'BASE_TYPE_BAD_LENGTH', 'A modal action row holds exactly one text input.');
      input = isObject(children[0]) ? children[0] : undefined;
      inputAt = [...at, 'components', 0];
      if (input) list.between([...inputAt, 'label'], input.label, 1, 45);
    } else if (row.type === ComponentType.Label) {
      list.between([...at, 'label'], row.label, 1, 45);
      list.maxLength([...at, 'description'], row.description, 100);
      input = isObject(row.component) ? row.component : undefined;
      inputAt = [...at, 'component'];
    } else if (row.type === ComponentType.TextDisplay) {
      return; // a text display: nothing to submit
    } else {
      list.add([...at, 'type'], 'COMPONENT_TYPE_INVALID', `Component type ${String(row.type)} is not allowed at the top of a modal.`);
      return;
    }
    if (!input) {
      list.add(inputAt, 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    list.between([...inputAt, 'custom_id'], input.custom_id, 1, 100);
    if (typeof input.custom_id === 'string') {
      if (ids.has(input.custom_id)) list.add([...inputAt, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
      ids.add(input.custom_id);
    }
    if (input.type === ComponentType.TextInput) {
      if (input.style !== TextInputStyle.Short && input.style !== TextInputStyle.Paragraph) list.add([...inputAt, 'style'], 'BASE_TYPE_CHOICES', 'Text input style must be 1 (short) or 2 (paragraph).');
      const min = input.min_length;
      const max = input.max_length;
      if (typeof min === 'number' && (min < 0 || min > 4000)) list.add([...inputAt, 'min_length'], 'NUMBER_TYPE_MAX', 'Must be between 0 and 4000.');
      if (typeof max === 'number' && (max < 1 || max > 4000)) list.add([...inputAt, 'max_length'], 'NUMBER_TYPE_MAX', 'Must be between 1 and 4000.');
      list.maxLength([...inputAt, 'value'], input.value, 4000);
      list.maxLength([...inputAt, 'placeholder'], input.placeholder, 100);
    } else if (isSelectMenu(input.type)) {
      if (row.type !== ComponentType.Label) list.add([...inputAt, 'type'], 'COMPONENT_TYPE_INVALID', 'A select menu in a modal must sit in a label (type 18).');
      checkSelect(list, inputAt, input);
    } else {
      list.add([...inputAt, 'type'], 'COMPONENT_TYPE_INVALID', `Component type ${String(input.type)} is not allowed in a modal.`);
    }
  });
  return list.issues;
}

// ---------------------------------------------------------------------------------------------------------
// Application commands

/** A subcommand or a group of them: the words of a slash command's path, not an option the user fills. */
export function isSubcommandOrGroup(option: { type?: unknown }): boolean {
  return option.type === ApplicationCommandOptionType.Subcommand || option.type === ApplicationCommandOptionType.SubcommandGroup;
}

const NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const OPTION_TYPES_WITH_CHOICES = new Set<unknown>([ApplicationCommandOptionType.String, ApplicationCommandOptionType.Integer, ApplicationCommandOptionType.Number]);

/** Checks one command definition (as PUT/POSTed) against Discord's rules. */
export function checkCommand(command: unknown, prefix: (string | number)[] = []): LimitIssue[] {
  const list = new IssueList();
  if (!isObject(command)) {
    list.add(prefix, 'DICT_TYPE_CONVERT', 'Must be an object.');
    return list.issues;
  }
  const type = command.type ?? ApplicationCommandType.ChatInput;
  if (type === ApplicationCommandType.ChatInput) {
    checkName(list, [...prefix, 'name'], command.name);
    list.between([...prefix, 'description'], command.description, 1, 100);
  } else if (type === ApplicationCommandType.User || type === ApplicationCommandType.Message) {
    list.between([...prefix, 'name'], command.name, 1, 32);
    if (command.description !== undefined && command.description !== '') {
      list.add([...prefix, 'description'], 'APPLICATION_COMMAND_INVALID_DESCRIPTION', 'Context menu commands cannot have a description.');
    }
    if (asArray(command.options).length > 0) {
      list.add([...prefix, 'options'], 'APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED', 'Context menu commands cannot have options.');
    }
    return list.issues;
  } else if (type !== ApplicationCommandType.PrimaryEntryPoint) {
    list.add([...prefix, 'type'], 'BASE_TYPE_CHOICES', `Unknown command type ${String(type)}.`);
  }
  checkOptions(list, [...prefix, 'options'], command.options, 0);
  const total = commandSize(command);
  if (total > 4000) {
    list.add(prefix, 'APPLICATION_COMMAND_TOO_LARGE', `Command exceeds maximum size (4000 characters of names, descriptions and values; got ${total}).`);
  }
  return list.issues;
}

/** Checks a whole bulk-overwrite set: each command plus unique names per type and the count limits. */
export function checkCommandSet(commands: unknown): LimitIssue[] {
  if (!Array.isArray(commands)) return [{ path: [], code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' }];
  const issues: LimitIssue[] = [];
  const names = new Set<string>();
  const counts = new Map<unknown, number>();
  commands.forEach((command, i) => {
    issues.push(...checkCommand(command, [i]));
    if (!isObject(command)) return;
    const type = command.type ?? ApplicationCommandType.ChatInput;
    const key = `${String(type)}:${String(command.name)}`;
    if (names.has(key)) issues.push({ path: [i, 'name'], code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: `Application command names must be unique ("${String(command.name)}").` });
    names.add(key);
    counts.set(type, (counts.get(type) ?? 0) + 1);
  });
  if ((counts.get(ApplicationCommandType.ChatInput) ?? 0) > 100) issues.push({ path: [], code: 'BASE_TYPE_MAX_LENGTH', message: 'At most 100 chat input commands.' });
  if ((counts.get(ApplicationCommandType.User) ?? 0) > 15 || (counts.get(ApplicationCommandType.Message) ?? 0) > 15) issues.push({ path: [], code: 'BASE_TYPE_MAX_LENGTH', message: 'At most 15 user and 15 message commands.' });
  return issues;
}

function checkName(list: IssueList, path: (string | number)[], name: unknown): void {
  if (typeof name !== 'string') {
    list.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return;
  }
  if (!NAME.test(name)) list.add(path, 'APPLICATION_COMMAND_INVALID_NAME', `Command name is invalid ("${name}": 1–32 letters, digits, - or _).`);
  else if (name !== name.toLowerCase()) list.add(path, 'APPLICATION_COMMAND_INVALID_NAME', `Command name must be lowercase ("${name}").`);
}

function checkOptions(list: IssueList, path: (string | number)[], options: unknown, depth: number): void {
  if (options === undefined || options === null) return;
  if (!Array.isArray(options)) {
    list.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return;
  }
  list.maxItems(path, options, 25);
  const names = new Set<string>();
  let sawOptional = false;
  let subcommands = 0;
  options.forEach((option, i) => {
    const at = [...path, i];
    if (!isObject(option)) {
      list.add(at, 'DICT_TYPE_CONVERT', 'Must be an object.');
      return;
    }
    const type = option.type;
    checkName(list, [...at, 'name'], option.name);
    list.between([...at, 'description'], option.description, 1, 100);
    if (typeof option.name === 'string') {
      if (names.has(option.name)) list.add([...at, 'name'], 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS', `Option name "${option.name}" is used twice.`);
      names.add(option.name);
    }
    if (typeof type !== 'number' || type < ApplicationCommandOptionType.Subcommand || type > ApplicationCommandOptionType.Attachment) {
      list.add([...at, 'type'], 'BASE_TYPE_CHOICES', `Unknown option type ${String(type)}.`);
      return;
    }
    if (type === ApplicationCommandOptionType.Subcommand || type === ApplicationCommandOptionType.SubcommandGroup) {
      subcommands++;
      if (type === ApplicationCommandOptionType.SubcommandGroup && depth > 0) list.add([...at, 'type'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'A subcommand group can only sit at the top level.');
      if (type === ApplicationCommandOptionType.Subcommand && depth > 1) list.add([...at, 'type'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Subcommands cannot be nested this deep.');
      const children = asArray(option.options);
      if (type === ApplicationCommandOptionType.SubcommandGroup) {
        if (children.length === 0) list.add([...at, 'options'], 'BASE_TYPE_BAD_LENGTH', 'A subcommand group needs 1 to 25 subcommands.');
        children.forEach((child, j) => {
          if (isObject(child) && child.type !== ApplicationCommandOptionType.Subcommand) list.add([...at, 'options', j, 'type'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'A subcommand group may only hold subcommands.');
        });
      } else if (children.some((child) => isObject(child) && isSubcommandOrGroup(child))) {
        list.add([...at, 'options'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'A subcommand cannot hold subcommands or groups.');
      }
      checkOptions(list, [...at, 'options'], option.options, depth + 1);
      return;
    }
    if (option.required === true) {
      if (sawOptional) list.add([...at, 'required'], 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must come before optional ones.');
    } else sawOptional = true;
    const choices = option.choices;
    if (choices !== undefined) {
      if (!OPTION_TYPES_WITH_CHOICES.has(type)) list.add([...at, 'choices'], 'APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED', 'Only string, integer and number options have choices.');
      list.maxItems([...at, 'choices'], choices, 25);
      if (option.autocomplete === true && asArray(choices).length > 0) {
        list.add([...at, 'autocomplete'], 'APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES', 'An option cannot have both choices and autocomplete.');
      }
      asArray(choices).forEach((choice, k) => {
        if (!isObject(choice)) return;
        list.between([...at, 'choices', k, 'name'], choice.name, 1, 100);
        if (type === ApplicationCommandOptionType.String) list.between([...at, 'choices', k, 'value'], choice.value, 1, 100);
        else if (typeof choice.value !== 'number' || (type === ApplicationCommandOptionType.Integer && !Number.isInteger(choice.value))) {
          list.add([...at, 'choices', k, 'value'], 'NUMBER_TYPE_COERCE', 'Choice value must match the option type.');
        }
      });
    }
    if (option.autocomplete === true && !OPTION_TYPES_WITH_CHOICES.has(type)) {
      list.add([...at, 'autocomplete'], 'APPLICATION_COMMAND_AUTOCOMPLETE_NOT_ALLOWED', 'Only string, integer and number options can autocomplete.');
    }
    if (typeof option.min_length === 'number' && (option.min_length < 0 || option.min_length > 6000)) {
      list.add([...at, 'min_length'], 'NUMBER_TYPE_MAX', 'Must be between 0 and 6000.');
    }
    if (typeof option.max_length === 'number' && (option.max_length < 1 || option.max_length > 6000)) {
      list.add([...at, 'max_length'], 'NUMBER_TYPE_MAX', 'Must be between 1 and 6000.');
    }
    if (typeof option.min_value === 'number' && typeof option.max_value === 'number' && option.min_value > option.max_value) {
      list.add([...at, 'min_value'], 'NUMBER_TYPE_MAX', 'min_value must not exceed max_value.');
    }
  });
  if (subcommands > 0 && subcommands < options.length) {
    list.add(path, 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Subcommands and groups cannot be mixed with other options at one level.');
  }
}

/** Discord's 4000-character budget: names, descriptions and choice names/values of the whole command. */
function commandSize(node: Json): number {
  let total = length(node.name) + length(node.description);
  for (const choice of asArray(node.choices)) {
    if (isObject(choice)) total += length(choice.name) + (typeof choice.value === 'string' ? length(choice.value) : String(choice.value ?? '').length);
  }
  for (const option of asArray(node.options)) if (isObject(option)) total += commandSize(option);
  return total;
}
