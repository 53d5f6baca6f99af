import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BackendProxies, startBackendProxies } from '../support/backend-proxies.js';
import type { RawAnswer } from '../support/mcp-client.js';
import {
  authorizationUrl,
  type Discovery,
  discover,
  exchangeCode,
  pkcePair,
  registerClient,
  registeredClient,
  revokeToken,
} from '../support/oauth-flow.js';
import { createPerson, PERSON_PASSWORD, startOAuthTestServer } from '../support/oauth-server.js';
import { csrfTokenOf, type PageAnswer, PageClient } from '../support/page-client.js';
import type { TestServer } from '../support/test-server.js';

const REDIRECT_URI = 'https://client.example.test/callback';
const PUBLIC_CLIENT = { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' };

/**
 * The authorization server and its pages while MongoDB is cut (through a TCP proxy of this file's
 * server only): every protocol endpoint and page answers a retryable 503 with Retry-After, never a
 * 500, and works again once MongoDB is back, without a restart.
 */
describe('the authorization server during a MongoDB outage', () => {
  let proxies: BackendProxies;
  let server: TestServer;
  let found: Discovery;

  beforeAll(async () => {
    proxies = await startBackendProxies();
    // A short driver timeout: each call during the cut fails within a second.
    server = await startOAuthTestServer({ config: { ...proxies.config, BACKEND_TIMEOUT_MS: '1000' } });
    found = await discover(server.url);
  });
  afterEach(async () => {
    await proxies.restore();
  });
  afterAll(async () => {
    await server?.close();
    await proxies?.close();
  });

  const expectRetryable = (answer: { status: number; headers: Headers }, what: string) => {
    expect(answer.status, what).toBe(503);
    expect(answer.headers.get('retry-after'), what).toBe('5');
  };
  const expectRetryableJson = (answer: RawAnswer, what: string) => {
    expectRetryable(answer, what);
    expect(answer.json, what).toMatchObject({
      error: 'temporarily_unavailable',
      error_description: expect.stringMatching(/retry/i),
    });
  };

  /** A browser that started an authorization and sees the sign-in page. */
  async function browserAtSignIn(clientId: string): Promise<{ page: PageClient; signIn: PageAnswer }> {
    const page = new PageClient(server.root);
    const signIn = await page.follow(
      authorizationUrl(found.server, {
        clientId,
        redirectUri: REDIRECT_URI,
        pkce: pkcePair(),
        scope: 'leads:read',
        resource: found.resource.resource,
      }),
    );
    expect(signIn.url.pathname).toMatch(/^\/interaction\//);
    return { page, signIn };
  }

  it('registration, token and revocation answer 503 temporarily_unavailable with Retry-After; restored, they work', async () => {
    const client = await registeredClient(found.server, PUBLIC_CLIENT);
    await proxies.mongo.cut();
    expectRetryableJson(await registerClient(found.server, PUBLIC_CLIENT), 'registration');
    expectRetryableJson(
      await exchangeCode(found.server, {
        clientId: client.client_id,
        code: 'a-code',
        redirectUri: REDIRECT_URI,
        verifier: pkcePair().verifier,
        resource: found.resource.resource,
      }),
      'token',
    );
    expectRetryableJson(
      await revokeToken(found.server, { clientId: client.client_id, token: 'a-token' }),
      'revocation',
    );

    await proxies.restore();
    expect((await registerClient(found.server, PUBLIC_CLIENT)).status).toBe(201);
    const revoked = await revokeToken(found.server, { clientId: client.client_id, token: 'a-token' });
    expect(revoked.status).toBe(200);
  });

  it('the authorization endpoint and the sign-in page answer a 503 page with Retry-After; restored, sign-in goes on', async () => {
    const client = await registeredClient(found.server, PUBLIC_CLIENT);
    const { person } = await createPerson(server.services);
    const { page, signIn } = await browserAtSignIn(client.client_id);
    await proxies.mongo.cut();

    const authorization = await new PageClient(server.root).get(
      authorizationUrl(found.server, {
        clientId: client.client_id,
        redirectUri: REDIRECT_URI,
        pkce: pkcePair(),
        scope: 'leads:read',
        resource: found.resource.resource,
      }),
    );
    expectRetryable(authorization, 'authorization');
    expect(authorization.location, 'authorization').toBeUndefined();
    expect(authorization.text).toContain('temporarily_unavailable');

    expectRetryable(await page.get(signIn.url), 'sign-in page');
    const submitted = await page.post(signIn.url, {
      csrf_token: csrfTokenOf(signIn),
      email: person.email,
      password: PERSON_PASSWORD,
    });
    expectRetryable(submitted, 'sign-in form');
    expect(submitted.text).toMatch(/Temporarily unavailable/);

    await proxies.restore();
    const signedIn = await page.post(signIn.url, {
      csrf_token: csrfTokenOf(signIn),
      email: person.email,
      password: PERSON_PASSWORD,
    });
    expect(signedIn.status).toBe(303);
  });
});
