/** /pool: d6 pools with successes, banes and pushing (RULES 4, seed 003), rolled from the active sheet. */
import {
  InteractionContextType,
  SlashCommandBuilder,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import { rolledBy, type BotCommand, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { seededRng } from '../src/engine/rng.js';
import { conditionModifiers, findAttribute, type OperatorSheet } from '../src/engine/sheet.js';
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
  type Attribute,
  type D6PoolInput,
  type OpposedBy,
  type D6PoolResult,
  type PoolConditionRecord,
  type PoolModifier,
  type PushResult,
} from '../src/engine/systems/d6-pool/pool.js';
import { derivedRollId, type StoredRoll } from '../src/store/rolls.js';
import { nameChoices } from '../src/views/autocomplete.js';
import { emptyPoolReply, poolMessage, type PoolMessageState } from '../src/views/d6-pool.js';
import type { SystemId } from '../src/engine/systems/index.js';
import { privateNote } from '../src/views/messages.js';

export const D6_POOL_SYSTEM: SystemId = 'd6-pool';

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
  .addIntegerOption((o) => o.setName('help').setDescription(`How many people help (+1 each, at most ${HELPERS_MAX})`).setMinValue(0).setMaxValue(HELPERS_MAX))
  .addUserOption((o) => o.setName('against').setDescription('Opposed: the member who resists (rolls from their active sheet)'))
  .addStringOption((o) => o.setName('their_skill').setDescription('Opposed: the skill they resist with').setAutocomplete(true));

/** A skill the command names, or a refusal listing the thirteen. */
function skillNamed(typed: string): { name: string; attribute: Attribute } {
  const skill = findD6Skill(typed);
  if (!skill) throw new UserError(`**${typed.slice(0, 40)}** is not one of the thirteen skills: ${D6_SKILLS.map((entry) => entry.name).join(', ')}.`);
  return skill;
}

/** The pool input of `skill` from `sheet`: its skill level and attribute, and every condition on it. */
function sheetPool(sheet: OperatorSheet, skill: { name: string; attribute: Attribute }, now: Date): Omit<D6PoolInput, 'gear' | 'modifiers'> & { conditions: PoolModifier[] } {
  let attributeValue: number;
  try {
    attributeValue = findAttribute(sheet, skill.attribute).value;
  } catch {
    throw new UserError(`${sheet.name} has no ${skill.attribute}, which ${skill.name} is rolled with. Set it with \`/sheet attribute set name:${skill.attribute} value:<n>\`.`);
  }
  // A skill missing from the sheet is unranked (level 0): the attribute alone is rolled (the seed).
  const skillLevel = sheet.skills.find((entry) => nameKey(entry.name) === nameKey(skill.name))?.level ?? 0;
  const conditions = conditionModifiers(sheet, skill.name, now).map((condition) => ({ name: `${condition.name} (condition)`, value: condition.value }));
  return { skill: skill.name, attribute: skill.attribute, skillLevel, attributeValue, sheet: { id: sheet.id, name: sheet.name }, conditions };
}

/** `against` and `their_skill` together, checked: another member, not a bot, with an active sheet. */
async function opposition(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<OpposedBy | undefined> {
  const user = interaction.options.getUser('against');
  const typed = interaction.options.getString('their_skill');
  if (!user && typed === null) return undefined;
  if (!user || typed === null) throw new UserError('An opposed roll needs both `against` (who resists) and `their_skill` (what they resist with).');
  if (user.bot) throw new UserError('A bot cannot oppose a roll: pick a member.');
  if (user.id === context.userId) throw new UserError('You cannot oppose your own roll: pick another member.');
  const skill = skillNamed(typed);
  // Checked now so the roll is not made against someone who cannot answer; their sheet is read again when they roll.
  await context.store.operators.requireActive({ guildId: context.guildId, ownerId: user.id }, `<@${user.id}>`);
  return { userId: user.id, skill: skill.name, attribute: skill.attribute };
}

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const skill = skillNamed(interaction.options.getString('skill', true));
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId });
  const { conditions, ...fromSheet } = sheetPool(sheet, skill, context.now());
  const opposed = await opposition(interaction, context);
  const modifiers: PoolModifier[] = [];
  const difficulty = interaction.options.getString('difficulty');
  if (difficulty !== null) modifiers.push(difficultyModifier(difficulty));
  const help = interaction.options.getInteger('help') ?? 0;
  if (help > 0) modifiers.push(helpModifier(help));
  const modifier = interaction.options.getInteger('modifier') ?? 0;
  if (modifier !== 0) modifiers.push({ name: 'modifier', value: modifier });
  modifiers.push(...conditions);
  const input: D6PoolInput = { ...fromSheet, gear: interaction.options.getInteger('gear') ?? 0, modifiers, ...(opposed ? { opposed } : {}) };
  const seed = context.newSeed();
  const result = resolveD6Pool(input, seededRng(seed));
  if (result.empty) {
    await interaction.reply(emptyPoolReply(result));
    return;
  }
  const rollId = await context.store.rolls.record({
    ...rolledBy(context),
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
  const message = poolMessage({ who: interaction.user.displayName, roll: { rollId, result } });
  // The opponent is pinged once, on this message; nothing else pings (updates are edits with no mentions).
  await interaction.reply(opposed ? { ...message, allowedMentions: { parse: [], users: [opposed.userId] } } : message);
}

export const pushRollId = (rollId: string) => derivedRollId(rollId, 'push');
export const conditionRollId = (rollId: string) => derivedRollId(rollId, 'condition');
export const opposedRollId = (rollId: string) => derivedRollId(rollId, 'opposed');

/** The roll, its push and its condition as the roll log holds them: the message is rebuilt from these alone. */
async function storedState(context: HandlerContext, roll: StoredRoll, who: string): Promise<PoolMessageState> {
  const state: PoolMessageState = { who, roll: { rollId: roll.id, result: roll.result as D6PoolResult } };
  const push = await context.store.rolls.find(context.guildId, pushRollId(roll.id));
  if (push) state.push = { rollId: push.id, result: push.result as PushResult };
  const condition = await context.store.rolls.find(context.guildId, conditionRollId(roll.id));
  if (condition) state.condition = (condition.result as PoolConditionRecord).condition;
  const opposed = await context.store.rolls.find(context.guildId, opposedRollId(roll.id));
  if (opposed) state.opposed = { rollId: opposed.id, result: opposed.result as D6PoolResult };
  return state;
}

/** The pool roll a component names, checked: on this server, and pressed by its roller (else told privately). */
async function rollFor(interaction: ButtonInteraction | StringSelectMenuInteraction, context: HandlerContext, rollId: string, action: string): Promise<StoredRoll | null> {
  const roll = await context.store.rolls.find(context.guildId, rollId);
  if (!roll || roll.kind !== 'pool') throw new UserError('That pool roll is not stored on this server.');
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
  if (await context.store.rolls.find(context.guildId, id)) return void (await already());
  const original = roll.result as D6PoolResult;
  const seed = context.newSeed();
  const result = resolvePush({ rollId, attribute: original.input.attribute, dice: original.dice }, seededRng(seed));
  const stored = await context.store.rolls.recordOnce(id, {
    ...rolledBy(context),
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
  if (!original.input.sheet || !(await context.store.rolls.find(context.guildId, pushRollId(rollId)))) throw new UserError('This roll was not pushed, so it costs no condition.');
  const sheet = await context.store.operators.get(context.guildId, original.input.sheet.id);
  if (!sheet) throw new UserError(`The sheet ${original.input.sheet.name} no longer exists, so the condition cannot be stored.`);
  const id = conditionRollId(rollId);
  const record: PoolConditionRecord = { rollId, sheet: { id: sheet.id, name: sheet.name }, condition };
  const stored = await context.store.rolls.recordOnce(id, {
    ...rolledBy(context),
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
  await context.store.operators.setCondition(sheet, { name: condition, modifier: CONDITION_MODIFIER, skills: null, expiresAt: null }, context.now());
  await interaction.update(poolMessage(await storedState(context, roll, interaction.user.displayName)));
}

/**
 * `pool:oppose:<roll id>`: the opponent named on the roll rolls their skill from their active sheet (their skill
 * level, attribute and conditions), once; stored under an id derived from the roll, so a restart changes nothing.
 */
async function oppose(interaction: ButtonInteraction, context: HandlerContext, rollId: string): Promise<void> {
  const roll = await context.store.rolls.find(context.guildId, rollId);
  const original = roll?.result as D6PoolResult | undefined;
  const by = original?.input.opposed;
  if (!roll || roll.kind !== 'pool' || !original || !by) throw new UserError('That opposed roll is not stored on this server.');
  if (by.userId !== context.userId) {
    await interaction.reply(privateNote(`Only <@${by.userId}>, who opposes this roll, can roll against it. Nothing was rolled.`));
    return;
  }
  const id = opposedRollId(rollId);
  const already = () => interaction.reply(privateNote(`You already rolled against this roll (\`${id}\`): once only. Nothing was rolled.`));
  if (await context.store.rolls.find(context.guildId, id)) return void (await already());
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId });
  const { conditions, ...fromSheet } = sheetPool(sheet, { name: by.skill, attribute: by.attribute }, context.now());
  const input: D6PoolInput = { ...fromSheet, gear: 0, modifiers: conditions, against: rollId };
  const seed = context.newSeed();
  const result = resolveD6Pool(input, seededRng(seed));
  const stored = await context.store.rolls.recordOnce(id, {
    ...rolledBy(context),
    kind: 'pool-opposed',
    system: D6_POOL_SYSTEM,
    inputs: input,
    seed,
    dice: d6Faces(result.dice),
    result,
    total: result.successes,
    challengeLevel: null,
    success: result.success,
  });
  if (!stored) return void (await already());
  await interaction.update(poolMessage(await storedState(context, roll, `<@${roll.userId}>`)));
}

async function component(interaction: ComponentInteraction, context: HandlerContext): Promise<void> {
  const [, action, rollId, ...rest] = interaction.customId.split(':');
  if (rollId !== undefined && rest.length === 0) {
    if (action === 'push' && interaction.isButton()) return push(interaction, context, rollId);
    if (action === 'oppose' && interaction.isButton()) return oppose(interaction, context, rollId);
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
