import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolveHost } from '../../src/oauth/metadata-documents.js';
import { tools } from '../../src/tools/registry.js';
import { pkcePair } from '../support/oauth-flow.js';
import { startTestServer, stoppedClock, type TestServer } from '../support/test-server.js';

/**
 * Forwarded headers are believed exactly as far as TRUST_PROXY says, by the pages, `/mcp` and the
 * authorization server alike, and never for what the server advertises: every endpoint comes from
 * BASE_URL (issue 27: with TRUST_PROXY=1, one request with `X-Forwarded-Host: evil.example` got
 * metadata whose endpoints were on https://evil.example, with nothing to stop a shared cache).
 */
const BASE_URL = 'https://leads.example.test';
const SPOOFED = {
  'X-Forwarded-Host': 'evil.example',
  'X-Forwarded-Proto': 'http',
  'X-Forwarded-Port': '8443',
  Forwarded: 'for=203.0.113.66;host=evil.example;proto=http',
};
/** Metadata-document host names resolve to loopback here: every fetch is refused, after it was counted. */
const toLoopback: ResolveHost = async () => [{ address: '127.0.0.1', family: 4 }];

async function serverTrusting(trustProxy: string | undefined): Promise<TestServer> {
  return startTestServer({
    tools,
    config: {
      BASE_URL,
      ...(trustProxy !== undefined && { TRUST_PROXY: trustProxy }),
      CLIENT_METADATA_FETCHES_PER_MINUTE: '1',
    },
    resolveHost: toLoopback,
    clock: stoppedClock(),
  });
}

/** A GET with the request target in absolute form (`GET http://evil.example/… HTTP/1.1`), as a proxy would send it. */
function getAbsoluteForm(server: TestServer, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.root);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, path: target, headers: { Host: `${hostname}:${port}` }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Every URL a metadata document names. */
function urlsIn(document: Record<string, unknown>): string[] {
  return Object.values(document)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === 'string' && /^[a-z]+:\/\//.test(value));
}

/** An authorization request of `clientId` to `server`, redirects not followed. */
function authorize(server: TestServer, clientId: string, headers: Record<string, string>): Promise<Response> {
  const url = new URL('/authorize', server.root);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'https://app.example.test/callback',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    scope: 'leads:read',
  }).toString();
  return fetch(url, { redirect: 'manual', headers });
}

/** An authorization request naming a metadata document never fetched yet, from `forwardedFor`. */
function authorizeFrom(server: TestServer, address: string, forwardedFor = address): Promise<Response> {
  const clientId = `https://documents.example.test/${encodeURIComponent(address)}/${Math.random()}.json`;
  return authorize(server, clientId, { 'X-Forwarded-For': forwardedFor });
}

/** A client registered, then its authorization request, each with `headers`: the answer that starts sign-in. */
async function startAuthorization(server: TestServer, headers: Record<string, string>): Promise<Response> {
  const registered = await fetch(`${server.root}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ redirect_uris: ['https://app.example.test/callback'] }),
  });
  expect(registered.status).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  return authorize(server, clientId, headers);
}

describe.each([
  ['unset', undefined],
  ['a hop count', '1'],
  ['a subnet', '127.0.0.0/8'],
  ['true', 'true'],
])('with TRUST_PROXY %s', (_name, trustProxy) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await serverTrusting(trustProxy);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('advertises endpoints on BASE_URL only, whatever the forwarded headers or the request target say', async () => {
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const answer = await fetch(`${server.root}${path}`, { headers: SPOOFED });
      expect(answer.status, path).toBe(200);
      const urls = urlsIn((await answer.json()) as Record<string, unknown>);
      expect(urls.length, path).toBeGreaterThan(1);
      for (const url of urls)
        expect(url.startsWith(`${BASE_URL}/`) || url === BASE_URL, `${path}: ${url}`).toBe(true);
      // The same for every client, so a shared cache may keep it, for a while.
      expect(answer.headers.get('cache-control'), path).toBe('public, max-age=300');
    }
    const absolute = await getAbsoluteForm(
      server,
      'http://evil.example/.well-known/oauth-authorization-server',
    );
    expect(absolute.status).toBe(200);
    expect(absolute.body).not.toContain('evil.example');
    expect(JSON.parse(absolute.body)).toMatchObject({ token_endpoint: `${BASE_URL}/token` });
  });

  it('sends the authorization server’s redirects to BASE_URL, and marks its cookies Secure as BASE_URL is https', async () => {
    const started = await startAuthorization(server, SPOOFED);
    expect(started.status).toBe(303);
    const uid = /^\/interaction\/([\w-]+)$/.exec(started.headers.get('location') ?? '')?.[1] ?? '';
    // Where the browser goes back to once signed in.
    expect((await server.oauth.provider.Interaction.find(uid))?.returnTo).toBe(
      `${BASE_URL}/authorize/${uid}`,
    );
    const cookies = started.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie.toLowerCase(), cookie).toContain('; secure');
  });
});

describe('the authorization server counts a client address as TRUST_PROXY says', () => {
  it('unset: forwarded addresses are ignored, every request is the connection’s', async () => {
    const server = await serverTrusting(undefined);
    try {
      expect((await authorizeFrom(server, '203.0.113.1')).status).toBe(400);
      const second = await authorizeFrom(server, '203.0.113.2');
      expect(second.status).toBe(429);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('a hop count: the address the nearest proxy saw, not one the client wrote before it', async () => {
    const server = await serverTrusting('1');
    try {
      expect((await authorizeFrom(server, '203.0.113.1')).status).toBe(400);
      expect((await authorizeFrom(server, '203.0.113.2')).status).toBe(400);
      // A client that writes an address of its own is still counted by the one the proxy added.
      expect((await authorizeFrom(server, 'spoof', '203.0.113.9, 203.0.113.1')).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('a subnet: proxies inside it are believed, the first address outside it is the client', async () => {
    const server = await serverTrusting('127.0.0.0/8, 10.0.0.0/8');
    try {
      expect((await authorizeFrom(server, 'first', '198.51.100.7, 10.1.1.1')).status).toBe(400);
      expect((await authorizeFrom(server, 'second', '198.51.100.8, 10.1.1.1')).status).toBe(400);
      expect((await authorizeFrom(server, 'again', '192.0.2.1, 198.51.100.7, 10.2.2.2')).status).toBe(429);
    } finally {
      await server.close();
    }
  });
});

describe('over plain http BASE_URL, a spoofed X-Forwarded-Proto changes nothing', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ tools, config: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps http endpoints and cookies without Secure (a browser would drop them over http)', async () => {
    const spoofed = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' };
    const answer = await fetch(`${server.root}/.well-known/oauth-authorization-server`, { headers: spoofed });
    const metadata = (await answer.json()) as { token_endpoint?: string };
    expect(metadata.token_endpoint).toBe(`${server.config.BASE_URL}/token`);
    expect(server.config.BASE_URL.startsWith('http://')).toBe(true);
    const started = await startAuthorization(server, spoofed);
    expect(started.status).toBe(303);
    const cookies = started.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie.toLowerCase(), cookie).not.toContain('; secure');
  });
});
