import { afterEach, describe, expect, it } from 'vitest';
import { fakeTools } from '../support/fake-tools.js';
import { postRaw, toolCallRequest } from '../support/mcp-client.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The per-address budgets (failed authentications, client registrations) are shared by every server
 * process through MongoDB and counted per minute window. Each test's servers read a clock pinned in
 * a minute of their own, so every test starts with whole budgets, whatever ran before it.
 */
let minutesUsed = 0;
function ownMinute(): () => Date {
  minutesUsed += 1;
  const at = new Date(Date.UTC(2020, 0, 1, 0, minutesUsed, 30));
  return () => at;
}

describe('the failed-authentication limiter', () => {
  let servers: TestServer[] = [];

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });

  /** Servers sharing one minute window: their budget is 3 failures (or `config`'s). */
  const start = async (config: Record<string, string> = {}, count = 1) => {
    const clock = ownMinute();
    const started = await Promise.all(
      Array.from({ length: count }, () =>
        startTestServer({
          tools: fakeTools,
          clock,
          config: { UNAUTHENTICATED_CALLS_PER_MINUTE: '3', ...config },
        }),
      ),
    );
    servers.push(...started);
    return started[0] as TestServer;
  };

  const call = async (on: TestServer, token: string, forwardedFor?: string) =>
    (
      await postRaw(on.url, toolCallRequest('echo', { text: 'x' }), {
        token,
        ...(forwardedFor !== undefined && { headers: { 'X-Forwarded-For': forwardedFor } }),
      })
    ).status;

  const burst = async (on: TestServer, count: number, forwardedFor?: string) => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < count; attempt++) statuses.push(await call(on, 'wrong', forwardedFor));
    return statuses;
  };

  it('serves a valid key from an address whose failure budget a burst of bad tokens has spent', async () => {
    const on = await start();
    const { key } = await createAccountWithKey(on.services);
    expect(await burst(on, 5)).toEqual([401, 401, 401, 429, 429]);
    expect(await call(on, key)).toBe(200);
    expect(await call(on, `hl_live_${'B'.repeat(32)}`)).toBe(429);
    expect(await call(on, key)).toBe(200);
  });

  it('answers 429 with the seconds to the next minute window', async () => {
    const on = await start();
    await burst(on, 3);
    const refused = await postRaw(on.url, toolCallRequest('echo', { text: 'x' }), { token: 'wrong' });
    expect(refused.status).toBe(429);
    // The servers' clock reads 30 seconds into its minute.
    expect(refused.headers.get('retry-after')).toBe('30');
  });

  it('is one budget per address across server processes', async () => {
    await start({}, 2);
    const [first, second] = servers as [TestServer, TestServer];
    expect([await call(first, 'wrong'), await call(second, 'wrong'), await call(first, 'wrong')]).toEqual([
      401, 401, 401,
    ]);
    expect([await call(second, 'wrong'), await call(first, 'wrong')]).toEqual([429, 429]);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: the connection is the client', async () => {
    const on = await start();
    expect(await burst(on, 3, '198.51.100.1')).toEqual([401, 401, 401]);
    expect(await call(on, 'wrong', '198.51.100.2')).toBe(429);
    expect(await call(on, 'wrong')).toBe(429);
  });

  it('counts per X-Forwarded-For address behind a trusted proxy', async () => {
    const on = await start({ TRUST_PROXY: 'loopback' });
    const { key } = await createAccountWithKey(on.services);
    expect(await burst(on, 4, '198.51.100.1')).toEqual([401, 401, 401, 429]);
    expect(await call(on, 'wrong', '198.51.100.2')).toBe(401);
    expect(await call(on, 'wrong')).toBe(401);
    expect(await call(on, key, '198.51.100.1')).toBe(200);
  });

  it('takes the client from the last untrusted hop, not from what the client itself claims', async () => {
    const on = await start({ TRUST_PROXY: 'loopback' });
    // The client wrote the first address; the proxy (here: loopback) appended the one it saw.
    expect(await burst(on, 3, '203.0.113.50, 198.51.100.1')).toEqual([401, 401, 401]);
    expect(await call(on, 'wrong', '203.0.113.51, 198.51.100.1')).toBe(429);
  });

  it('counts an IPv6 /64 as one client, and an IPv4-mapped address as its IPv4 address', async () => {
    const on = await start({ TRUST_PROXY: 'loopback' });
    expect(await call(on, 'wrong', '2001:db8:1:2::1')).toBe(401);
    expect(await call(on, 'wrong', '2001:db8:1:2::2')).toBe(401);
    expect(await call(on, 'wrong', '2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(401);
    expect(await call(on, 'wrong', '2001:db8:1:2:abcd::1')).toBe(429);
    expect(await call(on, 'wrong', '2001:db8:1:3::1')).toBe(401);

    expect(await burst(on, 3, '::ffff:198.51.100.9')).toEqual([401, 401, 401]);
    expect(await call(on, 'wrong', '198.51.100.9')).toBe(429);
  });
});

describe('the client-registration limit', () => {
  let servers: TestServer[] = [];

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });

  it('is one budget per address across server processes', async () => {
    const clock = ownMinute();
    servers = await Promise.all(
      [1, 2].map(() =>
        startTestServer({ tools: fakeTools, clock, config: { OAUTH_REGISTRATIONS_PER_MINUTE: '3' } }),
      ),
    );
    const register = async (on: TestServer) =>
      (
        await postRaw(
          `${on.root}/register`,
          { redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none' },
          { headers: { 'Content-Type': 'application/json' } },
        )
      ).status;
    const [first, second] = servers as [TestServer, TestServer];
    expect([await register(first), await register(second), await register(second)]).toEqual([201, 201, 201]);
    expect([await register(first), await register(second)]).toEqual([429, 429]);
  });
});
