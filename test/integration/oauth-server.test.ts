import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import { listGrants, revokeGrant } from '../../src/oauth/grants.js';
import { accountUsageAnswer, callToolRaw, postRaw } from '../support/mcp-client.js';
import {
  type Discovery,
  discover,
  exchangeCode,
  getJson,
  jwtClaims,
  pkcePair,
  type RegisteredClient,
  refreshAsPublicClient,
  registeredClient,
  revokeToken,
  tokenSetOf,
} from '../support/oauth-flow.js';
import {
  authorizationResponse,
  authorizeAs,
  browse,
  CookieJar,
  completeInteraction,
  interactionLocation,
} from '../support/oauth-interaction.js';
import { createPerson, startOAuthTestServer } from '../support/oauth-server.js';
import type { TestServer } from '../support/test-server.js';

const REDIRECT_URI = 'https://client.example.test/callback';
/** What `/mcp` answers `get_account_usage` with this bearer token. */
const usage = (server: TestServer, token: string) => accountUsageAnswer(server.url, token);

/**
 * The authorization server (oidc-provider with our configuration) and the resource server's
 * acceptance of its tokens, over plain HTTP: metadata, registration, the code flow with PKCE,
 * refresh rotation, revocation and consent remembered per client.
 */
describe('the authorization server', () => {
  let server: TestServer;
  let found: Discovery;
  let resource: string;

  beforeAll(async () => {
    server = await startOAuthTestServer();
    found = await discover(server.url);
    resource = `${server.config.BASE_URL}/mcp`;
  });

  afterAll(async () => {
    await server?.close();
  });

  const newClient = (metadata: Record<string, unknown> = {}): Promise<RegisteredClient> =>
    registeredClient(found.server, {
      client_name: 'Flow test',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      ...metadata,
    });

  /** A person, a client, and the tokens of a completed authorization for `scope`. */
  async function connected(scope = 'leads:read account:read') {
    const { account, user } = await createPerson(server.services);
    const client = await newClient();
    const pkce = pkcePair();
    const response = await authorizeAs(
      server,
      found,
      { clientId: client.client_id, redirectUri: REDIRECT_URI, pkce, scope, resource },
      user._id,
    );
    const code = response.get('code') ?? '';
    const tokens = tokenSetOf(
      await exchangeCode(found.server, {
        clientId: client.client_id,
        code,
        redirectUri: REDIRECT_URI,
        verifier: pkce.verifier,
        resource,
      }),
    );
    return { account, user, client, pkce, code, tokens };
  }

  describe('metadata', () => {
    it('names BASE_URL exactly as the issuer, at the OAuth and the OpenID paths alike', async () => {
      expect(found.server.issuer).toBe(server.config.BASE_URL);
      expect(found.server.issuer.endsWith('/')).toBe(false);
      const openid = await getJson<Record<string, unknown>>(
        `${server.root}/.well-known/openid-configuration`,
      );
      expect(openid).toEqual(found.server);
    });

    it('offers the authorization code with PKCE S256, answered in the query with iss, to public and secret-holding clients', () => {
      expect(found.server).toMatchObject({
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
      });
      expect(found.server.scopes_supported).toEqual(expect.arrayContaining([...SCOPES]));
      for (const endpoint of ['registration_endpoint', 'revocation_endpoint', 'jwks_uri'] as const) {
        expect(found.server[endpoint]).toBeDefined();
      }
    });

    it('the protected-resource metadata is the same at both paths and points at this issuer', async () => {
      const atRoot = await getJson(`${server.root}/.well-known/oauth-protected-resource`);
      expect(atRoot).toEqual(found.resource);
      expect(found.resource).toEqual({
        resource,
        authorization_servers: [server.config.BASE_URL],
        scopes_supported: [...SCOPES],
        bearer_methods_supported: ['header'],
      });
    });

    it('metadata, registration, token and revocation answer browsers (CORS); the authorization endpoint does not', async () => {
      const origin = 'http://localhost:6274';
      const preflight = (url: string, method: string) =>
        fetch(url, {
          method: 'OPTIONS',
          headers: {
            Origin: origin,
            'Access-Control-Request-Method': method,
            'Access-Control-Request-Headers': 'content-type, mcp-protocol-version',
          },
        });
      for (const url of [
        found.resourceMetadataUrl,
        `${server.root}/.well-known/oauth-protected-resource`,
        `${server.root}/.well-known/oauth-authorization-server`,
      ]) {
        const answer = await preflight(url, 'GET');
        expect(answer.status, url).toBe(204);
        expect(answer.headers.get('access-control-allow-origin'), url).toMatch(
          /^(\*|http:\/\/localhost:6274)$/,
        );
        expect(answer.headers.get('access-control-allow-headers')?.toLowerCase(), url).toContain(
          'mcp-protocol-version',
        );
        const get = await fetch(url, { headers: { Origin: origin } });
        expect(get.headers.get('access-control-allow-origin'), url).toMatch(/^(\*|http:\/\/localhost:6274)$/);
      }
      for (const url of [
        found.server.registration_endpoint,
        found.server.token_endpoint,
        found.server.revocation_endpoint,
      ]) {
        const answer = await preflight(url ?? '', 'POST');
        expect(answer.status, url).toBe(204);
        expect(answer.headers.get('access-control-allow-origin'), url).toMatch(
          /^(\*|http:\/\/localhost:6274)$/,
        );
      }
      // A browser client's registration and token requests carry its Origin and are answered with CORS.
      const inspector = await registeredClient(found.server, {
        redirect_uris: [`${origin}/oauth/callback`],
        token_endpoint_auth_method: 'none',
      });
      const token = await fetch(found.server.token_endpoint, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: inspector.client_id,
          refresh_token: 'x',
        }),
      });
      expect(token.headers.get('access-control-allow-origin')).toBe(origin);
      const authorize = await fetch(found.server.authorization_endpoint, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
      });
      expect(authorize.headers.get('access-control-allow-origin')).toBeNull();
      const mcp = await fetch(server.url, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
      });
      expect(mcp.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('publishes the ES256 public keys tokens are signed with, and no private part', async () => {
      const jwks = await getJson<{ keys: Array<Record<string, unknown>> }>(found.server.jwks_uri ?? '');
      expect(jwks.keys.length).toBeGreaterThan(0);
      for (const key of jwks.keys) {
        expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
        expect(key.d).toBeUndefined();
      }
    });
  });

  describe('the whole flow', () => {
    it('registers, authorizes with PKCE, exchanges the code, calls /mcp, refreshes, and revokes', async () => {
      const { account, user, client, tokens } = await connected();
      expect(tokens).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'leads:read account:read',
      });
      expect(client.token_endpoint_auth_method).toBe('none');

      // The access token: a JWT signed ES256 with a published key, for exactly our /mcp, naming grant and account.
      const jwks = createLocalJWKSet(await getJson(found.server.jwks_uri ?? ''));
      const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
        issuer: server.config.BASE_URL,
        audience: resource,
      });
      expect(protectedHeader.alg).toBe('ES256');
      expect(payload).toMatchObject({
        sub: user._id,
        account_id: account._id,
        client_id: client.client_id,
        scope: 'leads:read account:read',
        aud: resource,
      });
      expect(typeof payload.gid).toBe('string');
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);

      const result = await callToolRaw(server.url, tokens.access_token, 'get_account_usage');
      expect(result.structuredContent).toMatchObject({
        credential: { type: 'oauth', scopes: ['leads:read', 'account:read'] },
      });

      // Refresh: a new access token and a new refresh token; both work.
      expect(tokens.refresh_token).toBeDefined();
      const refreshed = tokenSetOf(
        await refreshAsPublicClient(found.server, client.client_id, tokens.refresh_token, resource),
      );
      expect(refreshed.refresh_token).toBeDefined();
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(jwtClaims(refreshed.access_token).gid).toBe(payload.gid);
      expect((await usage(server, refreshed.access_token)).status).toBe(200);

      // Revocation of the refresh token (RFC 7009) ends the grant: its access tokens stop at once.
      const revoked = await revokeToken(found.server, {
        clientId: client.client_id,
        token: refreshed.refresh_token ?? '',
        tokenTypeHint: 'refresh_token',
      });
      expect(revoked.status).toBe(200);
      for (const token of [tokens.access_token, refreshed.access_token]) {
        const answer = await usage(server, token);
        expect(answer.status).toBe(401);
        expect(answer.json).toMatchObject({
          error_description: 'The access token was revoked: its grant no longer exists.',
        });
      }
      const again = await refreshAsPublicClient(
        found.server,
        client.client_id,
        refreshed.refresh_token,
        resource,
      );
      expect(again.json).toMatchObject({ error: 'invalid_grant' });
    });

    it('the authorization response carries iss and the state', async () => {
      const { user } = await createPerson(server.services);
      const client = await newClient();
      const response = await authorizeAs(
        server,
        found,
        {
          clientId: client.client_id,
          redirectUri: REDIRECT_URI,
          pkce: pkcePair(),
          scope: 'leads:read',
          resource,
          state: 'opaque-state',
        },
        user._id,
      );
      expect(response.get('iss')).toBe(server.config.BASE_URL);
      expect(response.get('state')).toBe('opaque-state');
    });

    it('with no resource parameter, the token is for /mcp all the same', async () => {
      const { user } = await createPerson(server.services);
      const client = await newClient();
      const pkce = pkcePair();
      const jar = new CookieJar();
      const url = new URL(found.server.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'leads:read',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }).toString();
      const started = await browse(url, jar);
      const finished = await completeInteraction(server, interactionLocation(started, server) ?? '', jar, {
        userId: user._id,
        approve: ['leads:read'],
      });
      const code = authorizationResponse(finished, REDIRECT_URI).get('code') ?? '';
      const answer = await postRaw(
        found.server.token_endpoint,
        new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: client.client_id,
          code,
          redirect_uri: REDIRECT_URI,
          code_verifier: pkce.verifier,
        }).toString(),
        { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      );
      const tokens = tokenSetOf(answer);
      expect(jwtClaims(tokens.access_token).aud).toBe(resource);
      expect((await usage(server, tokens.access_token)).status).toBe(200);
    });
  });

  describe('consent, remembered per client and scope set', () => {
    it('the same person and client, in a new browser session, sign in but are not asked again', async () => {
      const { user } = await createPerson(server.services);
      const client = await newClient();
      const request = {
        clientId: client.client_id,
        redirectUri: REDIRECT_URI,
        scope: 'leads:read account:read',
        resource,
      };
      await authorizeAs(server, found, { ...request, pkce: pkcePair() }, user._id);

      // In the same browser: straight back to the client with a code.
      const jar = new CookieJar();
      await authorizeAs(server, found, { ...request, pkce: pkcePair() }, user._id, jar);
      const sameSession = await browse(authorizationUrl(request), jar);
      expect(authorizationResponse(sameSession, REDIRECT_URI).get('code')).toBeTruthy();

      // In another browser: sign-in only, no consent asked.
      const otherJar = new CookieJar();
      const started = await browse(authorizationUrl(request), otherJar);
      const uid = /\/interaction\/([^/?]+)/.exec(interactionLocation(started, server) ?? '')?.[1] ?? '';
      const interaction = await server.oauth.provider.Interaction.find(uid);
      expect(interaction?.prompt.name).toBe('login');
      const signedIn = await completeInteraction(
        server,
        interactionLocation(started, server) ?? '',
        otherJar,
        {
          userId: user._id,
        },
      );
      expect(authorizationResponse(signedIn, REDIRECT_URI).get('code')).toBeTruthy();
    });

    it('a scope beyond the approved set is asked for, and only it', async () => {
      const { user } = await createPerson(server.services);
      const client = await newClient();
      const jar = new CookieJar();
      const base = { clientId: client.client_id, redirectUri: REDIRECT_URI, resource };
      await authorizeAs(server, found, { ...base, pkce: pkcePair(), scope: 'leads:read' }, user._id, jar);
      const more = await browse(authorizationUrl({ ...base, scope: 'leads:read leads:enrich' }), jar);
      const uid = /\/interaction\/([^/?]+)/.exec(interactionLocation(more, server) ?? '')?.[1] ?? '';
      const interaction = await server.oauth.provider.Interaction.find(uid);
      expect(interaction?.prompt.name).toBe('consent');
      expect(interaction?.prompt.details.missingResourceScopes).toEqual({ [resource]: ['leads:enrich'] });
    });

    const authorizationUrl = (request: {
      clientId: string;
      redirectUri: string;
      scope: string;
      resource: string;
    }) => {
      const url = new URL(found.server.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: request.clientId,
        redirect_uri: request.redirectUri,
        scope: request.scope,
        resource: request.resource,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }).toString();
      return url;
    };
  });

  describe('connected apps (src/oauth/grants.ts)', () => {
    it('lists the person’s grants with client name, scopes and last use; revoking one stops its tokens', async () => {
      const { user, client, tokens } = await connected('leads:read account:read');
      expect((await usage(server, tokens.access_token)).status).toBe(200);
      const [app, ...others] = await listGrants(server.services.oauthArtifacts, user._id);
      expect(others).toEqual([]);
      expect(app).toMatchObject({
        clientId: client.client_id,
        clientName: 'Flow test',
        scopes: ['leads:read', 'account:read'],
      });
      expect(app?.lastUsedAt).toBeInstanceOf(Date);

      const stranger = await createPerson(server.services);
      expect(
        await revokeGrant(server.services.oauthArtifacts, {
          grantId: app?.grantId ?? '',
          userId: stranger.user._id,
        }),
      ).toBe(false);
      expect((await usage(server, tokens.access_token)).status).toBe(200);

      expect(
        await revokeGrant(server.services.oauthArtifacts, { grantId: app?.grantId ?? '', userId: user._id }),
      ).toBe(true);
      expect((await usage(server, tokens.access_token)).status).toBe(401);
      const refreshed = await refreshAsPublicClient(
        found.server,
        client.client_id,
        tokens.refresh_token,
        resource,
      );
      expect(refreshed.json).toMatchObject({ error: 'invalid_grant' });
      expect(await listGrants(server.services.oauthArtifacts, user._id)).toEqual([]);
    });
  });

  it('the access token names its signing key, which the JWKS lists', async () => {
    const { tokens } = await connected();
    const { kid } = decodeProtectedHeader(tokens.access_token);
    const jwks = await getJson<{ keys: Array<{ kid: string }> }>(found.server.jwks_uri ?? '');
    expect(jwks.keys.map((key) => key.kid)).toContain(kid);
  });
});
