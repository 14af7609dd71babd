// Faults the fake Discord can inject into its REST API, to see how the bot copes with an outage or a rate limit:
// a request a rule picks is answered 5xx or 429 exactly as Discord answers them, and is NOT carried out (on
// Discord a 500 or a 429 means nothing happened), so a retry that gets through applies it once. Faults are not the
// bot's fault: they never count as violations. Rules pick requests by method, kind (FaultTarget) and path; they
// fire always, a number of times, or with a probability drawn from a seeded generator, so a run is repeatable.
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';

/**
 * What a request does, in the bot's terms:
 * - `callback`: POST /interactions/:id/:token/callback (reply, defer, update, modal, autocomplete);
 * - `followup`: POST /webhooks/:app/:token (interaction.followUp);
 * - `webhook-message`: GET / PATCH / DELETE /webhooks/:app/:token/messages/:id (editReply, fetchReply, deleteReply);
 * - `channel-message`: /channels/:id/messages[/:id] (channel.send, message.edit, message.delete, fetches);
 * - `commands`: /applications/… (command registration);
 * - `other`: everything else (users, guilds, gateway/bot …).
 */
export type FaultTarget = 'callback' | 'followup' | 'webhook-message' | 'channel-message' | 'commands' | 'other';

export const FAULT_TARGETS: readonly FaultTarget[] = ['callback', 'followup', 'webhook-message', 'channel-message', 'commands', 'other'];

export interface FaultRule {
  /** HTTP method(s) the rule applies to; all when absent. */
  method?: string | readonly string[];
  /** Kind(s) of request the rule applies to; all when absent. */
  target?: FaultTarget | readonly FaultTarget[];
  /**
   * Tested against the path after `/api/v10`, with interaction and webhook tokens shown as `<token>`, e.g.
   * `/interactions/123/<token>/callback`. A string must occur in the path; a RegExp must match it.
   */
  path?: string | RegExp;
  /** 500–599 (Discord failing) or 429 (rate limited). */
  status: number;
  /** For 429: how long Discord asks the bot to wait; default 300 ms. */
  retryAfterMs?: number;
  /** For 429: a global rate limit (every route waits) instead of one bucket's. */
  global?: boolean;
  /** For 429: the `x-ratelimit-scope` of a bucket limit; default 'user'. */
  scope?: 'user' | 'shared';
  /** Let this many matching requests through before the rule starts to fire. */
  after?: number;
  /** Fire at most this many times; no end when absent. */
  times?: number;
  /** Fire on a matching request with this chance (the seeded generator); default 1. */
  probability?: number;
  /** Shown in the fault log and the counts by rule; default `status target`. */
  name?: string;
}

/** One answer the fake faked. */
export interface InjectedFault {
  rule: string;
  method: string;
  /** The masked path after /api/v10. */
  path: string;
  target: FaultTarget;
  status: number;
  retryAfterMs?: number;
  global?: boolean;
  /** The interaction the request belonged to, when the fake knows it. */
  interactionId?: string;
  /** Date.now() when it was answered. */
  at: number;
}

/** The faked answer itself. */
export interface FaultAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export interface FaultCounts {
  /** Requests answered with a fault. */
  injected: number;
  /** By status: { '500': 3, '429': 2 }. */
  byStatus: Record<string, number>;
  byTarget: Partial<Record<FaultTarget, number>>;
  byRule: Record<string, number>;
  /** Requests that repeated the method and path of a faulted one: the bot retrying. */
  retriesSeen: number;
}

/** A rule once added: how often it matched and fired, and a way to take it back. */
export interface FaultHandle {
  readonly rule: Readonly<FaultRule>;
  readonly matched: number;
  readonly fired: number;
  remove(): void;
}

interface ActiveRule extends FaultHandle {
  rule: FaultRule;
  name: string;
  matched: number;
  fired: number;
}

const STATUS_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
const DEFAULT_RETRY_AFTER_MS = 300;
const KEEP_LOG = 10_000;
/** @discordjs/rest retries a 5xx at once and a 429 right after its wait; later than this is not a retry. */
const RETRY_WINDOW_MS = 10_000;

