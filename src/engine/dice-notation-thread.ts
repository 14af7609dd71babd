/**
 * Dice notation rolled on a worker thread of its own (`dice-notation-worker.ts`).
 *
 * The notation library brings mathjs: ~100 MB and a second or more of module evaluation, which is synchronous. On
 * the bot's one thread that held every interaction arriving meanwhile (one was deferred at 3,018 ms on a loaded
 * machine, too late for Discord). On its own thread it holds nothing but the notation rolls that wait for it; the
 * bot's thread only sends the expression and the seed, and gets the plain result back.
 *
 * The thread starts on the first notation roll (or replay of one), not with the bot: a server that never rolls
 * notation never pays its memory or its load. One thread serves the whole process; it keeps nothing between rolls
 * but the loaded library. No I/O beyond that thread happens here, so it sits with the engine it runs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { UserError } from '../errors.js';
import type { DiceNotationInput, DiceNotationResult } from './dice-notation.js';
import type { NotationReply, NotationRequest } from './dice-notation-worker.js';

/** Loading included: far beyond the second or two a load takes, well inside an interaction's 15 minutes. */
const ROLL_TIME_LIMIT_MS = 30_000;

interface Waiting {
  resolve(result: DiceNotationResult): void;
  reject(error: Error): void;
}

/** The worker's entry beside this file: `.ts` when run from source (tsx, vitest), `.js` when built. */
function startWorker(): Worker {
  const entry = new URL(`./dice-notation-worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  // The thread needs none of the bot's preloads, and on Node 20 an inherited `--import` of a .ts file would fail
  // there: tsx's hooks do not reach worker threads, so from source the thread registers them itself.
  if (entry.pathname.endsWith('.ts')) {
    const tsx = import.meta.resolve('tsx/esm/api');
    const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
    return new Worker(bootstrap, { eval: true, execArgv: [] });
  }
  return new Worker(entry, { execArgv: [] });
}

class NotationThread {
  /** Settles once the library is loaded on the thread; rejects if the thread stopped before. */
  readonly ready: Promise<void>;
  loaded = false;
  private readonly worker = startWorker();
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private stopped = false;
  private markReady!: () => void;
  private markFailed!: (error: Error) => void;

  constructor(private readonly onStop: () => void) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.markReady = resolve;
      this.markFailed = reject;
    });
    // Nobody need wait for `ready`: the rolls waiting on the thread learn of a failure through their own promises.
    this.ready.catch(() => undefined);
    this.worker.on('message', (reply: NotationReply) => this.answer(reply));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new Error(`the dice-notation thread stopped (exit code ${code})`)));
  }

  roll(input: DiceNotationInput, seed: string): Promise<DiceNotationResult> {
    const id = this.nextId++;
    // A thread that hangs (it loads a large library on a machine that may be starved) must not leave rolls waiting
    // for ever: past the limit it is stopped, what waits on it fails, and the next roll starts a new one.
    const limit = setTimeout(() => this.stop(new Error(`the dice-notation thread did not answer within ${ROLL_TIME_LIMIT_MS / 1000} s`)), ROLL_TIME_LIMIT_MS);
    limit.unref();
    return new Promise<DiceNotationResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, input, seed } satisfies NotationRequest);
    }).finally(() => clearTimeout(limit));
  }

  private answer(reply: NotationReply): void {
    if (reply.type === 'ready') {
      this.loaded = true;
      this.markReady();
      this.unrefWhenIdle();
      return;
    }
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    this.unrefWhenIdle();
    if (reply.type === 'rolled') waiting.resolve(reply.result);
    else if (reply.type === 'refused') waiting.reject(new UserError(reply.message));
    else {
      const failure = new Error(`dice notation failed on its thread: ${reply.message}`);
      // The thread's own stack says where; this one would only show the message port.
      if (reply.stack) failure.stack = reply.stack;
      waiting.reject(failure);
    }
  }

  /** A loading thread, or one with rolls to answer, keeps the process alive; an idle one must not. */
  private unrefWhenIdle(): void {
    if (this.loaded && this.waiting.size === 0) this.worker.unref();
  }

  /** The thread died or could not load the library: what waits on it fails, and the next roll starts a new one. */
  private stop(error: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    this.markFailed(error);
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
    this.onStop();
    void this.worker.terminate();
  }
}

let thread: NotationThread | null = null;

function current(): NotationThread {
  const started = thread ?? new NotationThread(() => {
    if (thread === started) thread = null;
  });
  thread = started;
  return started;
}

/**
 * Starts the thread if it is not running; resolves once it has loaded the library. Commands need not call it
 * (rolling starts it); it is for whoever wants the first roll to meet a loaded library.
 */
export function startDiceNotationThread(): Promise<void> {
  return current().ready;
}

/** Whether a roll now would be answered at once: the thread runs and has loaded the library. */
export function diceNotationThreadReady(): boolean {
  return thread?.loaded === true;
}

/**
 * `rollDiceNotation(input, notationEngine(seed))`, run on the notation thread: the same dice for the same input and
 * seed. Rejects with a UserError for anything wrong with the expression, as `rollDiceNotation` throws one.
 */
export function rollDiceNotationOffThread(input: DiceNotationInput, seed: string): Promise<DiceNotationResult> {
  return current().roll(input, seed);
}
