import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Gives way to the files that assert time bounds (vitest.config.ts, TIMING_SENSITIVE), which run
 * beside the others: this worker's threads, and every process it starts after (servers, seeds,
 * browsers), take the CPU only when those files leave it idle. On Linux a nice value belongs to a
 * thread, so each of the worker's threads is lowered; elsewhere the process is.
 */
const LOWEST_PRIORITY = 19;

function threadIds(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number);
  } catch {
    return [0];
  }
}

for (const thread of threadIds()) {
  try {
    setPriority(thread, LOWEST_PRIORITY);
  } catch (error) {
    // A thread that ended since the listing has nothing left to lower.
    if ((error as { info?: { code?: string } }).info?.code !== 'ESRCH') throw error;
  }
}
