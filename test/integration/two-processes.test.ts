import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/services.js';
import { createElasticsearchClient } from '../../src/stores/elasticsearch.js';
import { connectMongo } from '../../src/stores/mongo.js';
import { type ServerProcess, startServerProcess } from '../fuzz/server-process.js';
import { testConfig, testEnv } from '../support/backends.js';
import { callToolRaw, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import { runLog } from '../support/run-log.js';
import { createAccountWithKey } from '../support/test-server.js';

/**
 * Two real server processes over the same backends, as behind a load balancer: what each keeps in
 * memory (identity copies, rate-limit leases) must never let an account past its limits, and a
 * change made anywhere must reach both within IDENTITY_CACHE_MS (docs/performance.md).
 */
describe('two server processes', () => {
  let processes: ServerProcess[] = [];
  /** The stores as a third process (an operator's CLI) sees them. */
  let services: Services;
  let closeStores: () => Promise<void>;
  const freshnessMs = testConfig().IDENTITY_CACHE_MS;

  beforeAll(async () => {
    processes = await Promise.all([startServerProcess(testEnv()), startServerProcess(testEnv())]);
    const config = testConfig();
    const mongo = await connectMongo(config);
    const elasticsearch = createElasticsearchClient(config);
    services = createServices({ config, elasticsearch, mongo, logger: runLog() });
    closeStores = async () => {
      await Promise.allSettled([mongo.client.close(), elasticsearch.close()]);
    };
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((server) => server.stop()));
    await closeStores?.();
  });

  const call = (server: ServerProcess, key: string, name: string, args: Record<string, unknown> = {}) =>
    callToolRaw(`${server.baseUrl}/mcp`, key, name, args);

  const statusOf = async (server: ServerProcess, key: string) =>
    (await postRaw(`${server.baseUrl}/mcp`, toolCallRequest('get_filter_options'), { token: key })).status;

  const waitPastFreshness = () => new Promise((resolve) => setTimeout(resolve, freshnessMs));

  it('a key revoked elsewhere is refused by both once IDENTITY_CACHE_MS has passed', async () => {
    const { key, keyId } = await createAccountWithKey(services, { callsPerMinute: 1000 });
    for (const server of processes) expect(await statusOf(server, key)).toBe(200);

    await services.apiKeys.revoke(keyId, new Date());
    await waitPastFreshness();
    for (const server of processes) expect(await statusOf(server, key)).toBe(401);
  });

  it('an account suspended elsewhere is refused its paid tools by both once IDENTITY_CACHE_MS has passed', async () => {
    const { account, key } = await createAccountWithKey(services, { callsPerMinute: 1000 });
    for (const server of processes) {
      expect((await call(server, key, 'search_leads', { page_size: 1 })).isError).toBeFalsy();
    }

    await services.accounts.update(account._id, { subscription_status: 'canceled' }, new Date());
    await waitPastFreshness();
    for (const server of processes) {
      const result = await call(server, key, 'search_leads', { page_size: 1 });
      expect(toolError(result).code).toBe('subscription_required');
    }
  });

  it("an account's first unlock, made on one, shows on the other's cards once IDENTITY_CACHE_MS has passed", async () => {
    const [first, second] = processes as [ServerProcess, ServerProcess];
    const { key } = await createAccountWithKey(services, { plan: 'scale', callsPerMinute: 1000 });
    const page = (await call(second, key, 'search_leads', { page_size: 1 })).structuredContent as {
      leads: { id: string; enriched: boolean }[];
    };
    const lead = page.leads[0] as { id: string; enriched: boolean };
    expect(lead.enriched).toBe(false);

    expect((await call(first, key, 'enrich_lead', { lead_id: lead.id })).isError).toBeFalsy();
    await waitPastFreshness();
    const after = (await call(second, key, 'get_lead', { lead_id: lead.id })).structuredContent as {
      lead: { enriched: boolean };
    };
    expect(after.lead.enriched).toBe(true);
  });

  it('an account never gets more calls in a minute than calls_per_minute, however the calls are spread', async () => {
    const limit = 40;
    const { key } = await createAccountWithKey(services, { callsPerMinute: limit });
    // All calls must fall in one minute window; close to its end, start with the next one.
    const secondsLeft = 60 - new Date().getUTCSeconds();
    if (secondsLeft < 15) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100));

    const callsPerProcess = 60;
    const results: CallToolResult[] = await Promise.all(
      processes.flatMap((server) =>
        Array.from({ length: callsPerProcess }, () => call(server, key, 'get_filter_options')),
      ),
    );
    const refusals = results.filter((result) => result.isError).map((result) => toolError(result).code);
    expect(new Set(refusals)).toEqual(new Set(['rate_limited']));
    // Never more than the limit; and with more calls than that on each process, every leased call is spent.
    expect(results.length - refusals.length).toBe(limit);
  });
});
