import { WeightedPicker } from './random.js';

/** The days a posting or announcement can carry: `now` and the 364 days before it. */
const DAYS_BACK = 365;

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` → midnight UTC, rejecting impossible dates such as 2026-02-30. */
export function parseDay(day: string): Date {
  const date = new Date(`${day}T00:00:00Z`);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(day) ||
    Number.isNaN(date.getTime()) ||
    date.toISOString().slice(0, 10) !== day
  ) {
    throw new Error(`not a calendar date (YYYY-MM-DD): ${day}`);
  }
  return date;
}

export interface RecentDay {
  /** Days before `now`; 0 is `now` itself. */
  daysAgo: number;
  date: string;
}

/**
 * Picks dates in the year before `now`: recent days weigh more (`newestWeight` against 1 for
 * the oldest day) so month-on-month trends rise, and weekends weigh `weekendWeight`.
 */
export function recentDayPicker(
  now: string,
  newestWeight: number,
  weekendWeight: number,
): WeightedPicker<RecentDay> {
  const nowMs = parseDay(now).getTime();
  const days: RecentDay[] = [];
  for (let daysAgo = 0; daysAgo < DAYS_BACK; daysAgo++) {
    days.push({ daysAgo, date: new Date(nowMs - daysAgo * DAY_MS).toISOString().slice(0, 10) });
  }
  return new WeightedPicker(days, ({ daysAgo, date }) => {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    const recency = newestWeight - ((newestWeight - 1) * daysAgo) / (DAYS_BACK - 1);
    return recency * (weekday === 0 || weekday === 6 ? weekendWeight : 1);
  });
}
