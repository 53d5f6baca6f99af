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

/** What a call that succeeds does: holds its units, then commits them. */
async function countAndCommit(tally: UsageTally, counterId: string, units: number): Promise<number> {
  const used = await tally.count(counterId, units, FIELDS);
  tally.commit(counterId, units);
  return used;
}

describe('UsageTally', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads a counter's figure first, then writes what the calls counted in one write later", async () => {
    const store = tallyOverFakeStore();
    expect(await countAndCommit(store.tally, 'c', 3)).toBe(3);
    const reported = [];
    for (let call = 0; call < 50; call++) reported.push(await countAndCommit(store.tally, 'c', 2));
    expect(reported.at(-1)).toBe(103);
    expect(store.writes.map((write) => write.amount)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(WRITE_COUNTS_AFTER_MS);
    expect(store.writes.map((write) => write.amount)).toEqual([0, 103]);
    expect(store.used.get('c')).toBe(103);
  });

  it('reports what other processes wrote once its figure is refreshed, and waits for a write when the figure is older than allowed', async () => {
    const store = tallyOverFakeStore();
    await countAndCommit(store.tally, 'c', 1);
    store.used.set('c', 40); // another process wrote 40
    expect(await countAndCommit(store.tally, 'c', 1)).toBe(2);
    store.advanceClock(STORED_FIGURE_FRESH_MS + 1);
    expect(await countAndCommit(store.tally, 'c', 1)).toBe(43);
    expect(store.writes.map((write) => write.amount)).toEqual([0, 2]);
  });

  it('holds nothing when the write it must wait for fails', async () => {
    const store = tallyOverFakeStore();
    store.failNext('before');
    await expect(store.tally.count('c', 5, FIELDS)).rejects.toBeInstanceOf(Unavailable);
    await store.tally.writeAll();
    expect(store.used.get('c') ?? 0).toBe(0);
    expect(await store.tally.reported('c')).toBe(0);
  });

  it('writes the units of a call only once it succeeds; a call that fails gives them back and is never written', async () => {
    const store = tallyOverFakeStore();
    await countAndCommit(store.tally, 'c', 1);
    const succeeding = await store.tally.count('c', 10, FIELDS);
    const failing = await store.tally.count('c', 7, FIELDS);
    expect([succeeding, failing]).toEqual([11, 18]);
    // A write going out while both calls are under way carries neither.
    await vi.advanceTimersByTimeAsync(WRITE_COUNTS_AFTER_MS);
    expect(store.used.get('c')).toBe(1);
    expect(store.tally.release('c', 7)).toBe(11);
    store.tally.commit('c', 10);
    await store.tally.writeAll();
    expect(store.used.get('c')).toBe(11);
    expect(store.writes.map((write) => write.amount)).toEqual([0, 1, 10]);
  });

  it('sends a write whose answer was lost again under the same id, so it lands once', async () => {
    const store = tallyOverFakeStore();
    await countAndCommit(store.tally, 'c', 1);
    await countAndCommit(store.tally, 'c', 4);
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

  it('keeps at most maxCounters tallies, forgetting idle ones first and refusing when all hold or owe units', async () => {
    const store = tallyOverFakeStore(2);
    await countAndCommit(store.tally, 'a', 1);
    await countAndCommit(store.tally, 'b', 1);
    await store.tally.writeAll();
    store.advanceClock(STORED_FIGURE_FRESH_MS + 1);
    // Both idle and written: room is made by forgetting them.
    expect(await countAndCommit(store.tally, 'c', 1)).toBe(1);
    expect(await store.tally.count('d', 1, FIELDS)).toBe(1);
    store.advanceClock(STORED_FIGURE_FRESH_MS + 1);
    // 'c' owes a write and 'd' holds a call's unit: neither may go.
    await expect(store.tally.count('e', 1, FIELDS)).rejects.toBeInstanceOf(Unavailable);
  });

  it('reports a figure read as one, whatever a write does meanwhile', async () => {
    const store = tallyOverFakeStore();
    await countAndCommit(store.tally, 'c', 2);
    await countAndCommit(store.tally, 'c', 3);
    const reading = store.tally.reported('c');
    await vi.advanceTimersByTimeAsync(WRITE_COUNTS_AFTER_MS);
    expect([await reading, await store.tally.reported('c'), store.used.get('c')]).toEqual([5, 5, 5]);
  });

  it('writeAll writes everything still owed and waits for it', async () => {
    const store = tallyOverFakeStore();
    await countAndCommit(store.tally, 'a', 1);
    await countAndCommit(store.tally, 'a', 6);
    await countAndCommit(store.tally, 'b', 2);
    await countAndCommit(store.tally, 'b', 3);
    await store.tally.writeAll();
    expect(Object.fromEntries(store.used)).toEqual({ a: 7, b: 5 });
  });

  it('writeAll says in the log what it could not write', async () => {
    const store = tallyOverFakeStore();
    await countAndCommit(store.tally, 'a', 1);
    await countAndCommit(store.tally, 'a', 6);
    store.failNext('before');
    await store.tally.writeAll();
    expect(store.used.get('a')).toBe(0);
    expect(store.logged).toEqual([
      { level: 'error', message: 'lost counted quota units: MongoDB did not take them before the stop' },
    ]);
  });
});
