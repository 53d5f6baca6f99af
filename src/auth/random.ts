import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above this would favour the first characters of the alphabet; they are skipped. */
const UNBIASED_BYTE_LIMIT = 256 - (256 % BASE62.length);

/** Cryptographically random base62 text, without modulo bias. */
export function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      text += BASE62[byte % BASE62.length];
      if (text.length === length) break;
    }
  }
  return text;
}
