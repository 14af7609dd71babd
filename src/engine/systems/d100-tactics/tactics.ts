/**
 * d100 roll-under with tactical attacks (RULES 2, seed 001): attribute checks, damage rolls by damage range,
 * the attack sequence (defense, target value, Aim, Dodge/Crit, damage, armor, proficiency) and Psi checks.
 * Pure: inputs and an Rng in, every die and every term out.
 */
import { UserError } from '../../../errors.js';
import { rollD100, type D100 } from '../../dice.js';
import type { Rng } from '../../rng.js';
import type { Modifier } from '../tactalk/challenge.js';

export const MODIFIER_LIMIT = 300;
export const WEAPON_BASE_MAX = 100;
export const PSI_DIFFICULTY_MIN = -50;
export const PSI_DIFFICULTY_MAX = 20;
export const PSI_COLLAR = -105;
export const AVERAGE_WILL = 50;
export const COVER_BONUS = { none: 0, half: 20, full: 40 } as const;
export const MELEE_BONUS = 20;
export const MARKED_BONUS = 15;
export const FLANKED_CRIT_BONUS = 50;
/** Dash: "+30 Dodge against reaction actions" while dashing. */
export const DASH_DODGE_BONUS = 30;

export type Cover = keyof typeof COVER_BONUS;

function checkInteger(value: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UserError(`${what} must be a whole number from ${min} to ${max}; ${value} is not.`);
  }
}

// ---- checks ----------------------------------------------------------------------------------------------------

export interface CheckInput {
  /** The attribute checked, with its value (Aim 65). */
  attribute: Modifier;
  /** Everything added to it to make the target value. */
  modifiers: Modifier[];
}

export interface CheckResult {
  input: CheckInput;
  target: number;
  d100: D100;
  /** d100 ≤ target (equal succeeds). */
  success: boolean;
  /** The exact chance of success in percent: the target clamped to 0–100 (each d100 face is 1 %). */
  chance: number;
}

export function checkTarget(input: CheckInput): number {
  return input.attribute.value + input.modifiers.reduce((sum, term) => sum + term.value, 0);
}

export function chanceOf(target: number): number {
  return Math.min(100, Math.max(0, target));
}

/** One d100 (as 2D10) against a target value. */
export function rollUnder(input: CheckInput, rng: Rng): CheckResult {
  const target = checkTarget(input);
  const d100 = rollD100(rng);
  return { input, target, d100, success: d100.value <= target, chance: chanceOf(target) };
}

export function validateCheckInput(input: CheckInput): void {
  for (const term of input.modifiers) checkInteger(term.value, -MODIFIER_LIMIT, MODIFIER_LIMIT, `The ${term.name}`);
}

export function resolveCheck(input: CheckInput, rng: Rng): CheckResult {
  validateCheckInput(input);
  return rollUnder(input, rng);
}

/** A check's dice as stored: the two 2D10 dice. */
export function checkDice(result: CheckResult): { tens: number; ones: number } {
  return { tens: result.d100.tens, ones: result.d100.ones };
}

// ---- damage ----------------------------------------------------------------------------------------------------

/** The damage range table: the die and what its face is divided by (rounded up). */
export const DAMAGE_DICE: Readonly<Record<number, { sides: number; divisor: number }>> = {
  2: { sides: 12, divisor: 6 },
  3: { sides: 12, divisor: 4 },
  4: { sides: 12, divisor: 3 },
  5: { sides: 10, divisor: 2 },
  6: { sides: 12, divisor: 2 },
};

export interface DamageInput {
  base: number;
  range: number;
}

export interface DamageRoll {
  input: DamageInput;
  sides: number;
  divisor: number;
  face: number;
  /** ceil(face / divisor). */
  roll: number;
  /** base + roll. */
  total: number;
}

export function validateDamageInput(input: DamageInput): void {
  checkInteger(input.base, 0, WEAPON_BASE_MAX, 'The weapon base damage');
  if (!Number.isInteger(input.range) || DAMAGE_DICE[input.range] === undefined) {
    throw new UserError(`There is no damage range ${input.range}: the damage table has ranges 2, 3, 4, 5 and 6.`);
  }
}

export function rollDamage(input: DamageInput, rng: Rng): DamageRoll {
  validateDamageInput(input);
  const { sides, divisor } = DAMAGE_DICE[input.range]!;
  const face = rng.int(sides) + 1;
  const roll = Math.ceil(face / divisor);
  return { input, sides, divisor, face, roll, total: input.base + roll };
}

