/** /d10: d10 pools read by the highest die with matches (RULES 5, seed 004): basic, advanced and cumulative rolls. */
import type { AutocompleteInteraction, ButtonInteraction, ChatInputCommandInteraction, SlashCommandStringOption, SlashCommandSubcommandBuilder } from 'discord.js';
import { defineCommand, rolledBy, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { answerFromStore } from '../src/discord/stored-message.js';
import { answerAsNpc, asNpcRoller } from '../src/discord/npc-voice.js';
import { UserError } from '../src/errors.js';
import { seededRng } from '../src/engine/rng.js';
import {
  CUMULATIVE_ROLLS_DEFAULT,
  CUMULATIVE_ROLLS_MAX,
  nextStepInput,
  resolveCumulativeStep,
  validateCumulativeSettings,
  type CumulativeSettings,
  type CumulativeStepResult,
} from '../src/engine/systems/d10-pool/cumulative.js';
import { AIM_PHASES_MAX, AIM_PHASES_THAT_ADD } from '../src/engine/systems/d10-pool/actions.js';
import {
  parseSituations,
  POOL_MODIFIER_LIMIT,
  poolDice,
  resolveAdvancedRoll,
  resolvePoolRoll,
  TARGET_NUMBER_MAX,
  TARGET_NUMBER_MIN,
  validateAdvancedInput,
  validatePoolInput,
  type AdvancedInput,
  type PoolInput,
  type PoolResult,
  type SheetEntryRef,
} from '../src/engine/systems/d10-pool/pool.js';
import { derivedRollId, type StoredRoll } from '../src/store/rolls.js';
import { advancedRollName, basicRollName, cumulativeMessage, d10Ids, poolReply, rollerName, type RollAgainPress, type StoredStep } from '../src/views/d10-pool.js';
import type { SystemId } from '../src/engine/systems/index.js';
import { privateNote } from '../src/views/messages.js';
import { isNoSheetChoice, nameChoices, noSheetChoice } from '../src/views/autocomplete.js';
import { escapeMarkdown } from '../src/views/format.js';
import { nameKey } from '../src/engine/names.js';
import type { OperatorSheet } from '../src/engine/sheet.js';
import { numberOrName, poolEntries, sheetEntry } from '../src/engine/systems/d10-pool/sheet.js';
import { npcNameChoices } from './npc.js';
import { npcNamed, rollerSheet, type SheetNeed } from './shared/roll-sheets.js';

export const D10_POOL_SYSTEM: SystemId = 'd10-pool';
export const CUMULATIVE_KIND = 'd10-extended';
/** /d10 reads d10 pools sheets only. */
const D10: SheetNeed = { system: D10_POOL_SYSTEM };

/** The longest name a dice option takes: a sheet entry's name (64 characters) fits. */
const NAME_OPTION_MAX = 64;
const DICE_HELP = 'How many d10, or a skill or attribute of your sheet, e.g. Pistol (0 or fewer: one die)';
const asNpc = (o: SlashCommandStringOption) => o.setName('as_npc').setDescription('Dispatcher only: roll for this NPC, from its sheet').setAutocomplete(true);
/** A dice or level option: a number, or a name on the roller's sheet (autocompleted). */
const numberOrNameOption = (o: SlashCommandStringOption, name: string, description: string) =>
  o.setName(name).setDescription(description).setRequired(true).setAutocomplete(true).setMaxLength(NAME_OPTION_MAX);

/** Long enough for ten situations of a few words; each name is checked again by the engine. */
const SITUATIONS_TEXT_MAX = 400;
const SITUATIONS_HELP = 'Situations that each take one die away, comma-separated (e.g. in the dark, wounded)';
const AIM_HELP = `Phases spent aiming first: +1 per phase, at most +${AIM_PHASES_THAT_ADD} (${AIM_PHASES_THAT_ADD} phases add)`;
const UNSAFE_HELP = 'Missing is not safe (a chasm, not a sand pit): a near miss fails, no partial success';

/** The options every single pool roll takes (modifier, calm, situations), and aiming with it where it can apply. */
function poolOptions(sub: SlashCommandSubcommandBuilder, { aim }: { aim: boolean }): SlashCommandSubcommandBuilder {
  sub
    .addIntegerOption((o) => o.setName('modifier').setDescription('Added to the result, e.g. -2').setMinValue(-POOL_MODIFIER_LIMIT).setMaxValue(POOL_MODIFIER_LIMIT))
    .addBooleanOption((o) => o.setName('calm').setDescription('Not a stressful situation: no automatic failure or botch on 1s'))
    .addStringOption((o) => o.setName('situations').setDescription(SITUATIONS_HELP).setMaxLength(SITUATIONS_TEXT_MAX));
  if (aim) {
    sub
      .addIntegerOption((o) => o.setName('aim').setDescription(AIM_HELP).setMinValue(0).setMaxValue(AIM_PHASES_MAX))
      .addBooleanOption((o) => o.setName('unsafe').setDescription(UNSAFE_HELP));
  }
  return sub.addStringOption(asNpc);
}

/** Who rolls: the roller's active d10 pools sheet (none: the member rolls dice given as numbers), or a Dispatcher's NPC. */
async function rollingSheet(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<OperatorSheet | null> {
  return rollerSheet(interaction, context, D10, 'optional');
}

/**
 * A dice or level option: a number given outright, or the name of a skill or attribute of the rolling sheet, whose
 * number it takes. `what` names the option in refusals, `aNumber` what a number there is ("a number of dice").
 */
function numberFrom(
  interaction: ChatInputCommandInteraction,
  option: string,
  sheet: OperatorSheet | null,
  what: string,
  aNumber: string,
): { value: number; from?: SheetEntryRef } {
  const typed = interaction.options.getString(option, true);
  const parsed = numberOrName(typed);
  if ('value' in parsed) return { value: parsed.value };
  if (parsed.name === '') throw new UserError(`Give \`${option}\`: ${aNumber}, or the name of a skill or attribute of your sheet.`);
  if (!sheet || isNoSheetChoice(typed)) {
    // The autocomplete's "no sheet yet" choice, sent as it is, gets the same advice.
    const named = isNoSheetChoice(typed) ? 'You have' : `**${escapeMarkdown(parsed.name.slice(0, NAME_OPTION_MAX))}** is not ${aNumber}, and you have`;
    throw new UserError(
      `${named} no d10 pools sheet to read ${what} from. Give ${aNumber} (e.g. \`${option}:4\`), or make a sheet: ` +
        '`/sheet create name:… system:d10 pools`, then add its skills with `/sheet skill set`.',
    );
  }
  const { from, value } = sheetEntry(sheet, parsed.name, what);
  return { value, from };
}

/** What a roll stores about the character: the sheet that rolled and the entry its dice came from (nothing without). */
function characterOf(sheet: OperatorSheet | null, pool: SheetEntryRef | undefined): Pick<PoolInput, 'sheet' | 'pool'> {
  return { ...(sheet ? { sheet: { id: sheet.id, name: sheet.name } } : {}), ...(pool ? { pool } : {}) };
}

/** A Dispatcher's roll for an NPC is marked with it in the roll log, as every system's `as_npc` roll is. */
function npcFact(interaction: ChatInputCommandInteraction, sheet: OperatorSheet | null): { npc?: string } {
  return interaction.options.getString('as_npc') !== null && sheet ? { npc: sheet.name } : {};
}

async function recordPool(context: HandlerContext, kind: string, input: PoolInput, seed: string, result: PoolResult, npc: { npc?: string }): Promise<string> {
  return context.store.rolls.record({
    ...rolledBy(context),
    ...npc,
    kind,
    system: D10_POOL_SYSTEM,
    inputs: input,
    seed,
    dice: poolDice(result),
    result,
    total: result.result,
    challengeLevel: input.targetNumber,
    success: result.success,
  });
}

/** The options every pool roll may take beside its dice: the situations, aiming, and whether missing is safe. */
function conditionsOf(interaction: ChatInputCommandInteraction): Pick<PoolInput, 'situations' | 'aimPhases' | 'unsafe'> {
  return {
    situations: parseSituations(interaction.options.getString('situations')),
    aimPhases: interaction.options.getInteger('aim') ?? 0,
    unsafe: interaction.options.getBoolean('unsafe') ?? false,
  };
}

/** `/d10 roll`, and `/d10 fastdraw` (a basic roll with the sample action's consequence): both stored as `d10`. */
async function basic(interaction: ChatInputCommandInteraction, context: HandlerContext, action?: 'fastdraw'): Promise<void> {
  const sheet = await rollingSheet(interaction, context);
  const dice = numberFrom(interaction, 'dice', sheet, 'dice', 'a number of dice');
  const input: PoolInput = {
    dice: dice.value,
    targetNumber: interaction.options.getInteger('tn', true),
    modifier: interaction.options.getInteger('modifier') ?? 0,
    calm: interaction.options.getBoolean('calm') ?? false,
    ...(action ? { situations: parseSituations(interaction.options.getString('situations')), action } : conditionsOf(interaction)),
    ...characterOf(sheet, dice.from),
  };
  validatePoolInput(input);
  const seed = context.newSeed();
  const result = resolvePoolRoll(input, seededRng(seed));
  const rollId = await recordPool(context, 'd10', input, seed, result, npcFact(interaction, sheet));
  await answerAsNpc(interaction, context, asNpcRoller(interaction, sheet), poolReply(result, basicRollName(input), rollerName(input, interaction.user.displayName), rollId));
}

async function advanced(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await rollingSheet(interaction, context);
  const primary = numberFrom(interaction, 'primary', sheet, 'the primary skill', 'a number of dice');
  const secondary = numberFrom(interaction, 'secondary', sheet, 'the secondary skill', 'a level');
  const input: AdvancedInput = {
    dice: primary.value,
    secondary: secondary.value,
    mode: interaction.options.getString('mode', true) as AdvancedInput['mode'],
    halve: interaction.options.getBoolean('halve') ?? false,
    targetNumber: interaction.options.getInteger('tn'),
    modifier: interaction.options.getInteger('modifier') ?? 0,
    calm: interaction.options.getBoolean('calm') ?? false,
    ...conditionsOf(interaction),
    ...characterOf(sheet, primary.from),
    ...(secondary.from ? { secondaryFrom: secondary.from } : {}),
  };
  validateAdvancedInput(input);
  const seed = context.newSeed();
  const result = resolveAdvancedRoll(input, seededRng(seed));
  const rollId = await recordPool(context, 'd10-advanced', input, seed, result, npcFact(interaction, sheet));
  await answerAsNpc(interaction, context, asNpcRoller(interaction, sheet), poolReply(result, advancedRollName(input), rollerName(input, interaction.user.displayName), rollId));
}

/** Stores one step of a cumulative roll under `rollId`; false when that step is stored already. */
async function recordStep(context: HandlerContext, rollId: string, seed: string, result: CumulativeStepResult, npc: { npc?: string }): Promise<boolean> {
  return context.store.rolls.recordOnce(rollId, {
    ...rolledBy(context),
    ...npc,
    kind: CUMULATIVE_KIND,
    system: D10_POOL_SYSTEM,
    inputs: result.input,
    seed,
    dice: poolDice(result.roll),
    result,
    total: result.after.total,
    challengeLevel: result.input.targetNumber,
    success: result.end === null ? null : result.end === 'target reached' || result.end === 'count reached',
  });
}

/** Step k's roll id: step 1's is random, each later one derived from it, so "was step k made?" is a look-up. */
export function stepRollId(cumulativeId: string, step: number): string {
  return step === 1 ? cumulativeId : derivedRollId(cumulativeId, `step:${step}`);
}

async function extended(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await rollingSheet(interaction, context);
  const dice = numberFrom(interaction, 'dice', sheet, 'dice', 'a number of dice');
  const settings: CumulativeSettings = {
    dice: dice.value,
    targetNumber: interaction.options.getInteger('tn'),
    modifier: interaction.options.getInteger('modifier') ?? 0,
    calm: interaction.options.getBoolean('calm') ?? false,
    situations: parseSituations(interaction.options.getString('situations')),
    target: interaction.options.getInteger('target'),
    count: interaction.options.getInteger('count'),
    maxRolls: interaction.options.getInteger('rolls') ?? CUMULATIVE_ROLLS_DEFAULT,
    ...characterOf(sheet, dice.from),
  };
  validateCumulativeSettings(settings);
  const seed = context.newSeed();
  // Step 1 carries its own roll id in its inputs (every step does), so it is stored under an id chosen first.
  for (let attempt = 0; attempt < 4; attempt++) {
    const cumulativeId = context.store.rolls.newId();
    const result = resolveCumulativeStep({ ...settings, cumulativeId, step: 1, before: { total: 0, successes: 0 } }, seededRng(seed));
    if (await recordStep(context, cumulativeId, seed, result, npcFact(interaction, sheet))) {
      await context.answer.reply(cumulativeMessage([{ rollId: cumulativeId, result }], interaction.user.displayName));
      return;
    }
  }
  throw new Error('could not find a free roll id for a cumulative roll');
}

/** Steps 1, 2, … of a cumulative roll as stored, up to the first one not made yet. */
async function storedSteps(context: HandlerContext, first: StoredRoll): Promise<StoredStep[]> {
  const steps: StoredStep[] = [{ rollId: first.id, result: first.result as CumulativeStepResult }];
  const maxRolls = steps[0]!.result.input.maxRolls;
  for (let step = 2; step <= maxRolls; step++) {
    const rollId = stepRollId(first.id, step);
    const stored = await context.store.rolls.find(context.guildId, rollId);
    if (!stored) break;
    steps.push({ rollId, result: stored.result as CumulativeStepResult });
  }
  return steps;
}

/** `d10:again:<cumulative id>:<step>`: only the roller may press; each step is rolled once, even across restarts. */
async function rollAgain(interaction: ButtonInteraction, context: HandlerContext, { cumulativeId, step }: RollAgainPress): Promise<void> {
  const first = await context.store.rolls.find(context.guildId, cumulativeId);
  if (!first || first.kind !== CUMULATIVE_KIND || step < 2) {
    throw new UserError('That cumulative roll is not stored on this server, so it cannot go on.');
  }
  if (first.userId !== context.userId) {
    await context.answer.reply(privateNote(`Only <@${first.userId}>, who started this cumulative roll, can roll again. Nothing was rolled.`));
    return;
  }
  const steps = await storedSteps(context, first);
  const previous = steps[steps.length - 1]!;
  // A step stored whose answer was lost leaves the message a step behind: the press brings it up to date.
  const fromStore = async (note: string) => answerFromStore(interaction, context, cumulativeMessage(await storedSteps(context, first), interaction.user.displayName), note);
  if (steps.length >= step) return fromStore(`Roll ${step} of this cumulative roll was already made (\`${stepRollId(cumulativeId, step)}\`). Nothing was rolled.`);
  if (steps.length !== step - 1 || previous.result.end !== null) {
    return fromStore(`This button is out of date: the cumulative roll ${previous.result.end ? `is over (${previous.result.end})` : `is at roll ${steps.length}`}. Nothing was rolled.`);
  }
  const seed = context.newSeed();
  const result = resolveCumulativeStep(nextStepInput(previous.result), seededRng(seed));
  const rollId = stepRollId(cumulativeId, step);
  if (!(await recordStep(context, rollId, seed, result, first.npc ? { npc: first.npc } : {}))) {
    // Another press (or another process) made this step between our look-up and our write.
    return fromStore(`Roll ${step} of this cumulative roll was already made (\`${rollId}\`). Nothing was rolled.`);
  }
  await context.answer.update(cumulativeMessage([...steps, { rollId, result }], interaction.user.displayName));
}

async function component(interaction: ComponentInteraction, press: RollAgainPress, context: HandlerContext): Promise<void> {
  if (!interaction.isButton()) throw new UserError('This button is not one the bot made.');
  return rollAgain(interaction, context, press);
}

/**
 * `dice`, `primary` and `secondary`: a number typed is offered as itself; otherwise the skills and attributes of the
 * rolling sheet (the active one, or the NPC a Dispatcher names in `as_npc`) with their numbers; without a sheet, how
 * to make one. `as_npc`: the server's NPCs, for a Dispatcher.
 */
async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const typed = String(focused.value);
  if (focused.name === 'as_npc') return interaction.respond(await npcNameChoices(context, typed));
  const level = focused.name === 'secondary';
  const amount = (value: number) => (level ? `level ${value}` : `${value} ${Math.abs(value) === 1 ? 'die' : 'dice'}`);
  const parsed = numberOrName(typed);
  if ('value' in parsed) return interaction.respond([{ name: amount(parsed.value), value: typed.trim() }]);
  const npc = interaction.options.getString('as_npc');
  const sheet = npc
    ? (await context.isDispatcher()) ? await npcNamed(context, npc, D10_POOL_SYSTEM) : null
    : await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, D10_POOL_SYSTEM);
  if (!sheet) return interaction.respond(npc ? [] : noSheetChoice(D10_POOL_SYSTEM));
  // A skill and an attribute of the same name: the skill is what the roll reads, so only it is offered.
  const entries = poolEntries(sheet).filter((entry, index, all) => all.findIndex((other) => nameKey(other.name) === nameKey(entry.name)) === index);
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  return interaction.respond(nameChoices([...byName.keys()], typed, (name) => `${name} (${byName.get(name)!.kind}, ${amount(byName.get(name)!.value)})`));
}

