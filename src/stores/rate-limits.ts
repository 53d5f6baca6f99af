import type { Collection, Db } from 'mongodb';
import { minuteWindowStart, secondsToNextMinute } from '../domain/calendar.js';
import { addUpTo, type CounterDoc, subtract } from './bounded-counter.js';
import { type DatabaseCalls, databaseCalls } from './mongo.js';
import { RecentMap } from './recent-map.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const COLLECTION = 'rate_limits';
/** A window is useless once it has passed; keep it a moment longer for clock skew between processes. */
const KEEP_AFTER_WINDOW_MS = 120_000;
/** The largest lease: one write per hundred calls is already next to nothing. */
const MAX_LEASE = 100;
/** A lease holds at most this share of an account's calls per minute, so few are stranded in a process. */
const LEASE_SHARE = 20;
/** Tokens a process has not spent after this long go back, for the account's other processes. */
const RETURN_IDLE_AFTER_MS = 1_000;
/** Budgets (accounts, addresses) with a lease in one process; the one leased longest ago gives way past this. */
const MAX_LEASES = 10_000;

/**
 * How many calls a process takes from an account's minute window at a time: a twentieth of the
 * limit (so at most 5 % of it sits unspent in any one process), at least 1, at most MAX_LEASE.
 */
export function leaseSize(callsPerMinute: number): number {
  return Math.min(MAX_LEASE, Math.max(1, Math.floor(callsPerMinute / LEASE_SHARE)));
}

/** What this process holds of one account's current minute window. */
interface Lease {
  windowId: string;
  tokens: number;
  /** The window was found full: further calls in it are refused without asking MongoDB. */
  full: boolean;
  /** On the monotonic clock; tokens idle past RETURN_IDLE_AFTER_MS go back. */
  lastCallAt: number;
  /** A lease request under way, which the account's other calls wait for rather than repeat. */
  leasing: Promise<void> | undefined;
}

/**
 * Budgets per minute, exact across any number of processes without a write per use: an account's
 * calls per minute, and the per-address budgets of `AddressBudgets`. MongoDB keeps one document per
 * budget and minute window, `{ _id, key, window_start, used, expires_at }`, whose `used` counts the
 * uses *leased* to processes and never passes the limit; each process spends its lease in memory
 * and asks for more when it runs out. So the uses allowed in a window never exceed the limit,
 * whatever the number of processes. Tokens left unspent go back after a second without use; until
 * then another process may refuse a use the limit would allow (at most a twentieth of the limit per
 * process; docs/performance.md, "Rate limits").
 */
export class RateLimitsStore {
  private readonly windows: Collection<CounterDoc>;
  private readonly leases = new RecentMap<string, Lease>(MAX_LEASES);
  private returning: NodeJS.Timeout | undefined;

  private readonly backend: DatabaseCalls;

  constructor(
    db: Db,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.backend = databaseCalls(db);
    this.windows = db.collection<CounterDoc>(COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(() => this.windows.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 }));
  }

  /**
   * Counts one use of the budget `key` (an account id, or a key made by `AddressBudgets`) against
   * `perMinute`; a refused use is not counted.
   */
  async consume(key: string, perMinute: number, now: Date): Promise<RateDecision> {
    const windowStart = minuteWindowStart(now);
    const windowId = `${key}:${windowStart.toISOString()}`;
    for (;;) {
      const lease = this.leaseOf(key, windowId);
      lease.lastCallAt = this.clock();
      if (lease.tokens > 0) {
        lease.tokens -= 1;
        return { allowed: true };
      }
      if (lease.full) return { allowed: false, retryAfterSeconds: secondsToNextMinute(now) };
      if (lease.leasing === undefined) {
        lease.leasing = this.leaseMore(lease, key, windowStart, perMinute).finally(() => {
          lease.leasing = undefined;
        });
      }
      await lease.leasing;
    }
  }

  private leaseOf(key: string, windowId: string): Lease {
    const held = this.leases.get(key);
    if (held !== undefined && held.windowId === windowId) return held;
    // A new window: what was left of the last one is worth nothing now.
    const lease: Lease = { windowId, tokens: 0, full: false, lastCallAt: this.clock(), leasing: undefined };
    const dropped = this.leases.set(key, lease);
    if (dropped !== undefined) this.giveBack(dropped[1]);
    return lease;
  }

  private async leaseMore(lease: Lease, key: string, windowStart: Date, limit: number): Promise<void> {
    const { added } = await this.backend(() =>
      addUpTo(this.windows, lease.windowId, leaseSize(limit), limit, {
        key,
        window_start: windowStart,
        expires_at: new Date(windowStart.getTime() + KEEP_AFTER_WINDOW_MS),
      }),
    );
    if (added === 0) lease.full = true;
    lease.tokens += added;
    this.returnIdleLater();
  }

  /** Returns the unspent tokens of leases idle for a second, checking again while any are held. */
  private returnIdleLater(): void {
    if (this.returning !== undefined) return;
    this.returning = setTimeout(() => {
      this.returning = undefined;
      const now = this.clock();
      let stillHeld = false;
      for (const lease of this.leases.values()) {
        if (lease.tokens === 0) continue;
        if (lease.leasing === undefined && now - lease.lastCallAt >= RETURN_IDLE_AFTER_MS) {
          this.giveBack(lease);
        } else {
          stillHeld = true;
        }
      }
      if (stillHeld) this.returnIdleLater();
    }, RETURN_IDLE_AFTER_MS);
    // Pending returns never keep a process alive: at exit the window simply ends with them unused.
    this.returning.unref();
  }

  /**
   * Gives a lease's unspent tokens back to its window. Should that fail, they stay counted as
   * used until the window ends: fewer calls are allowed, never more.
   */
  private giveBack(lease: Lease): void {
    const tokens = lease.tokens;
    if (tokens === 0) return;
    lease.tokens = 0;
    this.backend(() => subtract(this.windows, lease.windowId, tokens)).catch(() => undefined);
  }
}
