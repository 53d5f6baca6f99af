import { hash } from 'node:crypto';

/**
 * Stable ids: a lead's and a signal's id is a function of its source and its id there, a
 * company's of its key, so ingesting the same record again lands on the same document (and the
 * accounts' unlocks of a lead stay attached to it). The format is the contract's: a type prefix
 * and 10 base62 characters. The characters are the first 64 bits of SHA-256 over the prefix,
 * source and id, reduced modulo 62^10 (2^59.5): two different records share an id with a
 * probability of about n²/2^60.5 (one in a million at a million records); ingest detects it
 * (the stored document names another source id) and refuses the second record.
 */

const ID_LENGTH = 10;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_SPACE = 62n ** BigInt(ID_LENGTH);
/** The characters in two halves of 62^5 (below 2^30) each, spelled with plain numbers: fewer BigInt steps. */
const HALF_LENGTH = ID_LENGTH / 2;
const HALF_SPACE = 62n ** BigInt(HALF_LENGTH);

/** `count` base62 characters of `value` (below 62^count), the most significant first. */
function base62(value: number, count: number): string {
  let characters = '';
  for (let i = 0; i < count; i++) {
    characters = BASE62.charAt(value % 62) + characters;
    value = Math.floor(value / 62);
  }
  return characters;
}

function opaqueId(prefix: 'ld' | 'co' | 'sg', ...parts: string[]): string {
  // NUL cannot occur in a source or an id, so ("a:b", "c") and ("a", "b:c") stay apart.
  const digest = hash('sha256', `${prefix}\u0000${parts.join('\u0000')}`, 'hex');
  const value = BigInt(`0x${digest.slice(0, 16)}`) % ID_SPACE;
  const high = base62(Number(value / HALF_SPACE), HALF_LENGTH);
  return `${prefix}_${high}${base62(Number(value % HALF_SPACE), HALF_LENGTH)}`;
}

export function leadIdFor(source: string, sourceId: string): string {
  return opaqueId('ld', source, sourceId);
}

export function signalIdFor(source: string, sourceId: string): string {
  return opaqueId('sg', source, sourceId);
}

/** Companies are named by their key alone: any source's roles can name the same company. */
export function companyIdFor(key: string): string {
  return opaqueId('co', key);
}
