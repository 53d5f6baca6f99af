import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, signedInUser } from '../support/access-tokens.js';
import { fakeTools } from '../support/fake-tools.js';
import { callToolRaw, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import {
  createAccountWithKey,
  startTestServer,
  stoppedClock,
  TEST_BASE_URL,
  type TestServer,
} from '../support/test-server.js';

const RESOURCE_METADATA = `resource_metadata="${TEST_BASE_URL}/.well-known/oauth-protected-resource/mcp"`;

describe('authentication and access', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ tools: fakeTools });
  });

  afterAll(async () => {
    await server?.close();
  });

  const echo = (token?: string) =>
    postRaw(server.url, toolCallRequest('echo', { text: 'hi' }), token === undefined ? {} : { token });

  describe('401 challenges', () => {
    it('without an Authorization header: the challenge names only the metadata', async () => {
      const answer = await echo();
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(`Bearer ${RESOURCE_METADATA}`);
      expect(answer.json).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    });

    it('with an unknown key', async () => {
      const answer = await echo(`hl_live_${'A'.repeat(32)}`);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", error_description="The API key is not known.", ${RESOURCE_METADATA}`,
      );
      expect(answer.json).toEqual({ error: 'invalid_token', error_description: 'The API key is not known.' });
    });

    it('with a revoked key', async () => {
      const { key, keyId } = await createAccountWithKey(server.services);
      expect((await echo(key)).status).toBe(200);
      await server.services.apiKeys.revoke(keyId, new Date());
      const answer = await echo(key);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", error_description="The API key has been revoked.", ${RESOURCE_METADATA}`,
      );
    });

    it('with a malformed header or token', async () => {
      const basic = await postRaw(server.url, toolCallRequest('echo', { text: 'x' }), {
        headers: { Authorization: 'Basic dXNlcjpwYXNz' },
      });
      expect(basic.status).toBe(401);
      expect(basic.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token", error_description="[^"]+", /,
      );
      expect((await echo('not-a-key')).status).toBe(401);
    });

    it('with an access token for another audience', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { user } = await signedInUser(server, account._id, ['leads:read']);
      const token = await accessTokenFor(server, {
        userId: user._id,
        scopes: ['leads:read'],
        audience: 'http://elsewhere.example/mcp',
      });
      const answer = await echo(token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('with an expired access token', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { user } = await signedInUser(server, account._id, ['leads:read']);
      const token = await accessTokenFor(server, {
        userId: user._id,
        scopes: ['leads:read'],
        expiresInSeconds: -10,
      });
      const answer = await echo(token);
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({ error_description: 'The access token has expired.' });
    });
  });

  describe('credentials that pass', () => {
    it('reports an API key as api_key with its scopes', async () => {
      const { key, account } = await createAccountWithKey(server.services, {
        scopes: ['leads:read', 'account:read'],
      });
      const result = await callToolRaw(server.url, key, 'whoami');
      expect(result.structuredContent).toEqual({
        account_id: account._id,
        plan: 'growth',
        credential: { type: 'api_key', scopes: ['leads:read', 'account:read'] },
      });
    });

    it('reports an access token as oauth with its scopes', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { token } = await signedInUser(server, account._id, ['leads:read', 'leads:enrich']);
      const result = await callToolRaw(server.url, token, 'whoami');
      expect(result.structuredContent).toMatchObject({
        account_id: account._id,
        credential: { type: 'oauth', scopes: ['leads:read', 'leads:enrich'] },
      });
      expect((await callToolRaw(server.url, token, 'enrich_probe')).structuredContent).toEqual({ ok: true });
    });
  });

  describe('scopes', () => {
    it('answers a key without insights:read with insufficient_scope', async () => {
      const { key } = await createAccountWithKey(server.services, { scopes: ['leads:read'] });
      const error = toolError(await callToolRaw(server.url, key, 'insights_probe'));
      expect(error).toMatchObject({
        code: 'insufficient_scope',
        details: { required_scope: 'insights:read' },
      });
    });

    it('answers an API key lacking leads:enrich with the tool error (keys cannot step up)', async () => {
      const { key } = await createAccountWithKey(server.services, { scopes: ['leads:read'] });
      const error = toolError(await callToolRaw(server.url, key, 'enrich_probe'));
      expect(error).toMatchObject({
        code: 'insufficient_scope',
        details: { required_scope: 'leads:enrich' },
      });
    });

    it('challenges an access token lacking leads:enrich with 403, so the client can step up', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { token } = await signedInUser(server, account._id, ['leads:read']);
      const answer = await postRaw(server.url, toolCallRequest('enrich_probe'), { token });
      expect(answer.status).toBe(403);
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="leads:enrich", ${RESOURCE_METADATA}`,
      );
      expect(answer.json).toMatchObject({ error: 'insufficient_scope' });
    });

    it('answers an access token lacking a read scope with the tool error', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { token } = await signedInUser(server, account._id, ['leads:read']);
      const error = toolError(await callToolRaw(server.url, token, 'insights_probe'));
      expect(error.code).toBe('insufficient_scope');
    });
  });

  describe('plans', () => {
    it('refuses paid tools to a free account, while always-tools still answer', async () => {
      const { key } = await createAccountWithKey(server.services, { plan: 'free' });
      const error = toolError(await callToolRaw(server.url, key, 'echo', { text: 'x' }));
      expect(error.code).toBe('subscription_required');
      expect(error.message).toMatch(/free plan/);
      expect((await callToolRaw(server.url, key, 'whoami')).isError).toBeFalsy();
    });

    it('refuses paid tools to a canceled subscription', async () => {
      const { key } = await createAccountWithKey(server.services, { plan: 'scale', status: 'canceled' });
      const error = toolError(await callToolRaw(server.url, key, 'echo', { text: 'x' }));
      expect(error.code).toBe('subscription_required');
      expect(error.message).toMatch(/canceled/);
    });

    it('lets a trialing subscription through', async () => {
      const { key } = await createAccountWithKey(server.services, { plan: 'starter', status: 'trialing' });
      expect((await callToolRaw(server.url, key, 'echo', { text: 'x' })).isError).toBeFalsy();
    });

    it('sees plan changes at once', async () => {
      const { key, account } = await createAccountWithKey(server.services);
      await server.services.accounts.update(account._id, { subscription_status: 'past_due' }, new Date());
      expect(toolError(await callToolRaw(server.url, key, 'echo', { text: 'x' })).code).toBe(
        'subscription_required',
      );
    });
  });
});

describe('floods of bad credentials', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      tools: fakeTools,
      config: { UNAUTHENTICATED_CALLS_PER_MINUTE: '3' },
      clock: stoppedClock(),
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('are limited per client address with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push(
        (await postRaw(server.url, toolCallRequest('echo', { text: 'x' }), { token: 'wrong' })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const refused = await postRaw(server.url, toolCallRequest('echo', { text: 'x' }), { token: 'wrong' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
