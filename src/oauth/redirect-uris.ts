/**
 * Which redirect URIs a client may register (docs/authentication.md, "Registering a client"):
 * https anywhere, plain http on a loopback address only (any port: RFC 8252 lets the app pick one
 * each time), and an app's private-use scheme: a reverse domain name, or a known app's (`cursor://`).
 */
type RedirectUriKind = 'https' | 'loopback' | 'private-use';

export type RedirectUriCheck = { allowed: true; kind: RedirectUriKind } | { allowed: false; reason: string };

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A private-use scheme names the app that owns it. RFC 8252 asks for a reverse domain name
 * (`com.example.app`): at least two dot-separated labels of letters, digits and hyphens. Schemes a
 * browser itself handles (`javascript:`, `data:`, `view-source:`, `file:`…) never have that shape.
 */
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+:$/;

/**
 * The exceptions: short schemes of MCP clients in use, registered by those apps on the person's
 * machine (Cursor registers `cursor://anysphere.cursor-mcp/oauth/callback`; VS Code and its
 * Insiders build handle `vscode://` and `vscode-insiders://`); docs/authentication.md lists them.
 */
const KNOWN_APP_SCHEMES: readonly string[] = ['cursor', 'vscode', 'vscode-insiders'];

export function checkRedirectUri(uri: string): RedirectUriCheck {
  const parsed = URL.canParse(uri) ? new URL(uri) : undefined;
  if (parsed === undefined) return { allowed: false, reason: `${uri} is not a valid URI` };
  if (parsed.hash !== '' || uri.includes('#')) {
    return { allowed: false, reason: `${uri} must not contain a fragment` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { allowed: false, reason: `${uri} must not contain user information` };
  }
  const scheme = parsed.protocol;
  if (scheme === 'https:') return { allowed: true, kind: 'https' };
  if (scheme === 'http:') {
    if (LOOPBACK_HOSTS.has(parsed.hostname)) return { allowed: true, kind: 'loopback' };
    return {
      allowed: false,
      reason: `${uri} uses plain http on a host other than 127.0.0.1, [::1] or localhost; use https`,
    };
  }
  const name = scheme.slice(0, -1);
  if (!REVERSE_DOMAIN_SCHEME.test(scheme) && !KNOWN_APP_SCHEMES.includes(name)) {
    return {
      allowed: false,
      reason: `${uri} uses the ${name} scheme, which is not allowed: an app's own scheme is a reverse domain name such as com.example.app, or one of ${KNOWN_APP_SCHEMES.join(', ')}`,
    };
  }
  return { allowed: true, kind: 'private-use' };
}
