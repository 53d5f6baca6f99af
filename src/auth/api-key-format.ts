import { createHash } from 'node:crypto';
import { randomBase62 } from './random.js';

const API_KEY_PREFIX = 'hl_live_';
const API_KEY_RANDOM_LENGTH = 32;
const API_KEY_PATTERN = /^hl_live_[0-9A-Za-z]{32}$/;
/** Enough to tell keys apart in a list, far too little to guess the rest. */
const DISPLAY_PREFIX_LENGTH = 12;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
}

/** Checked before any database work, so random bearer strings cost nothing. */
export function looksLikeApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

/** Keys carry 190 bits of randomness, so a plain SHA-256 (no salt, no stretching) is enough to store them. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
