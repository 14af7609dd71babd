import { describe, expect, it } from 'vitest';
import { ReadCache, type ReadCacheOptions } from '../../src/store/read-cache.js';

/** A cache with a clock the test moves (`clock.now`), a 30 s time to live unless told otherwise. */
function cacheOf<V>(options: Partial<ReadCacheOptions<string, V>> = {}): { cache: ReadCache<string, V>; clock: { now: number } } {
  const clock = { now: 0 };
  return { cache: new ReadCache<string, V>({ maxEntries: 10, ttlMs: 30_000, now: () => clock.now, ...options }), clock };
}

/** A load that resolves when the test says so: a read in flight. */
function slowLoad<V>(): { load: () => Promise<V>; finish: (value: V) => void } {
  let finish!: (value: V) => void;
  const started = new Promise<V>((resolve) => (finish = resolve));
  return { load: () => started, finish };
}

/** Sheets as the sheet cache holds them: tagged by the sheet they hold and the player whose they are. */
interface Sheet {
  id: number;
  owner: string;
  level: number;
}
const sheetTags = (_key: string, sheet: Sheet) => [`sheet ${sheet.id}`, `owner ${sheet.owner}`];

describe('the read cache under the repositories', () => {
  it('loads once, then answers from memory until a write drops the entry', async () => {
    const { cache } = cacheOf<number>();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.read('troy', load)).toBe(1);
    expect(await cache.read('troy', load)).toBe(1);
    cache.invalidate('kat');
    expect(await cache.read('troy', load)).toBe(1);
    cache.invalidate('troy');
    expect(await cache.read('troy', load)).toBe(2);
    cache.invalidate();
    expect(await cache.read('troy', load)).toBe(3);
  });

  it('a write drops exactly the entries carrying its tag, whichever keys they are under', async () => {
    const { cache } = cacheOf<Sheet>({ tagsOf: sheetTags });
    const troy = { id: 1, owner: 'mike', level: 40 };
    const kat = { id: 2, owner: 'mike', level: 50 };
    const rex = { id: 3, owner: 'ann', level: 60 };
    // Troy is held under three keys (by id, by name, as Mike's active sheet).
    for (const [key, sheet] of [['id/1', troy], ['name/troy', troy], ['mike/active', troy], ['id/2', kat], ['id/3', rex]] as const) {
      await cache.read(key, async () => sheet);
    }
    expect(cache.size).toBe(5);

    cache.invalidate('sheet 1');
    expect(cache.size).toBe(2);
    const reread = { ...troy, level: 45 };
    for (const key of ['id/1', 'name/troy', 'mike/active']) expect(await cache.read(key, async () => reread)).toEqual(reread);
    expect(await cache.read('id/2', async () => ({ ...kat, level: 0 }))).toEqual(kat);
    expect(await cache.read('id/3', async () => ({ ...rex, level: 0 }))).toEqual(rex);

    // A write to Mike's scope drops all of Mike's entries, not Ann's.
    cache.invalidate('owner mike');
    expect(cache.size).toBe(1);
    expect(await cache.read('id/3', async () => ({ ...rex, level: 0 }))).toEqual(rex);
    expect(await cache.read('id/2', async () => ({ ...kat, level: 51 }))).toEqual({ ...kat, level: 51 });
    // A tag nothing carries drops nothing.
    cache.invalidate('sheet 99');
    expect(cache.size).toBe(2);
  });

  it('an entry is read again once its time to live has passed, counted from when its read began', async () => {
    const { cache, clock } = cacheOf<string>({ ttlMs: 30_000 });
    const { load, finish } = slowLoad<string>();
    const first = cache.read('troy', load);
    clock.now = 5_000; // the database took 5 s to answer: the rows it gave are as old as the read's start
    finish('Climbing 40');
    expect(await first).toBe('Climbing 40');
    clock.now = 29_999;
    expect(await cache.read('troy', async () => 'Climbing 55')).toBe('Climbing 40');
    clock.now = 30_000;
    expect(await cache.read('troy', async () => 'Climbing 55')).toBe('Climbing 55');
    clock.now = 59_999;
    expect(await cache.read('troy', async () => 'Climbing 60')).toBe('Climbing 55');
    expect(cache.size).toBe(1);
  });

  it('does not keep what a read found while a write to it was committing (it may be the old rows), but keeps reads of other entries', async () => {
    const { cache } = cacheOf<Sheet>({ tagsOf: sheetTags });
    const troy = slowLoad<Sheet>();
    const rex = slowLoad<Sheet>();
    const troyRead = cache.read('mike/active', troy.load);
    const rexRead = cache.read('ann/active', rex.load);
    cache.invalidate('sheet 1'); // the write to Troy commits while both reads are in flight
    troy.finish({ id: 1, owner: 'mike', level: 40 });
    rex.finish({ id: 3, owner: 'ann', level: 60 });
    expect((await troyRead).level).toBe(40);
    expect((await rexRead).level).toBe(60);
    expect(await cache.read('mike/active', async () => ({ id: 1, owner: 'mike', level: 55 }))).toMatchObject({ level: 55 });
    expect(await cache.read('ann/active', async () => ({ id: 3, owner: 'ann', level: 0 }))).toMatchObject({ level: 60 });

    // A read that began after the write is kept, even while an older one is still in flight.
    const older = slowLoad<Sheet>();
    const olderRead = cache.read('id/2', older.load);
    cache.invalidate('sheet 2');
    await cache.read('id/4', async () => ({ id: 4, owner: 'ann', level: 10 }));
    older.finish({ id: 2, owner: 'mike', level: 50 });
    await olderRead;
    expect(await cache.read('id/4', async () => ({ id: 4, owner: 'ann', level: 0 }))).toMatchObject({ level: 10 });
    expect(await cache.read('id/2', async () => ({ id: 2, owner: 'mike', level: 52 }))).toMatchObject({ level: 52 });
  });

  it('keeps only what `keep` accepts, and forgets the least recently used past its size', async () => {
    const { cache } = cacheOf<string | null>({ maxEntries: 2 });
    await cache.read('missing', async () => null, (value) => value !== null);
    expect(await cache.read('missing', async () => 'now here', (value) => value !== null)).toBe('now here');
    await cache.read('a', async () => 'A');
    await cache.read('b', async () => 'B');
    await cache.read('a', async () => 'A again'); // a is now the most recent
    await cache.read('c', async () => 'C');
    expect(cache.size).toBe(2);
    expect(await cache.read('a', async () => 'A reloaded')).toBe('A');
    expect(await cache.read('b', async () => 'B reloaded')).toBe('B reloaded');
    // Many more keys than it holds: the bound holds, and an entry pushed out is no longer found by its tag either.
    for (let index = 0; index < 1_000; index++) await cache.read(`k${index}`, async () => `v${index}`);
    expect(cache.size).toBe(2);
    cache.invalidate('k0');
    expect(cache.size).toBe(2);
    cache.invalidate('k999');
    expect(cache.size).toBe(1);
  });

  it('with caching off reads every time and keeps nothing; turned on again it starts empty', async () => {
    const { cache } = cacheOf<number>();
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
    cache.invalidate();
    const slow = slowLoad<number>();
    const slowRead = cache.read('troy', slow.load);
    cache.setCaching(false);
    cache.setCaching(true);
    slow.finish(99);
    expect(await slowRead).toBe(99);
    expect(await cache.read('troy', load)).toBe(5);
  });
});
