/**
 * /table: a server's outcome tables (RULES 1.4): import, export, show, list, delete. Also the `/roll outcome`
 * subcommand that `commands/roll.ts` mounts, and the buttons both own: `table:delete:<asker>:<name>`,
 * `table:keep`, `table:next:<roll id>:<sheet id>` (roll the row's next table).
 */
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, rolledBy, type ComponentInteraction, type HandlerContext, type Subcommand } from '../src/discord/command.js';
import { answerFromStore, postResult, unposted } from '../src/discord/stored-message.js';
import { readAttachmentText } from '../src/discord/attachments.js';
import { UserError, isUserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { outcomeDice } from '../src/engine/replay.js';
import { seededRng } from '../src/engine/rng.js';
import { archetypeModifiers, findSkill, splitNameList, type OperatorSheet } from '../src/engine/sheet.js';
import { SITUATIONAL_MODIFIER_LIMIT, type Modifier } from '../src/engine/systems/tactalk/challenge.js';
import {
  TABLE_LIMITS,
  parseTableFile,
  resolveOutcomeRoll,
  tableToCsv,
  tableToJson,
  type OutcomeRollResult,
  type OutcomeTable,
  type TableFileDefaults,
} from '../src/engine/tables.js';
import { derivedRollId, type StoredRoll } from '../src/store/rolls.js';
import { nameChoices, noSheetChoice } from '../src/views/autocomplete.js';
import { escapeMarkdown, plural } from '../src/views/format.js';
import { NO_PINGS } from '../src/views/limits.js';
import { privateNote, userErrorText } from '../src/views/messages.js';
import {
  nextTableDoneComponents,
  outcomeReply,
  tableDeleteConfirmReply,
  tableListReply,
  tableIds,
  tableShowReply,
  type NextTable,
  type TableControl,
} from '../src/views/tables.js';
import { skillOrArchetypeChoices } from './shared/roll-sheets.js';

const FORMAT_HINT = 'See `docs/tables.md`, or export a table with `/table export`, for the expected format.';

/** What a Dispatcher's refusal adds: the rest of /table is everyone's. */
const DISPATCHER_ADVICE = 'Everyone can show, list, export and roll tables. Nothing was changed.';

/** Table names for an autocomplete: every `table` / `name` option that names a table. */
async function tableNameChoices(context: HandlerContext, typed: string) {
  return nameChoices(await context.store.tables.names(context.guildId), typed);
}

// ---------------------------------------------------------------------------------------------------------
// /table

function fileBaseName(fileName: string): string {
  return fileName.replace(/\.[^.]*$/, '');
}

function exportFileName(table: OutcomeTable, format: 'json' | 'csv'): string {
  return `${table.name.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'table'}.${format}`;
}

async function importTable(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const attachment = interaction.options.getAttachment('file', true);
  const given = {
    name: interaction.options.getString('name'),
    die: interaction.options.getString('die'),
    asks: interaction.options.getString('asks'),
    skill: interaction.options.getString('skill'),
  };
  const defaults: TableFileDefaults = { name: given.name ?? fileBaseName(attachment.name) };
  if (given.die !== null) defaults.die = given.die;
  if (given.asks !== null) defaults.asks = given.asks;
  if (given.skill !== null) defaults.skill = given.skill;

  const text = await readAttachmentText(attachment, TABLE_LIMITS.fileBytes, FORMAT_HINT);
  const { table, fileSets } = parseTableFile(attachment.name, text, defaults);

  // A JSON file carries everything: an option only fills in what the file lacks. Say which ones were not used.
  const kept = fileSets.filter((field) => given[field] !== null).map((field) => `\`${field}\``);

  const existing = await context.store.tables.find(context.guildId, table.name);
  if (existing && !(interaction.options.getBoolean('replace') ?? false)) {
    throw new UserError(
      `This server already has a table named **${escapeMarkdown(existing.name)}**. Import again with \`replace:true\` to overwrite it. Nothing was changed.`,
    );
  }
  const { replaced } = await context.store.tables.save(context.guildId, table);

  const names = new Set((await context.store.tables.names(context.guildId)).map(nameKey));
  const missing = [...new Set(table.rows.flatMap((row) => (row.next && !names.has(nameKey(row.next)) ? [row.next] : [])))];
  const lines = [
    `${replaced ? 'Replaced' : 'Imported'} **${escapeMarkdown(table.name)}**: ${plural(table.rows.length, 'row')} (${table.rows[0]!.min}–${table.rows.at(-1)!.max}), die **${escapeMarkdown(table.die)}**` +
      `${table.asks ? `, asks *${escapeMarkdown(table.asks)}*` : ''}${table.skill ? `, default skill **${escapeMarkdown(table.skill)}**` : ''}.`,
    `Roll it with \`/roll outcome table:${table.name}\`.`,
  ];
  if (kept.length) lines.push(`The file sets its own ${kept.join(', ')}, so the option${kept.length > 1 ? 's were' : ' was'} not used.`);
  if (missing.length) lines.push(`Rows name next tables this server does not have yet: ${missing.map((name) => `**${escapeMarkdown(name)}**`).join(', ')}.`);
  await context.answer.reply(privateNote(lines.join('\n')));
}

async function exportTable(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const table = await context.store.tables.require(context.guildId, interaction.options.getString('name', true));
  const format = interaction.options.getString('format') === 'csv' ? 'csv' : 'json';
  const content = format === 'csv' ? tableToCsv(table) : tableToJson(table);
  const options = [`name:${table.name}`, ...(table.die !== 'd100' ? [`die:${table.die}`] : []), ...(table.asks ? [`asks:${table.asks}`] : []), ...(table.skill ? [`skill:${table.skill}`] : [])];
  const note =
    format === 'json'
      ? `**${escapeMarkdown(table.name)}** as JSON: the file carries everything; \`/table import\` reads it back as it is.`
      : `**${escapeMarkdown(table.name)}** as CSV: the file holds the rows only. To import it back as it is: \`/table import file:… ${options.join(' ')}\``;
  await context.answer.reply({ ...privateNote(note), files: [{ attachment: Buffer.from(content, 'utf8'), name: exportFileName(table, format) }] });
}

async function showTable(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const table = await context.store.tables.require(context.guildId, interaction.options.getString('name', true));
  await context.answer.reply(tableShowReply(table));
}

async function listTables(_interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  await context.answer.reply(tableListReply(await context.store.tables.list(context.guildId)));
}

async function askToDelete(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const table = await context.store.tables.require(context.guildId, interaction.options.getString('name', true));
  await context.answer.reply(tableDeleteConfirmReply(table, context.userId));
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const typed = String(focused.value);
  if (focused.name === 'name') {
    await interaction.respond(await tableNameChoices(context, typed));
    return;
  }
  if (focused.name === 'skill') {
    const sheet = await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, 'tactalk');
    await interaction.respond(sheet ? nameChoices(sheet.skills.map((skill) => skill.name), typed) : []);
    return;
  }
  await interaction.respond([]);
}

