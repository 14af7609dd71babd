/**
 * What a user reads when an action is refused: a refusal's words (src/views/refusals.ts), any other UserError's
 * message. Tests of the store and the engine assert these, so a refusal's data and its words are checked together.
 */
import { isUserError } from '../../src/errors.js';
import { userErrorText } from '../../src/views/messages.js';

function wordsOf(error: unknown): string {
  if (isUserError(error)) return userErrorText(error);
  throw error;
}

/** The words of the refusal `action` throws; fails when it throws none. */
export function toldSync(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return wordsOf(error);
  }
  throw new Error('expected a refusal, but the action went through');
}

/** The words of the refusal `promise` rejects with; fails when it resolves. */
export async function told(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return wordsOf(error);
  }
  throw new Error('expected a refusal, but the action went through');
}
