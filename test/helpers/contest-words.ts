/**
 * The contest engine says what it refuses and what it stores (why it ended, why both must confirm again, the
 * Dispatcher's changes) as data; the words are the view's (src/views/contest/words.ts). Tests of the engine read them
 * as the players do.
 */
import { ContestRefusal, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import { contestChangeText, contestEndText, contestNoticeText, contestRefusalText } from '../../src/views/contest/words.js';

/** Runs a step of the engine; a refusal leaves it with the words the presser reads as its message. */
export function inWords<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ContestRefusal) error.message = contestRefusalText(error.refusal);
    throw error;
  }
}

/** A contest with what it stores in words, as its message shows them. */
export function told(state: ContestState): Omit<ContestState, 'endReason' | 'notice' | 'changes'> & { endReason: string | null; notice: string | null; changes: string[] } {
  return { ...state, endReason: contestEndText(state), notice: contestNoticeText(state), changes: state.changes.map(contestChangeText) };
}
