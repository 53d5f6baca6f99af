// Mutation testing of the pure core with StrykerJS (docs/testing.md explains how to run it and
// records the scores). Only the unit tests run against the mutants: the modules below need no
// backend, and the integration tests would take hours per run.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // The unit tests only, run by test/mutation/vitest.config.ts. Stryker's `testFiles` option is not
  // used: with it, 9.6.1 activates mutants of module-level constants after the module has loaded,
  // so they all survive.
  vitest: { configFile: 'test/mutation/vitest.config.ts', related: true },
  // The pure core: arithmetic, codecs, checks and query builders, all without I/O. Not
  // src/billing/credits.ts: it only calls the accounts store, which the integration tests exercise.
  mutate: [
    'src/domain/calendar.ts',
    'src/metering/quota-state.ts',
    'src/search/cursor.ts',
    'src/search/paging.ts',
    'src/reference/salary.ts',
    'src/auth/scopes.ts',
    'src/plans.ts',
    'src/search/lead-query.ts',
    'src/search/company-query.ts',
    'src/search/signal-query.ts',
    'src/search/insights-query.ts',
    'src/search/company-profile-query.ts',
  ],
  // The sandbox copy needs the code and the unit tests, not the running stack's data.
  ignorePatterns: ['/.stack', '/test/integration', '/dist', '/coverage', '/bench'],
  // Two cores shared with the rest of the machine.
  concurrency: 2,
  // A mutant of a module-level constant reloads the test environment, which on a busy machine takes
  // longer than the default 5 s allowance; too short a timeout counts such mutants as detected.
  timeoutMS: 20_000,
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  tempDirName: 'reports/mutation/.stryker-tmp',
  thresholds: { high: 90, low: 85, break: 85 },
};
