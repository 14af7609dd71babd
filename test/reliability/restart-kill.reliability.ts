// The crash part of the reliability suite (issue 7): the bot process is SIGKILLed at every step of a contest and a
// new process on the same database continues it.
//
// The fake Discord runs here; the bot runs as users run it, `node --import tsx src/main.ts` in a child process
// (DISCORD_API points it at the fake), so a SIGKILL is a real crash: no handler, no flush, the SQLite file left as
// the kernel found it. For every step from /contest start to the Agree that rolls the dice (through a Dispatcher's
// change, so Confirm is killed too), a fresh contest between two new
// players is played up to that step and the bot is killed there, in two variants:
//   unanswered  killed after it did all the step's work, as its answer leaves for Discord: the bot's REST goes
//               through a proxy (test/helpers/killing-proxy.ts), which kills the bot when the interaction callback
//               arrives and drops it.
//               This is the worst moment for a crash (the step is applied, the user saw "This interaction failed"),
//               and a kill any earlier is the same as a press the bot never saw. The user presses the same control
//               again; a step the dead bot applied must then be refused politely or be a no-op, never applied twice.
//   answered    killed right after its answer arrived.
// Then a new process starts on the same file and the contest is played to the end. Checked for every contest:
// exactly one contest roll in the roll log, the stored contest resolved with one round, the message showing the
// result, exactly one result message posted, no contest of its players left open; for every process: no error-level log line and nothing printed
// outside the JSON log (an uncaught exception prints a stack); for the fake: no Discord rule broken.
// The two variants run side by side, each with its own fake Discord and database, to halve the wall time: most of
// it is process start-up (module loading and `prisma migrate deploy`).
//
// Run with `npm run test:reliability` (vitest.reliability.config.ts); `npm test` does not pick this file up.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { REST } from 'discord.js';
import { afterAll, expect, it } from 'vitest';
import { registerCommands } from '../../src/deploy.js';
import { OPEN_PHASES } from '../../src/engine/systems/tactalk/contest.js';
import { FakeDiscord, type SandboxInteractionRequest, type SandboxInteractionResult, type SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { ChildBot } from '../helpers/child-bot.js';
import { KillingProxy } from '../helpers/killing-proxy.js';
import { textOf } from '../helpers/sandbox.js';

type Variant = 'unanswered' | 'answered';

const KAT = { name: 'Kat', skills: [{ name: 'CQC', level: 37 }, { name: 'Climbing', level: 50 }], archetypes: [], conditions: [] };
const TROY = { name: 'Troy', skills: [{ name: 'CQC', level: 40 }, { name: 'Athletics', level: 30 }], archetypes: [], conditions: [] };
/** How long a step may take to reach its answer. */
const ANSWER_WAIT_MS = 10_000;
/** The apology the bot gives for an unexpected error (src/discord/errors.ts); a refusal must not be one. */
const APOLOGY = /went wrong/i;

interface Contest {
  challenger: string;
  opponent: string;
  id?: number;
  message?: string;
}

interface Step {
  name: string;
  request(contest: Contest): SandboxInteractionRequest;
  /** The control the step presses on the contest message, which must be there to press it. */
  control?(contest: Contest): string;
  /**
   * How the step's work shows in the database (a new contest, or a new version of it; null for the accept button,
   * which only opens a form): tells whether the killed process had applied it.
   */
  writes: 'created' | 'saved' | null;
  answer: 'reply' | 'modal' | 'update';
}

/** The Dispatcher, who disputes Troy's skill on the way: the change, and the Confirm it asks for, are killed too. */
const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };

const press = (verb: string, who: 'challenger' | 'opponent' | 'dispatcher', arg?: string): Step => ({
  name: `${verb}${arg ? ` ${arg}` : ''} (${who})`,
  request: (c) => ({ ...(who === 'dispatcher' ? DISPATCHER : { user: c[who] }), button: `contest:${verb}:${c.id}${arg ? `:${arg}` : ''}`, message: c.message }),
  control: (c) => `contest:${verb}:${c.id}${arg ? `:${arg}` : ''}`,
  writes: verb === 'accept' || verb === 'adjust' ? null : 'saved',
  answer: verb === 'accept' || verb === 'adjust' ? 'modal' : 'update',
});

