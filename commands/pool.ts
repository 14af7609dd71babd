/** /pool: d6 pools with successes, banes and pushing (RULES 4, seed 003), rolled from the active sheet. */
import {
  InteractionContextType,
  SlashCommandBuilder,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { BotCommand, ComponentInteraction, HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { seededRng } from '../src/engine/rng.js';
import { conditionModifiers, findAttribute } from '../src/engine/sheet.js';
import {
  CONDITION_MODIFIER,
  D6_SKILLS,
  DIFFICULTIES,
  GEAR_MAX,
  HELPERS_MAX,
  MODIFIER_LIMIT,
  PUSH_CONDITIONS,
  d6Faces,
  difficultyModifier,
  findD6Skill,
  helpModifier,
  resolveD6Pool,
  resolvePush,
  type D6PoolInput,
  type D6PoolResult,
  type PoolConditionRecord,
  type PoolModifier,
  type PushResult,
} from '../src/engine/systems/d6-pool/pool.js';
import { recordRollOnce } from '../src/store/roll-steps.js';
import { derivedRollId, type StoredRoll } from '../src/store/rolls.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { emptyPoolReply, poolMessage, type PoolMessageState } from '../src/views/d6-pool.js';
import { privateNote } from '../src/views/messages.js';

export const D6_POOL_SYSTEM = 'd6-pool';

const data = new SlashCommandBuilder()
  .setName('pool')
  .setDescription('d6 pool: skill + attribute + gear dice from your sheet; each 6 a success, each 1 a bane')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('skill').setDescription('One of the thirteen skills').setRequired(true).setAutocomplete(true))
  .addIntegerOption((o) => o.setName('gear').setDescription('Gear dice').setMinValue(0).setMaxValue(GEAR_MAX))
  .addStringOption((o) =>
    o
      .setName('difficulty')
      .setDescription('Trivial +3 … Formidable −3')
      .addChoices(...DIFFICULTIES.map((entry) => ({ name: `${entry.name} (${entry.modifier > 0 ? '+' : ''}${entry.modifier})`, value: entry.name }))),
  )
  .addIntegerOption((o) => o.setName('modifier').setDescription('Any other modifier, e.g. -1 (a rule, a permutation)').setMinValue(-MODIFIER_LIMIT).setMaxValue(MODIFIER_LIMIT))
  .addIntegerOption((o) => o.setName('help').setDescription(`How many people help (+1 each, at most ${HELPERS_MAX})`).setMinValue(0).setMaxValue(HELPERS_MAX));

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const typed = interaction.options.getString('skill', true);
  const skill = findD6Skill(typed);
  if (!skill) throw new UserError(`**${typed.slice(0, 40)}** is not one of the thirteen skills: ${D6_SKILLS.map((entry) => entry.name).join(', ')}.`);
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId });
  let attributeValue: number;
  try {
    attributeValue = findAttribute(sheet, skill.attribute).value;
  } catch {
    throw new UserError(`${sheet.name} has no ${skill.attribute}, which ${skill.name} is rolled with. Set it with \`/sheet attribute set name:${skill.attribute} value:<n>\`.`);
  }
  // A skill missing from the sheet is unranked (level 0): the attribute alone is rolled (the seed).
  const skillLevel = sheet.skills.find((entry) => nameKey(entry.name) === nameKey(skill.name))?.level ?? 0;
  const modifiers: PoolModifier[] = [];
  const difficulty = interaction.options.getString('difficulty');
  if (difficulty !== null) modifiers.push(difficultyModifier(difficulty));
  const help = interaction.options.getInteger('help') ?? 0;
  if (help > 0) modifiers.push(helpModifier(help));
  const modifier = interaction.options.getInteger('modifier') ?? 0;
  if (modifier !== 0) modifiers.push({ name: 'modifier', value: modifier });
  for (const condition of conditionModifiers(sheet, skill.name, context.now())) modifiers.push({ name: `${condition.name} (condition)`, value: condition.value });
  const input: D6PoolInput = {
    skill: skill.name,
    attribute: skill.attribute,
    skillLevel,
    attributeValue,
    gear: interaction.options.getInteger('gear') ?? 0,
    modifiers,
    sheet: { id: sheet.id, name: sheet.name },
  };
  const seed = context.newSeed();
  const result = resolveD6Pool(input, seededRng(seed));
  if (result.empty) {
    await interaction.reply(emptyPoolReply(result));
    return;
  }
  const rollId = await context.store.rolls.record({
    guildId: context.guildId,
    channelId: context.channelId,
    userId: context.userId,
    kind: 'pool',
    system: D6_POOL_SYSTEM,
    inputs: input,
    seed,
    dice: d6Faces(result.dice),
    result,
    total: result.successes,
    challengeLevel: null,
    success: result.success,
  });
  await interaction.reply(poolMessage({ who: interaction.user.displayName, roll: { rollId, result } }));
}

export const pushRollId = (rollId: string) => derivedRollId(rollId, 'push');
export const conditionRollId = (rollId: string) => derivedRollId(rollId, 'condition');

