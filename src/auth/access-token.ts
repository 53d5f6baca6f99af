import { createHash } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { isScope, type Scope } from './scopes.js';

/**
 * OAuth access tokens are JWTs this server signs itself (HS256), for the audience `{BASE_URL}/mcp`.
 * Claims: `sub` (user id), `account_id`, `scope` (space-separated), `aud`, `iss`, `iat`, `exp`.
 * A token says who it was issued to, not whether they may still use it: the verifier also looks
 * the user up on every request (src/auth/verify-credential.ts).
 */
export interface AccessTokenClaims {
  userId: string;
  accountId: string;
  scopes: Scope[];
}

export interface AccessTokenSettings {
  secret: string;
  baseUrl: string;
}

const ALGORITHM = 'HS256';
/** The longest a token may live (`exp` - `iat`): a stolen one is worth an hour at most. */
export const MAX_ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/** How far the signer's clock and ours may disagree, for `exp` and `iat` alike. */
export const ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS = 5;

/** A key for this purpose only, so the same SERVER_SECRET can sign cursors without the two ever being interchangeable. */
export function accessTokenSigningKey(secret: string): Uint8Array {
  return createHash('sha256').update(`hiring-leads access-token v1\0${secret}`).digest();
}

export function accessTokenAudience(baseUrl: string): string {
  return `${baseUrl}/mcp`;
}

export async function mintAccessToken(
  settings: AccessTokenSettings,
  claims: AccessTokenClaims & { expiresInSeconds: number; audience?: string; issuedAt?: Date },
): Promise<string> {
  const issuedAt = Math.floor((claims.issuedAt ?? new Date()).getTime() / 1000);
  return new SignJWT({ account_id: claims.accountId, scope: claims.scopes.join(' ') })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(settings.baseUrl)
    .setAudience(claims.audience ?? accessTokenAudience(settings.baseUrl))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + claims.expiresInSeconds)
    .sign(accessTokenSigningKey(settings.secret));
}

export type AccessTokenCheck = { valid: true; claims: AccessTokenClaims } | { valid: false; reason: string };

export async function verifyAccessToken(
  settings: AccessTokenSettings,
  token: string,
  now: Date = new Date(),
): Promise<AccessTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, accessTokenSigningKey(settings.secret), {
      algorithms: [ALGORITHM],
      issuer: settings.baseUrl,
      audience: accessTokenAudience(settings.baseUrl),
      requiredClaims: ['sub', 'iat', 'exp'],
      currentDate: now,
      clockTolerance: ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS,
      // With a lifetime of at most this, an older token has expired anyway; the option makes jose refuse an `iat` in the future.
      maxTokenAge: MAX_ACCESS_TOKEN_LIFETIME_SECONDS,
    });
    if (typeof payload.sub !== 'string' || typeof payload.account_id !== 'string') {
      return { valid: false, reason: 'The access token lacks its subject or account.' };
    }
    if ((payload.exp as number) - (payload.iat as number) > MAX_ACCESS_TOKEN_LIFETIME_SECONDS) {
      return {
        valid: false,
        reason: `The access token lives longer than ${MAX_ACCESS_TOKEN_LIFETIME_SECONDS} seconds (exp - iat).`,
      };
    }
    const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    return {
      valid: true,
      claims: { userId: payload.sub, accountId: payload.account_id, scopes: granted.filter(isScope) },
    };
  } catch (error) {
    return { valid: false, reason: refusalReason(error) };
  }
}

function refusalReason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired.';
  if (error instanceof errors.JWTClaimValidationFailed) {
    const timeClaim = error.claim === 'iat' || error.claim === 'exp';
    if (timeClaim && (error.reason === 'missing' || error.reason === 'invalid')) {
      return 'The access token must carry its issue and expiry times (iat and exp) as numbers.';
    }
    if (error.claim === 'iat') return 'The access token was issued in the future (iat).';
    if (error.claim === 'aud') return 'The access token was issued for another resource.';
  }
  return 'The access token is not valid.';
}

/** Cheap shape test, so API keys and tokens take different paths without trying both. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}