// ---------------------------------------------------------------------------------------------------------
// /roll outcome and the next-table button

interface OutcomeAsk {
  /** The skill the roller named, or null for the table's default skill (if any). */
  skill: string | null;
  archetypes: string[];
  situationalModifier: number;
}

/** The terms the roller adds: a skill's aptitude, archetype modifiers (both from the sheet), a situational one. */
function outcomeModifiers(table: OutcomeTable, sheet: OperatorSheet | null, ask: OutcomeAsk): Modifier[] {
  if (!Number.isInteger(ask.situationalModifier) || Math.abs(ask.situationalModifier) > SITUATIONAL_MODIFIER_LIMIT) {
    throw new UserError(`The situational modifier must be from -${SITUATIONAL_MODIFIER_LIMIT} to +${SITUATIONAL_MODIFIER_LIMIT}; ${ask.situationalModifier} is not.`);
  }
  const skillName = ask.skill ?? table.skill;
  const byDefault = ask.skill === null && table.skill !== null;
  const because = `The table **${escapeMarkdown(table.name)}** adds your **${escapeMarkdown(table.skill ?? '')}** aptitude when you name no skill. `;
  const modifiers: Modifier[] = [];
  if (skillName !== null || ask.archetypes.length > 0) {
    if (!sheet) {
      throw new UserError(
        `${byDefault ? because : ''}Skills and archetype modifiers come from your active sheet, and you have none. Create one with \`/sheet create\` or pick one with \`/sheet use\`.`,
      );
    }
    if (skillName !== null) {
      try {
        const skill = findSkill(sheet, skillName);
        modifiers.push({ name: skill.name, value: skill.level });
      } catch (error) {
        if (byDefault && isUserError(error)) throw new UserError(`${because}${userErrorText(error)} Name a skill with \`skill\`.`);
        throw error;
      }
    }
    modifiers.push(...archetypeModifiers(sheet, ask.archetypes));
  }
  if (ask.situationalModifier !== 0) modifiers.push({ name: 'situational', value: ask.situationalModifier });
  return modifiers;
}