// ---- attacks ---------------------------------------------------------------------------------------------------

export interface AttackInput {
  /** `crit`: the Crit on the attacker's sheet. */
  attacker: { name: string; aim: number; crit: number };
  /** `sheetId`: the target's sheet, so a hit can be applied to its Health later. `dodge`: the Dodge on its sheet. */
  target: { name: string; sheetId: number | null; defense: number; dodge: number; armor: number };
  /** Crit granted by the situation or equipment for this attack (the seed's laser sight), added to the sheet's. */
  critBonus: number;
  /** Dodge granted to the target by the situation or equipment, added to the sheet's. */
  dodgeBonus: number;
  /** The target is dashing, so this attack is a reaction to its movement: +30 Dodge. */
  dashing: boolean;
  weaponBase: number;
  weaponRange: number;
  cover: Cover;
  flanked: boolean;
  marked: boolean;
  melee: boolean;
  proficient: boolean;
  /** Other bonuses or maluses to the target value (the rules' "others"). */
  modifier: number;
  /**
   * The reading of flanking in effect when the attack was rolled, stored with it. false (the reading since issue
   * 23): flanking grants +50 Crit, so the attacker checks Crit when Crit + its bonus + 50 is above 0, a Crit-0
   * flanker at 50. true (the house rule `flanking_needs_own_crit`, the literal reading): the +50 only adds to an
   * attacker who already has Crit above 0. Attacks stored without it replay under the reading of their time
   * (completeAttackInput).
   */
  flankingNeedsOwnCrit: boolean;
}

export type HitType = 'miss' | 'graze' | 'hit' | 'critical';

export interface AttackResult {
  input: AttackInput;
  /** Step 1. */
  cover: { asked: Cover; applied: Cover; why: 'flanked' | 'melee' | null };
  defenseTerms: Modifier[];
  defense: number;
  /** Step 2. */
  targetTerms: Modifier[];
  /** Step 3. */
  aim: CheckResult;
  /** Step 4: null when the attack missed, or the defender has no Dodge / the attacker no Crit. */
  dodge: CheckResult | null;
  crit: CheckResult | null;
  /** What the Dodge/Crit checks made of the hit (null on a miss). */
  rolledHit: Exclude<HitType, 'miss'> | null;
  /** Step 6: after the proficiency downgrade. */
  hit: HitType;
  /** Step 5: null when nothing hits. */
  damage: {
    roll: DamageRoll;
    /** base + roll, graze halved (rounded up) or critical + range. */
    afterHit: number;
    armor: number;
    /** afterHit − armor, at least 1. */
    final: number;
  } | null;
}

export function validateAttackInput(input: AttackInput): void {
  validateDamageInput({ base: input.weaponBase, range: input.weaponRange });
  if (!(input.cover in COVER_BONUS)) throw new UserError('Cover is `none`, `half` or `full`.');
  checkInteger(input.modifier, -MODIFIER_LIMIT, MODIFIER_LIMIT, 'The modifier');
  checkInteger(input.critBonus, -MODIFIER_LIMIT, MODIFIER_LIMIT, 'The Crit bonus');
  checkInteger(input.dodgeBonus, -MODIFIER_LIMIT, MODIFIER_LIMIT, 'The Dodge bonus');
  checkInteger(input.target.armor, 0, 1000, "The target's Armor");
}

/**
 * An attack input as stored, made whole, with the flanking reading it was rolled under:
 * - stored before issue 12 (no Dash, no Crit / Dodge bonus): Crit was checked whenever Crit + the flanking 50 was
 *   above 0, so flanking granted Crit (`flankingNeedsOwnCrit: false`);
 * - stored from issue 12 until issue 23 (Dash, no `flankingNeedsOwnCrit`): only an attacker with Crit above 0
 *   checked it, flanking or not (`flankingNeedsOwnCrit: true`);
 * - stored since: the reading it names.
 */
