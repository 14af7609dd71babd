/** /tactics: d100 roll-under checks, damage rolls, tactical attacks, Psi, social Will and hazard / reaction checks (RULES 2, seed 001). */
import type { AutocompleteInteraction, ButtonInteraction, ChatInputCommandInteraction, SlashCommandSubcommandBuilder } from 'discord.js';
import { defineCommand, rolledBy, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { answerFromStore } from '../src/discord/stored-message.js';
import { answerAsNpc, asNpcRoller } from '../src/discord/npc-voice.js';
import { UserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { seededRng } from '../src/engine/rng.js';
import { findAttribute, type OperatorSheet } from '../src/engine/sheet.js';
import {
  attackDice,
  checkDice,
  checkTarget,
  equipmentUsable,
  MODIFIER_LIMIT,
  PSI_DIFFICULTY_MAX,
  PSI_DIFFICULTY_MIN,
  resolveAttack,
  resolveCheck,
  resolvePsi,
  resolveReaction,
  resolveSocial,
  rollDamage,
  validateAttackInput,
  validateCheckInput,
  validateDamageInput,
  validatePsiInput,
  validateReactionInput,
  validateSocialInput,
  WEAPON_BASE_MAX,
  withUnproficientEquipment,
  type AttackInput,
  type AttackResult,
  type CheckInput,
  type Cover,
  type DamageInput,
  type PsiInput,
  type ReactionInput,
  type SocialInput,
} from '../src/engine/systems/d100-tactics/tactics.js';
import { MOBILITY_MAX, MOVE_ACTION_COSTS, OTHER_MOVE_ACTIONS_MAX, parsePath, resolveMove, TAKE_MAX, type MoveAction } from '../src/engine/systems/d100-tactics/movement.js';
import { derivedRollId } from '../src/store/rolls.js';
import { noSheetChoice } from '../src/views/autocomplete.js';
import { escapeMarkdown } from '../src/views/format.js';
import type { SystemId } from '../src/engine/systems/index.js';
import { privateNote } from '../src/views/messages.js';
import { appliedMessage, tacticsIds, type ApplyPress, attackReply, checkReply, damageReply, equipmentUnusableReply, moveReply, psiReply, reactionReply, socialReply } from '../src/views/tactics.js';
import { npcNameChoices } from './npc.js';
import { changeAttributeOnce } from './shared/roll-markers.js';
import { npcNamed, rollerSheet, targetSheet, type SheetNeed } from './shared/roll-sheets.js';

export const TACTICS_SYSTEM: SystemId = 'd100-tactics';
/** The roll log entry that marks an attack's damage as applied (stored once, under an id derived from the attack's). */
export const APPLIED_KIND = 'attack-applied';

/** /tactics reads d100 tactics sheets only. */
const TACTICS: SheetNeed = { system: 'd100-tactics' };

/** The seed's attributes that every character has at 0 when not listed; Health, Mobility and Armor are never checked. */
const CHECKABLE = ['Aim', 'Will', 'Tech', 'Psi', 'Defense', 'Dodge', 'Crit'];
const NOT_CHECKED = ['Health', 'Mobility', 'Armor'];

const asNpc = (o: import('discord.js').SlashCommandStringOption) =>
  o.setName('as_npc').setDescription('Dispatcher only: roll for this NPC, from its sheet').setAutocomplete(true);

function attackOptions(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return sub
    .addUserOption((o) => o.setName('target').setDescription('The member attacked (their active sheet)'))
    .addStringOption((o) => o.setName('target_npc').setDescription('Dispatcher only: the NPC attacked').setAutocomplete(true))
    .addBooleanOption((o) => o.setName('flanked').setDescription('The target is flanked: no cover, +50 Crit (a Crit check even from Crit 0, unless a house rule says)'))
    .addBooleanOption((o) => o.setName('dashing').setDescription('The target is dashing (a reaction attack during its Dash): +30 Dodge'))
    .addIntegerOption((o) => o.setName('crit_bonus').setDescription("Crit from the situation or equipment, e.g. a laser sight, added to the sheet's").setMinValue(-MODIFIER_LIMIT).setMaxValue(MODIFIER_LIMIT))
    .addIntegerOption((o) => o.setName('dodge_bonus').setDescription("The target's Dodge from the situation or equipment, added to its sheet's").setMinValue(-MODIFIER_LIMIT).setMaxValue(MODIFIER_LIMIT))
    .addBooleanOption((o) => o.setName('marked').setDescription('The target is marked: +15 on a ranged attack'))
    .addBooleanOption((o) => o.setName('melee').setDescription('A melee attack: +20, cover does not count'))
    .addBooleanOption((o) => o.setName('proficient').setDescription('Proficient with the weapon (default true; without: hits graze, grazes miss)'))
    .addIntegerOption((o) => o.setName('modifier').setDescription('Other bonuses to the target value, e.g. +10').setMinValue(-MODIFIER_LIMIT).setMaxValue(MODIFIER_LIMIT))
    .addStringOption(asNpc);
}

/** A number from a sheet: the attribute's value, or 0 when the sheet does not list it (the seed's rule). */
function attributeOr0(sheet: OperatorSheet, name: string): number {
  return sheet.attributes.find((entry) => nameKey(entry.name) === nameKey(name))?.value ?? 0;
}

async function record(context: HandlerContext, kind: string, inputs: unknown, seed: string, dice: unknown, result: unknown, facts: { total: number | null; target: number | null; success: boolean | null; npc?: string }): Promise<string> {
  return context.store.rolls.record({
    ...rolledBy(context),
    kind,
    system: TACTICS_SYSTEM,
    inputs,
    seed,
    dice,
    result,
    total: facts.total,
    challengeLevel: facts.target,
    success: facts.success,
    ...(facts.npc !== undefined ? { npc: facts.npc } : {}),
  });
}

async function check(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await rollerSheet(interaction, context, TACTICS, 'required');
  const typed = interaction.options.getString('attribute', true);
  const banned = NOT_CHECKED.find((name) => nameKey(name) === nameKey(typed));
  if (banned) throw new UserError(`${banned} is never checked: Health, Mobility and Armor are not rolled against. Check ${CHECKABLE.join(', ')}, or an attribute of your sheet.`);
  const known = CHECKABLE.find((name) => nameKey(name) === nameKey(typed));
  const attribute = known
    ? { name: sheet.attributes.find((entry) => nameKey(entry.name) === nameKey(known))?.name ?? known, value: attributeOr0(sheet, known) }
    : findAttribute(sheet, typed);
  const modifier = interaction.options.getInteger('modifier') ?? 0;
  let input: CheckInput = { attribute: { name: attribute.name, value: attribute.value }, modifiers: modifier === 0 ? [] : [{ name: 'modifier', value: modifier }] };
  if (interaction.options.getBoolean('unproficient_equipment')) {
    if (nameKey(attribute.name) !== nameKey('Tech')) throw new UserError(`\`unproficient_equipment\` is for Tech checks (Tech with equipment you have no proficiency with: −50); this is a ${attribute.name} check.`);
    input = withUnproficientEquipment(input);
  }
  validateCheckInput(input);
  if (!equipmentUsable(input)) {
    await context.answer.reply(equipmentUnusableReply(input, checkTarget(input), sheet.name));
    return;
  }
  const seed = context.newSeed();
  const result = resolveCheck(input, seededRng(seed));
  const rollId = await record(context, 'check', input, seed, checkDice(result), result, { total: result.d100.value, target: result.target, success: result.success, ...npcFact(interaction, sheet) });
  await answerAsNpc(interaction, context, asNpcRoller(interaction, sheet), checkReply(result, sheet.name, rollId));
}

function npcFact(interaction: ChatInputCommandInteraction, sheet: OperatorSheet): { npc?: string } {
  return interaction.options.getString('as_npc') !== null ? { npc: sheet.name } : {};
}

async function damage(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const input: DamageInput = { base: interaction.options.getInteger('base', true), range: interaction.options.getInteger('range', true) };
  validateDamageInput(input);
  const seed = context.newSeed();
  const result = rollDamage(input, seededRng(seed));
  const rollId = await record(context, 'damage', input, seed, [result.face], result, { total: result.total, target: null, success: null });
  await context.answer.reply(damageReply(result, interaction.user.displayName, rollId));
}

async function attack(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const attacker = await rollerSheet(interaction, context, TACTICS, 'required');
  const target = await targetSheet(interaction, context, TACTICS);
  if (!target) throw new UserError('Name the target: `target` (a member, from their active sheet) or, for a Dispatcher, `target_npc`.');
  const { flankingNeedsOwnCrit } = await context.store.servers.settings(context.guildId);
  const input: AttackInput = {
    attacker: { name: attacker.name, aim: attributeOr0(attacker, 'Aim'), crit: attributeOr0(attacker, 'Crit') },
    target: { name: target.name, sheetId: target.id, defense: attributeOr0(target, 'Defense'), dodge: attributeOr0(target, 'Dodge'), armor: Math.max(0, attributeOr0(target, 'Armor')) },
    critBonus: interaction.options.getInteger('crit_bonus') ?? 0,
    dodgeBonus: interaction.options.getInteger('dodge_bonus') ?? 0,
    dashing: interaction.options.getBoolean('dashing') ?? false,
    weaponBase: interaction.options.getInteger('weapon_base', true),
    weaponRange: interaction.options.getInteger('weapon_range', true),
    cover: interaction.options.getString('cover', true) as Cover,
    flanked: interaction.options.getBoolean('flanked') ?? false,
    marked: interaction.options.getBoolean('marked') ?? false,
    melee: interaction.options.getBoolean('melee') ?? false,
    proficient: interaction.options.getBoolean('proficient') ?? true,
    modifier: interaction.options.getInteger('modifier') ?? 0,
    // The server's reading of flanking, stored with the attack so that it replays under it whatever changes later.
    flankingNeedsOwnCrit,
  };
  validateAttackInput(input);
  const seed = context.newSeed();
  const result = resolveAttack(input, seededRng(seed));
  const rollId = await record(context, 'attack', input, seed, attackDice(result), result, {
    total: result.damage?.final ?? 0,
    target: result.aim.target,
    success: result.damage !== null,
    ...npcFact(interaction, attacker),
  });
  await answerAsNpc(interaction, context, asNpcRoller(interaction, attacker), attackReply(result, rollId));
}

async function psi(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await rollerSheet(interaction, context, TACTICS, 'required');
  const target = await targetSheet(interaction, context, TACTICS);
  const input: PsiInput = {
    psi: attributeOr0(sheet, 'Psi'),
    difficulty: interaction.options.getInteger('difficulty') ?? 0,
    target: target ? { name: target.name, will: attributeOr0(target, 'Will') } : null,
    collar: interaction.options.getBoolean('collar') ?? false,
  };
  validatePsiInput(input);
  const seed = context.newSeed();
  const result = resolvePsi(input, seededRng(seed));
  const rollId = await record(context, 'psi', input, seed, checkDice(result.check), result, { total: result.check.d100.value, target: result.check.target, success: result.check.success, ...npcFact(interaction, sheet) });
  await answerAsNpc(interaction, context, asNpcRoller(interaction, sheet), psiReply(result, sheet.name, rollId));
}

async function social(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await rollerSheet(interaction, context, TACTICS, 'required');
  const input: SocialInput = {
    will: attributeOr0(sheet, 'Will'),
    speciesDistance: interaction.options.getInteger('species_distance') ?? 0,
    alien: interaction.options.getBoolean('alien') ?? false,
    psionicListener: interaction.options.getBoolean('psionic_listener') ?? false,
    speakerPsionic: interaction.options.getBoolean('speaker_psionic') ?? attributeOr0(sheet, 'Psi') > 0,
    modifier: interaction.options.getInteger('modifier') ?? 0,
  };
  validateSocialInput(input);
  const seed = context.newSeed();
  const result = resolveSocial(input, seededRng(seed));
  const rollId = await record(context, 'social', input, seed, checkDice(result.check), result, { total: result.check.d100.value, target: result.check.target, success: result.check.success, ...npcFact(interaction, sheet) });
  await answerAsNpc(interaction, context, asNpcRoller(interaction, sheet), socialReply(result, sheet.name, rollId));
}

async function reaction(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await rollerSheet(interaction, context, TACTICS, 'required');
  const kind = interaction.options.getString('kind', true) as ReactionInput['kind'];
  const input: ReactionInput = { kind, value: attributeOr0(sheet, kind === 'defense' ? 'Defense' : 'Dodge'), modifier: interaction.options.getInteger('modifier') ?? 0 };
  validateReactionInput(input);
  const seed = context.newSeed();
  const result = resolveReaction(input, seededRng(seed));
  const rollId = await record(context, 'reaction', input, seed, checkDice(result.check), result, { total: result.check.d100.value, target: result.check.target, success: result.check.success, ...npcFact(interaction, sheet) });
  await answerAsNpc(interaction, context, asNpcRoller(interaction, sheet), reactionReply(result, sheet.name, rollId));
}

/** A Move or a Dash: no dice, nothing stored; the cost of the path and the move actions against the allowance. */
async function move(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const path = parsePath(interaction.options.getString('path', true));
  const given = interaction.options.getInteger('mobility');
  // A Mobility given outright needs no sheet (a quick sum, or a character whose special rule replaces Mobility).
  const sheet = given !== null && interaction.options.getString('as_npc') === null ? null : await rollerSheet(interaction, context, TACTICS, 'required');
  const listed = sheet?.attributes.find((entry) => nameKey(entry.name) === nameKey('Mobility'));
  if (given === null && !listed) throw new UserError(`${sheet!.name} has no Mobility on the sheet. Set it (\`/sheet attribute set name:Mobility value:…\`, or \`/npc attribute set\`) or give \`mobility:\`.`);
  const mobility = given ?? listed!.value;
  const who = sheet?.name ?? interaction.user.displayName;
  const actions: MoveAction[] = [];
  const equip = interaction.options.getInteger('equip');
  if (equip !== null) actions.push({ name: equip === 0 ? 'equip (a free sidearm)' : equip === MOVE_ACTION_COSTS.equip[1] ? 'equip' : 'equip (a heavy weapon)', cost: equip });
  const take = interaction.options.getInteger('take') ?? 0;
  if (take > 0) actions.push({ name: take === 1 ? 'take an item' : `take ${take} items`, cost: take * MOVE_ACTION_COSTS.take });
  if (interaction.options.getBoolean('pick_up')) actions.push({ name: 'pick up a person', cost: MOVE_ACTION_COSTS.pickUpPerson });
  if (interaction.options.getBoolean('put_down')) actions.push({ name: 'put a person down', cost: MOVE_ACTION_COSTS.putDownPerson });
  const other = interaction.options.getInteger('other') ?? 0;
  if (other > 0) actions.push({ name: 'other move actions', cost: other });
  const result = resolveMove({ mobility, dash: interaction.options.getBoolean('dash') ?? false, path, actions });
  await answerAsNpc(interaction, context, asNpcRoller(interaction, sheet), moveReply(result, who));
}

/** `tactics:apply:<attack roll id>`: the attacker subtracts the damage from the target's Health, once. */
async function applyDamage(interaction: ButtonInteraction, context: HandlerContext, rollId: string): Promise<void> {
  const stored = await context.store.rolls.find(context.guildId, rollId);
  if (!stored || stored.kind !== 'attack') throw new UserError('That attack is not stored on this server, so its damage cannot be applied.');
  if (stored.userId !== context.userId) {
    await context.answer.reply(privateNote(`Only <@${stored.userId}>, who made this attack, can apply its damage. Nothing was changed.`));
    return;
  }
  const result = stored.result as AttackResult;
  const markerId = derivedRollId(rollId, 'apply');
  // Applied already (perhaps by a press whose answer was lost): the message shows it, as the marker recorded it.
  const alreadyApplied = async () => {
    const marker = await context.store.rolls.find(context.guildId, markerId);
    const applied = (marker?.inputs as { applied?: AppliedDamage } | undefined)?.applied;
    const payload = applied ? appliedMessage(result, rollId, appliedLine(markerId, 'Health', applied)) : { components: [] };
    await answerFromStore(interaction, context, payload, `This attack's damage was already applied (\`${markerId}\`). Nothing was changed.`);
  };
  if (await context.store.rolls.find(context.guildId, markerId)) return void (await alreadyApplied());
  if (!result.damage || result.input.target.sheetId === null) throw new UserError('This attack did no damage, so there is nothing to apply.');
  const sheet = await context.store.operators.get(context.guildId, result.input.target.sheetId);
  if (!sheet) throw new UserError(`The sheet of ${result.input.target.name} no longer exists. Nothing was changed.`);
  const noHealth = `${sheet.name} has no Health attribute. Set it first (\`/sheet attribute set name:Health value:…\`, or \`/npc attribute set\`), then press again.`;
  const health = sheet.attributes.find((entry) => nameKey(entry.name) === nameKey('Health'));
  if (!health) throw new UserError(noHealth);
  const damage = result.damage.final;
  // Health is lowered from the value stored when the change is made (two attackers at once both hit), and the
  // marker, under an id derived from the attack's, lands in the same transaction: a second press of this button,
  // even a simultaneous one or from another process, finds it taken and changes nothing.
  const changed = await changeAttributeOnce(context, stored, sheet, health.name, (value) => Math.max(0, value - damage), {
    id: markerId,
    kind: APPLIED_KIND,
    system: TACTICS_SYSTEM,
    inputs: ({ before, after }) => ({ ...(stored.inputs as object), applied: { attackId: rollId, sheetId: sheet.id, sheet: sheet.name, damage, before, after } }),
  });
  if (changed === 'already made') return void (await alreadyApplied());
  if (changed === null) throw new UserError(noHealth);
  const { before, after } = changed;
  await context.answer.update(appliedMessage(result, rollId, appliedLine(markerId, changed.name, { sheet: sheet.name, damage, before, after })));
}

/** What applying an attack's damage did, as its marker records it. */
interface AppliedDamage {
  sheet: string;
  damage: number;
  before: number;
  after: number;
}

function appliedLine(markerId: string, attribute: string, { sheet, damage, before, after }: AppliedDamage): string {
  return `${escapeMarkdown(sheet)}: ${attribute} ${before} → **${after}** (${damage} damage${after === 0 && before - damage < 0 ? ', not below 0' : ''}) · \`${markerId}\``;
}

async function component(interaction: ComponentInteraction, press: ApplyPress, context: HandlerContext): Promise<void> {
  if (!interaction.isButton()) throw new UserError('This button is not one the bot made.');
  return applyDamage(interaction, context, press.rollId);
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const typed = String(focused.value);
  if (focused.name === 'as_npc' || focused.name === 'target_npc') return interaction.respond(await npcNameChoices(context, typed));
  // attribute: the seed's checkable attributes and the sheet's own.
  const npc = interaction.options.getString('as_npc');
  const sheet = npc && (await context.isDispatcher())
    ? await npcNamed(context, npc, TACTICS.system)
    : await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, TACTICS.system);
  if (!sheet && !npc) return interaction.respond(noSheetChoice(TACTICS.system));
  const names = [...CHECKABLE];
  for (const entry of sheet?.attributes ?? []) if (!names.some((name) => nameKey(name) === nameKey(entry.name)) && !NOT_CHECKED.some((name) => nameKey(name) === nameKey(entry.name))) names.push(entry.name);
  const value = (name: string) => (sheet ? attributeOr0(sheet, name) : 0);
  const matching = names.filter((name) => nameKey(name).includes(nameKey(typed))).slice(0, 25);
  return interaction.respond(matching.map((name) => ({ name: `${name} ${value(name)}`, value: name })));
}

export const tacticsCommand = defineCommand<ApplyPress>({
  name: 'tactics',
  description: 'd100 roll-under tactics: checks, attacks, damage and Psi',
  systems: ['d100-tactics'],
  subcommands: [
    {
      name: 'check',
      build: (sub) =>
        sub
          .setDescription('d100 ≤ attribute + modifier succeeds')
          .addStringOption((o) => o.setName('attribute').setDescription('Aim, Will, Tech, Psi, Defense, Dodge, Crit or one of your own').setRequired(true).setAutocomplete(true).setMaxLength(64))
          .addIntegerOption((o) => o.setName('modifier').setDescription('Added to the target value, e.g. -20').setMinValue(-MODIFIER_LIMIT).setMaxValue(MODIFIER_LIMIT))
          .addBooleanOption((o) => o.setName('unproficient_equipment').setDescription('Tech only: using equipment without proficiency, −50 (below 0: cannot be used)'))
          .addStringOption(asNpc),
      run: check,
      again: true,
      help: { audience: 'player', example: '/tactics check attribute:Tech modifier:-20' },
    },
    {
      name: 'social',
      build: (sub) =>
        sub
          .setDescription('A social Will check with the species penalties (−5 each)')
          .addIntegerOption((o) =>
            o
              .setName('species_distance')
              .setDescription('Species distance to the listener: −5 per 25 %')
              .addChoices({ name: '0 %', value: 0 }, { name: '25 % (−5)', value: 25 }, { name: '50 % (−10)', value: 50 }, { name: '75 % (−15)', value: 75 }, { name: '100 % (−20)', value: 100 }),
          )
          .addBooleanOption((o) => o.setName('alien').setDescription('The listener has extreme alien features: −5'))
          .addBooleanOption((o) => o.setName('psionic_listener').setDescription('The listener has obviously strong psionics: −5 unless you are psionic'))
          .addBooleanOption((o) => o.setName('speaker_psionic').setDescription('You are psionic (default: your sheet has Psi above 0)'))
          .addIntegerOption((o) => o.setName('modifier').setDescription('The situation, added to the target value').setMinValue(-MODIFIER_LIMIT).setMaxValue(MODIFIER_LIMIT))
          .addStringOption(asNpc),
      run: social,
      again: true,
      help: { audience: 'player', example: '/tactics social species_distance:50 alien:true' },
    },
    {
      name: 'reaction',
      build: (sub) =>
        sub
          .setDescription('Defense against a hazard or a Dodge reaction: the attribute + 50, then the modifier')
          .addStringOption((o) =>
            o
              .setName('kind')
              .setDescription('Which check')
              .setRequired(true)
              .addChoices({ name: 'defense (a hazard: disease, toxin, explosion, vacuum…)', value: 'defense' }, { name: 'dodge (an intuitive reaction)', value: 'dodge' }),
          )
          .addIntegerOption((o) => o.setName('modifier').setDescription("The situation's difficulty, added after +50").setMinValue(-MODIFIER_LIMIT).setMaxValue(MODIFIER_LIMIT))
          .addStringOption(asNpc),
      run: reaction,
      again: true,
      help: { audience: 'player', example: '/tactics reaction kind:dodge' },
    },
    {
      name: 'attack',
      build: (sub) =>
        attackOptions(
          sub
            .setDescription('An attack, step by step: defense, Aim, Dodge/Crit, damage, armor')
            .addIntegerOption((o) => o.setName('weapon_base').setDescription("The weapon's base damage").setRequired(true).setMinValue(0).setMaxValue(WEAPON_BASE_MAX))
            .addIntegerOption((o) => o.setName('weapon_range').setDescription("The weapon's damage range (2–6)").setRequired(true).setMinValue(2).setMaxValue(6))
            .addStringOption((o) =>
              o
                .setName('cover')
                .setDescription("The target's cover (ranged attacks only)")
                .setRequired(true)
                .addChoices({ name: 'none', value: 'none' }, { name: 'half (+20 defense)', value: 'half' }, { name: 'full (+40 defense)', value: 'full' }),
            ),
        ),
      run: attack,
      again: true,
      help: { audience: 'player', example: '/tactics attack weapon_base:4 weapon_range:2 cover:half target:@Sasha' },
    },
    {
      name: 'damage',
      build: (sub) =>
        sub
          .setDescription('A damage roll: base + the die of the damage range')
          .addIntegerOption((o) => o.setName('base').setDescription("The weapon's base damage").setRequired(true).setMinValue(0).setMaxValue(WEAPON_BASE_MAX))
          .addIntegerOption((o) => o.setName('range').setDescription('The damage range: 2, 3, 4, 5 or 6').setRequired(true)),
      run: damage,
      again: true,
      help: { audience: 'player', example: '/tactics damage base:4 range:2' },
    },
    {
      name: 'psi',
      build: (sub) =>
        sub
          .setDescription('A Psi check: difficulty + Psi (contested: − target Will + 50; collar −105)')
          .addIntegerOption((o) => o.setName('difficulty').setDescription('The ability’s difficulty, +20 … −50 (default 0)').setMinValue(PSI_DIFFICULTY_MIN).setMaxValue(PSI_DIFFICULTY_MAX))
          .addUserOption((o) => o.setName('target').setDescription('Contested: the member whose Will resists (their active sheet)'))
          .addStringOption((o) => o.setName('target_npc').setDescription('Dispatcher only, contested: the NPC whose Will resists').setAutocomplete(true))
          .addBooleanOption((o) => o.setName('collar').setDescription('A Psi collar is worn: −105'))
          .addStringOption(asNpc),
      run: psi,
      again: true,
      help: { audience: 'player', example: '/tactics psi difficulty:-10' },
    },
    {
      name: 'move',
      build: (sub) =>
        sub
          .setDescription('What a move costs in Mobility points, against a Move (Mobility) or a Dash (twice Mobility)')
          .addStringOption((o) => o.setName('path').setDescription('Squares in order: s straight, d diagonal, r rough, e.g. 3s 2d 1rd').setRequired(true).setMaxLength(200))
          .addBooleanOption((o) => o.setName('dash').setDescription('Dash (Full Action): twice your Mobility, +30 Dodge against reaction actions'))
          .addIntegerOption((o) =>
            o
              .setName('equip')
              .setDescription('Equipping during the move')
              .addChoices({ name: '4: most equipment', value: 4 }, { name: '6: a heavy weapon', value: 6 }, { name: '8: a heavy weapon', value: 8 }, { name: '0: a sidearm that is free to equip', value: 0 }),
          )
          .addIntegerOption((o) => o.setName('take').setDescription('Small loose items taken (equipped or stored): 4 each').setMinValue(0).setMaxValue(TAKE_MAX))
          .addBooleanOption((o) => o.setName('pick_up').setDescription('Pick up a person: 10'))
          .addBooleanOption((o) => o.setName('put_down').setDescription('Put a person down: 2 (dropping is free)'))
          .addIntegerOption((o) => o.setName('other').setDescription('Other move actions, in Mobility points (e.g. kicking a door: the table says)').setMinValue(0).setMaxValue(OTHER_MOVE_ACTIONS_MAX))
          .addIntegerOption((o) => o.setName('mobility').setDescription('Your Mobility, instead of the one on your sheet').setMinValue(0).setMaxValue(MOBILITY_MAX))
          .addStringOption(asNpc),
      run: move,
      help: { audience: 'player', example: '/tactics move path:3s 2d 1rd' },
    },
  ],
  autocomplete,
  ids: tacticsIds,
  component,
});
