import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { deriveKey } from '../auth/derive-key.js';
import { randomBase62 } from '../auth/random.js';
import type { OAuthSigningKeysStore } from '../stores/oauth-signing-keys.js';

/** Access tokens are signed with this; every key of the set must be one for it. */
export const ACCESS_TOKEN_ALGORITHM = 'ES256';

/**
 * The authorization server's signing keys, newest first: the first signs, the others only verify
 * (docs/authentication.md, "Signing keys"). Generated keys live in one document of
 * `oauth_signing_keys`, so every process signs with the same key and accepts the same ones.
 */
export interface SigningKeys {
  keys: JWK[];
}

async function generateSigningKey(now: Date): Promise<JWK> {
  const { privateKey } = await generateKeyPair(ACCESS_TOKEN_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const day = now.toISOString().slice(0, 10);
  return { ...jwk, kid: `${day}-${randomBase62(8)}`, alg: ACCESS_TOKEN_ALGORITHM, use: 'sig' };
}

/**
 * The configured key set (`OAUTH_JWKS`, already parsed), else the stored one, else a new one stored
 * for every later start and every other process.
 */
export async function loadSigningKeys(options: {
  configured: JWK[] | undefined;
  store: OAuthSigningKeysStore;
  now: Date;
}): Promise<SigningKeys> {
  if (options.configured !== undefined) return { keys: options.configured };
  const stored = await options.store.keys();
  if (stored !== null) return { keys: stored };
  return { keys: await options.store.storeFirst([await generateSigningKey(options.now)], options.now) };
}

/**
 * Rotation of the stored keys: a new key signs from the next start of each process on; the keys
 * before it keep verifying. Keys beyond `keep` (the newest first) are dropped: run the rotation
 * again only once the tokens of the key about to go have expired (an hour at most).
 */
export async function rotateStoredSigningKey(options: {
  store: OAuthSigningKeysStore;
  now: Date;
  keep?: number;
}): Promise<JWK[]> {
  return options.store.putFirst(await generateSigningKey(options.now), options.keep ?? 2, options.now);
}

/** The public half of each key, as published at the JWKS endpoint. */
export function publicKeys(keys: readonly JWK[]): JWK[] {
  return keys.map(({ d: _private, ...publicPart }) => publicPart);
}

/**
 * Keys for the authorization server's cookies, derived from SERVER_SECRET for that purpose only:
 * knowing them reveals nothing about the keys of cursors or anything else signed with the secret.
 */
export function cookieSigningKeys(serverSecret: string): string[] {
  return [deriveKey(serverSecret, 'oauth/cookies-v1').toString('base64url')];
}
