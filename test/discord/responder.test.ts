// The responder (src/discord/responder.ts) through the fake Discord: a handler still working after the responder's
// delay gets its interaction deferred, and its own answer then lands where it should, once; a fast handler is
// never deferred. The test command /slow (test/helpers/slow-command.ts) waits as long as it is told; the last tests
// make real commands slow the real way, with another process holding the database's write lock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { databaseFile } from '../../src/store/sqlite-file-guard.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import type { SandboxInteractionRequest, SandboxInteractionResult, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { holdWriteLock } from '../helpers/lock-holder.js';
import { registerSlowCommand, slowCalls, slowCommand } from '../helpers/slow-command.js';
import { deferredCommands, textOf } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

/** The responder's delay here, and a handler's wait well past it (and well inside the fake's 3 s deadline). */
const DEFER_AFTER_MS = 250;
const SLOW_MS = 700;

let sandbox: Sandbox;
let databaseUrl: string;
let logLines: Array<Record<string, unknown>>;

beforeEach(async () => {
  logLines = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  databaseUrl = freshDatabaseUrl();
  sandbox = await startSandbox({
    port: 0,
    databaseUrl,
    migrate: false,
    log: pino({ level: 'info' }, sink),
    deferAfterMs: DEFER_AFTER_MS,
    extraCommands: [slowCommand],
    // Each test counts every answer; the one-time welcome has its own test (test/e2e/welcome.test.ts).
    welcome: false,
  });
  await registerSlowCommand(sandbox.fake);
  for (const key of Object.keys(slowCalls)) delete slowCalls[key];
});

afterEach(async () => {
  try {
    expect(sandbox.fake.violations).toEqual([]);
  } finally {
    await sandbox.stop();
  }
});

async function act(request: SandboxInteractionRequest): Promise<SandboxInteractionResult> {
  const result = await sandbox.fake.interact(request);
  expect(result.errors, `Discord rules broken by ${JSON.stringify(request)}`).toEqual([]);
  return result;
}

const kinds = (result: SandboxInteractionResult): string[] => result.responses.map((r) => `${r.kind}${r.ephemeral ? ' (private)' : ''}`);
const last = (result: SandboxInteractionResult): SandboxResponse => result.responses.at(-1)!;
const errorLines = () => logLines.filter((line) => Number(line.level) >= 50);

/** A public message with the slow buttons on it, answered at once; its buttons wait `ms`. */
async function messageWithButtons(ms: number): Promise<string> {
  const result = await act({ user: 'mike', command: 'slow reply', options: { ms: 0, buttons: true, button_ms: ms } });
  expect(kinds(result)).toEqual(['reply']);
  return result.responses[0]!.messageId!;
}

describe('a fast handler', () => {
  it('given a handler that answers at once, the interaction is answered once and never deferred', async () => {
    const reply = await act({ user: 'mike', command: 'slow reply', options: { ms: 0 } });
    expect(kinds(reply)).toEqual(['reply']);
    const message = await messageWithButtons(0);
    const update = await act({ user: 'mike', button: 'slow:update:0', message });
    expect(kinds(update)).toEqual(['update']);
    // Past the responder's delay, nothing more comes: its timer was cleared when the handler finished.
    await new Promise((resolve) => setTimeout(resolve, DEFER_AFTER_MS * 2));
    expect(sandbox.fake.messages().map((m) => m.content)).toEqual(['slow reply after 0 ms', 'updated by update after 0 ms']);
    expect(logLines.filter((line) => line.msg === 'deferred: the handler is still working')).toEqual([]);
  });

  it('given a handler that defers itself at once, its reply fills that deferral and keeps its visibility', async () => {
    const shared = await act({ user: 'mike', command: 'slow defer', options: { ms: 0 } });
    expect(kinds(shared)).toEqual(['deferred', 'edit']);
    expect(last(shared).content).toBe('deferred by the handler after 0 ms');
    const secret = await act({ user: 'mike', command: 'slow defer', options: { ms: 0, private: true } });
    expect(kinds(secret)).toEqual(['deferred (private)', 'edit (private)']);
    expect(sandbox.fake.messages().map((m) => m.content)).toEqual(['deferred by the handler after 0 ms']);
    expect(logLines.filter((line) => line.msg === 'deferred: the handler is still working')).toEqual([]);
  });

  it('given a handler that opens a form at once, the form opens', async () => {
    const message = await messageWithButtons(0);
    const opened = await act({ user: 'mike', button: 'slow:modal:0', message });
    expect(kinds(opened)).toEqual(['modal']);
  });
});

