import { spawn } from 'node:child_process';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoAccounts } from '../../seed/demo-accounts.js';
import { accessTokenAudience, accessTokenSigningKey, mintAccessToken } from '../../src/auth/access-token.js';
import type { Scope } from '../../src/auth/scopes.js';
import { tools } from '../../src/tools/registry.js';
import { accessTokenFor, createUser, signedInUser } from '../support/access-tokens.js';
import { testEnv } from '../support/backends.js';
import { callToolRaw, postRaw, toolCallRequest } from '../support/mcp-client.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/** The default SERVER_SECRET of earlier versions: public, so anyone could sign with it. */
const PUBLISHED_DEVELOPMENT_SECRET = 'dev-only-secret-change-me-in-production';
const ALL_SCOPES: Scope[] = ['account:read', 'leads:read'];

/** What `/mcp` answers a `get_account_usage` call with this bearer token. */
const usage = (server: TestServer, token: string) =>
  postRaw(server.url, toolCallRequest('get_account_usage'), {
    token,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });

async function expectRefused(server: TestServer, token: string, description: string): Promise<void> {
  const answer = await usage(server, token);
  expect(answer.status).toBe(401);
  expect(answer.json).toEqual({ error: 'invalid_token', error_description: description });
  expect(answer.headers.get('www-authenticate')).toContain(
    `error="invalid_token", error_description="${description}"`,
  );
}

describe('access tokens', () => {
  let server: TestServer;
  /** A second process over the same database, as behind a load balancer. */
  let otherServer: TestServer;

  beforeAll(async () => {
    [server, otherServer] = await Promise.all([startTestServer({ tools }), startTestServer({ tools })]);
  });

  afterAll(async () => {
    await Promise.all([server?.close(), otherServer?.close()]);
  });

  it('a valid token answers get_account_usage as an oauth credential with its scopes', async () => {
    const { account } = await createAccountWithKey(server.services);
    const { token } = await signedInUser(server, account._id, ALL_SCOPES);
    const result = await callToolRaw(server.url, token, 'get_account_usage');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      plan: 'growth',
      credential: { type: 'oauth', scopes: ALL_SCOPES },
    });
  });

  describe('the forged token of the report', () => {
    /** HS256 with the published secret, for a demo account and a user nobody created. */
    const forgedToken = async (target: TestServer) => {
      const [demo] = await createDemoAccounts(target.services.mongo);
      if (demo === undefined) throw new Error('no demo account');
      return mintAccessToken(
        { secret: PUBLISHED_DEVELOPMENT_SECRET, baseUrl: target.config.BASE_URL },
        {
          userId: 'usr_0000000000000000',
          accountId: demo.accountId,
          scopes: ALL_SCOPES,
          expiresInSeconds: 300,
        },
      );
    };

    it('is refused by a server with its own secret: the signature does not match', async () => {
      await expectRefused(server, await forgedToken(server), 'The access token is not valid.');
      const rawKey = await new SignJWT({ account_id: 'acc_x', scope: 'account:read' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('usr_x')
        .setIssuer(server.config.BASE_URL)
        .setAudience(accessTokenAudience(server.config.BASE_URL))
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(PUBLISHED_DEVELOPMENT_SECRET));
      await expectRefused(server, rawKey, 'The access token is not valid.');
    });

    it('is refused even by a development server that still signs with the published value: no such user', async () => {
      const development = await startTestServer({
        tools,
        config: { HOST: '127.0.0.1', NODE_ENV: 'development', SERVER_SECRET: PUBLISHED_DEVELOPMENT_SECRET },
      });
      try {
        await expectRefused(
          development,
          await forgedToken(development),
          'The user of this access token does not exist.',
        );
      } finally {
        await development.close();
      }
    });
  });

  describe('time claims', () => {
    let accountId: string;
    let userId: string;

    beforeAll(async () => {
      const { account } = await createAccountWithKey(server.services);
      accountId = account._id;
      userId = (await createUser(server.services, accountId))._id;
    });

    /** Signed with the server's own key, with exactly the time claims given. */
    const tokenWithTimes = (times: { iat?: number; exp?: number }) =>
      new SignJWT({ account_id: accountId, scope: 'account:read', ...times })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(server.config.BASE_URL)
        .setAudience(accessTokenAudience(server.config.BASE_URL))
        .sign(accessTokenSigningKey(server.config.SERVER_SECRET));
    const nowSeconds = () => Math.floor(Date.now() / 1000);
    const missingTimes = 'The access token must carry its issue and expiry times (iat and exp) as numbers.';

    it('a token without exp, or without iat, is refused', async () => {
      await expectRefused(server, await tokenWithTimes({ iat: nowSeconds() }), missingTimes);
      await expectRefused(server, await tokenWithTimes({ exp: nowSeconds() + 300 }), missingTimes);
      expect(
        (await usage(server, await tokenWithTimes({ iat: nowSeconds(), exp: nowSeconds() + 300 }))).status,
      ).toBe(200);
    });

    it('a lifetime over an hour is refused', async () => {
      const token = await accessTokenFor(server, {
        userId,
        accountId,
        scopes: ['account:read'],
        expiresInSeconds: 24 * 3600,
      });
      await expectRefused(server, token, 'The access token lives longer than 3600 seconds (exp - iat).');
    });

    it('an iat in the future (beyond a few seconds of clock skew) is refused', async () => {
      const token = await accessTokenFor(server, {
        userId,
        accountId,
        scopes: ['account:read'],
        issuedAt: new Date(Date.now() + 10 * 60_000),
      });
      await expectRefused(server, token, 'The access token was issued in the future (iat).');
    });
  });

  describe('the user named by the token', () => {
    it('must exist', async () => {
      const { account } = await createAccountWithKey(server.services);
      const token = await accessTokenFor(server, {
        userId: 'usr_NeverCreated0000',
        accountId: account._id,
        scopes: ALL_SCOPES,
      });
      await expectRefused(server, token, 'The user of this access token does not exist.');
    });

    it('a suspended user is refused at once by every server process, and accepted again once reactivated', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { user, token } = await signedInUser(server, account._id, ALL_SCOPES);
      expect((await usage(server, token)).status).toBe(200);
      expect((await usage(otherServer, token)).status).toBe(200);

      await server.services.users.setStatus(user._id, 'suspended', new Date());
      await expectRefused(server, token, 'The user of this access token is suspended.');
      await expectRefused(otherServer, token, 'The user of this access token is suspended.');

      await otherServer.services.users.setStatus(user._id, 'active', new Date());
      expect((await usage(server, token)).status).toBe(200);
    });

    it('a deleted user is refused at once by every server process', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { user, token } = await signedInUser(server, account._id, ALL_SCOPES);
      expect((await usage(otherServer, token)).status).toBe(200);
      await server.services.users.delete(user._id);
      await expectRefused(server, token, 'The user of this access token does not exist.');
      await expectRefused(otherServer, token, 'The user of this access token does not exist.');
    });

    it('must belong to the account the token names', async () => {
      const [{ account: own }, { account: other }] = await Promise.all([
        createAccountWithKey(server.services),
        createAccountWithKey(server.services),
      ]);
      const user = await createUser(server.services, own._id);
      const token = await accessTokenFor(server, {
        userId: user._id,
        accountId: other._id,
        scopes: ALL_SCOPES,
      });
      await expectRefused(server, token, 'The user of this access token does not belong to its account.');
    });

    it('and the account must exist', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { token } = await signedInUser(server, account._id, ALL_SCOPES);
      await server.services.mongo.db.collection('accounts').deleteOne({ _id: account._id as never });
      await expectRefused(server, token, 'The account of this credential no longer exists.');
    });
  });
});

