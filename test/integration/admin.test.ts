import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminIo, runAdmin } from '../../src/admin/cli.js';
import { type AdminStores, openAdminStores } from '../../src/admin/commands.js';
import { hashApiKey } from '../../src/auth/api-key-format.js';
import { passwordMatches } from '../../src/auth/password.js';
import { loadSigningKeys } from '../../src/oauth/signing-keys.js';
import { OAuthSigningKeysStore } from '../../src/stores/oauth-signing-keys.js';
import { testBackends } from '../support/backends.js';

describe('admin commands', () => {
  let client: MongoClient;
  let stores: AdminStores;

  beforeAll(async () => {
    client = new MongoClient(testBackends().mongodbUri);
    await client.connect();
    const db = client.db(testBackends().mongoDb);
    stores = await openAdminStores(db);
  });

  afterAll(async () => {
    await client?.close();
  });

  const adminWith = async (using: AdminStores, argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: AdminIo = { stdout: (text) => out.push(text), stderr: (text) => err.push(text) };
    const status = await runAdmin(argv, using, io);
    return { status, out: out.join('\n'), err: err.join('\n') };
  };
  const admin = (...argv: string[]) => adminWith(stores, argv);
  const adminJson = async (...argv: string[]) => {
    const answer = await admin(...argv, '--json');
    expect(answer.status, answer.err).toBe(0);
    return JSON.parse(answer.out) as Record<string, unknown>;
  };

  it('creates an account, sets it, creates and revokes a key', async () => {
    const { account_id } = await adminJson(
      'account',
      'create',
      '--email',
      'Ops@Example.test',
      '--plan',
      'starter',
    );
    expect(account_id).toMatch(/^acc_[0-9A-Za-z]{16}$/);
    const created = await stores.accounts.findById(account_id as string);
    expect(created).toMatchObject({
      email: 'ops@example.test',
      plan: 'starter',
      subscription_status: 'active',
      credits_remaining: 100,
    });

    const updated = await adminJson(
      'account',
      'set',
      '--account',
      account_id as string,
      '--plan',
      'scale',
      '--status',
      'past_due',
      '--credits',
      '7',
      '--quota',
      'lead_explores=9,insight_queries=unlimited',
      '--calls-per-minute',
      '5',
    );
    expect(updated).toMatchObject({
      account_id,
      plan: 'scale',
      subscription_status: 'past_due',
      credits_remaining: 7,
      quota_overrides: { lead_explores: 9, insight_queries: null },
      calls_per_minute_override: 5,
      effective_limits: { calls_per_minute: 5, daily_quotas: { lead_explores: 9, company_explores: null } },
    });

    const key = await adminJson(
      'key',
      'create',
      '--account',
      account_id as string,
      '--scopes',
      'leads:read,account:read',
    );
    expect(key).toEqual({
      key: expect.stringMatching(/^hl_live_/),
      key_id: expect.stringMatching(/^key_/),
      scopes: ['leads:read', 'account:read'],
    });
    const stored = await stores.apiKeys.findByKeyRecent(key.key as string);
    expect(stored).toMatchObject({
      hash: hashApiKey(key.key as string),
      prefix: (key.key as string).slice(0, 12),
      revoked_at: null,
    });

    expect(await adminJson('key', 'revoke', '--key-id', key.key_id as string)).toEqual({ revoked: true });
    expect((await stores.apiKeys.findByKeyRecent(key.key as string))?.revoked_at).toBeInstanceOf(Date);
  });

  it('gives a new key all six scopes by default', async () => {
    const { account_id } = await adminJson(
      'account',
      'create',
      '--email',
      'six@example.test',
      '--plan',
      'growth',
    );
    const key = await adminJson('key', 'create', '--account', account_id as string);
    expect(key.scopes).toHaveLength(6);
  });

  it('refuses bad command lines with status 2, naming the flag', async () => {
    expect(await admin('account', 'create', '--email', 'x@example.test', '--plan', 'gold')).toMatchObject({
      status: 2,
      err: expect.stringContaining('--plan'),
    });
    expect(await admin('account', 'create', '--plan', 'free')).toMatchObject({
      status: 2,
      err: expect.stringContaining('--email'),
    });
    expect(await admin('key', 'revoke', '--key-id', 'key_x', '--colour', 'red')).toMatchObject({
      status: 2,
      err: expect.stringContaining('--colour'),
    });
    expect(await admin('account', 'set', '--account', 'acc_missing', '--credits', '-1')).toMatchObject({
      status: 2,
    });
    expect((await admin('launch', 'rockets')).status).toBe(2);
  });

  it('refuses a second account with the same email', async () => {
    await adminJson('account', 'create', '--email', 'twice@example.test', '--plan', 'free');
    const again = await admin(
      'account',
      'create',
      '--email',
      'twice@example.test',
      '--plan',
      'free',
      '--json',
    );
    expect(again.status).toBe(1);
    expect(JSON.parse(again.err)).toMatchObject({ error: { code: 'invalid_argument' } });
  });

  describe('users', () => {
    const newAccount = async (email: string) =>
      (await adminJson('account', 'create', '--email', email, '--plan', 'growth')).account_id as string;

    it('creates a user of an account with a salted scrypt hash of the password, never the password', async () => {
      const accountId = await newAccount('team@example.test');
      const { user_id } = await adminJson(
        'user',
        'create',
        '--email',
        'Ada@Example.test',
        '--password',
        'correct horse battery staple',
        '--account',
        accountId,
      );
      expect(user_id).toMatch(/^usr_[0-9A-Za-z]{16}$/);
      const user = await stores.users.findById(user_id as string);
      expect(user).toMatchObject({ email: 'ada@example.test', account_id: accountId, status: 'active' });
      expect(user?.password_hash).toMatch(/^scrypt\$/);
      expect(await passwordMatches('correct horse battery staple', user?.password_hash ?? '')).toBe(true);
      expect(JSON.stringify(user)).not.toContain('correct horse');
    });

    it('suspends, reactivates and deletes a user', async () => {
      const accountId = await newAccount('suspend@example.test');
      const { user_id } = await adminJson(
        'user',
        'create',
        '--email',
        'bob@example.test',
        '--password',
        'long enough',
        '--account',
        accountId,
      );
      const userId = user_id as string;
      const suspended = await adminJson('user', 'set', '--user', userId, '--status', 'suspended');
      expect(suspended).toMatchObject({ user_id: userId, account_id: accountId, status: 'suspended' });
      expect(suspended).not.toHaveProperty('password_hash');
      expect((await stores.users.findById(userId))?.status).toBe('suspended');
      expect(await adminJson('user', 'set', '--user', userId, '--status', 'active')).toMatchObject({
        status: 'active',
      });
      expect(await adminJson('user', 'delete', '--user', userId)).toEqual({ deleted: true });
      expect(await stores.users.findById(userId)).toBeNull();
      expect(await admin('user', 'delete', '--user', userId)).toMatchObject({
        status: 2,
        err: expect.stringContaining('--user'),
      });
    });

    it('refuses bad user command lines, naming the flag', async () => {
      const accountId = await newAccount('flags@example.test');
      const create = (...flags: string[]) => admin('user', 'create', ...flags);
      expect(
        await create('--email', 'c@example.test', '--password', 'long enough', '--account', 'acc_missing'),
      ).toMatchObject({ status: 2, err: expect.stringContaining('--account') });
      expect(
        await create('--email', 'not-an-email', '--password', 'long enough', '--account', accountId),
      ).toMatchObject({ status: 2, err: expect.stringContaining('--email') });
      expect(
        await create('--email', 'c@example.test', '--password', 'short', '--account', accountId),
      ).toMatchObject({ status: 2, err: expect.stringContaining('--password') });
      expect(await create('--email', 'c@example.test', '--account', accountId)).toMatchObject({
        status: 2,
        err: expect.stringContaining('--password'),
      });
      expect(await admin('user', 'set', '--user', 'usr_missing', '--status', 'suspended')).toMatchObject({
        status: 2,
        err: expect.stringContaining('--user'),
      });
      expect(await admin('user', 'set', '--user', 'usr_missing', '--status', 'banned')).toMatchObject({
        status: 2,
        err: expect.stringContaining('--status'),
      });
    });

    it('refuses a second user with the same email', async () => {
      const accountId = await newAccount('dup-users@example.test');
      const create = () =>
        admin(
          'user',
          'create',
          '--email',
          'same@example.test',
          '--password',
          'long enough',
          '--account',
          accountId,
          '--json',
        );
      expect((await create()).status).toBe(0);
      const again = await create();
      expect(again.status).toBe(1);
      expect(JSON.parse(again.err)).toMatchObject({ error: { code: 'invalid_argument' } });
    });

    it('sets a new password, which alone signs in from then on, and ends the user’s page sessions', async () => {
      const accountId = await newAccount('new-password@example.test');
      const { user_id } = await adminJson(
        'user',
        'create',
        '--email',
        'forgetful@example.test',
        '--password',
        'the old password',
        '--account',
        accountId,
      );
      const userId = user_id as string;
      const { sessionId } = await stores.pageSessions.start(userId, new Date());
      expect(
        await adminJson('user', 'set-password', '--user', userId, '--password', 'the new password'),
      ).toEqual({
        password_set: true,
      });
      expect(
        await stores.users.findByCredentials('forgetful@example.test', 'the new password'),
      ).toMatchObject({
        _id: userId,
      });
      expect(await stores.users.findByCredentials('forgetful@example.test', 'the old password')).toBeNull();
      expect(await stores.pageSessions.userOf(sessionId, new Date())).toBeNull();
      expect(await admin('user', 'set-password', '--user', userId, '--password', 'short')).toMatchObject({
        status: 2,
        err: expect.stringContaining('--password must be at least 8 characters long'),
      });
      expect(
        await admin('user', 'set-password', '--user', 'usr_missing', '--password', 'long enough'),
      ).toMatchObject({
        status: 2,
        err: expect.stringContaining('--user'),
      });
    });
  });

  describe('oauth rotate-key', () => {
    /** A database of its own: rotating the run's shared key set would upset the other files' servers. */
    const keysDb = () => client.db(`${testBackends().mongoDb}_admin_keys_${randomBytes(3).toString('hex')}`);
    const kids = async (db: ReturnType<typeof keysDb>) =>
      (
        await loadSigningKeys({
          configured: undefined,
          store: new OAuthSigningKeysStore(db),
          now: new Date(),
        })
      ).keys.map((key) => key.kid);

    it('puts a new signing key first and keeps the previous one for verifying, two keys at most', async () => {
      const db = keysDb();
      try {
        const keyStores = await openAdminStores(db);
        // The key set the first server start made.
        const [first] = await kids(db);
        const rotated = await adminWith(keyStores, ['oauth', 'rotate-key', '--json']);
        expect(rotated.status, rotated.err).toBe(0);
        const result = JSON.parse(rotated.out) as { signing_key_id: string; verifying_key_ids: string[] };
        expect(result.verifying_key_ids).toEqual([first]);
        expect(result.signing_key_id).not.toBe(first);
        // What every process signs and verifies with from its next start on.
        expect(await kids(db)).toEqual([result.signing_key_id, first]);
        // Only key ids are printed, never a private key.
        expect(rotated.out).not.toMatch(/"d"|"x"|"y"/);

        const again = await adminWith(keyStores, ['oauth', 'rotate-key']);
        expect(again.status, again.err).toBe(0);
        expect(again.out).toMatch(/^signing_key_id: /);
        expect(again.out).toContain(`verifying_key_ids: ["${result.signing_key_id}"]`);
        expect(again.out).toContain('Restart every server process');
        expect(await kids(db)).toHaveLength(2);
        expect(await kids(db)).not.toContain(first);
      } finally {
        await db.dropDatabase();
      }
    });

    it('is refused when OAUTH_JWKS sets the keys, leaving the stored ones alone', async () => {
      const db = keysDb();
      try {
        const before = await kids(db);
        const keyStores = await openAdminStores(db, { signingKeysConfigured: true });
        const refused = await adminWith(keyStores, ['oauth', 'rotate-key', '--json']);
        expect(refused.status).toBe(1);
        expect(JSON.parse(refused.err)).toMatchObject({
          error: { code: 'invalid_argument', message: expect.stringContaining('OAUTH_JWKS') },
        });
        expect(await kids(db)).toEqual(before);
      } finally {
        await db.dropDatabase();
      }
    });
  });

  it('prints readable text without --json', async () => {
    const answer = await admin('account', 'create', '--email', 'text@example.test', '--plan', 'growth');
    expect(answer.out).toMatch(/^account_id: acc_/);
  });
});