/** The roll, its push and its condition as the roll log holds them: the message is rebuilt from these alone. */
async function storedState(context: HandlerContext, roll: StoredRoll, who: string): Promise<PoolMessageState> {
  const state: PoolMessageState = { who, roll: { rollId: roll.id, result: roll.result as D6PoolResult } };
  const push = await context.store.rolls.find(pushRollId(roll.id));
  if (push) state.push = { rollId: push.id, result: push.result as PushResult };
  const condition = await context.store.rolls.find(conditionRollId(roll.id));
  if (condition) state.condition = (condition.result as PoolConditionRecord).condition;
  return state;
}

/** The pool roll a component names, checked: on this server, and pressed by its roller (else told privately). */
async function rollFor(interaction: ButtonInteraction | StringSelectMenuInteraction, context: HandlerContext, rollId: string, action: string): Promise<StoredRoll | null> {
  const roll = await context.store.rolls.find(rollId);
  if (!roll || roll.kind !== 'pool' || roll.guildId !== context.guildId) throw new UserError('That pool roll is not stored on this server.');
  if (roll.userId !== context.userId) {
    await interaction.reply(privateNote(`Only <@${roll.userId}>, who rolled, can ${action}. Nothing was changed.`));
    return null;
  }
  return roll;
}

/** `pool:push:<roll id>`: once per roll, by the roller; the push is stored under an id derived from the roll. */
async function push(interaction: ButtonInteraction, context: HandlerContext, rollId: string): Promise<void> {
  const roll = await rollFor(interaction, context, rollId, 'push this roll');
  if (!roll) return;
  const id = pushRollId(rollId);
  const already = () => interaction.reply(privateNote(`This roll was already pushed (\`${id}\`): a roll is pushed only once. Nothing was rolled.`));
  if (await context.store.rolls.find(id)) return void (await already());
  const original = roll.result as D6PoolResult;
  const seed = context.newSeed();
  const result = resolvePush({ rollId, attribute: original.input.attribute, dice: original.dice }, seededRng(seed));
  const stored = await recordRollOnce(context.store.db, id, {
    guildId: context.guildId,
    channelId: context.channelId,
    userId: context.userId,
    kind: 'pool-push',
    system: D6_POOL_SYSTEM,
    inputs: result.input,
    seed,
    dice: d6Faces(result.dice),
    result,
    total: result.successes,
    challengeLevel: null,
    success: result.success,
  });
  // Another press (or another process) pushed between our look-up and our write.
  if (!stored) return void (await already());
  await interaction.update(poolMessage(await storedState(context, roll, interaction.user.displayName)));
}

/** `pool:condition:<roll id>`: the condition the push cost, picked once and stored on the sheet (−1 until removed). */
async function pickCondition(interaction: StringSelectMenuInteraction, context: HandlerContext, rollId: string): Promise<void> {
  const roll = await rollFor(interaction, context, rollId, 'pick the condition for this push');
  if (!roll) return;
  const condition = PUSH_CONDITIONS.find((name) => name === interaction.values[0]);
  if (!condition) throw new UserError('That is not a condition a push can cost.');
  const original = roll.result as D6PoolResult;
  if (!original.input.sheet || !(await context.store.rolls.find(pushRollId(rollId)))) throw new UserError('This roll was not pushed, so it costs no condition.');
  const sheet = await context.store.operators.get(original.input.sheet.id);
  if (!sheet) throw new UserError(`The sheet ${original.input.sheet.name} no longer exists, so the condition cannot be stored.`);
  const id = conditionRollId(rollId);
  const record: PoolConditionRecord = { rollId, sheet: { id: sheet.id, name: sheet.name }, condition };
  const stored = await recordRollOnce(context.store.db, id, {
    guildId: context.guildId,
    channelId: context.channelId,
    userId: context.userId,
    kind: 'pool-condition',
    system: D6_POOL_SYSTEM,
    inputs: record,
    seed: 'none',
    dice: [],
    result: record,
    total: null,
    challengeLevel: null,
    success: null,
  });
  if (!stored) {
    await interaction.reply(privateNote('The condition for this push was already picked. Nothing was changed.'));
    return;
  }
  await context.store.operators.setCondition(sheet.id, { name: condition, modifier: CONDITION_MODIFIER, skills: null, expiresAt: null }, context.now());
  await interaction.update(poolMessage(await storedState(context, roll, interaction.user.displayName)));
}

async function component(interaction: ComponentInteraction, context: HandlerContext): Promise<void> {
  const [, action, rollId, ...rest] = interaction.customId.split(':');
  if (rollId !== undefined && rest.length === 0) {
    if (action === 'push' && interaction.isButton()) return push(interaction, context, rollId);
    if (action === 'condition' && interaction.isStringSelectMenu()) return pickCondition(interaction, context, rollId);
  }
  throw new UserError('This button is not one the bot made.');
}

async function autocomplete(interaction: AutocompleteInteraction): Promise<void> {
  const typed = String(interaction.options.getFocused());
  const attributeOf = new Map(D6_SKILLS.map((skill) => [skill.name, skill.attribute]));
  await interaction.respond(nameChoices(D6_SKILLS.map((skill) => skill.name), typed, (name) => `${name} (${attributeOf.get(name)})`));
}

export const poolCommand: BotCommand = { data, execute, autocomplete, component };
