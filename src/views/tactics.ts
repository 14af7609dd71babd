/**
 * d100 roll-under checks and tactical attacks (RULES 2) as embeds: both dice of every d100, every term, the target,
 * the verdict and the exact chance; an attack step by step, with an *Apply damage* button on a hit.
 */
import { ButtonStyle, ComponentType, EmbedBuilder, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord.js';
import { completeAttackInput, DASH_DODGE_BONUS, FLANKED_CRIT_BONUS, type AttackResult, type CheckInput, type CheckResult, type DamageRoll, type HitType, type PsiResult, type ReactionResult, type SocialResult } from '../engine/systems/d100-tactics/tactics.js';
import { DASH_MULTIPLIER, runName, type MoveResult } from '../engine/systems/d100-tactics/movement.js';
import { d100Tactics } from '../engine/systems/d100-tactics/index.js';
import { rollFooter } from './challenge.js';
import { rollActionIds } from './component-id.js';
import { escapeMarkdown, formatD100, formatTerms, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';
import { defineSystemView } from './system-view.js';

const COLOR = { success: 0x2e9e5b, failure: 0xc0392b, critical: 0x8e44ad, graze: 0xd4ac0d, neutral: 0x7f8c8d } as const;

/** `65 Aim + 10 modifier = **75**`. */
export function targetLine(check: CheckResult): string {
  const { attribute, modifiers } = check.input;
  return `${attribute.value} ${escapeMarkdown(attribute.name)}${formatTerms(modifiers)} = **${check.target}**`;
}

/** `🎲 \`[4][8] → 48\` ≤ 75: **success** (chance 75%)`. */
export function checkVerdictLine(check: CheckResult, words: { success: string; failure: string } = { success: 'success', failure: 'failure' }): string {
  const comparison = check.success ? '≤' : '>';
  return `🎲 \`${formatD100(check.d100)}\` ${comparison} ${check.target}: **${check.success ? words.success : words.failure}** (chance ${check.chance}%)`;
}

/** A check's target and verdict; one below 1 (no d100 is under it) says it cannot succeed. */
export function checkLines(check: CheckResult): string[] {
  const lines = [`Target: ${targetLine(check)}`, checkVerdictLine(check)];
  if (check.target < 1) lines.push('A target below 1 cannot succeed.');
  return lines;
}

function embedOf(title: string, color: number, lines: string[], rollId: string | null): EmbedBuilder {
  return new EmbedBuilder()
    .setColor(color)
    .setTitle(truncate(title, DISCORD_LIMITS.embedTitle))
    .setDescription(truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription))
    .setFooter({ text: rollFooter(rollId) });
}

export function checkReply(check: CheckResult, who: string, rollId: string): ReplyPayload {
  const title = `${check.success ? '✅' : '❌'} ${who}: ${check.input.attribute.name} check, ${check.success ? 'success' : 'failure'}`;
  return { embeds: [embedOf(title, check.success ? COLOR.success : COLOR.failure, checkLines(check), rollId).toJSON()], allowedMentions: NO_PINGS };
}

export function psiLines(result: PsiResult): string[] {
  return checkLines(result.check);
}

export function psiReply(result: PsiResult, who: string, rollId: string): ReplyPayload {
  const check = result.check;
  const against = result.input.target ? ` against ${result.input.target.name}` : '';
  const title = `${check.success ? '✅' : '❌'} ${who}: Psi check${against}, ${check.success ? 'success' : 'failure'}`;
  return { embeds: [embedOf(title, check.success ? COLOR.success : COLOR.failure, psiLines(result), rollId).toJSON()], allowedMentions: NO_PINGS };
}

export function socialLines(result: SocialResult): string[] {
  const lines = checkLines(result.check);
  if (result.psionicsWaived) lines.push('No strong-psionics penalty: the speaker is psionic.');
  return lines;
}

export function socialReply(result: SocialResult, who: string, rollId: string): ReplyPayload {
  const check = result.check;
  const title = `${check.success ? '✅' : '❌'} ${who}: social Will check, ${check.success ? 'success' : 'failure'}`;
  return { embeds: [embedOf(title, check.success ? COLOR.success : COLOR.failure, socialLines(result), rollId).toJSON()], allowedMentions: NO_PINGS };
}

const REACTION_WORDS = { defense: 'Defense check against a hazard', dodge: 'Dodge reaction check' } as const;

export function reactionReply(result: ReactionResult, who: string, rollId: string): ReplyPayload {
  const check = result.check;
  const title = `${check.success ? '✅' : '❌'} ${who}: ${REACTION_WORDS[result.input.kind]}, ${check.success ? 'success' : 'failure'}`;
  return { embeds: [embedOf(title, check.success ? COLOR.success : COLOR.failure, checkLines(check), rollId).toJSON()], allowedMentions: NO_PINGS };
}

/** Tech with equipment without proficiency below 0: no roll (only then; any other check below 0 is rolled). */
export function equipmentUnusableReply(input: CheckInput, target: number, who: string): ReplyPayload {
  const line = `Target: ${input.attribute.value} ${escapeMarkdown(input.attribute.name)}${formatTerms(input.modifiers)} = **${target}**`;
  const lines = [line, 'Below 0: **the equipment cannot be used** without proficiency. Nothing was rolled.'];
  return { embeds: [embedOf(`🚫 ${who}: cannot use the equipment`, COLOR.failure, lines, null).toJSON()], allowedMentions: NO_PINGS };
}

/** `d12 [7] ÷ 3 → 3 (rounded up)`. */
export function damageDieLine(roll: DamageRoll): string {
  return `d${roll.sides} \`[${roll.face}]\` ÷ ${roll.divisor} → ${roll.roll}${roll.face % roll.divisor === 0 ? '' : ' (rounded up)'}`;
}

export function damageLines(roll: DamageRoll): string[] {
  return [`Damage range ${roll.input.range}: ${damageDieLine(roll)}`, `${roll.input.base} base + ${roll.roll} roll = **${roll.total}**`];
}

export function damageReply(roll: DamageRoll, who: string, rollId: string): ReplyPayload {
  const title = `💥 ${who}: ${roll.input.base} base, range ${roll.input.range} → ${roll.total} damage`;
  return { embeds: [embedOf(title, COLOR.neutral, damageLines(roll), rollId).toJSON()], allowedMentions: NO_PINGS };
}

const HIT_WORDS: Record<HitType, string> = { miss: 'miss', graze: 'graze', hit: 'hit', critical: 'critical hit' };

/** The attack's steps, each as a [name, value] pair. */
export function attackSteps(result: AttackResult): Array<[string, string]> {
  const { input } = result;
  const steps: Array<[string, string]> = [];
  const coverNote =
    result.cover.why === 'flanked'
      ? ` (${result.cover.asked} cover does not count: flanked)`
      : result.cover.why === 'melee'
        ? ` (${result.cover.asked} cover only stops ranged attacks)`
        : '';
  const [innate, ...cover] = result.defenseTerms;
  steps.push(['1. Defense', `${innate!.value} Defense${formatTerms(cover)} = **${result.defense}**${coverNote}`]);
  steps.push(['2. Target value', targetLine(result.aim)]);
  steps.push(['3. Aim check', checkVerdictLine(result.aim, { success: 'hit', failure: 'miss: the attack is over' })]);
  if (!result.rolledHit) return steps;
  const reactions: string[] = [];
  reactions.push(result.dodge ? `Dodge ${targetLine(result.dodge)}: ${checkVerdictLine(result.dodge, { success: 'dodged', failure: 'not dodged' })}` : `No Dodge check (${escapeMarkdown(input.target.name)} has no Dodge).`);
  reactions.push(result.crit ? `Crit ${targetLine(result.crit)}: ${checkVerdictLine(result.crit, { success: 'critical', failure: 'no critical' })}` : `No Crit check (${escapeMarkdown(input.attacker.name)} ${noCritReason(result)}).`);
  reactions.push(`→ **${HIT_WORDS[result.rolledHit]}**`);
  steps.push(['4. Dodge / Crit', reactions.join('\n')]);
  if (!input.proficient) steps.push(['6. Not proficient', `${HIT_WORDS[result.rolledHit]} → **${HIT_WORDS[result.hit]}**`]);
  if (result.damage) {
    const { roll, afterHit, armor, final } = result.damage;
    const lines = [`${damageDieLine(roll)}; ${roll.input.base} base + ${roll.roll} = ${roll.total}`];
    if (result.hit === 'graze') lines.push(`Graze: ${roll.total} ÷ 2 → ${afterHit}${roll.total % 2 === 0 ? '' : ' (rounded up)'}`);
    if (result.hit === 'critical') lines.push(`Critical: ${roll.total} + ${roll.input.range} (range) = ${afterHit}`);
    lines.push(`${afterHit} − ${armor} armor = ${afterHit - armor}${afterHit - armor < 1 ? ', at least 1' : ''} → **${final} damage**`);
    steps.push(['5. Damage', lines.join('\n')]);
  }
  return steps;
}

/** Why an attack that hit made no Crit check, under the flanking reading it was rolled with. */
function noCritReason(result: AttackResult): string {
  // A result stored before the reading was stored lacks it: completed as its replay reads it.
  const input = completeAttackInput(result.input);
  if (!input.flanked) return 'has no Crit';
  // The house rule's reading (also the bot's from issue 12 until issue 23, as those attacks replay).
  if (input.flankingNeedsOwnCrit) return `has no Crit; flanking's +${FLANKED_CRIT_BONUS} only adds to a Crit above 0: \`flanking_needs_own_crit\``;
  return `has no Crit, even with flanking's +${FLANKED_CRIT_BONUS}`;
}

export function attackTitle(result: AttackResult): string {
  const who = `${result.input.attacker.name} → ${result.input.target.name}`;
  if (!result.damage) return `❌ ${who}: miss`;
  return `${result.hit === 'critical' ? '💥' : '🎯'} ${who}: ${HIT_WORDS[result.hit]}, ${result.damage.final} damage`;
}

function attackOptions(result: AttackResult): string {
  const input = completeAttackInput(result.input);
  const flags = [
    input.melee ? 'melee' : 'ranged',
    `${input.cover} cover`,
    input.flanked ? (input.flankingNeedsOwnCrit ? `flanked (+${FLANKED_CRIT_BONUS} only on a Crit above 0)` : `flanked (+${FLANKED_CRIT_BONUS} Crit)`) : null,
    input.marked ? 'marked' : null,
    input.dashing ? `target dashing (+${DASH_DODGE_BONUS} Dodge)` : null,
    input.critBonus ? `Crit bonus ${signedCompact(input.critBonus)}` : null,
    input.dodgeBonus ? `Dodge bonus ${signedCompact(input.dodgeBonus)}` : null,
    input.proficient ? 'proficient' : 'not proficient',
  ];
  return `Weapon ${input.weaponBase} base, range ${input.weaponRange} · ${flags.filter(Boolean).join(' · ')}`;
}

/** `tactics:apply:<roll id>`: apply an attack's damage to its target. */
export const tacticsIds = rollActionIds('tactics', ['apply']);
export type ApplyPress = NonNullable<ReturnType<typeof tacticsIds.parse>>;

export function attackEmbed(result: AttackResult, rollId: string, applied: string | null): APIEmbed {
  const color = !result.damage ? COLOR.failure : result.hit === 'critical' ? COLOR.critical : result.hit === 'graze' ? COLOR.graze : COLOR.success;
  const fields = attackSteps(result).map(([name, value]) => ({ name, value: truncate(value, DISCORD_LIMITS.fieldValue) }));
  if (applied) fields.push({ name: 'Applied', value: truncate(applied, DISCORD_LIMITS.fieldValue) });
  return new EmbedBuilder()
    .setColor(color)
    .setTitle(truncate(escapeMarkdown(attackTitle(result)), DISCORD_LIMITS.embedTitle))
    .setDescription(truncate(escapeMarkdown(attackOptions(result)), DISCORD_LIMITS.embedDescription))
    .addFields(fields)
    .setFooter({ text: rollFooter(rollId) })
    .toJSON();
}

export function attackReply(result: AttackResult, rollId: string): ReplyPayload {
  const components: APIActionRowComponent<APIComponentInMessageActionRow>[] =
    result.damage && result.input.target.sheetId !== null
      ? [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Danger, custom_id: tacticsIds.encode({ action: 'apply', rollId }), label: `Apply ${result.damage.final} damage` }] }]
      : [];
  return { embeds: [attackEmbed(result, rollId, null)], components, allowedMentions: NO_PINGS };
}

