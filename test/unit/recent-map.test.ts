import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../src/stores/recent-map.js';

describe('RecentMap', () => {
  it('holds at most its capacity, dropping the entry set longest ago and saying which', () => {
    const map = new RecentMap<string, number>(2);
    expect(map.set('a', 1)).toBeUndefined();
    expect(map.set('b', 2)).toBeUndefined();
    expect(map.set('c', 3)).toEqual(['a', 1]);
    expect(map.size).toBe(2);
    expect(map.get('a')).toBeUndefined();
    expect([...map]).toEqual([
      ['b', 2],
      ['c', 3],
    ]);
  });

  it('counts setting a key again as its newest setting', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.set('a', 10)).toBeUndefined();
    expect(map.set('c', 3)).toEqual(['b', 2]);
    expect([...map.values()]).toEqual([10, 3]);
  });

  it('holds nothing at capacity 0', () => {
    const map = new RecentMap<string, number>(0);
    expect(map.set('a', 1)).toEqual(['a', 1]);
    expect(map.size).toBe(0);
  });
});
