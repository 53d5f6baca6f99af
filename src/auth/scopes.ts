/**
 * The scopes a credential can carry (docs/protocol.md, "Scopes"). A new API key gets all of them
 * unless others are asked for.
 */
export const SCOPES = [
  'leads:read',
  'companies:read',
  'signals:read',
  'insights:read',
  'account:read',
  'leads:enrich',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * Scopes an OAuth client can add by asking the user again: a token lacking one gets an HTTP 403
 * challenge instead of a tool error, so the client knows to re-authorize.
 */
export const STEP_UP_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['leads:enrich']);

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