/**
 * Rolls a table, stores the roll (inputs: the table as it is now and the terms), and says what the next table is.
 * With `onceAs` (a roll made from another one, under an id derived from it) the roll is stored only if that id is
 * free: null, and nothing stored, when it was already made — by an earlier press or one at the same moment.
 */
type TableRolled = { result: OutcomeRollResult; rollId: string; next: NextTable };
async function rollTable(context: HandlerContext, table: OutcomeTable, modifiers: Modifier[], sheet: OperatorSheet | null): Promise<TableRolled>;
async function rollTable(context: HandlerContext, table: OutcomeTable, modifiers: Modifier[], sheet: OperatorSheet | null, onceAs: string): Promise<TableRolled | null>;
async function rollTable(
  context: HandlerContext,
  table: OutcomeTable,
  modifiers: Modifier[],
  sheet: OperatorSheet | null,
  onceAs?: string,
): Promise<TableRolled | null> {
  const seed = context.newSeed();
  const result = resolveOutcomeRoll({ table, modifiers }, seededRng(seed));
  const { input, ...rest } = result;
  const roll = {
    ...rolledBy(context),
    kind: 'outcome',
    inputs: input,
    seed,
    dice: outcomeDice(result),
    // The table is in the inputs already; the result keeps the roll, the sum and the row.
    result: rest,
    total: result.result,
    challengeLevel: null,
    success: null,
  };
  let rollId: string;
  if (onceAs === undefined) rollId = await context.store.rolls.record(roll);
  else if (await context.store.rolls.recordOnce(onceAs, roll)) rollId = onceAs;
  else return null;
  const nextName = result.row.next;
  const next: NextTable = nextName
    ? { name: nextName, exists: (await context.store.tables.find(context.guildId, nextName)) !== null, sheetId: sheet?.id ?? null }
    : null;
  return { result, rollId, next };
}

async function rollOutcome(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const table = await context.store.tables.require(context.guildId, interaction.options.getString('table', true));
  const skill = interaction.options.getString('skill');
  const ask: OutcomeAsk = {
    skill: skill !== null && skill.trim() !== '' ? skill : null,
    archetypes: splitNameList(interaction.options.getString('archetypes')),
    situationalModifier: interaction.options.getInteger('modifier') ?? 0,
  };
  const owner = { guildId: context.guildId, ownerId: context.userId };
  const sheet = await context.store.operators.active(owner, 'tactalk');
  if (!sheet && (ask.skill !== null || ask.archetypes.length > 0)) await context.store.operators.requireActive(owner, 'tactalk', { command: '/roll outcome' });
  const modifiers = outcomeModifiers(table, sheet, ask);
  const { result, rollId, next } = await rollTable(context, table, modifiers, sheet);
  await context.answer.reply(outcomeReply(result, sheet?.name ?? interaction.user.displayName, rollId, next));
}

/** `/roll outcome`'s suggestions: the server's tables, and the skills and archetypes of the roller's active sheet. */
async function outcomeAutocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const typed = String(focused.value);
  if (focused.name === 'table') return interaction.respond(await tableNameChoices(context, typed));
  const sheet = await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, 'tactalk');
  if (!sheet) return interaction.respond(focused.name === 'skill' || focused.name === 'archetypes' ? noSheetChoice('tactalk') : []);
  await interaction.respond(skillOrArchetypeChoices(sheet, focused.name, typed));
}

