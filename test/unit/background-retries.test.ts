import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BackgroundRetries } from '../../src/stores/background-retries.js';
import { silentLogger } from '../support/test-server.js';

class Away extends Error {}

describe('background retries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const retries = () =>
    new BackgroundRetries({
      capacity: 10,
      firstDelayMs: 200,
      longestDelayMs: 5_000,
      isRetryable: (error) => error instanceof Away,
      what: 'test task',
    });

  /** A task that fails while `away()` holds, and counts what it finished. */
  function task(away: () => boolean, done: string[], name: string) {
    return {
      logger: silentLogger,
      fields: { name },
      run: async () => {
        if (away()) throw new Away();
        done.push(name);
      },
    };
  }

  it('back off while the backend is away, then run every task in the order queued', async () => {
    const queue = retries();
    let away = true;
    const done: string[] = [];
    queue.add(task(() => away, done, 'first'));
    queue.add(task(() => away, done, 'second'));
    await vi.advanceTimersByTimeAsync(200 + 400 + 800);
    expect(done).toEqual([]);
    away = false;
    await vi.advanceTimersByTimeAsync(1_600);
    expect(done).toEqual(['first', 'second']);
  });

  it('retryNow runs what is queued at once instead of waiting out the backoff', async () => {
    const queue = retries();
    let away = true;
    const done: string[] = [];
    queue.add(task(() => away, done, 'refund'));
    // Three failed attempts: the next is 1.6 s away.
    await vi.advanceTimersByTimeAsync(200 + 400 + 800);
    away = false;
    queue.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toEqual(['refund']);
    // Nothing queued: a call is harmless.
    queue.retryNow();
  });
});
