import type { RequestHandler, Response } from 'express';
import type { AddressLimiter } from '../stores/address-limiter.js';

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
 * Every request through this handler spends from its address's budget (`req.ip`, so TRUST_PROXY
 * decides which address that is), before anything else reads it. Used for dynamic client
 * registrations, so that one address cannot fill the clients collection; answered after the
 * endpoint's CORS headers (src/http/app.ts), so browser clients can read the refusal.
 */
export function limitPerAddress(limiter: AddressLimiter, tooMany: string, clock: () => Date): RequestHandler {
  return async (req, res, next) => {
    const decision = await limiter.spend(req.ip ?? 'unknown', clock());
    if (decision.allowed) return next();
    refuseOverBudget(res, decision.retryAfterSeconds, tooMany);
  };
}
