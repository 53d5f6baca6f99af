import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { rotateStoredSigningKey } from '../../src/oauth/signing-keys.js';
import { tools } from '../../src/tools/registry.js';
import { accessTokenFor, createUser, signedInUser } from '../support/access-tokens.js';
import { testBackends } from '../support/backends.js';
import { accountUsageAnswer } from '../support/mcp-client.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

const usageStatus = async (server: TestServer, token: string) =>
  (await accountUsageAnswer(server.url, token)).status;

/** The signing keys: generated once and shared through MongoDB, rotated, or configured. */
describe('signing keys', () => {
  /** A database of its own: rotating the run's shared key set would upset the other files' servers. */
  const database = `${testBackends().mongoDb}_keys_${randomBytes(3).toString('hex')}`;
  const started: TestServer[] = [];
  const start = async (config: Record<string, string> = {}) => {
    const server = await startTestServer({ tools, config: { MONGODB_DB: database, ...config } });
    started.push(server);
    return server;
  };

  afterAll(async () => {
    await started[0]?.services.mongo.db.dropDatabase();
    await Promise.all(started.map((server) => server.close()));
  });

  it('two processes starting at once agree on one generated key', async () => {
    const [first, second] = await Promise.all([start(), start()]);
    const keysOf = async (server: TestServer) =>
      ((await (await fetch(`${server.root}/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map(
        (key) => key.kid,
      );
    expect(await keysOf(first as TestServer)).toEqual(await keysOf(second as TestServer));
    expect(await keysOf(first as TestServer)).toHaveLength(1);
  });

  it('after a rotation, a restarted process signs with the new key and still accepts the old key’s tokens', async () => {
    const before = await start();
    const { account } = await createAccountWithKey(before.services);
    const { token: oldToken } = await signedInUser(before, account._id, ['account:read']);
    const keys = await rotateStoredSigningKey({ store: before.services.oauthSigningKeys, now: new Date() });
    expect(keys).toHaveLength(2);

    const after = await start();
    const user = await createUser(after.services, account._id);
    const newToken = await accessTokenFor(after, { userId: user._id, scopes: ['account:read'] });
    const kidOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()).kid as string;
    expect(kidOf(newToken)).toBe(keys[0]?.kid);
    expect(kidOf(oldToken)).toBe(keys[1]?.kid);
    expect(await usageStatus(after, oldToken)).toBe(200);
    expect(await usageStatus(after, newToken)).toBe(200);
  });

  it('OAUTH_JWKS configures the keys: the first signs, its public half is published', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'configured-1' };
    const server = await start({ OAUTH_JWKS: JSON.stringify({ keys: [jwk] }) });
    const published = (await (await fetch(`${server.root}/jwks`)).json()) as {
      keys: Array<Record<string, unknown>>;
    };
    expect(published.keys).toEqual([expect.objectContaining({ kid: 'configured-1', kty: 'EC' })]);
    expect(published.keys[0]?.d).toBeUndefined();
    const { account } = await createAccountWithKey(server.services);
    const { token } = await signedInUser(server, account._id, ['account:read']);
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()).kid).toBe(
      'configured-1',
    );
    expect(await usageStatus(server, token)).toBe(200);
  });
});
