// Issue 22, section 1, under crashes: the bot runs as users run it (`node --import tsx src/main.ts`, its own process,
// test/helpers/child-bot.ts) and is SIGKILLed at random moments while players go through the flows of
// test/helpers/stored-flows.ts again and again (/dispatch Take the roll and its Outcome Roll, an intent's No roll
// needed, a d6 Push, a d10 Roll again, an outcome table's Next, Apply damage, Spend). Its REST calls go through a
// proxy (test/helpers/killing-proxy.ts) that kills it when a seeded, randomly chosen request that answers an
// interaction or writes to the channel arrives: dropped before Discord gets it, or carried out with the bot killed
// before it reads the answer. A new process starts on the same SQLite file, and the players go on from what the
// channel shows: they press again whatever is live (a press that changes nothing twice is given up on). At the end
// the channel must show the store (test/helpers/channel-checker.ts): no difference. Also: no Discord rule broken, no
// error logged, nothing printed outside the JSON log.
//
// Seeded (KILLS_SEED, printed): which request each kill lands on and how. The bot's dice are its own (random seeds).
// Process start-up is most of the run time, so a process is killed only after a few requests (KILL_SPAN).
// Run with `npm run test:reliability` (this file alone: `npx vitest run --config vitest.reliability.config.ts
// test/reliability/stored-reaches-channel-kills.reliability.ts`); KILLS sets how many kills (default 50).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REST } from 'discord.js';
import seedrandom from 'seedrandom';
import { afterAll, expect, it } from 'vitest';
import { registerCommands } from '../../src/deploy.js';
import { FakeDiscord, type SandboxInteractionRequest, type SandboxInteractionResult } from '../../src/sandbox/fake-discord.js';
import { checkChannel, StoredState } from '../helpers/channel-checker.js';
import { ChildBot } from '../helpers/child-bot.js';
import { KillingProxy, type KillMoment, type KillRecord } from '../helpers/killing-proxy.js';
import { FLOWS, importTables, playOn, setUpCast, startOf, type Cast } from '../helpers/stored-flows.js';

const SEED = process.env.KILLS_SEED ?? 'stored-reaches-channel-kills-1';
const KILLS = Number(process.env.KILLS ?? 50);
/** The next kill lands on one of the next this many requests that answer an interaction or write to the channel. */
const KILL_SPAN = 8;
/** Three casts take turns, so no sheet runs out of what the flows spend (a d6 sheet's push conditions, Health). */
const CASTS: Cast[] = [
  { player: 'mike', target: 'sasha' },
  { player: 'kat', target: 'troy' },
  { player: 'nina', target: 'omar' },
];
/** A bound on the flows played, far above what KILLS kills take: a run that kills nothing must still end. */
const MAX_FLOWS = 40 + 6 * KILLS;
const HANDLED_WAIT_MS = 30_000;

/** A press (or command) the bot was killed in the middle of. */
class KilledError extends Error {}

interface Kill extends KillRecord {
  flow: string;
  request: string;
  /** What the user saw of the interaction: its answers before the kill, or "nothing". */
  seen: string;
}

const describeRequest = (request: SandboxInteractionRequest) =>
  `${request.user} ${request.command ?? request.button ?? request.select ?? request.modal}${request.values ? ` ${request.values.join(',')}` : ''}`;

class Lane {
  readonly fake = new FakeDiscord({ responseTimeoutMs: 3000 });
  readonly proxy = new KillingProxy(() => this.fake.url);
  readonly folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-stored-kills-'));
  readonly file = path.join(this.folder, 'bot.db');
  readonly processes: ChildBot[] = [];
  readonly kills: Kill[] = [];
  readonly violations: string[] = [];
  readonly notes: string[] = [];
  /** Controls given up on: pressed twice with nothing changed in the channel. */
  readonly stuck: string[] = [];
  readonly flowsPlayed: Record<string, number> = {};
  stored!: StoredState;
  differences: string[] = [];
  private readonly rng = seedrandom(SEED);
  private killed: Promise<KillRecord> = new Promise(() => undefined);
  private flow = 'setup';
  private readonly problemsSeen = new Map<ChildBot, number>();

  get bot(): ChildBot {
    return this.processes.at(-1)!;
  }

