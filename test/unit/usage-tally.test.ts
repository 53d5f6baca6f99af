import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Unavailable } from '../../src/errors.js';
import { STORED_FIGURE_FRESH_MS, UsageTally, WRITE_COUNTS_AFTER_MS } from '../../src/metering/usage-tally.js';
import { recordingLogger } from '../support/test-server.js';

const FIELDS = { expires_at: new Date('2026-11-26T00:00:00Z') };

/**
 * A tally over a counter store kept in a map: each write adds its amount once per write id, as
 * `addUnboundedOnce` does, and answers the new `used`; `failNext` makes the next writes throw
 * after landing or before, as a lost answer or an outage would.
 */
function tallyOverFakeStore(maxCounters = 100) {
  const used = new Map<string, number>();
  const landed = new Set<string>();
  const writes: { counterId: string; amount: number; writeId: string }[] = [];
  let failures: ('before' | 'after')[] = [];
  let now = 0;
  let nextId = 0;
  const log = recordingLogger();
  const tally = new UsageTally({
    write: async (counterId, amount, writeId) => {
      writes.push({ counterId, amount, writeId });
      const failure = failures.shift();
      if (failure === 'before') throw new Unavailable('database');
      if (!landed.has(writeId)) {
        landed.add(writeId);
        used.set(counterId, (used.get(counterId) ?? 0) + amount);
      }
      if (failure === 'after') throw new Unavailable('database');
      return used.get(counterId) ?? 0;
    },
    newWriteId: () => `w${++nextId}`,
    clock: () => now,
    maxCounters,
    logger: log.logger,
  });
  return {
    tally,
    used,
    writes,
    logged: log.entries,
    failNext: (...kinds: ('before' | 'after')[]) => {
      failures = kinds;
    },
    advanceClock: (ms: number) => {
      now += ms;
    },
  };
}

describe('UsageTally', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes a counter's first units at once, to learn its figure, then the rest in one write later", async () => {
    const store = tallyOverFakeStore();
    expect(await store.tally.count('c', 3, FIELDS)).toBe(3);
    const reported = [];
    for (let call = 0; call < 50; call++) reported.push(await store.tally.count('c', 2, FIELDS));
    expect(reported.at(-1)).toBe(103);
    expect(store.writes).toHaveLength(1);
    expect(store.used.get('c')).toBe(3);
    await vi.advanceTimersByTimeAsync(WRITE_COUNTS_AFTER_MS);
    expect(store.writes.map((write) => write.amount)).toEqual([3, 100]);
    expect(store.used.get('c')).toBe(103);
  });

  it('reports what other processes wrote once its figure is refreshed, and waits for a write when the figure is older than allowed', async () => {
    const store = tallyOverFakeStore();
    await store.tally.count('c', 1, FIELDS);
    store.used.set('c', 41); // another process wrote 40
    expect(await store.tally.count('c', 1, FIELDS)).toBe(2);
    store.advanceClock(STORED_FIGURE_FRESH_MS + 1);
    expect(await store.tally.count('c', 1, FIELDS)).toBe(43);
    expect(store.writes.map((write) => write.amount)).toEqual([1, 2]);
  });

  it('counts nothing when the write it must wait for fails', async () => {
    const store = tallyOverFakeStore();
    store.failNext('before');
    await expect(store.tally.count('c', 5, FIELDS)).rejects.toBeInstanceOf(Unavailable);
    await store.tally.writeAll();
    expect(store.used.get('c') ?? 0).toBe(0);
    expect(await store.tally.reported('c')).toBe(0);
  });

  it('sends a write whose answer was lost again under the same id, so it lands once', async () => {
    const store = tallyOverFakeStore();
    await store.tally.count('c', 1, FIELDS);
    await store.tally.count('c', 4, FIELDS);
    store.failNext('after');
    await vi.advanceTimersByTimeAsync(WRITE_COUNTS_AFTER_MS);
    expect(store.used.get('c')).toBe(5);
    await vi.advanceTimersByTimeAsync(WRITE_COUNTS_AFTER_MS);
    const [, lost, retried] = store.writes;
    expect(retried).toEqual(lost);
    expect(store.used.get('c')).toBe(5);
    expect(await store.tally.reported('c')).toBe(5);
    expect(store.writes).toHaveLength(3);
    expect(store.logged).toEqual([
      { level: 'warn', message: 'could not write counted quota units; trying again' },
    ]);
  });

  it('takes back units without waiting, and writes the difference', async () => {
    const store = tallyOverFakeStore();
    await store.tally.count('c', 10, FIELDS);
    store.tally.uncount('c', 10);
    store.tally.uncount('never-counted-here', 2);
    expect(await store.tally.reported('c')).toBe(0);
    expect(await store.tally.reported('not-counted-here')).toBeUndefined();
    await store.tally.writeAll();
    expect(store.used.get('c')).toBe(0);
    expect(store.used.get('never-counted-here')).toBe(-2);
  });

  it('keeps at most maxCounters tallies, forgetting idle ones first and refusing when all owe a write', async () => {
    const store = tallyOverFakeStore(2);
    await store.tally.count('a', 1, FIELDS);
    await store.tally.count('b', 1, FIELDS);
    store.advanceClock(STORED_FIGURE_FRESH_MS + 1);
    // Both idle and written: room is made by forgetting them.
    expect(await store.tally.count('c', 1, FIELDS)).toBe(1);
    expect(await store.tally.count('d', 1, FIELDS)).toBe(1);
    await store.tally.count('c', 1, FIELDS);
    await store.tally.count('d', 1, FIELDS);
    await expect(store.tally.count('e', 1, FIELDS)).rejects.toBeInstanceOf(Unavailable);
  });

  it('reports a figure read as one, whatever a write does meanwhile', async () => {
    const store = tallyOverFakeStore();
    await store.tally.count('c', 2, FIELDS);
    await store.tally.count('c', 3, FIELDS);
    const reading = store.tally.reported('c');
    await vi.advanceTimersByTimeAsync(WRITE_COUNTS_AFTER_MS);
    expect([await reading, await store.tally.reported('c'), store.used.get('c')]).toEqual([5, 5, 5]);
  });

  it('writeAll writes everything still owed and waits for it', async () => {
    const store = tallyOverFakeStore();
    await store.tally.count('a', 1, FIELDS);
    await store.tally.count('a', 6, FIELDS);
    await store.tally.count('b', 2, FIELDS);
    await store.tally.count('b', 3, FIELDS);
    await store.tally.writeAll();
    expect(Object.fromEntries(store.used)).toEqual({ a: 7, b: 5 });
  });

  it('writeAll says in the log what it could not write', async () => {
    const store = tallyOverFakeStore();
    await store.tally.count('a', 1, FIELDS);
    await store.tally.count('a', 6, FIELDS);
    store.failNext('before');
    await store.tally.writeAll();
    expect(store.used.get('a')).toBe(1);
    expect(store.logged).toEqual([
      { level: 'error', message: 'lost counted quota units: MongoDB did not take them before the stop' },
    ]);
  });
});
