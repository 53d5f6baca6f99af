import { QuotaExceeded } from '../errors.js';
import type { Logger } from '../logger.js';
import type { EffectiveLimits, QuotaKey } from '../plans.js';
import type { QuotaCharge, QuotaCountersStore } from '../stores/quota-counters.js';
import type { Meter } from '../tools/define-tool.js';
import { nextUtcMidnight, type QuotaState, quotaState } from './quota-math.js';

export interface CallMeter extends Meter {
  /** Gives back everything this call charged; used when the call fails. Never throws. */
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
  const charges: QuotaCharge[] = [];

  const peek = async (quota: QuotaKey): Promise<QuotaState> =>
    quotaState(await store.used(accountId, quota, now), limits.daily_quotas[quota], now);

  const charge: Meter['charge'] = async (quota, want, options) => {
    if (quota !== deps.meteredQuota) {
      throw new Error(`This tool declares meters: ${deps.meteredQuota}, yet charged ${quota}`);
    }
    const exhausted = () => new QuotaExceeded(quota, nextUtcMidnight(now).toISOString());
    const limit = limits.daily_quotas[quota];
    if (want <= 0) {
      // Nothing to charge, but a caller with nothing left still learns so (CONTRACT §7).
      const state = await peek(quota);
      if (state.remaining === 0) throw exhausted();
      return { granted: 0, quota: state };
    }
    const result = await store.charge(accountId, quota, want, limit, {
      partial: options?.partial ?? false,
      now,
    });
    if (result.granted === 0) throw exhausted();
    charges.push(result);
    return { granted: result.granted, quota: quotaState(result.used, limit, now) };
  };

  return {
    charge,
    require: async (quota) => (await charge(quota, 1)).quota,
    peek,
    refundAll: async () => {
      const toRefund = charges.splice(0);
      for (const { counterId, granted } of toRefund) {
        try {
          await store.refund(counterId, granted);
        } catch (error) {
          deps.logger.error('could not refund a failed call', {
            counter_id: counterId,
            amount: granted,
            error,
          });
        }
      }
    },
  };
}
