/**
 * The notation thread's entry, started by `dice-notation-thread.ts`: the notation library is loaded here, so its
 * second or more of module evaluation holds this thread and never the bot's. Each request is rolled with the same
 * pure `rollDiceNotation` the tests call directly, on an engine built from the seed here, so a seed gives the same
 * dice on either thread.
 */
import { parentPort } from 'node:worker_threads';
import { isUserError } from '../errors.js';
import { loadDiceNotation, notationEngine, rollDiceNotation, type DiceNotationInput, type DiceNotationResult } from './dice-notation.js';

export interface NotationRequest {
  id: number;
  input: DiceNotationInput;
  seed: string;
}

export type NotationReply =
  | { type: 'ready' }
  | { type: 'rolled'; id: number; result: DiceNotationResult }
  /** A UserError: its message is for the user, as it is. */
  | { type: 'refused'; id: number; message: string }
  | { type: 'failed'; id: number; message: string; stack?: string };

function roll({ id, input, seed }: NotationRequest): NotationReply {
  try {
    return { type: 'rolled', id, result: rollDiceNotation(input, notationEngine(seed)) };
  } catch (error) {
    if (isUserError(error)) return { type: 'refused', id, message: error.message };
    const failure = error instanceof Error ? error : new Error(String(error));
    return { type: 'failed', id, message: failure.message, ...(failure.stack ? { stack: failure.stack } : {}) };
  }
}

const port = parentPort;
if (!port) throw new Error('dice-notation-worker runs as a worker thread (see dice-notation-thread.ts)');
await loadDiceNotation();
// Requests sent while the library loaded were queued on the port; they are delivered from here on.
port.on('message', (request: NotationRequest) => port.postMessage(roll(request)));
port.postMessage({ type: 'ready' } satisfies NotationReply);
