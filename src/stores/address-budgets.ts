import type { Db } from 'mongodb';
import { addressBucket } from '../domain/client-address.js';
import { type RateDecision, RateLimitsStore } from './rate-limits.js';

/** A per-address budget: what it counts (`name`, e.g. `failed_auth`) and how many a minute. */
export interface AddressBudget {
  name: string;
  perMinute: number;
}

/**
 * Budgets per client address (an IPv6 /64) and minute, shared by every server process: failed
 * authentications, client registrations, and any other per-address limit. They are leased minute
 * windows in MongoDB, as an account's calls per minute are (`RateLimitsStore`), so N processes allow
 * a budget once, not N times, with a MongoDB write per lease, not per use. Kept apart from the
 * accounts' leases: a spray of addresses makes this process forget old address leases, never an
 * account's. A budget's window is keyed by its limit too, so processes configured with another
 * limit (during a change of the setting) count apart rather than against each other's figure.
 */
export class AddressBudgets {
  private readonly windows: RateLimitsStore;

  constructor(db: Db, clock: () => number = () => performance.now()) {
    this.windows = new RateLimitsStore(db, clock);
  }

  /**
   * Spends one use of `budget` for `address`; a refused use is not counted. Throws `Unavailable`
   * when MongoDB cannot be asked: the caller decides whether to let the request through.
   */
  spend(budget: AddressBudget, address: string, now: Date): Promise<RateDecision> {
    const key = `${budget.name}:${budget.perMinute}:${addressBucket(address)}`;
    return this.windows.consume(key, budget.perMinute, now);
  }
}
