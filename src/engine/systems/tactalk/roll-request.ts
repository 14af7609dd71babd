/**
 * A Dispatcher's request for a player's roll (RULES 1.5): the challenge (or linked challenges), possibly with a
 * hidden CL, answered once by the player's *Roll*; before that the player may investigate a hidden CL once.
 * Pure: who may do what, and the new state.
 */
import { UserError } from '../../../errors.js';
import type { ChallengeResult } from './challenge.js';
import type { LinkedRollPart } from './linked-notation.js';

export type RollRequestPhase = 'open' | 'rolled' | 'cancelled';

export interface RollRequestState {
  kind: 'challenge' | 'linked';
  dispatcherId: string;
  playerId: string;
  /** One part for a challenge; two or more for a linked roll. */
  parts: LinkedRollPart[];
  hidden: boolean;
  /** The investigation table for a hidden challenge (named by the Dispatcher, or "Investigation: <skill>"). */
  investigationTable: string | null;
  phase: RollRequestPhase;
  investigation: { rollId: string; rowText: string; revealed: string | null } | null;
  result: { rollId: string | null; succeeded: number; total: number; operatorName: string; results: ChallengeResult[] } | null;
}

export class RollRequestRefusal extends UserError {}

export function newRollRequest(input: Omit<RollRequestState, 'phase' | 'investigation' | 'result'>): RollRequestState {
  if (input.kind === 'linked' && input.investigationTable) {
    throw new UserError('A linked roll allows no investigation (RULES 1.5): leave `investigation` out.');
  }
  return { ...input, phase: 'open', investigation: null, result: null };
}

function requireOpen(state: RollRequestState): void {
  if (state.phase === 'rolled') throw new RollRequestRefusal('This roll has already been made.');
  if (state.phase === 'cancelled') throw new RollRequestRefusal('This request was cancelled by the Dispatcher.');
}

export function requirePlayer(state: RollRequestState, userId: string): void {
  if (userId !== state.playerId) throw new RollRequestRefusal(`This roll is for <@${state.playerId}> only.`);
}

/** Whether the player may still investigate: a hidden single challenge, not investigated, not rolled. */
export function mayInvestigate(state: RollRequestState): boolean {
  return state.phase === 'open' && state.kind === 'challenge' && state.hidden && state.investigation === null;
}

export function checkInvestigation(state: RollRequestState, userId: string): void {
  requirePlayer(state, userId);
  requireOpen(state);
  if (state.kind === 'linked') throw new RollRequestRefusal('A linked roll allows no investigation.');
  if (!state.hidden) throw new RollRequestRefusal('The Challenge Level is not hidden: there is nothing to investigate.');
  if (state.investigation) throw new RollRequestRefusal('You have already investigated this challenge.');
}

export function recordInvestigation(state: RollRequestState, userId: string, investigation: NonNullable<RollRequestState['investigation']>): RollRequestState {
  checkInvestigation(state, userId);
  return { ...state, investigation };
}

export function checkRoll(state: RollRequestState, userId: string): void {
  requirePlayer(state, userId);
  requireOpen(state);
}

export function recordRoll(state: RollRequestState, userId: string, result: NonNullable<RollRequestState['result']>): RollRequestState {
  checkRoll(state, userId);
  return { ...state, phase: 'rolled', result };
}

export function cancelRollRequest(state: RollRequestState, isDispatcher: boolean): RollRequestState {
  if (!isDispatcher) throw new RollRequestRefusal('Only a Dispatcher can cancel a roll request.');
  requireOpen(state);
  return { ...state, phase: 'cancelled' };
}