/** Every interaction of a contest, in order (commands/contest/press.ts): attacker against defender always resolves. */
const STEPS: Step[] = [
  {
    name: '/contest start',
    request: (c) => ({ user: c.challenger, command: 'contest start', options: { opponent: c.opponent, intent: 'Kat disarms Troy', stakes: 'Troy is disarmed', skill: 'CQC', role: 'attacker' } }),
    writes: 'created',
    answer: 'reply',
  },
  press('accept', 'opponent'),
  {
    name: 'accept form (opponent)',
    request: (c) => ({ user: c.opponent, modal: `contest:acceptform:${c.id}`, fields: { stakes: 'Kat is kicked', role: 'defender', skill: 'CQC', archetypes: '' }, message: c.message }),
    writes: 'saved',
    answer: 'update',
  },
  press('adjust', 'dispatcher'),
  {
    name: 'adjust form (dispatcher)',
    request: (c) => ({
      ...DISPATCHER,
      modal: `contest:adjustform:${c.id}`,
      fields: { challenger_skill: 'CQC', opponent_skill: 'Athletics', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, 0' },
      message: c.message,
    }),
    writes: 'saved',
    answer: 'update',
  },
  press('ready', 'opponent'),
  press('agree', 'challenger'),
];

function customIds(components: unknown[]): string[] {
  return (components as Array<{ custom_id?: string; components?: unknown[] }>).flatMap((component) => [
    ...(component.custom_id ? [component.custom_id] : []),
    ...customIds(component.components ?? []),
  ]);
}

const brief = (text: string | undefined): string => (text ?? '').replace(/\s+/g, ' ').slice(0, 140);

/**
 * The database as the bot left it, read beside it (WAL lets a reader in while a writer writes). Closed while a bot
 * starts: `prisma migrate deploy` fails with SQLITE_BUSY while any other connection has the file open.
 */
class StoredState {
  private connection?: Database.Database;
  constructor(private readonly file: string) {}
  private get db(): Database.Database {
    this.connection ??= new Database(this.file, { readonly: true, fileMustExist: true });
    return this.connection;
  }
  contestsOf(challengerId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM "Contest" WHERE "challengerId" = ?').get(challengerId) as { n: number }).n;
  }
  version(contestId: number): number {
    return (this.db.prepare('SELECT "version" FROM "Contest" WHERE "id" = ?').get(contestId) as { version: number } | undefined)?.version ?? -1;
  }
  contest(contestId: number): { phase: string; version: number; messageId: string | null; state: string } | undefined {
    return this.db.prepare('SELECT "phase", "version", "messageId", "state" FROM "Contest" WHERE "id" = ?').get(contestId) as ReturnType<StoredState['contest']>;
  }
  contestRolls(contestId: number): string[] {
    const rows = this.db.prepare(`SELECT "id" FROM "Roll" WHERE "kind" = 'contest' AND json_extract("inputs", '$.contestId') = ?`).all(contestId) as { id: string }[];
    return rows.map((row) => row.id);
  }
  openContestsOf(userIds: string[]): { id: number; phase: string; messageId: string | null }[] {
    const marks = userIds.map(() => '?').join(', ');
    return this.db
      .prepare(`SELECT "id", "phase", "messageId" FROM "Contest" WHERE ("challengerId" IN (${marks}) OR "opponentId" IN (${marks})) AND "phase" IN (${OPEN_PHASES.map(() => '?').join(', ')})`)
      .all(...userIds, ...userIds, ...OPEN_PHASES) as { id: number; phase: string; messageId: string | null }[];
  }
  integrity(): string {
    return (this.db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
  }
  close(): void {
    this.connection?.close();
    this.connection = undefined;
  }
}

/** One side of the run: a fake Discord, a database and the chain of bot processes on it, killed one step at a time. */
class Lane {
  readonly fake = new FakeDiscord({ responseTimeoutMs: 3000 });
  /** Only the unanswered variant needs it; the answered one talks to the fake directly, as DISCORD_API allows. */
  readonly proxy?: KillingProxy;
  readonly folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-restart-kill-'));
  readonly file = path.join(this.folder, 'bot.db');
  readonly processes: ChildBot[] = [];
  /** Each process's resident memory when it became ready. */
  readonly rssKb: number[] = [];
  readonly violations: string[] = [];
  /** Findings that do not fail the run. */
  readonly notes: string[] = [];
  /** What happened at each step, for the summary. */
  readonly outcomes: string[] = [];
  kills = 0;
  private stored?: StoredState;
  /** Per process, how many of its problems were already reported. */
  private readonly problemsSeen = new Map<ChildBot, number>();

  constructor(readonly variant: Variant) {
    if (variant === 'unanswered') this.proxy = new KillingProxy(() => this.fake.url);
  }

  get bot(): ChildBot {
    return this.processes.at(-1)!;
  }

  get db(): StoredState {
    return this.stored!;
  }

  async start(): Promise<void> {
    await this.fake.start();
    await this.proxy?.start();
    await registerCommands(new REST({ api: this.fake.restApi }).setToken(this.fake.token), this.fake.applicationId, this.fake.guildId);
    await this.spawn();
    this.stored = new StoredState(this.file);
  }

  async spawn(): Promise<void> {
    this.stored?.close();
    const bot = await ChildBot.spawn({
      env: {
        DISCORD_TOKEN: this.fake.token,
        DISCORD_APPLICATION_ID: this.fake.applicationId,
        DISCORD_API: this.proxy?.restApi ?? this.fake.restApi,
        DATABASE_URL: `file:${this.file}`,
        LOG_LEVEL: 'info',
      },
    });
    this.processes.push(bot);
    this.rssKb.push(bot.rssKb() ?? 0);
    await this.fake.waitForReady();
  }

  async kill(): Promise<void> {
    const exit = await this.bot.kill('SIGKILL');
    if (exit.signal !== 'SIGKILL') this.violations.push(`process ${this.bot.pid} exited by itself (${JSON.stringify(exit)}) before the kill`);
    this.kills++;
  }

  /** Acts as a user; any Discord rule the bot breaks answering is a violation. */
  async act(request: SandboxInteractionRequest, what: string): Promise<SandboxInteractionResult> {
    const result = await this.fake.interact(request);
    this.violations.push(...result.errors.map((error) => `${what} broke a Discord rule: ${error}`));
    return result;
  }

  /**
   * Applies a step's answer to the contest: the public answer a step gives, maybe followed by private notes (a press
   * that brought a stale message up to date says so privately). A violation if it is not that answer.
   */
  took(step: Step, contest: Contest, result: SandboxInteractionResult, where: string): boolean {
    const [answer, ...rest]: (SandboxResponse | undefined)[] = result.responses;
    // After the answer: private notes, new messages (the turn prompt, the result) and the contest message linked to the result.
    const followsUp = (note: SandboxResponse | undefined) => note?.kind === 'followup' || (note?.kind === 'edit' && !note.ephemeral);
    if (answer?.kind !== step.answer || answer.ephemeral || rest.some((note) => !followsUp(note))) {
      this.violations.push(`${where}: ${step.name} answered ${JSON.stringify(result.responses.map((r) => ({ kind: r.kind, ephemeral: r.ephemeral, text: brief(textOf(r)) })))}, expected one public ${step.answer}`);
      return false;
    }
    if (step.writes === 'created') {
      const id = /Contest #(\d+)/.exec(textOf(answer))?.[1];
      if (!id || !answer.messageId) {
        this.violations.push(`${where}: the opening message names no contest: ${brief(textOf(answer))}`);
        return false;
      }
      contest.id = Number(id);
      contest.message = answer.messageId;
    }
    return true;
  }

  /** Plays `step` normally, first checking its control is on the contest message as the user sees it. */
  async play(step: Step, contest: Contest, where: string): Promise<boolean> {
    if (step.control && contest.message) {
      const message = this.fake.message(contest.message);
      const control = step.control(contest);
      if (!message || !customIds(message.components).includes(control)) {
        const stored = contest.id ? this.db.contest(contest.id) : undefined;
        this.violations.push(
          `${where}: stuck before ${step.name}: the contest message does not offer ${control} (it shows "${brief(message && textOf(message))}", ` +
            `controls ${JSON.stringify(message ? customIds(message.components) : [])}), while the stored contest is in phase ${stored?.phase}`,
        );
        return false;
      }
    }
    return this.took(step, contest, await this.act(step.request(contest), `${where} ${step.name}`), where);
  }

  async importSheet(user: string, sheet: object): Promise<void> {
    const result = await this.act({ user, command: 'sheet import', options: { file: { filename: 'sheet.json', content: JSON.stringify(sheet) } } }, `${user}'s sheet import`);
    const text = result.responses.map(textOf).join(' ');
    if (!/Imported/.test(text)) throw new Error(`${user}'s sheet import failed: ${text}`);
  }

  /** One contest, killed at step `at`, played to its end when it can be; then checked. */
  async scenario(at: number): Promise<void> {
    const step = STEPS[at]!;
    const where = `[${this.variant} kill at ${step.name}]`;
    const tag = `${this.variant[0]}${at}`;
    const contest: Contest = { challenger: `sasha-${tag}`, opponent: `mike-${tag}` };
    await this.importSheet(contest.challenger, KAT);
    await this.importSheet(contest.opponent, TROY);
    const outcome = await this.killAt(at, contest, where);
    this.check(step, contest, where, outcome);
  }

  /** Plays up to step `at`, kills the bot there, starts a new one and plays on; says what happened. */
  private async killAt(at: number, contest: Contest, where: string): Promise<{ text: string; playedOut: boolean }> {
    const step = STEPS[at]!;
    for (const before of STEPS.slice(0, at)) {
      if (!(await this.play(before, contest, where))) return { text: `could not reach ${step.name}`, playedOut: false };
    }
    let text: string;
    if (this.variant === 'answered') {
      if (!(await this.play(step, contest, where))) return { text: `${step.name} failed before the kill`, playedOut: false };
      await this.kill();
      await this.spawn();
      text = 'killed after the answer; the new process went on';
    } else {
      const request = step.request(contest);
      const challengerId = this.fake.user(contest.challenger).id;
      const contestsBefore = this.db.contestsOf(challengerId);
      const versionBefore = contest.id ? this.db.version(contest.id) : -1;
      const dying = this.bot;
      // The next interaction callback: dropped, with the bot killed (synchronously, before anything else runs).
      const killed = this.proxy!.arm(1, 'before', () => dying.signal('SIGKILL'), 'callback');
      const pending = this.fake.interact(request).then(
        (result) => result,
        (error: unknown) => error as Error,
      );
      const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ANSWER_WAIT_MS).unref());
      if ((await Promise.race([killed, timer])) === 'late') {
        this.violations.push(`${where}: no answer to ${step.name} within ${ANSWER_WAIT_MS} ms; killed anyway`);
        this.proxy!.disarm();
      }
      await this.kill();
      const applied =
        step.writes === 'created' ? this.db.contestsOf(challengerId) > contestsBefore : step.writes === 'saved' ? this.db.version(contest.id!) > versionBefore : false;
      await this.spawn();
      const first = await pending;
      if (!(first instanceof Error)) {
        // The answer slipped out before the kill landed: the user saw it, so they go on as after an answer.
        text = `answered before the kill landed (${first.responses.map((r) => r.kind).join(', ')})`;
        if (!this.took(step, contest, first, where)) return { text, playedOut: false };
      } else {
        if (!/did not answer/.test(first.message)) this.violations.push(`${where}: the first press failed oddly: ${first.message}`);
        // "This interaction failed": the user does it again, on the new process.
        const again = await this.act(request, `${where} the second ${step.name}`);
        const kinds = again.responses.map((r) => `${r.kind}${r.ephemeral ? ' (private)' : ''}`).join(', ');
        const said = again.responses.map((r) => brief(textOf(r))).join(' | ');
        const stored = step.writes === null ? 'it opens a form' : applied ? 'applied by the killed process' : 'NOT applied by the killed process';
        text = `unanswered (${stored}); again → ${kinds}${again.responses.some((r) => r.ephemeral) ? `: "${said}"` : ''}`;
        const refusal = again.responses.length === 1 && again.responses[0]!.kind === 'reply' && again.responses[0]!.ephemeral;
        if (refusal) {
          if (APOLOGY.test(said)) this.violations.push(`${where}: the second press got an error apology, not a polite refusal: ${said}`);
        } else if (!this.took(step, contest, again, `${where} (second press)`)) {
          return { text, playedOut: false };
        }
      }
    }
    for (const after of STEPS.slice(at + 1)) {
      if (!(await this.play(after, contest, where))) return { text: `${text}; STUCK before ${after.name}`, playedOut: false };
    }
    return { text, playedOut: true };
  }

  /** The checks every contest ends with, played out or not. */
  private check(step: Step, contest: Contest, where: string, outcome: { text: string; playedOut: boolean }): void {
    const found: string[] = [];
    if (contest.id !== undefined) {
      const stored = this.db.contest(contest.id);
      const rolls = this.db.contestRolls(contest.id);
      const rounds = stored ? (JSON.parse(stored.state) as { rounds: Array<{ rollId?: string }> }).rounds : [];
      if (outcome.playedOut) {
        if (stored?.phase !== 'resolved') found.push(`contest #${contest.id} is stored in phase ${stored?.phase}, not resolved`);
        if (rounds.length !== 1) found.push(`contest #${contest.id} has ${rounds.length} rounds stored, not 1`);
        const message = contest.message ? this.fake.message(contest.message) : undefined;
        const shown = message ? textOf(message) : '';
        if (!/\*\*(Kat|Troy) wins\.\*\*|\*\*Both failed: nothing changes\.\*\*/.test(shown)) found.push(`contest #${contest.id}'s message does not show the result: "${brief(shown)}"`);
        if (message && message.components.length) found.push(`contest #${contest.id}'s message still has controls after the result`);
        const results = this.fake.messages().filter((posted) => textOf(posted).includes(`the dice of contest #${contest.id} have rolled`));
        if (results.length !== 1) found.push(`contest #${contest.id} has ${results.length} result messages, not 1`);
      }
      if (rolls.length !== rounds.length || (outcome.playedOut && rolls.length !== 1)) {
        found.push(`contest #${contest.id} has ${rolls.length} contest roll(s) in the roll log [${rolls.join(', ')}] for ${rounds.length} stored round(s)`);
      } else if (rolls.length === 1 && rounds[0]?.rollId !== rolls[0]) {
        found.push(`contest #${contest.id}'s roll ${rolls[0]} is not the one its round names (${rounds[0]?.rollId})`);
      }
      if (stored && contest.message && stored.messageId !== contest.message) {
        // Only the expiry sweep uses it (to grey out an expired contest's message), so this is noted, not failed.
        this.notes.push(`${where}: contest #${contest.id} stores message ${stored.messageId}, but it is shown on ${contest.message}`);
      }
    }
    const players = [contest.challenger, contest.opponent].map((name) => this.fake.user(name).id);
    for (const open of this.db.openContestsOf(players)) {
      found.push(`contest #${open.id} is left open in phase ${open.phase} (message ${open.messageId ?? 'none: never shown'})`);
    }
    found.push(...this.newProblems());
    this.violations.push(...found.map((problem) => `${where}: ${problem}`));
    const verdict = found.length ? ` — ${found.length} violation(s)` : outcome.playedOut ? ' — resolved once' : '';
    this.outcomes.push(`${this.variant.padEnd(10)} ${step.name.padEnd(26)} ${outcome.text}${verdict}`);
  }

  /** What the processes logged as errors or printed outside the log since the last call. */
  private newProblems(): string[] {
    return this.processes.flatMap((bot) => {
      const problems = bot.problems();
      const fresh = problems.slice(this.problemsSeen.get(bot) ?? 0);
      this.problemsSeen.set(bot, problems.length);
      return fresh.map((problem) => `pid ${bot.pid}: ${problem}`);
    });
  }

  async run(): Promise<void> {
    await this.start();
    for (let at = 0; at < STEPS.length; at++) await this.scenario(at);
    // The last process also gets the clean shutdown users give it with Ctrl-C.
    const exit = await this.bot.stop();
    if (exit.code !== 0) this.violations.push(`the last process did not shut down cleanly on SIGTERM: ${JSON.stringify(exit)}`);
    if (this.db.integrity() !== 'ok') this.violations.push(`the database is damaged: ${this.db.integrity()}`);
    this.violations.push(...this.newProblems());
    this.violations.push(...this.fake.violations.map((violation) => `fake Discord: ${violation}`));
  }

  async close(): Promise<void> {
    for (const bot of this.processes) await bot.kill('SIGKILL');
    this.stored?.close();
    await this.proxy?.stop();
    await this.fake.stop();
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}

const lanes = [new Lane('unanswered'), new Lane('answered')];

afterAll(async () => {
  for (const lane of lanes) await lane.close();
});

it('a bot SIGKILLed at any step of a contest is replaced by a new process that plays the contest to its one result', async () => {
  const started = performance.now();
  // allSettled: a lane that failed must not leave the other one running while afterAll tears everything down.
  const runs = await Promise.allSettled(lanes.map((lane) => lane.run()));
  for (const run of runs) if (run.status === 'rejected') throw run.reason;
  const seconds = (performance.now() - started) / 1000;

  const processes = lanes.flatMap((lane) => lane.processes);
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
  const violations = lanes.flatMap((lane) => lane.violations);
  console.log(
    [
      ...lanes.flatMap((lane) => lane.outcomes),
      ...lanes.flatMap((lane) => lane.notes.map((note) => `note: ${note}`)),
      `restart-kill: ${processes.length} processes started, ${lanes.reduce((sum, lane) => sum + lane.kills, 0)} kills (SIGKILL), ` +
        `${STEPS.length} steps × ${lanes.length} variants covered, ${violations.length} violations; ` +
        `start-up median ${(median(processes.map((bot) => bot.startupMs)) / 1000).toFixed(1)} s, RSS at ready median ` +
        `${(median(lanes.flatMap((lane) => lane.rssKb)) / 1024).toFixed(0)} MB; ${seconds.toFixed(0)} s in all`,
    ].join('\n'),
  );
  expect(violations).toEqual([]);
}, 15 * 60_000);