  async start(): Promise<void> {
    await this.fake.start();
    await this.proxy.start();
    await registerCommands(new REST({ api: this.fake.restApi }).setToken(this.fake.token), this.fake.applicationId, this.fake.guildId);
    await this.spawn();
    this.stored = new StoredState(this.file);
  }

  private async spawn(): Promise<void> {
    const bot = await ChildBot.spawn({
      env: {
        DISCORD_TOKEN: this.fake.token,
        DISCORD_APPLICATION_ID: this.fake.applicationId,
        DISCORD_API: this.proxy.restApi,
        DATABASE_URL: `file:${this.file}`,
        // The router's "interaction handled" (debug) says when the bot is done with an interaction.
        LOG_LEVEL: 'debug',
      },
    });
    this.processes.push(bot);
    await this.fake.waitForReady();
  }

  /** The next kill: on the n-th counted request from now, before or after the fake carries it out (seeded). */
  private armNext(): void {
    const nth = 1 + Math.floor(this.rng() * KILL_SPAN);
    const moment: KillMoment = this.rng() < 0.5 ? 'before' : 'after';
    const dying = this.bot;
    this.killed = this.proxy.arm(nth, moment, () => dying.signal('SIGKILL'));
  }

  /**
   * Acts as a user and waits until the bot is done (its "interaction handled" line). When the bot was killed
   * meanwhile, a new process is started on the same database, the next kill armed, and KilledError thrown: the
   * players go on from what the channel shows.
   */
  readonly act = async (request: SandboxInteractionRequest): Promise<SandboxInteractionResult> => {
    const dying = this.bot;
    const killed = this.killed.then((record) => ({ killed: record }));
    const pending = this.fake.interact(request).then(
      (result) => ({ result }),
      (error: unknown) => ({ error: error as Error }),
    );
    let outcome: { result: SandboxInteractionResult } | { error: Error } | { killed: KillRecord } = await Promise.race([pending, killed]);
    if ('result' in outcome) {
      const { result } = outcome;
      const handled = dying
        .waitForLog((line) => line.msg === 'interaction handled' && line.interactionId === result.id, HANDLED_WAIT_MS, `"interaction handled" for ${describeRequest(request)}`)
        .then(
          () => ({ handled: true as const }),
          (error: unknown) => ({ error: error as Error }),
        );
      const done = await Promise.race([handled, killed]);
      if ('handled' in done) {
        this.violations.push(...result.errors.map((error) => `${this.flow}: ${describeRequest(request)} broke a Discord rule: ${error}`));
        return result;
      }
      if ('error' in done && !('killed' in done)) {
        if (!dying.running) throw new Error(`the bot died by itself during ${describeRequest(request)}:\n${dying.tail()}`);
        throw done.error;
      }
      outcome = done;
    }
    if ('error' in outcome) {
      // No answer, and no kill: the bot is alive but did not answer in time. A finding; the players go on.
      if (!dying.running) throw new Error(`the bot died by itself during ${describeRequest(request)}:\n${dying.tail()}`);
      this.violations.push(`${this.flow}: ${describeRequest(request)} was not answered: ${outcome.error.message}`);
      throw new KilledError('unanswered');
    }
    const exit = await dying.exited;
    if (exit.signal !== 'SIGKILL') this.violations.push(`process ${dying.pid} exited by itself (${JSON.stringify(exit)}) before the kill`);
    const record = outcome.killed;
    await this.spawn();
    this.armNext();
    const kill: Kill = { ...record, flow: this.flow, request: describeRequest(request), seen: '(still waiting)' };
    this.kills.push(kill);
    // What the user saw is known once the fake gives up waiting for more; nothing waits for it.
    void pending.then((first) => {
      kill.seen = 'result' in first ? first.result.responses.map((r) => `${r.kind}${r.ephemeral ? ' (private)' : ''}`).join(', ') || 'nothing' : 'nothing';
    });
    throw new KilledError(`killed at ${record.method} ${record.path} (${record.moment})`);
  };

