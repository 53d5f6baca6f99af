import { Unavailable } from '../errors.js';
import type { AddressBudget, AddressBudgets } from './address-budgets.js';
import type { RateDecision } from './rate-limits.js';

/**
 * One per-address budget (failed authentications, client registrations, sign-in forms, metadata
 * fetches), shared by every server process through MongoDB (`AddressBudgets`), so N processes allow
 * it once (docs/security.md). When MongoDB cannot be asked, the request is let through rather than
 * refused: what these budgets protect (checking a credential, storing a client, a sign-in) needs
 * MongoDB as well, so the request fails there on its own, and a valid caller is not refused for the
 * outage.
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
