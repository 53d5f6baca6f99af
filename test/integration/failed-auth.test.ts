import { afterEach, describe, expect, it } from 'vitest';
import { fakeTools } from '../support/fake-tools.js';
import { postRaw, toolCallRequest } from '../support/mcp-client.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/** Each test gets a server of its own, so a fresh limiter: its budget is 3 failures a minute. */
describe('the failed-authentication limiter', () => {
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (config: Record<string, string> = {}) => {
    server = await startTestServer({
      tools: fakeTools,
      config: { UNAUTHENTICATED_CALLS_PER_MINUTE: '3', ...config },
    });
    return server;
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
