/**
 * Seeded randomness for the generator. `Math.random` cannot be seeded, and the seed must
 * give byte-identical documents on every machine, so everything random comes from here.
 */

/** FNV-1a over the string, finished with MurmurHash3's avalanche so close inputs diverge. */
function hash32(text: string, salt = 0): number {
  let hash = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return mix32(hash);
}

/** MurmurHash3's 32-bit finaliser: a cheap bijective scramble of an integer. */
function mix32(value: number): number {
  let x = value | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counter): 128 bits of state, fast in plain JS numbers. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream named by `key` (e.g. "42:leads"): the same key always gives the same numbers. */
  constructor(key: string) {
    this.a = hash32(key, 1);
    this.b = hash32(key, 2);
    this.c = hash32(key, 3);
    this.d = hash32(key, 4);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** `count` distinct items in random order (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const taken: T[] = [];
    while (taken.length < count && pool.length > 0) {
      const index = Math.floor(this.next() * pool.length);
      taken.push(pool[index] as T);
      pool[index] = pool[pool.length - 1] as T;
      pool.pop();
    }
    return taken;
  }
}

/** Picks items in proportion to their weights: a binary search over the cumulative weights. */
export class WeightedPicker<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    readonly items: readonly T[],
    weight: (item: T) => number,
  ) {
    if (items.length === 0) throw new Error('WeightedPicker needs at least one item');
    this.cumulative = new Float64Array(items.length);
    let running = 0;
    items.forEach((item, index) => {
      running += weight(item);
      this.cumulative[index] = running;
    });
    this.total = running;
  }

  pick(random: Random): T {
    const target = random.next() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return this.items[low] as T;
  }
}

/** A weighted choice among a few literal options, e.g. `[['Remote', 20], ['Hybrid', 50]]`. */
export function pickWeighted<T>(random: Random, options: ReadonlyArray<readonly [T, number]>): T {
  let total = 0;
  for (const [, weight] of options) total += weight;
  let target = random.next() * total;
  for (const [value, weight] of options) {
    target -= weight;
    if (target < 0) return value;
  }
  return (options[options.length - 1] as readonly [T, number])[0];
}
