import type { Collection, Db } from 'mongodb';
import {
  addUnboundedOnce,
  addUpTo,
  addWithin,
  type CounterDoc,
  type CounterFields,
  cancelCharge,
  giveBackPartOfCharge,
  readUsed,
  settleJournalled,
  subtractJournalled,
  takeBackCharge,
} from './bounded-counter.js';
import { type DatabaseCalls, databaseCalls } from './mongo.js';

/**
 * The `quota_counters` collection: one document per counter, named by src/metering/quota-counters.ts
 * (an account's quota on one UTC day), changed only by the conditional updates of bounded-counter.ts.
 * A charge is journalled on its counter in the update that makes it, so it is taken back at most once
 * (docs/search-semantics.md, "Metering").
 */
export class QuotaCountersStore {
  private readonly counters: Collection<CounterDoc>;

  private readonly backend: DatabaseCalls;

  constructor(db: Db) {
    this.backend = databaseCalls(db);
    this.counters = db.collection<CounterDoc>('quota_counters');
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(() => this.counters.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 }));
  }

  /**
   * Adds `want` units journalled under `chargeId`, never taking `used` past `limit`: all or nothing,
   * or with `partial` as many as fit. `granted` is 0 when nothing fits.
   */
  charge(
    counterId: string,
    want: number,
    limit: number,
    options: { partial: boolean; chargeId: string; fields: CounterFields },
  ): Promise<{ granted: number; used: number }> {
    const entry = { charge: options.chargeId };
    return this.backend(async () => {
      if (options.partial) {
        const { added, used } = await addUpTo(this.counters, counterId, want, limit, options.fields, entry);
        return { granted: added, used };
      }
      const used = await addWithin(this.counters, counterId, want, limit, options.fields, entry);
      return used === null
        ? { granted: 0, used: await readUsed(this.counters, counterId) }
        : { granted: want, used };
    });
  }

  /**
   * Gives back `amount` of the `heldUnits` the charge holds, lowering its journal entry in the same
   * write; the counter's `used` after.
   */
  giveBack(counterId: string, chargeId: string, heldUnits: number, amount: number): Promise<number> {
    return this.backend(
      async () =>
        (await giveBackPartOfCharge(this.counters, counterId, chargeId, heldUnits, amount)) ??
        // No such entry: the call's refund took the charge back whole already (this command reached
        // MongoDB late, after a hang), so giving back without the entry would refund twice. (An
        // entry trimmed by CHARGE_JOURNAL_LENGTH later charges in the moment between a charge and
        // its give-back would take a rate no plan allows.)
        readUsed(this.counters, counterId),
    );
  }

  /**
   * Marks the charge `chargeId` cancelled on its counter (created with `fields` if need be), so that
   * its command, should it reach MongoDB later, no longer lands (`cancelCharge`).
   */
  async cancel(counterId: string, chargeId: string, fields: CounterFields): Promise<void> {
    await this.backend(() => cancelCharge(this.counters, counterId, chargeId, fields));
  }

  /** Takes back what the charge still holds, at most once (`takeBackCharge`); the units taken back. */
  takeBack(counterId: string, chargeId: string, heldUnits: number | null): Promise<number> {
    return this.backend(() => takeBackCharge(this.counters, counterId, chargeId, heldUnits));
  }

  /** Adds units counted in a process, at most once under `writeId`; the counter's `used` after. */
  addCounted(
    counterId: string,
    amount: number,
    writeId: string,
    fields: CounterFields | undefined,
  ): Promise<number> {
    return this.backend(() => addUnboundedOnce(this.counters, counterId, amount, writeId, fields));
  }

  /** Adds one unit under `ceiling`, recorded under `reservationId` until settled or cancelled. */
  reserveOne(
    counterId: string,
    ceiling: number,
    reservationId: string,
    fields: CounterFields,
  ): Promise<{ granted: number; used: number }> {
    return this.backend(async () => {
      const used = await addWithin(this.counters, counterId, 1, ceiling, fields, {
        reservation: reservationId,
      });
      return used === null
        ? { granted: 0, used: await readUsed(this.counters, counterId) }
        : { granted: 1, used };
    });
  }

  /** Gives back the unit reserved under `reservationId` if it is still open. True when it did. */
  cancelReservation(counterId: string, reservationId: string): Promise<boolean> {
    return this.backend(() => subtractJournalled(this.counters, counterId, reservationId, 1));
  }

  async settleReservation(counterId: string, reservationId: string): Promise<void> {
    await this.backend(() => settleJournalled(this.counters, counterId, reservationId));
  }

  used(counterId: string): Promise<number> {
    return this.backend(() => readUsed(this.counters, counterId));
  }
}
