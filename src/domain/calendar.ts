/**
 * Domain time, all in UTC: the day a daily quota counts in and when it resets, the minute window
 * of the rate limit, the monthly renewal of credits, and the calendar dates searches filter on.
 * Pure functions of the instant they are given; nothing here reads the clock.
 */

export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The UTC calendar day of `date`, `YYYY-MM-DD`: a daily counter's day, a date filter's bound. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The UTC calendar day `days` days before `now`'s day, at midnight. */
export function daysBefore(now: Date, days: number): Date {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(day - days * DAY_MS);
}

/** Daily quotas reset at the next 00:00 UTC. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
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

/*
 * When monthly credits renew. An account renews on the day of the month it was created, at the
 * same time of day; in a shorter month the day is clamped to the month's last day, and the next
 * month returns to the original day (created Jan 31: Feb 28 or 29, then Mar 31, Apr 30, ...).
 */

/** `anchor` moved `months` calendar months on, its day clamped to the length of the target month. */
export function addMonthsClamped(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const daysInTargetMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), daysInTargetMonth),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/**
 * The first renewal of an account created at `anchor` that falls strictly after `now`: the date
 * its credits next renew. An account unused for several months skips the renewals it missed.
 */
export function nextCreditRenewal(anchor: Date, now: Date): Date {
  // Whole months between the two dates, give or take one; the loop settles the exact one.
  let months = Math.max(
    1,
    (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + now.getUTCMonth() - anchor.getUTCMonth() - 1,
  );
  while (addMonthsClamped(anchor, months).getTime() <= now.getTime()) months++;
  return addMonthsClamped(anchor, months);
}
