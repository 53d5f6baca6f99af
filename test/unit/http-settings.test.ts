import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { servedNames } from '../../src/http/dns-rebinding.js';

const settings = (env: Record<string, string>) =>
  parseConfig({ SERVER_SECRET: 'a-test-secret-that-is-long-enough-0123456789', ...env });

describe('TRUST_PROXY', () => {
  it('is off by default', () => {
    expect(settings({}).TRUST_PROXY).toBe(false);
  });

  it('takes the forms express takes: a boolean, a hop count, addresses and subnets', () => {
    expect(settings({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(settings({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(settings({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(settings({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toEqual(['loopback', '10.0.0.0/8']);
    expect(
      settings({ TRUST_PROXY: '192.0.2.1,10.0.0.0/255.0.0.0,fd00::/8,uniquelocal,linklocal' }).TRUST_PROXY,
    ).toEqual(['192.0.2.1', '10.0.0.0/255.0.0.0', 'fd00::/8', 'uniquelocal', 'linklocal']);
  });

  it('refuses anything else, naming the entry', () => {
    expect(() => settings({ TRUST_PROXY: 'loopback, proxy.internal' })).toThrow(
      /TRUST_PROXY: .*not proxy\.internal/,
    );
    expect(() => settings({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => settings({ TRUST_PROXY: 'yes' })).toThrow(ConfigError);
  });
});

describe('ALLOWED_HOSTS and ALLOWED_ORIGINS', () => {
  it('are lists of host names and origins', () => {
    const parsed = settings({
      ALLOWED_HOSTS: 'Leads.Example.com, 10.0.0.5,[::1]',
      ALLOWED_ORIGINS: 'https://app.example.com/, http://localhost:6274',
    });
    expect(parsed.ALLOWED_HOSTS).toEqual(['leads.example.com', '10.0.0.5', '[::1]']);
    expect(parsed.ALLOWED_ORIGINS).toEqual(['https://app.example.com', 'http://localhost:6274']);
  });

  it('refuse a host with a port or scheme and an origin that is not a URL', () => {
    expect(() => settings({ ALLOWED_HOSTS: 'leads.example.com:8443' })).toThrow(/ALLOWED_HOSTS/);
    expect(() => settings({ ALLOWED_HOSTS: 'https://leads.example.com' })).toThrow(/ALLOWED_HOSTS/);
    expect(() => settings({ ALLOWED_ORIGINS: 'app.example.com' })).toThrow(/ALLOWED_ORIGINS/);
  });
});

describe('servedNames', () => {
  it('serves every loopback name, and browser origins of its own port, for a loopback base URL', () => {
    const served = servedNames(settings({ BASE_URL: 'http://localhost:3000' }));
    expect([...served.hosts]).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect([...served.origins]).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
    ]);
  });

  it("serves the base URL's name and origin otherwise, plus the allowed ones", () => {
    const served = servedNames(
      settings({
        BASE_URL: 'https://leads.example.com/',
        ALLOWED_HOSTS: 'hl.internal',
        ALLOWED_ORIGINS: 'https://app.example.com',
      }),
    );
    expect([...served.hosts]).toEqual(['leads.example.com', 'hl.internal']);
    expect([...served.origins]).toEqual(['https://leads.example.com', 'https://app.example.com']);
  });
});

describe('HTTP server limits', () => {
  it('have deliberate defaults', () => {
    expect(settings({})).toMatchObject({
      HTTP_HEADERS_TIMEOUT_MS: 10_000,
      HTTP_REQUEST_TIMEOUT_MS: 30_000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 5_000,
      HTTP_MAX_CONNECTIONS: 1024,
    });
  });

  it('refuse a headers timeout longer than the request timeout', () => {
    expect(() => settings({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
  });
});
