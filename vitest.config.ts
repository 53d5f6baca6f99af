import { defineConfig } from 'vitest/config';

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
          // Isolated (each file loads the server's modules again): a process's MongoDB deadline is
          // the longest BACKEND_TIMEOUT_MS it has seen (src/stores/mongo.ts), so a file of short
          // timeouts needs a module graph of its own.
          testTimeout: 60_000,
          // Starting the local stack from cold can take minutes.
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
