import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/registry.js';
import { callToolRaw, postRaw, toolCallRequest } from '../support/mcp-client.js';
import { createPerson, PERSON_PASSWORD } from '../support/oauth-server.js';
import { csrfTokenOf, PageClient, signInToAccount } from '../support/page-client.js';
import { startTestServer, stoppedClock, type TestServer } from '../support/test-server.js';

/**
 * Each browser comes from an address of its own (the server trusts X-Forwarded-For here), so the
 * per-address sign-in limit of one test never locks out another.
 */
function browserOf(server: TestServer): PageClient {
  const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  return new PageClient(server.root, { 'X-Forwarded-For': address });
}

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

describe('the account pages', () => {
  let server: TestServer;

  beforeAll(async () => {
    // Sign-in failures are counted in 15-minute windows: a stopped clock keeps a test's in one.
    server = await startTestServer({ tools, config: { TRUST_PROXY: 'true' }, clock: stoppedClock() });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('links its sign-in form to the end-session page, for a browser signed in only to connect apps', async () => {
    const page = await browserOf(server).get('/account');
    expect(page.text).toContain('<a href="/session/end">Sign this browser out</a>');
  });

  it('answers an unknown email and a wrong password with the same page', async () => {
    const { person } = await createPerson(server.services);
    const wrongPassword = await signInToAccount(browserOf(server), person.email, 'not the password');
    const unknownEmail = await signInToAccount(
      browserOf(server),
      `nobody-${randomUUID()}@example.test`,
      'not the password',
    );
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    const message = (page: { text: string }) => /role="alert">([^<]*)</.exec(page.text)?.[1];
    expect(message(wrongPassword)).toBe('The email or password is incorrect.');
    expect(message(unknownEmail)).toBe(message(wrongPassword));
  });

  it('locks an email out after 5 failures, even for the right password, and an unknown email alike', async () => {
    const { person } = await createPerson(server.services);
    const unknown = `nobody-${randomUUID()}@example.test`;
    for (let failure = 1; failure <= 5; failure++) {
      // A new address each time: the email's own limit is what locks.
      expect((await signInToAccount(browserOf(server), person.email, `wrong ${failure}`)).status).toBe(401);
      expect((await signInToAccount(browserOf(server), unknown, `wrong ${failure}`)).status).toBe(401);
    }
    const locked = await signInToAccount(browserOf(server), person.email, PERSON_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many failed sign-ins');
    expect(locked.headers.getSetCookie().join()).not.toContain('hl_session');
    const lockedUnknown = await signInToAccount(browserOf(server), unknown, PERSON_PASSWORD);
    expect(lockedUnknown.status).toBe(429);
  });

  it('forgives the failures of an email once its user signs in', async () => {
    const { person } = await createPerson(server.services);
    const browser = browserOf(server);
    for (let failure = 1; failure <= 4; failure++) {
      expect((await signInToAccount(browser, person.email, `wrong ${failure}`)).status).toBe(401);
    }
    expect((await signInToAccount(browser, person.email, PERSON_PASSWORD)).status).toBe(303);
    for (let failure = 1; failure <= 4; failure++) {
      expect((await signInToAccount(browserOf(server), person.email, `wrong ${failure}`)).status).toBe(401);
    }
    expect((await signInToAccount(browserOf(server), person.email, PERSON_PASSWORD)).status).toBe(303);
  });

  it('locks an address out after its limit of failures, whatever the emails', async () => {
    const strict = await startTestServer({
      tools,
      config: { TRUST_PROXY: 'true', SIGN_IN_FAILURES_PER_ADDRESS: '3' },
    });
    try {
      const { person } = await createPerson(strict.services);
      const browser = browserOf(strict);
      for (let failure = 1; failure <= 3; failure++) {
        const answer = await signInToAccount(browser, `nobody-${randomUUID()}@example.test`, 'wrong');
        expect(answer.status).toBe(401);
      }
      expect((await signInToAccount(browser, person.email, PERSON_PASSWORD)).status).toBe(429);
      expect((await signInToAccount(browserOf(strict), person.email, PERSON_PASSWORD)).status).toBe(303);
    } finally {
      await strict.close();
    }
  });

  it('refuses a form posted without its CSRF token, with a wrong one, or with another browser’s', async () => {
    const { person } = await createPerson(server.services);
    const browser = browserOf(server);
    const form = await browser.get('/account');
    const credentials = { email: person.email, password: PERSON_PASSWORD };
    expect((await browser.post('/account/sign-in', credentials)).status).toBe(403);
    expect((await browser.post('/account/sign-in', { ...credentials, csrf_token: 'forged' })).status).toBe(
      403,
    );
    const other = browserOf(server);
    const otherToken = csrfTokenOf(await other.get('/account'));
    expect((await browser.post('/account/sign-in', { ...credentials, csrf_token: otherToken })).status).toBe(
      403,
    );
    // Without the guard cookie (a cross-site post that SameSite kept it from), the right token fails too.
    const cookieless = new PageClient(server.root, { 'X-Forwarded-For': '10.0.0.1' });
    expect(
      (await cookieless.post('/account/sign-in', { ...credentials, csrf_token: csrfTokenOf(form) })).status,
    ).toBe(403);
    expect(
      (await browser.post('/account/sign-in', { ...credentials, csrf_token: csrfTokenOf(form) })).status,
    ).toBe(303);

    // Signed in, a token of the sign-in form is no good for the account's own forms.
    const page = await browser.get('/account');
    expect(page.status).toBe(200);
    expect(
      (await browser.post('/account/keys', { csrf_token: csrfTokenOf(form), scope: 'account:read' })).status,
    ).toBe(403);
    expect((await browser.post('/account/logout', {})).status).toBe(403);
    expect((await browser.get('/account')).text).toContain('Your account');
  });

  it('shows the plan, credits with their renewal date, and today’s quotas', async () => {
    const { person, account } = await createPerson(server.services, { plan: 'growth' });
    const browser = browserOf(server);
    const signedIn = await signInToAccount(browser, person.email, PERSON_PASSWORD);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location?.pathname).toBe('/account');
    const page = await browser.get('/account');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Your account</h1>');
    expect(page.text).toContain('<dt>Plan</dt><dd>growth</dd>');
    expect(page.text).toContain('<dt>Subscription</dt><dd>active</dd>');
    expect(page.text).toContain(
      `500 of 500 left; renews on ${account.credits_resets_at.toISOString().slice(0, 10)}`,
    );
    expect(page.text).toMatch(/<th scope="row">lead_explores<\/th><td>0<\/td><td>2500<\/td><td>2500<\/td>/);
    expect(page.text).toContain(`Signed in as ${person.email}`);
  });

  it('creates an API key shown once, which works on /mcp with the chosen scopes, and revokes it', async () => {
    const { person, account } = await createPerson(server.services);
    const browser = browserOf(server);
    await signInToAccount(browser, person.email, PERSON_PASSWORD);
    const before = await browser.get('/account');
    const created = await browser.post('/account/keys', {
      csrf_token: csrfTokenOf(before),
      scope: ['account:read', 'leads:read'],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = /value="(hl_live_[0-9A-Za-z]{32})"/.exec(created.text)?.[1];
    expect(key).toBeDefined();
    const usage = await callToolRaw(server.url, key as string, 'get_account_usage');
    expect(usage.structuredContent).toMatchObject({
      plan: 'growth',
      credential: { type: 'api_key', scopes: ['leads:read', 'account:read'] },
    });

    const listing = await browser.get('/account');
    expect(listing.text).not.toContain(key);
    const [record] = await server.services.apiKeys.listForAccount(account._id);
    expect(listing.text).toContain(`<code>${record?.prefix}…</code>`);
    const revoked = await browser.post(`/account/keys/${record?._id}/revoke`, {
      csrf_token: csrfTokenOf(listing),
    });
    expect(revoked.status).toBe(303);
    const refused = await postRaw(server.url, toolCallRequest('get_account_usage'), {
      token: key as string,
      headers: JSON_HEADERS,
    });
    expect(refused.status).toBe(401);
    expect((await browser.get('/account')).text).not.toContain(`<code>${record?.prefix}…</code>`);
  });

  it('refuses to revoke another account’s key, and a key without a scope', async () => {
    const { person } = await createPerson(server.services);
    const stranger = await createPerson(server.services);
    const { record } = await server.services.apiKeys.create(
      stranger.account._id,
      ['account:read'],
      new Date(),
    );
    const browser = browserOf(server);
    await signInToAccount(browser, person.email, PERSON_PASSWORD);
    const page = await browser.get('/account');
    const attempt = await browser.post(`/account/keys/${record._id}/revoke`, {
      csrf_token: csrfTokenOf(page),
    });
    expect(attempt.status).toBe(404);
    expect((await server.services.apiKeys.listForAccount(stranger.account._id))[0]?.revoked_at).toBeNull();
    const noScope = await browser.post('/account/keys', { csrf_token: csrfTokenOf(page) });
    expect(noScope.status).toBe(400);
    expect(noScope.text).toContain('Choose at least one scope');
  });

  it('signs out: the session cookie goes, and the old session is refused everywhere', async () => {
    const { person } = await createPerson(server.services);
    const browser = browserOf(server);
    await signInToAccount(browser, person.email, PERSON_PASSWORD);
    const page = await browser.get('/account');
    const sessionCookie = browser.cookies.get('hl_session');
    expect(sessionCookie).toBeDefined();
    const out = await browser.post('/account/logout', { csrf_token: csrfTokenOf(page, '/account/logout') });
    expect(out.status).toBe(303);
    expect(browser.cookies.has('hl_session')).toBe(false);
    const replayed = new PageClient(server.root);
    replayed.cookies.set('hl_session', sessionCookie as string);
    const answer = await replayed.get('/account');
    expect(answer.text).toContain('Sign in to your account');
  });

  it('sends CSP with frame-ancestors none, no-store, and HttpOnly SameSite=Lax cookies without Secure over http', async () => {
    const page = await browserOf(server).get('/account');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'",
    );
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const [cookie] = page.headers.getSetCookie();
    expect(cookie).toMatch(/^hl_form=[0-9A-Za-z]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(page.text).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    const css = await fetch(`${server.root}/assets/pages.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('escapes what people type when it is shown back', async () => {
    const browser = browserOf(server);
    const email = '"><script>alert(1)</script>@example.test';
    const answer = await signInToAccount(browser, email, 'whatever it is');
    expect(answer.status).toBe(401);
    expect(answer.text).not.toContain('<script>');
    expect(answer.text).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.test"');
  });
});

describe('the account pages behind https', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ tools, config: { BASE_URL: 'https://hiring-leads.test' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('mark their cookies Secure with the __Host- prefix, and ask for HSTS', async () => {
    const { person } = await createPerson(server.services);
    const browser = new PageClient(server.root);
    const page = await browser.get('/account');
    expect(page.headers.getSetCookie()[0]).toMatch(
      /^__Host-hl_form=[0-9A-Za-z]{32}; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const signedIn = await browser.post('/account/sign-in', {
      csrf_token: csrfTokenOf(page),
      email: person.email,
      password: PERSON_PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.getSetCookie()[0]).toMatch(
      /^__Host-hl_session=[0-9A-Za-z]{32}; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
    );
  });
});
