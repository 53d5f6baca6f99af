import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/registry.js';
import { callToolRaw } from '../support/mcp-client.js';
import { csrfTokenOf, PageClient } from '../support/page-client.js';
import { startTestServer, stoppedClock, type TestServer } from '../support/test-server.js';

function browserOf(server: TestServer): PageClient {
  return new PageClient(server.root, {
    'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
  });
}

async function signUp(browser: PageClient, fields: Record<string, string>) {
  const form = await browser.get('/signup');
  return browser.post('/signup', { csrf_token: csrfTokenOf(form), ...fields });
}

describe('sign-up, open', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ tools, config: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a user with a free-plan account of their own, signed in at once', async () => {
    const browser = browserOf(server);
    const email = `new-${randomUUID()}@example.test`;
    const created = await signUp(browser, { email, password: 'a long enough password' });
    expect(created.status).toBe(303);
    expect(created.location?.pathname).toBe('/account');
    const page = await browser.get('/account');
    expect(page.text).toContain('<dt>Plan</dt><dd>free</dd>');
    expect(page.text).toContain(`Signed in as ${email}`);

    const user = await server.services.users.findByEmail(email);
    const account = await server.services.accounts.findById(user?.account_id ?? '');
    expect(account).toMatchObject({ plan: 'free', subscription_status: 'active', email });

    // The new user can make a key and use it; a free plan still answers get_account_usage.
    const key = /value="(hl_live_[0-9A-Za-z]{32})"/.exec(
      (await browser.post('/account/keys', { csrf_token: csrfTokenOf(page), scope: 'account:read' })).text,
    )?.[1];
    const usage = await callToolRaw(server.url, key as string, 'get_account_usage');
    expect(usage.structuredContent).toMatchObject({ plan: 'free' });
  });

  it('refuses a taken email, a bad email and a short password, naming the problem', async () => {
    const email = `taken-${randomUUID()}@example.test`;
    expect((await signUp(browserOf(server), { email, password: 'a long enough password' })).status).toBe(303);
    const again = await signUp(browserOf(server), {
      email: email.toUpperCase(),
      password: 'another long password',
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain('A user with this email already exists');
    const badEmail = await signUp(browserOf(server), {
      email: 'not-an-email',
      password: 'a long enough password',
    });
    expect(badEmail.status).toBe(400);
    expect(badEmail.text).toContain('Enter a valid email address.');
    const shortPassword = await signUp(browserOf(server), {
      email: `x-${randomUUID()}@example.test`,
      password: 'short',
    });
    expect(shortPassword.status).toBe(400);
    expect(shortPassword.text).toContain('The password must be at least 8 characters long.');
  });

  it('refuses an email of dots between two @ at once: the pattern that once stalled the server', async () => {
    // 15,900 dots held the event loop 0.4 s with the old pattern; every pattern is linear now.
    const hostile = `a@${'.'.repeat(15_900)}@`;
    const answer = await signUp(browserOf(server), { email: hostile, password: 'a long enough password' });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Enter a valid email address.');
  });

  it('refuses a sign-up without its CSRF token', async () => {
    const browser = browserOf(server);
    await browser.get('/signup');
    const email = `csrf-${randomUUID()}@example.test`;
    expect((await browser.post('/signup', { email, password: 'a long enough password' })).status).toBe(403);
    expect(await server.services.users.findByEmail(email)).toBeNull();
  });

  it('goes back to the OAuth sign-in it came from, and to nowhere else', async () => {
    const form = await browserOf(server).get('/signup?return_to=/interaction/abc_DEF-123');
    expect(form.text).toContain('<input type="hidden" name="return_to" value="/interaction/abc_DEF-123">');
    const elsewhere = await browserOf(server).get('/signup?return_to=https://evil.example/phish');
    expect(elsewhere.text).not.toContain('evil.example');
    const browser = browserOf(server);
    const created = await signUp(browser, {
      email: `back-${randomUUID()}@example.test`,
      password: 'a long enough password',
      return_to: '//evil.example/interaction/x',
    });
    expect(created.location?.href).toBe(`${server.root}/account`);
  });
});

describe('sign-in and sign-up forms are limited per client address before they are read', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      tools,
      config: { TRUST_PROXY: 'true', SIGN_IN_FORMS_PER_MINUTE: '3' },
      clock: stoppedClock(),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('beyond the budget a post gets 429 with Retry-After, whatever it holds, even a body too large to read', async () => {
    const browser = browserOf(server);
    const form = await browser.get('/signup');
    const fields = {
      csrf_token: csrfTokenOf(form),
      email: 'not-an-email',
      password: 'a long enough password',
    };
    expect((await browser.post('/signup', fields)).status).toBe(400);
    expect((await browser.post('/account/sign-in', fields)).status).toBe(403);
    expect((await browser.post('/interaction/abc', fields)).status).toBe(400);
    // Read, this body would be refused as too large (413); it is refused before that.
    const limited = await browser.post('/signup', { ...fields, padding: 'x'.repeat(64 * 1024) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many sign-in attempts');
    expect((await browser.post('/account/sign-in', fields)).status).toBe(429);
    // Another address has its own budget; reading pages costs none.
    expect((await browserOf(server).post('/signup', fields)).status).toBe(403);
    expect((await browser.get('/signup')).status).toBe(200);
  });
});

describe('sign-up, closed', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ tools, config: { SIGNUP: 'closed' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is gone: no form, no account created, and the sign-in page does not offer it', async () => {
    const browser = new PageClient(server.root);
    const form = await browser.get('/signup');
    expect(form.status).toBe(404);
    expect(form.text).toContain('Sign-up is closed');
    const email = `closed-${randomUUID()}@example.test`;
    const posted = await browser.post('/signup', {
      email,
      password: 'a long enough password',
      csrf_token: 'x',
    });
    expect(posted.status).toBe(404);
    expect(await server.services.users.findByEmail(email)).toBeNull();
    expect((await browser.get('/account')).text).not.toContain('/signup');
  });
});
