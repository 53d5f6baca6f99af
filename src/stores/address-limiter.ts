import { addressBucket } from '../domain/client-address.js';

/** A bucket refills completely within this window, so an address idle that long is forgotten. */
const WINDOW_MS = 60_000;

/** About 100 bytes each: the limiter never holds more than a megabyte or two. */
const DEFAULT_MAX_TRACKED_ADDRESSES = 10_000;

export type AddressVerdict = { limited: false } | { limited: true; retryAfterSeconds: number };

/**
 * Per-address token buckets, kept in memory: each event an address causes spends one token of its
 * budget, and the budget refills evenly over a minute. What counts as an event is the caller's:
 * failed authentications on `/mcp` (counted after the credential was checked, so a valid one is
 * still served from a busy address), client registrations, sign-in and sign-up form posts, client
 * metadata documents fetched (docs/security.md). Addresses count by `addressBucket` (an IPv6 /64).
 * Memory is bounded: entries go one window after their last event, and beyond
 * `maxTrackedAddresses` the address whose last event is oldest is forgotten.
 */
export class AddressLimiter {
  /** In order of last event, oldest first: the front expires, or is evicted, first. */
  private readonly buckets = new Map<string, { tokens: number; refilledAt: number }>();
  private readonly perMinute: number;
  private readonly refillPerMs: number;
  private readonly maxTrackedAddresses: number;

  constructor(options: { perMinute: number; maxTrackedAddresses?: number }) {
    this.perMinute = options.perMinute;
    this.refillPerMs = options.perMinute / WINDOW_MS;
    this.maxTrackedAddresses = options.maxTrackedAddresses ?? DEFAULT_MAX_TRACKED_ADDRESSES;
  }

  /** Counts one event of `address`; limited when its budget was already spent. */
  spend(address: string, nowMs: number): AddressVerdict {
    this.forgetExpired(nowMs);
    const key = addressBucket(address);
    const tokens = this.tokensAt(key, nowMs);
    // Re-inserting moves the address to the back of the map's order.
    this.buckets.delete(key);
    if (tokens < 1) {
      this.buckets.set(key, { tokens, refilledAt: nowMs });
      return { limited: true, retryAfterSeconds: Math.ceil((1 - tokens) / this.refillPerMs / 1000) };
    }
    this.buckets.set(key, { tokens: tokens - 1, refilledAt: nowMs });
    for (const oldest of this.buckets.keys()) {
      if (this.buckets.size <= this.maxTrackedAddresses) break;
      this.buckets.delete(oldest);
    }
    return { limited: false };
  }

  /** How many address buckets are held now. */
  get trackedAddresses(): number {
    return this.buckets.size;
  }

  private tokensAt(key: string, nowMs: number): number {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return this.perMinute;
    return Math.min(this.perMinute, bucket.tokens + (nowMs - bucket.refilledAt) * this.refillPerMs);
  }

  private forgetExpired(nowMs: number): void {
    for (const [key, bucket] of this.buckets) {
      if (nowMs - bucket.refilledAt < WINDOW_MS) break;
      this.buckets.delete(key);
    }
  }
}
