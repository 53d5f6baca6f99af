import type { Scope } from './scopes.js';

/** What a tool learns about the caller's credential; never the secret itself. */
export interface Credential {
  type: 'api_key' | 'oauth';
  /** The API key id, or the signed-in user id for OAuth. */
  id: string;
  scopes: Scope[];
}
