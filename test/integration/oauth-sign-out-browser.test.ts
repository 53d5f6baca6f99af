import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type AdminIo, runAdmin } from '../../src/admin/cli.js';
import { type AdminStores, openAdminStores } from '../../src/admin/commands.js';
import {
  answerConsent,
  authorizeInBrowser,
  completeAuthorization,
  describeWithBrowser,
  navigationTrail,
  type Person,
  signIn,
  useBrowser,
  watchRedirect,
} from '../support/browser.js';
import { accountUsageAnswer } from '../support/mcp-client.js';
import {
  authorizationUrl,
  type Discovery,
  discover,
  exchangeCode,
  jwtClaims,
  type Pkce,
  pkcePair,
  type RegisteredClient,
  refreshAsPublicClient,
  registeredClient,
  type TokenSet,
  tokenSetOf,
} from '../support/oauth-flow.js';
import { createPerson, startOAuthTestServer } from '../support/oauth-server.js';
import type { TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/**
 * A web app's redirect: consent to it is remembered, so a browser still signed in to the
 * authorization server gets a code for it without any page at all. That silent code is what each
 * sign-out below must stop (issue 27: after signing out, the same browser still got codes).
 */
const WEB_REDIRECT = 'https://app.example.test/callback';
const SCOPE = 'leads:read account:read';

describeWithBrowser('Signing out ends every sign-in of the browser (Chromium)', () => {
  const browser = useBrowser();
  let server: TestServer;
  let found: Discovery;
  let admin: AdminStores;

  beforeAll(async () => {
    server = await startOAuthTestServer();
    found = await discover(server.url);
    admin = await openAdminStores(server.services.mongo.db);
  });
  afterAll(async () => {
    await server?.close();
  });

  const registerWebApp = (name: string): Promise<RegisteredClient> =>
    registeredClient(found.server, {
      client_name: name,
      redirect_uris: [WEB_REDIRECT],
      token_endpoint_auth_method: 'none',
    });

  function authorizationFor(client: RegisteredClient, pkce = pkcePair(), state = 'state-1'): URL {
    return authorizationUrl(found.server, {
      clientId: client.client_id,
      redirectUri: WEB_REDIRECT,
      pkce,
      scope: SCOPE,
      resource: found.resource.resource,
      state,
    });
  }

  /**
   * A new tab of `page`'s browser (same cookies). Each authorization runs in a tab of its own: its
   * last navigation, to the app's address (a name that does not resolve here), may still be failing
   * when the test moves on, and must not interrupt the next one.
   */
  const newTab = (page: Page): Promise<Page> => page.context().newPage();

  /** Sign-in and consent in `page`'s browser, then the code exchanged: what the app holds afterwards. */
  async function connect(page: Page, person: Person, client: RegisteredClient): Promise<TokenSet> {
    const pkce = pkcePair();
    const tab = await newTab(page);
    const redirect = await authorizeInBrowser(tab, authorizationFor(client, pkce), person, WEB_REDIRECT);
    return tokensFor(client, redirect, pkce);
  }

  /** The tokens for the code in `redirect`, the authorization response to `client`. */
  async function tokensFor(client: RegisteredClient, redirect: URL, pkce: Pkce): Promise<TokenSet> {
    return tokenSetOf(
      await exchangeCode(found.server, {
        clientId: client.client_id,
        code: redirect.searchParams.get('code') ?? '',
        redirectUri: WEB_REDIRECT,
        verifier: pkce.verifier,
        resource: found.resource.resource,
      }),
    );
  }

  /**
   * Opens an authorization for `client` in a new tab of `page`'s browser and tells what came of it:
   * a code sent to the app straight away (the browser is still signed in), or the sign-in page,
   * which stays open in `tab` (`redirect` then resolves once the authorization goes on to the app).
   */
  async function authorizationOutcome(
    page: Page,
    client: RegisteredClient,
    pkce = pkcePair(),
  ): Promise<{ outcome: 'code' | 'sign-in'; tab: Page; trail: string; redirect: Promise<URL> }> {
    const tab = await newTab(page);
    const trail = navigationTrail(tab);
    const redirect = await watchRedirect(tab, WEB_REDIRECT);
    const response = await tab.goto(authorizationFor(client, pkce).href).catch(() => null);
    const outcome = await Promise.race([
      redirect.url.then(() => 'code' as const),
      tab
        .getByLabel(/password/i)
        .waitFor()
        .then(() => 'sign-in' as const),
    ]).catch(async (error: Error) => {
      // Neither within the browser's timeout: say what the tab shows instead, and what it went through.
      const shown = await tab
        .locator('body')
        .innerText({ timeout: 1_000 })
        .catch(() => '(no page text)');
      throw new Error(
        `${error.message}\nThe tab shows ${tab.url()} (HTTP ${response?.status()}):\n${shown}\n${trail.join('\n')}`,
      );
    });
    if (response !== null) expect(response.status()).toBeLessThan(500);
    if (outcome === 'code')
      expect((await redirect.url).searchParams.get('code'), trail.join('\n')).toBeTruthy();
    return { outcome, tab, trail: trail.join('\n'), redirect: redirect.url };
  }

  async function expectOutcome(
    page: Page,
    client: RegisteredClient,
    expected: 'code' | 'sign-in',
  ): Promise<void> {
    const { outcome, trail } = await authorizationOutcome(page, client);
    expect(outcome, trail).toBe(expected);
  }

  const mcpStatus = async (token: string) => (await accountUsageAnswer(server.url, token)).status;

  async function adminCommand(...argv: string[]): Promise<void> {
    const errors: string[] = [];
    const io: AdminIo = { stdout: () => undefined, stderr: (text) => errors.push(text) };
    expect(await runAdmin(argv, admin, io), errors.join('\n')).toBe(0);
  }

  test('the account page’s Sign out ends the sign-in apps use too: no silent code afterwards', async () => {
    const { person } = await createPerson(server.services);
    const client = await registerWebApp('Signed-out app');
    const page = await browser.newPage();
    await connect(page, person, client);
    // Before signing out, the browser gets codes without any page: this is what must end.
    await expectOutcome(page, client, 'code');

    await page.goto(`${server.config.BASE_URL}/account`);
    await signIn(page, person);
    await page.getByRole('button', { name: /sign out/i }).click();
    await page.getByRole('heading', { name: /sign in to your account/i }).waitFor();

    await expectOutcome(page, client, 'sign-in');
  });

  test('the end-session endpoint signs the browser out of the account pages too', async () => {
    expect(found.server).toMatchObject({ end_session_endpoint: `${server.config.BASE_URL}/session/end` });
    const { person } = await createPerson(server.services);
    const client = await registerWebApp('Ended-session app');
    const page = await browser.newPage();
    await page.goto(`${server.config.BASE_URL}/account`);
    await signIn(page, person);
    await page.getByRole('heading', { name: /your account/i }).waitFor();
    await connect(page, person, client);

    await page.goto(`${server.config.BASE_URL}/session/end`);
    expect(await page.locator('main').innerText()).toContain(`You are signed in as ${person.email}`);
    await page.getByRole('button', { name: /^sign out$/i }).click();
    await page.getByRole('heading', { name: /you are signed out/i }).waitFor();

    await page.goto(`${server.config.BASE_URL}/account`);
    await page.getByRole('heading', { name: /sign in to your account/i }).waitFor();
    await expectOutcome(page, client, 'sign-in');
  });

  test('the consent page names who is signed in; “Not you?” signs out and another person signs in instead', async () => {
    const first = await createPerson(server.services);
    const second = await createPerson(server.services);
    const page = await browser.newPage();
    await connect(page, first.person, await registerWebApp('First app'));

    const client = await registerWebApp('Second app');
    const pkce = pkcePair();
    const arrived = await watchRedirect(page, WEB_REDIRECT);
    await page.goto(authorizationFor(client, pkce, 'state-not-you').href);
    const notYou = page.getByRole('button', { name: /not you/i });
    await notYou.waitFor();
    expect(await page.locator('main').innerText()).toContain(first.person.email);
    await notYou.click();

    // The same authorization starts again, at the sign-in page.
    await signIn(page, second.person);
    await page.getByRole('button', { name: /allow/i }).waitFor();
    expect(await page.locator('main').innerText()).toContain(second.person.email);
    await answerConsent(page, 'approve');
    const redirect = await arrived.url;
    expect(redirect.searchParams.get('state')).toBe('state-not-you');
    const tokens = await tokensFor(client, redirect, pkce);
    expect(jwtClaims(tokens.access_token).sub).toBe(second.user._id);
  });

  test.each([
    [
      'a password reset',
      (userId: string) => ['user', 'set-password', '--user', userId, '--password', 'a brand new password'],
    ],
    ['a suspension', (userId: string) => ['user', 'set', '--user', userId, '--status', 'suspended']],
    ['a deletion', (userId: string) => ['user', 'delete', '--user', userId]],
  ])('after %s the browser must sign in again, and the app’s tokens stop working', async (_change, command) => {
    const { person, user } = await createPerson(server.services);
    const client = await registerWebApp('App of a changed user');
    const page = await browser.newPage();
    const tokens = await connect(page, person, client);
    await expectOutcome(page, client, 'code');
    expect(await mcpStatus(tokens.access_token)).toBe(200);

    await adminCommand(...command(user._id));

    await expectOutcome(page, client, 'sign-in');
    const refreshed = await refreshAsPublicClient(
      found.server,
      client.client_id,
      tokens.refresh_token,
      found.resource.resource,
    );
    expect(refreshed.status).toBe(400);
    expect(refreshed.json).toMatchObject({ error: 'invalid_grant' });
    await until(async () => (await mcpStatus(tokens.access_token)) === 401, {
      what: 'the access token refused',
    });
  });

  test('a session whose user was suspended or deleted behind the server’s back asks to sign in, never a 500', async () => {
    for (const change of ['suspend', 'delete'] as const) {
      const gone = await createPerson(server.services);
      const other = await createPerson(server.services);
      const client = await registerWebApp(`App of a ${change}d user`);
      const page = await browser.newPage();
      await connect(page, gone.person, client);
      // Straight in the database: nothing ends the sessions or the grants.
      if (change === 'suspend') await server.services.users.setStatus(gone.user._id, 'suspended', new Date());
      else await server.services.users.delete(gone.user._id);

      const pkce = pkcePair();
      const { outcome, tab, trail, redirect: toApp } = await authorizationOutcome(page, client, pkce);
      expect(outcome, trail).toBe('sign-in');
      // Someone else signs in: the old session ends and the authorization goes on for them.
      const redirect = await completeAuthorization(tab, other.person, toApp);
      const tokens = await tokensFor(client, redirect, pkce);
      expect(jwtClaims(tokens.access_token).sub).toBe(other.user._id);
    }
  });
});