/** `/roll outcome`, mounted by commands/roll.ts. */
export const outcomeSubcommand: Subcommand = {
  name: 'outcome',
  build: (sub) =>
    sub
      .setDescription("An outcome roll: the table's die + what it asks for, then the row that covers the result")
      .addStringOption((o) => o.setName('table').setDescription('The outcome table').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('skill').setDescription("Add this skill's aptitude from your active sheet (default: the table's skill)").setAutocomplete(true))
      .addStringOption((o) => o.setName('archetypes').setDescription('Archetype modifiers to add, comma separated').setAutocomplete(true))
      .addIntegerOption((o) => o.setName('modifier').setDescription('A situational modifier, e.g. -10')),
  run: rollOutcome,
  autocomplete: outcomeAutocomplete,
  again: true,
  help: { audience: 'player', example: '/roll outcome table:Search skill:Investigation' },
};

/** `table:next:<roll id>:<sheet id>`: only the roller may press; the next table is rolled once, with the same sheet. */
async function rollNextTable(interaction: ComponentInteraction, context: HandlerContext, rollId: string, sheetId: number | null): Promise<void> {
  const parent: StoredRoll | null = await context.store.rolls.find(context.guildId, rollId);
  if (!parent || parent.kind !== 'outcome') throw new UserError('That roll is not stored on this server, so its next table cannot be rolled.');
  if (parent.userId !== context.userId) {
    await context.answer.reply(privateNote(`Only <@${parent.userId}>, who made this roll, can roll its next table. Nothing was rolled.`));
    return;
  }
  const nextName = (parent.result as { row?: { next?: string | null } }).row?.next;
  if (!nextName) throw new UserError('That roll has no next table.');
  const childId = derivedRollId(parent.id, 'next');
  const done = { components: nextTableDoneComponents(parent.id, { name: nextName, sheetId }), allowedMentions: NO_PINGS };
  // The same sheet as the first roll (reloaded, and only if it is still the presser's); none then → the active one.
  const owner = { guildId: context.guildId, ownerId: context.userId };
  let sheet = sheetId !== null ? await context.store.operators.get(context.guildId, sheetId) : await context.store.operators.active(owner, 'tactalk');
  if (sheet && sheet.ownerId !== context.userId) sheet = null;
  const who = sheet?.name ?? interaction.user.displayName;

  // Rolled already (perhaps by a press whose answer was lost): the button greys, and the roll is posted if it never was.
  const alreadyRolled = async () => {
    const child = await context.store.rolls.find(context.guildId, childId);
    const lost = child ? await unposted(context, [{ rollId: childId, payload: await storedOutcomeReply(context, child, who, sheet) }]) : [];
    await answerFromStore(interaction, context, done, `The next table was already rolled from this roll: roll \`${childId}\`. Nothing was rolled.`, lost);
  };
  if (await context.store.rolls.find(context.guildId, childId)) return void (await alreadyRolled());
  const table = await context.store.tables.require(context.guildId, nextName);
  if (!sheet && table.skill !== null && sheetId !== null) {
    throw new UserError(`**${escapeMarkdown(table.name)}** adds your **${escapeMarkdown(table.skill)}** aptitude, but the sheet of the first roll no longer exists. Roll it with \`/roll outcome\`.`);
  }
  const modifiers = outcomeModifiers(table, sheet, { skill: null, archetypes: [], situationalModifier: 0 });
  const rolled = await rollTable(context, table, modifiers, sheet, childId);
  if (!rolled) return void (await alreadyRolled());
  const { result, rollId: newRollId, next } = rolled;
  // The roll is in the channel before its button greys: if posting it fails, the button stays and posts it next time.
  await context.answer.holdMessage();
  await postResult(interaction, context, { rollId: newRollId, payload: outcomeReply(result, who, newRollId, next) });
  await context.answer.update(done);
}

/** A stored next-table roll's message, as it was posted (its own next table looked up now). */
async function storedOutcomeReply(context: HandlerContext, child: StoredRoll, who: string, sheet: OperatorSheet | null) {
  const result = { ...(child.result as Omit<OutcomeRollResult, 'input'>), input: child.inputs as OutcomeRollResult['input'] };
  const nextName = result.row.next;
  const next: NextTable = nextName ? { name: nextName, exists: (await context.store.tables.find(context.guildId, nextName)) !== null, sheetId: sheet?.id ?? null } : null;
  return outcomeReply(result, who, child.id, next);
}

