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

  /** The global-limit requests that arrived after `from` and by `to`, oldest first. */
  globalWithin(from: number, to: number): TrafficRequest[] {
    const found: TrafficRequest[] = [];
    // Requests are kept in the order they were handled; one whose body took longer to read may sit after a later
    // arrival, so the scan runs a second further back than the window.
    for (let i = this.requests.length - 1; i >= 0; i--) {
      const request = this.requests[i]!;
      if (request.at <= from - 1000) break;
      if (request.global && request.at > from && request.at <= to) found.push(request);
    }
    return found.sort((a, b) => a.at - b.at);
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

/** How long after a global 429 a request may still be one the caller sent before it read the 429 (on the wire). */
export const GLOBAL_429_IN_FLIGHT_MS = 100;

/** A request the fake answered with a global 429 of its own (FakeDiscordOptions.enforceGlobalLimit). */
export interface GlobalLimitHit {
  /** Date.now() when the request arrived. */
  at: number;
  method: string;
  /** The path after /api/v10. */
  path: string;
  /** The shards its caller named in its User-Agent, or undefined. */
  shards?: number[];
  /**
   * `over-limit`: past 50 global-limit requests within a second; `during-429`: it came while an earlier global 429
   * (the limit's own, or an injected one) still ran.
   */
  cause: 'over-limit' | 'during-429';
  /** The retry_after it was given, ms. */
  retryAfterMs: number;
  /**
   * It came while a global 429 given earlier still ran, later than GLOBAL_429_IN_FLIGHT_MS after it: the bot (some
   * process of it) did not wait, which is also logged as a violation.
   */
  ignoredA429: boolean;
}

/** What the global limit says about one request: go on, or the 429 to answer. */
export type GlobalLimitVerdict = { limited: false } | { limited: true; hit: GlobalLimitHit };

/**
 * Discord's global limit enforced: a global-limit request past GLOBAL_REQUESTS_PER_SECOND within the last second is
 * answered with a global 429 (its retry_after: until the window has room), and every global-limit request while a
 * global 429 runs is answered 429 too. Interaction endpoints pass, as on Discord.
 */
export class GlobalRateLimit {
  private readonly hitsSeen: GlobalLimitHit[] = [];
  /** The global 429 that runs longest: when it was given and when it ends. */
  private running: { givenAt: number; until: number } | undefined;

  constructor(private readonly traffic: FakeTraffic) {}

  /** Every request answered with the limit's 429, oldest first. */
  get hits(): readonly GlobalLimitHit[] {
    return this.hitsSeen;
  }

  /** A global 429 was given (by the limit, or by a fault rule): until it ends, global-limit requests are refused. */
  given(at: number, retryAfterMs: number): void {
    const until = at + retryAfterMs;
    if (!this.running || until > this.running.until) this.running = { givenAt: at, until };
  }

  /** For a request just recorded in the traffic (so it counts itself). */
  check(request: TrafficRequest): GlobalLimitVerdict {
    if (!request.global) return { limited: false };
    const running = this.running && request.at < this.running.until ? this.running : undefined;
    if (running) {
      const hit = this.hit(request, 'during-429', running.until - request.at, request.at - running.givenAt > GLOBAL_429_IN_FLIGHT_MS);
      return { limited: true, hit };
    }
    const window = this.traffic.globalWithin(request.at - 1000, request.at);
    if (window.length <= GLOBAL_REQUESTS_PER_SECOND) return { limited: false };
    // Room comes back when enough of the window's requests are older than a second.
    const freeing = window[window.length - 1 - GLOBAL_REQUESTS_PER_SECOND]!;
    const hit = this.hit(request, 'over-limit', Math.max(1, freeing.at + 1000 - request.at), false);
    this.given(request.at, hit.retryAfterMs);
    return { limited: true, hit };
  }

  reset(): void {
    this.hitsSeen.length = 0;
    this.running = undefined;
  }

  private hit(request: TrafficRequest, cause: GlobalLimitHit['cause'], retryAfterMs: number, ignoredA429: boolean): GlobalLimitHit {
    const hit: GlobalLimitHit = { at: request.at, method: request.method, path: request.path, ...(request.shards ? { shards: request.shards } : {}), cause, retryAfterMs, ignoredA429 };
    this.hitsSeen.push(hit);
    return hit;
  }
}
