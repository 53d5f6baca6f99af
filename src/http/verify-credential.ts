import { type AccessTokenCheck, looksLikeJwt } from '../auth/access-token.js';
import { looksLikeApiKey } from '../auth/api-key-format.js';
import type { Credential } from '../auth/credential.js';
import type { Logger } from '../logger.js';
import type { ApiKeysStore } from '../stores/api-keys.js';
import type { UsersStore } from '../stores/users.js';

type Verification =
  | { ok: true; credential: Credential; accountId: string }
  | { ok: false; description: string };

export interface CredentialVerifierDeps {
  apiKeys: ApiKeysStore;
  users: UsersStore;
  /** The authorization server's check of a token: its signature, claims and grant (src/oauth/provider.ts). */
  verifyAccessToken: (token: string) => Promise<AccessTokenCheck>;
  logger: Logger;
  now: () => Date;
}

export type CredentialVerifier = (bearerToken: string) => Promise<Verification>;

/**
 * Accepts an API key (looked up by hash) or an access token (a JWT whose user is looked up).
 * Database outages propagate as `Unavailable`, so the caller can answer 503 rather than 401.
 */
export function createCredentialVerifier(deps: CredentialVerifierDeps): CredentialVerifier {
  return async (token) => {
    if (looksLikeApiKey(token)) return verifyApiKey(deps, token);
    if (looksLikeJwt(token)) return verifyToken(deps, token);
    return { ok: false, description: 'The bearer token is neither an API key nor an access token.' };
  };
}

/**
 * The signature proves who the token was issued to; the grant and the user record say whether they
 * may still use it. Both are checked on every request against copies at most IDENTITY_CACHE_MS old,
 * so a revoked grant or a suspended or deleted user is refused within that time by every process.
 */
async function verifyToken(deps: CredentialVerifierDeps, token: string): Promise<Verification> {
  const check = await deps.verifyAccessToken(token);
  if (!check.valid) return { ok: false, description: check.reason };
  const { userId, accountId, scopes } = check.claims;
  const user = await deps.users.findByIdRecent(userId);
  if (user === null) return { ok: false, description: 'The user of this access token does not exist.' };
  if (user.status !== 'active')
    return { ok: false, description: 'The user of this access token is suspended.' };
  if (user.account_id !== accountId) {
    return { ok: false, description: 'The user of this access token does not belong to its account.' };
  }
  return { ok: true, accountId, credential: { type: 'oauth', id: userId, scopes } };
}

async function verifyApiKey(deps: CredentialVerifierDeps, key: string): Promise<Verification> {
  const record = await deps.apiKeys.findByKeyRecent(key);
  if (record === null) return { ok: false, description: 'The API key is not known.' };
  if (record.revoked_at !== null) return { ok: false, description: 'The API key has been revoked.' };
  const now = deps.now();
  if (deps.apiKeys.isLastUsedStale(record, now)) {
    // Off the hot path: the call does not wait for this bookkeeping, nor fail with it. The cached
    // copy learns it too, or every call until the next read would write again.
    record.last_used_at = now;
    deps.apiKeys.touchLastUsed(record._id, now).catch((error: unknown) => {
      deps.logger.warn('could not record API key use', { key_id: record._id, error });
    });
  }
  return {
    ok: true,
    accountId: record.account_id,
    credential: { type: 'api_key', id: record._id, scopes: record.scopes },
  };
}
