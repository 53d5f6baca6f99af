import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are stored as `scrypt$<N>$<r>$<p>$<salt>$<hash>` (salt and hash in base64url): the
 * parameters travel with each hash, so they can be raised later without breaking older ones.
 */
const COST = { N: 16_384, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** scrypt needs 128 × N × r bytes; twice that leaves room for stored hashes with higher costs. */
const MAX_MEMORY = 256 * COST.N * COST.r;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, COST, HASH_BYTES);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Compares in constant time; a stored value of any other shape never matches. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined || rest.length > 0) return false;
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length === 0) return false;
  try {
    const actual = await derive(
      password,
      Buffer.from(salt, 'base64url'),
      { N: Number(N), r: Number(r), p: Number(p) },
      expected.length,
    );
    return timingSafeEqual(actual, expected);
  } catch {
    // Parameters scrypt refuses (tampered or corrupt): no match.
    return false;
  }
}

const MINIMUM_PASSWORD_LENGTH = 8;
/** scrypt's work grows with the input: a cap keeps a huge "password" from costing the server. */
const MAXIMUM_PASSWORD_LENGTH = 1024;

/** Why a new password is refused, or `undefined` when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MINIMUM_PASSWORD_LENGTH)
    return `must be at least ${MINIMUM_PASSWORD_LENGTH} characters long`;
  if (password.length > MAXIMUM_PASSWORD_LENGTH)
    return `must be at most ${MAXIMUM_PASSWORD_LENGTH} characters long`;
  return undefined;
}