/** The attack message once its damage is applied: the Health before → after, no button. */
export function appliedMessage(result: AttackResult, rollId: string, line: string): MessageBody {
  return { embeds: [attackEmbed(result, rollId, line)], components: [], allowedMentions: NO_PINGS };
}

/** `3 straight 1 + 1 + 1 = 3`: each square's cost, in the order moved (long runs of one cost as `12 × 1`). */
export function runLine(run: MoveResult['runs'][number]): string {
  const same = run.costs.every((cost) => cost === run.costs[0]);
  const sum = run.costs.length === 1 ? `${run.cost}` : same ? `${run.costs.length} × ${run.costs[0]} = ${run.cost}` : `${run.costs.join(' + ')} = ${run.cost}`;
  return `${runName(run)}: ${sum}`;
}

export function moveLines(result: MoveResult): string[] {
  const { input } = result;
  const lines = result.runs.map(runLine);
  for (const action of input.actions) lines.push(`${action.name}: ${action.cost}`);
  const allowance = input.dash ? `Dash (Full Action: both actions): ${DASH_MULTIPLIER} × ${input.mobility} Mobility = **${result.allowance}**` : `Move (Core Action): ${input.mobility} Mobility = **${result.allowance}**`;
  const squares = `${result.squares} ${result.squares === 1 ? 'square' : 'squares'}`;
  lines.push(input.actions.length > 0 ? `Cost: ${squares} ${result.pathCost} + move actions ${result.actionsCost} = **${result.cost}**` : `Cost: ${squares} = **${result.cost}**`);
  lines.push(allowance);
  lines.push(result.fits ? `**Fits**: ${result.left} left.` : `**Too far**: ${-result.left} over.`);
  if (input.dash) lines.push(`While dashing: +${DASH_DODGE_BONUS} Dodge against reaction actions (\`dashing:true\` on an attack made against you then).`);
  return lines;
}