export const d10Command = defineCommand<RollAgainPress>({
  name: 'd10',
  description: 'd10 pools: the highest die, +1 for each die that matches it',
  systems: ['d10-pool'],
  subcommands: [
    {
      name: 'roll',
      build: (sub) =>
        poolOptions(
          sub
            .setDescription('A skill roll: N d10 against a target number')
            .addStringOption((o) => numberOrNameOption(o, 'dice', DICE_HELP))
            .addIntegerOption((o) => o.setName('tn').setDescription('The target number').setRequired(true).setMinValue(TARGET_NUMBER_MIN).setMaxValue(TARGET_NUMBER_MAX)),
          { aim: true },
        ),
      run: basic,
      again: true,
      help: { audience: 'player', example: '/d10 roll dice:5 tn:7' },
    },
    {
      name: 'fastdraw',
      build: (sub) =>
        poolOptions(
          sub
            .setDescription('Fastdraw: success draws the weapon as a free action; failure loses this phase’s action')
            .addStringOption((o) => numberOrNameOption(o, 'dice', 'How many d10, or your Fastdraw skill by name'))
            .addIntegerOption((o) => o.setName('tn').setDescription('The target number').setRequired(true).setMinValue(TARGET_NUMBER_MIN).setMaxValue(TARGET_NUMBER_MAX)),
          { aim: false },
        ),
      run: (interaction, context) => basic(interaction, context, 'fastdraw'),
      again: true,
      help: { audience: 'player', example: '/d10 fastdraw dice:4 tn:7' },
    },
    {
      name: 'advanced',
      build: (sub) =>
        poolOptions(
          sub
            .setDescription('An advanced roll: the primary pool, the secondary skill level added or subtracted')
            .addStringOption((o) => numberOrNameOption(o, 'primary', 'The primary skill: how many d10, or its name on your sheet'))
            .addStringOption((o) => numberOrNameOption(o, 'secondary', 'The secondary skill: its level, or its name on your sheet'))
            .addStringOption((o) =>
              o
                .setName('mode')
                .setDescription('Add or subtract the secondary level')
                .setRequired(true)
                .addChoices({ name: 'additive', value: 'additive' }, { name: 'subtractive', value: 'subtractive' }),
            )
            .addIntegerOption((o) => o.setName('tn').setDescription('The target number (leave out when the result is itself a TN, e.g. for allies)').setMinValue(TARGET_NUMBER_MIN).setMaxValue(TARGET_NUMBER_MAX))
            .addBooleanOption((o) => o.setName('halve').setDescription('Additive: halve the secondary level (rounded down) first')),
          { aim: true },
        ),
      run: advanced,
      again: true,
      help: { audience: 'player', example: '/d10 advanced primary:5 secondary:2 mode:additive tn:7' },
    },
    {
      name: 'extended',
      build: (sub) =>
        sub
          .setDescription('A cumulative roll: roll again and again toward a total or a count of successes')
          .addStringOption((o) => numberOrNameOption(o, 'dice', 'How many d10 each roll, or a skill or attribute of your sheet'))
          .addIntegerOption((o) => o.setName('tn').setDescription("Each roll's target number (needed to count successes)").setMinValue(TARGET_NUMBER_MIN).setMaxValue(TARGET_NUMBER_MAX))
          .addIntegerOption((o) => o.setName('target').setDescription('The total the results must add up to').setMinValue(1))
          .addIntegerOption((o) => o.setName('count').setDescription('The successes needed (a solid success counts as two)').setMinValue(1))
          .addIntegerOption((o) => o.setName('rolls').setDescription(`The most rolls allowed (default ${CUMULATIVE_ROLLS_DEFAULT})`).setMinValue(1).setMaxValue(CUMULATIVE_ROLLS_MAX))
          .addIntegerOption((o) => o.setName('modifier').setDescription('Added to each result, e.g. -2').setMinValue(-POOL_MODIFIER_LIMIT).setMaxValue(POOL_MODIFIER_LIMIT))
          .addBooleanOption((o) => o.setName('calm').setDescription('Not a stressful situation: no automatic failure or botch on 1s'))
          .addStringOption((o) => o.setName('situations').setDescription('Situations that each take one die from every roll, comma-separated').setMaxLength(SITUATIONS_TEXT_MAX))
          .addStringOption(asNpc),
      run: extended,
      help: { audience: 'player', example: '/d10 extended dice:4 tn:7 target:20' },
    },
  ],
  autocomplete,
  ids: d10Ids,
  component,
});
