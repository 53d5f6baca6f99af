import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import { authorizeInBrowser, describeWithBrowser, useBrowser } from '../support/browser.js';
import {
  type ClientMetadataServer,
  fetchTrusting,
  startClientMetadataServer,
} from '../support/client-metadata-server.js';
import { callToolRaw } from '../support/mcp-client.js';
import { BrowserOAuthClientProvider } from '../support/oauth-client.js';
import {
  authorizationUrl,
  type Discovery,
  discover,
  exchangeCode,
  jwtClaims,
  type LoopbackRedirectListener,
  listenForLoopbackRedirect,
  pkcePair,
  type RegisteredClient,
  refreshTokens,
  registerClient,
  tokenSetOf,
} from '../support/oauth-flow.js';
import { createPerson, startOAuthTestServer } from '../support/oauth-server.js';
import type { TestServer } from '../support/test-server.js';

/**
 * The clients that cannot run here, registering exactly as they do (their published or observed
 * registration requests), then authorizing once each: loopback redirects land on a listener of
 * this test's for real; https and private-use ones are caught at the redirect's Location.
 */
interface ClientShape {
  client: string;
  registration(discovery: Discovery): Record<string, unknown>;
  /** The redirect URI it authorizes with (a loopback one on this test's listener port). */
  redirectUri(listeners: Listeners): string;
  /** Whether the browser really lands on a listener of this test. */
  loopback?: keyof Listeners;
}

interface Listeners {
  vscode: LoopbackRedirectListener;
  inspector: LoopbackRedirectListener;
  mcpRemote: LoopbackRedirectListener;
}

const PUBLIC_CLIENT = {
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};

const SHAPES: ClientShape[] = [
  {
    client: 'Claude.ai',
    registration: () => ({
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
      ...PUBLIC_CLIENT,
    }),
    redirectUri: () => 'https://claude.ai/api/mcp/auth_callback',
  },
  {
    client: 'Claude (claude.com)',
    registration: () => ({
      client_name: 'Claude',
      redirect_uris: ['https://claude.com/api/mcp/auth_callback'],
      ...PUBLIC_CLIENT,
    }),
    redirectUri: () => 'https://claude.com/api/mcp/auth_callback',
  },
  {
    client: 'ChatGPT',
    registration: () => ({
      client_name: 'ChatGPT',
      redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect'],
      ...PUBLIC_CLIENT,
    }),
    redirectUri: () => 'https://chatgpt.com/connector_platform_oauth_redirect',
  },
  {
    // Several redirect URIs in one request, a private-use scheme among them, no application_type.
    client: 'Cursor',
    registration: () => ({
      client_name: 'Cursor',
      redirect_uris: [
        'cursor://anysphere.cursor-mcp/oauth/callback',
        'https://www.cursor.com/agents/mcp/oauth/callback',
      ],
      ...PUBLIC_CLIENT,
    }),
    redirectUri: () => 'cursor://anysphere.cursor-mcp/oauth/callback',
  },
  {
    // VS Code's request, field for field: a fixed port and a port-less loopback, used with a random port.
    client: 'VS Code',
    registration: (discovery) => ({
      client_name: 'Visual Studio Code',
      client_uri: 'https://code.visualstudio.com',
      grant_types: (discovery.server.grant_types_supported ?? []).filter((grant) =>
        ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'].includes(
          grant,
        ),
      ),
      response_types: ['code'],
      redirect_uris: [
        'https://insiders.vscode.dev/redirect',
        'https://vscode.dev/redirect',
        'http://127.0.0.1/',
        'http://127.0.0.1:33418/',
      ],
      scope: (discovery.resource.scopes_supported ?? []).join(' '),
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    }),
    redirectUri: (listeners) => listeners.vscode.redirectUri,
    loopback: 'vscode',
  },
  {
    client: 'VS Code (web)',
    registration: () => ({
      client_name: 'Visual Studio Code',
      client_uri: 'https://code.visualstudio.com',
      redirect_uris: [
        'https://insiders.vscode.dev/redirect',
        'https://vscode.dev/redirect',
        'http://127.0.0.1/',
      ],
      ...PUBLIC_CLIENT,
      application_type: 'native',
    }),
    redirectUri: () => 'https://vscode.dev/redirect',
  },
  {
    // Registered on its default port 6274, used on this test's port: loopback ports do not count.
    client: 'MCP Inspector',
    registration: () => ({
      client_name: 'MCP Inspector',
      client_uri: 'https://github.com/modelcontextprotocol/inspector',
      redirect_uris: ['http://localhost:6274/oauth/callback', 'http://localhost:6274/oauth/callback/debug'],
      ...PUBLIC_CLIENT,
    }),
    redirectUri: (listeners) => listeners.inspector.redirectUri,
    loopback: 'inspector',
  },
  {
    client: 'mcp-remote',
    registration: (discovery) => ({
      redirect_uris: [`http://localhost:18330/oauth/callback`],
      ...PUBLIC_CLIENT,
      client_name: 'MCP CLI Client',
      client_uri: 'https://github.com/modelcontextprotocol/mcp-cli',
      software_id: '2e6dc280-f3c3-4e01-99a7-8181dbd1d23d',
      software_version: '0.15.1',
      scope: (discovery.resource.scopes_supported ?? []).join(' '),
    }),
    redirectUri: (listeners) => listeners.mcpRemote.redirectUri,
    loopback: 'mcpRemote',
  },
];

