import { randomBytes } from 'node:crypto';
import { DAY_MS, isoDate, nextUtcMidnight } from '../domain/calendar.js';
import { Unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import type { QuotaKey, QuotaLimit } from '../plans.js';
import { BackgroundRetries } from '../stores/background-retries.js';
import type { CounterFields } from '../stores/bounded-counter.js';
import type { PendingRefunds } from '../stores/pending-refunds.js';
import type { QuotaCountersStore } from '../stores/quota-counters.js';
import { RecentMap } from '../stores/recent-map.js';
import { UsageTally } from './usage-tally.js';

/**
 * One charge, named before it is sent (`newCharge`), so that a refund finds its journal entry
 * whatever becomes of the answer; or as this process counted it.
 */
export interface ChargeRef {
  /** Made here and nowhere else; callers only log it. */
  counterId: string;
  chargeId: string;
  /** Counted in this process's tally (`countsInProcess`), not journalled on the counter. */
  countedInProcess: boolean;
  /** What the counter is created with when this is the day's first charge. */
  createWith: CounterFields;
}

/**
 * Whether charges of a quota with this limit are counted in the process and written in batches
 * (`UsageTally`): only without a limit, where a counter protects nothing and only reports.
 */
function countsInProcess(limit: QuotaLimit): limit is null {
  return limit === null;
}

/** A refund written down as owed (`QuotaCounters.oweRefunds`): `landed` crosses it off. */
export interface OwedRefund {
  charge: ChargeRef;
  landed: () => void;
}

export interface QuotaCharge {
  granted: number;
  used: number;
}

/** Refunds waiting for MongoDB to come back; each is a few hundred bytes. */
const REFUND_QUEUE_CAPACITY = 10_000;
const FIRST_REFUND_RETRY_MS = 200;
const LONGEST_REFUND_RETRY_MS = 5_000;

/** Counters whose last `used` a process remembers: today's counters of its busiest accounts. */
const SEEN_COUNTERS = 10_000;

/** Yesterday's counters stay a day for operators to look at, then expire. */
const KEEP_AFTER_RESET_MS = DAY_MS;

/**
 * The daily quota counters: one per account, quota and UTC day, `{ _id, account_id, quota, day,
 * used, expires_at }` in MongoDB (`QuotaCountersStore`). A quota with a limit is charged there, one
 * conditional update per charge; one without is counted in the process and written in batches
 * (`UsageTally`). Counter ids are made here only.
 */
export class QuotaCounters {
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
   * calls, a test of the counters alone) they are kept in memory only.
   */
  constructor(
    private readonly store: QuotaCountersStore,
    logger: Logger,
    clock: () => number = () => performance.now(),
    private readonly pendingRefunds?: PendingRefunds,
  ) {
    this.tally = new UsageTally({
      write: (counterId, amount, writeId, fields) => store.addCounted(counterId, amount, writeId, fields),
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

  ensureIndexes(): Promise<void> {
    return this.store.ensureIndexes();
  }

  /** Names a charge of today's `quota` before it is made (`charge`). */
  newCharge(accountId: string, quota: QuotaKey, limit: QuotaLimit, now: Date): ChargeRef {
    return {
      counterId: counterIdFor(accountId, quota, now),
      chargeId: newChargeId(),
      countedInProcess: countsInProcess(limit),
      createWith: counterFields(accountId, quota, now),
    };
  }

  /**
   * Charges `want` units of today's quota. Exact: all or nothing; partial: as many as remain.
   * Simultaneous charges from any number of processes never take `used` past `limit`. What was
   * granted is recorded under the charge's id in the same atomic update, so `refundCharge` can give
   * it back exactly once; a caller that named the charge first (`ref`) can do so even when this
   * throws, not knowing whether the charge landed. Without a limit, the units are counted in this
   * process instead, which throws having counted nothing.
   */
  async charge(
    accountId: string,
    quota: QuotaKey,
    want: number,
    limit: QuotaLimit,
    options: { partial: boolean; now: Date; ref?: ChargeRef },
  ): Promise<QuotaCharge & ChargeRef> {
    const ref = options.ref ?? this.newCharge(accountId, quota, limit, options.now);
    if (countsInProcess(limit)) {
      return { ...ref, granted: want, used: await this.tally.count(ref.counterId, want, ref.createWith) };
    }
    const charged = await this.store.charge(ref.counterId, want, limit, {
      partial: options.partial,
      chargeId: ref.chargeId,
      fields: ref.createWith,
    });
    // MongoDB is back: refunds queued while it was away go before this process's next charges
    // push their journal entries out (src/stores/bounded-counter.ts, CHARGE_JOURNAL_LENGTH).
    this.refundRetries.retryNow();
    this.sawUsed(ref.counterId, charged.used);
    return { ...ref, ...charged };
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
    return this.sawUsed(counterId, await this.store.giveBack(counterId, chargeId, heldUnits, amount));
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
    if (heldUnits === null) await this.store.cancel(charge.counterId, charge.chargeId, charge.createWith);
    return this.store.takeBack(charge.counterId, charge.chargeId, heldUnits);
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
    const refund = async () => {
      const units = await this.refundCharge(charge, heldUnits);
      onRefunded(units);
      landed();
      // What a support question about a charge needs: which charge of which call came back, and how much.
      logger.info('refunded a failed call', {
        counter_id: charge.counterId,
        charge_id: charge.chargeId,
        units,
      });
    };
    try {
      await refund();
    } catch (error) {
      if (error instanceof Unavailable) {
        this.refundRetries.add({
          run: refund,
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
      const charge = {
        counterId: record.counter,
        chargeId: record.charge,
        countedInProcess: false,
        createWith: fieldsOfCounter(record.counter),
      };
      void this.refundOwed({ charge, landed }, record.units, logger, () => undefined);
    }
  }

  /**
   * Reserves one unit of the day's `quota` under `reservationId`, recorded on the counter in the
   * same atomic update, so `cancelReservation` gives it back at most once, from any process (used
   * by enrich_lead, whose charge spans several documents). `granted` is 0 when the quota is used up.
   */
  reserveOne(
    accountId: string,
    quota: QuotaKey,
    limit: QuotaLimit,
    reservationId: string,
    now: Date,
  ): Promise<QuotaCharge> {
    // Unlimited quotas still journal, so the reservation is undone the same way.
    const ceiling = limit ?? Number.MAX_SAFE_INTEGER;
    return this.store.reserveOne(
      counterIdFor(accountId, quota, now),
      ceiling,
      reservationId,
      counterFields(accountId, quota, now),
    );
  }

  /**
   * Gives back the unit reserved under `reservationId` on the day of `reservedAt`, if it is still
   * open. True when it did.
   */
  cancelReservation(accountId: string, quota: QuotaKey, reservationId: string, reservedAt: Date) {
    return this.store.cancelReservation(counterIdFor(accountId, quota, reservedAt), reservationId);
  }

  /** Makes final the reservation made on the day of `reservedAt`. */
  settleReservation(accountId: string, quota: QuotaKey, reservationId: string, reservedAt: Date) {
    return this.store.settleReservation(counterIdFor(accountId, quota, reservedAt), reservationId);
  }

  /** Today's `used` of `quota`; where this process counts it (no limit), as it reports it on results. */
  async used(accountId: string, quota: QuotaKey, now: Date): Promise<number> {
    const counterId = counterIdFor(accountId, quota, now);
    return (await this.tally.reported(counterId)) ?? this.store.used(counterId);
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
function counterIdFor(accountId: string, quota: QuotaKey, now: Date): string {
  return `${accountId}:${quota}:${isoDate(now)}`;
}

/** The fields of the counter `counterIdFor` named, for creating it from its id alone (a refund left on disk). */
function fieldsOfCounter(counterId: string): CounterFields {
  const [day = '', quota = '', ...account] = counterId.split(':').reverse();
  return counterFields(account.reverse().join(':'), quota as QuotaKey, new Date(`${day}T00:00:00.000Z`));
}

function counterFields(accountId: string, quota: QuotaKey, now: Date): CounterFields {
  return {
    account_id: accountId,
    quota,
    day: isoDate(now),
    expires_at: new Date(nextUtcMidnight(now).getTime() + KEEP_AFTER_RESET_MS),
  };
}
