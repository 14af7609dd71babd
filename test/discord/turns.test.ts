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

  it('learns how long handlers take: slow handlers make a longer expected wait', async () => {
    const turns = new HandlerTurns(1);
    const hold = await turns.take();
    const before = turns.expectedWaitMs();
    hold();
    for (let i = 0; i < 5; i++) {
      const done = await turns.take();
      await later(40);
      done();
    }
    const busy = await turns.take();
    expect(turns.expectedWaitMs()).toBeGreaterThan(before * 3);
    busy();
  });
});
