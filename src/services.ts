import type { Client } from '@elastic/elasticsearch';
import type { Config } from './config.js';
import { AccountsStore } from './stores/accounts.js';
import { ApiKeysStore } from './stores/api-keys.js';
import { type IndexNames, indexNames } from './stores/elasticsearch.js';
import type { MongoHandle } from './stores/mongo.js';
import { PageSessionsStore } from './stores/page-sessions.js';
import { QuotaCountersStore } from './stores/quota-counters.js';
import { RateLimitsStore } from './stores/rate-limits.js';
import { SignInAttemptsStore } from './stores/sign-in-attempts.js';
import { UnlocksStore } from './stores/unlocks.js';
import { UsersStore } from './stores/users.js';

/** Everything a request may use, built once per process (or per test app) and shared by all requests. */
export interface Services {
  config: Config;
  elasticsearch: Client;
  indices: IndexNames;
  mongo: MongoHandle;
  accounts: AccountsStore;
  apiKeys: ApiKeysStore;
  quotaCounters: QuotaCountersStore;
  rateLimits: RateLimitsStore;
  unlocks: UnlocksStore;
  users: UsersStore;
  pageSessions: PageSessionsStore;
  signInAttempts: SignInAttemptsStore;
}

export function createServices(backends: {
  config: Config;
  elasticsearch: Client;
  mongo: MongoHandle;
}): Services {
  const { db } = backends.mongo;
  return {
    ...backends,
    indices: indexNames(backends.config.INDEX_PREFIX),
    accounts: new AccountsStore(db),
    apiKeys: new ApiKeysStore(db),
    quotaCounters: new QuotaCountersStore(db),
    rateLimits: new RateLimitsStore(db),
    unlocks: new UnlocksStore(db),
    users: new UsersStore(db),
    pageSessions: new PageSessionsStore(db),
    signInAttempts: new SignInAttemptsStore(db),
  };
}

/** Creates the collections' indexes; idempotent, run at start-up. */
export async function ensureIndexes(services: Services): Promise<void> {
  await services.accounts.ensureIndexes();
  await services.apiKeys.ensureIndexes();
  await services.quotaCounters.ensureIndexes();
  await services.rateLimits.ensureIndexes();
  await services.unlocks.ensureIndexes();
  await services.users.ensureIndexes();
  await services.pageSessions.ensureIndexes();
  await services.signInAttempts.ensureIndexes();
}
