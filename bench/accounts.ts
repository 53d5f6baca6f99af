/** The benchmark's own accounts, made in MongoDB directly: one per purpose, each with an API key. */
import { SCOPES } from '../src/auth/scopes.js';
import type { Config } from '../src/config.js';
import { logger } from '../src/logger.js';
import { QuotaCounters } from '../src/metering/quota-counters.js';
import { PLANS, type QuotaKey } from '../src/plans.js';
import { AccountsStore } from '../src/stores/accounts.js';
import { ApiKeysStore } from '../src/stores/api-keys.js';
import { connectMongo, type MongoHandle } from '../src/stores/mongo.js';
import { QuotaCountersStore } from '../src/stores/quota-counters.js';

/**
 * A Scale account's quotas as the plan has them (lead and company explores without a limit, so
 * counted in the process), except that its insight queries, 1,000 a day, are raised so that a run
 * never uses them up: raised, not removed, so that each insight call is still charged in MongoDB
 * with one conditional update, as on a real Scale account.
 */
const SCALE_READ_QUOTAS = {
  lead_explores: PLANS.scale.daily_quotas.lead_explores,
  company_explores: PLANS.scale.daily_quotas.company_explores,
  insight_queries: 1_000_000_000,
};

export interface BenchAccount {
  accountId: string;
  key: string;
}

export class BenchAccounts {
  private constructor(private readonly mongo: MongoHandle) {}

  static async open(settings: Config): Promise<BenchAccounts> {
    return new BenchAccounts(await connectMongo(settings));
  }

  /** A Scale account with every scope; quotas and calls per minute as given, else as above and without a rate limit worth the name. */
  async create(limits: { leadExplores?: number; callsPerMinute?: number } = {}): Promise<BenchAccount> {
    const accounts = new AccountsStore(this.mongo.db);
    const now = new Date();
    const account = await accounts.create({
      email: `bench-${now.getTime()}-${Math.random().toString(36).slice(2)}@hiring-leads.example`,
      plan: 'scale',
      subscription_status: 'active',
      now,
    });
    await accounts.update(
      account._id,
      {
        quota_overrides: {
          ...SCALE_READ_QUOTAS,
          ...(limits.leadExplores !== undefined && { lead_explores: limits.leadExplores }),
        },
        calls_per_minute_override: limits.callsPerMinute ?? 1_000_000,
      },
      now,
    );
    const { key } = await new ApiKeysStore(this.mongo.db).create(account._id, [...SCOPES], now);
    return { accountId: account._id, key };
  }

  /** What today's counter of `quota` holds for the account, as MongoDB has it. */
  used(accountId: string, quota: QuotaKey): Promise<number> {
    return new QuotaCounters(new QuotaCountersStore(this.mongo.db), logger).used(
      accountId,
      quota,
      new Date(),
    );
  }

  close(): Promise<void> {
    return this.mongo.client.close();
  }
}
