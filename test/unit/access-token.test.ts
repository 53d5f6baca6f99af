import { type JWTPayload, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  accessTokenAudience,
  accessTokenSigningKey,
  mintAccessToken,
  verifyAccessToken,
} from '../../src/auth/access-token.js';

const settings = { secret: 'a-test-secret-of-more-than-32-bytes-0123', baseUrl: 'https://leads.example' };
const NOW = new Date('2026-03-01T12:00:00.000Z');
const nowSeconds = NOW.getTime() / 1000;
const claims = { userId: 'usr_1', accountId: 'acc_1', scopes: ['leads:read' as const] };

/** A token with exactly these time claims (none left out unless asked), signed as the server signs. */
function signed(times: Pick<JWTPayload, 'iat' | 'exp'>, secret = settings.secret): Promise<string> {
  return new SignJWT({ account_id: 'acc_1', scope: 'leads:read', ...times })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('usr_1')
    .setIssuer(settings.baseUrl)
    .setAudience(accessTokenAudience(settings.baseUrl))
    .sign(accessTokenSigningKey(secret));
}

const verify = (token: string) => verifyAccessToken(settings, token, NOW);

describe('verifyAccessToken', () => {
  it('accepts a token it minted, for its lifetime', async () => {
    const token = await mintAccessToken(settings, { ...claims, expiresInSeconds: 3600, issuedAt: NOW });
    expect(await verify(token)).toEqual({ valid: true, claims });
  });

  it('refuses a token without exp or without iat', async () => {
    const reason = 'The access token must carry its issue and expiry times (iat and exp) as numbers.';
    expect(await verify(await signed({ iat: nowSeconds }))).toEqual({ valid: false, reason });
    expect(await verify(await signed({ exp: nowSeconds + 60 }))).toEqual({ valid: false, reason });
    expect(await verify(await signed({}))).toEqual({ valid: false, reason });
  });

  it('refuses a lifetime over an hour, wherever now falls within it', async () => {
    expect(await verify(await signed({ iat: nowSeconds - 10, exp: nowSeconds - 10 + 3600 }))).toMatchObject({
      valid: true,
    });
    expect(await verify(await signed({ iat: nowSeconds - 10, exp: nowSeconds - 10 + 3601 }))).toEqual({
      valid: false,
      reason: 'The access token lives longer than 3600 seconds (exp - iat).',
    });
    expect(await verify(await signed({ iat: nowSeconds, exp: nowSeconds + 365 * 86400 }))).toMatchObject({
      valid: false,
    });
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

  it('refuses a token signed with another secret, such as the once-published development value', async () => {
    const forged = await signed(
      { iat: nowSeconds, exp: nowSeconds + 60 },
      'dev-only-secret-change-me-in-production',
    );
    expect(await verify(forged)).toEqual({ valid: false, reason: 'The access token is not valid.' });
  });
});
