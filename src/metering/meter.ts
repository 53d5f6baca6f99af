import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { EffectiveLimits, QuotaKey } from '../plans.js';
import type { ChargeRef, QuotaCounters } from './quota-counters.js';
import { type QuotaState, quotaExhausted, quotaState } from './quota-state.js';

/**
 * Daily quota metering for one call. Charges are refunded automatically when the handler throws,
 * so a failed call is never charged.
 */
export interface Meter {
  /**
   * Charges `want` units. Exact (default): all or nothing. `partial: true`: as many as remain, which
   * may be fewer than `want`. Throws `QuotaExceeded` when nothing at all remains.
   */
  charge(
    quota: QuotaKey,
    want: number,
    options?: { partial?: boolean },
  ): Promise<{ granted: number; quota: QuotaState }>;
  /**
   * Charges as `charge` does and runs `work`, which fetches at most `size` results for what is
   * charged. Where this process last saw at least `want` left (or the quota has no limit), the
   * charge and `work(want)` run side by side, so the call does not wait for MongoDB before the
   * search; another process may have taken part of the quota meanwhile, so the caller keeps only
   * `granted` of what `work` found. Elsewhere the charge comes first and `work(granted)` follows:
   * with nothing left, no work is done. A failure of either fails the call, which refunds the charge.
   */
  chargeAlongside<T>(
    quota: QuotaKey,
    want: number,
    options: { partial?: boolean },
    work: (size: number) => Promise<T>,
  ): Promise<{ granted: number; quota: QuotaState; result: T }>;
  /** Charges exactly one unit; the quota state after the charge. */
  require(quota: QuotaKey): Promise<QuotaState>;
  /**
   * Gives back `unused` of the units this call's last charge of `quota` took: a search reserves its
   * page before it runs and returns what the page did not fill. The quota state after.
   */
  refundUnused(quota: QuotaKey, unused: number): Promise<QuotaState>;
}

export interface CallMeter extends Meter {
  /**
   * Ends the call's metering and gives back everything it still holds; used when the call fails.
   * What is owed is written down on the local disk first, then charges and give-backs still under
   * way are waited for, so what they granted is given back too, and the meter refuses any later
   * charge. A refund that cannot reach MongoDB is retried in the background until it lands, by this
   * process or, should it die, by the next one started on the same disk. Never throws.
   */
  refundAll(): Promise<void>;
  /** Makes what the call charged final, once it has succeeded: units counted in the process are then written. */
  settleAll(): void;
}

/**
 * One charge of the call. Its counter's journal holds an entry under `chargeId`, written in the same
 * atomic update as the charge, with the units the charge still holds; a refund is conditional on
 * that entry and removes it, so whatever happens to the replies, the call is never charged for a
 * failure and never refunded twice (src/stores/bounded-counter.ts, `takeBackCharge`). A charge of a
 * quota without a limit is counted in the process instead, and refunded there.
 */
interface HeldCharge extends ChargeRef {
  quota: QuotaKey;
  /**
   * What the charge holds, as far as this meter knows; `null` while a write on it is under way or
   * failed without an answer (it may have landed or not): the refund then reads the journal.
   */
  units: number | null;
}