async function component(interaction: ComponentInteraction, control: TableControl, context: HandlerContext): Promise<void> {
  if (control.action === 'keep') {
    await context.answer.update({ content: 'Kept. Nothing was deleted.', components: [], allowedMentions: NO_PINGS });
    return;
  }
  if (control.action === 'next') return rollNextTable(interaction, context, control.rollId, control.sheetId);
  if (control.askerId !== context.userId) {
    await context.answer.reply(privateNote('Only the Dispatcher who asked for this delete can confirm it. Nothing was changed.'));
    return;
  }
  await context.requireDispatcher('delete outcome tables', DISPATCHER_ADVICE);
  const name = control.tableName;
  const deleted = await context.store.tables.delete(context.guildId, name);
  await context.answer.update({
    content: deleted ? `Deleted the outcome table **${escapeMarkdown(name)}**.` : `There is no table named **${escapeMarkdown(name)}** any more. Nothing was changed.`,
    components: [],
    allowedMentions: NO_PINGS,
  });
}

export const tableCommand = defineCommand<TableControl>({
  name: 'table',
  description: "This server's outcome tables",
  systems: ['tactalk'],
  subcommands: [
    {
      name: 'import',
      build: (sub) =>
        sub
          .setDescription('Dispatcher: create or replace a table from a JSON or CSV file')
          .addAttachmentOption((o) => o.setName('file').setDescription('A .json table file, or a .csv with the header min,max,text[,next][,reveals]').setRequired(true))
          .addStringOption((o) => o.setName('name').setDescription("The table's name, if the file has none (default: the file name)").setAutocomplete(true))
          .addStringOption((o) => o.setName('die').setDescription('The die, if the file has none (default: d100)'))
          .addStringOption((o) => o.setName('asks').setDescription('What the roller adds, in words, e.g. "Add your Machine Gun Handling aptitude"'))
          .addStringOption((o) => o.setName('skill').setDescription('The skill whose aptitude is added when the roller names none').setAutocomplete(true))
          .addBooleanOption((o) => o.setName('replace').setDescription('Overwrite the table of the same name (default: no)')),
      run: importTable,
      // A table file fetched, parsed (JSON or CSV) and written in one transaction.
      heavy: true,
      requires: { dispatcher: 'import outcome tables', advice: DISPATCHER_ADVICE },
      help: { audience: 'dispatcher', example: '/table import file:search.csv name:Search' },
    },
    {
      name: 'export',
      build: (sub) =>
        sub
          .setDescription('Download a table as a file')
          .addStringOption((o) => o.setName('name').setDescription('The table').setRequired(true).setAutocomplete(true))
          .addStringOption((o) =>
            o
              .setName('format')
              .setDescription('json (everything, the default) or csv (the rows only)')
              .addChoices({ name: 'json', value: 'json' }, { name: 'csv', value: 'csv' }),
          ),
      run: exportTable,
      // A whole table written out as a file and sent.
      heavy: true,
      help: { audience: 'player', example: '/table export name:Search format:csv' },
    },
    {
      name: 'show',
      build: (sub) => sub.setDescription("Show a table's die, what it asks and its rows").addStringOption((o) => o.setName('name').setDescription('The table').setRequired(true).setAutocomplete(true)),
      run: showTable,
      help: { audience: 'player', example: '/table show name:Search' },
    },
    { name: 'list', build: (sub) => sub.setDescription("List this server's outcome tables"), run: listTables, help: { audience: 'player', example: '/table list' } },
    {
      name: 'delete',
      build: (sub) => sub.setDescription('Dispatcher: delete a table (asks to confirm)').addStringOption((o) => o.setName('name').setDescription('The table').setRequired(true).setAutocomplete(true)),
      run: askToDelete,
      requires: { dispatcher: 'delete outcome tables', advice: DISPATCHER_ADVICE },
      help: { audience: 'dispatcher', example: '/table delete name:Search' },
    },
  ],
  autocomplete,
  ids: tableIds,
  component,
});
