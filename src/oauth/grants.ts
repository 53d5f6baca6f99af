import type { Db } from 'mongodb';
import { isScope, type Scope } from '../auth/scopes.js';
import type { Freshness } from '../stores/fresh-cache.js';
import { databaseBackend } from '../stores/mongo.js';
import { artifactCollection, forgetGrant, recentGrants, revokeArtifactsOfGrant } from './mongo-adapter.js';

/**
 * Connected apps: the grants a person gave OAuth clients, for the account pages (src/pages/) to list
 * and revoke. Written by the authorization server's side (src/oauth/), which owns the grant
 * storage; the pages call only these two functions and never touch the collections themselves.
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
export async function listGrants(db: Db, userId: string, now: Date = new Date()): Promise<ConnectedApp[]> {
  const grants = await databaseBackend(() =>
    artifactCollection(db, 'Grant')
      .find({ account_id: userId, expires_at: { $gt: now } })
      .sort({ _id: 1 })
      .limit(200)
      .toArray(),
  );
  const clientIds = [...new Set(grants.map((grant) => grant.client_id).filter((id) => id !== undefined))];
  const clients = await databaseBackend(() =>
    artifactCollection(db, 'Client')
      .find({ _id: { $in: clientIds } })
      .toArray(),
  );
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
export async function revokeGrant(db: Db, input: { grantId: string; userId: string }): Promise<boolean> {
  const removed = await databaseBackend(() =>
    artifactCollection(db, 'Grant').deleteOne({ _id: input.grantId, account_id: input.userId }),
  );
  if (removed.deletedCount !== 1) return false;
  forgetGrant(db, input.grantId);
  await revokeArtifactsOfGrant(db, input.grantId);
  return true;
}

/**
 * Whether the grant an access token names is still there, for the person the token names. Checked
 * for every `/mcp` request with a token, on a copy at most `freshness.maxAgeMs` old, so a revoked
 * grant stops its tokens within that time on every process. Records the use (at most once a minute
 * per grant) without making the request wait for it.
 */
export async function isGrantLive(
  db: Db,
  input: {
    grantId: string;
    userId: string;
    now: Date;
    freshness: Freshness;
    onTouchFailure: (error: unknown) => void;
  },
): Promise<boolean> {
  const grants = artifactCollection(db, 'Grant');
  const grant = await recentGrants(db, input.freshness).get(input.grantId, () =>
    databaseBackend(() => grants.findOne({ _id: input.grantId })),
  );
  if (grant === null || grant.account_id !== input.userId) return false;
  if (grant.expires_at !== undefined && grant.expires_at <= input.now) return false;
  const lastUsed = grant.last_used_at?.getTime() ?? 0;
  if (input.now.getTime() - lastUsed >= GRANT_LAST_USED_RESOLUTION_MS) {
    // The cached copy learns it too, or every call until the next read would write again.
    grant.last_used_at = input.now;
    grants
      .updateOne({ _id: input.grantId }, { $set: { last_used_at: input.now } })
      .catch(input.onTouchFailure);
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
