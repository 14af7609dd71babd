// Playing many contests at once through the fake Discord, for the reliability suite: a batch of interactions
// dispatched together (as simultaneous presses are), each timed, and what a contest message and a response show.
import type { FakeDiscord, SandboxInteractionRequest, SandboxInteractionResult, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import type { CapturedLog } from './bot-log.js';
import { textOf } from './sandbox.js';

export interface Played {
  request: SandboxInteractionRequest;
  /** Absent when interact() threw (no answer at all, or a request the fake refused): see `failure`. */
  result?: SandboxInteractionResult;
  failure?: string;
  /** From dispatch to interact() resolving (the bot done with it: it tells the sandbox's fake). */
  doneMs: number;
}

/**
 * Dispatches every request in the same tick, so the bot sees them as simultaneous presses, and waits until the bot
 * has finished handling each one (its router's closing log line), so the next batch finds the state settled.
 */
export async function playAtOnce(fake: FakeDiscord, log: CapturedLog, requests: SandboxInteractionRequest[], handlerTimeoutMs = 15_000): Promise<Played[]> {
  const started = performance.now();
  const played = await Promise.all(
    requests.map(async (request): Promise<Played> => {
      try {
        const result = await fake.interact(request);
        return { request, result, doneMs: performance.now() - started };
      } catch (error) {
        return { request, failure: String((error as Error)?.message ?? error), doneMs: performance.now() - started };
      }
    }),
  );
  const unfinished = (
    await Promise.all(played.map(async (p) => (p.result && !(await log.handled(p.result.id, handlerTimeoutMs)) ? p : null)))
  ).filter((p) => p !== null);
  for (const p of unfinished) p.failure = `the bot did not finish handling it within ${handlerTimeoutMs / 1000} s`;
  return played;
}

export interface LatencyFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function latencyFigures(values: number[]): LatencyFigures {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
  return { count: sorted.length, p50: at(50), p99: at(99), max: sorted.at(-1) ?? NaN };
}

export function formatLatency(figures: LatencyFigures): string {
  const ms = (value: number) => `${Math.round(value)} ms`;
  return `p50 ${ms(figures.p50)}, p99 ${ms(figures.p99)}, max ${ms(figures.max)}`;
}

/** The contest number a response shows ("Contest #12"). */
export function contestIdOf(response: SandboxResponse): string | undefined {
  return /Contest #(\d+)/.exec(textOf(response))?.[1];
}

/** A sheet file as `/sheet import` takes it. */
export function sheetFile(name: string, skills: { name: string; level: number }[]): { filename: string; content: string } {
  return { filename: 'sheet.json', content: JSON.stringify({ name, skills, archetypes: [], conditions: [] }) };
}

/**
 * A press that moved the contest shows on its message (in place, or after a deferral as an edit) and says nothing
 * privately. A refused press answers privately, even when it also brought a lagging message up to date.
 */
export function movedTheContest(responses: SandboxResponse[]): boolean {
  const shown = responses.some((response) => (response.kind === 'update' || response.kind === 'edit') && !response.ephemeral);
  const refused = responses.some((response) => response.ephemeral && (response.kind === 'reply' || response.kind === 'followup'));
  return shown && !refused;
}

/** A contest as the e2e tests follow it: its id and the message it is shown on. */
export interface PlayedContest {
  id: string;
  message: string;
}

export type AdjustFields = Partial<Record<'challenger_skill' | 'opponent_skill' | 'challenger_archetypes' | 'opponent_archetypes' | 'modifiers', string>>;

/** The Dispatcher's adjust form, submitted without opening it first (a stale or forged submit): the fields as given. */
export function contestAdjustForm(dispatcher: string, contest: PlayedContest, fields: AdjustFields): SandboxInteractionRequest {
  return {
    user: dispatcher,
    roles: ['dispatcher'],
    modal: `contest:adjustform:${contest.id}`,
    fields: { challenger_skill: '', opponent_skill: '', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, 0', ...fields },
    message: contest.message,
  };
}
