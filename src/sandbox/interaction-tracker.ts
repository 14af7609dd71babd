// Bookkeeping for injected interactions: which callbacks and webhook calls belong to which interaction, and
// interact()'s rule for "the bot is done answering".
//
// When the bot says when it is done (FakeDiscordOptions.botSaysWhenDone: the sandbox's bot in this process calls
// FakeDiscord.interactionHandled once its router returns, a test forwards a child process's "interaction handled"
// log line), that is the rule, and no quiet period is waited for:
//   1. wait up to responseTimeoutMs for the first response, a rejected request or a fault (else "did not answer");
//   2. then wait until the bot said it is done and none of the interaction's requests is in flight. Everything the
//      handler awaited has been received by then, however slow the machine: a follow-up is never missed.
// Otherwise (a bot in another process that says nothing, e.g. the sharded sandbox's page) the end is a guess:
//   1. wait up to responseTimeoutMs for the first response (or a rejected request, e.g. a late callback);
//   2. if that first response was a deferral, wait up to responseTimeoutMs more for a real one (edit/follow-up);
//   3. then wait until settleMs pass with no request for this interaction in flight or arriving.
// An injected fault (fake-faults.ts) is not an answer: after one, the guess also waits for the bot's retry (a 5xx
// is retried at once, a 429 after its retry-after) until RETRY_GRACE_MS past when it was due. When no retry comes,
// the bot gave up: interact() then resolves with what it got (maybe nothing) and the faults, instead of timing out.
import { randomBytes } from 'node:crypto';
import type { Json } from './fake-state.js';
import { describeFault, type InjectedFault } from './fake-faults.js';
import type { SandboxInteractionResult, SandboxResponse } from './types.js';
import { SandboxRequestError } from './types.js';

export interface InteractionRecord {
  id: string;
  token: string;
  /** 2 command, 3 component, 4 autocomplete, 5 modal submit */
  type: number;
  /** ms since the Unix epoch when the interaction was dispatched */
  createdAt: number;
  userId: string;
  /** The guild the interaction happened in, and its channel: where its messages go. */
  guildId: string;
  channelId: string;
  /** The message a component sits on / a modal was opened from. */
  sourceMessageId?: string;
  /** 'roll challenge' for commands */
  commandName?: string;
  payload: Json;
  /** The callback type of the first (accepted) callback. */
  ack?: number;
  /** What webhooks call @original: the reply, or for component updates the message the component sits on. */
  originalMessageId?: string;
  /** The modal the bot opened in answer to this interaction, if any. */
  modal?: Json;
  responses: SandboxResponse[];
  errors: string[];
  /** Faults injected into this interaction's requests (describeFault lines). */
  faults?: string[];
  /** Faulted requests (`METHOD path`) whose retry has not come yet → until when it is waited for (Date.now()). */
  awaitingRetry?: Map<string, number>;
  lastActivity: number;
  inflight: number;
  /** interact() waits for the bot to say it is done with this interaction (FakeDiscordOptions.botSaysWhenDone). */
  awaitsHandled?: boolean;
  /** The bot said it is done with this interaction (FakeDiscord.interactionHandled). */
  handled?: boolean;
  /** performance.now() when INTERACTION_CREATE was dispatched, and when the first accepted callback arrived. */
  dispatchedAt?: number;
  firstResponseAt?: number;
  /** The shard whose session INTERACTION_CREATE was sent to, and that session's id. */
  shard?: number;
  sessionId?: string;
  /** For each callback or webhook call: the shards its caller named (callerShards), null if it named none. */
  answeredBy?: (number[] | null)[];
}

export interface OpenedModal {
  modal: Json;
  guildId: string;
}

/** How long past a faulted request's retry-after the fake waits for the retry before taking it that the bot gave up. */
const RETRY_GRACE_MS = 1000;

/** One-shot wake-up for waiters: wait(ms) resolves on the next notify() or after ms. */
class Signal {
  private wakers: (() => void)[] = [];
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.wakers.push(done);
    });
  }
  notify(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }
}

