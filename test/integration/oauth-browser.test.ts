import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import {
  answerConsent,
  authorizeInBrowser,
  completeAuthorization,
  describeWithBrowser,
  signIn,
  useBrowser,
  watchRedirect,
} from '../support/browser.js';
import { accountUsageAnswer, callToolRaw } from '../support/mcp-client.js';
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
  refreshAsPublicClient,
  registeredClient,
  revokeToken,
  tokenSetOf,
} from '../support/oauth-flow.js';
import { createPerson, startOAuthTestServer } from '../support/oauth-server.js';
import type { TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/** What `/mcp` answers a bearer credential: 200 with a result, or the refusal. */
const mcpStatus = async (server: TestServer, credential: string): Promise<number> =>
  (await accountUsageAnswer(server.url, credential)).status;

describeWithBrowser('OAuth in a real browser (Chromium)', () => {
  const browser = useBrowser();
  let server: TestServer;
  let listener: LoopbackRedirectListener;
  let found: Discovery;

  beforeAll(async () => {
    server = await startOAuthTestServer();
    listener = await listenForLoopbackRedirect();
    found = await discover(server.url);
  });
  afterAll(async () => {
    await listener?.close();
    await server?.close();
  });

  /** A public client registered as a native app with a loopback redirect, the commonest shape. */
  function registerLoopbackClient(name: string): Promise<RegisteredClient> {
    return registeredClient(found.server, {
      client_name: name,
      redirect_uris: [listener.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  }

  /** The authorization request a client sends for every scope of this server's one resource. */
  function authorizationFor(
    clientId: string,
    options: { redirectUri?: string; pkce?: ReturnType<typeof pkcePair>; state?: string } = {},
  ): URL {
    return authorizationUrl(found.server, {
      clientId,
      redirectUri: options.redirectUri ?? listener.redirectUri,
      pkce: options.pkce ?? pkcePair(),
      scope: SCOPES.join(' '),
      resource: found.resource.resource,
      ...(options.state !== undefined && { state: options.state }),
    });
  }

  /** Registration, sign-in and consent in `page`, code exchange: the tokens a client ends up with. */
  async function connectApp(page: Page, person: { email: string; password: string }, name: string) {
    const client = await registerLoopbackClient(name);
    const pkce = pkcePair();
    const resource = found.resource.resource;
    const url = authorizationFor(client.client_id, { pkce });
    const redirect = await authorizeInBrowser(page, url, person, listener.redirectUri);
    await listener.nextRedirect();
    const code = redirect.searchParams.get('code') ?? '';
    const tokens = tokenSetOf(
      await exchangeCode(found.server, {
        clientId: client.client_id,
        code,
        redirectUri: listener.redirectUri,
        verifier: pkce.verifier,
        resource,
      }),
    );
    return { client, tokens };
  }

  test('from a 401 to a tool call: discovery, registration, sign-in, consent, code, tokens, refresh, revocation', async () => {
    const { account, person } = await createPerson(server.services);
    const { BASE_URL } = server.config;

    // Discovery, as every client does it: the 401's WWW-Authenticate names the resource metadata.
    expect(found.challenge).toMatch(/^Bearer /);
    expect(found.resourceMetadataUrl.startsWith(`${BASE_URL}/.well-known/oauth-protected-resource`)).toBe(
      true,
    );
    expect(found.resource.resource).toBe(`${BASE_URL}/mcp`);
    expect(found.resource.authorization_servers).toEqual([BASE_URL]);
    expect(found.server.issuer).toBe(BASE_URL);
    expect(found.server.code_challenge_methods_supported).toEqual(['S256']);
    expect(found.server.response_types_supported).toEqual(['code']);
    expect(found.server.token_endpoint_auth_methods_supported).toContain('none');

    const client = await registerLoopbackClient('Browser flow test');
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client).not.toHaveProperty('client_secret');

    const pkce = pkcePair();
    const state = 'state-of-the-browser-flow';
    const resource = found.resource.resource;
    const page = await browser.newPage();
    const arrived = listener.nextRedirect();
    await page.goto(authorizationFor(client.client_id, { pkce, state }).href);
    await signIn(page, person);

    // The consent page names the client, where it sends the person back, and each scope; enrich is marked.
    await page.getByRole('button', { name: /allow|approve|authori[sz]e/i }).waitFor();
    const consent = await page.locator('main').innerText();
    expect(consent).toContain('Browser flow test');
    expect(consent).toContain('127.0.0.1');
    expect(consent).toContain('leads:enrich');
    expect(consent).toMatch(/spends credits/i);
    await answerConsent(page, 'approve');

    const redirect = await arrived;
    expect(redirect.searchParams.get('state')).toBe(state);
    expect(redirect.searchParams.get('iss')).toBe(BASE_URL);
    const code = redirect.searchParams.get('code');
    expect(code).toBeTruthy();

    const tokens = tokenSetOf(
      await exchangeCode(found.server, {
        clientId: client.client_id,
        code: code ?? '',
        redirectUri: listener.redirectUri,
        verifier: pkce.verifier,
        resource,
      }),
    );
    expect(tokens.token_type).toMatch(/^bearer$/i);
    expect(tokens.refresh_token).toBeTruthy();
    expect(jwtClaims(tokens.access_token)).toMatchObject({
      iss: BASE_URL,
      aud: `${BASE_URL}/mcp`,
      account_id: account._id,
    });

    const usage = await callToolRaw(server.url, tokens.access_token, 'get_account_usage');
    expect(usage.structuredContent).toMatchObject({
      credential: { type: 'oauth', scopes: expect.arrayContaining([...SCOPES]) },
    });

    // Refresh rotates the refresh token; the new access token works.
    const refreshed = tokenSetOf(
      await refreshAsPublicClient(found.server, client.client_id, tokens.refresh_token, resource),
    );
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await mcpStatus(server, refreshed.access_token)).toBe(200);

    // Revoking the refresh token ends the grant: its access tokens are refused, it refreshes no more.
    const revocation = await revokeToken(found.server, {
      clientId: client.client_id,
      token: refreshed.refresh_token ?? '',
      tokenTypeHint: 'refresh_token',
    });
    expect(revocation.status).toBe(200);
    await until(async () => (await mcpStatus(server, refreshed.access_token)) === 401);
    const afterRevocation = await refreshAsPublicClient(
      found.server,
      client.client_id,
      refreshed.refresh_token,
      resource,
    );
    expect(afterRevocation.status).toBe(400);
    expect(afterRevocation.json).toMatchObject({ error: 'invalid_grant' });
  });

  test('denying on the consent page sends the client access_denied and no code', async () => {
    const { person } = await createPerson(server.services);
    const client = await registerLoopbackClient('Denied app');
    const page = await browser.newPage();
    const arrived = listener.nextRedirect();
    await page.goto(authorizationFor(client.client_id).href);
    await signIn(page, person);
    await answerConsent(page, 'deny');
    const redirect = await arrived;
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.has('code')).toBe(false);
  });

  test('sign-up makes a free account whose person lands on the account page, signed in, whatever return_to says', async () => {
    const page = await browser.newPage();
    const email = `signup-${Date.now()}@example.test`;
    // A link from another site may carry a return_to of its own: it must not become an open redirect.
    await page.goto(
      `${server.config.BASE_URL}/signup?return_to=${encodeURIComponent('https://evil.example/steal')}`,
    );
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByLabel(/password/i).fill('a long enough password');
    await page.getByRole('button', { name: /create account|sign up/i }).click();
    await page.getByRole('heading', { name: /your account/i }).waitFor();
    expect(new URL(page.url()).origin).toBe(server.config.BASE_URL);
    expect(await page.locator('main').innerText()).toMatch(/free/);

    const user = await server.services.users.findByEmail(email);
    const account = await server.services.accounts.findById(user?.account_id ?? '');
    expect(account?.plan).toBe('free');
  });

  test('on the account page a key is created, shown once, works on /mcp, and stops working when revoked', async () => {
    const { account, person } = await createPerson(server.services);
    const page = await browser.newPage();
    await page.goto(`${server.config.BASE_URL}/account`);
    await signIn(page, person);
    await page.getByRole('heading', { name: /your account/i }).waitFor();
    await page.getByRole('button', { name: /create key/i }).click();

    const key = await page.getByLabel(/api key/i).inputValue();
    expect(await page.locator('main').innerText()).toMatch(/shown only this once/i);
    expect(await mcpStatus(server, key)).toBe(200);
    const [record] = await server.services.apiKeys.listForAccount(account._id);
    expect(record?.prefix).toBeTruthy();

    // The account page lists it by prefix only: the key itself is never shown again.
    await page.goto(`${server.config.BASE_URL}/account`);
    const listing = await page.locator('main').innerText();
    expect(listing).toContain(record?.prefix ?? '');
    expect(listing).not.toContain(key);

    await page.getByRole('button', { name: new RegExp(`revoke key ${record?.prefix}`, 'i') }).click();
    await page.getByRole('heading', { name: /your account/i }).waitFor();
    expect(await page.locator('main').innerText()).not.toContain(record?.prefix ?? '');
    expect(await mcpStatus(server, key)).toBe(401);
  });

  test('disconnecting an app on the account page stops its access token and its refresh token', async () => {
    const { person } = await createPerson(server.services);
    const page = await browser.newPage();
    const { client, tokens } = await connectApp(page, person, 'App to disconnect');
    expect(await mcpStatus(server, tokens.access_token)).toBe(200);

    await page.goto(`${server.config.BASE_URL}/account`);
    if (await page.getByLabel(/password/i).isVisible()) await signIn(page, person);
    const apps = page.getByRole('region', { name: /connected apps/i });
    expect(await apps.innerText()).toContain('App to disconnect');
    await page.getByRole('button', { name: /disconnect app to disconnect/i }).click();
    await page.getByRole('heading', { name: /your account/i }).waitFor();
    expect(await page.getByRole('region', { name: /connected apps/i }).innerText()).not.toContain(
      'App to disconnect',
    );

    await until(async () => (await mcpStatus(server, tokens.access_token)) === 401);
    const refresh = await refreshAsPublicClient(
      found.server,
      client.client_id,
      tokens.refresh_token,
      found.resource.resource,
    );
    expect(refresh.status).toBe(400);
  });

  describe('attacks from the browser side', () => {
    /** A page of another site (another origin) that the victim's browser opens. */
    let attacker: { origin: string; serve(html: string): void; close(): Promise<void> };

    beforeAll(async () => {
      let body = '';
      const site = http.createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' }).end(body);
      });
      // localhost is another site than 127.0.0.1 to a browser: a cross-site request in every sense.
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      attacker = {
        origin: `http://localhost:${(site.address() as AddressInfo).port}`,
        serve: (html) => {
          body = html;
        },
        close: () => new Promise((resolve) => site.close(() => resolve())),
      };
    });
    afterAll(() => attacker?.close());

    /** An authorization under way in the victim's browser, stopped at the sign-in page. */
    async function interactionAtSignIn(page: Page, clientName: string) {
      const client = await registerLoopbackClient(clientName);
      await page.goto(authorizationFor(client.client_id).href);
      await page.getByLabel(/password/i).waitFor();
      return new URL(page.url());
    }

    /** Another site's page that posts `fields` to `action` as soon as it loads. */
    function autoSubmittingForm(action: string, fields: Record<string, string>): string {
      const inputs = Object.entries(fields)
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
        .join('');
      return `<form id="f" method="post" action="${action}">${inputs}</form><script>document.getElementById('f').submit()</script>`;
    }

    test('a sign-in form posted from another site, without the form token, signs no one in', async () => {
      const { person } = await createPerson(server.services);
      const page = await browser.newPage();
      const signInPage = await interactionAtSignIn(page, 'CSRF sign-in target');
      const answers: number[] = [];
      page.on('response', (response) => {
        if (response.url() === signInPage.href && response.request().method() === 'POST') {
          answers.push(response.status());
        }
      });
      attacker.serve(autoSubmittingForm(signInPage.href, { email: person.email, password: person.password }));
      await page.goto(`${attacker.origin}/`);
      await until(() => answers.length > 0);
      expect(answers[0]).toBeGreaterThanOrEqual(400);
      expect(answers[0]).toBeLessThan(500);
      // Nothing went on from there: no consent page, no redirect to the client.
      expect(await page.getByRole('button', { name: /allow|approve|authori[sz]e/i }).count()).toBe(0);

      // Not only SameSite: the same post with the browser's own cookies but no token is refused too.
      const sameSite = await page.request.post(signInPage.href, {
        form: { email: person.email, password: person.password },
        maxRedirects: 0,
      });
      expect(sameSite.status()).toBe(403);
    });

    test('a consent approval posted from another site, without the form token, issues no code', async () => {
      const { person } = await createPerson(server.services);
      const page = await browser.newPage();
      await interactionAtSignIn(page, 'CSRF consent target');
      await signIn(page, person);
      const approve = page.getByRole('button', { name: /allow|approve|authori[sz]e/i });
      await approve.waitFor();
      const consentForm = approve.locator('xpath=ancestor::form');
      const action = new URL((await consentForm.getAttribute('action')) ?? page.url(), page.url()).href;
      const fieldName = (await approve.getAttribute('name')) ?? 'decision';
      const fieldValue = (await approve.getAttribute('value')) ?? 'approve';

      const codes: string[] = [];
      page.on('response', (response) => {
        const location = response.headers().location;
        if (location?.startsWith(listener.redirectUri) && new URL(location).searchParams.has('code')) {
          codes.push(location);
        }
      });
      const answer = page.waitForResponse(
        (response) => response.url() === action && response.request().method() === 'POST',
      );
      attacker.serve(autoSubmittingForm(action, { [fieldName]: fieldValue }));
      await page.goto(`${attacker.origin}/`);
      const status = (await answer).status();
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      const sameSite = await page.request.post(action, {
        form: { [fieldName]: fieldValue },
        maxRedirects: 0,
      });
      expect(sameSite.status()).toBe(403);
      expect(codes).toEqual([]);
    });

    test('the sign-in and account pages refuse to be framed by another site', async () => {
      const page = await browser.newPage();
      const signInPage = await interactionAtSignIn(page, 'Framing target');
      for (const url of [signInPage.href, `${server.config.BASE_URL}/account`]) {
        const response = await fetch(url);
        expect(response.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
        expect(response.headers.get('x-frame-options')).toBe('DENY');
      }
      attacker.serve(`<iframe src="${server.config.BASE_URL}/account" width="600" height="400"></iframe>`);
      await page.goto(`${attacker.origin}/`);
      const framed = page.frames().find((frame) => frame !== page.mainFrame());
      // Chromium blocks the document: the frame holds an error page, never the sign-in form.
      await page.waitForLoadState('load');
      expect(await framed?.locator('input[type=password]').count()).toBe(0);
    });

    test('an unregistered redirect URI or a look-alike of a registered one is refused on our own page, never redirected to', async () => {
      const registered = 'https://claude.ai/api/mcp/auth_callback';
      const client = await registeredClient(found.server, {
        client_name: 'Look-alike target',
        redirect_uris: [registered],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      });
      const attempts = [
        'https://evil.example/api/mcp/auth_callback',
        'https://claude.ai.evil.example/api/mcp/auth_callback',
        'https://claude.ai@evil.example/api/mcp/auth_callback',
        'https://claude.ai/api/mcp/auth_callback/../../evil',
        'https://claude.ai/api/mcp/auth_callback?next=https://evil.example',
        'https://claude.ai/api/mcp/auth_callback.evil.example',
        'https://CLAUDE.ai/api/mcp/AUTH_CALLBACK',
        'http://claude.ai/api/mcp/auth_callback',
        'https://claude.ai:8443/api/mcp/auth_callback',
        listener.redirectUri,
      ];
      for (const redirectUri of attempts) {
        const url = authorizationFor(client.client_id, { redirectUri });
        const answer = await fetch(url, { redirect: 'manual' });
        expect({ redirectUri, status: answer.status, location: answer.headers.get('location') }).toEqual({
          redirectUri,
          status: 400,
          location: null,
        });
      }

      // In the browser too: the page shown is ours, and it names the problem.
      const page = await browser.newPage();
      const evil = await watchRedirect(page, 'https://evil.example/');
      let redirectedToEvil = false;
      void evil.url.then(() => {
        redirectedToEvil = true;
      });
      await page.goto(
        authorizationFor(client.client_id, { redirectUri: 'https://evil.example/api/mcp/auth_callback' })
          .href,
      );
      expect(new URL(page.url()).origin).toBe(server.config.BASE_URL);
      expect(await page.locator('body').innerText()).toMatch(/redirect_uri/i);
      expect(redirectedToEvil).toBe(false);
    });

    test('the client sent back after consent is the registered one, whatever the sign-in page was given', async () => {
      const { person } = await createPerson(server.services);
      const page = await browser.newPage();
      const client = await registerLoopbackClient('Honest client');
      const arrived = await watchRedirect(page, listener.redirectUri);
      // A return_to, a redirect or a next parameter on the sign-in form must not steer where the code goes.
      const url = authorizationFor(client.client_id);
      await page.goto(url.href);
      // (A string: the tests compile without the DOM's types.)
      await page.evaluate(`for (const form of document.forms) {
        for (const name of ['return_to', 'redirect', 'next', 'redirect_uri']) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = name;
          input.value = 'https://evil.example/steal';
          form.appendChild(input);
        }
      }`);
      const redirect = await completeAuthorization(page, person, arrived.url);
      await listener.nextRedirect();
      expect(redirect.origin + redirect.pathname).toBe(listener.redirectUri);
    });
  });
});
