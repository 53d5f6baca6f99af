import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../support/local-listener.js';
import { accountUsageAnswer, postRaw } from '../support/mcp-client.js';
import {
  authorizationUrl,
  type Discovery,
  discover,
  exchangeCode,
  pkcePair,
  type RegisteredClient,
  refreshAsPublicClient,
  refreshTokens,
  registerClient,
  registeredClient,
  tokenSetOf,
} from '../support/oauth-flow.js';
import { authorizationResponse, authorizeAs, browse, CookieJar } from '../support/oauth-interaction.js';
import { createPerson, startOAuthTestServer } from '../support/oauth-server.js';
import { stoppedClock, type TestServer } from '../support/test-server.js';

const REDIRECT_URI = 'https://client.example.test/callback';
const mcpStatus = async (server: TestServer, token: string) =>
  (await accountUsageAnswer(server.url, token)).status;

/**
 * Attacks on the authorization server's protocol, each refused with the library's error and nothing
 * issued. (Attacks through the pages, look-alike redirects and metadata documents on private
 * addresses are in oauth-browser.test.ts and oauth-client-shapes.test.ts.)
 */
describe('the authorization server refuses', () => {
  let server: TestServer;
  let found: Discovery;
  let resource: string;
  let userId: string;
  let client: RegisteredClient;

  beforeAll(async () => {
    server = await startOAuthTestServer({ config: { OAUTH_REGISTRATIONS_PER_MINUTE: '40' } });
    found = await discover(server.url);
    resource = `${server.config.BASE_URL}/mcp`;
    userId = (await createPerson(server.services)).user._id;
    client = await registeredClient(found.server, {
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  /** A fresh code for `client`, and the PKCE pair it was asked with. */
  async function freshCode(scope = 'leads:read account:read') {
    const pkce = pkcePair();
    const response = await authorizeAs(
      server,
      found,
      { clientId: client.client_id, redirectUri: REDIRECT_URI, pkce, scope, resource },
      userId,
    );
    return { pkce, code: response.get('code') ?? '' };
  }

  const exchange = (code: string, verifier: string, extra: { resource?: string } = {}) =>
    exchangeCode(found.server, {
      clientId: client.client_id,
      code,
      redirectUri: REDIRECT_URI,
      verifier,
      resource: extra.resource ?? resource,
    });

  /** Refreshes at the token endpoint as `clientId` (by default `client`'s). */
  const refresh = (refreshToken: string | undefined, clientId = client.client_id) =>
    refreshAsPublicClient(found.server, clientId, refreshToken, resource);

  it('a code with the wrong PKCE verifier, or none: invalid_grant, no token', async () => {
    const { code } = await freshCode();
    const wrong = await exchange(code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ error: 'invalid_grant' });
    const missing = await postRaw(
      found.server.token_endpoint,
      new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: client.client_id,
        code,
        redirect_uri: REDIRECT_URI,
      }).toString(),
      { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
    );
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: 'invalid_grant' });
    expect((wrong.json as Record<string, unknown>).access_token).toBeUndefined();
    expect((missing.json as Record<string, unknown>).access_token).toBeUndefined();
  });

  it('an authorization request without a PKCE challenge, or with the plain method', async () => {
    const variants: Record<string, string>[] = [
      { code_challenge: '', code_challenge_method: '' },
      { code_challenge_method: 'plain' },
    ];
    for (const extra of variants) {
      const url = authorizationUrl(found.server, {
        clientId: client.client_id,
        redirectUri: REDIRECT_URI,
        pkce: pkcePair(),
        scope: 'leads:read',
        resource,
        extra,
      });
      for (const [name, value] of Object.entries(extra)) if (value === '') url.searchParams.delete(name);
      const answer = await browse(url, new CookieJar());
      expect(authorizationResponse(answer, REDIRECT_URI).get('error')).toBe('invalid_request');
    }
  });

  it('implicit and hybrid response types, and the password and client-credentials grants', async () => {
    for (const responseType of ['token', 'code token', 'id_token']) {
      const url = authorizationUrl(found.server, {
        clientId: client.client_id,
        redirectUri: REDIRECT_URI,
        pkce: pkcePair(),
        scope: 'leads:read',
        resource,
        extra: { response_type: responseType },
      });
      const answer = await browse(url, new CookieJar());
      expect(answer.headers.get('location') ?? '', responseType).not.toContain('access_token');
      expect(answer.headers.get('location') ?? '', responseType).toMatch(/error=unsupported_response_type/);
    }
    for (const grantType of [
      'password',
      'client_credentials',
      'urn:ietf:params:oauth:grant-type:device_code',
    ]) {
      const answer = await postRaw(
        found.server.token_endpoint,
        new URLSearchParams({
          grant_type: grantType,
          client_id: client.client_id,
          username: 'a',
          password: 'b',
        }).toString(),
        { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      );
      expect(answer.status, grantType).toBe(400);
      expect(answer.json, grantType).toMatchObject({ error: 'unsupported_grant_type' });
    }
  });

  /** A replay refused as invalid_grant, and the grant gone with it: `latest`'s tokens no longer work. */
  async function expectRefusedWithGrantRevoked(
    refused: { status: number; json: unknown },
    latest: { access_token: string; refresh_token?: string | undefined },
  ) {
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: 'invalid_grant' });
    expect(await mcpStatus(server, latest.access_token)).toBe(401);
    expect((await refresh(latest.refresh_token)).json).toMatchObject({ error: 'invalid_grant' });
  }

  it('a reused code: refused, and the tokens of its first use revoked', async () => {
    const { pkce, code } = await freshCode();
    const first = tokenSetOf(await exchange(code, pkce.verifier));
    expect(await mcpStatus(server, first.access_token)).toBe(200);
    await expectRefusedWithGrantRevoked(await exchange(code, pkce.verifier), first);
  });

  it('a resource of another server, at authorization and at the token endpoint', async () => {
    const url = authorizationUrl(found.server, {
      clientId: client.client_id,
      redirectUri: REDIRECT_URI,
      pkce: pkcePair(),
      scope: 'leads:read',
      resource: 'https://other-server.example/mcp',
    });
    const answer = await browse(url, new CookieJar());
    expect(authorizationResponse(answer, REDIRECT_URI).get('error')).toBe('invalid_target');

    const { pkce, code } = await freshCode();
    const exchanged = await exchange(code, pkce.verifier, { resource: 'https://other-server.example/mcp' });
    expect(exchanged.status).toBe(400);
    expect(exchanged.json).toMatchObject({ error: 'invalid_target' });

    // Refused before the code was used: the client's corrected retry gets tokens, which keep working
    // (had the code been spent, the retry would count as a replay and revoke the grant).
    const retried = tokenSetOf(await exchange(code, pkce.verifier));
    expect(await mcpStatus(server, retried.access_token)).toBe(200);

    // Likewise a refresh: the refresh token is not rotated by a refused request.
    const wrongRefresh = await refreshTokens(found.server, {
      clientId: client.client_id,
      refreshToken: retried.refresh_token ?? '',
      resource: 'https://other-server.example/mcp',
    });
    expect(wrongRefresh.json).toMatchObject({ error: 'invalid_target' });
    const refreshed = tokenSetOf(await refresh(retried.refresh_token));
    expect(await mcpStatus(server, refreshed.access_token)).toBe(200);
    expect(await mcpStatus(server, retried.access_token)).toBe(200);
  });

  it('refresh-token reuse: refused, and the whole grant revoked, newest tokens included', async () => {
    const { pkce, code } = await freshCode();
    const first = tokenSetOf(await exchange(code, pkce.verifier));
    const rotated = tokenSetOf(await refresh(first.refresh_token));
    expect(await mcpStatus(server, rotated.access_token)).toBe(200);
    await expectRefusedWithGrantRevoked(await refresh(first.refresh_token), rotated);
  });

  it('a refresh token presented by another client', async () => {
    const { pkce, code } = await freshCode();
    const tokens = tokenSetOf(await exchange(code, pkce.verifier));
    const other = await registeredClient(found.server, {
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
    });
    const stolen = await refresh(tokens.refresh_token, other.client_id);
    expect(stolen.json).toMatchObject({ error: 'invalid_grant' });
  });

  it('a tampered access token: another payload under the same signature, or the signature cut', async () => {
    const { pkce, code } = await freshCode('leads:read');
    const { access_token: token } = tokenSetOf(await exchange(code, pkce.verifier));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...claims, scope: 'leads:read leads:enrich' })).toString(
      'base64url',
    );
    for (const forged of [
      `${header}.${widened}.${signature}`,
      `${header}.${payload}.`,
      `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
    ]) {
      expect(await mcpStatus(server, forged)).toBe(401);
    }
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    expect(await mcpStatus(server, unsigned)).toBe(401);
    expect(await mcpStatus(server, token)).toBe(200);
  });

  it('a registration with a client authentication other than none, client_secret_post or client_secret_basic', async () => {
    for (const method of ['client_secret_jwt', 'private_key_jwt', 'tls_client_auth']) {
      const answer = await registerClient(found.server, {
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: method,
      });
      expect(answer.status, method).toBe(400);
      expect(answer.json, method).toMatchObject({ error: 'invalid_client_metadata' });
    }
  });

  it('a confidential client at the token endpoint without its secret, or with a wrong one', async () => {
    const confidential = await registeredClient(found.server, {
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const secret = confidential.client_secret ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(43);
    const pkce = pkcePair();
    const response = await authorizeAs(
      server,
      found,
      { clientId: confidential.client_id, redirectUri: REDIRECT_URI, pkce, scope: 'leads:read', resource },
      userId,
    );
    const fields = {
      clientId: confidential.client_id,
      code: response.get('code') ?? '',
      redirectUri: REDIRECT_URI,
      verifier: pkce.verifier,
      resource,
    };
    const wrongSecret = `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`;
    for (const clientAuth of [
      undefined,
      { method: 'client_secret_basic', secret: wrongSecret },
      { method: 'client_secret_post', secret: wrongSecret },
    ] as const) {
      const refused = await exchangeCode(found.server, { ...fields, ...(clientAuth && { clientAuth }) });
      expect(refused.status, clientAuth?.method ?? 'no secret').toBe(401);
      expect(refused.json).toMatchObject({ error: 'invalid_client' });
    }
    // Refusing the client did not spend the code: the right secret still gets tokens.
    const tokens = tokenSetOf(
      await exchangeCode(found.server, { ...fields, clientAuth: { method: 'client_secret_basic', secret } }),
    );
    expect(await mcpStatus(server, tokens.access_token)).toBe(200);
  });

  it('registrations beyond the size limits, or for a response mode but query, naming the field', async () => {
    const longUri = (length: number) => `https://client.example.test/${'a'.repeat(length - 28)}`;
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['client_name', { client_name: 'n'.repeat(5000) }, 'invalid_client_metadata'],
      ['client_name', { client_name: 'n'.repeat(101) }, 'invalid_client_metadata'],
      [
        'redirect_uris',
        { redirect_uris: Array.from({ length: 11 }, (_, index) => `${REDIRECT_URI}/${index}`) },
        'invalid_redirect_uri',
      ],
      ['redirect_uris', { redirect_uris: [longUri(2001)] }, 'invalid_redirect_uri'],
      ['client_uri', { client_uri: longUri(2001) }, 'invalid_client_metadata'],
      ['logo_uri', { logo_uri: longUri(2001) }, 'invalid_client_metadata'],
      ['tos_uri', { tos_uri: longUri(2001) }, 'invalid_client_metadata'],
      [
        'contacts',
        { contacts: Array.from({ length: 11 }, (_, index) => `ops${index}@example.test`) },
        'invalid_client_metadata',
      ],
      ['response_modes', { response_modes: ['fragment'] }, 'invalid_client_metadata'],
    ];
    for (const [field, metadata, error] of refusals) {
      const answer = await registerClient(found.server, {
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        ...metadata,
      });
      expect(answer.status, field).toBe(400);
      expect(answer.json, field).toMatchObject({ error, error_description: expect.stringContaining(field) });
    }
    // At the limits themselves a registration is accepted.
    const atLimits = await registeredClient(found.server, {
      client_name: 'n'.repeat(100),
      redirect_uris: [longUri(2000), ...Array.from({ length: 9 }, (_, index) => `${REDIRECT_URI}/${index}`)],
      client_uri: longUri(2000),
      token_endpoint_auth_method: 'none',
    });
    expect(atLimits.redirect_uris).toHaveLength(10);
    // The whole request is bounded by the library (56 KiB).
    const huge = await registerClient(found.server, {
      redirect_uris: [REDIRECT_URI],
      software_statement: 'x'.repeat(60 * 1024),
    });
    expect(huge.status).toBe(400);
    expect(huge.json).toMatchObject({ error: 'invalid_request' });
  });

  it('a secret for a client that cannot keep one: public clients and native apps get none', async () => {
    const unnamed = await registeredClient(found.server, { redirect_uris: [REDIRECT_URI] });
    expect(unnamed.token_endpoint_auth_method).toBe('none');
    expect(unnamed).not.toHaveProperty('client_secret');
    for (const method of ['client_secret_post', 'client_secret_basic']) {
      const native = await registeredClient(found.server, {
        redirect_uris: ['http://127.0.0.1/callback', 'com.example.app:/callback'],
        token_endpoint_auth_method: method,
      });
      expect(native, method).toMatchObject({
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      });
      expect(native, method).not.toHaveProperty('client_secret');
    }
    const web = await registeredClient(found.server, {
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(web.client_secret?.length).toBeGreaterThanOrEqual(43);
  });

  it('an app scheme that is not a reverse domain name (view-source:, a bare word) unless a known app’s', async () => {
    for (const uri of [
      'view-source:https://client.example.test/cb',
      'myapp:/callback',
      'ms-settings:x',
      'javascript:x',
    ]) {
      const answer = await registerClient(found.server, { redirect_uris: [uri] });
      expect({ uri, status: answer.status, json: answer.json }).toMatchObject({
        uri,
        status: 400,
        json: { error: 'invalid_redirect_uri', error_description: expect.stringContaining(uri) },
      });
    }
    const accepted = await registeredClient(found.server, {
      redirect_uris: ['com.example.app:/callback', 'cursor://anysphere.cursor-mcp/oauth/callback'],
    });
    expect(accepted.redirect_uris).toHaveLength(2);
  });

  it('control and bidirectional-formatting characters in client metadata, naming the field', async () => {
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      // Right-to-left override: "Evil\u202eppa.yrt" reads as a different name on the consent page.
      ['client_name', { client_name: 'Trusted\u202egnp.exe' }, 'invalid_client_metadata'],
      ['client_name', { client_name: 'Trusted\u2067App\u2069' }, 'invalid_client_metadata'],
      ['client_name', { client_name: 'Line\nbreak' }, 'invalid_client_metadata'],
      ['client_name', { client_name: 'Null\u0000byte' }, 'invalid_client_metadata'],
      ['client_uri', { client_uri: 'https://client.example.test/\u202e' }, 'invalid_client_metadata'],
      ['contacts', { contacts: ['ops\u200f@example.test'] }, 'invalid_client_metadata'],
      ['redirect_uris', { redirect_uris: ['https://client.example.test/\u202ecb'] }, 'invalid_redirect_uri'],
    ];
    for (const [field, metadata, error] of refusals) {
      const answer = await registerClient(found.server, { redirect_uris: [REDIRECT_URI], ...metadata });
      expect(answer.status, field).toBe(400);
      expect(answer.json, field).toMatchObject({ error, error_description: expect.stringContaining(field) });
    }
    // Other scripts and emoji are text like any other.
    const named = await registeredClient(found.server, {
      redirect_uris: [REDIRECT_URI],
      client_name: 'Café 東京 ✓',
    });
    expect(named.client_name).toBe('Café 東京 ✓');
  });

  it('a loopback redirect is matched ignoring its port, but not its path or host', async () => {
    const native = await registeredClient(found.server, {
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
    });
    const request = (redirectUri: string) =>
      authorizationUrl(found.server, {
        clientId: native.client_id,
        redirectUri,
        pkce: pkcePair(),
        scope: 'leads:read',
        resource,
      });
    const anyPort = await browse(request('http://127.0.0.1:49152/callback'), new CookieJar());
    expect(anyPort.headers.get('location')).toMatch(/^\/interaction\//);
    for (const other of [
      'http://127.0.0.1:49152/other',
      'http://localhost:49152/callback',
      'http://127.0.0.2:49152/callback',
    ]) {
      const refused = await browse(request(other), new CookieJar());
      expect(refused.status, other).toBe(400);
      expect(refused.headers.get('location'), other).toBeNull();
    }
  });
});

