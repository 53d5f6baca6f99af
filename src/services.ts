import type { Client } from '@elastic/elasticsearch';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { Metrics } from './metrics.js';
import { AccountsStore } from './stores/accounts.js';
import { AddressBudgets } from './stores/address-budgets.js';
import { ApiKeysStore } from './stores/api-keys.js';
import { observeElasticsearch, observeMongo } from './stores/backend-metrics.js';
import { type IndexNames, indexNames } from './stores/elasticsearch.js';
import type { Freshness } from './stores/fresh-cache.js';
import type { MongoHandle } from './stores/mongo.js';
import { PageSessionsStore } from './stores/page-sessions.js';
import { PendingRefunds } from './stores/pending-refunds.js';
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
  /** This server's Prometheus metrics; the backends' clients report into it from the start. */
  metrics: Metrics;
  /** How fresh the per-process copies of keys, accounts, users and grants are (IDENTITY_CACHE_MS). */
  freshness: Freshness;
  accounts: AccountsStore;
  apiKeys: ApiKeysStore;
  quotaCounters: QuotaCountersStore;
  rateLimits: RateLimitsStore;
  /** Per-address budgets (failed authentications, client registrations), shared by every process. */
  addressBudgets: AddressBudgets;
  unlocks: UnlocksStore;
  users: UsersStore;
  pageSessions: PageSessionsStore;
  signInAttempts: SignInAttemptsStore;
}

/** Records kept per cache of identities: ten thousand keys or accounts is a few megabytes. */
const IDENTITY_CACHE_ENTRIES = 10_000;

export function createServices(backends: {
  config: Config;
  elasticsearch: Client;
  mongo: MongoHandle;
  /** Where the stores log what they do in the background. */
  logger: Logger;
  /** The clock of the identity caches, rate-limit leases and quota tallies; `performance.now` unless a test stops time. */
  cacheClock?: () => number;
}): Services {
  const { cacheClock, logger, ...handles } = backends;
  const { db } = handles.mongo;
  const freshness: Freshness = {
    maxAgeMs: handles.config.IDENTITY_CACHE_MS,
    maxEntries: IDENTITY_CACHE_ENTRIES,
    clock: cacheClock ?? (() => performance.now()),
  };
  const metrics = new Metrics();
  observeElasticsearch(handles.elasticsearch, metrics);
  observeMongo(handles.mongo.client, metrics);
  const accounts = new AccountsStore(db, freshness);
  return {
    ...handles,
    indices: indexNames(handles.config.INDEX_PREFIX),
    metrics,
    freshness,
    accounts,
    apiKeys: new ApiKeysStore(db, freshness),
    quotaCounters: new QuotaCountersStore(
      db,
      logger,
      freshness.clock,
      new PendingRefunds(handles.config.PENDING_REFUNDS_DIR, handles.config.MONGODB_DB, logger),
    ),
    rateLimits: new RateLimitsStore(db, freshness.clock),
    addressBudgets: new AddressBudgets(db, freshness.clock),
    unlocks: new UnlocksStore(db, accounts),
    users: new UsersStore(db, freshness),
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
