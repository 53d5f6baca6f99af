import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';

/**
 * What the authorization server (a koa application) believes about where a request was sent and
 * who sent it. Left to itself, koa takes the protocol and host from `X-Forwarded-Proto` and
 * `X-Forwarded-Host` from any sender once `proxy` is on, and the whole origin from an absolute-form
 * request target (`GET https://evil.example/… HTTP/1.1`); the library builds its endpoints, its
 * redirects and its cookies' `Secure` flag from that. Here:
 *
 * - every URL it builds starts with BASE_URL's origin, whatever the request said, and its cookies
 *   are Secure exactly when BASE_URL is https;
 * - the client address is express's `req.ip`, which believes `X-Forwarded-For` exactly as far as
 *   TRUST_PROXY says: the same trust function for the pages, `/mcp` and the authorization server.
 *
 * The overrides sit on the application's request prototype (`app.request`, koa's documented place
 * for request properties); `proxy` stays off. See docs/security.md, "Forwarded headers".
 */
export function pinRequestOrigin(provider: Provider, baseUrl: string): void {
  const base = new URL(baseUrl);
  const protocol = base.protocol.slice(0, -1);
  provider.proxy = false;
  Object.defineProperties(provider.request, {
    protocol: { get: () => protocol, configurable: true },
    host: { get: () => base.host, configurable: true },
    href: {
      get(this: { originalUrl: string }) {
        // Only the path and query of the request target: an absolute-form target names no origin here.
        const target = URL.parse(this.originalUrl, base.href);
        return `${base.origin}${target?.pathname ?? '/'}${target?.search ?? ''}`;
      },
      configurable: true,
    },
    ip: {
      get(this: { req: IncomingMessage & { ip?: string } }) {
        return this.req.ip ?? this.req.socket.remoteAddress ?? '';
      },
      configurable: true,
    },
  });
}