export class InteractionTracker {
  private readonly byId = new Map<string, InteractionRecord>();
  private readonly byToken = new Map<string, InteractionRecord>();
  /** Interactions an interact() call is collecting, oldest first. */
  private readonly open: InteractionRecord[] = [];
  private readonly signals = new Map<string, Signal>();

  constructor(private readonly tokenTtlMs: number) {}

  static newToken(): string {
    // Discord's tokens are long opaque base64url strings starting with "aW50ZXJhY3Rpb246" ("interaction:").
    return `aW50ZXJhY3Rpb246${randomBytes(60).toString('base64url')}`;
  }

  register(record: InteractionRecord): void {
    this.prune();
    this.byId.set(record.id, record);
    this.byToken.set(record.token, record);
  }

  get(id: string): InteractionRecord | undefined {
    return this.byId.get(id);
  }

  withToken(token: string): InteractionRecord | undefined {
    return this.byToken.get(token);
  }

  /**
   * The newest modal the bot opened with this custom_id (to shape a modal submit like Discord would), and the
   * guild it was opened in (where its submit happens).
   */
  findModal(customId: string): OpenedModal | undefined {
    const record = [...this.byId.values()].reverse().find((r) => r.modal?.custom_id === customId);
    return record?.modal ? { modal: record.modal, guildId: record.guildId } : undefined;
  }

  /** The interaction a request outside any interaction (e.g. POST /channels/:id/messages) is credited to. */
  current(): InteractionRecord | undefined {
    return this.open[this.open.length - 1];
  }

  /** A request for this interaction started (it keeps the settle window open until end()); `key` is `METHOD path`. */
  begin(record: InteractionRecord, key?: string): void {
    record.inflight++;
    if (key !== undefined) record.awaitingRetry?.delete(key);
    this.touch(record);
  }

  /** A request of this interaction was answered with an injected fault: the bot is expected to try it again. */
  addFault(record: InteractionRecord, fault: InjectedFault, key: string): void {
    (record.faults ??= []).push(describeFault(fault));
    (record.awaitingRetry ??= new Map()).set(key, Date.now() + (fault.retryAfterMs ?? 0) + RETRY_GRACE_MS);
    this.touch(record);
  }

  end(record: InteractionRecord): void {
    record.inflight = Math.max(0, record.inflight - 1);
    this.touch(record);
  }

  addResponse(record: InteractionRecord, response: SandboxResponse): void {
    record.responses.push(response);
    this.touch(record);
  }

  addError(record: InteractionRecord, text: string): void {
    record.errors.push(text);
    this.touch(record);
  }

  /** The bot is done with the interaction: its handler returned, every request it awaited answered. */
  handled(id: string): void {
    const record = this.byId.get(id);
    if (!record) return;
    record.handled = true;
    this.touch(record);
  }

  private touch(record: InteractionRecord): void {
    record.lastActivity = Date.now();
    this.signals.get(record.id)?.notify();
  }

