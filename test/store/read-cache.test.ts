import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/store/read-cache.js';

describe('the read cache under the repositories', () => {
  it('loads once, then answers from memory until a write drops the entry', async () => {
    const cache = new ReadCache<string, number>(10);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.read('troy', load)).toBe(1);
    expect(await cache.read('troy', load)).toBe(1);
    cache.invalidate((key) => key === 'kat');
    expect(await cache.read('troy', load)).toBe(1);
    cache.invalidate((key) => key === 'troy');
    expect(await cache.read('troy', load)).toBe(2);
    cache.invalidate();
    expect(await cache.read('troy', load)).toBe(3);
  });

  it('does not keep what a read found while a write was committing (it may be the old rows)', async () => {
    const cache = new ReadCache<string, string>(10);
    let finishLoad!: (value: string) => void;
    const slowRead = cache.read('troy', () => new Promise<string>((resolve) => (finishLoad = resolve)));
    cache.invalidate((key) => key === 'troy'); // the write commits while the read is in flight
    finishLoad('Climbing 40');
    expect(await slowRead).toBe('Climbing 40');
    expect(await cache.read('troy', async () => 'Climbing 55')).toBe('Climbing 55');
  });

  it('keeps only what `keep` accepts, and forgets the least recently used past its size', async () => {
    const cache = new ReadCache<string, string | null>(2);
    await cache.read('missing', async () => null, (value) => value !== null);
    expect(await cache.read('missing', async () => 'now here', (value) => value !== null)).toBe('now here');
    await cache.read('a', async () => 'A');
    await cache.read('b', async () => 'B');
    await cache.read('a', async () => 'A again'); // a is now the most recent
    await cache.read('c', async () => 'C');
    expect(cache.size).toBe(2);
    expect(await cache.read('a', async () => 'A reloaded')).toBe('A');
    expect(await cache.read('b', async () => 'B reloaded')).toBe('B reloaded');
  });

  it('with caching off reads every time and keeps nothing; turned on again it starts empty', async () => {
    const cache = new ReadCache<string, number>(10);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.read('troy', load)).toBe(1);
    cache.setCaching(false); // another process's changes can no longer be heard of
    expect(await cache.read('troy', load)).toBe(2);
    expect(await cache.read('troy', load)).toBe(3);
    cache.setCaching(true);
    expect(await cache.read('troy', load)).toBe(4);
    expect(await cache.read('troy', load)).toBe(4);
    // A read in flight while the connection was lost and found again may have missed a change: not kept.
    let finishLoad!: (value: number) => void;
    cache.invalidate();
    const slowRead = cache.read('troy', () => new Promise<number>((resolve) => (finishLoad = resolve)));
    cache.setCaching(false);
    cache.setCaching(true);
    finishLoad(99);
    expect(await slowRead).toBe(99);
    expect(await cache.read('troy', load)).toBe(5);
  });
});