export function completeAttackInput(stored: AttackInput): AttackInput {
  // Stored inputs may lack what AttackInput requires: their JSON is read as the engine reads it (replay.ts).
  const given = stored as Partial<AttackInput> & Omit<AttackInput, 'critBonus' | 'dodgeBonus' | 'dashing' | 'flankingNeedsOwnCrit'>;
  if (given.dashing === undefined) return { ...given, critBonus: 0, dodgeBonus: 0, dashing: false, flankingNeedsOwnCrit: false };
  if (given.flankingNeedsOwnCrit === undefined) return { ...(given as AttackInput), flankingNeedsOwnCrit: true };
  return stored;
}

/** Step 1: innate Defense + one cover (none when flanked; ranged cover does not stop a melee attack). */
export function attackDefense(input: AttackInput): { cover: AttackResult['cover']; terms: Modifier[]; defense: number } {
  const why = input.flanked ? 'flanked' : input.melee ? 'melee' : null;
  const applied: Cover = why ? 'none' : input.cover;
  const terms: Modifier[] = [{ name: 'Defense', value: input.target.defense }];
  if (COVER_BONUS[applied] > 0) terms.push({ name: `${applied} cover`, value: COVER_BONUS[applied] });
  return { cover: { asked: input.cover, applied, why: input.cover === 'none' ? null : why }, terms, defense: terms.reduce((sum, term) => sum + term.value, 0) };
}

/** Step 2: the bonuses on top of Aim − defense. */
export function attackBonuses(input: AttackInput, defense: number): Modifier[] {
  const terms: Modifier[] = [{ name: 'defense', value: -defense }];
  if (input.melee) terms.push({ name: 'melee', value: MELEE_BONUS });
  if (input.marked && !input.melee) terms.push({ name: 'marked (ranged)', value: MARKED_BONUS });
  if (input.modifier !== 0) terms.push({ name: 'modifier', value: input.modifier });
  return terms;
}

/** The Crit check: the sheet's Crit + the Crit bonus, +50 when the target is flanked (flanking grants Crit). */
export function critCheckInput(input: AttackInput): CheckInput {
  const modifiers: Modifier[] = [];
  if (input.critBonus !== 0) modifiers.push({ name: 'Crit bonus', value: input.critBonus });
  if (input.flanked) modifiers.push({ name: 'flanked', value: FLANKED_CRIT_BONUS });
  return { attribute: { name: 'Crit', value: input.attacker.crit }, modifiers };
}

/** The attacker's Crit before flanking: the sheet's with the bonus. */
export function attackerCrit(input: AttackInput): number {
  return input.attacker.crit + input.critBonus;
}

/**
 * Whether the attacker checks Crit (RULES 2, attack step 4: "if the attacker has Crit"). Flanking is a situation
 * that grants Crit (+50), so by default a flanker checks Crit + bonus + 50 whenever that is above 0, even from
 * Crit 0, as Dash grants a Dodge-0 target its Dodge. Under the house rule `flanking_needs_own_crit` only an
 * attacker whose Crit with the bonus is above 0 checks it, flanking's +50 then added to that check.
 */
export function critChecked(input: AttackInput): boolean {
  return input.flankingNeedsOwnCrit ? attackerCrit(input) > 0 : checkTarget(critCheckInput(input)) > 0;
}

/** The Dodge check: the sheet's Dodge + the Dodge bonus + 30 while dashing (Dash grants Dodge: "they will have +30 Dodge"). */
export function dodgeCheckInput(input: AttackInput): CheckInput {
  const modifiers: Modifier[] = [];
  if (input.dodgeBonus !== 0) modifiers.push({ name: 'Dodge bonus', value: input.dodgeBonus });
  if (input.dashing) modifiers.push({ name: 'dashing', value: DASH_DODGE_BONUS });
  return { attribute: { name: 'Dodge', value: input.target.dodge }, modifiers };
}

/** Step 6: without proficiency, hits and crits become grazes, grazes become misses. */
export function downgrade(hit: HitType): HitType {
  if (hit === 'critical' || hit === 'hit') return 'graze';
  return 'miss';
}

/** Step 5: base + roll; graze → ceil(/2); critical → + range; − armor, at least 1. */
export function damageAfter(roll: DamageRoll, hit: Exclude<HitType, 'miss'>, armor: number): { afterHit: number; armor: number; final: number } {
  const afterHit = hit === 'graze' ? Math.ceil(roll.total / 2) : hit === 'critical' ? roll.total + roll.input.range : roll.total;
  return { afterHit, armor, final: Math.max(1, afterHit - armor) };
}

