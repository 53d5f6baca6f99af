/**
 * Which redirect URIs a client may register (docs/authentication.md, "Registering a client"):
 * https anywhere, plain http on a loopback address only (any port: RFC 8252 lets the app pick one
 * each time), and an app's private-use scheme such as `cursor://` or `vscode://`.
 */
type RedirectUriKind = 'https' | 'loopback' | 'private-use';

export type RedirectUriCheck = { allowed: true; kind: RedirectUriKind } | { allowed: false; reason: string };

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Schemes that run code or read local data in a browser: never a redirect target. */
const DANGEROUS_SCHEMES: ReadonlySet<string> = new Set([
  'javascript:',
  'vbscript:',
  'data:',
  'blob:',
  'file:',
  'about:',
  'ftp:',
  'ws:',
  'wss:',
]);

/**
 * A private-use scheme names the app that owns it: RFC 8252 asks for a reverse domain name
 * (`com.example.app`), while the clients in use register short names (`cursor`, `vscode`). Both
 * are letters first, then letters, digits, `+`, `-` or `.`.
 */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+.-]*:$/;

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
  if (DANGEROUS_SCHEMES.has(scheme) || !PRIVATE_USE_SCHEME.test(scheme)) {
    return { allowed: false, reason: `${uri} uses the ${scheme.slice(0, -1)} scheme, which is not allowed` };
  }
  return { allowed: true, kind: 'private-use' };
}
