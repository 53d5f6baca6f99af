import type { Response } from 'express';
import { Unavailable } from '../errors.js';
import type { AddressBudget, AddressBudgets } from '../stores/address-budgets.js';
import type { RateDecision } from '../stores/rate-limits.js';

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
 * One per-address budget (failed authentications, client registrations, ...), shared by every
 * server process through MongoDB (`AddressBudgets`), so N processes allow it once. When MongoDB
 * cannot be asked, the request is let through rather than refused: what these budgets protect
 * (checking a credential, storing a client) needs MongoDB as well, so the request fails there on
 * its own, and a valid caller is not refused for the outage.
 */
export class AddressLimiter {
  constructor(
    private readonly budgets: AddressBudgets,
    private readonly budget: AddressBudget,
  ) {}

  /** Spends one use for `address`; allowed, or refused with the seconds to the next window. */
  async spend(address: string, now: Date): Promise<RateDecision> {
    try {
      return await this.budgets.spend(this.budget, address, now);
    } catch (error) {
      if (error instanceof Unavailable) return { allowed: true };
      throw error;
    }
  }
}
