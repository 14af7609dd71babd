/**
 * What /sheet and /npc do the same way, written once: the skill, archetype and condition subcommands (their
 * definitions, their handler given the sheet to change, their autocomplete), `set`, which takes whole lists of
 * skills, archetypes and attributes at once, and the buttons of a delete prompt.
 * /sheet points them at the player's active sheet (a Dispatcher may name another `player`), /npc at the NPC its
 * `npc` option names.
 */
import { type ChatInputCommandInteraction, type SlashCommandBooleanOption, type SlashCommandSubcommandBuilder } from 'discord.js';
import type { HandlerContext, HelpEntry, Requirement, Subcommand } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { cleanName, nameKey } from '../../src/engine/names.js';
import { isRefused } from '../../src/engine/refusals.js';
import { listClash, parseEntryList, type ListNumber } from '../../src/engine/sheet-entry-list.js';
import {
  SHEET_LIMITS,
  conditionSkills,
  entryProblem,
  isConditionActive,
  isNpc,
  validAttributeValue,
  validModifier,
  validName,
  validSkillLevel,
  type OperatorSheet,
} from '../../src/engine/sheet.js';
import { DEFAULT_SYSTEM, isSystemId, sheetRulesOf, SYSTEM_IDS, systemChoices, systemName, type SystemId } from '../../src/engine/systems/index.js';
import { EntryRefused, type NumberedEntry, type NumberedKind, type SheetOwner } from '../../src/store/operators.js';
import { listChoices, nameChoices } from '../../src/views/autocomplete.js';
import { copyableBlock, escapeMarkdown, signedCompact } from '../../src/views/format.js';
import { DISCORD_LIMITS, NO_PINGS } from '../../src/views/limits.js';
import { privateNote, userErrorText } from '../../src/views/messages.js';
import type { DeletePromptControl } from '../../src/views/sheet.js';

/** The options of `create name [system]`, as /sheet and /npc define it (with their own words). */
export function createOptions(description: string, nameDescription: string) {
  return (sub: SlashCommandSubcommandBuilder) =>
    sub
      .setDescription(description)
      .addStringOption((o) => o.setName('name').setDescription(nameDescription).setRequired(true))
      .addStringOption((o) => o.setName('system').setDescription("The sheet's rule system (default: the server's)").addChoices(...systemChoices()));
}