  /**
   * Waits until the bot is done with this interaction (see the top of this file) and returns what it did.
   * `handledTimeoutMs` only stops a wait for a bot that answered and then never said it is done (it hung or died).
   */
  async collect(record: InteractionRecord, timing: { responseTimeoutMs: number; settleMs: number; handledTimeoutMs: number }): Promise<SandboxInteractionResult> {
    const { responseTimeoutMs, settleMs } = timing;
    const signal = new Signal();
    this.signals.set(record.id, signal);
    this.open.push(record);
    try {
      if (record.awaitsHandled) {
        await this.untilHandled(record, signal, responseTimeoutMs, timing.handledTimeoutMs);
        return resultOf(record);
      }
      /** Until when a retry of a faulted request is still expected (0: none is). */
      const retryDue = (): number => {
        let due = 0;
        for (const until of record.awaitingRetry?.values() ?? []) due = Math.max(due, until);
        return due > Date.now() ? due : 0;
      };
      /** The bot met faults and stopped trying: nothing in flight, no retry due, quiet for settleMs. */
      const gaveUp = (): boolean =>
        (record.faults?.length ?? 0) > 0 && record.inflight === 0 && retryDue() === 0 && Date.now() - record.lastActivity >= settleMs;
      /** How long to sleep before looking again, at most `left`. */
      const nap = (left: number): number => {
        const due = retryDue();
        const quietLeft = settleMs - (Date.now() - record.lastActivity);
        const next = due ? due - Date.now() : record.faults?.length && record.inflight === 0 ? Math.max(1, quietLeft) : left;
        return Math.max(1, Math.min(left, next));
      };
      const answered = (): boolean => record.responses.length > 0 || record.errors.length > 0;
      const firstDeadline = Date.now() + responseTimeoutMs;
      while (!answered() && !gaveUp()) {
        const left = firstDeadline - Date.now();
        if (left <= 0) {
          throw new SandboxRequestError(`the bot did not answer within ${responseTimeoutMs} ms`);
        }
        await signal.wait(nap(left));
      }
      if (record.responses[0]?.kind === 'deferred') {
        const deferDeadline = Date.now() + responseTimeoutMs;
        const completed = (): boolean => record.responses.some((r) => r.kind !== 'deferred') || record.errors.length > 0;
        while (!completed() && !gaveUp() && Date.now() < deferDeadline) await signal.wait(nap(deferDeadline - Date.now()));
      }
      // Settle: no request in flight, no retry due, and none for settleMs. In-flight requests always finish; the
      // cap guards against a request that never completes (a client that died mid-upload).
      const settleCap = Date.now() + responseTimeoutMs;
      for (;;) {
        const quiet = Date.now() - record.lastActivity;
        const due = retryDue();
        if (record.inflight === 0 && quiet >= settleMs && due === 0) break;
        if (Date.now() >= settleCap) break;
        const wait = record.inflight > 0 ? settleCap - Date.now() : due ? due - Date.now() : settleMs - quiet;
        await signal.wait(Math.max(1, Math.min(wait, settleCap - Date.now())));
      }
      return resultOf(record);
    } finally {
      this.signals.delete(record.id);
      const index = this.open.indexOf(record);
      if (index >= 0) this.open.splice(index, 1);
    }
  }

  /** Rule 1 and 2 of a bot that says when it is done (the top of this file). */
  private async untilHandled(record: InteractionRecord, signal: Signal, responseTimeoutMs: number, handledTimeoutMs: number): Promise<void> {
    const answered = (): boolean => record.responses.length > 0 || record.errors.length > 0 || (record.faults?.length ?? 0) > 0;
    const firstDeadline = Date.now() + responseTimeoutMs;
    while (!answered() && !record.handled) {
      const left = firstDeadline - Date.now();
      if (left <= 0) throw new SandboxRequestError(`the bot did not answer within ${responseTimeoutMs} ms`);
      await signal.wait(left);
    }
    const doneDeadline = Date.now() + handledTimeoutMs;
    while (!record.handled || record.inflight > 0) {
      const left = doneDeadline - Date.now();
      if (left <= 0) throw new SandboxRequestError(`the bot answered but did not finish handling the interaction within ${handledTimeoutMs / 1000} s`);
      await signal.wait(left);
    }
    if (!answered()) throw new SandboxRequestError('the bot did not answer: it finished handling the interaction without a response');
  }

  /** Forget interactions whose tokens expired, so a long sandbox session does not grow without bound. */
  private prune(): void {
    const cutoff = Date.now() - this.tokenTtlMs;
    for (const [id, record] of this.byId) {
      if (record.createdAt >= cutoff) break; // insertion order = creation order
      if (this.open.includes(record)) continue;
      this.byId.delete(id);
      this.byToken.delete(record.token);
    }
  }
}

/** What the bot did with an interaction, as interact() returns it. */
function resultOf(record: InteractionRecord): SandboxInteractionResult {
  const { dispatchedAt, firstResponseAt } = record;
  return {
    id: record.id,
    responses: [...record.responses],
    errors: [...record.errors],
    ...(record.faults?.length ? { faults: [...record.faults] } : {}),
    ...(dispatchedAt !== undefined && firstResponseAt !== undefined ? { firstResponseMs: firstResponseAt - dispatchedAt } : {}),
  };
}
