/**
 * Interactions take turns: at most `size` handlers run at once, the others wait in a fair order (fair-order.ts):
 * servers take turns, and inside a server members do, so a member with nothing queued goes ahead of a flooder's
 * backlog. Heavy work (heavy-work.ts) runs one at a time per member: a member's second import waits behind the
 * first without holding a turn, so a flood of imports holds at most one of the `size` turns.
 *
 * The whole bot runs on one thread, and Prisma over better-sqlite3 is synchronous underneath, so a burst of
 * handlers started together runs as one long chain of promises that serves no socket until the burst is through:
 * no reply leaves, no gateway frame is read, no timer fires. Measured with 400 presses at once: 3.9 s without a
 * single timer. Taking turns, with a pause for the event loop before each, keeps replies leaving, and tells how
 * long a newcomer would wait, so the router can acknowledge it at once instead of letting Discord's 3 s run out
 * while it queues.
 */
import { AsyncQueue } from '@sapphire/async-queue';
import { FairOrder } from './fair-order.js';

/** Who asks for a turn, and whether for heavy work. */
export interface TurnClaim {
  server: string;
  member: string;
  heavy?: boolean;
}

/** The most one handler's gap may count, as a multiple of the drain rate learnt so far (plus 1 ms). */
const DRAIN_STEP_MOST = 4;

const pauseForTheEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class HandlerTurns {
  private running = 0;
  private readonly waiting = new FairOrder<() => void>();
  /**
   * Members with a heavy handler running or waiting for its turn, each with the heavy ones waiting behind it, first
   * come first served (they hold no turn and are in no fair line until the one ahead is done).
   */
  private readonly heavyLines = new Map<string, AsyncQueue>();
  /**
   * The time between two handlers finishing while others waited (ms), averaged: how fast the queue drains. Each
   * handler's own time says less, since the 8 overlap. It starts at what a roll costs when the bot is busy.
   */
  private drainMs = 2;
  private lastDoneAt = -Infinity;
  /** When the queue last went from empty to waiting: the idle time before it is no handler's. */
  private busySince = 0;
  /**
   * How long a heavy handler holds its member's heavy line, from joining the fair line to done (ms), averaged: how
   * long each heavy one ahead in that line delays the next. It starts at what an 88 kB sheet import costs.
   */
  private heavyMs = 50;

  /** `now` is the clock the drain rate is learned from (tests pass their own, so no test depends on real time). */
  constructor(
    private readonly size: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** How long an interaction arriving now would wait for its turn (ms): its place in the fair order. */
  expectedWaitMs(claim: TurnClaim): number {
    const heavyAhead = claim.heavy ? this.heavyAhead(claim.member) : 0;
    if (this.running < this.size && this.waiting.size === 0) return heavyAhead * this.heavyMs;
    return heavyAhead * this.heavyMs + (this.waiting.placeOfNewcomer(claim.server, claim.member) + 1) * this.drainMs;
  }

  /** Waits for a turn; call the returned function when the handler is done. */
  async take(claim: TurnClaim): Promise<() => void> {
    const heavy = claim.heavy === true;
    if (heavy) {
      let line = this.heavyLines.get(claim.member);
      if (!line) this.heavyLines.set(claim.member, (line = new AsyncQueue()));
      const behindAnother = line.remaining > 0;
      const place = line.wait();
      // First in line, the place is its own now: not awaited, so it asks for a turn in the order it came.
      if (behindAnother) {
        await place; // the member's previous heavy one hands its place over (passHeavyLine)
        await pauseForTheEventLoop();
      }
    }
    const joined = this.now();
    if (this.running < this.size && this.waiting.size === 0) {
      this.running++;
      this.waiting.countTurn(claim.server, claim.member);
    } else {
      if (this.waiting.size === 0) this.busySince = this.now();
      await new Promise<void>((resolve) => this.waiting.push(claim.server, claim.member, resolve)); // the finishing handler hands its turn over
      // Handed over inside the last handler's chain of promises: let sockets and timers be served first.
      await pauseForTheEventLoop();
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const now = this.now();
      // Only a busy stretch tells the drain rate: time while nobody waited is idle time. One stall (a GC pause, a
      // slow first query) is one sample: it may raise the estimate a step, not tenfold, or every newcomer of a burst
      // would be acknowledged first and cost a second call each, while the queue drains as fast as ever. A real
      // slowdown is learnt over a few handlers; until then the responder's own deferral covers a late answer.
      if (this.waiting.size > 0) this.drainMs = 0.9 * this.drainMs + 0.1 * Math.min(now - Math.max(this.lastDoneAt, this.busySince), DRAIN_STEP_MOST * this.drainMs + 1);
      this.lastDoneAt = now;
      if (heavy) {
        this.heavyMs = 0.8 * this.heavyMs + 0.2 * (now - joined);
        this.passHeavyLine(claim.member);
      }
      const next = this.waiting.shift();
      if (next) next();
      else if (--this.running === 0) this.waiting.forget();
    };
  }

  /** Heavy handlers of `member` that a new one would wait behind: the one in flight and those queued after it. */
  private heavyAhead(member: string): number {
    return this.heavyLines.get(member)?.remaining ?? 0;
  }

  private passHeavyLine(member: string): void {
    const line = this.heavyLines.get(member);
    line?.shift();
    if (line?.remaining === 0) this.heavyLines.delete(member);
  }
}
