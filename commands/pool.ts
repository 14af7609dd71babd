/** /pool: d6 pools with successes, banes and pushing (RULES 4, seed 003), rolled from the active sheet. */
import type { AutocompleteInteraction, ButtonInteraction, ChatInputCommandInteraction, StringSelectMenuInteraction } from 'discord.js';
import { defineCommand, rolledBy, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { answerFromStore, pressedOnStored } from '../src/discord/stored-message.js';
import { UserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { seededRng } from '../src/engine/rng.js';
import { conditionModifiers, findAttribute, type OperatorSheet } from '../src/engine/sheet.js';
import {
  BROKEN,
  CONDITION_MODIFIER,
  D6_SKILLS,
  DIFFICULTIES,
  GEAR_MAX,
  HELPERS_MAX,
  MODIFIER_LIMIT,
  OPPOSED_SKILL,
  STAKES_MAX,
  STEALTH_FACTORS,
  TIE_BREAKS_MAX,
  checkedStakes,
  d6Faces,
  difficultyModifier,
  findD6Skill,
  helpModifier,
  opposedStanding,
  pushCosts,
  resolveD6Pool,
  resolvePush,
  resolveTieBreak,
  stealthModifiers,
  tieBreakFaces,
  type Attribute,
  type D6PoolInput,
  type OpposedBy,
  type D6PoolResult,
  type PoolConditionRecord,
  type PoolModifier,
  type PushResult,
  type TieBreakResult,
} from '../src/engine/systems/d6-pool/pool.js';
import { isConditionActive } from '../src/engine/sheet.js';
import { derivedRollId, type StoredRoll } from '../src/store/rolls.js';
import { nameChoices, noSheetChoice } from '../src/views/autocomplete.js';
import { DISCORD_LIMITS, truncate } from '../src/views/limits.js';
import { emptyPoolReply, poolIds, poolMessage, type PoolMessageState, type PoolPress } from '../src/views/d6-pool.js';
import type { SystemId } from '../src/engine/systems/index.js';
import { privateNote } from '../src/views/messages.js';

export const D6_POOL_SYSTEM: SystemId = 'd6-pool';

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
async function opposition(interaction: ChatInputCommandInteraction, context: HandlerContext, skillName: string): Promise<OpposedBy | undefined> {
  const user = interaction.options.getUser('against');
  // Stealth and Persuasion name the skill that opposes them; any other skill needs it said.
  const typed = interaction.options.getString('their_skill') ?? (user ? (OPPOSED_SKILL[skillName] ?? null) : null);
  if (!user && typed === null) return undefined;
  if (!user || typed === null) throw new UserError('An opposed roll needs both `against` (who resists) and `their_skill` (what they resist with).');
  if (user.bot) throw new UserError('A bot cannot oppose a roll: pick a member.');
  if (user.id === context.userId) throw new UserError('You cannot oppose your own roll: pick another member.');
  const skill = skillNamed(typed);
  // Checked now so the roll is not made against someone who cannot answer; their sheet is read again when they roll.
  await context.store.operators.requireActive({ guildId: context.guildId, ownerId: user.id }, D6_POOL_SYSTEM, { someoneElse: `<@${user.id}>` });
  return { userId: user.id, skill: skill.name, attribute: skill.attribute };
}

async function rollPool(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  // The sheet first: a player without one is told how to make one, whatever skill they typed.
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, D6_POOL_SYSTEM);
  const skill = skillNamed(interaction.options.getString('skill', true));
  const { conditions, ...fromSheet } = sheetPool(sheet, skill, context.now());
  const opposed = await opposition(interaction, context, skill.name);
  const stakes = checkedStakes(skill.name, interaction.options.getString('stakes'));
  const modifiers: PoolModifier[] = [];
  const difficulty = interaction.options.getString('difficulty');
  if (difficulty !== null) modifiers.push(difficultyModifier(difficulty));
  const help = interaction.options.getInteger('help') ?? 0;
  if (help > 0) modifiers.push(helpModifier(help));
  const modifier = interaction.options.getInteger('modifier') ?? 0;
  if (modifier !== 0) modifiers.push({ name: 'modifier', value: modifier });
  modifiers.push(...stealthModifiers(skill.name, interaction.options.getString('factors') ?? ''));
  modifiers.push(...conditions);
  const input: D6PoolInput = { ...fromSheet, gear: interaction.options.getInteger('gear') ?? 0, modifiers, ...(opposed ? { opposed } : {}), ...(stakes ? { stakes } : {}) };
  const seed = context.newSeed();
  const result = resolveD6Pool(input, seededRng(seed));
  if (result.empty) {
    await context.answer.reply(emptyPoolReply(result));
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
  const message = poolMessage({ who: interaction.user.displayName, roll: { rollId, result }, pushCosts: costsOf(sheet, context.now()) });
  // The opponent is pinged once, on this message; nothing else pings (updates are edits with no mentions).
  await context.answer.reply(opposed ? { ...message, allowedMentions: { parse: [], users: [opposed.userId] } } : message);
}

export const pushRollId = (rollId: string) => derivedRollId(rollId, 'push');
export const conditionRollId = (rollId: string) => derivedRollId(rollId, 'condition');
export const opposedRollId = (rollId: string) => derivedRollId(rollId, 'opposed');
export const tieBreakRollId = (rollId: string, round: number) => derivedRollId(rollId, `tiebreak-${round}`);

/** The conditions a push can still cost this sheet now (its active conditions by name). */
function costsOf(sheet: OperatorSheet, now: Date): string[] {
  return pushCosts(sheet.conditions.filter((condition) => isConditionActive(condition, now)).map((condition) => condition.name));
}

/**
 * The roll, its push and condition, the opponent's roll and the tie-breaks as the roll log holds them, and what a
 * push could still cost the rolled sheet: the message is rebuilt from these alone.
 */
async function storedState(context: HandlerContext, roll: StoredRoll, who: string): Promise<PoolMessageState> {
  const result = roll.result as D6PoolResult;
  const state: PoolMessageState = { who, roll: { rollId: roll.id, result } };
  const sheet = result.input.sheet ? await context.store.operators.get(context.guildId, result.input.sheet.id) : null;
  if (sheet) state.pushCosts = costsOf(sheet, context.now());
  const push = await context.store.rolls.find(context.guildId, pushRollId(roll.id));
  if (push) state.push = { rollId: push.id, result: push.result as PushResult };
  const condition = await context.store.rolls.find(context.guildId, conditionRollId(roll.id));
  if (condition) state.condition = (condition.result as PoolConditionRecord).condition;
  const opposed = await context.store.rolls.find(context.guildId, opposedRollId(roll.id));
  if (opposed) {
    state.opposed = { rollId: opposed.id, result: opposed.result as D6PoolResult };
    state.tieBreaks = [];
    for (let round = 1; round <= TIE_BREAKS_MAX; round++) {
      const tieBreak = await context.store.rolls.find(context.guildId, tieBreakRollId(roll.id, round));
      if (!tieBreak) break;
      state.tieBreaks.push({ rollId: tieBreak.id, result: tieBreak.result as TieBreakResult });
    }
  }
  return state;
}

/** The pool roll a component names, checked: on this server, and pressed by its roller (else told privately). */
async function rollFor(interaction: ButtonInteraction | StringSelectMenuInteraction, context: HandlerContext, rollId: string, action: string): Promise<StoredRoll | null> {
  const roll = await context.store.rolls.find(context.guildId, rollId);
  if (!roll || roll.kind !== 'pool') throw new UserError('That pool roll is not stored on this server.');
  if (roll.userId !== context.userId) {
    await context.answer.reply(privateNote(`Only <@${roll.userId}>, who rolled, can ${action}. Nothing was changed.`));
    return null;
  }
  return roll;
}

/** A press whose change was made already: the message as the roll log has it now (src/discord/stored-message.ts). */
async function showStored(interaction: ComponentInteraction, context: HandlerContext, roll: StoredRoll, who: string, note: string): Promise<void> {
  await answerFromStore(interaction, context, poolMessage(await storedState(context, roll, who)), note);
}

/** The rolls a push costs, as the roll log stores them: the push's dice and the condition it cost. */
function conditionEntry(context: HandlerContext, rollId: string, record: PoolConditionRecord) {
  return context.store.rolls.entry(conditionRollId(rollId), {
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
}

/**
 * The sheet a push's condition goes to, and the condition picked, checked against what the sheet suffers now: one
 * it does not have yet; Broken only once it has every other one.
 */
async function payingSheet(context: HandlerContext, original: D6PoolResult, picked: string | undefined): Promise<{ sheet: OperatorSheet; condition: string }> {
  if (!original.input.sheet) throw new UserError('This roll was made without a sheet, so there is no sheet to suffer the condition a push costs: it cannot be pushed.');
  const sheet = await context.store.operators.get(context.guildId, original.input.sheet.id);
  if (!sheet) throw new UserError(`The sheet ${original.input.sheet.name} no longer exists, so it cannot suffer the condition a push costs. Nothing was rolled.`);
  const costs = costsOf(sheet, context.now());
  const condition = costs.find((name) => name === picked);
  if (condition) return { sheet, condition };
  if (costs.length === 0) throw new UserError(`${sheet.name} is ${BROKEN} and suffers every condition a push can cost: nothing is left to pay for a push. Remove one first (\`/sheet condition remove\`). Nothing was rolled.`);
  throw new UserError(`${sheet.name} cannot suffer **${String(picked).slice(0, 40)}** for this push (${picked === BROKEN ? 'Broken comes only once every other condition is taken' : 'a condition already suffered is no new cost'}): pick one of ${costs.join(', ')}. Nothing was rolled.`);
}

/**
 * `pool:push:<roll id>` (a select): the choice is the condition the push costs, and choosing pushes. The push's
 * dice, the condition's record and the condition on the sheet are written in one transaction under ids derived from
 * the roll: all or nothing, once (a second choice, here or in another process, finds the ids taken).
 */
async function push(interaction: StringSelectMenuInteraction, context: HandlerContext, rollId: string): Promise<void> {
  const roll = await rollFor(interaction, context, rollId, 'push this roll');
  if (!roll) return;
  const id = pushRollId(rollId);
  const fromStore = (note: string) => showStored(interaction, context, roll, interaction.user.displayName, note);
  const already = () => fromStore(`This roll was already pushed (\`${id}\`): a roll is pushed only once. Nothing was rolled.`);
  const tieBroken = () => fromStore('The tie of this opposed roll was re-rolled, and the re-roll decides it: the first roll can no longer be pushed. Nothing was rolled.');
  if (await context.store.rolls.find(context.guildId, id)) return void (await already());
  if (await context.store.rolls.find(context.guildId, tieBreakRollId(rollId, 1))) return void (await tieBroken());
  const original = roll.result as D6PoolResult;
  const { sheet, condition } = await payingSheet(context, original, interaction.values[0]);
  const seed = context.newSeed();
  const result = resolvePush({ rollId, attribute: original.input.attribute, dice: original.dice }, seededRng(seed));
  const pushEntry = context.store.rolls.entry(id, {
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
  const record: PoolConditionRecord = { rollId, sheet: { id: sheet.id, name: sheet.name }, condition };
  const paid = await context.store.operators.setCondition(sheet, { name: condition, modifier: CONDITION_MODIFIER, skills: null, expiresAt: null }, context.now(), {
    rolls: [pushEntry, conditionEntry(context, rollId, record)],
    onlyNew: true,
    // A Dispatcher's re-roll of the tie, pressed at the same moment, makes the push void: one of the two lands.
    unless: [tieBreakRollId(rollId, 1)],
  });
  // Another choice (or another process) pushed between our look-up and our write.
  if (paid === 'already made') return void (await already());
  if (paid === 'voided') return void (await tieBroken());
  if (paid === 'already there') throw new UserError(`${sheet.name} already suffers ${condition}, which is no new cost: pick another condition. Nothing was rolled.`);
  await context.answer.update(poolMessage(await storedState(context, roll, interaction.user.displayName)));
}

/**
 * A Push *button* (messages made before a push took its condition at once): it no longer pushes; it shows the
 * message as it is now, whose Push is the select of the condition.
 */
async function pushButton(interaction: ButtonInteraction, context: HandlerContext, rollId: string): Promise<void> {
  const roll = await rollFor(interaction, context, rollId, 'push this roll');
  if (!roll) return;
  await context.answer.update(poolMessage(await storedState(context, roll, interaction.user.displayName)));
}

/**
 * `pool:condition:<roll id>`: the condition of a push stored before the push took its condition at once, picked
 * once; its record and the condition on the sheet are written together.
 */
async function pickCondition(interaction: StringSelectMenuInteraction, context: HandlerContext, rollId: string): Promise<void> {
  const roll = await rollFor(interaction, context, rollId, 'pick the condition for this push');
  if (!roll) return;
  const original = roll.result as D6PoolResult;
  if (!(await context.store.rolls.find(context.guildId, pushRollId(rollId)))) throw new UserError('This roll was not pushed, so it costs no condition.');
  const { sheet, condition } = await payingSheet(context, original, interaction.values[0]);
  const record: PoolConditionRecord = { rollId, sheet: { id: sheet.id, name: sheet.name }, condition };
  const paid = await context.store.operators.setCondition(sheet, { name: condition, modifier: CONDITION_MODIFIER, skills: null, expiresAt: null }, context.now(), {
    rolls: [conditionEntry(context, rollId, record)],
    onlyNew: true,
  });
  if (paid === 'already made') return void (await showStored(interaction, context, roll, interaction.user.displayName, 'The condition for this push was already picked. Nothing was changed.'));
  if (paid === 'already there') throw new UserError(`${sheet.name} already suffers ${condition}, which is no new cost: pick another condition.`);
  await context.answer.update(poolMessage(await storedState(context, roll, interaction.user.displayName)));
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
    await context.answer.reply(privateNote(`Only <@${by.userId}>, who opposes this roll, can roll against it. Nothing was rolled.`));
    return;
  }
  const id = opposedRollId(rollId);
  const already = () => showStored(interaction, context, roll, `<@${roll.userId}>`, `You already rolled against this roll (\`${id}\`): once only. Nothing was rolled.`);
  if (await context.store.rolls.find(context.guildId, id)) return void (await already());
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, D6_POOL_SYSTEM);
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
  await context.answer.update(poolMessage(await storedState(context, roll, `<@${roll.userId}>`)));
}

/**
 * `pool:tiebreak:<roll id>:<round>`: a Dispatcher decides the tie needs breaking (seed 003: "if a tie needs to be
 * broken, re-roll the opposed roll"); both pools are rolled again from their first inputs, stored as one roll under
 * an id derived from the roll and the round, so each round is rolled once. A tie again may be re-rolled again, up
 * to TIE_BREAKS_MAX; the last re-roll decides.
 */
async function breakTie(interaction: ButtonInteraction, context: HandlerContext, rollId: string, round: number): Promise<void> {
  const roll = await context.store.rolls.find(context.guildId, rollId);
  const original = roll?.result as D6PoolResult | undefined;
  if (!roll || roll.kind !== 'pool' || !original?.input.opposed) throw new UserError('That opposed roll is not stored on this server.');
  await context.requireDispatcher('break the tie of an opposed roll', 'Typically a tie simply fails for the active party; the Dispatcher decides when one needs breaking.');
  const state = await storedState(context, roll, `<@${roll.userId}>`);
  if (!state.opposed) throw new UserError('The opponent has not rolled yet: there is no tie to break.');
  const done = state.tieBreaks?.length ?? 0;
  const id = tieBreakRollId(rollId, round);
  const fromStore = (note: string) => showStored(interaction, context, roll, `<@${roll.userId}>`, note);
  const already = () => fromStore(`Re-roll ${round} of this tie was already made (\`${id}\`). Nothing was rolled.`);
  if (round <= done) return void (await already());
  // A push made after the Dispatcher looked changes the standing they decided on: they look again first.
  if (!pressedOnStored(interaction, poolMessage(state))) return void (await fromStore('This roll changed since you looked at it (it was pushed): look at it again before re-rolling a tie. Nothing was rolled.'));
  const standing = opposedStanding(original, state.push?.result, state.opposed.result, (state.tieBreaks ?? []).map((entry) => entry.result));
  if (!standing.tie || round !== done + 1 || round > TIE_BREAKS_MAX) throw new UserError('This opposed roll is not tied (any more): there is nothing to re-roll. Nothing was rolled.');
  const seed = context.newSeed();
  const result = resolveTieBreak({ rollId, round, active: original.input, opponent: state.opposed.result.input }, seededRng(seed));
  // Decided without a push: a push pressed at the same moment makes this re-roll void (one of the two lands).
  const stored = await context.store.rolls.recordOnceUnless(id, {
    ...rolledBy(context),
    kind: 'pool-tiebreak',
    system: D6_POOL_SYSTEM,
    inputs: result.input,
    seed,
    dice: tieBreakFaces(result),
    result,
    total: result.outcome.left,
    challengeLevel: null,
    success: result.outcome.win,
  }, state.push ? [] : [pushRollId(rollId)]);
  if (stored === 'already made') return void (await already());
  if (stored === 'voided') return void (await fromStore('This roll changed since you looked at it (it was pushed): look at it again before re-rolling a tie. Nothing was rolled.'));
  await context.answer.update(poolMessage(await storedState(context, roll, `<@${roll.userId}>`)));
}

async function component(interaction: ComponentInteraction, press: PoolPress, context: HandlerContext): Promise<void> {
  const { action, rollId } = press;
  if (action === 'push' && interaction.isStringSelectMenu()) return push(interaction, context, rollId);
  if (action === 'push' && interaction.isButton()) return pushButton(interaction, context, rollId);
  if (action === 'oppose' && interaction.isButton()) return oppose(interaction, context, rollId);
  if (action === 'condition' && interaction.isStringSelectMenu()) return pickCondition(interaction, context, rollId);
  if (action === 'tiebreak' && interaction.isButton()) return breakTie(interaction, context, rollId, press.round);
  throw new UserError('This button is not one the bot made.');
}

/** `factors` is a comma-separated list: the last item is completed, the ones before it kept. */
async function factorChoices(interaction: AutocompleteInteraction, typed: string): Promise<void> {
  const parts = typed.split(',');
  const last = parts.pop()!.trim();
  const before = parts.map((part) => part.trim()).filter((part) => part.length > 0);
  const taken = new Set(before.map(nameKey));
  const prefix = before.length > 0 ? `${before.join(', ')}, ` : '';
  const choices = STEALTH_FACTORS.filter((factor) => !taken.has(nameKey(factor.name)) && nameKey(factor.name).startsWith(nameKey(last)))
    .map((factor) => ({ value: `${prefix}${factor.name}`, name: `${prefix}${factor.name} (${factor.value > 0 ? '+' : '−'}1: ${factor.text})` }))
    .filter((choice) => choice.value.length <= DISCORD_LIMITS.choiceValue)
    .map((choice) => ({ ...choice, name: truncate(choice.name, DISCORD_LIMITS.choiceName) }));
  await interaction.respond(choices.slice(0, DISCORD_LIMITS.autocompleteChoices));
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const typed = String(focused.value);
  if (focused.name === 'factors') return factorChoices(interaction, typed);
  if (focused.name === 'skill' && !(await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, D6_POOL_SYSTEM))) {
    return interaction.respond(noSheetChoice(D6_POOL_SYSTEM));
  }
  const attributeOf = new Map(D6_SKILLS.map((skill) => [skill.name, skill.attribute]));
  await interaction.respond(nameChoices(D6_SKILLS.map((skill) => skill.name), typed, (name) => `${name} (${attributeOf.get(name)})`));
}

export const poolCommand = defineCommand<PoolPress>({
  name: 'pool',
  description: 'd6 pool: skill + attribute + gear dice from your sheet; each 6 a success, each 1 a bane',
  systems: ['d6-pool'],
  build: (command) =>
    command
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
      .addStringOption((o) => o.setName('their_skill').setDescription('Opposed: the skill they resist with (Stealth: Observation, Persuasion: Insight)').setAutocomplete(true))
      .addStringOption((o) => o.setName('stakes').setDescription('What you want to achieve (Persuasion must state it before the roll)').setMaxLength(STAKES_MAX))
      .addStringOption((o) => o.setName('factors').setDescription('Stealth: dark, crowded, distracted, blend in (+1 each); stand out, no cover (−1)').setAutocomplete(true)),
  run: rollPool,
  again: true,
  help: { audience: 'player', example: '/pool skill:Stealth gear:1 difficulty:Hard' },
  autocomplete,
  ids: poolIds,
  component,
});
