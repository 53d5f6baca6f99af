import { isScope, type Scope } from '../auth/scopes.js';
import type { OAuthArtifactsStore } from '../stores/oauth-artifacts.js';

/**
 * Connected apps: the grants a person gave OAuth clients, for the account pages (src/pages/) to list
 * and revoke, and the resource server's check that a token's grant still stands. The grants are
 * the authorization server's artifacts (`OAuthArtifactsStore`).
 */
export interface ConnectedApp {
  grantId: string;
  clientId: string;
  /** The name the client registered, else its metadata document's host; undefined when neither is known. */
  clientName: string | undefined;
  scopes: Scope[];
  /** When the person first approved this client. */
  grantedAt: Date;
  /** When a token of this grant was last accepted by `/mcp` (to the minute); undefined if never. */
  lastUsedAt: Date | undefined;
  /** After this the person must sign in and approve again. */
  expiresAt: Date | undefined;
}

/** Last use is written at most this often per grant, off the request path. */
const GRANT_LAST_USED_RESOLUTION_MS = 60_000;

/** The live grants of `userId` (the `sub` of their tokens), newest first. */
export async function listGrants(
  store: OAuthArtifactsStore,
  userId: string,
  now: Date = new Date(),
): Promise<ConnectedApp[]> {
  const grants = await store.liveGrantsOf(userId, now);
  const clientIds = [...new Set(grants.map((grant) => grant.client_id).filter((id) => id !== undefined))];
  const clients = await store.clients(clientIds);
  const names = new Map(clients.map((client) => [client._id, client.payload.client_name]));
  return grants
    .map((grant): ConnectedApp => {
      const clientId = grant.client_id ?? '';
      const registeredName = names.get(clientId);
      return {
        grantId: grant._id,
        clientId,
        clientName: typeof registeredName === 'string' ? registeredName : URL.parse(clientId)?.host,
        scopes: grantedScopes(grant.payload.resources),
        grantedAt: new Date((grant.payload.iat ?? 0) * 1000),
        lastUsedAt: grant.last_used_at,
        expiresAt: grant.expires_at,
      };
    })
    .sort((a, b) => b.grantedAt.getTime() - a.grantedAt.getTime());
}

/**
 * Revokes one of `userId`'s grants and everything issued under it: its refresh tokens and codes go,
 * and `/mcp` refuses its access tokens from the next request on (it checks the grant every time).
 * False when the grant does not exist or is someone else's.
 */
export function revokeGrant(
  store: OAuthArtifactsStore,
  input: { grantId: string; userId: string },
): Promise<boolean> {
  return store.deleteGrant(input.grantId, input.userId);
}

/**
 * Whether the grant an access token names is still there, for the person the token names. Checked
 * for every `/mcp` request with a token, on a copy at most IDENTITY_CACHE_MS old, so a revoked
 * grant stops its tokens within that time on every process. Records the use (at most once a minute
 * per grant) without making the request wait for it.
 */
export async function isGrantLive(
  store: OAuthArtifactsStore,
  input: {
    grantId: string;
    userId: string;
    now: Date;
    onTouchFailure: (error: unknown) => void;
  },
): Promise<boolean> {
  const grant = await store.recentGrant(input.grantId);
  if (grant === null || grant.account_id !== input.userId) return false;
  if (grant.expires_at !== undefined && grant.expires_at <= input.now) return false;
  const lastUsed = grant.last_used_at?.getTime() ?? 0;
  if (input.now.getTime() - lastUsed >= GRANT_LAST_USED_RESOLUTION_MS) {
    store.touchGrant(grant, input.now).catch(input.onTouchFailure);
  }
  return true;
}

/** Scopes across the grant's resources (there is one: `{BASE_URL}/mcp`). */
function grantedScopes(resources: unknown): Scope[] {
  if (typeof resources !== 'object' || resources === null) return [];
  const scopes = Object.values(resources as Record<string, unknown>).flatMap((value) =>
    typeof value === 'string' ? value.split(' ') : [],
  );
  return [...new Set(scopes)].filter(isScope);
}
