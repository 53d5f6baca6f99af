import type { Collection, Db } from 'mongodb';
import { minuteWindowStart, secondsToNextMinute } from '../domain/calendar.js';
import { addWithin, type CounterDoc } from './bounded-counter.js';
import { databaseBackend } from './mongo.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const COLLECTION = 'rate_limits';
/** A window is useless once it has passed; keep it a moment longer for clock skew between processes. */
const KEEP_AFTER_WINDOW_MS = 120_000;

/** One document per account and minute window, shared by every server process: `{ _id, account_id, window_start, used, expires_at }`. */
export class RateLimitsStore {
  private readonly windows: Collection<CounterDoc>;

  constructor(db: Db) {
    this.windows = db.collection<CounterDoc>(COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await databaseBackend(() => this.windows.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 }));
  }

  /** Counts one call against `callsPerMinute`; a refused call is not counted. */
  async consume(accountId: string, callsPerMinute: number, now: Date): Promise<RateDecision> {
    const windowStart = minuteWindowStart(now);
    const id = `${accountId}:${windowStart.toISOString()}`;
    const used = await databaseBackend(() =>
      addWithin(this.windows, id, 1, callsPerMinute, {
        account_id: accountId,
        window_start: windowStart,
        expires_at: new Date(windowStart.getTime() + KEEP_AFTER_WINDOW_MS),
      }),
    );
    return used === null
      ? { allowed: false, retryAfterSeconds: secondsToNextMinute(now) }
      : { allowed: true };
  }
}
