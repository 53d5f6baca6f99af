import type { QuotaLimit } from '../plans.js';

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

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The UTC calendar day a daily counter belongs to, `YYYY-MM-DD`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Daily quotas reset at the next 00:00 UTC. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

export function remainingOf(used: number, limit: QuotaLimit): number | null {
  return limit === null ? null : Math.max(0, limit - used);
}

export function quotaState(used: number, limit: QuotaLimit, now: Date): QuotaState {
  return { used, limit, remaining: remainingOf(used, limit), resets_at: nextUtcMidnight(now).toISOString() };
}

/** Start of the one-minute window that `calls_per_minute` counts in. */
export function minuteWindowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
}

/** Whole seconds until the next minute window opens; at least 1, so a client never retries at once. */
export function secondsToNextMinute(now: Date): number {
  const nextWindow = minuteWindowStart(now).getTime() + MINUTE_MS;
  return Math.max(1, Math.ceil((nextWindow - now.getTime()) / 1000));
}
