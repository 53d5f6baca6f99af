import type { RunnerTestCase } from 'vitest';
import { experimental_getRunnerTask, type Reporter, type TestModule } from 'vitest/node';

/**
 * Makes a test file that fails to load, or throws in a `describe` body, count as a failed test.
 *
 * StrykerJS 9.6.1's vitest runner judges a mutant by the test cases it finds in vitest's state, and
 * such a file has none that ran: a mutant that breaks it (a module constant that throws on import,
 * a cursor encoder called while the tests are being collected) would be scored as survived although
 * the suite fails. This reporter adds one failed test to each such file, carrying the file's errors.
 */
export class FailedLoadReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    for (const testModule of testModules) {
      const errors = testModule.errors();
      if (errors.length === 0) continue;
      const file = experimental_getRunnerTask(testModule);
      const name = 'the test file loads';
      // Vitest builds a test's `context` while running it; a test that never ran has none.
      const loadFailure: Omit<RunnerTestCase, 'context'> = {
        type: 'test',
        id: `${file.id}_load`,
        name,
        fullName: `${file.name} > ${name}`,
        fullTestName: name,
        mode: 'run',
        meta: {},
        file,
        suite: file,
        timeout: 0,
        annotations: [],
        artifacts: [],
        result: { state: 'fail', errors },
      };
      file.tasks.push(loadFailure as RunnerTestCase);
    }
  }
}