/** Which kind of request a masked path is (see FaultTarget). */
export function faultTargetOf(method: string, path: string): FaultTarget {
  if (/^\/interactions\/[^/]+\/[^/]+\/callback$/.test(path)) return 'callback';
  if (/^\/webhooks\/[^/]+\/[^/]+$/.test(path)) return method === 'POST' ? 'followup' : 'other';
  if (/^\/webhooks\/[^/]+\/[^/]+\/messages\//.test(path)) return 'webhook-message';
  if (/^\/channels\/[^/]+\/messages(\/|$)/.test(path)) return 'channel-message';
  if (path.startsWith('/applications/')) return 'commands';
  return 'other';
}

export class FakeFaults {
  private rules: ActiveRule[] = [];
  private rng: () => number;
  private readonly log: InjectedFault[] = [];
  private readonly counts: FaultCounts = { injected: 0, byStatus: {}, byTarget: {}, byRule: {}, retriesSeen: 0 };
  /**
   * Faulted requests not yet repeated (key → when): the next such request soon after is the bot's retry; one
   * much later is a new request that happens to have the same method and path (a second post in the channel).
   */
  private readonly awaitingRetry = new Map<string, number>();

  constructor(seed = 'fake-discord-faults') {
    this.rng = seedrandom(seed);
  }

  /** Restarts the generator behind `probability`, so the same requests get the same faults again. */
  seed(seed: string): void {
    this.rng = seedrandom(seed);
  }

  /** Adds a rule; rules are tried in the order they were added and the first that fires answers. */
  add(rule: FaultRule): FaultHandle {
    if (!Number.isInteger(rule.status) || !(rule.status === 429 || (rule.status >= 500 && rule.status <= 599))) {
      throw new Error(`a fault's status is 429 or 500–599, not ${rule.status}`);
    }
    if (rule.probability !== undefined && !(rule.probability >= 0 && rule.probability <= 1)) {
      throw new Error(`a fault's probability is between 0 and 1, not ${rule.probability}`);
    }
    if (rule.retryAfterMs !== undefined && !(rule.retryAfterMs >= 0)) throw new Error(`retryAfterMs must be 0 or more, not ${rule.retryAfterMs}`);
    const targets = rule.target === undefined ? [] : typeof rule.target === 'string' ? [rule.target] : rule.target;
    for (const target of targets) if (!FAULT_TARGETS.includes(target)) throw new Error(`unknown fault target "${target}" (known: ${FAULT_TARGETS.join(', ')})`);
    const name = rule.name ?? `${rule.status} ${targets.length ? targets.join('+') : 'any'}`;
    const active: ActiveRule = {
      rule: { ...rule },
      name,
      matched: 0,
      fired: 0,
      remove: () => {
        this.rules = this.rules.filter((r) => r !== active);
      },
    };
    this.rules.push(active);
    return active;
  }

  /** Takes every rule away (the log and counts stay). */
  clear(): void {
    this.rules = [];
  }

  /** Takes every rule away and forgets the log and counts. */
  reset(): void {
    this.clear();
    this.log.length = 0;
    this.awaitingRetry.clear();
    Object.assign(this.counts, { injected: 0, byStatus: {}, byTarget: {}, byRule: {}, retriesSeen: 0 });
  }

  get active(): number {
    return this.rules.length;
  }

  /** Every fault injected so far (the latest KEEP_LOG), oldest first. */
  get injected(): readonly InjectedFault[] {
    return this.log;
  }

  /** A copy of the counters. */
  get stats(): FaultCounts {
    return structuredClone(this.counts);
  }

  /**
   * For one incoming request (`path` masked as rules see it; `key` tells retries apart, default method + path):
   * whether a rule fires, and if so the answer to send instead of carrying the request out. Also counts the
   * request as a retry when it repeats one that was faulted.
   */
  decide(request: { method: string; path: string; key?: string; interactionId?: string }): { fault: InjectedFault; answer: FaultAnswer } | undefined {
    const key = request.key ?? `${request.method} ${request.path}`;
    const faultedAt = this.awaitingRetry.get(key);
    if (faultedAt !== undefined) {
      this.awaitingRetry.delete(key);
      if (Date.now() - faultedAt <= RETRY_WINDOW_MS) this.counts.retriesSeen++;
    }
    const target = faultTargetOf(request.method, request.path);
    for (const active of this.rules) {
      if (!this.matches(active.rule, request.method, request.path, target)) continue;
      active.matched++;
      if (active.matched <= (active.rule.after ?? 0)) continue;
      if (active.rule.times !== undefined && active.fired >= active.rule.times) continue;
      if (active.rule.probability !== undefined && active.rule.probability < 1 && !(this.rng() < active.rule.probability)) continue;
      active.fired++;
      const fault: InjectedFault = {
        rule: active.name,
        method: request.method,
        path: request.path,
        target,
        status: active.rule.status,
        ...(active.rule.status === 429 ? { retryAfterMs: active.rule.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS, global: active.rule.global === true } : {}),
        ...(request.interactionId ? { interactionId: request.interactionId } : {}),
        at: Date.now(),
      };
      this.record(fault);
      this.awaitingRetry.set(key, Date.now() + (fault.retryAfterMs ?? 0));
      return { fault, answer: answerFor(fault, active.rule) };
    }
    return undefined;
  }

  private matches(rule: FaultRule, method: string, path: string, target: FaultTarget): boolean {
    if (rule.method !== undefined) {
      const methods = typeof rule.method === 'string' ? [rule.method] : rule.method;
      if (!methods.some((m) => m.toUpperCase() === method)) return false;
    }
    if (rule.target !== undefined) {
      const targets = typeof rule.target === 'string' ? [rule.target] : rule.target;
      if (!targets.includes(target)) return false;
    }
    if (rule.path !== undefined) {
      if (typeof rule.path === 'string' ? !path.includes(rule.path) : !rule.path.test(path)) return false;
    }
    return true;
  }

  private record(fault: InjectedFault): void {
    this.log.push(fault);
    if (this.log.length > KEEP_LOG) this.log.shift();
    const c = this.counts;
    c.injected++;
    c.byStatus[String(fault.status)] = (c.byStatus[String(fault.status)] ?? 0) + 1;
    c.byTarget[fault.target] = (c.byTarget[fault.target] ?? 0) + 1;
    c.byRule[fault.rule] = (c.byRule[fault.rule] ?? 0) + 1;
  }
}

/** A one-line description, for an interaction's `faults` and logs. */
export function describeFault(fault: InjectedFault): string {
  const what = fault.status === 429 ? `429 rate limited${fault.global ? ' (global)' : ''}, retry after ${fault.retryAfterMs} ms` : `${fault.status} ${STATUS_TEXT[fault.status] ?? 'Server Error'}`;
  return `${fault.method} /api/v10${fault.path}: injected ${what} [${fault.rule}]`;
}

/**
 * Discord's answers. A 5xx carries a short JSON body. A 429 carries `{ message, retry_after (seconds, float), global }`
 * and the headers @discordjs/rest reads: `retry-after`, `x-ratelimit-global` for a global limit, and for a bucket's
 * limit `x-ratelimit-limit/remaining/reset/reset-after/bucket`, plus `x-ratelimit-scope`. Discord rounds the
 * `retry-after` header up to whole seconds; the fake keeps the fraction, so tests wait hundreds of ms, not seconds.
 */
function answerFor(fault: InjectedFault, rule: FaultRule): FaultAnswer {
  if (fault.status !== 429) {
    const text = STATUS_TEXT[fault.status] ?? 'Server Error';
    return { status: fault.status, body: { message: `${fault.status}: ${text}`, code: 0 }, headers: {} };
  }
  if (fault.global) return globalRateLimitAnswer(fault.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS);
  const seconds = (fault.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS) / 1000;
  const retryAfter = String(Number(seconds.toFixed(3)));
  const body = { message: 'You are being rate limited.', retry_after: Number(seconds.toFixed(3)), global: false };
  return {
    status: 429,
    body,
    headers: {
      'retry-after': retryAfter,
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': ((Date.now() + seconds * 1000) / 1000).toFixed(3),
      'x-ratelimit-reset-after': retryAfter,
      'x-ratelimit-bucket': createHash('sha1').update(`${fault.method} ${fault.target}`).digest('hex').slice(0, 32),
      'x-ratelimit-scope': rule.scope ?? 'user',
    },
  };
}

/** Discord's global 429 (every route of the bot token waits): an injected one, or the fake's own global limit's. */
export function globalRateLimitAnswer(retryAfterMs: number): FaultAnswer {
  const seconds = Number((retryAfterMs / 1000).toFixed(3));
  return {
    status: 429,
    body: { message: 'You are being rate limited.', retry_after: seconds, global: true },
    headers: { 'retry-after': String(seconds), 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
  };
}
