import { hash32, mix32 } from './random.js';

/**
 * Opaque ids (`ld_` + 10 base62 characters) that are unique by construction: the generation
 * index goes through a keyed Feistel permutation of a 58-bit space, which is a bijection, so
 * two indices can never share an id, and the result looks random to a caller.
 */

const HALF_BITS = 29;
const HALF_SIZE = 2 ** HALF_BITS;
const HALF_MASK = HALF_SIZE - 1;
const ROUNDS = 4;
const ID_LENGTH = 10;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix = 'ld' | 'co' | 'sg';

export class OpaqueIds {
  private readonly roundKeys: number[];

  constructor(
    private readonly prefix: IdPrefix,
    seed: number,
  ) {
    this.roundKeys = Array.from({ length: ROUNDS }, (_, round) => hash32(`${seed}:${prefix}`, round));
  }

  /** The id of the `index`-th generated document (0-based, below 2^58). */
  at(index: number): string {
    let left = Math.floor(index / HALF_SIZE) & HALF_MASK;
    let right = index & HALF_MASK;
    for (const key of this.roundKeys) {
      const next = left ^ (mix32(right ^ key) & HALF_MASK);
      left = right;
      right = next;
    }
    return `${this.prefix}_${encodeBase62(left, right)}`;
  }
}

/** Base62 of `high * 2^29 + low`, padded to 10 characters; long division keeps every step exact. */
function encodeBase62(high: number, low: number): string {
  let characters = '';
  let upper = high;
  let lower = low;
  for (let i = 0; i < ID_LENGTH; i++) {
    const carried = (upper % 62) * HALF_SIZE + lower;
    upper = Math.floor(upper / 62);
    lower = Math.floor(carried / 62);
    characters = BASE62.charAt(carried % 62) + characters;
  }
  return characters;
}
