/**
 * Per-address token buckets for failed authentications, kept in memory: they guard the database
 * against floods of bad credentials, so they must be consulted before any database work, and a
 * few processes each allowing the full rate is acceptable for that purpose.
 */
export class FailedAuthLimiter {
  private readonly buckets = new Map<string, { tokens: number; refilledAt: number }>();
  private readonly refillPerMs: number;

  constructor(private readonly perMinute: number) {
    this.refillPerMs = perMinute / 60_000;
  }

  /** Whether this address may still try; when not, the seconds until it may. */
  check(address: string, nowMs: number): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const tokens = this.refill(address, nowMs);
    if (tokens >= 1) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.ceil((1 - tokens) / this.refillPerMs / 1000) };
  }

  recordFailure(address: string, nowMs: number): void {
    this.buckets.set(address, { tokens: this.refill(address, nowMs) - 1, refilledAt: nowMs });
    if (this.buckets.size > MAX_TRACKED_ADDRESSES) this.forgetRecovered(nowMs);
  }

  private refill(address: string, nowMs: number): number {
    const bucket = this.buckets.get(address);
    if (bucket === undefined) return this.perMinute;
    return Math.min(this.perMinute, bucket.tokens + (nowMs - bucket.refilledAt) * this.refillPerMs);
  }

  /** A full bucket is the same as no bucket, so those can go. */
  private forgetRecovered(nowMs: number): void {
    for (const address of this.buckets.keys()) {
      if (this.refill(address, nowMs) >= this.perMinute) this.buckets.delete(address);
    }
  }
}

const MAX_TRACKED_ADDRESSES = 10_000;
