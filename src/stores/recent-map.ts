/**
 * A map that holds at most `capacity` entries: setting one more drops the entry set longest ago.
 * The per-process memories of the stores (identity copies, rate-limit leases, the quota last seen)
 * use it so that no number of accounts or keys can grow a process without bound.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Sets `key` as the most recent entry; returns the entry dropped to make room, if any. */
  set(key: K, value: V): [K, V] | undefined {
    // Deleting first moves the key to the end of the map's order, which is the order of setting.
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size <= this.capacity) return undefined;
    const oldest = this.entries.entries().next().value as [K, V];
    this.entries.delete(oldest[0]);
    return oldest;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries[Symbol.iterator]();
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }
}
