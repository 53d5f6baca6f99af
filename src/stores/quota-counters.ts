import type { Collection, Db } from 'mongodb';
import { nextUtcMidnight, utcDay } from '../mcp/quota-math.js';
import type { QuotaKey, QuotaLimit } from '../plans.js';
import {
  addUnbounded,
  addUpTo,
  addWithin,
  type CounterDoc,
  readUsed,
  settleJournalled,
  subtract,
  subtractJournalled,
} from './bounded-counter.js';
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
    const fieldsOnCreate = counterFields(accountId, quota, options.now);
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

  /**
   * Reserves one unit of today's quota under `reservationId`, recorded on the counter in the same
   * atomic update, so `cancelReservation` gives it back at most once, from any process (used by
   * enrich_lead, whose charge spans several documents). `granted` is 0 when the quota is used up.
   */
  async reserveOne(
    accountId: string,
    quota: QuotaKey,
    limit: QuotaLimit,
    reservationId: string,
    now: Date,
  ): Promise<QuotaCharge> {
    const counterId = counterIdFor(accountId, quota, now);
    // Unlimited quotas still journal, so the reservation is undone the same way.
    const ceiling = limit ?? Number.MAX_SAFE_INTEGER;
    return databaseBackend(async () => {
      const used = await addWithin(
        this.counters,
        counterId,
        1,
        ceiling,
        counterFields(accountId, quota, now),
        reservationId,
      );
      return used === null
        ? { counterId, granted: 0, used: await readUsed(this.counters, counterId) }
        : { counterId, granted: 1, used };
    });
  }

  /** Gives back the unit reserved under `reservationId` if it is still open. True when it did. */
  async cancelReservation(counterId: string, reservationId: string): Promise<boolean> {
    return databaseBackend(() => subtractJournalled(this.counters, counterId, reservationId, 1));
  }

  /** Makes a reservation final. */
  async settleReservation(counterId: string, reservationId: string): Promise<void> {
    await databaseBackend(() => settleJournalled(this.counters, counterId, reservationId));
  }

  /** Gives back `amount` units charged earlier on `counterId`. Returns the counter's `used` after. */
  async refund(counterId: string, amount: number): Promise<number> {
    return databaseBackend(
      async () => (await subtract(this.counters, counterId, amount)) ?? readUsed(this.counters, counterId),
    );
  }

  async used(accountId: string, quota: QuotaKey, now: Date): Promise<number> {
    return databaseBackend(() => readUsed(this.counters, counterIdFor(accountId, quota, now)));
  }
}

/** The counter of `quota` on the UTC day of `now`. */
export function counterIdFor(accountId: string, quota: QuotaKey, now: Date): string {
  return `${accountId}:${quota}:${utcDay(now)}`;
}

function counterFields(accountId: string, quota: QuotaKey, now: Date) {
  return {
    account_id: accountId,
    quota,
    day: utcDay(now),
    expires_at: new Date(nextUtcMidnight(now).getTime() + KEEP_AFTER_RESET_MS),
  };
}
