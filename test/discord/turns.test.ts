import { describe, expect, it } from 'vitest';
import { HandlerTurns, type TurnClaim } from '../../src/discord/turns.js';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Lets every handed-over turn start: each waits for a pause of the event loop (setImmediate) after its hand-over. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

const anna: TurnClaim = { server: 'table-top', member: 'anna' };
const ben: TurnClaim = { server: 'table-top', member: 'ben' };
const heavy = (claim: TurnClaim): TurnClaim => ({ ...claim, heavy: true });

/**
 * A set of handlers under test: each takes a turn with its claim, notes when it started, and holds its turn until
 * the test lets it go (`finish`), or finishes at once when `holds` is false.
 */
function handlers(turns: HandlerTurns) {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const finished = new Map<string, Promise<void>>();
  const start = (label: string, claim: TurnClaim, holds = true): void => {
    finished.set(
      label,
      (async () => {
        const done = await turns.take(claim);
        started.push(label);
        if (holds) await new Promise<void>((resolve) => finishers.set(label, resolve));
        done();
      })(),
    );
  };
  const finish = async (label: string): Promise<void> => {
    await settle();
    const finisher = finishers.get(label);
    if (!finisher) throw new Error(`${label} has not started`);
    finisher();
    await finished.get(label);
    await settle();
  };
  return { started, start, finish, all: () => Promise.all(finished.values()) };
}

describe('interactions taking turns', () => {
  it('runs at most `size` handlers at once, the rest of one member in the order they arrived', async () => {
    const turns = new HandlerTurns(2);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const done = await turns.take(anna);
        started.push(index);
        most = Math.max(most, ++running);
        await later(5);
        running--;
        done();
      }),
    );
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('keeps the arrival order of a crowd each waiting once', async () => {
    const turns = new HandlerTurns(1);
    const { started, start, finish, all } = handlers(turns);
    start('first', anna);
    await settle();
    const players = Array.from({ length: 6 }, (_, i) => `player${i}`);
    for (const player of players) start(player, { server: 'table-top', member: player }, false);
    await finish('first');
    await all();
    expect(started).toEqual(['first', ...players]);
  });

  it('expects no wait while a turn is free, and a longer one the longer the queue', async () => {
    const turns = new HandlerTurns(1);
    expect(turns.expectedWaitMs(anna)).toBe(0);
    const first = await turns.take(anna);
    const one = turns.expectedWaitMs(anna);
    expect(one).toBeGreaterThan(0);
    const queued = [turns.take(anna), turns.take(anna)];
    expect(turns.expectedWaitMs(anna)).toBeCloseTo(3 * one);
    first();
    for (const next of queued) (await next)();
    expect(turns.expectedWaitMs(anna)).toBe(0);
  });

  it('learns how fast the queue drains: slow handlers make a longer expected wait', async () => {
    let clock = 0;
    const turns = new HandlerTurns(1, () => clock);
    const hold = await turns.take(anna);
    const before = turns.expectedWaitMs(anna);
    // Eight slow handlers queued behind one another: each finishes 40 ms (of the test's clock) after the last.
    const queued = Array.from({ length: 8 }, async () => {
      const done = await turns.take(anna);
      clock += 40;
      done();
    });
    hold();
    await Promise.all(queued);
    const busy = await turns.take(anna);
    expect(turns.expectedWaitMs(anna)).toBeGreaterThan(before * 3);
    busy();
  });

  it('one stall in a burst does not make every newcomer expect a long wait', async () => {
    let clock = 0;
    const turns = new HandlerTurns(1, () => clock);
    const hold = await turns.take(anna);
    const queued = Array.from({ length: 20 }, () => turns.take(anna));
    const before = turns.expectedWaitMs(anna);
    clock += 200; // one stall: a GC pause, a slow first query
    hold();
    const next = await queued[0]!;
    // The queue is as long as before, less the one done: a newcomer expects about the same wait, not ten times it.
    expect(turns.expectedWaitMs(anna)).toBeLessThan(before * 2);
    next();
    for (const rest of queued.slice(1)) (await rest)();
  });

  it('does not count the idle time before a busy stretch as slowness', async () => {
    let clock = 0;
    const turns = new HandlerTurns(1, () => clock);
    (await turns.take(anna))();
    clock += 500; // idle
    const first = await turns.take(anna);
    const queued = Array.from({ length: 3 }, async () => (await turns.take(anna))());
    first();
    await Promise.all(queued);
    const busy = await turns.take(anna);
    expect(turns.expectedWaitMs(anna)).toBeLessThan(10);
    busy();
  });

  it('does not count idle time between handlers as slowness', async () => {
    let clock = 0;
    const turns = new HandlerTurns(1, () => clock);
    for (let i = 0; i < 3; i++) {
      const done = await turns.take(anna);
      done();
      clock += 50; // nobody waiting: an idle gap
    }
    const busy = await turns.take(anna);
    expect(turns.expectedWaitMs(anna)).toBeLessThan(10);
    busy();
  });
});

