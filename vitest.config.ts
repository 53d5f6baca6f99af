import { defineConfig } from 'vitest/config';

/**
 * Files that run after the rest, side by side: the chaos test asserts the server's answer bound
 * under load it makes itself, and the outage tests race their 1 s backend deadlines against
 * proxies they restore (an undo still waiting for its server when the proxy comes back lands,
 * where the test needs it to have failed). Beside the other files, which keep both cores busy,
 * either can miss its timing; beside each other they leave more than half the machine idle.
 */
const RUN_ALONE = ['test/integration/chaos.test.ts', 'test/integration/outage.test.ts'];

/**
 * Files at a time in the first group (the unit tests and the integration files but RUN_ALONE):
 * most of an integration file's time is spent waiting on the backends, the servers it started and
 * browsers, so three keep the machine's two cores busy. Projects of one group share this figure.
 */
const FILES_AT_A_TIME = 3;

/**
 * The workers' young generation at 32 MB a semi-space instead of V8's default: the tests allocate
 * fast (servers, clients and JSON in one process), and scavenges of a small young generation took
 * a share of their CPU.
 */
const WORKER_ARGUMENTS = ['--max-semi-space-size=32'];

/** What both integration projects share; they share one provisioning too (test/global-setup.ts). */
const integration = {
  include: ['test/integration/**/*.test.ts'],
  // Provisions Elasticsearch and MongoDB once per run (only when integration tests are selected).
  globalSetup: ['test/global-setup.ts'],
  // The files share one module graph per worker, as the unit tests do: loading the server's
  // modules (the SDK, oidc-provider) again for every file cost more than the tests themselves.
  // Nothing of the server is process-wide: each test server has its own stores, metrics registry
  // and MongoDB deadline (src/stores/mongo.ts).
  isolate: false,
  execArgv: WORKER_ARGUMENTS,
  testTimeout: 60_000,
  // Starting the local stack from cold can take minutes.
  hookTimeout: 300_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Pure tests that leave no state behind: the files share one module graph per worker,
          // so the gazetteer and vocabulary load once per worker, not once per file.
          isolate: false,
          maxWorkers: FILES_AT_A_TIME,
          execArgv: WORKER_ARGUMENTS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          exclude: RUN_ALONE,
          maxWorkers: FILES_AT_A_TIME,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...integration,
          name: 'integration-alone',
          include: RUN_ALONE,
          maxWorkers: RUN_ALONE.length,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