describe('a slow slash command', () => {
  it('given a public reply, the responder defers and the reply fills the deferred message', async () => {
    const result = await act({ user: 'mike', command: 'slow reply', options: { ms: SLOW_MS } });
    expect(kinds(result)).toEqual(['deferred', 'edit']);
    expect(last(result).content).toBe(`slow reply after ${SLOW_MS} ms`);
    expect(sandbox.fake.messages().map((m) => m.content)).toEqual([`slow reply after ${SLOW_MS} ms`]);
    expect(slowCalls).toEqual({ reply: 1 });
  });

  it('given a private reply, the public placeholder goes and the reply comes privately', async () => {
    const result = await act({ user: 'mike', command: 'slow reply', options: { ms: SLOW_MS, private: true } });
    expect(kinds(result)).toEqual(['deferred', 'delete', 'followup (private)']);
    expect(last(result).content).toBe(`slow reply after ${SLOW_MS} ms`);
    expect(sandbox.fake.messages()).toEqual([]);
    expect(sandbox.fake.messages(undefined, { forUser: 'mike' }).map((m) => m.content)).toEqual([`slow reply after ${SLOW_MS} ms`]);
    expect(slowCalls).toEqual({ 'reply private': 1 });
  });

  it('given a UserError, it is shown privately, once', async () => {
    const result = await act({ user: 'mike', command: 'slow fail', options: { ms: SLOW_MS } });
    expect(kinds(result)).toEqual(['deferred', 'delete', 'followup (private)']);
    expect(textOf(last(result))).toContain(`slow refusal after ${SLOW_MS} ms`);
    expect(sandbox.fake.messages()).toEqual([]);
    expect(errorLines()).toEqual([]);
  });

  it('given a bug, the apology with the interaction id is shown privately and the error logged once', async () => {
    const result = await act({ user: 'mike', command: 'slow fail', options: { ms: SLOW_MS, kind: 'bug' } });
    expect(kinds(result)).toEqual(['deferred', 'delete', 'followup (private)']);
    expect(textOf(last(result))).toContain(result.id);
    expect(errorLines().map((line) => line.msg)).toEqual(['interaction failed']);
  });

  it('given a handler that defers itself after the responder did, its edit lands once, privately when it asked for that', async () => {
    const shared = await act({ user: 'mike', command: 'slow defer', options: { ms: SLOW_MS } });
    expect(kinds(shared)).toEqual(['deferred', 'edit']);
    expect(last(shared).content).toBe(`deferred by the handler after ${SLOW_MS} ms`);
    const secret = await act({ user: 'mike', command: 'slow defer', options: { ms: SLOW_MS, private: true } });
    expect(kinds(secret)).toEqual(['deferred', 'delete', 'followup (private)']);
    expect(last(secret).content).toBe(`deferred by the handler after ${SLOW_MS} ms`);
    expect(slowCalls).toEqual({ defer: 1, 'defer private': 1 });
  });
});

