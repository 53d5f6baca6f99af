import { hkdfSync } from 'node:crypto';

/**
 * A key for one purpose only, derived from SERVER_SECRET with HKDF-SHA256: knowing one derived
 * key (say, from a leaked cookie-signing setup) tells nothing about the secret or any other key.
 * `purpose` names the use and its version, e.g. `pages/csrf-v1`; changing it retires every value
 * made with the old key.
 */
export function deriveKey(serverSecret: string, purpose: string, bytes = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'hiring-leads', purpose, bytes));
}
