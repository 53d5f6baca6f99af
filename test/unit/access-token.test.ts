import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenAudience, verifyAccessTokenJwt } from '../../src/auth/access-token.js';

const BASE_URL = 'https://leads.example';
const NOW = new Date('2026-03-01T12:00:00.000Z');
const nowSeconds = NOW.getTime() / 1000;

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

let signingKey: PrivateKey;
let publicJwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
});

/**
 * A token with exactly these claims (no time claim unless given), signed ES256 with the key the
 * verifier is given, as our authorization server signs: the pure checks, without a server.
 */
function signed(claims: JWTPayload, options: { key?: PrivateKey; kid?: string } = {}): Promise<string> {
  return new SignJWT({
    sub: 'usr_1',
    account_id: 'acc_1',
    gid: 'grant_1',
    scope: 'leads:read',
    iss: BASE_URL,
    aud: accessTokenAudience(BASE_URL),
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: options.kid ?? 'k1' })
    .sign(options.key ?? signingKey);
}

const verify = (token: string) => verifyAccessTokenJwt({ keys: [publicJwk], baseUrl: BASE_URL }, token, NOW);
const lifetime = (seconds: number) => ({ iat: nowSeconds, exp: nowSeconds + seconds });

describe('verifyAccessTokenJwt', () => {
  it('accepts a token signed with a key of the set, and reads its user, account, grant and scopes', async () => {
    expect(await verify(await signed(lifetime(3600)))).toEqual({
      valid: true,
      claims: { userId: 'usr_1', accountId: 'acc_1', grantId: 'grant_1', scopes: ['leads:read'] },
    });
  });

  it('refuses a token without exp or without iat', async () => {
    const reason = 'The access token must carry its issue and expiry times (iat and exp) as numbers.';
    expect(await verify(await signed({ iat: nowSeconds }))).toEqual({ valid: false, reason });
    expect(await verify(await signed({ exp: nowSeconds + 60 }))).toEqual({ valid: false, reason });
    expect(await verify(await signed({}))).toEqual({ valid: false, reason });
  });

  it('refuses a token without its grant or account', async () => {
    const reason = 'The access token lacks its subject, account or grant.';
    expect(await verify(await signed({ ...lifetime(60), gid: undefined }))).toEqual({ valid: false, reason });
    expect(await verify(await signed({ ...lifetime(60), account_id: undefined }))).toEqual({
      valid: false,
      reason,
    });
  });

  it('refuses a lifetime over an hour, wherever now falls within it', async () => {
    expect(await verify(await signed({ iat: nowSeconds - 10, exp: nowSeconds - 10 + 3600 }))).toMatchObject({
      valid: true,
    });
    expect(await verify(await signed({ iat: nowSeconds - 10, exp: nowSeconds - 10 + 3601 }))).toEqual({
      valid: false,
      reason: 'The access token lives longer than 3600 seconds (exp - iat).',
    });
    expect(await verify(await signed(lifetime(365 * 86400)))).toMatchObject({ valid: false });
  });

  it('refuses an iat in the future beyond a few seconds of clock skew', async () => {
    expect(await verify(await signed({ iat: nowSeconds + 4, exp: nowSeconds + 64 }))).toMatchObject({
      valid: true,
    });
    expect(await verify(await signed({ iat: nowSeconds + 30, exp: nowSeconds + 90 }))).toEqual({
      valid: false,
      reason: 'The access token was issued in the future (iat).',
    });
  });

  it('allows a few seconds of skew after exp, no more', async () => {
    expect(await verify(await signed({ iat: nowSeconds - 60, exp: nowSeconds - 3 }))).toMatchObject({
      valid: true,
    });
    expect(await verify(await signed({ iat: nowSeconds - 60, exp: nowSeconds - 10 }))).toEqual({
      valid: false,
      reason: 'The access token has expired.',
    });
  });

  it('refuses another audience, an audience list with ours among others, and another issuer', async () => {
    const another = 'The access token was issued for another resource.';
    expect(await verify(await signed({ ...lifetime(60), aud: 'https://other.example/mcp' }))).toEqual({
      valid: false,
      reason: another,
    });
    expect(await verify(await signed({ ...lifetime(60), aud: 'https://leads.example' }))).toEqual({
      valid: false,
      reason: another,
    });
    expect(
      await verify(
        await signed({ ...lifetime(60), aud: [accessTokenAudience(BASE_URL), 'https://other.example'] }),
      ),
    ).toEqual({ valid: false, reason: another });
    expect(await verify(await signed({ ...lifetime(60), iss: 'https://leads.example/' }))).toEqual({
      valid: false,
      reason: 'The access token was issued by another authorization server.',
    });
  });

  it('refuses a token signed by a key outside the set, even under a kid of the set', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    expect(await verify(await signed(lifetime(60), { key: privateKey }))).toEqual({
      valid: false,
      reason: 'The access token is not valid.',
    });
    expect(await verify(await signed(lifetime(60), { key: privateKey, kid: 'unknown' }))).toEqual({
      valid: false,
      reason: 'The access token is not valid.',
    });
  });

  it('refuses HS256, even keyed with the public key’s bytes', async () => {
    const token = await new SignJWT({ ...lifetime(60), sub: 'usr_1', account_id: 'acc_1', gid: 'g' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    expect(await verify(token)).toEqual({ valid: false, reason: 'The access token is not valid.' });
  });
});
