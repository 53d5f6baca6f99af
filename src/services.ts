import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { QuotaCounters } from './metering/quota-counters.js';
import { Metrics } from './metrics.js';
import { AccountsStore } from './stores/accounts.js';
import { AddressBudgets } from './stores/address-budgets.js';
import { ApiKeysStore } from './stores/api-keys.js';
import { observeElasticsearch, observeMongo } from './stores/backend-metrics.js';
import { type BackendClients, Backends } from './stores/backends.js';
import { indexNames } from './stores/elasticsearch.js';
import type { Freshness } from './stores/fresh-cache.js';
import { OAuthArtifactsStore } from './stores/oauth-artifacts.js';
import { OAuthSigningKeysStore } from './stores/oauth-signing-keys.js';
import { PageSessionsStore } from './stores/page-sessions.js';
import { PendingRefunds } from './stores/pending-refunds.js';
import { QuotaCountersStore } from './stores/quota-counters.js';
import { RateLimitsStore } from './stores/rate-limits.js';
import { SearchIndexStore } from './stores/search-index.js';
import { SignInAttemptsStore } from './stores/sign-in-attempts.js';
import { UnlocksStore } from './stores/unlocks.js';
import { UsersStore } from './stores/users.js';

/** Everything a request may use, built once per process (or per test app) and shared by all requests. */
export interface Services {
  config: Config;
  /** Whether Elasticsearch and MongoDB answer; closing them at the end. Only the stores call them. */
  backends: Backends;
  /** This server's Prometheus metrics; the backends' clients report into it from the start. */
  metrics: Metrics;
  /** The leads, companies, signals and roll-up indices. */
  searchIndex: SearchIndexStore;
  accounts: AccountsStore;
  apiKeys: ApiKeysStore;
  quotaCounters: QuotaCounters;
  rateLimits: RateLimitsStore;
  /** Per-address budgets (failed authentications, client registrations), shared by every process. */
  addressBudgets: AddressBudgets;
  unlocks: UnlocksStore;
  users: UsersStore;
  pageSessions: PageSessionsStore;
  signInAttempts: SignInAttemptsStore;
  /** The authorization server's clients, grants, codes, sessions and tokens. */
  oauthArtifacts: OAuthArtifactsStore;
  oauthSigningKeys: OAuthSigningKeysStore;
}

/** Records kept per cache of identities: ten thousand keys or accounts is a few megabytes. */
const IDENTITY_CACHE_ENTRIES = 10_000;

export function createServices(
  backends: BackendClients & {
    config: Config;
    /** Where the stores log what they do in the background. */
    logger: Logger;
    /** The clock of the identity caches, rate-limit leases and quota tallies; `performance.now` unless a test stops time. */
    cacheClock?: () => number;
  },
): Services {
  const { cacheClock, logger, config, ...clients } = backends;
  const { db } = clients.mongo;
  const freshness: Freshness = {
    maxAgeMs: config.IDENTITY_CACHE_MS,
    maxEntries: IDENTITY_CACHE_ENTRIES,
    clock: cacheClock ?? (() => performance.now()),
  };
  const metrics = new Metrics();
  observeElasticsearch(clients.elasticsearch, metrics);
  observeMongo(clients.mongo.client, metrics);
  const accounts = new AccountsStore(db, freshness);
  return {
    config,
    backends: new Backends(clients, config),
    metrics,
    searchIndex: new SearchIndexStore(clients.elasticsearch, indexNames(config.INDEX_PREFIX), {
      rollups: config.ROLLUPS === 'on',
    }),
    accounts,
    apiKeys: new ApiKeysStore(db, freshness),
    quotaCounters: new QuotaCounters(
      new QuotaCountersStore(db),
      logger,
      freshness.clock,
      new PendingRefunds(config.PENDING_REFUNDS_DIR, config.MONGODB_DB, logger),
    ),
    rateLimits: new RateLimitsStore(db, freshness.clock),
    addressBudgets: new AddressBudgets(db, freshness.clock),
    unlocks: new UnlocksStore(db, accounts),
    users: new UsersStore(db, freshness),
    pageSessions: new PageSessionsStore(db),
    signInAttempts: new SignInAttemptsStore(db),
    oauthArtifacts: new OAuthArtifactsStore(db, freshness),
    oauthSigningKeys: new OAuthSigningKeysStore(db),
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
  await services.oauthArtifacts.ensureIndexes();
}
