import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import { describeWithBrowser, useBrowser } from '../support/browser.js';
import { BrowserOAuthClientProvider } from '../support/oauth-client.js';
import { type LoopbackRedirectListener, listenForLoopbackRedirect } from '../support/oauth-flow.js';
import { createPerson, startOAuthTestServer } from '../support/oauth-server.js';
import type { TestServer } from '../support/test-server.js';

describeWithBrowser("The MCP SDK's own OAuth client", () => {
  const browser = useBrowser();
  let server: TestServer;
  let listener: LoopbackRedirectListener;

  beforeAll(async () => {
    server = await startOAuthTestServer();
    listener = await listenForLoopbackRedirect();
  });
  afterAll(async () => {
    await listener?.close();
    await server?.close();
  });

  test('auth() discovers, registers, sends the browser through sign-in and consent, and exchanges the code', async () => {
    const { person } = await createPerson(server.services);
    const provider = new BrowserOAuthClientProvider({ page: await browser.newPage(), person, listener });

    expect(await auth(provider, { serverUrl: server.url })).toBe('REDIRECT');
    const [authorizationUrl] = provider.authorizationUrls;
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl?.searchParams.get('resource')).toBe(server.url);

    expect(
      await auth(provider, { serverUrl: server.url, authorizationCode: await provider.authorizationCode() }),
    ).toBe('AUTHORIZED');
    const tokens = provider.tokens();
    expect(tokens?.access_token).toBeTruthy();
    expect(tokens?.refresh_token).toBeTruthy();

    const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
    const usage = await client.callTool({ name: 'get_account_usage', arguments: {} });
    expect(usage.structuredContent).toMatchObject({
      credential: { type: 'oauth', scopes: expect.arrayContaining([...SCOPES]) },
    });
    await client.close();
  });

  test('the transport asks for authorization on a 401, finishes it with the code, then refreshes a refused token by itself', async () => {
    const { person } = await createPerson(server.services);
    const provider = new BrowserOAuthClientProvider({
      page: await browser.newPage(),
      person,
      listener,
      clientName: 'SDK transport test',
    });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    await transport.finishAuth(await provider.authorizationCode());

    const connected = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await connected.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }),
    );
    expect((await connected.listTools()).tools.map((tool) => tool.name)).toContain('get_account_usage');

    // An access token the server refuses (here: garbled) is replaced through the refresh token.
    const before = provider.tokens();
    provider.saveTokens({ ...(before ?? { token_type: 'Bearer' }), access_token: 'garbled.access.token' });
    const usage = await connected.callTool({ name: 'get_account_usage', arguments: {} });
    expect(usage.isError).toBeFalsy();
    const after = provider.tokens();
    expect(after?.access_token).not.toBe('garbled.access.token');
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    // No second trip through the browser was needed.
    expect(provider.authorizationUrls).toHaveLength(1);
    await connected.close();
  });
});