/** `npm start` as its own process with the run's settings and `env` on top; resolves when it exits or logs "listening". */
function startServerProcess(
  env: Record<string, string | undefined>,
): Promise<{ exitCode: number | null; log: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...testEnv(), PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let log = '';
    child.once('error', reject);
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('"msg":"listening"')) {
        child.kill('SIGTERM');
        resolve({ exitCode: null, log });
      }
    });
    child.once('exit', (code) => resolve({ exitCode: code, log }));
  });
}

describe('server start', () => {
  it.each([
    ['missing', { SERVER_SECRET: undefined }, 'SERVER_SECRET is not set'],
    ['shorter than 32 bytes', { SERVER_SECRET: 'too-short' }, 'SERVER_SECRET is shorter than 32 bytes'],
    [
      'the published development value',
      { SERVER_SECRET: PUBLISHED_DEVELOPMENT_SECRET },
      'SERVER_SECRET is the published development value',
    ],
    [
      'missing, in development mode but bound to every interface',
      { SERVER_SECRET: undefined, NODE_ENV: 'development', HOST: '0.0.0.0' },
      'SERVER_SECRET is not set',
    ],
  ])('is refused when SERVER_SECRET is %s: one line naming it and how to make one', async (_case, env, reason) => {
    const { exitCode, log } = await startServerProcess(env);
    expect(exitCode).not.toBe(0);
    expect(exitCode).not.toBeNull();
    const lines = log.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(reason);
    expect(lines[0]).toContain('openssl rand -base64 48');
  });

  it('goes ahead on loopback in development mode without a secret, warning that it made up its own', async () => {
    const { exitCode, log } = await startServerProcess({
      SERVER_SECRET: undefined,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    expect(exitCode).toBeNull();
    const warning = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .find((line) => line.level === 'warn' && line.msg.startsWith('SERVER_SECRET'));
    expect(warning?.msg).toMatch(/^SERVER_SECRET is not set: .*random/);
  });
});
