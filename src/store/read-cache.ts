/**
 * What the last read of a repository found, kept in memory so that a roll does not cost a handful of queries.
 *
 * Sound because every write to the cached tables goes through the repository that owns the cache, and the owner
 * drops the affected entries after each write has committed: in this process at once, in the other processes over
 * PostgreSQL by a notification (cache-bus.ts), and while those cannot arrive caching is off (`setCaching`). On
 * SQLite one bot process owns the file, so the first is all there is. Should a notification be lost for good (its
 * `pg_notify` failed, or a silent network cut kept it from a listener not yet known to be gone), no entry outlives its
 * time to live: staleness is bounded whatever else goes wrong (cache-bus.ts, CACHE_TIMING).
 *
 * A write names what it changed by tags (a sheet's id, a player's scope, a server), and each entry is indexed under
 * the tags its key and value carry, so dropping costs the entries affected, never a look at the whole cache: every
 * process pays it for every write of every other process.
 *
 * A read that was in flight while a write committed may have seen the old rows, so it is kept only when none of its
 * tags was written meanwhile (`changedAt`); a write elsewhere does not cost it its place.
 */

/** Now, in milliseconds, for the time to live: monotonic (`performance.now`) unless a test sets the time. */
export type CacheClock = () => number;

export interface ReadCacheOptions<K, V> {
  /** Bounds memory: past it the least recently used entry goes. */
  maxEntries: number;
  /** How long after its read began an entry is answered from memory; then it is read again. */
  ttlMs: number;
  /** The tags an entry is dropped by (`invalidate(tag)`): by default its key alone. */
  tagsOf?: (key: K, value: V) => readonly string[];
  now?: CacheClock;
}

interface Entry<V> {
  value: V;
  /** When it must be read again (the clock's time). */
  expiresAt: number;
  tags: readonly string[];
}

export class ReadCache<K extends string, V> {
  private readonly entries = new Map<K, Entry<V>>();
  /** Tag → the keys of the entries carrying it. */
  private readonly index = new Map<string, Set<K>>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly tagsOf: (key: K, value: V) => readonly string[];
  private readonly now: CacheClock;
  private caching = true;
  /** Counts writes (invalidations); a read notes the count it began at. */
  private writes = 0;
  /** The count at the last drop of everything. */
  private clearedAt = 0;
  /**
   * Tag → the count at its last write, in that order, kept only while a read that began before it may still finish:
   * pruned from the front as the oldest read in flight finishes, so it holds the writes of one read's time at most.
   */
  private readonly changedAt = new Map<string, number>();
  /** The reads in flight, each with the count it began at; the first is the oldest. */
  private readonly inFlight = new Map<number, number>();
  private reads = 0;

  constructor(options: ReadCacheOptions<K, V>) {
    this.maxEntries = options.maxEntries;
    this.ttlMs = options.ttlMs;
    this.tagsOf = options.tagsOf ?? ((key) => [key]);
    this.now = options.now ?? (() => performance.now());
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value if still within its time to live, else `load()`'s, kept if `keep` says so and none of its tags was written while it loaded. */
  async read(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (!this.caching) return load();
    const began = this.now();
    const entry = this.entries.get(key);
    if (entry) {
      if (began < entry.expiresAt) {
        // Re-inserting moves it to the back of the Map's order, which is the recency order.
        this.entries.delete(key);
        this.entries.set(key, entry);
        return entry.value;
      }
      this.drop(key);
    }
    const read = ++this.reads;
    const before = this.writes;
    this.inFlight.set(read, before);
    let value: V;
    let unchanged = false;
    let tags: readonly string[] = [];
    try {
      value = await load();
      if (this.caching && this.clearedAt <= before && keep(value)) {
        tags = this.tagsOf(key, value);
        unchanged = tags.every((tag) => (this.changedAt.get(tag) ?? 0) <= before);
      }
    } finally {
      this.inFlight.delete(read);
      this.forgetOldWrites();
    }
    // Timed from the read's start: the rows it saw are at least that old.
    if (unchanged) this.keep(key, { value, expiresAt: began + this.ttlMs, tags });
    return value;
  }

  /**
   * After a write committed: forgets the entries carrying `tag` (every entry when no tag is given), and keeps a read
   * in flight that may have seen them from being kept. Costs the entries dropped.
   */
  invalidate(tag?: string): void {
    const at = ++this.writes;
    if (tag === undefined) {
      this.clearedAt = at;
      this.entries.clear();
      this.index.clear();
      return;
    }
    if (this.inFlight.size > 0) {
      this.changedAt.delete(tag);
      this.changedAt.set(tag, at);
    }
    const keys = this.index.get(tag);
    if (keys) for (const key of [...keys]) this.drop(key);
  }

  /**
   * Off: every read goes to the database and nothing is kept (another process's writes could not be heard of).
   * Either way what is kept now is forgotten, and a read in flight is not kept: it may predate a write not heard of.
   */
  setCaching(on: boolean): void {
    this.caching = on;
    this.invalidate();
  }

  private keep(key: K, entry: Entry<V>): void {
    if (this.entries.has(key)) this.drop(key);
    this.entries.set(key, entry);
    for (const tag of entry.tags) {
      let keys = this.index.get(tag);
      if (!keys) this.index.set(tag, (keys = new Set()));
      keys.add(key);
    }
    if (this.entries.size > this.maxEntries) this.drop(this.entries.keys().next().value as K);
  }

  private drop(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.index.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.index.delete(tag);
    }
  }

  /** Writes no read in flight began before are of no more use to the guard. */
  private forgetOldWrites(): void {
    if (this.inFlight.size === 0) {
      this.changedAt.clear();
      return;
    }
    const oldest = this.inFlight.values().next().value as number;
    for (const [tag, at] of this.changedAt) {
      if (at > oldest) break;
      this.changedAt.delete(tag);
    }
  }
}
