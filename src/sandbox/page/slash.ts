// Slash commands typed as text, the way Discord's input reads them: `/roll challenge skill:Climbing cl:90`.
// Pure functions (no DOM): the commands' leaves, parsing, what the caret is on, and the sandbox request.
import { ApplicationCommandOptionType, ApplicationCommandType } from 'discord-api-types/payloads/v10';
import type { Choice, Command, CommandOption, UploadedFile } from './api.js';

/** A command as typed: "roll challenge" (a subcommand path) with its own options. */
export interface Leaf {
  path: string;
  description: string;
  options: CommandOption[];
}

export interface OptionToken {
  option: CommandOption;
  /** Where `name:` starts, where its value starts, and where the value's text ends (before the next option). */
  nameStart: number;
  valueStart: number;
  end: number;
  value: string;
}

export interface Parsed {
  leaf?: Leaf;
  /** The index just past the command's words. */
  commandEnd: number;
  tokens: OptionToken[];
  /** Text between the command and its first option (not an option: an error when sending). */
  stray: string;
}

/** What the caret is on, and so what to suggest. */
export type CaretContext =
  | { kind: 'none' }
  | { kind: 'command'; typed: string; end: number }
  | { kind: 'name'; leaf: Leaf; parsed: Parsed; partial: string; start: number; end: number }
  | { kind: 'value'; leaf: Leaf; parsed: Parsed; token: OptionToken; typed: string; wordStart: number };

const TYPE_NAMES: Record<number, string> = {
  [ApplicationCommandOptionType.String]: 'text',
  [ApplicationCommandOptionType.Integer]: 'whole number',
  [ApplicationCommandOptionType.Boolean]: 'true or false',
  [ApplicationCommandOptionType.User]: 'user',
  [ApplicationCommandOptionType.Channel]: 'channel',
  [ApplicationCommandOptionType.Role]: 'role',
  [ApplicationCommandOptionType.Mentionable]: 'user or role',
  [ApplicationCommandOptionType.Number]: 'number',
  [ApplicationCommandOptionType.Attachment]: 'file',
};

export function typeName(type: number): string {
  return TYPE_NAMES[type] ?? `type ${type}`;
}

