import { pino } from 'pino';
import { inject } from 'vitest';
import { createLogger, type Logger } from '../../src/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file every in-process test server of the run logs to; test/global-setup.ts scans it. */
    runLogFile: string;
  }
}

let runLogger: Logger | undefined;

/**
 * The logger of the run's in-process test servers: the server's own pino logger at `debug`,
 * appending to the run's log file, which the global teardown scans for credentials once every
 * test has run (docs/testing.md, "Logs"). Written synchronously, so nothing is lost when a test
 * file's worker exits.
 */
export function runLog(): Logger {
  runLogger ??= createLogger({
    level: 'debug',
    destination: pino.destination({ dest: inject('runLogFile'), sync: true, append: true }),
  });
  return runLogger;
}
