/**
 * The seed's sample actions (seed 004, "Sample Actions") and the two of them that change a roll: aiming adds +1 per
 * phase, for at most 3 phases; fastdraw is a skill roll that makes drawing a weapon a free action, or loses this
 * phase's action. When an action resolves, and who declares first, is the initiative tracker's (initiative.ts).
 */
import { UserError } from '../../../errors.js';
import type { Modifier } from '../tactalk/challenge.js';

/** How long an action takes: a free action fits in any phase beside one other action. */
export type ActionTime = 'free' | 'phase' | 'round' | 'turn' | 'minute';

export interface SampleAction {
  name: string;
  time: ActionTime;
  /**
   * Whether taking it again over more periods adds to its effect: false (no), true (yes, no limit given) or the
   * number of periods that still add.
   */
  cumulative: boolean | number;
  notes: string;
}

/** The seed's table, as written. */
export const SAMPLE_ACTIONS = [
  { name: 'Fastdraw', time: 'free', cumulative: false, notes: 'makes drawing a weapon a free action if successful; if failed, this phase’s action is lost.' },
  { name: 'Ready Firearm', time: 'free', cumulative: false, notes: 'if required, this cocks or otherwise prepares a gun to fire.' },
  { name: 'Speak', time: 'free', cumulative: true, notes: 'a short phrase (how much can you say in 3 seconds?)' },
  { name: 'Aiming', time: 'phase', cumulative: 3, notes: '+1 per Phase' },
  { name: 'Firing Semi-Auto', time: 'phase', cumulative: false, notes: '' },
  { name: 'Draw Weapon', time: 'phase', cumulative: false, notes: '' },
  { name: 'Targeting', time: 'phase', cumulative: false, notes: 'allows accurate firing at a new target.' },
] as const satisfies readonly SampleAction[];

export const AIM_BONUS_PER_PHASE = 1;
/** The table's cumulative column for Aiming: the phases of aiming that still add. */
export const AIM_PHASES_THAT_ADD: number = SAMPLE_ACTIONS.find((action) => action.name === 'Aiming')!.cumulative;
/** A minute of aiming (20 phases) is the most a roll accepts; only the first 3 phases add anyway. */
export const AIM_PHASES_MAX = 20;

export function validateAimPhases(phases: number): void {
  if (!Number.isInteger(phases) || phases < 0 || phases > AIM_PHASES_MAX) {
    throw new UserError(`Phases of aiming must be a whole number from 0 to ${AIM_PHASES_MAX}; ${phases} is not.`);
  }
}

/** +1 per phase of aiming, for at most 3 phases; phases past those are taken but add nothing (the table's 3). */
export function aimingTerm(phases: number): Modifier | null {
  if (phases === 0) return null;
  const adding = Math.min(phases, AIM_PHASES_THAT_ADD);
  const name = phases > AIM_PHASES_THAT_ADD ? `aiming (${phases} phases, only ${AIM_PHASES_THAT_ADD} add)` : `aiming (${phases} ${phases === 1 ? 'phase' : 'phases'})`;
  return { name, value: adding * AIM_BONUS_PER_PHASE };
}

/**
 * What a fastdraw roll did to the phase. It is the phase's free action either way; a success draws the weapon with
 * it, so the phase action is still to declare (the seed's Earl); anything less (a partial success too: the draw
 * either is fast or is not) loses this phase's action.
 */
export type FastdrawOutcome = 'drawn as a free action' | 'phase action lost';

/** `result`: a pool roll's verdict (only whether it succeeded counts), so this file does not import the roll's shape back. */
export function fastdrawOutcome(result: { success: boolean | null }): FastdrawOutcome {
  return result.success ? 'drawn as a free action' : 'phase action lost';
}
