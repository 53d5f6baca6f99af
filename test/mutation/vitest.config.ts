import { defineConfig } from 'vitest/config';
import { FailedLoadReporter } from './failed-load-reporter.js';

/**
 * The unit tests as StrykerJS runs them against each mutant (stryker.config.mjs): the `unit`
 * project of vitest.config.ts, never the integration tests, and a file that fails to load counts
 * as a failed test (see FailedLoadReporter).
 */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    reporters: [new FailedLoadReporter()],
  },
});
