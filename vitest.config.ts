import { defineConfig } from 'vitest/config';

/**
 * Files that run by themselves, after the others: the chaos test asserts the server's answer bound
 * under load it makes itself, which it should not share with another file.
 */
const RUN_ALONE = ['test/integration/chaos.test.ts'];

/**
 * Files at a time in the first group (the unit tests and the integration files but RUN_ALONE):
 * most of an integration file's time is spent waiting on the backends, the servers it started and
 * browsers, so three keep the machine's two cores busy. Projects of one group share this figure.
 */
const FILES_AT_A_TIME = 3;

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
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
