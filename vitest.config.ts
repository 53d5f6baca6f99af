import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Provisions Elasticsearch and MongoDB once per run (only when integration tests are selected).
          globalSetup: ['test/global-setup.ts'],
          // The files share two servers on a 2-core machine; one at a time keeps timings predictable.
          fileParallelism: false,
          testTimeout: 60_000,
          // Starting the local stack from cold can take minutes.
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
