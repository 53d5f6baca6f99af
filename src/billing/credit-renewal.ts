/**
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
