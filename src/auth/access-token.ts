import { createLocalJWKSet, errors, type JWK, jwtVerify } from 'jose';
import { isScope, type Scope } from './scopes.js';

/**
 * OAuth access tokens are JWTs our authorization server (src/oauth/) signs with an ES256 key of its
 * JWKS, for the audience `{BASE_URL}/mcp`. Claims: `sub` (user id), `account_id`, `gid` (the grant
 * they were issued under), `scope` (space-separated), `client_id`, `aud`, `iss`, `iat`, `exp`, `jti`.
 * A token says who it was issued to, not whether they may still use it: the verifier also checks
 * the grant, the user and the account on every request (src/http/verify-credential.ts).
 */
interface AccessTokenClaims {
  userId: string;
  accountId: string;
  grantId: string;
  scopes: Scope[];
}

export interface AccessTokenSettings {
  /** The public keys tokens may be signed with. */
  keys: readonly JWK[];
  /** `BASE_URL`: the issuer, and the audience's prefix. */
  baseUrl: string;
}

const ALGORITHMS = ['ES256'];
/** The longest a token may live (`exp` - `iat`): a stolen one is worth an hour at most. */
const MAX_ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/** How far the signer's clock and ours may disagree, for `exp` and `iat` alike. */
const ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS = 5;

/** The one resource our tokens are for: a token for any other audience is refused, never passed on. */
export function accessTokenAudience(baseUrl: string): string {
  return `${baseUrl}/mcp`;
}

export type AccessTokenCheck = { valid: true; claims: AccessTokenClaims } | { valid: false; reason: string };

/** Signature, issuer, audience, times and the claims we need; nothing that needs a database. */
export async function verifyAccessTokenJwt(
  settings: AccessTokenSettings,
  token: string,
  now: Date = new Date(),
): Promise<AccessTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet({ keys: [...settings.keys] }), {
      algorithms: ALGORITHMS,
      issuer: settings.baseUrl,
      audience: accessTokenAudience(settings.baseUrl),
      requiredClaims: ['sub', 'iat', 'exp'],
      currentDate: now,
      clockTolerance: ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS,
      // With a lifetime of at most this, an older token has expired anyway; the option makes jose refuse an `iat` in the future.
      maxTokenAge: MAX_ACCESS_TOKEN_LIFETIME_SECONDS,
    });
    // An audience list naming us among others would let a token for another server in: exactly ours, alone.
    if (Array.isArray(payload.aud) && payload.aud.length !== 1) {
      return { valid: false, reason: 'The access token was issued for another resource.' };
    }
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.account_id !== 'string' ||
      typeof payload.gid !== 'string'
    ) {
      return { valid: false, reason: 'The access token lacks its subject, account or grant.' };
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
      claims: {
        userId: payload.sub,
        accountId: payload.account_id,
        grantId: payload.gid,
        scopes: granted.filter(isScope),
      },
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
    if (error.claim === 'iss') return 'The access token was issued by another authorization server.';
  }
  return 'The access token is not valid.';
}

/** Cheap shape test, so API keys and tokens take different paths without trying both. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}
