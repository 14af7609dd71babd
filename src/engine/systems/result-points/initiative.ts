/**
 * Initiative with die codes (seed 002, "Tactical Scene"): "The type of tactical scene determines the initiative
 * order. In a melee combat, initiative order is determined by the fixed value of an ability. In a chase, initiative
 * is determined by relative position. In a debate, initiative is determined by an ability check." A dramatic scene
 * has no initiative ("action happens in order of relevance"): no tracker is offered for one.
 * Readings where the seed is loose: the fixed value of an ability is read as a fixed resistance is (3·N + P of its
 * die code, the seed's table), the highest acting first; a chase's positions are given by the Dispatcher, 1 leading,
 * the lead acting first; a debate's ability check is the combatant's die code rolled once, on joining, the highest
 * total first. Ties go to who joined first (src/engine/initiative.ts).
 */
import { UserError } from '../../../errors.js';
import type { InitiativeRule } from '../../initiative-rule.js';
import type { Rng } from '../../rng.js';
import { fixedResistance, parseDieCode, rollDieCode, type CodeRoll, type DieCode } from './die-code.js';

export const MELEE_RULE: InitiativeRule<'result-points'> = { id: 'melee', system: 'result-points', first: 'highest', cycle: 'round', rolled: 'never' };
export const CHASE_RULE: InitiativeRule<'result-points'> = { id: 'chase', system: 'result-points', first: 'lowest', cycle: 'round', rolled: 'never' };
export const DEBATE_RULE: InitiativeRule<'result-points'> = { id: 'debate', system: 'result-points', first: 'highest', cycle: 'round', rolled: 'on joining' };

/** A fixed value typed as a number: the seed's fixed values stay well inside this. */
export const FIXED_VALUE_MAX = 999;
/** A chase has at most as many positions as a tracker has combatants, with room to spare. */
export const CHASE_POSITION_MAX = 99;

/**
 * Melee: the fixed value of an ability, typed as its die code (`4D+1` → 13, as a fixed resistance: 3·N + P) or as
 * the value itself (0–999).
 */
export function meleeValue(text: string): { value: number; code: DieCode | null } {
  const trimmed = text.trim();
  if (/^[+-]?\d+$/.test(trimmed)) {
    const value = Number(trimmed);
    if (value < 0 || value > FIXED_VALUE_MAX) throw new UserError(`A fixed ability value is a die code (e.g. \`4D+1\`, read 3·N + P) or a number from 0 to ${FIXED_VALUE_MAX}; ${trimmed.slice(0, 20)} is not.`);
    return { value, code: null };
  }
  const code = parseDieCode(trimmed, 'ability’s die code');
  return { value: fixedResistance(code), code };
}

/** A chase position: 1 leads the chase (and acts first), 2 is behind it, and so on. */
export function chasePosition(text: string): number {
  const trimmed = text.trim();
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > CHASE_POSITION_MAX) {
    throw new UserError(`A chase position is a whole number from 1 (leading the chase) to ${CHASE_POSITION_MAX}; \`${trimmed.slice(0, 20)}\` is not.`);
  }
  return value;
}

/** A debate: the die code of the ability each combatant checks, rolled. */
export interface DebateInitiativeInput {
  entries: Array<{ name: string; code: DieCode }>;
}

export interface DebateInitiativeResult {
  entries: Array<{ name: string; roll: CodeRoll }>;
}

/** Rolls each entry's ability check in order: its total is that combatant's initiative. */
export function rollDebateInitiative(input: DebateInitiativeInput, rng: Rng): DebateInitiativeResult {
  return { entries: input.entries.map((entry) => ({ name: entry.name, roll: rollDieCode(entry.code, rng) })) };
}

/** The dice as the roll log stores them: each entry's faces. */
export function debateInitiativeDice(result: DebateInitiativeResult): number[][] {
  return result.entries.map((entry) => entry.roll.dice);
}
