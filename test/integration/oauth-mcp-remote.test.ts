import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import { completeAuthorization, describeWithBrowser, useBrowser, watchRedirect } from '../support/browser.js';
import { type BrowserShim, installBrowserShim, retryLoopbackCallback } from '../support/browser-shim.js';
import { createPerson, freePort, startOAuthTestServer } from '../support/oauth-server.js';
import type { TestServer } from '../support/test-server.js';

/**
 * `mcp-remote` (the stdio bridge desktop clients run) as a child process speaking stdio, as Claude
 * Desktop or Cursor start it: `npx mcp-remote <url> <callback port> --transport http-only`. It
 * opens "the browser" through the shim, which hands the URL to this file's Chromium.
 */
describeWithBrowser('mcp-remote end to end', () => {
  const browser = useBrowser();
  let server: TestServer;
  let home: string;
  let shim: BrowserShim;
  /**
   * The loopback port mcp-remote's sign-in listens on, given as its second argument. Left to itself
   * it derives one from the server's address, which may be a port another process holds; once its
   * fallback listened on the next port while the redirect still named the first, and the sign-in
   * timed out.
   */
  let callbackPort: number;
  const started: Client[] = [];

  beforeAll(async () => {
    server = await startOAuthTestServer();
    callbackPort = await freePort();
    // Its own HOME: mcp-remote keeps registrations and tokens in ~/.mcp-auth, private to this test.
    home = await mkdtemp(path.join(tmpdir(), 'hl-mcp-remote-'));
    shim = await installBrowserShim(home);
  });
  afterAll(async () => {
    // A failed run leaves no mcp-remote process behind.
    await Promise.all(started.map((client) => client.close().catch(() => undefined)));
    await shim?.close();
    await server?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** A client over a new mcp-remote process; `connect()` starts it. */
  function mcpRemote() {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no-install', 'mcp-remote', server.url, String(callbackPort), '--transport', 'http-only'],
      cwd: process.cwd(),
      env: { HOME: home, PATH: `${shim.binDir}:${process.env.PATH}`, BROWSER: shim.command },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'desktop-client-via-mcp-remote', version: '1.0.0' });
    started.push(client);
    return {
      client,
      connect: () =>
        client.connect(transport).catch((error: unknown) => {
          throw new Error(`mcp-remote failed: ${String(error)}\n${stderr}`);
        }),
      stderr: () => stderr,
    };
  }

  test('signs in through the browser on first use, calls tools, and reuses its stored tokens on the next start', async () => {
    const { person } = await createPerson(server.services);
    const page = await browser.newPage();

    const first = mcpRemote();
    const connected = first.connect();
    const authorizationUrl = await Promise.race([
      shim.nextUrl(),
      connected.then(() => {
        throw new Error(`mcp-remote connected without signing in:\n${first.stderr()}`);
      }),
    ]);
    const redirectUri = authorizationUrl.searchParams.get('redirect_uri') ?? '';
    expect(new URL(redirectUri).hostname).toMatch(/^(localhost|127\.0\.0\.1)$/);
    expect(new URL(redirectUri).port).toBe(String(callbackPort));
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    await retryLoopbackCallback(page, redirectUri);
    const redirect = await watchRedirect(page, redirectUri);
    await page.goto(authorizationUrl.href);
    const callback = await completeAuthorization(page, person, redirect.url);
    expect(callback.searchParams.get('code')).toBeTruthy();
    await connected;

    const usage = await first.client.callTool({ name: 'get_account_usage', arguments: {} });
    expect(usage.structuredContent).toMatchObject({
      credential: { type: 'oauth', scopes: expect.arrayContaining([...SCOPES]) },
    });
    await first.client.close();
    expect(await readdir(path.join(home, '.mcp-auth'))).not.toHaveLength(0);

    // A second start (the desktop app restarted) needs no browser: the stored tokens are used.
    const second = mcpRemote();
    await second.connect();
    const again = await second.client.callTool({ name: 'get_account_usage', arguments: {} });
    expect(again.structuredContent).toMatchObject({ credential: { type: 'oauth' } });
    await second.client.close();
    expect(shim.openedCount()).toBe(1);
  });
});
