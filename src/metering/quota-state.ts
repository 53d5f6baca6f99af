import { nextUtcMidnight } from '../domain/calendar.js';
import { QuotaExceeded } from '../errors.js';
import type { QuotaKey, QuotaLimit } from '../plans.js';

/**
 * The `quota` object of a metered result (docs/plans.md, "The quota object"); `limit` and
 * `remaining` are null when unlimited. A type alias, not an interface, so it fits output schemas
 * declared as loose objects (index signature).
 */
export type QuotaState = {
  used: number;
  limit: QuotaLimit;
  remaining: number | null;
  resets_at: string;
};

export function remainingOf(used: number, limit: QuotaLimit): number | null {
  return limit === null ? null : Math.max(0, limit - used);
}

export function quotaState(used: number, limit: QuotaLimit, now: Date): QuotaState {
  return { used, limit, remaining: remainingOf(used, limit), resets_at: nextUtcMidnight(now).toISOString() };
}

/** The refusal of a charge that found nothing left of `quota` today. */
export function quotaExhausted(quota: QuotaKey, now: Date): QuotaExceeded {
  return new QuotaExceeded(quota, nextUtcMidnight(now).toISOString());
}
