/**
 * /stats' numbers and chart made on a thread of their own (`stats-worker.ts`): the exact distribution of 10,000
 * rolls takes ~180 ms and the chart ~50 ms of synchronous work, which on the bot's thread would hold every other
 * interaction meanwhile. The thread starts with the first /stats and then stays, idle and unreferenced, for the next.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Far beyond the quarter second a full answer takes; a hung thread must not leave /stats waiting for ever. */
const TIME_LIMIT_MS = 30_000;

export interface StatsRequest {
  id: number;
  /** Oldest first. */
  weighed: Array<{ odds: number; success: boolean }>;
  faces: number[];
}

export interface StatsSummary {
  rolls: number;
  got: number;
  expected: number;
  spread: number;
  pValue: number;
  faces: number;
  bins: number[];
  /** The faces' chi-square against an even die; null with too few faces to judge. */
  evenness: { statistic: number; pValue: number } | null;
}

export type StatsReply =
  | { type: 'done'; id: number; summary: StatsSummary; png: Uint8Array }
  | { type: 'failed'; id: number; message: string; stack?: string };

interface Waiting {
  resolve(reply: { summary: StatsSummary; png: Buffer }): void;
  reject(error: Error): void;
}

/** The worker's entry beside this file: `.ts` from source (tsx, vitest), `.js` when built. */
function startWorker(): Worker {
  const entry = new URL(`./stats-worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  // tsx's hooks do not reach worker threads on Node 20: from source the thread registers them itself.
  if (entry.pathname.endsWith('.ts')) {
    const tsx = import.meta.resolve('tsx/esm/api');
    const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
    return new Worker(bootstrap, { eval: true, execArgv: [] });
  }
  return new Worker(entry, { execArgv: [] });
}

class StatsThread {
  private readonly worker = startWorker();
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private stopped = false;

  constructor(private readonly onStop: () => void) {
    this.worker.on('message', (reply: StatsReply) => this.answer(reply));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new Error(`the stats thread stopped (exit code ${code})`)));
  }

  run(weighed: StatsRequest['weighed'], faces: number[]): Promise<{ summary: StatsSummary; png: Buffer }> {
    const id = this.nextId++;
    const limit = setTimeout(() => this.stop(new Error(`the stats thread did not answer within ${TIME_LIMIT_MS / 1000} s`)), TIME_LIMIT_MS);
    limit.unref();
    return new Promise<{ summary: StatsSummary; png: Buffer }>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, weighed, faces } satisfies StatsRequest);
    }).finally(() => clearTimeout(limit));
  }

  private answer(reply: StatsReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    // An idle thread must not keep the process alive.
    if (this.waiting.size === 0) this.worker.unref();
    if (reply.type === 'done') waiting.resolve({ summary: reply.summary, png: Buffer.from(reply.png) });
    else {
      const failure = new Error(`/stats failed on its thread: ${reply.message}`);
      if (reply.stack) failure.stack = reply.stack;
      waiting.reject(failure);
    }
  }

  private stop(error: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
    this.onStop();
    void this.worker.terminate();
  }
}

let thread: StatsThread | null = null;

/** The scope's numbers and its chart (PNG), worked out on the stats thread. */
export function statsOffThread(weighed: StatsRequest['weighed'], faces: number[]): Promise<{ summary: StatsSummary; png: Buffer }> {
  const started =
    thread ??
    new StatsThread(() => {
      if (thread === started) thread = null;
    });
  thread = started;
  return started.run(weighed, faces);
}
