import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import { DEFAULT_SCOPES } from '../../src/oauth/provider.js';
import { SCOPE_WORDS } from '../../src/pages/scope-words.js';
import { postRaw, toolCallRequest } from '../support/mcp-client.js';
import {
  authorizationUrl,
  type Discovery,
  discover,
  exchangeCode,
  jwtClaims,
  type Pkce,
  pkcePair,
  type RegisteredClient,
  registeredClient,
  tokenSetOf,
} from '../support/oauth-flow.js';
import { createPerson, PERSON_PASSWORD, startOAuthTestServer } from '../support/oauth-server.js';
import { csrfTokenOf, PageClient } from '../support/page-client.js';
import type { TestServer } from '../support/test-server.js';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

/**
 * RFC 6749 §3.3 at the authorization endpoint (docs/authentication.md, "Scopes"): a client that asks
 * for no scope (the conformance suite's authorization-code client does not) is shown the default,
 * the read scopes, and gets them; one that asks for a scope nobody serves gets `invalid_scope`.
 */
describe('the scope an authorization request asks for', () => {
  let server: TestServer;
  let found: Discovery;
  let client: RegisteredClient;

  beforeAll(async () => {
    server = await startOAuthTestServer();
    found = await discover(server.url);
    client = await registeredClient(found.server, {
      client_name: 'Scope test client',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** An authorization request for `client` with `scope` (left out when undefined), from a new browser. */
  function authorize(pkce: Pkce, scope: string | undefined, forClient = client) {
    const page = new PageClient(server.root);
    const url = authorizationUrl(found.server, {
      clientId: forClient.client_id,
      redirectUri: REDIRECT_URI,
      pkce,
      scope: '',
      resource: found.resource.resource,
      state: 'state-2',
      extra: { scope },
    });
    return { page, shown: page.follow(url) };
  }

  /** A new person asks, without a scope, to connect `forClient` and signs in: the browser and the consent page. */
  async function consentWithoutScope(pkce: Pkce, forClient = client) {
    const { person } = await createPerson(server.services);
    const { page, shown } = authorize(pkce, undefined, forClient);
    const signIn = await shown;
    const signedIn = await page.post(signIn.url, {
      csrf_token: csrfTokenOf(signIn),
      email: person.email,
      password: PERSON_PASSWORD,
    });
    return { page, consent: await page.follow(signedIn.location as URL) };
  }

  it('without scope, shows and grants the read scopes, and leads:enrich stays a step-up', async () => {
    expect(DEFAULT_SCOPES).toEqual(SCOPES.filter((scope) => scope !== 'leads:enrich'));
    const pkce = pkcePair();
    const { page, consent } = await consentWithoutScope(pkce);
    expect(consent.status).toBe(200);
    for (const scope of DEFAULT_SCOPES)
      expect(consent.text).toContain(`${SCOPE_WORDS[scope]} (<code>${scope}</code>)`);
    expect(consent.text).not.toContain('leads:enrich');

    const approved = await page.post(consent.url, { csrf_token: csrfTokenOf(consent), decision: 'approve' });
    const home = (await page.follow(approved.location as URL)).location as URL;
    expect(home.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(home.searchParams.get('error')).toBeNull();
    const tokens = tokenSetOf(
      await exchangeCode(found.server, {
        clientId: client.client_id,
        code: home.searchParams.get('code') ?? '',
        redirectUri: REDIRECT_URI,
        verifier: pkce.verifier,
        resource: found.resource.resource,
      }),
    );
    expect(String(jwtClaims(tokens.access_token).scope).split(' ').sort()).toEqual(
      [...DEFAULT_SCOPES].sort(),
    );

    const usage = await postRaw(server.url, toolCallRequest('get_account_usage'), {
      token: tokens.access_token,
      headers: JSON_HEADERS,
    });
    expect(usage.json).toMatchObject({
      result: { structuredContent: { credential: { type: 'oauth', scopes: [...DEFAULT_SCOPES] } } },
    });
    const enrich = await postRaw(server.url, toolCallRequest('enrich_lead', { lead_id: 'ld_0000000000' }), {
      token: tokens.access_token,
      headers: JSON_HEADERS,
    });
    expect(enrich.status).toBe(403);
    expect(enrich.headers.get('www-authenticate')).toContain('scope="leads:enrich"');
    // The same step-up in revision 2026-07-28.
    const enrichModern = await postRaw(
      server.url,
      {
        ...toolCallRequest('enrich_lead', { lead_id: 'ld_0000000000' }),
        params: {
          name: 'enrich_lead',
          arguments: { lead_id: 'ld_0000000000' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      {
        token: tokens.access_token,
        headers: {
          ...JSON_HEADERS,
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': 'enrich_lead',
        },
      },
    );
    expect(enrichModern.status).toBe(403);
  });

  it('refuses a scope this server does not know with invalid_scope, sent back to the client', async () => {
    const { shown } = authorize(pkcePair(), 'leads:read admin');
    const answer = await shown;
    expect(answer.location?.href.startsWith(REDIRECT_URI)).toBe(true);
    const back = answer.location?.searchParams;
    expect(back?.get('error')).toBe('invalid_scope');
    expect(back?.get('error_description')).toContain('"admin"');
    expect(back?.get('state')).toBe('state-2');
  });

  it('gives a client that registered with some scopes only the defaults among them', async () => {
    const narrow = await registeredClient(found.server, {
      client_name: 'Narrow client',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      scope: 'account:read leads:enrich',
    });
    const { consent } = await consentWithoutScope(pkcePair(), narrow);
    expect(consent.text).toContain('(<code>account:read</code>)');
    expect(consent.text).not.toMatch(/<code>(leads:read|leads:enrich|companies:read)<\/code>/);
  });
});