describeWithBrowser('Registration and authorization shaped like each MCP client', () => {
  const browser = useBrowser();
  let server: TestServer;
  let found: Discovery;
  let listeners: Listeners;

  beforeAll(async () => {
    server = await startOAuthTestServer();
    found = await discover(server.url);
    listeners = {
      vscode: await listenForLoopbackRedirect({ path: '/' }),
      inspector: await listenForLoopbackRedirect({ path: '/oauth/callback', host: 'localhost' }),
      mcpRemote: await listenForLoopbackRedirect({ path: '/oauth/callback', host: 'localhost' }),
    };
  });
  afterAll(async () => {
    await Promise.all(Object.values(listeners ?? {}).map((listener) => listener.close()));
    await server?.close();
  });

  test.each(
    SHAPES,
  )('$client registers, signs in, consents, and its code is exchanged for a working token', async (shape) => {
    const registration = shape.registration(found);
    const answer = await registerClient(found.server, registration);
    expect(answer.status, answer.text).toBe(201);
    const client = answer.json as RegisteredClient;
    expect(client.redirect_uris).toEqual(registration.redirect_uris);
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client).not.toHaveProperty('client_secret');

    const { account, person } = await createPerson(server.services);
    const redirectUri = shape.redirectUri(listeners);
    const pkce = pkcePair();
    const state = `state-${shape.client}`;
    const page = await browser.newPage();
    const landed = shape.loopback && listeners[shape.loopback].nextRedirect();
    const redirect = await authorizeInBrowser(
      page,
      authorizationUrl(found.server, {
        clientId: client.client_id,
        redirectUri,
        pkce,
        scope: SCOPES.join(' '),
        resource: found.resource.resource,
        state,
      }),
      person,
      redirectUri,
    );
    expect(redirect.href.startsWith(redirectUri)).toBe(true);
    expect(redirect.searchParams.get('state')).toBe(state);
    expect(redirect.searchParams.get('iss')).toBe(server.config.BASE_URL);
    if (landed) expect((await landed).searchParams.get('code')).toBe(redirect.searchParams.get('code'));

    const tokens = tokenSetOf(
      await exchangeCode(found.server, {
        clientId: client.client_id,
        code: redirect.searchParams.get('code') ?? '',
        redirectUri,
        verifier: pkce.verifier,
        resource: found.resource.resource,
      }),
    );
    expect(jwtClaims(tokens.access_token).account_id).toBe(account._id);
    const usage = await callToolRaw(server.url, tokens.access_token, 'get_account_usage');
    expect(usage.structuredContent).toMatchObject({ credential: { type: 'oauth' } });
  });

  // Claude.ai's hosted connector registers as a confidential client (anthropics/claude-ai-mcp#1043):
  // it gets a secret, must present it in the form at the token endpoint, and uses PKCE all the same.
  test('Claude.ai registering with client_secret_post gets a secret; its code is exchanged only with it', async () => {
    const redirectUri = 'https://claude.ai/api/mcp/auth_callback';
    const answer = await registerClient(found.server, {
      client_name: 'Claude',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(answer.status, answer.text).toBe(201);
    const client = answer.json as RegisteredClient;
    expect(client.token_endpoint_auth_method).toBe('client_secret_post');
    const secret = client.client_secret ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(43);
    expect(client).toMatchObject({ client_secret_expires_at: 0 });

    const resource = found.resource.resource;
    const withoutPkce = await fetch(
      authorizationUrl(found.server, {
        clientId: client.client_id,
        redirectUri,
        pkce: pkcePair(),
        scope: SCOPES.join(' '),
        resource,
        extra: { code_challenge: undefined, code_challenge_method: undefined },
      }),
      { redirect: 'manual' },
    );
    expect(new URL(withoutPkce.headers.get('location') ?? '').searchParams.get('error')).toBe(
      'invalid_request',
    );

    const { account, person } = await createPerson(server.services);
    const pkce = pkcePair();
    const redirect = await authorizeInBrowser(
      await browser.newPage(),
      authorizationUrl(found.server, {
        clientId: client.client_id,
        redirectUri,
        pkce,
        scope: SCOPES.join(' '),
        resource,
      }),
      person,
      redirectUri,
    );
    const exchange = {
      clientId: client.client_id,
      code: redirect.searchParams.get('code') ?? '',
      redirectUri,
      verifier: pkce.verifier,
      resource,
    };
    const withoutSecret = await exchangeCode(found.server, exchange);
    expect(withoutSecret.status).toBe(401);
    expect(withoutSecret.json).toMatchObject({ error: 'invalid_client' });
    expect(withoutSecret.json).not.toHaveProperty('access_token');

    const clientAuth = { method: 'client_secret_post', secret } as const;
    const tokens = tokenSetOf(await exchangeCode(found.server, { ...exchange, clientAuth }));
    expect(jwtClaims(tokens.access_token).account_id).toBe(account._id);
    const usage = await callToolRaw(server.url, tokens.access_token, 'get_account_usage');
    expect(usage.structuredContent).toMatchObject({ credential: { type: 'oauth' } });

    // Refreshing needs the secret too.
    const refresh = { clientId: client.client_id, refreshToken: tokens.refresh_token ?? '', resource };
    expect((await refreshTokens(found.server, refresh)).json).toMatchObject({ error: 'invalid_client' });
    tokenSetOf(await refreshTokens(found.server, { ...refresh, clientAuth }));
  });

  test("the Inspector's web UI may call metadata, registration and token endpoints from its own origin (CORS)", async () => {
    const origin = 'http://localhost:6274';
    for (const url of [
      found.resourceMetadataUrl,
      `${server.config.BASE_URL}/.well-known/oauth-authorization-server`,
    ]) {
      const response = await fetch(url, { headers: { Origin: origin } });
      expect(response.headers.get('access-control-allow-origin'), url).toMatch(
        /^(\*|http:\/\/localhost:6274)$/,
      );
    }
    const preflight = await fetch(found.server.registration_endpoint ?? '', {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/localhost:6274)$/);

    // The token endpoint answers the Inspector's origin once it is a registered client's redirect origin.
    const registered = await registerClient(found.server, {
      client_name: 'MCP Inspector',
      redirect_uris: ['http://localhost:6274/oauth/callback'],
      ...PUBLIC_CLIENT,
    });
    const clientId = (registered.json as RegisteredClient).client_id;
    const token = await fetch(found.server.token_endpoint, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: 'not-a-code',
        redirect_uri: 'http://localhost:6274/oauth/callback',
        code_verifier: pkcePair().verifier,
      }),
    });
    expect(token.status).toBe(400);
    expect(token.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/localhost:6274)$/);
  });

  test('redirect URIs outside https, loopback http and private-use schemes are refused at registration, naming the URI', async () => {
    for (const uri of [
      'http://claude.ai/api/mcp/auth_callback',
      'http://192.168.1.10/callback',
      'javascript:alert(1)',
      'data:text/html,hi',
      'file:///etc/passwd',
      'https://claude.ai/api/mcp/auth_callback#fragment',
    ]) {
      const answer = await registerClient(found.server, {
        client_name: 'Bad',
        redirect_uris: [uri],
        ...PUBLIC_CLIENT,
      });
      expect({ uri, status: answer.status, error: (answer.json as { error?: string }).error }).toEqual({
        uri,
        status: 400,
        error: 'invalid_redirect_uri',
      });
    }
  });
});

