/**
 * What /sheet and /npc do the same way, written once: the skill, archetype and condition subcommands (their
 * definitions, their handler given the sheet to change, their autocomplete) and the buttons of a delete prompt.
 * /sheet points them at the player's active sheet (a Dispatcher may name another `player`), /npc at the NPC its
 * `npc` option names.
 */
import {
  SlashCommandSubcommandGroupBuilder,
  type ChatInputCommandInteraction,
  type SlashCommandBooleanOption,
  type SlashCommandSubcommandBuilder,
  type SlashCommandSubcommandsOnlyBuilder,
} from 'discord.js';
import type { HandlerContext } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { cleanName, nameKey } from '../../src/engine/names.js';
import {
  SHEET_LIMITS,
  conditionSkills,
  entryProblem,
  isConditionActive,
  validAttributeValue,
  validModifier,
  validName,
  validSkillLevel,
  type OperatorSheet,
} from '../../src/engine/sheet.js';
import { DEFAULT_SYSTEM, isSystemId, sheetRulesOf, SYSTEM_IDS, systemChoices, systemName, type SystemId } from '../../src/engine/systems/index.js';
import type { SheetOwner } from '../../src/store/operators.js';
import { listChoices, nameChoices } from '../../src/views/autocomplete.js';
import { escapeMarkdown, signedCompact } from '../../src/views/format.js';
import { NO_PINGS } from '../../src/views/limits.js';
import { privateNote } from '../../src/views/messages.js';
import type { DeletePromptControl } from '../../src/views/sheet.js';

/** `create name [system]`, as /sheet and /npc define it (with their own words). */
export function createSubcommand(description: string, nameDescription: string) {
  return (sub: SlashCommandSubcommandBuilder) =>
    sub
      .setName('create')
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

/** `delete name:` (answered with a confirm prompt), as /sheet and /npc define it. */
export function deleteSubcommand(description: string, nameDescription: string) {
  return (sub: SlashCommandSubcommandBuilder) =>
    sub
      .setName('delete')
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
}

type WithGroups = Pick<SlashCommandSubcommandsOnlyBuilder, 'addSubcommandGroup'>;

/** Adds `skill set|remove`, `archetype set|remove`, `condition add|remove` and `attribute set|remove` to a command. */
export function addEntrySubcommands<B extends WithGroups>(builder: B, target: EntryTarget): B {
  const sub = (subcommand: SlashCommandSubcommandBuilder, name: string, description: string) =>
    (target.targetOption ?? ((s: SlashCommandSubcommandBuilder) => s))(subcommand.setName(name).setDescription(description));
  builder.addSubcommandGroup((group) =>
    group
      .setName('skill')
      .setDescription(`${target.whose} skills`)
      .addSubcommand((s) =>
        sub(s, 'set', 'Add a skill or change its level')
          .addStringOption((o) => o.setName('name').setDescription('The skill, e.g. Climbing').setRequired(true).setAutocomplete(true))
          .addIntegerOption((o) => o.setName('level').setDescription('Its level, 0–100').setRequired(true)),
      )
      .addSubcommand((s) =>
        sub(s, 'remove', 'Remove a skill').addStringOption((o) => o.setName('name').setDescription('The skill').setRequired(true).setAutocomplete(true)),
      ),
  );
  builder.addSubcommandGroup((group) =>
    group
      .setName('archetype')
      .setDescription(`${target.whose} archetype modifiers`)
      .addSubcommand((s) =>
        sub(s, 'set', 'Add an archetype modifier or change it')
          .addStringOption((o) => o.setName('name').setDescription('The archetype, e.g. Acuity').setRequired(true).setAutocomplete(true))
          .addIntegerOption((o) => o.setName('modifier').setDescription('Its modifier, may be negative').setRequired(true)),
      )
      .addSubcommand((s) =>
        sub(s, 'remove', 'Remove an archetype modifier').addStringOption((o) =>
          o.setName('name').setDescription('The archetype').setRequired(true).setAutocomplete(true),
        ),
      ),
  );
  builder.addSubcommandGroup((group) =>
    group
      .setName('condition')
      .setDescription(`${target.whose} conditions`)
      .addSubcommand((s) =>
        sub(s, 'add', 'Add a condition (or replace the one with the same name)')
          .addStringOption((o) => o.setName('name').setDescription('The condition, e.g. Wounded').setRequired(true))
          .addIntegerOption((o) => o.setName('modifier').setDescription('What it adds to rolls, e.g. -10').setRequired(true))
          .addStringOption((o) => o.setName('skills').setDescription('Comma list of skills it applies to (default: all)').setAutocomplete(true))
          .addIntegerOption((o) => o.setName('minutes').setDescription('It ends after this many minutes (default: until removed)')),
      )
      .addSubcommand((s) =>
        sub(s, 'remove', 'Remove a condition').addStringOption((o) => o.setName('name').setDescription('The condition').setRequired(true).setAutocomplete(true)),
      ),
  );
  builder.addSubcommandGroup((group) =>
    group
      .setName('attribute')
      .setDescription(`${target.whose} attributes (Aim, Will, STR, AGI…)`)
      .addSubcommand((s) =>
        sub(s, 'set', 'Add an attribute or change its value')
          .addStringOption((o) => o.setName('name').setDescription('The attribute, e.g. Aim or STR').setRequired(true).setAutocomplete(true))
          .addIntegerOption((o) => o.setName('value').setDescription('Its value').setRequired(true)),
      )
      .addSubcommand((s) =>
        sub(s, 'remove', 'Remove an attribute').addStringOption((o) => o.setName('name').setDescription('The attribute').setRequired(true).setAutocomplete(true)),
      ),
  );
  if (target.lastOption) {
    // The groups were just built above; their subcommands are builders still open for options.
    for (const group of (builder as unknown as { options: unknown[] }).options) {
      if (group instanceof SlashCommandSubcommandGroupBuilder && isEntryGroup(group.name)) group.options.forEach((sub) => target.lastOption!(sub));
    }
  }
  return builder;
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
