import type { Response } from 'express';
import { addressBucket } from '../domain/client-address.js';

// Whoever uses the limiter counts addresses the same way; the function itself is pure, in the domain layer.
export { addressBucket };

/** A bucket refills completely within this window, so an address idle that long is forgotten. */
const WINDOW_MS = 60_000;

/** About 100 bytes each: the limiter never holds more than a megabyte or two. */
const DEFAULT_MAX_TRACKED_ADDRESSES = 10_000;

export type FailureVerdict = { limited: false } | { limited: true; retryAfterSeconds: number };

/** The 429 for an address over its budget; `tooMany` names what it sent too many of. */
export function refuseOverBudget(res: Response, retryAfterSeconds: number, tooMany: string): void {
  res
    .status(429)
    .set('Retry-After', String(retryAfterSeconds))
    .json({
      error: 'rate_limited',
      error_description: `Too many ${tooMany} from this address. Retry in ${retryAfterSeconds} seconds.`,
    });
}

/**
 * Per-address token buckets of failed authentications, kept in memory. Only failures are counted,
 * and only after the credential has been checked: an address over its budget has its failures
 * answered 429 instead of 401, while a valid credential from it is served (behind a proxy or a NAT,
 * many users share one address). Memory is bounded: entries go one window after their last
 * failure, and beyond `maxTrackedAddresses` the least recently failing address is forgotten.
 */
export class FailedAuthLimiter {
  /** In order of last failure, oldest first: the front expires, or is evicted, first. */
  private readonly buckets = new Map<string, { tokens: number; refilledAt: number }>();
  private readonly perMinute: number;
  private readonly refillPerMs: number;
  private readonly maxTrackedAddresses: number;

  constructor(options: { failuresPerMinute: number; maxTrackedAddresses?: number }) {
    this.perMinute = options.failuresPerMinute;
    this.refillPerMs = options.failuresPerMinute / WINDOW_MS;
    this.maxTrackedAddresses = options.maxTrackedAddresses ?? DEFAULT_MAX_TRACKED_ADDRESSES;
  }

  /** Counts one failure of `address`; limited when its budget was already spent. */
  recordFailure(address: string, nowMs: number): FailureVerdict {
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
