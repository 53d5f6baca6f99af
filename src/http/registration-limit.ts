import type { RequestHandler } from 'express';
import { FailedAuthLimiter, refuseOverBudget } from './failed-auth-limiter.js';

/**
 * Dynamic client registrations per client address (an IPv6 /64), with the failed-authentication
 * limiter's bounded per-address buckets: here every registration spends from its address's budget,
 * so one address cannot fill the clients collection. Answered before the authorization server sees
 * the request, after the registration endpoint's CORS headers (src/http/app.ts): browser clients can
 * read the refusal.
 */
export function limitRegistrations(perMinute: number): RequestHandler {
  const limiter = new FailedAuthLimiter({ failuresPerMinute: perMinute });
  return (req, res, next) => {
    const verdict = limiter.recordFailure(req.ip ?? 'unknown', Date.now());
    if (!verdict.limited) return next();
    refuseOverBudget(res, verdict.retryAfterSeconds, 'client registrations');
  };
}
