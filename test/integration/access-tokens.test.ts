import { spawn } from 'node:child_process';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoAccounts } from '../../seed/demo-accounts.js';
import { accessTokenAudience } from '../../src/auth/access-token.js';
import type { Scope } from '../../src/auth/scopes.js';
import { listGrants, revokeGrant } from '../../src/oauth/grants.js';
import { tools } from '../../src/tools/registry.js';
import { accessTokenFor, createUser, signedInUser } from '../support/access-tokens.js';
import { compiledServerCommand, testEnv } from '../support/backends.js';
import { callToolRaw, postRaw, toolCallRequest } from '../support/mcp-client.js';
import {
  createAccountWithKey,
  manualCacheClock,
  startTestServer,
  type TestServer,
} from '../support/test-server.js';

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
  /** Lets the second process's cached users and grants age past IDENTITY_CACHE_MS. */
  const otherServerCache = manualCacheClock();

  beforeAll(async () => {
    [server, otherServer] = await Promise.all([
      startTestServer({ tools }),
      startTestServer({ tools, cacheClock: otherServerCache.now }),
    ]);
  });

  /** Whatever the other process cached is now older than the freshness window. */
  const ageOtherServerCache = () => otherServerCache.advance(otherServer.config.IDENTITY_CACHE_MS);

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

  it('every process accepts the tokens of every other: they share the signing keys kept in MongoDB', async () => {
    const { account } = await createAccountWithKey(server.services);
    const { token } = await signedInUser(otherServer, account._id, ALL_SCOPES);
    expect((await usage(server, token)).status).toBe(200);
    expect((await usage(otherServer, token)).status).toBe(200);
  });

  describe('forged tokens', () => {
    /** Claims naming a real account, signed by someone other than our authorization server. */
    const forge = async (target: TestServer) => {
      const [demo] = await createDemoAccounts(target.services.mongo);
      if (demo === undefined) throw new Error('no demo account');
      return new SignJWT({
        account_id: demo.accountId,
        gid: 'grant-nobody-made',
        scope: ALL_SCOPES.join(' '),
      })
        .setSubject('usr_0000000000000000')
        .setIssuer(target.config.BASE_URL)
        .setAudience(accessTokenAudience(target.config.BASE_URL))
        .setIssuedAt()
        .setExpirationTime('5m');
    };

    it('the HS256 tokens of earlier versions are refused, with the published secret or the server’s own', async () => {
      for (const secret of [PUBLISHED_DEVELOPMENT_SECRET, server.config.SERVER_SECRET]) {
        const token = await (await forge(server))
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .sign(new TextEncoder().encode(secret));
        await expectRefused(server, token, 'The access token is not valid.');
      }
    });

    it('an ES256 token signed by a key not in our JWKS is refused', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      const token = await (await forge(server))
        .setProtectedHeader({ alg: 'ES256', kid: 'stranger' })
        .sign(privateKey);
      await expectRefused(server, token, 'The access token is not valid.');
    });
  });

  describe('time claims, on tokens the authorization server issued', () => {
    let userId: string;

    beforeAll(async () => {
      const { account } = await createAccountWithKey(server.services);
      userId = (await createUser(server.services, account._id))._id;
    });

    it('a lifetime over an hour is refused', async () => {
      const token = await accessTokenFor(server, {
        userId,
        scopes: ['account:read'],
        expiresInSeconds: 24 * 3600,
      });
      await expectRefused(server, token, 'The access token lives longer than 3600 seconds (exp - iat).');
    });

    it('an iat in the future (beyond a few seconds of clock skew) is refused; within them it is accepted', async () => {
      const future = await accessTokenFor(server, {
        userId,
        scopes: ['account:read'],
        issuedAt: new Date(Date.now() + 10 * 60_000),
      });
      await expectRefused(server, future, 'The access token was issued in the future (iat).');
      const skewed = await accessTokenFor(server, {
        userId,
        scopes: ['account:read'],
        issuedAt: new Date(Date.now() + 2_000),
      });
      expect((await usage(server, skewed)).status).toBe(200);
    });

    it('an expired token is refused', async () => {
      const token = await accessTokenFor(server, {
        userId,
        scopes: ['account:read'],
        issuedAt: new Date(Date.now() - 3600_000),
        expiresInSeconds: 600,
      });
      await expectRefused(server, token, 'The access token has expired.');
    });
  });

  describe('the user named by the token', () => {
    it('must exist', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { user, token } = await signedInUser(server, account._id, ALL_SCOPES);
      await server.services.mongo.db.collection('users').deleteOne({ _id: user._id as never });
      await expectRefused(server, token, 'The user of this access token does not exist.');
    });

    it('a suspended user is refused at once by the process that suspended them and within IDENTITY_CACHE_MS by every other, and accepted again once reactivated', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { user, token } = await signedInUser(server, account._id, ALL_SCOPES);
      expect((await usage(server, token)).status).toBe(200);
      expect((await usage(otherServer, token)).status).toBe(200);

      await server.services.users.setStatus(user._id, 'suspended', new Date());
      await expectRefused(server, token, 'The user of this access token is suspended.');
      // Within the window the other process may still use its copy; past it, never.
      ageOtherServerCache();
      await expectRefused(otherServer, token, 'The user of this access token is suspended.');

      await otherServer.services.users.setStatus(user._id, 'active', new Date());
      expect((await usage(otherServer, token)).status).toBe(200);
    });

    it('a deleted user is refused at once by the process that deleted them and within IDENTITY_CACHE_MS by every other', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { user, token } = await signedInUser(server, account._id, ALL_SCOPES);
      expect((await usage(otherServer, token)).status).toBe(200);
      await server.services.users.delete(user._id);
      await expectRefused(server, token, 'The user of this access token does not exist.');
      ageOtherServerCache();
      await expectRefused(otherServer, token, 'The user of this access token does not exist.');
    });

    it('must still belong to the account the token names', async () => {
      const [{ account: own }, { account: other }] = await Promise.all([
        createAccountWithKey(server.services),
        createAccountWithKey(server.services),
      ]);
      const { user, token } = await signedInUser(server, own._id, ALL_SCOPES);
      await server.services.mongo.db
        .collection('users')
        .updateOne({ _id: user._id as never }, { $set: { account_id: other._id } });
      await expectRefused(server, token, 'The user of this access token does not belong to its account.');
    });

    it('and the account must exist', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { token } = await signedInUser(server, account._id, ALL_SCOPES);
      await server.services.mongo.db.collection('accounts').deleteOne({ _id: account._id as never });
      await expectRefused(server, token, 'The account of this credential no longer exists.');
    });
  });

  describe('the grant named by the token', () => {
    it('a revoked grant is refused at once by the process that revoked it and within IDENTITY_CACHE_MS by every other', async () => {
      const { account } = await createAccountWithKey(server.services);
      const { user, token } = await signedInUser(server, account._id, ALL_SCOPES);
      expect((await usage(server, token)).status).toBe(200);
      expect((await usage(otherServer, token)).status).toBe(200);
      const [app] = await listGrants(server.services.oauthArtifacts, user._id);
      expect(
        await revokeGrant(server.services.oauthArtifacts, { grantId: app?.grantId ?? '', userId: user._id }),
      ).toBe(true);
      const revoked = 'The access token was revoked: its grant no longer exists.';
      await expectRefused(server, token, revoked);
      ageOtherServerCache();
      await expectRefused(otherServer, token, revoked);
    });

    it('a token for another resource than our /mcp is refused: no passthrough', async () => {
      const { account } = await createAccountWithKey(server.services);
      const user = await createUser(server.services, account._id);
      const token = await accessTokenFor(server, {
        userId: user._id,
        scopes: ALL_SCOPES,
        audience: 'https://other-server.example/mcp',
      });
      await expectRefused(server, token, 'The access token was issued for another resource.');
    });
  });
});

/** The server (the run's compiled sources) as its own process with the run's settings and `env` on top; resolves when it exits or logs "listening". */
function startServerProcess(
  env: Record<string, string | undefined>,
): Promise<{ exitCode: number | null; log: string }> {
  const child = spawn(process.execPath, compiledServerCommand().nodeArguments, {
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
