import type { RequestHandler } from 'express';
import { type AddressLimiter, refuseOverBudget } from './failed-auth-limiter.js';

/**
 * Dynamic client registrations per client address (an IPv6 /64) and minute, one budget shared by
 * every server process (`AddressLimiter`): every registration spends from its address's budget, so
 * one address cannot fill the clients collection. Answered before the authorization server sees the
 * request, after the registration endpoint's CORS headers (src/http/app.ts): browser clients can
 * read the refusal.
 */
export function limitRegistrations(limiter: AddressLimiter, clock: () => Date): RequestHandler {
  return async (req, res, next) => {
    const decision = await limiter.spend(req.ip ?? 'unknown', clock());
    if (decision.allowed) return next();
    refuseOverBudget(res, decision.retryAfterSeconds, 'client registrations');
  };
}
