/**
 * What the last read of a repository found, kept in memory so that a roll does not cost a handful of queries.
 *
 * Sound because every write to the cached tables goes through the repository that owns the cache, and the owner
 * drops the affected entries after each write has committed: in this process at once, in the other processes over
 * PostgreSQL by a notification (cache-bus.ts), and while those cannot arrive caching is off (`setCaching`). On
 * SQLite one bot process owns the file, so the first is all there is. A read that was in flight while a write
 * committed may have seen the old rows, so it is only kept when no write finished in between (`generation`).
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, V>();
  private generation = 0;
  private caching = true;

  /** `maxEntries` bounds memory: past it the least recently used entry goes. */
  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value, or `load()`'s, kept if `keep` says so and no write finished while it loaded. */
  async read(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (!this.caching) return load();
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as V;
      // Re-inserting moves it to the back of the Map's order, which is the recency order.
      this.entries.delete(key);
      this.entries.set(key, value);
      return value;
    }
    const before = this.generation;
    const value = await load();
    if (this.generation === before && this.caching && keep(value)) {
      this.entries.set(key, value);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    }
    return value;
  }

  /** After a write committed: forgets the entries it may have changed (all of them when no test is given). */
  invalidate(affected?: (key: K, value: V) => boolean): void {
    this.generation++;
    if (!affected) {
      this.entries.clear();
      return;
    }
    for (const [key, value] of this.entries) if (affected(key, value)) this.entries.delete(key);
  }

  /**
   * Off: every read goes to the database and nothing is kept (another process's writes could not be heard of).
   * Either way what is kept now is forgotten, and a read in flight is not kept: it may predate a write not heard of.
   */
  setCaching(on: boolean): void {
    this.caching = on;
    this.invalidate();
  }
}
