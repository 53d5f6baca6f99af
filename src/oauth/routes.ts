/**
 * The authorization server's endpoints, named as MCP clients guess them when metadata is missing.
 * Kept apart from provider.ts so the HTTP layer can name them without loading the library.
 */
export const OAUTH_ROUTES = {
  authorization: '/authorize',
  token: '/token',
  registration: '/register',
  revocation: '/revoke',
  jwks: '/jwks',
  /** Signing out (OpenID RP-Initiated Logout); `/confirm` and `/success` follow it. */
  end_session: '/session/end',
} as const;

/**
 * The metadata documents (the authorization server's, the resource's, the key set) are the same for
 * every client, built from BASE_URL alone: shared caches may keep them five minutes.
 */
export const METADATA_CACHE_CONTROL = 'public, max-age=300';
