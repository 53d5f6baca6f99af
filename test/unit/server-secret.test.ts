import { describe, expect, it } from 'vitest';
import { ConfigError, checkServerSecret, parseConfig } from '../../src/config.js';

const STRONG = 'k'.repeat(32);
const PUBLISHED = 'dev-only-secret-change-me-in-production';

function refusal(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('parseConfig accepted the settings');
}

describe('SERVER_SECRET', () => {
  it('is required: without it the settings are refused in one line naming it and how to make one', () => {
    const error = refusal({});
    expect(error.message).toMatch(/^Invalid settings: SERVER_SECRET is not set\. /);
    expect(error.message).toContain('openssl rand -base64 48');
    expect(error.message).not.toContain('\n');
    expect(refusal({ SERVER_SECRET: '' }).message).toContain('SERVER_SECRET is not set');
  });

  it('must be at least 32 bytes long, counted in bytes', () => {
    expect(refusal({ SERVER_SECRET: 'k'.repeat(31) }).message).toContain(
      'SERVER_SECRET is shorter than 32 bytes',
    );
    expect(parseConfig({ SERVER_SECRET: STRONG }).SERVER_SECRET).toBe(STRONG);
    // 16 two-byte characters are 32 bytes.
    expect(parseConfig({ SERVER_SECRET: 'é'.repeat(16) }).startupWarnings).toEqual([]);
  });

  it('must not be the development value earlier versions published', () => {
    expect(refusal({ SERVER_SECRET: PUBLISHED }).message).toContain(
      'SERVER_SECRET is the published development value',
    );
  });

  it('a strong secret starts without warnings, whatever the host and mode', () => {
    const settings = parseConfig({ SERVER_SECRET: STRONG, HOST: '0.0.0.0', NODE_ENV: 'production' });
    expect(settings).toMatchObject({ SERVER_SECRET: STRONG, startupWarnings: [] });
  });

  describe('on loopback in explicit development mode', () => {
    const development = { NODE_ENV: 'development' };

    it.each([
      '127.0.0.1',
      '::1',
      'localhost',
      'LOCALHOST',
    ])('HOST=%s: a missing secret becomes a random one of this process, with a warning', (host) => {
      const first = parseConfig({ ...development, HOST: host });
      const second = parseConfig({ ...development, HOST: host });
      expect(Buffer.byteLength(first.SERVER_SECRET)).toBeGreaterThanOrEqual(32);
      expect(first.SERVER_SECRET).not.toBe(second.SERVER_SECRET);
      expect(first.startupWarnings).toEqual([expect.stringMatching(/^SERVER_SECRET is not set: .*random/)]);
    });

    it('a weak or published secret is accepted, with a warning', () => {
      for (const secret of ['short', PUBLISHED]) {
        const settings = parseConfig({ ...development, SERVER_SECRET: secret });
        expect(settings.SERVER_SECRET).toBe(secret);
        expect(settings.startupWarnings).toEqual([
          expect.stringMatching(/^SERVER_SECRET .*: accepted for development on loopback only\.$/),
        ]);
      }
    });
  });

  it('development mode on a non-loopback host, or loopback without development mode, is refused', () => {
    for (const env of [
      { NODE_ENV: 'development', HOST: '0.0.0.0' },
      { NODE_ENV: 'development', HOST: '192.168.1.10' },
      { NODE_ENV: 'development', HOST: '127.0.0.1.example.com' },
      { HOST: '127.0.0.1' },
      { HOST: '127.0.0.1', NODE_ENV: 'production' },
      { HOST: '127.0.0.1', NODE_ENV: 'test' },
    ]) {
      expect(refusal({ ...env, SERVER_SECRET: 'short' }).message, JSON.stringify(env)).toContain(
        'SERVER_SECRET is shorter than 32 bytes',
      );
      expect(refusal(env).message, JSON.stringify(env)).toContain('SERVER_SECRET is not set');
    }
  });

  it('the rule on its own names each weakness', () => {
    const check = (secret: string | undefined) =>
      checkServerSecret({ secret, host: '0.0.0.0', nodeEnv: undefined });
    expect(check(STRONG)).toEqual({ usable: true, secret: STRONG });
    expect(check(undefined)).toMatchObject({ usable: false, problem: expect.stringMatching(/not set/) });
    expect(check('x')).toMatchObject({ usable: false, problem: expect.stringMatching(/shorter/) });
    expect(check(PUBLISHED)).toMatchObject({ usable: false, problem: expect.stringMatching(/published/) });
  });
});
