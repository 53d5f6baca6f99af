import type { Collection, Db } from 'mongodb';
import { nextUtcMidnight, utcDay } from '../mcp/quota-math.js';
import type { QuotaKey, QuotaLimit } from '../plans.js';
import { addUnbounded, addUpTo, addWithin, type CounterDoc, readUsed, subtract } from './bounded-counter.js';
import { databaseBackend } from './mongo.js';

export interface QuotaCharge {
  /** Which counter was charged, so a refund goes to the same day even after midnight. */
  counterId: string;
  granted: number;
  used: number;
}

const COLLECTION = 'quota_counters';
/** Yesterday's counters stay a day for operators to look at, then expire. */
const KEEP_AFTER_RESET_MS = 86_400_000;

/** One document per account, quota and UTC day: `{ _id, account_id, quota, day, used, expires_at }`. */
export class QuotaCountersStore {
  private readonly counters: Collection<CounterDoc>;

  constructor(db: Db) {
    this.counters = db.collection<CounterDoc>(COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await databaseBackend(() => this.counters.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 }));
  }

  /**
   * Charges `want` units of today's quota. Exact (default): all or nothing. Partial: as many as
   * remain. Simultaneous charges from any number of processes never take `used` past `limit`.
   */
  async charge(
    accountId: string,
    quota: QuotaKey,
    want: number,
    limit: QuotaLimit,
    options: { partial: boolean; now: Date },
  ): Promise<QuotaCharge> {
    const counterId = counterIdFor(accountId, quota, options.now);
    const fieldsOnCreate = {
      account_id: accountId,
      quota,
      day: utcDay(options.now),
      expires_at: new Date(nextUtcMidnight(options.now).getTime() + KEEP_AFTER_RESET_MS),
    };
    return databaseBackend(async () => {
      if (limit === null) {
        return {
          counterId,
          granted: want,
          used: await addUnbounded(this.counters, counterId, want, fieldsOnCreate),
        };
      }
      if (options.partial) {
        const { added, used } = await addUpTo(this.counters, counterId, want, limit, fieldsOnCreate);
        return { counterId, granted: added, used };
      }
      const used = await addWithin(this.counters, counterId, want, limit, fieldsOnCreate);
      return used === null
        ? { counterId, granted: 0, used: await readUsed(this.counters, counterId) }
        : { counterId, granted: want, used };
    });
  }

  async refund(counterId: string, amount: number): Promise<void> {
    await databaseBackend(() => subtract(this.counters, counterId, amount));
  }

  async used(accountId: string, quota: QuotaKey, now: Date): Promise<number> {
    return databaseBackend(() => readUsed(this.counters, counterIdFor(accountId, quota, now)));
  }
}

function counterIdFor(accountId: string, quota: QuotaKey, now: Date): string {
  return `${accountId}:${quota}:${utcDay(now)}`;
}