/**
 * The attack in the rules' order. Dice, in order: the Aim d100; on a hit, the Dodge d100 (the defender's Dodge,
 * with its bonus and Dash, above 0), the Crit d100 (the attacker's Crit with its bonus and +50 flanked above 0,
 * or see critChecked for the house rule); then the damage die if anything still hits.
 */
export function resolveAttack(given: AttackInput, rng: Rng): AttackResult {
  const input = completeAttackInput(given);
  validateAttackInput(input);
  const { cover, terms: defenseTerms, defense } = attackDefense(input);
  const targetTerms = attackBonuses(input, defense);
  const aim = rollUnder({ attribute: { name: 'Aim', value: input.attacker.aim }, modifiers: targetTerms }, rng);
  const base = { input, cover, defenseTerms, defense, targetTerms, aim };
  if (!aim.success) return { ...base, dodge: null, crit: null, rolledHit: null, hit: 'miss', damage: null };
  const dodgeCheck = dodgeCheckInput(input);
  const dodge = checkTarget(dodgeCheck) > 0 ? rollUnder(dodgeCheck, rng) : null;
  const crit = critChecked(input) ? rollUnder(critCheckInput(input), rng) : null;
  const dodged = dodge?.success ?? false;
  const critted = crit?.success ?? false;
  const rolledHit: Exclude<HitType, 'miss'> = critted && !dodged ? 'critical' : dodged && !critted ? 'graze' : 'hit';
  const hit = input.proficient ? rolledHit : downgrade(rolledHit);
  if (hit === 'miss') return { ...base, dodge, crit, rolledHit, hit, damage: null };
  const roll = rollDamage({ base: input.weaponBase, range: input.weaponRange }, rng);
  return { ...base, dodge, crit, rolledHit, hit, damage: { roll, ...damageAfter(roll, hit, input.target.armor) } };
}

/** An attack's dice as stored: every d100 as its two dice, then the damage die's face. */
export function attackDice(result: AttackResult): { aim: { tens: number; ones: number }; dodge: { tens: number; ones: number } | null; crit: { tens: number; ones: number } | null; damage: number | null } {
  return {
    aim: checkDice(result.aim),
    dodge: result.dodge ? checkDice(result.dodge) : null,
    crit: result.crit ? checkDice(result.crit) : null,
    damage: result.damage ? result.damage.roll.face : null,
  };
}

// ---- psi -------------------------------------------------------------------------------------------------------

export interface PsiInput {
  psi: number;
  difficulty: number;
  /** Contested: the target's Will (null when not contested). */
  target: { name: string; will: number } | null;
  collar: boolean;
}

export function validatePsiInput(input: PsiInput): void {
  checkInteger(input.difficulty, PSI_DIFFICULTY_MIN, PSI_DIFFICULTY_MAX, 'The psionic difficulty');
}

/** Psi + difficulty; contested − target Will + 50; a worn collar − 105. */
export function psiCheckInput(input: PsiInput): CheckInput {
  const modifiers: Modifier[] = [{ name: 'difficulty', value: input.difficulty }];
  if (input.target) modifiers.push({ name: `${input.target.name}'s Will`, value: -input.target.will }, { name: 'contested (average Will)', value: AVERAGE_WILL });
  if (input.collar) modifiers.push({ name: 'Psi collar', value: PSI_COLLAR });
  return { attribute: { name: 'Psi', value: input.psi }, modifiers };
}

export interface PsiResult {
  input: PsiInput;
  check: CheckResult;
}

export function resolvePsi(input: PsiInput, rng: Rng): PsiResult {
  validatePsiInput(input);
  return { input, check: rollUnder(psiCheckInput(input), rng) };
}

// ---- social Will, Tech with equipment, hazard / reaction checks ------------------------------------------------

export const SPECIES_DISTANCE_STEP = 25;
export const SPECIES_DISTANCE_PENALTY = -5;
export const ALIEN_FEATURES_PENALTY = -5;
export const PSIONICS_PENALTY = -5;
export const UNPROFICIENT_EQUIPMENT = -50;
export const REACTION_BASE = 50;

export interface SocialInput {
  will: number;
  /** Species distance in percent: 0, 25, 50, 75 or 100. */
  speciesDistance: number;
  /** The listener has extreme alien features. */
  alien: boolean;
  /** The listener has obviously strong psionics. */
  psionicListener: boolean;
  /** The speaker is psionic: the psionics penalty does not apply. */
  speakerPsionic: boolean;
  modifier: number;
}

