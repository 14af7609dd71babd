/**
 * Interactions take turns: at most `size` handlers run at once, the others wait in arrival order.
 *
 * The whole bot runs on one thread, and Prisma over better-sqlite3 is synchronous underneath, so a burst of
 * handlers started together runs as one long chain of promises that serves no socket until the burst is through:
 * no reply leaves, no gateway frame is read, no timer fires. Measured with 400 presses at once: 3.9 s without a
 * single timer. Taking turns, with a pause for the event loop before each, keeps replies leaving in arrival order,
 * and tells how long a newcomer would wait, so the router can acknowledge it at once instead of letting Discord's
 * 3 s run out while it queues.
 */
export class HandlerTurns {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /**
   * The time between two handlers finishing while others waited (ms), averaged: how fast the queue drains. Each
   * handler's own time says less, since the 8 overlap. It starts at what a roll costs when the bot is busy.
   */
  private drainMs = 2;
  private lastDoneAt = -Infinity;
  /** When the queue last went from empty to waiting: the idle time before it is no handler's. */
  private busySince = 0;

  constructor(private readonly size: number) {}

  /** How long an interaction arriving now would wait for its turn (ms). */
  expectedWaitMs(): number {
    if (this.running < this.size) return 0;
    return (this.waiting.length + 1) * this.drainMs;
  }

  /** Waits for a turn; call the returned function when the handler is done. */
  async take(): Promise<() => void> {
    if (this.running < this.size && this.waiting.length === 0) this.running++;
    else {
      if (this.waiting.length === 0) this.busySince = performance.now();
      await new Promise<void>((resolve) => this.waiting.push(resolve)); // the finishing handler hands its turn over
      // Handed over inside the last handler's chain of promises: let sockets and timers be served first.
      await new Promise((resolve) => setImmediate(resolve));
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const now = performance.now();
      // Only a busy stretch tells the drain rate: time while nobody waited is idle time.
      if (this.waiting.length > 0) this.drainMs = 0.9 * this.drainMs + 0.1 * (now - Math.max(this.lastDoneAt, this.busySince));
      this.lastDoneAt = now;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}
