import { describe, expect, it } from 'vitest';
import { allDone, chunks, twoAtATime } from '../../src/ingest/two-at-a-time.js';

/** A promise the test settles when it chooses. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Lets every callback already queued run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('twoAtATime', () => {
  it('works on every item once, never more than two at a time', async () => {
    const pending = new Map<number, ReturnType<typeof deferred>>();
    let running = 0;
    let mostAtOnce = 0;
    const finished: number[] = [];
    const done = twoAtATime([1, 2, 3, 4, 5], async (item) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      const gate = deferred();
      pending.set(item, gate);
      await gate.promise;
      running--;
      finished.push(item);
    });
    for (const item of [2, 1, 3, 5, 4]) {
      await settle();
      pending.get(item)?.resolve();
    }
    await done;
    expect(finished.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(mostAtOnce).toBe(2);
  });

  it('starts nothing after a failure, and throws it once the item still running has finished', async () => {
    const pending = new Map<number, ReturnType<typeof deferred>>();
    const started: number[] = [];
    let otherFinished = false;
    const done = twoAtATime([1, 2, 3, 4], async (item) => {
      started.push(item);
      const gate = deferred();
      pending.set(item, gate);
      await gate.promise;
      if (item === 2) otherFinished = true;
    });
    let thrown: unknown;
    const outcome = done.catch((error: unknown) => {
      thrown = error;
    });
    await settle();
    pending.get(1)?.reject(new Error('item 1 failed'));
    await settle();
    expect(thrown).toBeUndefined();
    pending.get(2)?.resolve();
    await outcome;
    expect(otherFinished).toBe(true);
    expect(started).toEqual([1, 2]);
    expect(thrown).toEqual(new Error('item 1 failed'));
  });
});

describe('allDone', () => {
  it('waits for every promise, then throws the first failure', async () => {
    const slow = deferred();
    let slowFinished = false;
    const done = allDone([
      Promise.reject(new Error('first')),
      slow.promise.then(() => {
        slowFinished = true;
      }),
      Promise.reject(new Error('second')),
    ]);
    slow.resolve();
    await expect(done).rejects.toThrow('first');
    expect(slowFinished).toBe(true);
  });
});

describe('chunks', () => {
  it('cuts at the size, the last one shorter', () => {
    expect([...chunks([1, 2, 3, 4, 5], 2)]).toEqual([[1, 2], [3, 4], [5]]);
    expect([...chunks([], 2)]).toEqual([]);
  });

  it('also cuts before the weight would pass the budget; an item heavier than it goes alone', () => {
    const weights = [3, 3, 5, 9, 1, 1];
    expect([...chunks(weights, 4, (weight) => weight, 6)]).toEqual([[3, 3], [5], [9], [1, 1]]);
    expect([...chunks([1, 1, 1, 1, 1], 2, (weight) => weight, 10)]).toEqual([[1, 1], [1, 1], [1]]);
  });

  it('takes items only as its chunks are asked for', () => {
    let taken = 0;
    function* counted() {
      for (let item = 0; item < 100; item++) {
        taken++;
        yield item;
      }
    }
    const made = chunks(counted(), 10);
    made.next();
    expect(taken).toBe(10);
  });
});
