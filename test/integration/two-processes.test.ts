import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/registry.js';
import { testConfig } from '../support/backends.js';
import { callToolRaw, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import { SEEDED_NOW } from '../support/seeded-data.js';
import {
  createAccountWithKey,
  manualCacheClock,
  startTestServer,
  type TestServer,
} from '../support/test-server.js';

/**
 * Two servers over the same backends, each with its own MongoDB client and stores, so its own memory
 * (identity copies, rate-limit leases), as two processes behind a load balancer have: what each
 * keeps must never let an account past its limits, and a change made anywhere must reach both
 * within IDENTITY_CACHE_MS (docs/performance.md). Their cache clock stands still until a test moves
 * it past IDENTITY_CACHE_MS, instead of waiting that long; their calls' clock reads the middle of a
 * minute, so every call of a test counts in one window. (test/integration/limits.test.ts and
 * chaos.test.ts run separate processes of the real server.)
 */
describe('two servers, each with its own memory', () => {
  let servers: [TestServer, TestServer];
  const cacheClock = manualCacheClock();
  const freshnessMs = testConfig().IDENTITY_CACHE_MS;
  const midMinute = new Date(SEEDED_NOW.getTime() + 30_000);

  beforeAll(async () => {
    const start = () => startTestServer({ tools, clock: () => midMinute, cacheClock: cacheClock.now });
    servers = [await start(), await start()];
  });

  afterAll(async () => {
    await Promise.all(servers?.map((server) => server.close()) ?? []);
  });

  /** The stores as a third process (an operator's CLI) would change them. */
  const operator = () => servers[0].services;

  const call = (server: TestServer, key: string, name: string, args: Record<string, unknown> = {}) =>
    callToolRaw(server.url, key, name, args);

  const statusOf = async (server: TestServer, key: string) =>
    (await postRaw(server.url, toolCallRequest('get_filter_options'), { token: key })).status;

  const pastFreshness = () => cacheClock.advance(freshnessMs + 1);

  it('a key revoked elsewhere is refused by both once IDENTITY_CACHE_MS has passed', async () => {
    const { key, keyId } = await createAccountWithKey(operator(), { callsPerMinute: 1000 });
    for (const server of servers) expect(await statusOf(server, key)).toBe(200);

    await operator().apiKeys.revoke(keyId, new Date());
    // Within the window each may still serve its copy; past it, neither does.
    pastFreshness();
    for (const server of servers) expect(await statusOf(server, key)).toBe(401);
  });

  it('an account suspended elsewhere is refused its paid tools by both once IDENTITY_CACHE_MS has passed', async () => {
    const { account, key } = await createAccountWithKey(operator(), { callsPerMinute: 1000 });
    for (const server of servers) {
      expect((await call(server, key, 'search_leads', { page_size: 1 })).isError).toBeFalsy();
    }

    await operator().accounts.update(account._id, { subscription_status: 'canceled' }, new Date());
    pastFreshness();
    for (const server of servers) {
      const result = await call(server, key, 'search_leads', { page_size: 1 });
      expect(toolError(result).code).toBe('subscription_required');
    }
  });

  it("an account's first unlock, made on one, shows on the other's cards once IDENTITY_CACHE_MS has passed", async () => {
    const [first, second] = servers;
    const { key } = await createAccountWithKey(operator(), { plan: 'scale', callsPerMinute: 1000 });
    const page = (await call(second, key, 'search_leads', { page_size: 1 })).structuredContent as {
      leads: { id: string; enriched: boolean }[];
    };
    const lead = page.leads[0] as { id: string; enriched: boolean };
    expect(lead.enriched).toBe(false);

    expect((await call(first, key, 'enrich_lead', { lead_id: lead.id })).isError).toBeFalsy();
    pastFreshness();
    const after = (await call(second, key, 'get_lead', { lead_id: lead.id })).structuredContent as {
      lead: { enriched: boolean };
    };
    expect(after.lead.enriched).toBe(true);
  });

  it('an account never gets more calls in a minute than calls_per_minute, however the calls are spread', async () => {
    const limit = 40;
    const { key } = await createAccountWithKey(operator(), { callsPerMinute: limit });
    const callsPerServer = 60;
    const results: CallToolResult[] = await Promise.all(
      servers.flatMap((server) =>
        Array.from({ length: callsPerServer }, () => call(server, key, 'get_filter_options')),
      ),
    );
    const refusals = results.filter((result) => result.isError).map((result) => toolError(result).code);
    expect(new Set(refusals)).toEqual(new Set(['rate_limited']));
    // Never more than the limit; and with more calls than that on each server, every leased call is spent.
    expect(results.length - refusals.length).toBe(limit);
  });
});
