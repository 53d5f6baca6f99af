import { describe, expect, it } from 'vitest';
import { FreshCache } from '../../src/stores/fresh-cache.js';
import { leaseSize } from '../../src/stores/rate-limits.js';

function cacheWithClock(maxAgeMs = 1000, maxEntries = 100) {
  let now = 0;
  const reads: string[] = [];
  const cache = new FreshCache<string>({ maxAgeMs, maxEntries, clock: () => now });
  const read = (key: string, value: string | null = `${key}@${now}`) => {
    reads.push(key);
    return Promise.resolve(value);
  };
  return {
    cache,
    reads,
    get: (key: string, value?: string | null) => cache.get(key, () => read(key, value)),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('FreshCache', () => {
  it('serves a copy younger than maxAgeMs without reading, and reads again once it is that old', async () => {
    const subject = cacheWithClock(1000);
    expect(await subject.get('key')).toBe('key@0');
    subject.advance(999);
    expect(await subject.get('key')).toBe('key@0');
    subject.advance(1);
    expect(await subject.get('key')).toBe('key@1000');
    expect(subject.reads).toEqual(['key', 'key']);
  });

  it('with maxAgeMs 0 reads every time', async () => {
    const subject = cacheWithClock(0);
    await subject.get('key');
    await subject.get('key');
    expect(subject.reads).toEqual(['key', 'key']);
  });

  it('keeps no copy of a record that was not found', async () => {
    const subject = cacheWithClock();
    expect(await subject.get('gone', null)).toBeNull();
    expect(await subject.get('gone', null)).toBeNull();
    expect(subject.reads).toEqual(['gone', 'gone']);
  });

  it('shares one read among concurrent misses', async () => {
    const subject = cacheWithClock();
    const answers = await Promise.all([subject.get('key'), subject.get('key'), subject.get('key')]);
    expect(answers).toEqual(['key@0', 'key@0', 'key@0']);
    expect(subject.reads).toEqual(['key']);
  });

  it('drops the copy read longest ago past maxEntries', async () => {
    const subject = cacheWithClock(1000, 2);
    await subject.get('a');
    await subject.get('b');
    await subject.get('c');
    await subject.get('b');
    await subject.get('a');
    expect(subject.reads).toEqual(['a', 'b', 'c', 'a']);
  });

  it('forgets a copy at once, and does not keep a read that was under way when it was forgotten', async () => {
    const subject = cacheWithClock();
    await subject.get('key');
    subject.cache.forget('key');
    let finishRead: (value: string) => void = () => undefined;
    const reading = subject.cache.get('key', () => new Promise((resolve) => (finishRead = resolve)));
    subject.cache.forgetWhere((_key, value) => value.startsWith('key'));
    finishRead('stale');
    expect(await reading).toBe('stale');
    expect(await subject.get('key')).toBe('key@0');
    expect(subject.reads).toEqual(['key', 'key']);
  });
});

describe('leaseSize', () => {
  it('is a twentieth of the limit, at least 1 and at most 100', () => {
    expect([1, 19, 20, 60, 400, 2000, 1_000_000].map(leaseSize)).toEqual([1, 1, 1, 3, 20, 100, 100]);
  });
});
