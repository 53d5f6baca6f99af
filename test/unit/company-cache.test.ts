import { describe, expect, it } from 'vitest';
import type { CompanyFacts } from '../../src/feed/derive.js';
import { CompanyCache } from '../../src/ingest/company-cache.js';

const facts = (name: string) => ({ id: `co_${name}`, name }) as unknown as CompanyFacts;

describe('CompanyCache', () => {
  it('gives back what was set, a fresh object each time, and null for a known absence', () => {
    const cache = new CompanyCache(4);
    cache.set('acme', facts('Acme – Łódź'));
    cache.set('ghost', null);
    const first = cache.get('acme');
    expect(first).toEqual(facts('Acme – Łódź'));
    expect(cache.get('acme')).not.toBe(first);
    expect(cache.get('ghost')).toBeNull();
    expect(cache.get('unseen')).toBeUndefined();
  });

  it('holds at most its capacity, replacing the oldest company not read since', () => {
    const cache = new CompanyCache(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, facts(key));
    cache.get('a');
    cache.set('d', facts('d'));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key)?.name)).toEqual(['a', 'c', 'd']);
    // Every slot has now been read, so the hand clears each once and replaces where it began.
    cache.set('e', facts('e'));
    expect(['a', 'c', 'd', 'e'].filter((key) => cache.get(key) === undefined)).toHaveLength(1);
  });

  it('replaces the facts of a company it holds without dropping another', () => {
    const cache = new CompanyCache(2);
    cache.set('a', facts('a'));
    cache.set('b', facts('b'));
    cache.set('a', facts('a2'));
    expect(cache.get('a')?.name).toBe('a2');
    expect(cache.get('b')?.name).toBe('b');
  });

  it('keeps a company that is read often through a stream of one-off companies', () => {
    const cache = new CompanyCache(100);
    cache.set('big', facts('big'));
    for (let n = 0; n < 10_000; n++) {
      expect(cache.get('big')?.name).toBe('big');
      cache.set(`one-off-${n}`, facts(`one-off-${n}`));
    }
  });
});
