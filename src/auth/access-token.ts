import { createHash } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { isScope, type Scope } from './scopes.js';

/**
 * OAuth access tokens are JWTs this server signs itself (HS256), for the audience `{BASE_URL}/mcp`.
 * Claims: `sub` (user id), `account_id`, `scope` (space-separated), `aud`, `iss`, `iat`, `exp`.
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

/** A key for this purpose only, so the same SERVER_SECRET can sign cursors without the two ever being interchangeable. */
function signingKey(secret: string): Uint8Array {
  return createHash('sha256').update(`hiring-leads access-token v1\0${secret}`).digest();
}

export function accessTokenAudience(baseUrl: string): string {
  return `${baseUrl}/mcp`;
}

export async function mintAccessToken(
  settings: AccessTokenSettings,
  claims: AccessTokenClaims & { expiresInSeconds: number; audience?: string },
): Promise<string> {
  return new SignJWT({ account_id: claims.accountId, scope: claims.scopes.join(' ') })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(settings.baseUrl)
    .setAudience(claims.audience ?? accessTokenAudience(settings.baseUrl))
    .setIssuedAt()
    .setExpirationTime(`${claims.expiresInSeconds}s`)
    .sign(signingKey(settings.secret));
}

export type AccessTokenCheck = { valid: true; claims: AccessTokenClaims } | { valid: false; reason: string };

export async function verifyAccessToken(
  settings: AccessTokenSettings,
  token: string,
): Promise<AccessTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, signingKey(settings.secret), {
      algorithms: [ALGORITHM],
      issuer: settings.baseUrl,
      audience: accessTokenAudience(settings.baseUrl),
    });
    if (typeof payload.sub !== 'string' || typeof payload.account_id !== 'string') {
      return { valid: false, reason: 'The access token lacks its subject or account.' };
    }
    const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    return {
      valid: true,
      claims: { userId: payload.sub, accountId: payload.account_id, scopes: granted.filter(isScope) },
    };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { valid: false, reason: 'The access token has expired.' };
    if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') {
      return { valid: false, reason: 'The access token was issued for another resource.' };
    }
    return { valid: false, reason: 'The access token is not valid.' };
  }
}

/** Cheap shape test, so API keys and tokens take different paths without trying both. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}
