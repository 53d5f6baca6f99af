import type { AddressInfo } from 'node:net';
import { SCOPES, type Scope } from '../../src/auth/scopes.js';
import type { Config } from '../../src/config.js';
import { createApp } from '../../src/http/app.js';
import { startHttpServer } from '../../src/http/http-server.js';
import { startMetricsListener } from '../../src/http/metrics-listener.js';
import type { Logger } from '../../src/logger.js';
import type { ResolveHost } from '../../src/oauth/metadata-documents.js';
import { createOAuthProvider, type OAuthServer } from '../../src/oauth/provider.js';
import type { PlanName, SubscriptionStatus } from '../../src/plans.js';
import { createServices, ensureIndexes, type Services } from '../../src/services.js';
import type { Account } from '../../src/stores/accounts.js';
import { type BackendClients, connectBackends } from '../../src/stores/backends.js';
import type { AnyToolDefinition } from '../../src/tools/define-tool.js';
import { testConfig } from './backends.js';
import { runLog } from './run-log.js';

/**
 * A wall clock stopped at the time it is made: a test of a per-minute budget spends it all in one
 * minute, however long it takes.
 */
export function stoppedClock(): () => Date {
  const at = new Date();
  return () => at;
}

/**
 * A monotonic clock that moves only when told: a test lets a server's cached identities age past
 * IDENTITY_CACHE_MS without waiting for it.
 */
export function manualCacheClock(): { now: () => number; advance: (ms: number) => void } {
  let now = 0;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

/**
 * The public address the test servers claim; clients reach them on 127.0.0.1 all the same, a
 * `Host` the test servers allow (`ALLOWED_HOSTS`) besides the base URL's.
 */
export const TEST_BASE_URL = 'http://hiring-leads.test';

/** A server's services, with the backends' clients beside them for tests that look behind the stores. */
export type TestServices = Services & BackendClients;

export interface TestServer {
  /** The `/mcp` endpoint on 127.0.0.1. */
  url: string;
  /** The server root on 127.0.0.1, for `/healthz` and the like. */
  root: string;
  services: TestServices;
  config: Config;
  /** The authorization server, for tests that issue tokens through its own models. */
  oauth: OAuthServer;
  /** With `metrics: true`: where its metrics listener serves `GET /metrics`, and the address it bound. */
  metrics?: { url: string; boundAddress: string };
  close(): Promise<void>;
}

/** A real HTTP server on a free port, with its own MongoDB client, over this run's backends. */
export async function startTestServer(options: {
  tools: readonly AnyToolDefinition[];
  config?: Record<string, string>;
  clock?: () => Date;
  /** The identity caches' and rate-limit leases' monotonic clock (see `manualCacheClock`). */
  cacheClock?: () => number;
  /** Where the server logs; the run's log file by default (`runLog`). */
  logger?: Logger;
  /** Serves its metrics as METRICS_PORT makes a server do, on a free port of METRICS_HOST. */
  metrics?: boolean;
  /** The port to listen on; a free one by default. */
  port?: number;
  /** How the authorization server fetches client metadata documents (with NODE_ENV=development). */
  fetch?: typeof globalThis.fetch;
  /** How it resolves a metadata document's host name otherwise. */
  resolveHost?: ResolveHost;
}): Promise<TestServer> {
  const config = testConfig({
    BASE_URL: TEST_BASE_URL,
    ALLOWED_HOSTS: '127.0.0.1',
    ...(options.metrics && { METRICS_PORT: '0' }),
    ...options.config,
  });
  const logger = options.logger ?? runLog();
  const clients = await connectBackends(config, logger);
  const services: TestServices = {
    ...createServices({
      config,
      ...clients,
      logger,
      ...(options.cacheClock && { cacheClock: options.cacheClock }),
    }),
    ...clients,
  };
  await ensureIndexes(services).catch(() => undefined);
  const oauth = await createOAuthProvider({
    services,
    config,
    logger,
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.resolveHost && { resolveHost: options.resolveHost }),
    ...(options.clock && { clock: options.clock }),
  });
  const app = createApp({
    services,
    tools: options.tools,
    oauth,
    logger,
    ...(options.clock && { clock: options.clock }),
  });
  const server = await startHttpServer(app, { ...config, PORT: options.port ?? 0, HOST: '127.0.0.1' });
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const metricsListener =
    config.METRICS_PORT === undefined
      ? undefined
      : await startMetricsListener(services.metrics, config, config.METRICS_PORT);
  const metricsAddress = metricsListener?.address() as AddressInfo | undefined;
  const listeners = metricsListener === undefined ? [server] : [server, metricsListener];
  return {
    url: `${root}/mcp`,
    root,
    services,
    config,
    oauth,
    ...(metricsAddress && {
      metrics: {
        url: `http://${config.METRICS_HOST}:${metricsAddress.port}/metrics`,
        boundAddress: metricsAddress.address,
      },
    }),
    close: async () => {
      for (const listener of listeners) listener.closeAllConnections();
      await Promise.all(
        listeners.map((listener) => new Promise<void>((resolve) => listener.close(() => resolve()))),
      );
      await services.quotaCounters.writeCounts();
      await services.backends.close();
    },
  };
}

/**
 * A logger that drops everything, for code under test outside any server. Test servers never use
 * the root logger: it reads its level from the test process's own environment.
 */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

/** A logger keeping what it is told in `entries`, for tests of what gets logged at which level. */
export function recordingLogger(): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const logger: Logger = {
    debug: (message) => entries.push({ level: 'debug', message }),
    info: (message) => entries.push({ level: 'info', message }),
    warn: (message) => entries.push({ level: 'warn', message }),
    error: (message) => entries.push({ level: 'error', message }),
    child: () => logger,
  };
  return { logger, entries };
}

let accountCounter = 0;

/** A fresh account with one API key; each test gets its own, so counters never collide. */
export async function createAccountWithKey(
  services: Services,
  options: {
    plan?: PlanName;
    status?: SubscriptionStatus;
    scopes?: Scope[];
    callsPerMinute?: number;
    /** When the account is created: its credits renew monthly from then. The real time by default. */
    createdAt?: Date;
  } = {},
): Promise<{ account: Account; key: string; keyId: string }> {
  const now = options.createdAt ?? new Date();
  accountCounter++;
  let account = await services.accounts.create({
    email: `user${accountCounter}-${Date.now()}@example.test`,
    plan: options.plan ?? 'growth',
    subscription_status: options.status ?? 'active',
    now,
  });
  if (options.callsPerMinute !== undefined) {
    account =
      (await services.accounts.update(
        account._id,
        { calls_per_minute_override: options.callsPerMinute },
        now,
      )) ?? account;
  }
  const { key, record } = await services.apiKeys.create(account._id, options.scopes ?? [...SCOPES], now);
  return { account, key, keyId: record._id };
}
