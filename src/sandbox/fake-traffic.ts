// How hard the bot drives the fake Discord's REST API, counted as Discord counts it: every request a bot token
// sends, in any process or on any machine, falls in the one global limit of 50 requests a second, except the
// interaction endpoints (a reply, its edits and follow-ups), which Discord leaves out of it. Kept for tests and the
// scale bench (`npm run bench -- scale`): the peak over any one second, per kind of request and per caller.
import { faultTargetOf, type FaultTarget } from './fake-faults.js';

/** Discord's global rate limit for a bot token: requests a second, summed over every process and machine. */
export const GLOBAL_REQUESTS_PER_SECOND = 50;

/** The interaction endpoints: outside the global limit on Discord. */
const INTERACTION_TARGETS: readonly FaultTarget[] = ['callback', 'followup', 'webhook-message'];

export interface TrafficRequest {
  at: number;
  method: string;
  /** The path after /api/v10. */
  path: string;
  target: FaultTarget;
  /** The shards the caller named in its User-Agent (a shard process), or undefined. */
  shards?: number[];
  /** Whether Discord counts it against the global limit. */
  global: boolean;
}

export interface TrafficSummary {
  /** Requests seen since the last reset. */
  total: number;
  /** Of them, those Discord counts against the global limit. */
  globalTotal: number;
  /** The most global-limit requests within any one second (a sliding window). */
  peakPerSecond: number;
  /** Requests by kind (commands, channel-message, callback …). */
  byTarget: Partial<Record<FaultTarget, number>>;
  /** From the first request to the last, ms. */
  spanMs: number;
}

/** Keeps the requests since the last reset, at most MAX_KEPT (the oldest go first), for a summary. */
const MAX_KEPT = 500_000;

export class FakeTraffic {
  private requests: TrafficRequest[] = [];

  record(method: string, path: string, shards: number[] | undefined, at = Date.now()): TrafficRequest {
    const target = faultTargetOf(method, path);
    const request: TrafficRequest = { at, method, path, target, global: !INTERACTION_TARGETS.includes(target), ...(shards ? { shards } : {}) };
    this.requests.push(request);
    if (this.requests.length > MAX_KEPT) this.requests.splice(0, this.requests.length - MAX_KEPT);
    return request;
  }

  /** The global-limit requests of the last second (before `at`), for a fake that enforces the limit. */
  globalInLastSecond(at = Date.now()): number {
    let count = 0;
    for (let i = this.requests.length - 1; i >= 0; i--) {
      const request = this.requests[i]!;
      if (request.at <= at - 1000) break;
      if (request.global) count++;
    }
    return count;
  }

  all(filter?: (request: TrafficRequest) => boolean): TrafficRequest[] {
    return filter ? this.requests.filter(filter) : [...this.requests];
  }

  summary(filter?: (request: TrafficRequest) => boolean): TrafficSummary {
    const requests = this.all(filter);
    const global = requests.filter((request) => request.global);
    let peak = 0;
    for (let start = 0, end = 0; end < global.length; end++) {
      while (global[end]!.at - global[start]!.at >= 1000) start++;
      peak = Math.max(peak, end - start + 1);
    }
    const byTarget: Partial<Record<FaultTarget, number>> = {};
    for (const request of requests) byTarget[request.target] = (byTarget[request.target] ?? 0) + 1;
    const spanMs = requests.length > 0 ? requests[requests.length - 1]!.at - requests[0]!.at : 0;
    return { total: requests.length, globalTotal: global.length, peakPerSecond: peak, byTarget, spanMs };
  }

  reset(): void {
    this.requests = [];
  }
}