describeWithBrowser('A client identified by a Client ID Metadata Document', () => {
  const browser = useBrowser();
  let documents: ClientMetadataServer;
  let listener: LoopbackRedirectListener;

  beforeAll(async () => {
    documents = await startClientMetadataServer();
    listener = await listenForLoopbackRedirect();
  });
  afterAll(async () => {
    await listener?.close();
    await documents?.close();
  });

  function publishDocument(pathname: string): string {
    return documents.publish(pathname, {
      client_name: 'Metadata document client',
      client_uri: documents.origin,
      redirect_uris: [listener.redirectUri],
      ...PUBLIC_CLIENT,
    });
  }

  describe('in local development, where documents may come from this machine', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startOAuthTestServer({
        config: { NODE_ENV: 'development' },
        oauthFetch: fetchTrusting(documents.certificate),
      });
    });
    afterAll(() => server?.close());

    test('the SDK client signs in with its document URL as client_id, never registering', async () => {
      const { account, person } = await createPerson(server.services);
      const clientId = publishDocument('/clients/sdk.json');
      const discovery = await discover(server.url);
      expect(discovery.server.client_id_metadata_document_supported).toBe(true);

      const provider = new BrowserOAuthClientProvider({
        page: await browser.newPage(),
        person,
        listener,
        clientName: 'Metadata document client',
        clientMetadataUrl: clientId,
      });
      expect(await auth(provider, { serverUrl: server.url })).toBe('REDIRECT');
      expect(provider.authorizationUrls[0]?.searchParams.get('client_id')).toBe(clientId);
      expect(
        await auth(provider, {
          serverUrl: server.url,
          authorizationCode: await provider.authorizationCode(),
        }),
      ).toBe('AUTHORIZED');
      expect(documents.fetches('/clients/sdk.json')).toBeGreaterThan(0);
      // Its client_id is the document's URL: no registration took place.
      expect(provider.clientInformation()?.client_id).toBe(clientId);

      const accessToken = provider.tokens()?.access_token ?? '';
      expect(jwtClaims(accessToken).account_id).toBe(account._id);
      const usage = await callToolRaw(server.url, accessToken, 'get_account_usage');
      expect(usage.structuredContent).toMatchObject({ credential: { type: 'oauth' } });
    });

    test("the document's redirect URIs are enforced", async () => {
      const clientId = publishDocument('/clients/strict.json');
      const discovery = await discover(server.url);
      const answer = await fetch(
        authorizationUrl(discovery.server, {
          clientId,
          redirectUri: 'https://evil.example/callback',
          pkce: pkcePair(),
          scope: SCOPES.join(' '),
          resource: discovery.resource.resource,
        }),
        { redirect: 'manual' },
      );
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(await answer.text()).toMatch(/redirect_uri/);
    });
  });

  test('outside development a document on a private address is refused, never fetched', async () => {
    const server = await startOAuthTestServer({ oauthFetch: fetchTrusting(documents.certificate) });
    try {
      const clientId = publishDocument('/clients/private.json');
      const discovery = await discover(server.url);
      const page = await browser.newPage();
      const response = await page.goto(
        authorizationUrl(discovery.server, {
          clientId,
          redirectUri: listener.redirectUri,
          pkce: pkcePair(),
          scope: SCOPES.join(' '),
          resource: discovery.resource.resource,
        }).href,
      );
      expect(response?.status()).toBe(400);
      expect(new URL(page.url()).origin).toBe(server.config.BASE_URL);
      expect(await page.locator('body').innerText()).toMatch(/invalid_client/);
      expect(documents.fetches('/clients/private.json')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