describe('client metadata documents are fetched from public addresses only', () => {
  /** A listener on loopback, standing for a service inside the server's network: it counts connections. */
  let inside: net.Server;
  let port: number;
  let connections = 0;
  let server: TestServer;
  let found: Discovery;

  beforeAll(async () => {
    inside = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    port = await listenOnLoopback(inside);
    // Every host name resolves to loopback, as a hostile DNS answer would make it.
    server = await startOAuthTestServer({ resolveHost: async () => [{ address: '127.0.0.1', family: 4 }] });
    found = await discover(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => inside?.close(() => resolve()));
  });

  const authorizeWithDocument = (clientId: string) =>
    browse(
      authorizationUrl(found.server, {
        clientId,
        redirectUri: REDIRECT_URI,
        pkce: pkcePair(),
        scope: 'leads:read',
        resource: `${server.config.BASE_URL}/mcp`,
      }),
      new CookieJar(),
    );

  it('a host name that resolves to loopback is refused after resolution, and nothing connects to it', async () => {
    const answer = await authorizeWithDocument(`https://documents.example.test:${port}/client.json`);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('invalid_client');
    expect(connections).toBe(0);
  });

  it('IPv4-compatible and IPv4-mapped forms of loopback are refused before any request', async () => {
    for (const host of ['[::7f00:1]', '[::127.0.0.1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::1]']) {
      const answer = await authorizeWithDocument(`https://${host}:${port}/client.json`);
      expect(answer.status, host).toBe(400);
      expect(await answer.text(), host).toContain('fetch not allowed');
    }
    expect(connections).toBe(0);
  });
});

describe('client registration is rate-limited per client address', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startOAuthTestServer({
      config: { OAUTH_REGISTRATIONS_PER_MINUTE: '3' },
      clock: stoppedClock(),
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('beyond the limit a registration gets 429 with Retry-After, and no client is made', async () => {
    const found = await discover(server.url);
    const register = () =>
      registerClient(found.server, { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    for (let attempt = 0; attempt < 3; attempt++) expect((await register()).status).toBe(201);
    const limited = await register();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.json).toMatchObject({ error: 'rate_limited' });
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
  });
});