/** Every chat-input command and subcommand as a leaf, in the order the bot registered them. */
export function leafCommands(commands: Command[]): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (path: string, description: string, options: CommandOption[] = []): void => {
    const subs = options.filter((o) => o.type === ApplicationCommandOptionType.Subcommand || o.type === ApplicationCommandOptionType.SubcommandGroup);
    if (!subs.length) leaves.push({ path, description, options });
    for (const sub of subs) walk(`${path} ${sub.name}`, sub.description, sub.options);
  };
  for (const command of commands) if ((command.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput) walk(command.name, command.description, command.options);
  return leaves;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function parse(text: string, leaves: Leaf[]): Parsed {
  let leaf: Leaf | undefined;
  let commandEnd = 0;
  if (text.startsWith('/')) {
    for (const candidate of leaves) {
      const words = candidate.path.split(' ').map(escapeRegex).join('\\s+');
      const match = new RegExp(`^/${words}(?=\\s|$)`, 'i').exec(text);
      if (match && match[0].length > commandEnd) {
        leaf = candidate;
        commandEnd = match[0].length;
      }
    }
  }
  if (!leaf) return { commandEnd: 0, tokens: [], stray: '' };
  const names = new Map(leaf.options.map((o) => [o.name.toLowerCase(), o]));
  const starts: Array<{ option: CommandOption; nameStart: number; valueStart: number }> = [];
  const pattern = /(^|\s)([\w-]+):/g;
  const rest = text.slice(commandEnd);
  for (let match = pattern.exec(rest); match; match = pattern.exec(rest)) {
    const option = names.get(match[2]!.toLowerCase());
    if (!option) continue;
    const nameStart = commandEnd + match.index + match[1]!.length;
    starts.push({ option, nameStart, valueStart: nameStart + match[2]!.length + 1 });
  }
  const tokens = starts.map((start, i) => {
    const end = starts[i + 1]?.nameStart ?? text.length;
    return { ...start, end, value: text.slice(start.valueStart, end).trim() };
  });
  const stray = text.slice(commandEnd, tokens[0]?.nameStart ?? text.length).trim();
  return { leaf, commandEnd, tokens, stray };
}

export function contextAt(text: string, caret: number, leaves: Leaf[]): CaretContext {
  if (!text.startsWith('/')) return { kind: 'none' };
  const parsed = parse(text, leaves);
  const leaf = parsed.leaf;
  if (!leaf || caret <= parsed.commandEnd) {
    const firstOption = /\s[\w-]+:/.exec(text);
    return { kind: 'command', typed: text.slice(1, caret), end: leaf ? parsed.commandEnd : firstOption ? firstOption.index : text.length };
  }
  const token = [...parsed.tokens].reverse().find((t) => t.nameStart <= caret);
  if (token && caret >= token.valueStart) {
    const typed = text.slice(token.valueStart, caret);
    const lastSpace = Math.max(typed.lastIndexOf(' '), typed.lastIndexOf('\t'));
    return { kind: 'value', leaf, parsed, token, typed, wordStart: token.valueStart + lastSpace + 1 };
  }
  if (token) return { kind: 'name', leaf, parsed, partial: text.slice(token.nameStart, caret), start: token.nameStart, end: token.valueStart };
  const before = text.slice(0, caret);
  const start = Math.max(before.lastIndexOf(' '), before.lastIndexOf('\t')) + 1;
  return { kind: 'name', leaf, parsed, partial: text.slice(start, caret), start, end: caret };
}

/** The leaf's options not given yet, required ones first. */
export function unusedOptions(leaf: Leaf, parsed: Parsed, except?: OptionToken): CommandOption[] {
  const used = new Set(parsed.tokens.filter((t) => t !== except).map((t) => t.option.name));
  const free = leaf.options.filter((o) => !used.has(o.name));
  return [...free.filter((o) => o.required), ...free.filter((o) => !o.required)];
}

/** Leaves matching what was typed after `/`: by the start of the path first, then by the start of any word. */
export function matchingLeaves(typed: string, leaves: Leaf[]): Leaf[] {
  const query = typed.trim().replace(/\s+/g, ' ').toLowerCase();
  if (!query) return leaves;
  const first = leaves.filter((l) => l.path.startsWith(query));
  const other = leaves.filter((l) => !first.includes(l) && l.path.split(' ').some((w) => w.startsWith(query)));
  return [...first, ...other];
}

export function matchingChoices(typed: string, choices: Choice[]): Choice[] {
  const query = typed.trim().toLowerCase();
  const first = choices.filter((c) => c.name.toLowerCase().startsWith(query));
  return [...first, ...choices.filter((c) => !first.includes(c) && c.name.toLowerCase().includes(query))];
}

export interface Extras {
  /** Suggestions the user picked (the bot's autocomplete choices), by option name: the name shown, the value sent. */
  picked?: Map<string, Choice>;
  /** Files chosen for attachment options, by option name. */
  files?: Map<string, UploadedFile>;
}

export type BuiltRequest = { command: string; options: Record<string, unknown> } | { error: string };

function convert(token: OptionToken, extras: Extras): { value: unknown } | { error: string } {
  const { option, value: raw } = token;
  const name = option.name;
  if (option.type === ApplicationCommandOptionType.Attachment) {
    const file = extras.files?.get(name);
    return file ? { value: file } : { error: `${name}: choose a file (pick “Upload a file…” in the list)` };
  }
  if (raw === '') return { error: `${name}: give a value after “${name}:”` };
  const picked = extras.picked?.get(name);
  if (picked && picked.name === raw) return { value: picked.value };
  if (option.choices?.length) {
    const choice = option.choices.find((c) => c.name.toLowerCase() === raw.toLowerCase() || String(c.value).toLowerCase() === raw.toLowerCase());
    return choice ? { value: choice.value } : { error: `${name}: choose one of ${option.choices.map((c) => c.name).join(', ')}` };
  }
  switch (option.type) {
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const number = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(number) || (option.type === ApplicationCommandOptionType.Integer && !/^[-+]?\d+$/.test(raw))) return { error: `${name}: expected a ${typeName(option.type)}, got “${raw}”` };
      if (option.min_value !== undefined && number < option.min_value) return { error: `${name}: at least ${option.min_value}` };
      if (option.max_value !== undefined && number > option.max_value) return { error: `${name}: at most ${option.max_value}` };
      return { value: number };
    }
    case ApplicationCommandOptionType.Boolean: {
      const yes = ['true', 'yes', 'on', '1'].includes(raw.toLowerCase());
      const no = ['false', 'no', 'off', '0'].includes(raw.toLowerCase());
      return yes || no ? { value: yes } : { error: `${name}: expected True or False, got “${raw}”` };
    }
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Role:
    case ApplicationCommandOptionType.Mentionable:
      return { value: raw.replace(/^@/, '') };
    case ApplicationCommandOptionType.Channel:
      return { value: raw.replace(/^#/, '') };
    default: {
      const length = [...raw].length;
      if (option.min_length !== undefined && length < option.min_length) return { error: `${name}: at least ${option.min_length} characters` };
      if (option.max_length !== undefined && length > option.max_length) return { error: `${name}: at most ${option.max_length} characters` };
      return { value: raw };
    }
  }
}

/** The sandbox request for the typed command, or what is wrong with it (as Discord would not send it either). */
export function buildRequest(text: string, leaves: Leaf[], extras: Extras = {}): BuiltRequest {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return { error: 'The sandbox plays slash commands only: type / to see the bot’s commands.' };
  const parsed = parse(trimmed, leaves);
  if (!parsed.leaf) return { error: `Unknown command ${trimmed.split(/\s/)[0]}: type / to see the bot’s commands.` };
  if (parsed.stray) return { error: `Unexpected “${parsed.stray}”: give options as name:value.` };
  const options: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const token of parsed.tokens) {
    if (token.option.name in options) {
      errors.push(`${token.option.name}: given twice`);
      continue;
    }
    const converted = convert(token, extras);
    if ('error' in converted) errors.push(converted.error);
    else options[token.option.name] = converted.value;
  }
  const missing = parsed.leaf.options.filter((o) => o.required && !parsed.tokens.some((t) => t.option === o)).map((o) => o.name);
  if (missing.length) errors.unshift(`Missing required option${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  if (errors.length) return { error: errors.join(' · ') };
  return { command: parsed.leaf.path, options };
}

/** The options as typed so far, for an autocomplete request: what converts, plus the focused text as is. */
export function autocompleteOptions(parsed: Parsed, focused: OptionToken, typed: string, extras: Extras = {}): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const token of parsed.tokens) {
    if (token === focused || token.option.type === ApplicationCommandOptionType.Attachment) continue;
    const converted = convert(token, extras);
    if ('value' in converted) options[token.option.name] = converted.value;
  }
  options[focused.option.name] = typed.trim();
  return options;
}
