/**
 * /roll challenge, command → reply, for our bot and for a bare discord.js bot, each against its own FakeDiscord
 * in this process. The figure is the fake's firstResponseMs: from dispatching INTERACTION_CREATE to receiving
 * the bot's interaction callback.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { REST, RESTEvents } from 'discord.js';
import { loginAndWaitUntilReady } from '../src/discord/client.js';
import { registerCommands } from '../src/deploy.js';
import { FakeDiscord, type SandboxInteractionRequest } from '../src/sandbox/fake-discord.js';
import { startSandbox } from '../src/sandbox/sandbox.js';
import type { Store } from '../src/store/index.js';
import { createBareBot } from './bare-bot.js';

export const ROLL: SandboxInteractionRequest = {
  user: 'mike',
  command: 'roll challenge',
  options: { skill: 'Climbing', cl: 90, archetypes: 'Acuity' },
};

/** The crowd of the throughput and burst figures: player0 … player49, each with a sheet like mike's. */
export const PLAYERS = Array.from({ length: 50 }, (_, i) => `player${i}`);
const rollBy = (user: string): SandboxInteractionRequest => ({ ...ROLL, user });

/** The fake's limit for the first answer to an interaction. */
export const DEADLINE_MS = 3000;

/** A bot under test: its fake Discord, and what went wrong (interactions without a callback, rate limits). */
export interface Target {
  name: string;
  fake: FakeDiscord;
  /** Interactions that broke a rule, had no callback or failed: left out of the figures. */
  problems: string[];
  /** Times @discordjs/rest delayed a request for a rate limit (the global 50/s does not apply to callbacks). */
  rateLimited: number;
  /** The fake's quiet period before interact() resolves (0 for our bot, which says when it is done). */
  settleMs: number;
  /** Our bot's store (its database), for a part that fills it first; absent for the bare bot. */
  store?: Store;
  stop(): Promise<void>;
}

/**
 * Our bot: startSandbox on a migrated temporary SQLite file (or on `database`, e.g. PostgreSQL: bench/postgres.ts),
 * with mike's sheet Troy (Climbing 40, Acuity 10) and one like it for each of PLAYERS.
 */
export async function startOurs(database?: { url: string; name: string }): Promise<Target> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-bench-'));
  const databaseUrl = database?.url ?? `file:${path.join(folder, 'bench.db')}`;
  const removeFolder = (): void => fs.rmSync(folder, { recursive: true, force: true });
  let sandbox;
  try {
    sandbox = await startSandbox({ port: 0, databaseUrl, log: pino({ level: 'silent' }), migrate: true });
  } catch (error) {
    removeFolder();
    throw error;
  }
  const target: Target = {
    name: database?.name ?? 'Tac Talk bot',
    fake: sandbox.fake,
    problems: [],
    rateLimited: 0,
    // The sandbox's bot says when it is done with each interaction: interact() waits for no quiet period.
    settleMs: 0,
    store: sandbox.bot.store,
    async stop() {
      await sandbox.stop();
      removeFolder();
    },
  };
  sandbox.bot.client.rest.on(RESTEvents.RateLimited, () => target.rateLimited++);
  try {
    const setup: SandboxInteractionRequest[] = ['mike', ...PLAYERS].flatMap((user) => [
      { user, command: 'sheet create', options: { name: user === 'mike' ? 'Troy' : `Operator ${user}` } },
      { user, command: 'sheet skill set', options: { name: 'Climbing', level: 40 } },
      { user, command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } },
    ]);
    for (const request of setup) {
      const result = await sandbox.fake.interact(request);
      if (result.errors.length > 0 || result.responses.length === 0) {
        throw new Error(`setup /${request.command} failed: ${JSON.stringify(result)}`);
      }
    }
  } catch (error) {
    await target.stop();
    throw error;
  }
  return target;
}

