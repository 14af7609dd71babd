/**
 * What the last read of a repository found, kept in memory so that a roll does not cost a handful of queries.
 *
 * Sound only because every write to the cached tables goes through the repository that owns the cache, and one
 * bot process owns a database file (SQLite; PostgreSQL and several processes would need a shared cache or none).
 * The owner drops the affected entries after each write has committed. A read that was in flight while a write
 * committed may have seen the old rows, so it is only kept when no write finished in between (`generation`).
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, V>();
  private generation = 0;

  /** `maxEntries` bounds memory: past it the least recently used entry goes. */
  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value, or `load()`'s, kept if `keep` says so and no write finished while it loaded. */
  async read(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as V;
      // Re-inserting moves it to the back of the Map's order, which is the recency order.
      this.entries.delete(key);
      this.entries.set(key, value);
      return value;
    }
    const before = this.generation;
    const value = await load();
    if (this.generation === before && keep(value)) {
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
}
