/** The benchmark's own accounts, made in MongoDB directly: one per purpose, each with an API key. */
import { SCOPES } from '../src/auth/scopes.js';
import type { Config } from '../src/config.js';
import type { QuotaKey } from '../src/plans.js';
import { AccountsStore } from '../src/stores/accounts.js';
import { ApiKeysStore } from '../src/stores/api-keys.js';
import { connectMongo, type MongoHandle } from '../src/stores/mongo.js';
import { QuotaCountersStore } from '../src/stores/quota-counters.js';

/** No daily limit on the read tools: a benchmark measures speed, not the plan's limits. */
const NO_READ_QUOTAS = { lead_explores: null, company_explores: null, insight_queries: null };

export interface BenchAccount {
  accountId: string;
  key: string;
}

export class BenchAccounts {
  private constructor(private readonly mongo: MongoHandle) {}

  static async open(settings: Config): Promise<BenchAccounts> {
    return new BenchAccounts(await connectMongo(settings));
  }

  /** A Scale account with every scope; quotas and calls per minute as given, else without limits. */
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
          ...NO_READ_QUOTAS,
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
    return new QuotaCountersStore(this.mongo.db).used(accountId, quota, new Date());
  }

  close(): Promise<void> {
    return this.mongo.client.close();
  }
}
