import { QuotaExceeded } from '../errors.js';
import type { Logger } from '../logger.js';
import type { EffectiveLimits, QuotaKey } from '../plans.js';
import type { QuotaCountersStore } from '../stores/quota-counters.js';
import type { Meter } from '../tools/define-tool.js';
import { nextUtcMidnight, type QuotaState, quotaState } from './quota-math.js';

export interface CallMeter extends Meter {
  /**
   * Ends the call's metering and gives back everything it still holds; used when the call fails.
   * Charges and refunds still under way are waited for first, so what they granted is given back
   * too, and the meter refuses any later charge. Never throws.
   */
  refundAll(): Promise<void>;
}

export function createCallMeter(deps: {
  store: QuotaCountersStore;
  accountId: string;
  limits: EffectiveLimits;
  meteredQuota: QuotaKey | null;
  now: Date;
  logger: Logger;
}): CallMeter {
  const { store, accountId, limits, now } = deps;
  /** What this call holds of each quota, and on which counter (the day it was charged on). */
  const held = new Map<QuotaKey, { counterId: string; units: number }>();
  /** Store writes not yet settled: a refund must see what they granted, whenever the call fails. */
  const inFlight = new Set<Promise<unknown>>();
  let ended = false;

  const hold = (quota: QuotaKey, counterId: string, units: number) =>
    held.set(quota, { counterId, units: (held.get(quota)?.units ?? 0) + units });
  /** Runs a store write, counting it in flight until it settles. */
  const track = <T>(write: Promise<T>): Promise<T> => {
    inFlight.add(write);
    const settled = () => inFlight.delete(write);
    write.then(settled, settled);
    return write;
  };
  const exhausted = (quota: QuotaKey) => new QuotaExceeded(quota, nextUtcMidnight(now).toISOString());

  const assertMayCharge = (quota: QuotaKey) => {
    if (ended) throw new Error('This call has ended and failed; its meter charges nothing more');
    if (quota !== deps.meteredQuota) {
      throw new Error(`This tool declares meters: ${deps.meteredQuota}, yet charged ${quota}`);
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
      if (state.remaining === 0) throw exhausted(quota);
      return { granted: 0, quota: state };
    }
    // Held as soon as the store answers, inside the tracked write, so a refund waiting on it sees it.
    const result = await track(
      store
        .charge(accountId, quota, want, limit, { partial: options?.partial ?? false, now })
        .then((done) => {
          hold(quota, done.counterId, done.granted);
          return done;
        }),
    );
    if (result.granted === 0) throw exhausted(quota);
    return { granted: result.granted, quota: quotaState(result.used, limit, now) };
  };

  return {
    charge,
    require: async (quota) => (await charge(quota, 1)).quota,
    peek,
    refundUnused: async (quota, unused) => {
      assertMayCharge(quota);
      const holding = held.get(quota);
      if (holding === undefined || unused <= 0 || unused > holding.units) {
        throw new Error(`Cannot give back ${unused} ${quota}: this call does not hold that many`);
      }
      const { counterId } = holding;
      // Released only once the store confirms; a refund that fails stays held for refundAll.
      const used = await track(
        store.refund(counterId, unused).then((after) => {
          hold(quota, counterId, -unused);
          return after;
        }),
      );
      return quotaState(used, limits.daily_quotas[quota], now);
    },
    refundAll: async () => {
      ended = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      const toRefund = [...held.values()].filter(({ units }) => units > 0);
      held.clear();
      for (const { counterId, units } of toRefund) {
        try {
          await store.refund(counterId, units);
        } catch (error) {
          deps.logger.error('could not refund a failed call', {
            counter_id: counterId,
            amount: units,
            error,
          });
        }
      }
    },
  };
}