/** The system a new sheet gets: the one named, or the server's default. */
export async function newSheetSystem(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<SystemId> {
  const named = interaction.options.getString('system');
  if (named !== null) {
    if (!isSystemId(named)) throw new UserError(`The bot knows no system \`${named}\`; pick one of ${SYSTEM_IDS.join(', ')}.`);
    return named;
  }
  const { defaultSystem } = await context.store.servers.settings(context.guildId);
  return isSystemId(defaultSystem) ? defaultSystem : DEFAULT_SYSTEM;
}

/** The options of `delete name:` (answered with a confirm prompt), as /sheet and /npc define it. */
export function deleteOptions(description: string, nameDescription: string) {
  return (sub: SlashCommandSubcommandBuilder) =>
    sub
      .setDescription(description)
      .addStringOption((o) => o.setName('name').setDescription(nameDescription).setRequired(true).setAutocomplete(true));
}

/** The `share` option of `show`: private by default. */
export function shareOption(option: SlashCommandBooleanOption): SlashCommandBooleanOption {
  return option.setName('share').setDescription('Post it in the channel for everyone (default: only you see it)');
}

export const ENTRY_GROUPS = ['skill', 'archetype', 'condition', 'attribute'] as const;
export type EntryGroup = (typeof ENTRY_GROUPS)[number];

export function isEntryGroup(group: string | null): group is EntryGroup {
  return group !== null && (ENTRY_GROUPS as readonly string[]).includes(group);
}

/** How a command names the sheet its entry subcommands change. */
export interface EntryTarget {
  /** The start of each group's description: "The active sheet's", "An NPC's". */
  whose: string;
  /** Adds the option naming the sheet to each subcommand (first, as it is required), when the command has one. */
  targetOption?: (sub: SlashCommandSubcommandBuilder) => SlashCommandSubcommandBuilder;
  /** Adds an optional option to each subcommand, after its own (Discord wants required options first). */
  lastOption?: (sub: SlashCommandSubcommandBuilder) => SlashCommandSubcommandBuilder;
  /** The sheet a subcommand changes, once who may change it is checked. */
  sheetOf(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<OperatorSheet>;
  /** What the member must be to change it at all (an NPC's sheet: a Dispatcher). */
  requires?: Requirement;
  /** How /help shows each of them: `skill set`, …, `set`. */
  help: Readonly<Record<EntryPath, HelpEntry>>;
}

/** The entry subcommands, as their paths read: `skill set`, …, and `set`. */
export type EntryPath = `${'skill' | 'archetype' | 'attribute'} ${'set' | 'remove'}` | `condition ${'add' | 'remove'}` | 'set';

/** The entry groups' descriptions, for the command's `groups`. */
export function entryGroups(target: EntryTarget): Record<EntryGroup, string> {
  return {
    skill: `${target.whose} skills`,
    archetype: `${target.whose} archetype modifiers`,
    condition: `${target.whose} conditions`,
    attribute: `${target.whose} attributes (Aim, Will, STR, AGI…)`,
  };
}

/** `skill set|remove`, `archetype set|remove`, `condition add|remove` and `attribute set|remove`, declared for a command. */
export function entrySubcommands(target: EntryTarget): Subcommand[] {
  const entry = (path: Exclude<EntryPath, 'set'>, description: string, options: (sub: SlashCommandSubcommandBuilder) => SlashCommandSubcommandBuilder): Subcommand => {
    const group = path.split(' ')[0] as EntryGroup;
    const withTarget = target.targetOption ?? ((sub: SlashCommandSubcommandBuilder) => sub);
    const last = target.lastOption ?? ((sub: SlashCommandSubcommandBuilder) => sub);
    return {
      name: path,
      build: (sub) => last(options(withTarget(sub.setDescription(description)))),
      run: async (interaction, context) => editEntry(interaction, context, await target.sheetOf(interaction, context), group),
      ...(target.requires ? { requires: target.requires } : {}),
      help: target.help[path],
    };
  };
  return [
    entry('skill set', 'Add a skill or change its level', (s) =>
      s
        .addStringOption((o) => o.setName('name').setDescription('The skill, e.g. Climbing').setRequired(true).setAutocomplete(true))
        .addIntegerOption((o) => o.setName('level').setDescription('Its level, 0–100').setRequired(true)),
    ),
    entry('skill remove', 'Remove a skill', (s) => s.addStringOption((o) => o.setName('name').setDescription('The skill').setRequired(true).setAutocomplete(true))),
    entry('archetype set', 'Add an archetype modifier or change it', (s) =>
      s
        .addStringOption((o) => o.setName('name').setDescription('The archetype, e.g. Acuity').setRequired(true).setAutocomplete(true))
        .addIntegerOption((o) => o.setName('modifier').setDescription('Its modifier, may be negative').setRequired(true)),
    ),
    entry('archetype remove', 'Remove an archetype modifier', (s) =>
      s.addStringOption((o) => o.setName('name').setDescription('The archetype').setRequired(true).setAutocomplete(true)),
    ),
    entry('condition add', 'Add a condition (or replace the one with the same name)', (s) =>
      s
        .addStringOption((o) => o.setName('name').setDescription('The condition, e.g. Wounded').setRequired(true))
        .addIntegerOption((o) => o.setName('modifier').setDescription('What it adds to rolls, e.g. -10').setRequired(true))
        .addStringOption((o) => o.setName('skills').setDescription('Comma list of skills it applies to (default: all)').setAutocomplete(true))
        .addIntegerOption((o) => o.setName('minutes').setDescription('It ends after this many minutes (default: until removed)')),
    ),
    entry('condition remove', 'Remove a condition', (s) => s.addStringOption((o) => o.setName('name').setDescription('The condition').setRequired(true).setAutocomplete(true))),
    entry('attribute set', 'Add an attribute or change its value', (s) =>
      s
        .addStringOption((o) => o.setName('name').setDescription('The attribute, e.g. Aim or STR').setRequired(true).setAutocomplete(true))
        .addIntegerOption((o) => o.setName('value').setDescription('Its value').setRequired(true)),
    ),
    entry('attribute remove', 'Remove an attribute', (s) => s.addStringOption((o) => o.setName('name').setDescription('The attribute').setRequired(true).setAutocomplete(true))),
  ];
}

/** Runs one entry subcommand on `sheet` and answers privately with what changed. */
export async function editEntry(interaction: ChatInputCommandInteraction, context: HandlerContext, sheet: OperatorSheet, group: EntryGroup): Promise<void> {
  const { store } = context;
  const sub = interaction.options.getSubcommand(true);
  const reply = (text: string) => context.answer.reply(privateNote(text));
  // Only a new name is checked: one stored before a rule existed can still be removed by the name it has.
  const name = sub === 'remove' ? cleanName(interaction.options.getString('name', true)) : validName(group, interaction.options.getString('name', true));
  const sheetName = escapeMarkdown(sheet.name);
  if (sub === 'remove') {
    const removed = await store.operators.remove(group, sheet, name);
    if (!removed) throw new UserError(`${sheet.name} has no ${group} named **${escapeMarkdown(name)}**.`);
    await reply(`Removed the ${group} **${escapeMarkdown(removed)}** from ${sheetName}.`);
    return;
  }
  // What the sheet's system holds is checked first: its own ranges are narrower than the general limits.
  const fits = (value: number | undefined) => {
    const problem = entryProblem(sheetRulesOf(sheet.system), systemName(sheet.system), group, name, value);
    if (problem) throw new UserError(`Not set on ${escapeMarkdown(sheet.name)}: ${problem}. Nothing was changed.`);
  };
  if (group === 'skill') {
    fits(interaction.options.getInteger('level', true));
    const level = validSkillLevel(interaction.options.getInteger('level', true));
    const before = await store.operators.setSkill(sheet, name, level);
    await reply(before === null ? `${sheetName} now has **${escapeMarkdown(name)} ${level}**.` : `${sheetName}: **${escapeMarkdown(name)}** ${before} → **${level}**.`);
    return;
  }
  if (group === 'attribute') {
    fits(interaction.options.getInteger('value', true));
    const value = validAttributeValue(interaction.options.getInteger('value', true));
    const before = await store.operators.setAttribute(sheet, name, value);
    await reply(before === null ? `${sheetName} now has **${escapeMarkdown(name)} ${value}**.` : `${sheetName}: **${escapeMarkdown(name)}** ${before} → **${value}**.`);
    return;
  }
  if (group === 'archetype') {
    fits(interaction.options.getInteger('modifier', true));
    const modifier = validModifier('An archetype modifier', interaction.options.getInteger('modifier', true));
    const before = await store.operators.setArchetype(sheet, name, modifier);
    const shown = signedCompact(modifier);
    await reply(before === null ? `${sheetName} now has the archetype **${escapeMarkdown(name)} ${shown}**.` : `${sheetName}: **${escapeMarkdown(name)}** ${signedCompact(before)} → **${shown}**.`);
    return;
  }
  fits(interaction.options.getInteger('modifier', true));
  const modifier = validModifier('A condition modifier', interaction.options.getInteger('modifier', true));
  const skills = conditionSkills(sheet, interaction.options.getString('skills'));
  const minutes = interaction.options.getInteger('minutes');
  if (minutes !== null && (minutes < 1 || minutes > SHEET_LIMITS.conditionMinutesMax)) {
    throw new UserError(`\`minutes\` must be from 1 to ${SHEET_LIMITS.conditionMinutesMax} (30 days); leave it out for a condition that lasts until removed.`);
  }
  const expiresAt = minutes === null ? null : new Date(context.now().getTime() + minutes * 60_000);
  await store.operators.setCondition(sheet, { name, modifier, skills, expiresAt }, context.now());
  const scope = skills === null ? 'every skill' : skills.map(escapeMarkdown).join(', ');
  await reply(`${sheetName} is now **${escapeMarkdown(name)}** (${signedCompact(modifier)} on ${scope}${minutes === null ? '' : `, for ${minutes} min`}).`);
}

/**
 * Autocomplete for an entry subcommand's `name` or `skills`, from the sheet it changes: its entries with their
 * numbers, then the names its system reads that it does not have yet (a d6 pools sheet's thirteen skills, a d100
 * tactics sheet's Aim, Will…). Adding is offered only for what the system holds (`remove` lists what is there).
 */
export function entryChoices(sheet: OperatorSheet, group: EntryGroup, option: string, typed: string, now: Date, adding = true) {
  if (group === 'condition' && option === 'skills') return listChoices(sheet.skills.map((skill) => skill.name), typed);
  const rule = sheetRulesOf(sheet.system)[group];
  const missing = (have: ReadonlyArray<{ name: string }>) => (adding && rule ? rule.known.filter((name) => !have.some((entry) => nameKey(entry.name) === nameKey(name))) : []);
  const numbered = (entries: ReadonlyArray<{ name: string; value: number }>, shown: (value: number) => string) => {
    const values = new Map(entries.map((entry) => [entry.name, entry.value]));
    return nameChoices([...values.keys(), ...missing(entries)], typed, (name) => (values.has(name) ? `${name} (${shown(values.get(name)!)})` : name));
  };
  if (group === 'skill') return numbered(sheet.skills.map((skill) => ({ name: skill.name, value: skill.level })), String);
  if (group === 'archetype') return numbered(sheet.archetypes.map((archetype) => ({ name: archetype.name, value: archetype.modifier })), signedCompact);
  if (group === 'attribute') return numbered(sheet.attributes, String);
  return nameChoices(sheet.conditions.filter((condition) => isConditionActive(condition, now)).map((condition) => condition.name), typed);
}

/** The subcommand that takes whole lists at once: `/sheet set`, `/npc set`. */
const LISTS_SUBCOMMAND = 'set';

/** Whether an interaction is `set` (it sits beside the entry groups, in none). */
export function isEntryListsSubcommand(group: string | null, subcommand: string | null): boolean {
  return group === null && subcommand === LISTS_SUBCOMMAND;
}

interface EntryList {
  kind: NumberedKind;
  /** The option that takes the list. */
  option: string;
  /** How the answer heads what it set. */
  heading: string;
  number: ListNumber;
  description: string;
  /** The number as a sheet shows it. */
  shown: (value: number) => string;
  /** The number's own check, as the single-entry subcommand makes it. */
  check: (value: number) => number;
}

/** The lists `set` takes, one option each, in the order the answer shows them. */
const ENTRY_LISTS: readonly EntryList[] = [
  {
    kind: 'skill',
    option: 'skills',
    heading: 'Skills',
    number: { word: 'level', example: 'Climbing 40' },
    description: 'Skills and levels, parted by commas: Climbing 40, CQC 37, Driving 55',
    shown: String,
    check: validSkillLevel,
  },
  {
    kind: 'archetype',
    option: 'archetypes',
    heading: 'Archetype modifiers',
    number: { word: 'modifier', example: 'Acuity +10' },
    description: 'Archetype modifiers, parted by commas: Acuity +10, Dexterity -5',
    shown: signedCompact,
    check: (value) => validModifier('An archetype modifier', value),
  },
  {
    kind: 'attribute',
    option: 'attributes',
    heading: 'Attributes',
    number: { word: 'value', example: 'Aim 65' },
    description: 'Attributes and values, parted by commas: Aim 65, Will 40 (or STR 3, AGI 2)',
    shown: String,
    check: validAttributeValue,
  },
];

/**
 * `set [skills] [archetypes] [attributes]`, declared for a command: several entries in one command, where the entry
 * subcommands take one each. Its options sit between the target's (first) and the last ones, as theirs do.
 */
export function entryListsSubcommand(target: EntryTarget): Subcommand {
  return {
    name: LISTS_SUBCOMMAND,
    build: (subcommand) => {
      let sub = subcommand.setDescription('Set several skills, archetypes or attributes at once (all of them or, if one is wrong, none)');
      if (target.targetOption) sub = target.targetOption(sub);
      for (const list of ENTRY_LISTS) sub = sub.addStringOption((o) => o.setName(list.option).setDescription(list.description).setAutocomplete(true));
      return target.lastOption ? target.lastOption(sub) : sub;
    },
    run: async (interaction, context) => editEntryLists(interaction, context, await target.sheetOf(interaction, context)),
    ...(target.requires ? { requires: target.requires } : {}),
    help: target.help.set,
  };
}

/** One entry of `set`'s lists, checked: the list it came from, its place and text there, and what it sets. */
interface ListedNumber extends NumberedEntry {
  list: EntryList;
  position: number;
  typed: string;
}

/**
 * Runs `set` on `sheet`: reads each list given, checks every entry exactly as the entry subcommands check one (its
 * name, the sheet's system, its number's range; in the store, the sheet's limits and look-alikes), and stores them
 * all in one transaction or none. A refusal names the entry, what would be right, and gives the lists back to copy.
 */
export async function editEntryLists(interaction: ChatInputCommandInteraction, context: HandlerContext, sheet: OperatorSheet): Promise<void> {
  const given = ENTRY_LISTS.flatMap((list) => {
    const text = interaction.options.getString(list.option);
    return text === null ? [] : [{ list, text }];
  });
  const sheetName = escapeMarkdown(sheet.name);
  if (given.length === 0) {
    throw new UserError(
      `Give at least one list to set on ${sheetName}: ${ENTRY_LISTS.map((list) => `\`${list.option}:${list.number.example}, …\``).join(', ')} (each entry a name and a whole number, parted by commas). Nothing was changed.`,
    );
  }
  const refuse = (list: EntryList, entry: { position: number; typed: string }, problem: string): never => {
    const because = problem.replace(/\s*Nothing was changed\.$/, '').replace(/\.$/, '');
    const lists = copyableBlock(given.map(({ list: { option }, text }) => `${option}:${text}`).join('\n'));
    const text = `Nothing was set on **${sheetName}**: in \`${list.option}\`, entry ${entry.position} (**${escapeMarkdown(entry.typed)}**): ${because}. No entry was stored; fix that one and send the command again.`;
    const withLists = lists === null ? text : `${text} Your lists, to copy:\n${lists}`;
    // The message's ⚠️ and the lists must fit one message; past that, the lists are left out rather than cut.
    throw new UserError(withLists.length <= DISCORD_LIMITS.content - 3 ? withLists : text);
  };
  const rules = sheetRulesOf(sheet.system);
  const systemLabel = systemName(sheet.system);
  const entries: ListedNumber[] = [];
  for (const { list, text } of given) {
    const parsed = parseEntryList(text, list.number);
    if (parsed.length === 0) {
      throw new UserError(`\`${list.option}\` holds no entry: give names and numbers parted by commas, e.g. \`${list.option}:${list.number.example}\`. Nothing was changed.`);
    }
    const names: string[] = [];
    for (const entry of parsed) {
      if ('problem' in entry) return refuse(list, entry, entry.problem);
      // The single subcommands' checks in their order: the name, what the system holds, the number's own range.
      const checked = checkEntry(() => {
        const name = validName(list.kind, entry.name);
        const problem = entryProblem(rules, systemLabel, list.kind, name, entry.value);
        if (problem) return { problem };
        list.check(entry.value);
        return { name };
      });
      if ('problem' in checked) return refuse(list, entry, checked.problem);
      const { name } = checked;
      names.push(name);
      entries.push({ kind: list.kind, name, value: entry.value, list, position: entry.position, typed: entry.typed });
    }
    const clash = listClash(names);
    if (clash) {
      const entry = parsed[clash.index]!;
      const [name, other] = [escapeMarkdown(names[clash.index]!), escapeMarkdown(names[clash.other]!)];
      refuse(
        list,
        entry,
        clash.kind === 'twice'
          ? `**${name}** is already entry ${clash.other + 1} of this list; give each once`
          : `**${name}** looks just like **${other}**, entry ${clash.other + 1} of this list: two names that look the same would be taken for each other. Choose a name that can be told apart`,
      );
    }
  }
  let before: Array<number | null>;
  try {
    before = await context.store.operators.setEntries(sheet, entries);
  } catch (error) {
    if (error instanceof EntryRefused) {
      const entry = entries[error.index]!;
      const { refusal } = error;
      if (refusal.kind !== 'entry-limit') return refuse(entry.list, entry, userErrorText(error));
      // The limit is the list's doing, not this entry's: say how many the sheet has and the list adds.
      const has = new Set(sheetEntries(sheet, entry.kind).map(({ name }) => nameKey(name)));
      const adds = new Set(entries.filter(({ kind, name }) => kind === entry.kind && !has.has(nameKey(name))).map(({ name }) => nameKey(name))).size;
      return refuse(
        entry.list,
        entry,
        `a sheet holds at most ${refusal.most} ${entry.kind}s; ${sheetName} has ${has.size} and this list adds ${adds} new, so set fewer or remove some first (\`${isNpc(sheet) ? '/npc' : '/sheet'} ${entry.kind} remove\`)`,
      );
    }
    throw error;
  }
  await context.answer.reply(privateNote(entryListsSet(sheet, entries, before)));
}

/** A sheet's entries of one numbered kind, with their numbers. */
function sheetEntries(sheet: OperatorSheet, kind: NumberedKind): Array<{ name: string; value: number }> {
  if (kind === 'skill') return sheet.skills.map((skill) => ({ name: skill.name, value: skill.level }));
  if (kind === 'archetype') return sheet.archetypes.map((archetype) => ({ name: archetype.name, value: archetype.modifier }));
  return sheet.attributes.map((attribute) => ({ name: attribute.name, value: attribute.value }));
}

/** An entry's checks, with what the checks it shares with the single subcommands throw read as its problem. */
function checkEntry(check: () => { name: string } | { problem: string }): { name: string } | { problem: string } {
  try {
    return check();
  } catch (error) {
    if (error instanceof UserError && !isRefused(error)) return { problem: error.message };
    throw error;
  }
}

/** What `set` changed, list by list; when that is too long for a message, each list's counts instead. */
function entryListsSet(sheet: OperatorSheet, entries: readonly ListedNumber[], before: ReadonlyArray<number | null>): string {
  const head = `Set ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} on **${escapeMarkdown(sheet.name)}**:`;
  const lists = ENTRY_LISTS.filter((list) => entries.some((entry) => entry.list === list));
  const ofList = (list: EntryList) => entries.flatMap((entry, index) => (entry.list === list ? [{ entry, before: before[index] ?? null }] : []));
  const full = lists.map((list) => {
    const shown = ofList(list).map(({ entry, before }) => {
      const name = escapeMarkdown(entry.name);
      if (before === null) return `**${name} ${list.shown(entry.value)}**`;
      if (before === entry.value) return `**${name} ${list.shown(entry.value)}** (as it was)`;
      return `**${name}** ${list.shown(before)} → **${list.shown(entry.value)}**`;
    });
    return `${list.heading}: ${shown.join(', ')}`;
  });
  const text = [head, ...full].join('\n');
  if (text.length <= DISCORD_LIMITS.content) return text;
  const counted = lists.map((list) => {
    const set = ofList(list);
    const added = set.filter(({ before }) => before === null).length;
    const changed = set.filter(({ entry, before }) => before !== null && before !== entry.value).length;
    const kept = set.length - added - changed;
    const parts = [added > 0 ? `${added} new` : '', changed > 0 ? `${changed} changed` : '', kept > 0 ? `${kept} as they were` : ''].filter(Boolean);
    return `${list.heading}: ${parts.join(', ')}`;
  });
  return [head, ...counted, `\`${isNpc(sheet) ? `/npc show name:${sheet.name}` : '/sheet show'}\` lists them.`].join('\n');
}

/** Entries are parted by these in a list (as `parseEntryList` reads it): the last part is the one being typed. */
const LAST_PART = /^([\s\S]*[,;\n\r\uff0c\uff1b\u3001])?([^,;\n\r\uff0c\uff1b\u3001]*)$/u;

/**
 * Autocomplete for one of `set`'s lists: the entry being typed is completed from the names the sheet's system reads
 * and the entries the sheet has (with their numbers now), leaving out names the list already gives; a finished
 * entry is offered back as typed, so sending the choice never swaps it for another.
 */
export function entryListChoices(sheet: OperatorSheet, option: string, typed: string) {
  const list = ENTRY_LISTS.find((candidate) => candidate.option === option);
  if (!list) return [];
  const [, head = '', last = ''] = LAST_PART.exec(typed) ?? [];
  const lastEntry = parseEntryList(last, list.number)[0];
  if (lastEntry && 'name' in lastEntry) return typed.trim().length <= DISCORD_LIMITS.choiceValue ? [{ name: typed.trim(), value: typed.trim() }] : [];
  const given = new Set(parseEntryList(head, list.number).flatMap((entry) => ('name' in entry ? [nameKey(entry.name)] : [])));
  const stored = new Map(sheetEntries(sheet, list.kind).map(({ name, value }) => [name, value]));
  const known = sheetRulesOf(sheet.system)[list.kind]?.known ?? [];
  const storedKeys = new Set([...stored.keys()].map(nameKey));
  const names = [...stored.keys(), ...known.filter((name) => !storedKeys.has(nameKey(name)))].filter((name) => !given.has(nameKey(name)));
  const prefix = head.trim() === '' ? '' : `${head.trimEnd()} `;
  return nameChoices(names, last.trim())
    .map(({ value: name }) => {
      const now = stored.get(name);
      return { name: `${prefix}${name}${now === undefined ? '' : ` (now ${list.shown(now)})`}`, value: `${prefix}${name}` };
    })
    .filter((choice) => choice.value.length <= DISCORD_LIMITS.choiceValue)
    .map((choice) => ({ ...choice, name: choice.name.length <= DISCORD_LIMITS.choiceName ? choice.name : choice.value }));
}

/**
 * The confirm / keep buttons of a delete prompt (`<command>:delete:<id>`, `<command>:keep:<id>`). The delete only
 * deletes a sheet inside `owner`'s scope; anything else (not theirs, already gone) changes nothing.
 */
export async function answerDeleteButton(
  { action, sheetId }: DeletePromptControl,
  context: HandlerContext,
  owner: SheetOwner,
  texts: { missing: string; deleted: (sheet: OperatorSheet) => string },
): Promise<void> {
  if (action === 'keep') {
    await context.answer.update({ content: 'Kept. Nothing was deleted.', components: [], allowedMentions: NO_PINGS });
    return;
  }
  const deleted = await context.store.operators.delete(owner, sheetId);
  if (!deleted) {
    await context.answer.reply(privateNote(texts.missing));
    return;
  }
  await context.answer.update({ content: texts.deleted(deleted), components: [], allowedMentions: NO_PINGS });
}
