// The bot as users run it: `node --import tsx src/main.ts` in its own OS process, so a test can SIGKILL it like
// a crash or an out-of-memory kill would, and a benchmark can read its memory. Its pino JSON lines are parsed as
// they come; anything else it prints is kept too, since an uncaught exception or a crash prints plain text.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LOOPBACK_GUARD = path.join(PROJECT_ROOT, 'test', 'helpers', 'loopback-only.ts');

/** pino's numeric levels: 50 error, 60 fatal. */
export const ERROR_LEVEL = 50;

export interface LogLine {
  level: number;
  msg?: string;
  time?: number;
  [key: string]: unknown;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildBotOptions {
  /** The bot's environment (DISCORD_TOKEN, DISCORD_APPLICATION_ID, DISCORD_API, DATABASE_URL, LOG_LEVEL …). */
  env: Record<string, string>;
  /** The entry point, from the project folder; default src/main.ts. */
  entry?: string;
  /** A log line that means "up and answering"; default main.ts's line after login. */
  readyWhen?: (line: LogLine) => boolean;
  readyTimeoutMs?: number;
  /**
   * Loads test/helpers/loopback-only.ts in the child too (default true): a bot pointed at a fake Discord must
   * fail at once, not reach the real one, if anything escapes DISCORD_API.
   */
  loopbackOnly?: boolean;
  /** Called with every parsed log line as it arrives (e.g. to echo or to watch for a step). */
  onLog?: (line: LogLine) => void;
  /** Node options before the entry point (e.g. the memory flags `npm start` uses). */
  nodeArgs?: string[];
}

const READY_MESSAGE = /^bot running/;

/** The shard manager's line once every cluster has been ready once (src/discord/shards.ts): a sharded bot is up. */
export const shardsRunning = (line: LogLine): boolean => /^shards running/.test(line.msg ?? '');

/** The variables that point a bot process at a fake Discord: its token, its application and its REST base. */
export function fakeDiscordEnv(fake: { token: string; applicationId: string; restApi: string }): Record<string, string> {
  return { DISCORD_TOKEN: fake.token, DISCORD_APPLICATION_ID: fake.applicationId, DISCORD_API: fake.restApi };
}

/**
 * An `onLog` for a bot whose fake Discord was made with `botSaysWhenDone`: the router's closing line for each
 * interaction ("interaction handled", written at LOG_LEVEL debug) tells the fake the bot is done with it, so interact()
 * waits for the bot in its own process exactly as for the sandbox's bot in this one, never for a quiet period.
 */
export function tellFakeWhenHandled(fake: { interactionHandled(interactionId: string): void }): (line: LogLine) => void {
  return (line) => {
    if (line.msg === 'interaction handled' && typeof line.interactionId === 'string') fake.interactionHandled(line.interactionId);
  };
}

export class ChildBot {
  /** Parsed JSON log lines from stdout, in order. */
  readonly logs: LogLine[] = [];
  /** Lines that were not JSON: stderr, and anything else printed on stdout. */
  readonly text: string[] = [];
  readonly exited: Promise<ChildExit>;
  readonly startedAt = performance.now();
  /** Milliseconds from spawn to the ready line; set by spawn(). */
  startupMs = 0;
  private exit: ChildExit | null = null;
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly onLog?: (line: LogLine) => void,
  ) {
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': by then its output is all read, so nothing it printed while dying is missed.
      child.once('close', (code, signal) => {
        this.exit = { code, signal };
        this.wake();
        resolve(this.exit);
      });
    });
    collectLines(child.stdout!, (line) => this.onStdout(line));
    collectLines(child.stderr!, (line) => {
      this.text.push(line);
      this.wake();
    });
  }

  /** Starts the bot and resolves once it logged its ready line; rejects (and kills it) if it died or took too long. */
  static async spawn(options: ChildBotOptions): Promise<ChildBot> {
    const entry = path.join(PROJECT_ROOT, options.entry ?? 'src/main.ts');
    const loopbackOnly = options.loopbackOnly ?? true;
    // tsx for a TypeScript entry or the (TypeScript) loopback guard only: a JavaScript entry runs as `npm start` runs it.
    const imports = [...(loopbackOnly || /\.[mc]?ts$/.test(entry) ? ['--import', 'tsx'] : []), ...(loopbackOnly ? ['--import', LOOPBACK_GUARD] : [])];
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...imports, entry], {
      cwd: PROJECT_ROOT,
      env: { ...baseEnvironment(), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const bot = new ChildBot(child, options.onLog);
    const readyWhen = options.readyWhen ?? ((line: LogLine) => READY_MESSAGE.test(line.msg ?? ''));
    try {
      await bot.waitForLog(readyWhen, options.readyTimeoutMs ?? 60_000, 'the ready log line');
    } catch (error) {
      await bot.kill('SIGKILL');
      throw error;
    }
    bot.startupMs = performance.now() - bot.startedAt;
    return bot;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.exit === null;
  }

  /**
   * Waits for a state (a count the fake keeps, a row written), checking it every 25 ms; fails at once, with the bot's
   * last lines, if the bot exits first. The deadline only stops a run that would otherwise hang.
   */
  async until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (this.exit) throw new Error(`the bot (pid ${this.pid}) exited (${JSON.stringify(this.exit)}) before ${what}:\n${this.tail(30)}`);
      if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms:\n${this.tail(30)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Waits for a log line (counting those already seen) matching `predicate`. */
  async waitForLog(predicate: (line: LogLine) => boolean, timeoutMs = 10_000, what = 'a log line'): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.logs.find(predicate);
      if (found) return found;
      if (this.exit) throw new Error(`the bot (pid ${this.pid}) exited (${JSON.stringify(this.exit)}) before ${what}:\n${this.tail()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the bot (pid ${this.pid}) did not print ${what} within ${timeoutMs} ms:\n${this.tail()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  /**
   * Sends `signal` (default SIGKILL: no handler runs, nothing is flushed) and resolves once the process is gone.
   * A process that already exited resolves with its exit as it was.
   */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ChildExit> {
    if (this.exit) return this.exit;
    this.child.kill(signal);
    return this.exited;
  }

  /** Sends `signal` and returns at once: for a kill that must land before anything else in this process runs. */
  signal(signal: NodeJS.Signals): void {
    if (!this.exit) this.child.kill(signal);
  }

  /** SIGTERM: the clean shutdown main.ts does; SIGKILL after `graceMs` if it hangs. */
  async stop(graceMs = 10_000): Promise<ChildExit> {
    if (this.exit) return this.exit;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resident memory in kilobytes (VmRSS from /proc), or null when the process is gone or /proc is absent. */
  rssKb(): number | null {
    if (this.exit) return null;
    try {
      const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
      return match ? Number(match[1]) : null;
    } catch {
      return null;
    }
  }

  /** Error and fatal log lines. */
  errors(): LogLine[] {
    return this.logs.filter((line) => line.level >= ERROR_LEVEL);
  }

  /**
   * Everything that says the process went wrong: error-level lines and plain-text output (a Node crash, an uncaught
   * exception, a warning printed by a library), each as one string.
   */
  problems(): string[] {
    return [...this.errors().map((line) => `error logged: ${JSON.stringify(line).slice(0, 2000)}`), ...this.text.filter((line) => line.trim()).map((line) => `printed: ${line.slice(0, 2000)}`)];
  }

  /** The last lines it printed, for failure messages. */
  tail(lines = 20): string {
    const all = [...this.logs.map((line) => JSON.stringify(line)), ...this.text];
    return all.slice(-lines).join('\n');
  }

  private onStdout(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (parsed && typeof parsed === 'object' && typeof (parsed as LogLine).level === 'number') {
      this.logs.push(parsed as LogLine);
      this.onLog?.(parsed as LogLine);
    } else {
      this.text.push(line);
    }
    this.wake();
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}

/** What the child needs from our environment to run node; nothing of the bot's own settings leaks in from it. */
function baseEnvironment(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LC_ALL', 'TZ', 'SystemRoot'];
  return Object.fromEntries(keep.flatMap((name) => (process.env[name] !== undefined ? [[name, process.env[name]]] : [])));
}

function collectLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
  });
  stream.on('end', () => {
    if (pending) onLine(pending);
    pending = '';
  });
}

/** Whether a process with this pid is still running (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