describe('fair turns between members and servers', () => {
  it("with every turn held by one member and 30 more of theirs queued, another member's interaction starts as soon as one of them finishes", async () => {
    const turns = new HandlerTurns(8);
    const { started, start, finish, all } = handlers(turns);
    for (let i = 0; i < 8; i++) start(`anna running ${i}`, anna);
    await settle();
    for (let i = 0; i < 30; i++) start(`anna queued ${i}`, anna, false);
    start('ben', ben, false);
    await finish('anna running 0');
    for (let i = 1; i < 8; i++) await finish(`anna running ${i}`);
    await all();
    expect(started.slice(8)).toEqual(['ben', ...Array.from({ length: 30 }, (_, i) => `anna queued ${i}`)]);
  });

  it('members with a backlog each take turns, one for one', async () => {
    const turns = new HandlerTurns(1);
    const { started, start, finish, all } = handlers(turns);
    start('holder', { server: 'table-top', member: 'carl' });
    await settle();
    for (let i = 1; i <= 3; i++) start(`anna ${i}`, anna, false);
    for (let i = 1; i <= 3; i++) start(`ben ${i}`, ben, false);
    await finish('holder');
    await all();
    expect(started).toEqual(['holder', 'anna 1', 'ben 1', 'anna 2', 'ben 2', 'anna 3', 'ben 3']);
  });

  it('a server whose many members flood does not hold back a member of another server', async () => {
    const turns = new HandlerTurns(8);
    const { started, start, finish, all } = handlers(turns);
    // Fairness between members cannot help here: 40 members of one server, each with one interaction waiting.
    for (let i = 0; i < 8; i++) start(`crowded ${i}`, { server: 'crowded', member: `player${i}` });
    await settle();
    for (let i = 8; i < 48; i++) start(`crowded ${i}`, { server: 'crowded', member: `player${i}` }, false);
    start('quiet', { server: 'quiet', member: 'dora' }, false);
    for (let i = 0; i < 8; i++) await finish(`crowded ${i}`);
    await all();
    expect(started.slice(8)).toEqual(['quiet', ...Array.from({ length: 40 }, (_, i) => `crowded ${i + 8}`)]);
  });

  it('servers with a backlog each take turns, one for one', async () => {
    const turns = new HandlerTurns(1);
    const { started, start, finish, all } = handlers(turns);
    start('holder', { server: 'first', member: 'anna' });
    await settle();
    for (let i = 1; i <= 3; i++) start(`first ${i}`, { server: 'first', member: `player${i}` }, false);
    for (let i = 1; i <= 3; i++) start(`second ${i}`, { server: 'second', member: `player${i}` }, false);
    await finish('holder');
    await all();
    expect(started).toEqual(['holder', 'second 1', 'first 1', 'second 2', 'first 2', 'second 3', 'first 3']);
  });

  it("expects a newcomer's wait from its place in the fair order, not from the length of the queue", async () => {
    const turns = new HandlerTurns(1);
    const { start, finish, all } = handlers(turns);
    start('holder', anna);
    await settle();
    for (let i = 0; i < 30; i++) start(`anna ${i}`, anna, false);
    // Ben would go next; another of Anna's would wait behind her 30.
    expect(turns.expectedWaitMs(anna)).toBeCloseTo(31 * turns.expectedWaitMs(ben));
    await finish('holder');
    await all();
  });
});

describe('heavy work, one at a time per member', () => {
  it("a member's second heavy handler waits for the first, holding no turn: another member's interaction runs meanwhile", async () => {
    const turns = new HandlerTurns(2);
    const { started, start, finish, all } = handlers(turns);
    start('anna import 1', heavy(anna));
    await settle();
    start('anna import 2', heavy(anna));
    start('ben roll', ben);
    await settle();
    expect(started).toEqual(['anna import 1', 'ben roll']);
    await finish('anna import 1');
    expect(started).toEqual(['anna import 1', 'ben roll', 'anna import 2']);
    await finish('ben roll');
    await finish('anna import 2');
    await all();
  });

  it("a member's light interactions and other members' heavy ones are not held back by a heavy one running", async () => {
    const turns = new HandlerTurns(8);
    const { started, start, finish, all } = handlers(turns);
    start('anna import', heavy(anna));
    await settle();
    start('anna roll', anna);
    start('ben import', heavy(ben));
    start('anna export', heavy(anna));
    await settle();
    expect(started).toEqual(['anna import', 'anna roll', 'ben import']);
    for (const label of ['anna roll', 'ben import', 'anna import', 'anna export']) await finish(label);
    await all();
    expect(started.at(-1)).toBe('anna export');
  });

  it("a member's 16 heavy handlers hold one turn between them, in the order they were sent", async () => {
    const turns = new HandlerTurns(8);
    const { started, start, finish, all } = handlers(turns);
    for (let i = 0; i < 16; i++) start(`anna import ${i}`, heavy(anna));
    for (let i = 0; i < 7; i++) start(`player${i} roll`, { server: 'table-top', member: `player${i}` });
    await settle();
    expect(started).toEqual(['anna import 0', ...Array.from({ length: 7 }, (_, i) => `player${i} roll`)]);
    for (let i = 0; i < 16; i++) await finish(`anna import ${i}`);
    for (let i = 0; i < 7; i++) await finish(`player${i} roll`);
    await all();
    expect(started.filter((label) => label.startsWith('anna'))).toEqual(Array.from({ length: 16 }, (_, i) => `anna import ${i}`));
  });

  it('expects a heavy handler to wait for the heavy ones of its member ahead of it, even with turns free', async () => {
    const turns = new HandlerTurns(8);
    const { start, finish, all } = handlers(turns);
    start('anna import', heavy(anna));
    await settle();
    expect(turns.expectedWaitMs(anna)).toBe(0);
    expect(turns.expectedWaitMs(heavy(ben))).toBe(0);
    const behindOne = turns.expectedWaitMs(heavy(anna));
    expect(behindOne).toBeGreaterThan(0);
    start('anna export', heavy(anna));
    expect(turns.expectedWaitMs(heavy(anna))).toBeCloseTo(2 * behindOne);
    await finish('anna import');
    await finish('anna export');
    await all();
  });
});
