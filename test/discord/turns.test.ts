import { describe, expect, it } from 'vitest';
import { HandlerTurns } from '../../src/discord/turns.js';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('interactions taking turns', () => {
  it('runs at most `size` handlers at once, the rest in the order they arrived', async () => {
    const turns = new HandlerTurns(2);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const done = await turns.take();
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

  it('expects no wait while a turn is free, and a longer one the longer the queue', async () => {
    const turns = new HandlerTurns(1);
    expect(turns.expectedWaitMs()).toBe(0);
    const first = await turns.take();
    const one = turns.expectedWaitMs();
    expect(one).toBeGreaterThan(0);
    const queued = [turns.take(), turns.take()];
    expect(turns.expectedWaitMs()).toBeCloseTo(3 * one);
    first();
    for (const next of queued) (await next)();
    expect(turns.expectedWaitMs()).toBe(0);
  });

  it('learns how fast the queue drains: slow handlers make a longer expected wait', async () => {
    const turns = new HandlerTurns(1);
    const hold = await turns.take();
    const before = turns.expectedWaitMs();
    // Eight slow handlers queued behind one another: each finishes ~40 ms after the last.
    const queued = Array.from({ length: 8 }, async () => {
      const done = await turns.take();
      await later(40);
      done();
    });
    hold();
    await Promise.all(queued);
    const busy = await turns.take();
    expect(turns.expectedWaitMs()).toBeGreaterThan(before * 3);
    busy();
  });

  it('does not count the idle time before a busy stretch as slowness', async () => {
    const turns = new HandlerTurns(1);
    (await turns.take())();
    await later(500); // idle
    const first = await turns.take();
    const queued = Array.from({ length: 3 }, async () => (await turns.take())());
    first();
    await Promise.all(queued);
    const busy = await turns.take();
    expect(turns.expectedWaitMs()).toBeLessThan(10);
    busy();
  });

  it('does not count idle time between handlers as slowness', async () => {
    const turns = new HandlerTurns(1);
    for (let i = 0; i < 3; i++) {
      const done = await turns.take();
      done();
      await later(50); // nobody waiting: an idle gap
    }
    const busy = await turns.take();
    expect(turns.expectedWaitMs()).toBeLessThan(10);
    busy();
  });
});
