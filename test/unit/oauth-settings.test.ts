import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

const SECRET = 'a-test-secret-of-more-than-32-bytes-0123';
const P256_KEY = {
  kty: 'EC',
  crv: 'P-256',
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
  d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI',
  kid: 'k1',
};

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    parseConfig({ SERVER_SECRET: SECRET, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe('OAUTH_JWKS and OAUTH_JWKS_FILE', () => {
  it('unset: no configured keys (they are generated and stored)', () => {
    expect(parseConfig({ SERVER_SECRET: SECRET }).OAUTH_JWKS).toBeUndefined();
  });

  it('reads the set inline or from a file, marking each key for ES256 signing', () => {
    const expected = [{ ...P256_KEY, alg: 'ES256', use: 'sig' }];
    const set = JSON.stringify({ keys: [P256_KEY] });
    expect(parseConfig({ SERVER_SECRET: SECRET, OAUTH_JWKS: set }).OAUTH_JWKS).toEqual(expected);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'jwks-')), 'jwks.json');
    writeFileSync(file, set);
    expect(parseConfig({ SERVER_SECRET: SECRET, OAUTH_JWKS_FILE: file }).OAUTH_JWKS).toEqual(expected);
  });

  it.each([
    [
      { OAUTH_JWKS: '{}', OAUTH_JWKS_FILE: '/x' },
      'OAUTH_JWKS_FILE: set OAUTH_JWKS or OAUTH_JWKS_FILE, not both',
    ],
    [{ OAUTH_JWKS: 'not json' }, 'OAUTH_JWKS: must be a JSON Web Key Set'],
    [{ OAUTH_JWKS: '{"keys":[]}' }, 'OAUTH_JWKS: must be a JSON Web Key Set with at least one key'],
    [
      { OAUTH_JWKS: JSON.stringify({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', d: 'y', kid: 'r' }] }) },
      'key 0 must be an ES256 private key',
    ],
    [
      { OAUTH_JWKS: JSON.stringify({ keys: [{ ...P256_KEY, d: undefined }] }) },
      'key 0 must be an ES256 private key',
    ],
    [{ OAUTH_JWKS: JSON.stringify({ keys: [P256_KEY, P256_KEY] }) }, 'key 1 must have a kid of its own'],
    [{ OAUTH_JWKS_FILE: '/nonexistent/jwks.json' }, 'OAUTH_JWKS_FILE: cannot read /nonexistent/jwks.json'],
  ])('refuses %j, naming the setting', (env, problem) => {
    expect(problemsOf(env).join('; ')).toContain(problem);
  });
});