describe('a slow button', () => {
  it('given an update, the responder defers the update and the handler’s update edits the message', async () => {
    const message = await messageWithButtons(SLOW_MS);
    const result = await act({ user: 'mike', button: `slow:update:${SLOW_MS}`, message });
    expect(kinds(result)).toEqual(['deferred', 'edit']);
    expect(last(result).messageId).toBe(message);
    expect(sandbox.fake.message(message)?.content).toBe(`updated by update after ${SLOW_MS} ms`);
    expect(sandbox.fake.message(message)?.components).toEqual([]);
    expect(slowCalls).toEqual({ 'reply': 1, 'button update': 1 });
  });

  it('given a reply, public or private, it comes as a new message and the pressed message stays', async () => {
    const message = await messageWithButtons(SLOW_MS);
    const shared = await act({ user: 'mike', button: `slow:reply:${SLOW_MS}`, message });
    expect(kinds(shared)).toEqual(['deferred', 'followup']);
    expect(last(shared).content).toBe(`button reply after ${SLOW_MS} ms`);
    const secret = await act({ user: 'mike', button: `slow:private:${SLOW_MS}`, message });
    expect(kinds(secret)).toEqual(['deferred', 'followup (private)']);
    expect(sandbox.fake.message(message)?.content).toBe('slow reply after 0 ms');
  });

  it('given a UserError, it is shown privately and the message stays as it was', async () => {
    const message = await messageWithButtons(SLOW_MS);
    const result = await act({ user: 'mike', button: `slow:fail:${SLOW_MS}`, message });
    expect(kinds(result)).toEqual(['deferred', 'followup (private)']);
    expect(textOf(last(result))).toContain('slow button refusal');
    expect(sandbox.fake.message(message)?.content).toBe('slow reply after 0 ms');
    expect(errorLines()).toEqual([]);
  });

  it('given a form to open, which cannot follow a deferral, the user is asked privately to press again', async () => {
    const message = await messageWithButtons(SLOW_MS);
    const result = await act({ user: 'mike', button: `slow:modal:${SLOW_MS}`, message });
    expect(kinds(result)).toEqual(['deferred', 'followup (private)']);
    expect(last(result).content).toContain('press the button again');
    expect(errorLines()).toEqual([]);
  });

  it('given a form opened in time whose submit is slow, the responder defers the update and the submit edits the message', async () => {
    const message = await messageWithButtons(SLOW_MS);
    expect(kinds(await act({ user: 'mike', button: `slow:slowform:${SLOW_MS}`, message }))).toEqual(['modal']);
    const submitted = await act({ user: 'mike', modal: `slow:form:${SLOW_MS}`, fields: { text: 'x' }, message });
    expect(kinds(submitted)).toEqual(['deferred', 'edit']);
    expect(sandbox.fake.message(message)?.content).toBe(`updated by form after ${SLOW_MS} ms`);
    expect(slowCalls['button form']).toBe(1);
  });
});

describe('real commands while another process holds the database', () => {
  const file = () => databaseFile(databaseUrl);

  beforeEach(async () => {
    expect(kinds(await act({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } }))).toEqual(['reply (private)']);
    expect(kinds(await act({ user: 'mike', command: 'sheet skill set', options: { name: 'Driving', level: 30 } }))).toEqual(['reply (private)']);
  });

  it('given the write lock held by another program, writes are deferred and finish after it, a read answers while it is held', async () => {
    const lock = await holdWriteLock(file());
    let shown = false;
    const acts = Promise.all([
      act({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } }),
      act({ user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 90 } }),
      act({ user: 'mike', command: 'sheet show' }).then((result) => ((shown = true), result)),
    ]);
    try {
      // Held until the read has answered and both writes show Discord's "thinking…" (deferred by the responder).
      await until(() => shown && deferredCommands(sandbox.fake).includes('sheet skill set') && deferredCommands(sandbox.fake).includes('roll challenge'), 'the read answered and both writes deferred');
    } finally {
      lock.release();
    }
    await lock.released;
    const [skill, roll, show] = await acts;
    expect(kinds(skill)).toEqual(['deferred', 'delete', 'followup (private)']);
    expect(last(skill).content).toContain('Climbing');
    expect(kinds(roll)).toEqual(['deferred', 'edit']);
    expect(textOf(last(roll))).toContain('Driving');
    expect(textOf(last(show))).toContain('Troy');
    const sheet = await act({ user: 'mike', command: 'sheet show' });
    expect(textOf(last(sheet))).toContain('Climbing');
    expect(errorLines()).toEqual([]);
  });

  it('given a contest started while the lock is held, the contest keeps the id of the message its deferred reply became', async () => {
    expect(kinds(await act({ user: 'sasha', command: 'sheet create', options: { name: 'Kat' } }))).toEqual(['reply (private)']);
    await act({ user: 'sasha', command: 'sheet skill set', options: { name: 'Driving', level: 40 } });
    const lock = await holdWriteLock(file());
    const starting = act({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'Kat outdrives Troy', stakes: 'Troy pays', skill: 'Driving', role: 'attacker' } });
    try {
      await until(() => deferredCommands(sandbox.fake).includes('contest start'), 'the contest start deferred');
    } finally {
      lock.release();
    }
    await lock.released;
    const started = await starting;
    expect(kinds(started)).toEqual(['deferred', 'edit']);
    const id = Number(/Contest #(\d+)/.exec(textOf(last(started)))?.[1]);
    const contest = await sandbox.bot.store.contests.find(sandbox.fake.guildId, id);
    expect(contest?.messageId).toBe(started.responses[0]!.messageId);
    expect(last(started).messageId).toBe(started.responses[0]!.messageId);
  });
});
