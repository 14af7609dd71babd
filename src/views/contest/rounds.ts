/**
 * A contest's dice in words (RULES 1.6): the odds as percentages, each side's roll against the CL the other side's
 * aptitude sets (also what `/roll replay` shows, views/tactalk.ts), why a round ended as it did, and the parts of a
 * linked roll that stand. The contest's message and a round's result message both show them.
 */
import type { APIEmbedField } from 'discord.js';
import { isLinkedRoll, type ContestPartRoll, type ContestRound, type ContestSideName, type ContestSideRoll, type ContestState } from '../../engine/systems/tactalk/contest.js';
import { escapeMarkdown, formatD100, formatTerms } from '../format.js';
import { field, shortName } from './view.js';

/**
 * `ways` of `outOf` as a percentage. Exact whenever it has at most 4 decimals (always with one D100 a side, and with
 * a linked side of two skills against one); a longer one is rounded to 4 decimals and says so with ≈.
 */
export function percentOf(ways: bigint, outOf: bigint): string {
  const scaled = ways * 1_000_000n; // the percentage × 10^4
  const exact = scaled % outOf === 0n;
  const tenThousandths = exact ? scaled / outOf : (scaled * 2n + outOf) / (2n * outOf);
  let decimals = (tenThousandths % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  if (decimals.length === 1) decimals += '0';
  return `${exact ? '' : '≈'}${tenThousandths / 10_000n}${decimals ? `.${decimals}` : ''}%`;
}

function verdict(success: boolean): string {
  return success ? '✅ success' : '❌ failure';
}

/** The skill whose aptitude is a side's CL for the other: its one skill, or a linked side's highest. */
function aptitudeSkill(roll: ContestSideRoll): { name: string; level: number } {
  const skills = isLinkedRoll(roll) ? roll.linked.map((part) => part.skill) : [roll.skill];
  return skills.reduce((best, skill) => (skill.level > best.level ? skill : best));
}

/**
 * One D100 and its sum: the D100 plus what this side adds (archetypes, conditions, the situational modifier, its own
 * skill only under the house rule) = total, against the CL, which is the other side's aptitude and is named as such.
 */
function partLine(part: ContestPartRoll, against?: { roll: ContestSideRoll; name: string }): string {
  const source = against ? ` (${escapeMarkdown(against.name)}'s ${escapeMarkdown(aptitudeSkill(against.roll).name)})` : '';
  return `${part.d100.value} (D100)${formatTerms(part.terms)} = **${part.result}** vs CL ${part.challengeLevel}${source} → ${verdict(part.success)}`;
}

/**
 * A side's roll as the result and `/roll replay` show it: the skills (the field's title) and the dice. A side's own
 * aptitude is not part of its sum (it is the other side's CL), so the title names the skill without it and the CL
 * says whose skill it is. A linked side shows each part on its own line, then "N of M succeeded".
 */
export function contestSideRollText(roll: ContestSideRoll, against?: { roll: ContestSideRoll; name: string }): { skills: string; dice: string } {
  if (!isLinkedRoll(roll)) return { skills: roll.skill.name, dice: `🎲 \`${formatD100(roll.d100)}\`\n${partLine(roll, against)}` };
  const lines = roll.linked.map((part, index) => `${index + 1}. **${escapeMarkdown(part.skill.name)}** 🎲 \`${formatD100(part.d100)}\`\n${partLine(part, against)}`);
  const summary = `**${roll.succeeded} of ${roll.linked.length} succeeded** → ${verdict(roll.success)}${roll.success ? '' : ' (a linked roll succeeds only if every part does)'}`;
  return { skills: `linked roll: ${roll.linked.map((part) => part.skill.name).join(' + ')}`, dice: [...lines, summary].join('\n') };
}

export function roundField(state: ContestState, round: ContestRound, side: ContestSideName): APIEmbedField {
  const roll = round[side];
  const otherSide = side === 'challenger' ? 'opponent' : 'challenger';
  const { skills, dice } = contestSideRollText(roll, { roll: round[otherSide], name: shortName(state, otherSide) });
  return field(`${shortName(state, side)} (${roll.role}): ${skills}`, dice, true);
}

/**
 * Why the round ended as it did (RULES 1.6): "Both succeeded: the defender wins." A round rolled before both failing
 * meant nothing changes says how it was decided then.
 */
export function whyLine(state: ContestState, round: ContestRound): string {
  const name = (side: ContestSideName) => escapeMarkdown(shortName(state, side));
  const [c, o] = [round.challenger.success, round.opponent.success];
  if (c !== o) return c ? `${name('challenger')} succeeded and ${name('opponent')} failed.` : `${name('opponent')} succeeded and ${name('challenger')} failed.`;
  const both = c ? 'Both succeeded' : 'Both failed';
  if (round.winner === 'tie') return `${both} and both are attackers: a tie.`;
  if (round.winner === 'nobody') return 'Both failed: nothing changes.';
  return c ? `${both}: the defender wins.` : `${both}: the defender wins (as both failing was read when this round was rolled).`;
}

/**
 * Both failed with a defender (RULES 1.6, reading revised): nobody wins. The attacker's intent fails, and the defender's
 * stated outcome does not happen either.
 */
export function nothingChangesLines(state: ContestState, round: ContestRound): string[] {
  const attacker: ContestSideName = round.challenger.role === 'attacker' ? 'challenger' : 'opponent';
  const defender: ContestSideName = attacker === 'challenger' ? 'opponent' : 'challenger';
  const [a, d] = [escapeMarkdown(shortName(state, attacker)), escapeMarkdown(shortName(state, defender))];
  return [`🚫 **Both failed: nothing changes.** ${a}'s intent fails, and ${d}'s stated outcome does not happen either.`];
}

/** A round's outcome in a few words: "Kat wins", "a tie", "nothing changes". */
export function outcomeWords(state: ContestState, round: ContestRound): string {
  if (round.winner === 'tie') return 'a tie';
  if (round.winner === 'nobody') return 'both failed, nothing changes';
  return `${shortName(state, round.winner)} wins`;
}

/** RULES 1.3: a part that succeeded stands even when its linked roll, and with it the contest, was lost. */
export function standingSuccesses(state: ContestState, round: ContestRound): string[] {
  return (['challenger', 'opponent'] as const).flatMap((side) => {
    const roll = round[side];
    if (!isLinkedRoll(roll) || roll.success || roll.succeeded === 0) return [];
    const succeeded = roll.linked.filter((part) => part.success).map((part) => `**${escapeMarkdown(part.skill.name)}**`);
    return [`${escapeMarkdown(shortName(state, side))}'s linked roll failed, but ${succeeded.join(', ')} succeeded: ${succeeded.length > 1 ? 'those parts stand' : 'that part stands'}, exactly as described.`];
  });
}
