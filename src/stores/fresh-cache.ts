import { RecentMap } from './recent-map.js';

/** How fresh a per-process copy of a record must be, and how many records a cache may hold. */
export interface Freshness {
  /** A copy older than this is read again before it is used; 0 turns caching off. */
  maxAgeMs: number;
  /** Past this many records, the one read longest ago is dropped. */
  maxEntries: number;
  /** Milliseconds on a clock that never goes back (`performance.now` unless a test freezes it). */
  clock: () => number;
}

/** For processes that serve no calls (the admin CLI, the seeder): every read goes to the database. */
export const NOT_CACHED: Freshness = { maxAgeMs: 0, maxEntries: 0, clock: () => 0 };

interface Copy<V> {
  value: V;
  readAt: number;
}

/**
 * Records that every call needs (who owns a key, the account's plan) kept in this process for at
 * most `maxAgeMs`, so a change made by any process (a revoked key, a suspended account) is seen
 * by every process within that window, while the calls in between need no database round trip.
 * Concurrent misses on one key share one read. Only what `read` found is kept; a missing record is
 * read again each time (failed look-ups are the failed-authentication limiter's to bound).
 */
export class FreshCache<V> {
  private readonly copies: RecentMap<string, Copy<V>>;
  private readonly reading = new Map<string, Promise<V | null>>();

  constructor(private readonly freshness: Freshness) {
    this.copies = new RecentMap(freshness.maxEntries);
  }

  async get(key: string, read: () => Promise<V | null>): Promise<V | null> {
    if (this.freshness.maxAgeMs <= 0) return read();
    const copy = this.copies.get(key);
    if (copy !== undefined && this.freshness.clock() - copy.readAt < this.freshness.maxAgeMs)
      return copy.value;
    const pending = this.reading.get(key);
    if (pending !== undefined) return pending;
    const readAt = this.freshness.clock();
    const reading = read();
    this.reading.set(key, reading);
    try {
      const value = await reading;
      // A record forgotten while it was being read may be stale already: it is not kept.
      if (value !== null && this.reading.get(key) === reading) this.copies.set(key, { value, readAt });
      return value;
    } finally {
      if (this.reading.get(key) === reading) this.reading.delete(key);
    }
  }

  /** The copy held, however old: for fields that only ever change one way, so any copy tells. */
  peek(key: string): V | undefined {
    return this.copies.get(key)?.value;
  }

  /** Drops the copies that `matches`, after a change this process made itself. */
  forgetWhere(matches: (key: string, value: V) => boolean): void {
    for (const [key, copy] of this.copies) {
      if (matches(key, copy.value)) this.copies.delete(key);
    }
    // What is being read now may be one of them: let it answer its callers, but not be kept.
    this.reading.clear();
  }

  forget(key: string): void {
    this.copies.delete(key);
    this.reading.delete(key);
  }
}
