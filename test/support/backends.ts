import { inject } from 'vitest';
import { type Config, parseConfig } from '../../src/config.js';
import { compiledScript } from './compiled-sources.js';

/** The servers of this test run and the names that keep its data apart from everything else. */
export interface TestBackends {
  elasticsearchUrl: string;
  mongodbUri: string;
  /** `test-<random>`: every index and template of the run starts with it; removed at teardown. */
  indexPrefix: string;
  /** `test_<random>`: dropped at teardown. */
  mongoDb: string;
  /** One random SERVER_SECRET per run, so every server of the run (in-process or spawned) accepts the others' tokens and cursors. */
  serverSecret: string;
  /** The run's PENDING_REFUNDS_DIR: a temporary folder, removed at teardown. */
  pendingRefundsDir: string;
  /** The run's sources compiled to JavaScript, which spawned processes run (test/support/compiled-sources.ts); removed at teardown. */
  compiledSources: string;
  /** Where the global setup writes how the seed ended, which integration files wait for (test/support/await-seed.ts). */
  seedOutcomeFile: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testBackends: TestBackends;
  }
}

/** Available in integration tests (the project whose global setup provides them). */
export function testBackends(): TestBackends {
  return inject('testBackends');
}

/**
 * How long a test server's call may wait for its backends: far above what any call takes, so that
 * no test asserts a time budget by accident on a loaded two-core machine shared with other runs.
 * Tests of outages and deadlines set a short one of their own.
 */
const TEST_BACKEND_TIMEOUT_MS = '10000';

/**
 * Failed authentications a minute per address for the run's servers. Every test client comes from
 * 127.0.0.1 and the budget is shared through MongoDB by every server with the same limit, so with
 * the default (120) files that send unauthenticated calls at once refused each other's with 429.
 * The files that test the limit set their own, in minute windows of their own.
 */
const TEST_UNAUTHENTICATED_CALLS_PER_MINUTE = '1000000';

/** The environment a server or seed process of this run needs, e.g. for `spawn(..., { env })`. */
export function testEnv(): Record<string, string> {
  const backends = testBackends();
  return {
    BACKEND_TIMEOUT_MS: TEST_BACKEND_TIMEOUT_MS,
    UNAUTHENTICATED_CALLS_PER_MINUTE: TEST_UNAUTHENTICATED_CALLS_PER_MINUTE,
    ELASTICSEARCH_URL: backends.elasticsearchUrl,
    MONGODB_URI: backends.mongodbUri,
    MONGODB_DB: backends.mongoDb,
    INDEX_PREFIX: backends.indexPrefix,
    SERVER_SECRET: backends.serverSecret,
    PENDING_REFUNDS_DIR: backends.pendingRefundsDir,
  };
}

/** How a test starts the server as its own process: node on the run's compiled `src/main.ts`. */
export function compiledServerCommand(): { nodeArguments: string[]; cwd: string } {
  return {
    nodeArguments: [compiledScript(testBackends().compiledSources, 'src/main.ts')],
    cwd: process.cwd(),
  };
}

/** Server settings pointing at this run's backends; `overrides` win. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig({ LOG_LEVEL: 'silent', ...testEnv(), ...overrides });
}
