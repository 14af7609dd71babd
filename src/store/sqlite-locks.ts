/**
 * Waiting for a locked SQLite database without freezing the process.
 *
 * better-sqlite3 is synchronous: with SQLite's own busy timeout, a statement that meets another process's write lock
 * sleeps inside the call, and the whole event loop with it (no other interaction, no gateway heartbeat, no timer to
 * defer an interaction in time). So SQLite gives up at once (busy timeout 0) and the wait happens here, between
 * attempts, on timers. Where it is safe to try again:
 * - a statement outside a transaction: one that failed with SQLITE_BUSY / SQLITE_LOCKED changed nothing;
 * - BEGIN IMMEDIATE: a transaction takes the write lock before its first statement, so it either starts with the
 *   lock (and then meets no busy error: in WAL mode only writers block writers) or has done nothing. A deferred
 *   BEGIN would read first and could fail at its first write with SQLITE_BUSY_SNAPSHOT, which no retry can mend;
 * - COMMIT: SQLite keeps the transaction open when COMMIT fails with SQLITE_BUSY.
 *
 * Loads no driver: the bot's error handling uses DatabaseBusyError on either database.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AsyncQueue } from '@sapphire/async-queue';
import { UserError } from '../errors.js';

/** How long a caller may wait for the database in all, before being told it is busy. */
export const BUSY_WAIT_BUDGET_MS = 10_000;
/** SQLite's own (synchronous, event-loop-freezing) wait: none; see above. */
export const SQLITE_BUSY_TIMEOUT_MS = 0;
/** Pause between attempts: doubles from the first to the last, with jitter so waiters do not move in step. */
const RETRY_FIRST_MS = 4;
const RETRY_MAX_MS = 50;

/** The database stayed locked (by another program) for longer than the bot waits: shown to the user as is. */
export class DatabaseBusyError extends UserError {
  constructor(readonly waitedMs: number) {
    super('The bot’s database is busy right now (another program is holding it), so this could not be done. Please try again in a moment.');
  }
}

export function isDatabaseBusyError(error: unknown): error is DatabaseBusyError {
  return error instanceof DatabaseBusyError;
}

/**
 * A lock conflict as the adapter reports it: SQLITE_BUSY becomes a DriverAdapterError whose cause carries the
 * original code; the extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_…) are not mapped and arrive as
 * better-sqlite3's own SqliteError with `code`.
 */
function isLockConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, cause } = error as { code?: unknown; cause?: { originalCode?: unknown } };
  const original = typeof cause === 'object' && cause !== null ? cause.originalCode : undefined;
  return [code, original].some((value) => typeof value === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(value));
}

/** Runs `attempt` until it gets past lock conflicts or `deadline` (performance.now()) passes. */
export async function whileLocked<T>(attempt: () => Promise<T>, deadline = performance.now() + BUSY_WAIT_BUDGET_MS, started = performance.now()): Promise<T> {
  for (let pause = RETRY_FIRST_MS; ; pause = Math.min(pause * 2, RETRY_MAX_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isLockConflict(error)) throw error;
      const left = deadline - performance.now();
      if (left <= 0) throw new DatabaseBusyError(Math.round(performance.now() - started));
      await sleep(Math.min(left, pause * (0.75 + Math.random() / 2)));
    }
  }
}

/** One transaction at a time on the transaction connection, first come first served, each waiting until its deadline. */
export class TransactionTurns {
  private readonly queue = new AsyncQueue();

  /** Waits for the turn; call the returned function once the transaction is over. */
  async take(deadline: number, started: number): Promise<() => void> {
    // Only a transaction that finds others in line waits, until its deadline (a timer is not worth it otherwise).
    const giveUp = this.queue.remaining > 0 ? AbortSignal.timeout(Math.max(0, Math.ceil(deadline - performance.now()))) : undefined;
    try {
      await this.queue.wait({ signal: giveUp });
    } catch {
      // Still in line at the deadline: the queue has dropped this waiter.
      throw new DatabaseBusyError(Math.round(performance.now() - started));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Hands the turn straight to the first in line.
      this.queue.shift();
    };
  }
}
