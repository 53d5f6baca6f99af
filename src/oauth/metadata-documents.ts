import { lookup } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { errors } from 'oidc-provider';

/**
 * Client ID Metadata Documents are fetched from a URL anyone may name in an unauthenticated
 * request, so the fetch is a way into the network this server sits in unless it is kept to public
 * addresses (docs/security.md, "Client metadata documents"). The library fetches with the function
 * given here; it sets the time limit (2.5 s), refuses anything but a 200, reads at most the body
 * limit given below, and caches what it fetched.
 */

/** How a host name becomes addresses; tests give one that answers what they need. */
export type ResolveHost = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export const resolveWithSystem: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** A document is at most this long (the library refuses a longer one; this fetch stops reading past it). */
export const METADATA_DOCUMENT_MAX_BYTES = 5 * 1024;

/**
 * Every range that is not the public internet: private, shared, loopback, link-local, reserved,
 * multicast. (A BlockList judges an IPv4-mapped address, `::ffff:a.b.c.d`, by the IPv4 rules; such
 * addresses are refused outright below.)
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // IPv4-compatible (`::7f00:1`), the unspecified and loopback addresses.
  ['::', 96],
  // NAT64 (RFC 6052, 8215): an IPv4 address behind a translator, which may be a private one.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // IETF protocol assignments, Teredo among them; documentation; 6to4 (another IPv4 inside).
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/** Whether `address` (an IP literal, brackets allowed) is a public internet address. */
export function isPublicAddress(address: string): boolean {
  const bare = withoutBrackets(address);
  const family = isIP(bare);
  if (family === 0 || bare.includes('%')) return false;
  if (family === 4) return !NOT_PUBLIC.check(bare, 'ipv4');
  // IPv4-mapped (`::ffff:127.0.0.1`): an IPv4 address is reached as IPv4, never through one.
  return !IPV4_MAPPED.check(bare, 'ipv6') && !NOT_PUBLIC.check(bare, 'ipv6');
}

/**
 * Whether a document URL may be fetched before any request: an IP literal must be public, and
 * `localhost` names are never fetched. Other names are checked once resolved (`publicOnlyFetch`).
 */
export function mayFetchFrom(clientId: string): boolean {
  const host = URL.parse(clientId)?.hostname.toLowerCase();
  if (host === undefined || host === 'localhost' || host.endsWith('.localhost')) return false;
  return isIP(withoutBrackets(host)) === 0 || isPublicAddress(host);
}

/** An IPv6 literal as a URL's host writes it, `[::1]`, without its brackets. */
function withoutBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The fetch the library uses for documents: the host name is resolved first, every address it
 * resolves to must be public, and the connection goes to the address that was checked (no second
 * lookup a DNS answer could change in between). No redirect is followed: any answer but a 200 is
 * refused by the library. Reading the body stops as soon as it passes the limit.
 */
export function publicOnlyFetch(resolve: ResolveHost): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const signal = init?.signal ?? undefined;
    const [target] = await publicAddressesOf(url.hostname, resolve, signal);
    return requestFrom(url, target, { headers: new Headers(init?.headers), signal });
  };
}

async function publicAddressesOf(
  hostname: string,
  resolve: ResolveHost,
  signal: AbortSignal | undefined,
): Promise<Array<{ address: string; family: number }>> {
  const literal = withoutBrackets(hostname);
  const family = isIP(literal);
  const addresses =
    family !== 0 ? [{ address: literal, family }] : [...(await abortable(resolve(hostname), signal))];
  const refused = addresses.find(({ address }) => !isPublicAddress(address));
  if (addresses.length === 0 || refused !== undefined) {
    throw new Error(
      `${hostname} does not resolve to public addresses only${refused ? ` (${refused.address})` : ''}`,
    );
  }
  return addresses;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
  ]);
}

function requestFrom(
  url: URL,
  target: { address: string; family: number } | undefined,
  options: { headers: Headers; signal: AbortSignal | undefined },
): Promise<Response> {
  if (target === undefined) return Promise.reject(new Error(`${url.hostname} has no address`));
  return new Promise((resolve, reject) => {
    const request = https.get(
      url,
      {
        headers: Object.fromEntries(options.headers),
        ...(options.signal && { signal: options.signal }),
        // The address checked above, whatever a second lookup would say; TLS still checks the name.
        lookup: (_hostname, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all) callback(null, [target]);
          else
            (callback as (error: null, address: string, family: number) => void)(
              null,
              target.address,
              target.family,
            );
        },
      },
      (response) => readLimited(response).then(resolve, reject),
    );
    request.on('error', reject);
  });
}

async function readLimited(response: IncomingMessage): Promise<Response> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response) {
    chunks.push(chunk as Buffer);
    received += (chunk as Buffer).length;
    if (received > METADATA_DOCUMENT_MAX_BYTES) {
      response.destroy();
      break;
    }
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, item);
  }
  const status = response.statusCode ?? 502;
  // Statuses that carry no body cannot be given one; the library refuses every status but 200 anyway.
  const body = [204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
  return new Response(body, { status, headers });
}

/** A client address that asked for more documents than its budget allows: 429, retry later. */
export class TooManyMetadataFetches extends errors.OIDCProviderError {
  constructor(retryAfterSeconds: number) {
    super(429, 'temporarily_unavailable');
    this.expose = true;
    this.allow_redirect = false;
    this.error_description = `Too many client metadata documents requested from this address. Retry in ${retryAfterSeconds} seconds.`;
  }
}
