import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_KEYS, type QuotaKey } from '../../src/plans.js';
import { toolError } from '../support/mcp-client.js';
import {
  callError,
  callOk,
  connectSeededClient,
  type Json,
  SEEDED_NOW,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

/** The seeded day's next UTC midnight, when daily quotas reset. */
const RESETS_AT = '2026-11-02T00:00:00.000Z';

describe('daily quotas of the read tools', () => {
  let server: TestServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await startSeededServer();
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.close();
  });

  async function clientWithQuota(quota: QuotaKey, limit: number) {
    const connected = await connectSeededClient(server, { plan: 'growth' });
    await server.services.accounts.update(
      connected.accountId,
      { quota_overrides: { [quota]: limit } },
      SEEDED_NOW,
    );
    clients.push(connected.client);
    return connected;
  }

  it('search_leads pages shrink to what remains, then the call fails with quota_exceeded', async () => {
    const { client } = await clientWithQuota('lead_explores', 25);
    const pages: Json[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const result = await callOk(client, 'search_leads', { page_size: 10, cursor });
      pages.push(result);
      cursor = result.next_cursor;
    }
    expect(pages.map((page) => page.returned)).toEqual([10, 10, 5]);
    expect(pages.map((page) => page.quota.used)).toEqual([10, 20, 25]);
    expect(pages[2].quota).toEqual({ used: 25, limit: 25, remaining: 0, resets_at: RESETS_AT });
    expect(pages[0].notes).toEqual([]);
    expect(pages[2].notes.join(' ')).toMatch(/only 5 results because that is all the lead_explores quota/);
    // The shortened page still leads on: the rest can be read tomorrow.
    expect(pages[2].next_cursor).toEqual(expect.any(String));

    const refused = await callError(client, 'search_leads', { page_size: 10, cursor });
    expect(refused).toMatchObject({
      code: 'quota_exceeded',
      details: { quota: 'lead_explores', resets_at: RESETS_AT },
    });
    expect(await callError(client, 'get_lead', { lead_id: pages[0].leads[0].id })).toMatchObject({
      code: 'quota_exceeded',
      details: { quota: 'lead_explores' },
    });
  });

  it('the first call of the day on a quota below page_size gets a partial page, then quota_exceeded', async () => {
    const { client } = await clientWithQuota('lead_explores', 10);
    const page = await callOk(client, 'search_leads', { page_size: 25 });
    expect(page.returned).toBe(10);
    expect(page.quota).toEqual({ used: 10, limit: 10, remaining: 0, resets_at: RESETS_AT });
    expect(page.notes.join(' ')).toMatch(/only 10 results because that is all the lead_explores quota/);
    expect(
      await callError(client, 'search_leads', { page_size: 25, cursor: page.next_cursor }),
    ).toMatchObject({ code: 'quota_exceeded', details: { quota: 'lead_explores' } });

    const companies = await clientWithQuota('company_explores', 3);
    const companyPage = await callOk(companies.client, 'search_companies', { page_size: 25 });
    expect(companyPage.returned).toBe(3);
    expect(companyPage.notes.join(' ')).toMatch(
      /only 3 results because that is all the company_explores quota/,
    );
  });

  it('50 simultaneous searches never take lead explores past the limit', async () => {
    const { client, accountId } = await clientWithQuota('lead_explores', 137);
    const results = (await Promise.all(
      Array.from({ length: 50 }, () =>
        client.callTool({ name: 'search_leads', arguments: { page_size: 10 } }),
      ),
    )) as CallToolResult[];
    const served = results.filter((result) => !result.isError);
    const returned = served.map((result) => (result.structuredContent as Json).returned as number);
    expect(returned.reduce((sum, count) => sum + count, 0)).toBe(137);
    for (const result of results.filter((result) => result.isError)) {
      expect(toolError(result).code).toBe('quota_exceeded');
    }
    for (const result of served) {
      expect((result.structuredContent as Json).quota.used).toBeLessThanOrEqual(137);
    }
    expect(await server.services.quotaCounters.used(accountId, 'lead_explores', SEEDED_NOW)).toBe(137);
  });

  it('search_companies charges the companies it returns and shortens the page to the quota', async () => {
    const { client } = await clientWithQuota('company_explores', 12);
    const first = await callOk(client, 'search_companies', { page_size: 10 });
    expect(first.returned).toBe(10);
    const second = await callOk(client, 'search_companies', { page_size: 10, cursor: first.next_cursor });
    expect(second.returned).toBe(2);
    expect(second.quota).toMatchObject({ used: 12, remaining: 0 });
    expect(second.notes.join(' ')).toMatch(/company_explores quota/);
    const companyId = first.companies[0].id;
    expect(await callError(client, 'get_company', { company_id: companyId })).toMatchObject({
      code: 'quota_exceeded',
      details: { quota: 'company_explores', resets_at: RESETS_AT },
    });
  });

  it('get_market_insights costs one insight query per call, however many rows', async () => {
    const { client } = await clientWithQuota('insight_queries', 2);
    const first = await callOk(client, 'get_market_insights', { group_by: 'city', limit: 50 });
    expect(first.returned).toBe(50);
    expect(first.quota).toMatchObject({ used: 1, limit: 2, remaining: 1 });
    const second = await callOk(client, 'get_market_insights', { group_by: 'skill' });
    expect(second.quota).toMatchObject({ used: 2, remaining: 0 });
    expect(await callError(client, 'get_market_insights', { group_by: 'city' })).toMatchObject({
      code: 'quota_exceeded',
      details: { quota: 'insight_queries' },
    });
  });

  it('search_signals and get_filter_options are not metered', async () => {
    const { client, accountId } = await connectSeededClient(server, { plan: 'growth' });
    clients.push(client);
    const signals = await callOk(client, 'search_signals', {});
    expect(signals.returned).toBe(10);
    expect(signals.quota).toBeUndefined();
    await callOk(client, 'get_filter_options');
    for (const quota of QUOTA_KEYS) {
      expect(await server.services.quotaCounters.used(accountId, quota, SEEDED_NOW)).toBe(0);
    }
  });
});
