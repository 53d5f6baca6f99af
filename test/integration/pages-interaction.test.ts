import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRaw, toolCallRequest } from '../support/mcp-client.js';
import {
  authorizationUrl,
  type Discovery,
  discover,
  exchangeCode,
  pkcePair,
  type RegisteredClient,
  registeredClient,
  tokenSetOf,
} from '../support/oauth-flow.js';
import { createPerson, PERSON_PASSWORD, startOAuthTestServer } from '../support/oauth-server.js';
import { csrfTokenOf, type PageAnswer, PageClient, signInToAccount } from '../support/page-client.js';
import type { TestServer } from '../support/test-server.js';

/**
 * Where the test's clients say they are sent back to: a native app's loopback listener, or a web
 * app's https address. The browser never goes there (redirects are not followed off the server).
 */
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const WEB_REDIRECT_URI = 'https://app.example.test/callback';
const ALL_SCOPES = 'leads:read companies:read signals:read insights:read account:read leads:enrich';
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

describe('the OAuth sign-in and consent pages', () => {
  let server: TestServer;
  let found: Discovery;

  beforeAll(async () => {
    server = await startOAuthTestServer({ config: { TRUST_PROXY: 'true' } });
    found = await discover(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  function browser(): PageClient {
    return new PageClient(server.root, {
      'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
    });
  }

  function register(clientName = 'Pages test client', redirectUri = REDIRECT_URI): Promise<RegisteredClient> {
    return registeredClient(found.server, {
      client_name: clientName,
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
  }

  /** Starts an authorization in `page` and follows it to the first page it shows. */
  async function startAuthorization(page: PageClient, client: RegisteredClient, scope = ALL_SCOPES) {
    const pkce = pkcePair();
    const url = authorizationUrl(found.server, {
      clientId: client.client_id,
      redirectUri: client.redirect_uris[0] ?? REDIRECT_URI,
      pkce,
      scope,
      resource: found.resource.resource,
      state: 'state-1',
    });
    return { pkce, shown: await page.follow(url) };
  }

  async function submitSignIn(page: PageClient, shown: PageAnswer, email: string, password: string) {
    return page.post(shown.url, { csrf_token: csrfTokenOf(shown), email, password });
  }

  /** Signs in on the sign-in page `shown` and follows on to the next page (consent, or the redirect home). */
  async function signInAndFollow(page: PageClient, shown: PageAnswer, email: string): Promise<PageAnswer> {
    const signedIn = await submitSignIn(page, shown, email, PERSON_PASSWORD);
    expect(signedIn.status).toBe(303);
    return page.follow(signedIn.location as URL);
  }

  /** In a new browser (no session), `email` asks `client` for `scope` and signs in: the browser and what follows. */
  async function signInInNewBrowser(client: RegisteredClient, scope: string, email: string) {
    const page = browser();
    const { shown } = await startAuthorization(page, client, scope);
    return { page, answer: await signInAndFollow(page, shown, email) };
  }

  /** In a new browser, `email` signs in and approves `scope` for `client`. */
  async function approveInNewBrowser(client: RegisteredClient, scope: string, email: string): Promise<void> {
    const { page, answer } = await signInInNewBrowser(client, scope, email);
    await decide(page, answer, 'approve');
  }

  /** The tokens for the code in `home`, the redirect back to `client` at REDIRECT_URI. */
  async function tokensFor(client: RegisteredClient, home: URL, verifier: string) {
    return tokenSetOf(
      await exchangeCode(found.server, {
        clientId: client.client_id,
        code: home.searchParams.get('code') ?? '',
        redirectUri: REDIRECT_URI,
        verifier,
        resource: found.resource.resource,
      }),
    );
  }

  async function decide(page: PageClient, consent: PageAnswer, decision: 'approve' | 'deny'): Promise<URL> {
    const answered = await page.post(consent.url, { csrf_token: csrfTokenOf(consent), decision });
    expect(answered.status).toBe(303);
    const home = await page.follow(answered.location as URL);
    expect(
      home.location?.href.startsWith(consent.text.includes('127.0.0.1:9') ? REDIRECT_URI : WEB_REDIRECT_URI),
    ).toBe(true);
    return home.location as URL;
  }

  it('signs in, shows the consent page, and approving returns a code whose token works on /mcp', async () => {
    const { person, account } = await createPerson(server.services);
    const client = await register();
    const page = browser();
    const { pkce, shown } = await startAuthorization(page, client);
    expect(shown.status).toBe(200);
    expect(shown.url.pathname).toMatch(/^\/interaction\/[\w-]+$/);
    expect(shown.text).toContain('<h1>Sign in to connect Pages test client</h1>');

    const consent = await signInAndFollow(page, shown, person.email);
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('<h1>Allow Pages test client to use your hiring-leads account?</h1>');
    expect(consent.text).toContain('<dt>Returns to</dt><dd>127.0.0.1:9 (an app on this computer)</dd>');
    for (const words of [
      'Search open tech roles',
      'Search hiring companies',
      'company signals',
      'market insights',
      'plan, credits',
    ]) {
      expect(consent.text).toContain(words);
    }
    expect(consent.text).toMatch(
      /Reveal leads&#39; contact details \(<code>leads:enrich<\/code>\) <strong class="spends">Spends credits/,
    );

    const home = await decide(page, consent, 'approve');
    expect(home.searchParams.get('state')).toBe('state-1');
    expect(home.searchParams.get('iss')).toBe(server.config.BASE_URL);
    const tokens = await tokensFor(client, home, pkce.verifier);
    const usage = await postRaw(server.url, toolCallRequest('get_account_usage'), {
      token: tokens.access_token,
      headers: JSON_HEADERS,
    });
    expect(usage.status).toBe(200);
    expect((usage.json as { result: { structuredContent: unknown } }).result.structuredContent).toMatchObject(
      {
        plan: account.plan,
        credential: { type: 'oauth', scopes: ALL_SCOPES.split(' ') },
      },
    );
  });

  it('remembers consent per web client and scope set: the same request again goes straight back to the app', async () => {
    const { person } = await createPerson(server.services);
    const client = await register('Web app', WEB_REDIRECT_URI);
    await approveInNewBrowser(client, 'leads:read account:read', person.email);

    // Another browser (no session): sign-in again, but no consent page for scopes already granted.
    const { answer: home } = await signInInNewBrowser(client, 'account:read', person.email);
    expect(home.status).toBe(303);
    expect(home.location?.href.startsWith(WEB_REDIRECT_URI)).toBe(true);
    expect(home.location?.searchParams.get('code')).toBeTruthy();

    // A scope not granted yet brings the consent page back, marking what is already allowed.
    const { answer: consent } = await signInInNewBrowser(client, 'account:read leads:enrich', person.email);
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('(<code>account:read</code>) (already allowed)');
    expect(consent.text).toContain('(<code>leads:enrich</code>) <strong');
  });

  it('asks again every time for an app on the person’s device (RFC 8252), listing what it already holds', async () => {
    const { person } = await createPerson(server.services);
    const client = await register('Native app');
    await approveInNewBrowser(client, 'account:read', person.email);
    const { page: second, answer: consent } = await signInInNewBrowser(client, 'account:read', person.email);
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('(<code>account:read</code>) (already allowed)');
    const home = await decide(second, consent, 'approve');
    expect(home.searchParams.get('code')).toBeTruthy();
  });

  it('sends the app error=access_denied when the person denies', async () => {
    const { person } = await createPerson(server.services);
    const client = await register();
    const page = browser();
    const { shown } = await startAuthorization(page, client);
    const home = await decide(page, await signInAndFollow(page, shown, person.email), 'deny');
    expect(home.searchParams.get('error')).toBe('access_denied');
    expect(home.searchParams.get('state')).toBe('state-1');
    expect(home.searchParams.has('code')).toBe(false);
  });

  it('answers a wrong password and an unknown email alike on the sign-in step', async () => {
    const { person } = await createPerson(server.services);
    const client = await register();
    const page = browser();
    const { shown } = await startAuthorization(page, client);
    const wrong = await submitSignIn(page, shown, person.email, 'not the password');
    const unknown = await submitSignIn(page, shown, 'nobody@example.test', 'not the password');
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const alert = (answer: PageAnswer) => /role="alert">([^<]*)</.exec(answer.text)?.[1];
    expect(alert(wrong)).toBe('The email or password is incorrect.');
    expect(alert(unknown)).toBe(alert(wrong));
  });

  it('refuses sign-in and consent posts without the CSRF token, with a forged one, or from another browser', async () => {
    const { person } = await createPerson(server.services);
    const client = await register();
    const page = browser();
    const { shown } = await startAuthorization(page, client);
    const credentials = { email: person.email, password: PERSON_PASSWORD };
    expect((await page.post(shown.url, credentials)).status).toBe(403);
    expect((await page.post(shown.url, { ...credentials, csrf_token: 'forged' })).status).toBe(403);
    // A token of another interaction (another browser's) is refused here.
    const other = browser();
    const otherShown = (await startAuthorization(other, client)).shown;
    expect((await page.post(shown.url, { ...credentials, csrf_token: csrfTokenOf(otherShown) })).status).toBe(
      403,
    );

    const consent = await signInAndFollow(page, shown, person.email);
    expect((await page.post(consent.url, { decision: 'approve' })).status).toBe(403);
    expect(
      (await page.post(consent.url, { decision: 'approve', csrf_token: csrfTokenOf(shown) })).status,
    ).toBe(403);
  });

  it('refuses an interaction address opened in a browser that did not start it', async () => {
    const client = await register();
    const { shown } = await startAuthorization(browser(), client);
    const stranger = await browser().get(shown.url);
    expect(stranger.status).toBe(400);
    expect(stranger.text).toContain('Sign-in expired');
  });

  it('escapes a client name with markup on the sign-in and consent pages', async () => {
    const { person } = await createPerson(server.services);
    const client = await register('<img src=x onerror="alert(1)">Evil & Co');
    const page = browser();
    const { shown } = await startAuthorization(page, client);
    const escaped = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Evil &amp; Co';
    expect(shown.text).toContain(escaped);
    expect(shown.text).not.toContain('<img');
    const consent = await signInAndFollow(page, shown, person.email);
    expect(consent.text).toContain(`<dd>${escaped}</dd>`);
    expect(consent.text).not.toContain('<img');
    expect(consent.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('lists the connected app on the account page; disconnecting it stops its token on /mcp at once', async () => {
    const { person } = await createPerson(server.services);
    const client = await register('Disconnect me');
    const page = browser();
    const { pkce, shown } = await startAuthorization(page, client, 'account:read leads:enrich');
    const home = await decide(page, await signInAndFollow(page, shown, person.email), 'approve');
    const tokens = await tokensFor(client, home, pkce.verifier);
    const call = () =>
      postRaw(server.url, toolCallRequest('get_account_usage'), {
        token: tokens.access_token,
        headers: JSON_HEADERS,
      });
    expect((await call()).status).toBe(200);

    expect((await signInToAccount(page, person.email, PERSON_PASSWORD)).status).toBe(303);
    const account = await page.get('/account');
    expect(account.text).toMatch(
      /<th scope="row">Disconnect me<\/th><td><ul><li><code>account:read<\/code><\/li><li><code>leads:enrich<\/code> <span class="spends">/,
    );
    const grantId = /action="\/account\/apps\/([\w-]+)\/revoke"/.exec(account.text)?.[1];
    expect(grantId).toBeDefined();
    const revoked = await page.post(`/account/apps/${grantId}/revoke`, { csrf_token: csrfTokenOf(account) });
    expect(revoked.status).toBe(303);
    const refused = await call();
    expect(refused.status).toBe(401);
    expect((await page.get('/account')).text).toContain('No apps are connected.');
  });

  it('names who is signed in on the consent page; “Not you?” signs out and starts the same authorization again', async () => {
    const { person } = await createPerson(server.services);
    const client = await register('Who is it');
    const { page, answer: consent } = await signInInNewBrowser(client, 'account:read', person.email);
    expect(consent.text).toContain(`<dt>Signed in as</dt><dd>${person.email}</dd>`);
    const uid = consent.url.pathname.split('/').pop();
    expect(consent.text).toContain(`<form method="post" action="/interaction/${uid}/sign-out">`);

    const signedOut = await page.post(`/interaction/${uid}/sign-out`, { csrf_token: csrfTokenOf(consent) });
    expect(signedOut.status).toBe(303);
    expect(signedOut.location?.pathname).toBe('/authorize');
    expect(Object.fromEntries(signedOut.location?.searchParams ?? [])).toMatchObject({
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      state: 'state-1',
      scope: 'account:read',
    });
    // No one is signed in any more: the same authorization asks for a password.
    const again = await page.follow(signedOut.location as URL);
    expect(again.text).toContain('<h1>Sign in to connect Who is it</h1>');
  });

  it('deletes a registration nobody approved after a week; an approved one lasts as long as its grant', async () => {
    const clients = server.services.mongo.db.collection<{ _id: string; expires_at?: Date }>('oauth_client');
    const day = 24 * 3600 * 1000;
    const expiry = async (clientId: string) =>
      (await clients.findOne({ _id: clientId }))?.expires_at?.getTime() ?? 0;
    const unused = await register('Never approved', WEB_REDIRECT_URI);
    expect(Math.abs((await expiry(unused.client_id)) - (Date.now() + 7 * day))).toBeLessThan(60_000);

    const { person } = await createPerson(server.services);
    const approved = await register('Approved', WEB_REDIRECT_URI);
    await approveInNewBrowser(approved, 'account:read', person.email);
    expect(Math.abs((await expiry(approved.client_id)) - (Date.now() + 97 * day))).toBeLessThan(60_000);

    // Once its time has come it is gone, whether or not MongoDB's TTL monitor has run yet.
    await clients.updateOne({ _id: unused.client_id }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    const { shown } = await startAuthorization(browser(), unused);
    expect(shown.status).toBe(400);
    expect(shown.text).toContain('invalid_client');
  });

  it('offers a signed-in person to continue as themselves, without typing the password again', async () => {
    const { person } = await createPerson(server.services);
    const page = browser();
    await signInToAccount(page, person.email, PERSON_PASSWORD);
    const { shown } = await startAuthorization(page, await register());
    expect(shown.text).toContain(`Continue as ${person.email}`);
    const continued = await page.post(shown.url, { csrf_token: csrfTokenOf(shown), continue_as: 'session' });
    expect(continued.status).toBe(303);
    const consent = await page.follow(continued.location as URL);
    expect(consent.text).toContain('Allow Pages test client');
  });
});
