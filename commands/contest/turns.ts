/**
 * Presses on one contest are handled one at a time in this process, from the reload to the message's update. Two
 * presses answered at once race over HTTP, and the older state could land on the message last: the stored contest
 * would be a step ahead of the buttons everyone sees (the compare-and-set keeps the stored state right across
 * processes; this keeps the message right). The expiry sweep takes its turn too.
 */
import { AsyncQueue } from '@sapphire/async-queue';
import type { BotServices } from '../../src/discord/command.js';

/** Tries of one save against presses that saved first; each try re-decides on the new state. */
export const SAVE_ATTEMPTS = 5;

const contestTurns = new Map<number, AsyncQueue>();

/** In this process's turn, then (PostgreSQL) the store's turn across processes: a shard moved mid-press meets itself. */
export function inTurn<T>(store: BotServices['store'], contestId: number, work: () => Promise<T>): Promise<T> {
  return inProcessTurn(contestId, () => store.contests.inTurn(contestId, work));
}

async function inProcessTurn<T>(contestId: number, work: () => Promise<T>): Promise<T> {
  let queue = contestTurns.get(contestId);
  if (!queue) contestTurns.set(contestId, (queue = new AsyncQueue()));
  await queue.wait();
  try {
    return await work();
  } finally {
    queue.shift();
    // Nobody left in line: the next press starts a new queue.
    if (queue.remaining === 0) contestTurns.delete(contestId);
  }
}