/** The baseline (bench/bare-bot.ts) against its own fake Discord in this process. */
export async function startBare(settleMs: number): Promise<Target> {
  const fake = new FakeDiscord({ settleMs });
  await fake.start();
  const problems: string[] = [];
  const client = createBareBot(fake.restApi, (problem) => problems.push(problem));
  const target: Target = {
    name: 'bare discord.js',
    fake,
    problems,
    rateLimited: 0,
    settleMs,
    async stop() {
      await client.destroy();
      await fake.stop();
    },
  };
  client.rest.on(RESTEvents.RateLimited, () => target.rateLimited++);
  try {
    await loginAndWaitUntilReady(client, fake.token);
    await registerCommands(new REST({ api: fake.restApi }).setToken(fake.token), fake.applicationId, fake.guildId);
  } catch (error) {
    await target.stop();
    throw error;
  }
  return target;
}

/** `count` sequential /roll challenge; returns each one's firstResponseMs. */
export async function sequential(target: Target, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    try {
      const result = await target.fake.interact(ROLL);
      if (result.errors.length > 0) target.problems.push(result.errors.join('; '));
      else if (result.firstResponseMs === undefined) target.problems.push(`no callback: ${JSON.stringify(result.responses)}`);
      else times.push(result.firstResponseMs);
    } catch (error) {
      target.problems.push(String(error));
    }
  }
  return times;
}

/**
 * Throughput: every one of PLAYERS keeps one /roll challenge in flight (sends the next as soon as the last is
 * answered, as a player at a table would) until `count` were answered. Interactions per second.
 */
export async function closedLoop(target: Target, count: number): Promise<number> {
  let sent = 0;
  const started = performance.now();
  const player = async (user: string): Promise<void> => {
    while (sent < count) {
      sent++;
      try {
        const result = await target.fake.interact(rollBy(user));
        if (result.errors.length > 0 || result.firstResponseMs === undefined) target.problems.push(`throughput: ${result.errors.join('; ') || 'no callback'}`);
      } catch (error) {
        target.problems.push(`throughput: ${String(error)}`);
      }
    }
  };
  await Promise.all(PLAYERS.map(player));
  return (count / (performance.now() - started)) * 1000;
}

export interface CrowdFigures {
  sent: number;
  answered: number;
  /** Answered after the 3 s deadline, or never. */
  late: number;
  /** Command → first answer of each answered interaction (ms): the reply, or an acknowledgement. */
  replyMs: number[];
  /** Command → the last answer (ms): the reply, or the edit that filled an acknowledgement. */
  finalMs: number[];
  /** Interactions acknowledged first (deferred) and answered by an edit. */
  deferred: number;
  /** From the first dispatch until the last answer arrived (ms). */
  allAnsweredMs: number;
}

/** `perPlayer` /roll challenge from each of PLAYERS, all dispatched at once (round-robin over the players). */
export async function crowdBurst(target: Target, perPlayer: number): Promise<CrowdFigures> {
  const started = performance.now();
  const sentAt: number[] = [];
  const pending = [];
  const doneAt: number[] = [];
  for (let round = 0; round < perPlayer; round++) {
    for (const user of PLAYERS) {
      const index = sentAt.push(performance.now()) - 1;
      // interact() resolves once the answers go quiet: for a deferred one, after the edit with the roll.
      pending.push(target.fake.interact(rollBy(user)).finally(() => (doneAt[index] = performance.now())));
    }
  }
  const settled = await Promise.allSettled(pending);
  const figures: CrowdFigures = { sent: pending.length, answered: 0, late: 0, replyMs: [], finalMs: [], deferred: 0, allAnsweredMs: 0 };
  let last = started;
  settled.forEach((outcome, i) => {
    const ms = outcome.status === 'fulfilled' ? outcome.value.firstResponseMs : undefined;
    if (outcome.status === 'rejected') target.problems.push(`crowd: ${String(outcome.reason)}`);
    else if (outcome.value.errors.length > 0) target.problems.push(`crowd: ${outcome.value.errors.join('; ')}`);
    if (ms === undefined) {
      figures.late++;
      return;
    }
    figures.answered++;
    figures.replyMs.push(ms);
    figures.finalMs.push(doneAt[i]! - sentAt[i]! - target.settleMs);
    if (outcome.status === 'fulfilled' && outcome.value.responses[0]?.kind === 'deferred') figures.deferred++;
    if (ms > DEADLINE_MS) figures.late++;
    last = Math.max(last, sentAt[i]! + ms);
  });
  figures.allAnsweredMs = last - started;
  return figures;
}
