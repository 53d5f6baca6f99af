import { randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { DAY_MS, isoDate, nextUtcMidnight } from '../domain/calendar.js';
import { Unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import type { QuotaKey, QuotaLimit } from '../plans.js';
import { BackgroundRetries } from './background-retries.js';
import {
  addUnboundedOnce,
  addUpTo,
  addWithin,
  type CounterDoc,
  cancelCharge,
  giveBackPartOfCharge,
  readUsed,
  settleJournalled,
  subtract,
  subtractJournalled,
  takeBackCharge,
} from './bounded-counter.js';
import { databaseBackend } from './mongo.js';
import type { PendingRefunds } from './pending-refunds.js';
import { RecentMap } from './recent-map.js';
import { UsageTally } from './usage-tally.js';

/** A refund written down as owed (`QuotaCountersStore.oweRefunds`): `landed` crosses it off. */
export interface OwedRefund {
  charge: ChargeRef;
  landed: () => void;
}

/** One charge, as its counter's journal knows it, or as this process counted it. */
export interface ChargeRef {
  counterId: string;
  chargeId: string;
  /** Counted in this process's tally (`countsInProcess`), not journalled on the counter. */
  countedInProcess: boolean;
}

/**
 * Whether charges of a quota with this limit are counted in the process and written in batches
 * (`UsageTally`): only without a limit, where a counter protects nothing and only reports.
 */
export function countsInProcess(limit: QuotaLimit): limit is null {
  return limit === null;
}

export interface QuotaCharge {
  /** Which counter was charged, so a refund goes to the same day even after midnight. */
  counterId: string;
  granted: number;
  used: number;
}

/** Refunds waiting for MongoDB to come back; each is a few hundred bytes. */
const REFUND_QUEUE_CAPACITY = 10_000;
const FIRST_REFUND_RETRY_MS = 200;
const LONGEST_REFUND_RETRY_MS = 5_000;

/** Counters whose last `used` a process remembers: today's counters of its busiest accounts. */
const SEEN_COUNTERS = 10_000;

const COLLECTION = 'quota_counters';
/** Yesterday's counters stay a day for operators to look at, then expire. */
const KEEP_AFTER_RESET_MS = DAY_MS;

/**
 * One document per account, quota and UTC day: `{ _id, account_id, quota, day, used, expires_at }`.
 * A quota with a limit is charged in MongoDB, one conditional update per charge; one without is
 * counted in the process and written in batches (`UsageTally`).
 */
export class QuotaCountersStore {
  private readonly counters: Collection<CounterDoc>;
  /** Refunds that could not reach MongoDB, for this process to retry until they land. */
  private readonly refundRetries = new BackgroundRetries({
    capacity: REFUND_QUEUE_CAPACITY,
    firstDelayMs: FIRST_REFUND_RETRY_MS,
    longestDelayMs: LONGEST_REFUND_RETRY_MS,
    isRetryable: (error) => error instanceof Unavailable,
    what: 'quota refund',
  });

  /**
   * The `used` each counter had when this process last charged it or gave back to it: where a
   * charge can be expected to succeed (`lastSeenUsed`), never a figure anything is charged by.
   */
  private readonly seenUsed = new RecentMap<string, number>(SEEN_COUNTERS);

  /** Units counted on quotas without a limit, not yet written. */
  private readonly tally: UsageTally;

  /**
   * `logger` hears of counted units that could not be written (`UsageTally`). `pendingRefunds` keeps
   * the refunds owed on the local disk until they land; without it (a process that serves no
   * calls, a test of the store alone) they are kept in memory only.
   */
  constructor(
    db: Db,
    logger: Logger,
    clock: () => number = () => performance.now(),
    private readonly pendingRefunds?: PendingRefunds,
  ) {
    this.counters = db.collection<CounterDoc>(COLLECTION);
    this.tally = new UsageTally({
      write: (counterId, amount, writeId, fields) =>
        databaseBackend(() => addUnboundedOnce(this.counters, counterId, amount, writeId, fields)),
      newWriteId: newChargeId,
      clock,
      maxCounters: SEEN_COUNTERS,
      logger,
    });
  }

  /** The `used` this process last saw on today's counter of `quota`, if it has seen it; possibly stale. */
  lastSeenUsed(accountId: string, quota: QuotaKey, now: Date): number | undefined {
    return this.seenUsed.get(counterIdFor(accountId, quota, now));
  }

  private sawUsed(counterId: string, used: number): number {
    this.seenUsed.set(counterId, used);
    return used;
  }

  async ensureIndexes(): Promise<void> {
    await databaseBackend(() => this.counters.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 }));
  }

  /**
   * Charges `want` units of today's quota. Exact (default): all or nothing. Partial: as many as
   * remain. Simultaneous charges from any number of processes never take `used` past `limit`.
   * What was granted is recorded under `chargeId` (a fresh id unless given) in the same atomic
   * update, so `refundCharge` can give it back exactly once; a caller that passes its own id can
   * do so even when this throws, not knowing whether the charge landed. Without a limit, the units
   * are counted in this process instead (`countsInProcess`), which throws having counted nothing.
   */
  async charge(
    accountId: string,
    quota: QuotaKey,
    want: number,
    limit: QuotaLimit,
    options: { partial: boolean; now: Date; chargeId?: string },
  ): Promise<QuotaCharge & ChargeRef> {
    const counterId = counterIdFor(accountId, quota, options.now);
    const chargeId = options.chargeId ?? newChargeId();
    const fieldsOnCreate = counterFields(accountId, quota, options.now);
    if (countsInProcess(limit)) {
      const used = await this.tally.count(counterId, want, fieldsOnCreate);
      return { counterId, chargeId, countedInProcess: true, granted: want, used };
    }
    const entry = { charge: chargeId };
    const charged = await databaseBackend(async () => {
      if (options.partial) {
        const { added, used } = await addUpTo(this.counters, counterId, want, limit, fieldsOnCreate, entry);
        return { granted: added, used };
      }
      const used = await addWithin(this.counters, counterId, want, limit, fieldsOnCreate, entry);
      return used === null
        ? { granted: 0, used: await readUsed(this.counters, counterId) }
        : { granted: want, used };
    });
    this.sawUsed(counterId, charged.used);
    return { counterId, chargeId, countedInProcess: false, ...charged };
  }

  /**
   * Gives back `amount` of the `heldUnits` that `charge` holds (a page that came back short), in
   * one write that also lowers its journal entry, so a later `refundCharge` returns only the rest.
   * `heldUnits` is what the charge's last answered write left it holding. Returns the counter's
   * `used` after.
   */
  async giveBack(charge: ChargeRef, heldUnits: number, amount: number): Promise<number> {
    const { counterId, chargeId } = charge;
    if (charge.countedInProcess) return this.tally.release(counterId, amount);
    const used = await databaseBackend(
      async () =>
        (await giveBackPartOfCharge(this.counters, counterId, chargeId, heldUnits, amount)) ??
        // The entry was trimmed from the journal (CHARGE_JOURNAL_LENGTH later charges within one
        // call): this give-back is still owed, once, and is made without it.
        (await subtract(this.counters, counterId, amount)) ??
        readUsed(this.counters, counterId),
    );
    return this.sawUsed(counterId, used);
  }

  /**
   * Gives back everything `charge` still holds, exactly once whoever calls and however often (see
   * `takeBackCharge`). `heldUnits` is what the caller believes it holds, or `null` when it cannot
   * know (the charge or a give-back failed without an answer, or is still under way): the charge is
   * then cancelled first, so that its command cannot land after this looked for it, and the journal
   * is read. Returns the units given back.
   */
  async refundCharge(charge: ChargeRef, heldUnits: number | null): Promise<number> {
    if (charge.countedInProcess) {
      // Counting in the process either happens or is undone, so `null` means nothing was counted.
      const units = heldUnits ?? 0;
      this.tally.release(charge.counterId, units);
      return units;
    }
    const { counterId, chargeId } = charge;
    return databaseBackend(async () => {
      if (heldUnits === null)
        await cancelCharge(this.counters, counterId, chargeId, fieldsOfCounter(counterId));
      return takeBackCharge(this.counters, counterId, chargeId, heldUnits);
    });
  }

  /** Makes what a successful call's charge holds final: units counted in the process are then written. */
  settleCharge(charge: ChargeRef, heldUnits: number): void {
    if (charge.countedInProcess) this.tally.commit(charge.counterId, heldUnits);
  }

  /**
   * Writes down, on the local disk, that the charges of a call that failed are owed back, before
   * anything is tried (the call may be answered, and the process may die, before they land).
   * Returns one debt per charge, to settle with `refundOwed`. Charges counted in the process need
   * none: they die with it.
   */
  oweRefunds(charges: readonly ChargeRef[]): OwedRefund[] {
    const kept = charges.filter((charge) => !charge.countedInProcess);
    const landed =
      this.pendingRefunds?.keep(
        kept.map((charge) => ({ counter: charge.counterId, charge: charge.chargeId, units: null })),
      ) ?? [];
    return charges.map((charge) => ({ charge, landed: landed[kept.indexOf(charge)] ?? (() => undefined) }));
  }

  /**
   * Gives back what `owed.charge` holds (`heldUnits`, or `null` when unknown) and crosses it off the
   * disk. When MongoDB cannot be reached it is retried in the background, oldest first, until it
   * lands; `onRefunded` learns the units given back. Never throws.
   */
  async refundOwed(
    owed: OwedRefund,
    heldUnits: number | null,
    logger: Logger,
    onRefunded: (units: number) => void,
  ): Promise<void> {
    const { charge, landed } = owed;
    try {
      onRefunded(await this.refundCharge(charge, heldUnits));
      landed();
    } catch (error) {
      if (error instanceof Unavailable) {
        this.refundRetries.add({
          run: async () => {
            onRefunded(await this.refundCharge(charge, heldUnits));
            landed();
          },
          logger,
          fields: { counter_id: charge.counterId, charge_id: charge.chargeId },
        });
        return;
      }
      logger.error('could not refund a failed call', {
        counter_id: charge.counterId,
        charge_id: charge.chargeId,
        error,
      });
    }
  }

  /**
   * Finishes the refunds that processes of this host left owed when they died, in the background;
   * a server calls it once at start. Each is safe however often it is made.
   */
  refundLeftovers(logger: Logger): void {
    for (const { record, landed } of this.pendingRefunds?.adoptLeftovers() ?? []) {
      const charge = { counterId: record.counter, chargeId: record.charge, countedInProcess: false };
      void this.refundOwed({ charge, landed }, record.units, logger, () => undefined);
    }
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
        {
          reservation: reservationId,
        },
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

  /** Today's `used` of `quota`; where this process counts it (no limit), as it reports it on results. */
  async used(accountId: string, quota: QuotaKey, now: Date): Promise<number> {
    const counterId = counterIdFor(accountId, quota, now);
    return (
      (await this.tally.reported(counterId)) ?? databaseBackend(() => readUsed(this.counters, counterId))
    );
  }

  /** Writes what this process counted on quotas without a limit; a clean stop calls it before closing MongoDB. */
  writeCounts(): Promise<void> {
    return this.tally.writeAll();
  }
}

/**
 * 72 random bits drawn once per process: with the process's own sequence number after them, charge
 * ids are unique across processes without drawing random bytes (a system call) on every call.
 */
const CHARGE_ID_PREFIX = randomBytes(9).toString('base64url');
let chargeSequence = 0;

/**
 * An id for a charge's journal entry, unique across processes and restarts, short because the
 * journal holds CHARGE_JOURNAL_LENGTH of them; base64url and base-36 digits, so never a ':'.
 */
export function newChargeId(): string {
  chargeSequence += 1;
  return `${CHARGE_ID_PREFIX}${chargeSequence.toString(36)}`;
}

/** The counter of `quota` on the UTC day of `now`. */
export function counterIdFor(accountId: string, quota: QuotaKey, now: Date): string {
  return `${accountId}:${quota}:${isoDate(now)}`;
}

/** The fields of the counter `counterIdFor` named, for creating it from its id alone. */
function fieldsOfCounter(counterId: string) {
  const [day = '', quota = '', ...account] = counterId.split(':').reverse();
  return counterFields(account.reverse().join(':'), quota as QuotaKey, new Date(`${day}T00:00:00.000Z`));
}

function counterFields(accountId: string, quota: QuotaKey, now: Date) {
  return {
    account_id: accountId,
    quota,
    day: isoDate(now),
    expires_at: new Date(nextUtcMidnight(now).getTime() + KEEP_AFTER_RESET_MS),
  };
}