export function createCallMeter(deps: {
  store: QuotaCounters;
  accountId: string;
  limits: EffectiveLimits;
  meteredQuota: QuotaKey | null;
  now: Date;
  logger: Logger;
  metrics: Metrics;
}): CallMeter {
  const { store, accountId, limits, now, logger, metrics } = deps;
  const held: HeldCharge[] = [];
  /** Store writes not yet settled: a refund must see what they granted, whenever the call fails. */
  const inFlight = new Set<Promise<unknown>>();
  let ended = false;

  /**
   * Runs a store write on `charge`, counting it in flight until it settles. Until it answers, what
   * the charge holds is unknown; `units` says what it holds once the write has answered.
   */
  const track = <T>(charge: HeldCharge, write: Promise<T>, units: (answer: T) => number): Promise<T> => {
    // Counting in the process either happens or is undone, so what such a charge holds is never in doubt.
    if (!charge.countedInProcess) charge.units = null;
    const settled = write.then((answer) => {
      charge.units = units(answer);
      return answer;
    });
    inFlight.add(settled);
    const done = () => inFlight.delete(settled);
    settled.then(done, done);
    return settled;
  };

  const assertMayCharge = (quota: QuotaKey) => {
    if (ended) throw new Error('This call has ended and failed; its meter charges nothing more');
    if (quota !== deps.meteredQuota) {
      throw new Error(`This tool's meter charges ${deps.meteredQuota}, yet it charged ${quota}`);
    }
  };

  const peek = async (quota: QuotaKey): Promise<QuotaState> =>
    quotaState(await store.used(accountId, quota, now), limits.daily_quotas[quota], now);

  const charge: Meter['charge'] = async (quota, want, options) => {
    assertMayCharge(quota);
    const limit = limits.daily_quotas[quota];
    if (want <= 0) {
      // Nothing to charge, but a caller with nothing left still learns so.
      const state = await peek(quota);
      if (state.remaining === 0) throw quotaExhausted(quota, now);
      return { granted: 0, quota: state };
    }
    // Held before the write is sent, so a refund finds the charge's entry even if the write throws.
    const holding: HeldCharge = { ...store.newCharge(accountId, quota, limit, now), quota, units: null };
    held.push(holding);
    const result = await track(
      holding,
      store.charge(accountId, quota, want, limit, { partial: options?.partial ?? false, now, ref: holding }),
      (done) => done.granted,
    );
    metrics.quotaCharged(quota, result.granted);
    if (result.granted === 0) throw quotaExhausted(quota, now);
    return { granted: result.granted, quota: quotaState(result.used, limit, now) };
  };

  /** Whether this process last saw room for `want` on the counter; a hint, never a grant. */
  const roomLastSeen = (quota: QuotaKey, want: number): boolean => {
    const limit = limits.daily_quotas[quota];
    if (limit === null) return true;
    const used = store.lastSeenUsed(accountId, quota, now);
    return used !== undefined && limit - used >= want;
  };

  const chargeAlongside: Meter['chargeAlongside'] = async (quota, want, options, work) => {
    if (want <= 0 || !roomLastSeen(quota, want)) {
      const charged = await charge(quota, want, options);
      return { ...charged, result: await work(charged.granted) };
    }
    const [charged, worked] = await Promise.allSettled([charge(quota, want, options), work(want)]);
    // A refused charge is the answer even if the work failed too, as when the charge comes first.
    if (charged.status === 'rejected') throw charged.reason;
    if (worked.status === 'rejected') throw worked.reason;
    return { ...charged.value, result: worked.value };
  };

  return {
    charge,
    chargeAlongside,
    require: async (quota) => (await charge(quota, 1)).quota,
    refundUnused: async (quota, unused) => {
      assertMayCharge(quota);
      // The last charge of `quota`: a search gives back part of the page it has just charged.
      const holding = held.findLast((candidate) => candidate.quota === quota);
      const units = holding?.units ?? 0;
      if (holding === undefined || unused <= 0 || unused > units) {
        throw new Error(
          `Cannot give back ${unused} ${quota}: this call's last charge does not hold that many`,
        );
      }
      // One write, which lowers the journal entry too: if the call fails later, its refund returns
      // only the rest. Should this write fail without an answer, the refund reads the entry and
      // returns exactly what it still holds, whether or not the give-back landed.
      const used = await track(holding, store.giveBack(holding, units, unused), () => units - unused);
      metrics.quotaRefunded(quota, unused);
      return quotaState(used, limits.daily_quotas[quota], now);
    },
    refundAll: async () => {
      ended = true;
      // Written down before anything else: the call may be answered before these land (its
      // deadline, src/mcp/run-tool.ts), and the process may die.
      const charges = held.filter((charge) => charge.units !== 0);
      const owed = store.oweRefunds(charges);
      held.length = 0;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await Promise.all(
        owed.map((debt, index) => {
          const charge = charges[index] as HeldCharge;
          if (charge.units === 0) {
            debt.landed();
            return undefined;
          }
          return store.refundOwed(debt, charge.units, logger, (units) =>
            metrics.quotaRefunded(charge.quota, units),
          );
        }),
      );
    },
    settleAll: () => {
      for (const charge of held) if (charge.units !== null) store.settleCharge(charge, charge.units);
      held.length = 0;
    },
  };
}
