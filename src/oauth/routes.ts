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
} as const;
