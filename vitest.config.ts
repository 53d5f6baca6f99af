import { defineConfig } from 'vitest/config';

/**
 * Files that assert time bounds: the chaos test the server's answer bound under load it makes
 * itself, the outage tests their 1 s backend deadlines against proxies they restore (an undo still
 * waiting for its server when the proxy comes back lands, where the test needs it to have failed).
 * They run first, beside the others, whose workers and every process those start run at the lowest
 * CPU priority (test/support/background-priority.ts): the bounds see a machine as free as when
 * these files ran alone after the rest, which left more than half of it idle for about 20 s.
 */
const TIMING_SENSITIVE = ['test/integration/chaos.test.ts', 'test/integration/outage.test.ts'];

/**
 * Files at a time, the timing-sensitive ones included: most of an integration file's time is spent
 * waiting on the backends, the servers it started and browsers, so three keep the machine's two
 * cores busy; four or five only added contention (docs/testing.md, "Time"). Projects of one group
 * share this figure, so the timing-sensitive files' slots serve the others once they are done.
 */
const FILES_AT_A_TIME = 3;

/**
 * The workers' young generation at 32 MB a semi-space instead of V8's default: the tests allocate
 * fast (servers, clients and JSON in one process), and scavenges of a small young generation took
 * a share of their CPU.
 */
const WORKER_ARGUMENTS = ['--max-semi-space-size=32'];

const BACKGROUND_PRIORITY = 'test/support/background-priority.ts';
/** Waits for the run's seed, which the global setup starts without waiting for it. */
const AWAIT_SEED = 'test/support/await-seed.ts';

/** What both integration projects share; they share one provisioning too (test/global-setup.ts). */
const integration = {
  include: ['test/integration/**/*.test.ts'],
  // Provisions Elasticsearch and MongoDB once per run (only when integration tests are selected).
  globalSetup: ['test/global-setup.ts'],
  setupFiles: [AWAIT_SEED],
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
          setupFiles: [BACKGROUND_PRIORITY],
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
          exclude: TIMING_SENSITIVE,
          setupFiles: [BACKGROUND_PRIORITY, AWAIT_SEED],
          maxWorkers: FILES_AT_A_TIME,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...integration,
          // Named to sort first: vitest queues a group's files project by project, by name.
          name: 'deadlines',
          include: TIMING_SENSITIVE,
          maxWorkers: FILES_AT_A_TIME,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