export function validateSocialInput(input: SocialInput): void {
  if (!Number.isInteger(input.speciesDistance) || input.speciesDistance < 0 || input.speciesDistance > 100 || input.speciesDistance % SPECIES_DISTANCE_STEP !== 0) {
    throw new UserError(`The species distance is 0, 25, 50, 75 or 100 %; ${input.speciesDistance} is not.`);
  }
  checkInteger(input.modifier, -MODIFIER_LIMIT, MODIFIER_LIMIT, 'The modifier');
}

/** Will − 5 per 25 % species distance − 5 extreme alien features − 5 strong psionics (unless the speaker is psionic) + modifier. */
export function socialCheckInput(input: SocialInput): CheckInput {
  const modifiers: Modifier[] = [];
  const steps = input.speciesDistance / SPECIES_DISTANCE_STEP;
  if (steps > 0) modifiers.push({ name: `species distance ${input.speciesDistance}%`, value: steps * SPECIES_DISTANCE_PENALTY });
  if (input.alien) modifiers.push({ name: 'extreme alien features', value: ALIEN_FEATURES_PENALTY });
  if (input.psionicListener && !input.speakerPsionic) modifiers.push({ name: 'strong psionics', value: PSIONICS_PENALTY });
  if (input.modifier !== 0) modifiers.push({ name: 'modifier', value: input.modifier });
  return { attribute: { name: 'Will', value: input.will }, modifiers };
}

export interface SocialResult {
  input: SocialInput;
  /** The psionics penalty was waived because the speaker is psionic. */
  psionicsWaived: boolean;
  check: CheckResult;
}

export function resolveSocial(input: SocialInput, rng: Rng): SocialResult {
  validateSocialInput(input);
  return { input, psionicsWaived: input.psionicListener && input.speakerPsionic, check: rollUnder(socialCheckInput(input), rng) };
}

/** The term `withUnproficientEquipment` adds. */
export const UNPROFICIENT_EQUIPMENT_TERM = 'equipment without proficiency';

/** Tech with equipment without proficiency: −50 on the check. */
export function withUnproficientEquipment(input: CheckInput): CheckInput {
  return { ...input, modifiers: [...input.modifiers, { name: UNPROFICIENT_EQUIPMENT_TERM, value: UNPROFICIENT_EQUIPMENT }] };
}

/**
 * Whether a check is rolled. Only equipment used without proficiency (the check carries the −50 term) can be
 * unusable: below 0 it "cannot be used at all", no roll. Any other check below 0 is a plain check that cannot
 * succeed: rolled, a failure at 0 %, as every Psi, social, reaction and Aim check already is.
 */
export function equipmentUsable(input: CheckInput): boolean {
  return !input.modifiers.some((term) => term.name === UNPROFICIENT_EQUIPMENT_TERM) || checkTarget(input) >= 0;
}

export type ReactionKind = 'defense' | 'dodge';

export interface ReactionInput {
  kind: ReactionKind;
  /** The Defense (hazards) or Dodge (reactions) attribute. */
  value: number;
  modifier: number;
}

export function validateReactionInput(input: ReactionInput): void {
  if (input.kind !== 'defense' && input.kind !== 'dodge') throw new UserError('A reaction check is `defense` (against a hazard) or `dodge` (a reaction).');
  checkInteger(input.modifier, -MODIFIER_LIMIT, MODIFIER_LIMIT, 'The modifier');
}

/** Defense against hazards / Dodge reactions: the attribute + 50, then the situation's modifier. */
export function reactionCheckInput(input: ReactionInput): CheckInput {
  const modifiers: Modifier[] = [{ name: input.kind === 'defense' ? 'hazard check' : 'reaction check', value: REACTION_BASE }];
  if (input.modifier !== 0) modifiers.push({ name: 'modifier', value: input.modifier });
  return { attribute: { name: input.kind === 'defense' ? 'Defense' : 'Dodge', value: input.value }, modifiers };
}

export interface ReactionResult {
  input: ReactionInput;
  check: CheckResult;
}

export function resolveReaction(input: ReactionInput, rng: Rng): ReactionResult {
  validateReactionInput(input);
  return { input, check: rollUnder(reactionCheckInput(input), rng) };
}