export function moveReply(result: MoveResult, who: string): ReplyPayload {
  const title = `${result.fits ? '🏃' : '🚫'} ${escapeMarkdown(who)}: ${result.input.dash ? 'Dash' : 'Move'}, ${result.cost} of ${result.allowance} Mobility points${result.fits ? '' : ', too far'}`;
  return { embeds: [embedOf(title, result.fits ? COLOR.success : COLOR.failure, moveLines(result), null).toJSON()], allowedMentions: NO_PINGS };
}

/** /roll replay fields for these kinds. */
export function replayFieldsOfTactics(
  kind: 'check' | 'attack' | 'damage' | 'psi' | 'social' | 'reaction',
  result: CheckResult | AttackResult | DamageRoll | PsiResult | SocialResult | ReactionResult,
): Array<[string, string]> {
  if (kind === 'social') return [['Social Will check', socialLines(result as SocialResult).join('\n')]];
  if (kind === 'reaction') return [[REACTION_WORDS[(result as ReactionResult).input.kind], checkLines((result as ReactionResult).check).join('\n')]];
  if (kind === 'check') {
    const check = result as CheckResult;
    return [[`${check.input.attribute.name} check`, checkLines(check).join('\n')]];
  }
  if (kind === 'psi') return [['Psi check', psiLines(result as PsiResult).join('\n')]];
  if (kind === 'damage') return [['Damage roll', damageLines(result as DamageRoll).join('\n')]];
  const attack = result as AttackResult;
  return [[attackTitle(attack), attackOptions(attack)], ...attackSteps(attack)];
}

export const d100TacticsView = defineSystemView(d100Tactics, {
  start: { sheet: [{ what: 'Add an attribute', command: '/sheet attribute set name:Aim value:60' }], roll: '/tactics check attribute:Aim' },
  replay: {
    check: ({ kind, result }) => replayFieldsOfTactics(kind, result),
    attack: ({ kind, result }) => replayFieldsOfTactics(kind, result),
    damage: ({ kind, result }) => replayFieldsOfTactics(kind, result),
    psi: ({ kind, result }) => replayFieldsOfTactics(kind, result),
    social: ({ kind, result }) => replayFieldsOfTactics(kind, result),
    reaction: ({ kind, result }) => replayFieldsOfTactics(kind, result),
  },
});
