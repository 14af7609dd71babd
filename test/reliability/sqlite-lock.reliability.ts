// The locked-database part of the reliability suite (issue 7): another OS process (test/helpers/lock-holder.mjs,
// better-sqlite3 in a child process) takes the write lock on the bot's SQLite file with BEGIN IMMEDIATE while users
// roll, set a skill, move a contest and read.
//   1. Held until the reads have answered and the waiting writes show "thinking…" (deferred by the responder):
//      every interaction answered in Discord's time (the fake refuses a late answer, a violation), reads while the
//      lock is held, writes after it is released, nothing lost or done twice, no error in the log.
//   2. Held until each write was told privately that the database is busy (after the bot's whole wait,
//      BUSY_WAIT_BUDGET_MS): nothing of them is written; once the lock is gone the bot works again.
// The lock is let go when what the test waits for has happened, never after a fixed time.
//
// Run with `npm run test:reliability` (vitest.reliability.config.ts); `npm test` does not pick this file up.
import { afterAll, beforeAll, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { databaseFile } from '../../src/store/sqlite-file-guard.js';
import { BUSY_WAIT_BUDGET_MS } from '../../src/store/sqlite-locks.js';
import type { SandboxInteractionRequest, SandboxInteractionResult, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { holdWriteLock } from '../helpers/lock-holder.js';
import { deferredCommands, startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';


type LogLine = Record<string, unknown>;

let sandbox: TestSandbox;
let file: string;
const logLines: LogLine[] = [];
let contest: { id: number; message: string };

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  // The router's guard at its real delay (2 s): this is the bot as it runs.
  sandbox = await startTestSandbox({ log: pino({ level: 'info' }, sink) });
  file = databaseFile(sandbox.databaseUrl);
  for (const [user, sheet] of [['mike', 'Troy'], ['sasha', 'Kat']] as const) {
    await sandbox.one({ user, command: 'sheet create', options: { name: sheet } });
    await sandbox.one({ user, command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
  }
  contest = await acceptedContest();
}, 60_000);

/** A contest Troy accepted, waiting for Kat's Agree (which rolls the dice). */
async function acceptedContest(): Promise<{ id: number; message: string }> {
  const opening = await sandbox.one({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'Kat outdrives Troy', stakes: 'Troy pays for fuel', skill: 'Driving', role: 'attacker' } });
  const started = { id: Number(/Contest #(\d+)/.exec(textOf(opening))![1]), message: opening.messageId! };
  expect((await sandbox.one({ user: 'mike', button: `contest:accept:${started.id}`, message: started.message })).kind).toBe('modal');
  await sandbox.act({ user: 'mike', modal: `contest:acceptform:${started.id}`, fields: { stakes: 'Kat buys the tyres', role: 'defender', skill: 'Driving', archetypes: '' }, message: started.message });
  contest = started;
  expect(stored().contest.phase).toBe('countered');
  return started;
}

afterAll(async () => {
  await sandbox?.stop();
});

/** What the database file holds, read by a connection of its own (no cache of the bot's in between). */
function stored() {
  const db = new Database(file, { readonly: true });
  try {
    const rolls = (db.prepare('SELECT count(*) AS n FROM "Roll"').get() as { n: number }).n;
    const skills = db
      .prepare('SELECT o."name" AS sheet, s."name" AS skill, s."level" AS level FROM "Skill" s JOIN "Operator" o ON o."id" = s."operatorId" ORDER BY o."name", s."name"')
      .all() as Array<{ sheet: string; skill: string; level: number }>;
    const row = db.prepare('SELECT "version", "state" FROM "Contest" WHERE "id" = ?').get(contest?.id ?? 0) as { version: number; state: string } | undefined;
    const rollIds = (db.prepare('SELECT "id" FROM "Roll"').all() as Array<{ id: string }>).map((r) => r.id);
    return { rolls, rollIds, skills: skills.map((s) => `${s.sheet}: ${s.skill} ${s.level}`), contest: { version: row?.version ?? 0, phase: (JSON.parse(row?.state ?? '{}') as { phase?: string }).phase } };
  } finally {
    db.close();
  }
}

interface Timed {
  name: string;
  result: SandboxInteractionResult;
  /** Date.now() when interact() resolved (the bot done with it, after the fake's quiet period). */
  doneAt: number;
}

async function timed(name: string, request: SandboxInteractionRequest): Promise<Timed> {
  const result = await sandbox.fake.interact(request);
  return { name, result, doneAt: Date.now() };
}

const kinds = (result: SandboxInteractionResult): string[] => result.responses.map((r) => `${r.kind}${r.ephemeral ? ' (private)' : ''}`);
const answer = (result: SandboxInteractionResult): SandboxResponse | undefined => result.responses.filter((r) => r.kind !== 'deferred' && r.kind !== 'delete').at(-1);
const errorLines = (): LogLine[] => logLines.filter((line) => Number(line.level) >= 50);

function report(title: string, runs: Timed[], lockedAt: number, releasedAt: number): void {
  console.log(`\n${title}: lock held ${releasedAt - lockedAt} ms by another process`);
  for (const { name, result, doneAt } of runs) {
    console.log(
      `  ${name.padEnd(22)} first answer ${String(Math.round(result.firstResponseMs ?? -1)).padStart(5)} ms  ` +
        `done ${String(doneAt - lockedAt).padStart(6)} ms after the lock (${doneAt < releasedAt ? 'while held' : `${doneAt - releasedAt} ms after release`})  ${kinds(result).join(' → ')}`,
    );
  }
}

it('given another process holding the write lock, reads are answered while it is held, writes once it lets go, and nothing is lost', async () => {
  const before = stored();
  const lock = await holdWriteLock(file);
  const pending = [
    timed('/roll challenge', { user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 90 } }),
    timed('/sheet skill set', { user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } }),
    timed('contest agree', { user: 'sasha', button: `contest:agree:${contest.id}`, message: contest.message }),
    timed('/sheet show', { user: 'mike', command: 'sheet show' }),
    timed('/log', { user: 'sasha', command: 'log' }),
  ];
  try {
    // The reads answer while the lock is held; the writes wait for it until the responder defers them.
    await Promise.all(pending.slice(3));
    await until(() => ['roll challenge', 'sheet skill set'].every((command) => deferredCommands(sandbox.fake).includes(command)), 'the waiting writes deferred');
  } finally {
    lock.release();
  }
  const releasedAt = await lock.released;
  const runs = await Promise.all(pending);
  report('Lock held until the writes were deferred', runs, lock.lockedAt, releasedAt);
  const [roll, skill, agree, show, log] = runs as [Timed, Timed, Timed, Timed, Timed];

  for (const { name, result } of runs) {
    expect(result.errors, name).toEqual([]);
    expect(answer(result), `${name}: ${kinds(result).join(', ')}`).toBeDefined();
  }
  // Reads: at once, while the lock is still held.
  for (const read of [show, log]) {
    expect(read.doneAt, read.name).toBeLessThan(releasedAt);
  }
  expect(textOf(answer(show.result)!)).toContain('Troy');
  // Writes: after the lock is gone, each answered once with its real answer.
  for (const write of [roll, skill, agree]) expect(write.doneAt, write.name).toBeGreaterThanOrEqual(releasedAt);
  expect(kinds(roll.result).filter((k) => k !== 'deferred')).toEqual(kinds(roll.result)[0] === 'deferred' ? ['edit'] : ['reply']);
  expect(kinds(skill.result).filter((k) => k !== 'deferred')).toEqual(kinds(skill.result)[0] === 'deferred' ? ['delete', 'followup (private)'] : ['reply (private)']);
  // Agree rolls the dice: the contest message, the result as a new message, and the contest message linked to it.
  expect(kinds(agree.result).filter((k) => k !== 'deferred')).toEqual(kinds(agree.result)[0] === 'deferred' ? ['edit', 'followup', 'edit'] : ['update', 'followup', 'edit']);
  expect(answer(skill.result)!.content).toContain('Climbing');

  // Nothing lost, nothing twice.
  const after = stored();
  // The challenge roll and the contest's round.
  expect(after.rolls).toBe(before.rolls + 2);
  const rollIds = after.rollIds.filter((id) => !before.rollIds.includes(id));
  expect(rollIds.filter((id) => textOf(answer(roll.result)!).includes(id))).toHaveLength(1);
  expect(rollIds.filter((id) => agree.result.responses.some((response) => textOf(response).includes(id)))).toHaveLength(1);
  expect(after.skills).toEqual([...before.skills, 'Troy: Climbing 40'].sort());
  expect(after.contest.phase).toBe('resolved');
  expect(after.contest.version).toBeGreaterThan(before.contest.version);
  expect(sandbox.fake.message(contest.message)?.content ?? '').not.toContain('busy');

  expect(errorLines()).toEqual([]);
  expect(sandbox.fake.violations).toEqual([]);
  const deferred = runs.filter((run) => kinds(run.result)[0] === 'deferred').map((run) => run.name);
  console.log(`  deferred by the guard: ${deferred.length ? deferred.join(', ') : 'none'}; error lines: ${errorLines().length}; rolls ${before.rolls} → ${after.rolls}; contest version ${before.contest.version} → ${after.contest.version}`);
}, 60_000);

it('given the write lock held past the bot’s wait, each write is told the database is busy and nothing of it is written', async () => {
  await acceptedContest();
  const before = stored();
  const warningsBefore = logLines.filter((line) => line.msg === 'database busy: gave up waiting for its lock').length;
  const lock = await holdWriteLock(file);
  const writing = Promise.all([
    timed('/roll challenge', { user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 90 } }),
    timed('/sheet skill set', { user: 'mike', command: 'sheet skill set', options: { name: 'Stealth', level: 55 } }),
    timed('contest agree', { user: 'sasha', button: `contest:agree:${contest.id}`, message: contest.message }),
  ]);
  const read = await timed('/sheet show', { user: 'mike', command: 'sheet show' });
  // Reads do not wait for the lock: answered while it is held (it is let go only once every write has its answer).
  // Whether the answer was deferred says how long it took, which a loaded machine decides: not asserted here.
  expect(textOf(answer(read.result)!)).toContain('Troy');

  // The fake stops waiting 5 s after a deferral; the busy answers come later (after the bot's whole wait), and the
  // lock is held until every write has had its answer.
  let writes: Timed[] = [];
  const busyAnswers = new Map<string, number>();
  try {
    writes = await writing;
    await until(() => {
      for (const message of sandbox.fake.messages(undefined, { includeEphemeral: true })) {
        const write = writes.find((w) => w.result.id === message.interactionId);
        if (write && message.ephemeral && message.content.includes('busy') && !busyAnswers.has(write.name)) busyAnswers.set(write.name, Date.now() - lock.lockedAt);
      }
      return busyAnswers.size === writes.length;
    }, 'a busy answer to each write');
  } finally {
    lock.release();
  }
  const releasedAt = await lock.released;
  for (const { name, result } of writes) {
    expect(result.errors, name).toEqual([]);
    expect(kinds(result)[0], name).toBe('deferred');
  }
  console.log(`\nLock held ${releasedAt - lock.lockedAt} ms (the bot waits ${BUSY_WAIT_BUDGET_MS} ms)`);
  for (const { name, result } of [...writes, read]) {
    console.log(`  ${name.padEnd(22)} first answer ${String(Math.round(result.firstResponseMs ?? -1)).padStart(5)} ms  ${busyAnswers.has(name) ? `"busy" answer ${busyAnswers.get(name)} ms after the lock` : kinds(result).join(' → ')}`);
  }
  expect([...busyAnswers.keys()].sort()).toEqual(writes.map((w) => w.name).sort());

  // Nothing half-written, and the contest message still offers the step that was refused.
  const after = stored();
  expect(after).toEqual(before);
  const busyWarnings = logLines.filter((line) => line.msg === 'database busy: gave up waiting for its lock').slice(warningsBefore);
  expect(busyWarnings).toHaveLength(writes.length);
  console.log(`  waited before giving up: ${busyWarnings.map((line) => `${String(line.waitedMs)} ms`).join(', ')}`);

  // And with the lock gone, the same writes go through.
  const roll = await sandbox.fake.interact({ user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 90 } });
  expect(kinds(roll)).toEqual(['reply']);
  const agree = await sandbox.fake.interact({ user: 'sasha', button: `contest:agree:${contest.id}`, message: contest.message });
  expect(kinds(agree)).toEqual(['update', 'followup', 'edit']);
  expect(stored().rolls).toBe(before.rolls + 2);
  expect(stored().contest.phase).toBe('resolved');
  expect(errorLines()).toEqual([]);
  expect(sandbox.fake.violations).toEqual([]);
  console.log(`  after release: rolls ${before.rolls} → ${stored().rolls}; error lines ${errorLines().length}; busy warnings ${busyWarnings.length}`);
}, 60_000);