  /** A flow, from its command to the last press the channel offers, through any kills on the way. */
  private async playFlow(index: number): Promise<void> {
    const name = FLOWS[index % FLOWS.length]!;
    const cast = CASTS[Math.floor(index / FLOWS.length) % CASTS.length]!;
    this.flow = `${name} #${index}`;
    this.flowsPlayed[name] = (this.flowsPlayed[name] ?? 0) + 1;
    const since = new Set(this.fake.messages().map((message) => message.id));
    try {
      await this.act(startOf(name, cast, `#${index}`));
    } catch (error) {
      if (!(error instanceof KilledError)) throw error;
    }
    const tried = new Map<string, number>();
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        const played = await playOn(this.fake, this.act, since, cast, { tried });
        this.stuck.push(...played.stuck.map((key) => `${this.flow}: ${key}`));
        return;
      } catch (error) {
        if (!(error instanceof KilledError)) throw error;
      }
    }
    this.violations.push(`${this.flow}: still being killed after 20 tries`);
  }

  async run(): Promise<void> {
    await this.start();
    for (const cast of CASTS) await setUpCast(this.act, cast);
    await importTables(this.act);
    this.armNext();
    for (let index = 0; index < MAX_FLOWS && (this.kills.length < KILLS || index < FLOWS.length * CASTS.length); index++) {
      await this.playFlow(index);
      this.violations.push(...this.newProblems());
    }
    this.proxy.disarm();
    this.differences = checkChannel(this.fake.messages(), this.stored);
    const exit = await this.bot.stop();
    if (exit.code !== 0) this.violations.push(`the last process did not shut down cleanly on SIGTERM: ${JSON.stringify(exit)}`);
    this.violations.push(...this.newProblems());
    this.violations.push(...this.fake.violations.map((violation) => `fake Discord: ${violation}`));
  }

  /** What the processes logged as errors or printed outside the log since the last call. */
  private newProblems(): string[] {
    return this.processes.flatMap((bot) => {
      const problems = bot.problems();
      const fresh = problems.slice(this.problemsSeen.get(bot) ?? 0);
      this.problemsSeen.set(bot, problems.length);
      return fresh.map((problem) => `${this.flow}: pid ${bot.pid}: ${problem}`);
    });
  }

  async close(): Promise<void> {
    for (const bot of this.processes) await bot.kill('SIGKILL');
    this.stored?.close();
    await this.proxy.stop();
    await this.fake.stop();
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}

const lane = new Lane();

afterAll(async () => {
  await lane.close();
});

it(`a bot SIGKILLed ${KILLS} times at random moments of the flows leaves a channel that shows the store`, async () => {
  const started = performance.now();
  await lane.run();
  const seconds = (performance.now() - started) / 1000;
  const count = (values: string[]) => Object.entries(values.reduce<Record<string, number>>((tally, value) => ({ ...tally, [value]: (tally[value] ?? 0) + 1 }), {})).map(([key, n]) => `${key} ${n}`).join(', ');
  const startups = lane.processes.map((bot) => bot.startupMs).sort((a, b) => a - b);
  console.log(
    [
      `stored-reaches-channel-kills (seed ${SEED}): ${lane.kills.length} kills, ${lane.processes.length} processes started (start-up median ${(startups[startups.length >> 1]! / 1000).toFixed(1)} s), ${seconds.toFixed(0)} s in all`,
      `  flows played: ${count(Object.entries(lane.flowsPlayed).flatMap(([flow, n]) => Array<string>(n).fill(flow)))}`,
      `  kills by flow: ${count(lane.kills.map((kill) => kill.flow.split(' ')[0]!))}`,
      `  kills by moment: ${count(lane.kills.map((kill) => `${kill.moment} ${kill.method} ${kill.path.replace(/\/\d+/g, '/:id').replace(/\?.*$/, '')}`))}`,
      ...lane.kills.map((kill) => `  kill: ${kill.flow}: ${kill.request} → ${kill.moment} ${kill.method} ${kill.path.replace(/\?.*$/, '')}; the user saw ${kill.seen}`),
      `  given up on (pressed twice, nothing changed): ${lane.stuck.length}${lane.stuck.map((key) => `\n    ${key}`).join('')}`,
      `  differences between the channel and the store: ${lane.differences.length}${lane.differences.map((difference) => `\n    ${difference}`).join('')}`,
      `  violations: ${lane.violations.length}${lane.violations.map((violation) => `\n    ${violation}`).join('')}`,
    ].join('\n'),
  );
  expect(lane.kills.length).toBeGreaterThanOrEqual(KILLS);
  expect({ differences: lane.differences, violations: lane.violations }).toEqual({ differences: [], violations: [] });
}, 20 * 60_000);
