import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadDoc } from '../../src/domain/documents.js';
import type { QuotaKey } from '../../src/plans.js';
import { tools } from '../../src/tools/registry.js';
import { callError, callOk, connectSeededClient, seededLeads } from '../support/seeded-data.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * When daily quotas, the per-minute budget and monthly credits start afresh, through the HTTP
 * endpoint over the real tools. The server's clock is set by each test, so crossing a midnight or
 * a renewal date takes no waiting. All dates lie far in the future: with real MongoDB, a TTL index
 * would otherwise remove counters of a past day between two readings.
 */
describe('resets', () => {
  let now: Date;
  const setClock = (iso: string) => {
    now = new Date(iso);
  };
  let server: TestServer;
  let openLeads: LeadDoc[];
  const clients: Client[] = [];

  /** An account created at the clock's time, and a client for it. */
  const connect = async (options: Parameters<typeof connectSeededClient>[1] = {}) => {
    const connected = await connectSeededClient(server, { plan: 'growth', createdAt: now, ...options });
    clients.push(connected.client);
    return connected;
  };

  beforeAll(async () => {
    server = await startTestServer({ tools, clock: () => now });
    openLeads = (await seededLeads()).filter((lead) => lead.is_open);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.close();
  });

  const quotaState = (used: number, limit: number, resetsAt: string) => ({
    used,
    limit,
    remaining: limit - used,
    resets_at: resetsAt,
  });

  it('daily quotas used up at 23:59:59Z start afresh at 00:00:00Z the next day', async () => {
    const lastSecond = '2099-12-31T23:59:59.000Z';
    const midnight = '2100-01-01T00:00:00.000Z';
    const nextMidnight = '2100-01-02T00:00:00.000Z';
    const [leadEnrichedBefore, leadEnrichedAfter] = openLeads as [LeadDoc, LeadDoc];
    // One metered call per daily quota: the call before midnight uses the lowered quota up.
    const meteredCalls: {
      tool: string;
      quota: QuotaKey;
      limit: number;
      beforeMidnight: Record<string, unknown>;
      afterMidnight: Record<string, unknown>;
      chargedAfterMidnight: number;
    }[] = [
      {
        tool: 'search_leads',
        quota: 'lead_explores',
        limit: 5,
        beforeMidnight: { page_size: 5 },
        afterMidnight: { page_size: 3 },
        chargedAfterMidnight: 3,
      },
      {
        tool: 'search_companies',
        quota: 'company_explores',
        limit: 2,
        beforeMidnight: { page_size: 2 },
        afterMidnight: { page_size: 1 },
        chargedAfterMidnight: 1,
      },
      {
        tool: 'get_market_insights',
        quota: 'insight_queries',
        limit: 1,
        beforeMidnight: { group_by: 'work_type' },
        afterMidnight: { group_by: 'city' },
        chargedAfterMidnight: 1,
      },
      {
        tool: 'enrich_lead',
        quota: 'enrichments',
        limit: 1,
        beforeMidnight: { lead_id: leadEnrichedBefore.id },
        afterMidnight: { lead_id: leadEnrichedAfter.id },
        chargedAfterMidnight: 1,
      },
    ];

    setClock(lastSecond);
    const { client, accountId } = await connect();
    await server.services.accounts.update(
      accountId,
      { quota_overrides: Object.fromEntries(meteredCalls.map(({ quota, limit }) => [quota, limit])) },
      now,
    );
    for (const { tool, limit, beforeMidnight } of meteredCalls) {
      expect((await callOk(client, tool, beforeMidnight)).quota).toEqual(quotaState(limit, limit, midnight));
    }
    for (const { tool, quota, afterMidnight } of meteredCalls) {
      expect(await callError(client, tool, afterMidnight)).toMatchObject({
        code: 'quota_exceeded',
        details: { quota, resets_at: midnight },
      });
    }
    expect((await callOk(client, 'get_account_usage')).daily_quotas).toEqual(
      Object.fromEntries(meteredCalls.map(({ quota, limit }) => [quota, quotaState(limit, limit, midnight)])),
    );

    setClock(midnight);
    for (const { tool, limit, afterMidnight, chargedAfterMidnight } of meteredCalls) {
      expect((await callOk(client, tool, afterMidnight)).quota).toEqual(
        quotaState(chargedAfterMidnight, limit, nextMidnight),
      );
    }
    expect((await callOk(client, 'get_account_usage')).daily_quotas).toEqual(
      Object.fromEntries(
        meteredCalls.map(({ quota, limit, chargedAfterMidnight }) => [
          quota,
          quotaState(chargedAfterMidnight, limit, nextMidnight),
        ]),
      ),
    );
  });

  it('calls_per_minute used up at hh:mm:59.9 allows calls again at hh:(mm+1):00', async () => {
    setClock('2099-06-15T10:15:20.000Z');
    const { client } = await connect({ callsPerMinute: 3 });
    const rateLimited = (retryAfterSeconds: number) => ({
      code: 'rate_limited',
      details: { retry_after_seconds: retryAfterSeconds, calls_per_minute: 3 },
    });
    await callOk(client, 'get_account_usage');

    setClock('2099-06-15T10:15:59.900Z');
    await callOk(client, 'get_account_usage');
    await callOk(client, 'get_account_usage');
    expect(await callError(client, 'get_account_usage')).toMatchObject(rateLimited(1));

    setClock('2099-06-15T10:16:00.000Z');
    for (let call = 0; call < 3; call++) await callOk(client, 'get_account_usage');
    expect(await callError(client, 'get_account_usage')).toMatchObject(rateLimited(60));

    setClock('2099-06-15T10:16:45.000Z');
    expect(await callError(client, 'get_account_usage')).toMatchObject(rateLimited(15));

    setClock('2099-06-15T10:17:00.000Z');
    await callOk(client, 'get_account_usage');
  });

  it('enrichment credits spent before the renewal instant are back at it, renewing a month on', async () => {
    const [spentBefore, spentAfter] = openLeads as [LeadDoc, LeadDoc];
    // Created on the 31st: February clamps the renewal to its last day, March returns to the 31st.
    setClock('2099-01-31T09:30:00.000Z');
    const { client, accountId } = await connect();
    const februaryRenewal = '2099-02-28T09:30:00.000Z';
    const marchRenewal = '2099-03-31T09:30:00.000Z';
    const aprilRenewal = '2099-04-30T09:30:00.000Z';

    setClock('2099-02-28T09:29:59.999Z');
    await server.services.accounts.update(accountId, { credits_remaining: 1 }, now);
    expect(await callOk(client, 'enrich_lead', { lead_id: spentBefore.id })).toMatchObject({
      charged_credits: 1,
      credits: 0,
    });
    expect(await callError(client, 'enrich_lead', { lead_id: spentAfter.id })).toMatchObject({
      code: 'insufficient_credits',
      details: { credits: 0, resets_at: februaryRenewal },
    });
    expect((await callOk(client, 'get_account_usage')).enrichment_credits).toEqual({
      remaining: 0,
      monthly_allowance: 500,
      resets_at: februaryRenewal,
    });

    // enrich_lead renews the credits when it is the first call to see the date pass...
    setClock(februaryRenewal);
    expect(await callOk(client, 'enrich_lead', { lead_id: spentAfter.id })).toMatchObject({
      charged_credits: 1,
      credits: 499,
    });
    expect((await callOk(client, 'get_account_usage')).enrichment_credits).toEqual({
      remaining: 499,
      monthly_allowance: 500,
      resets_at: marchRenewal,
    });
    expect(await server.services.accounts.findById(accountId)).toMatchObject({
      credits_remaining: 499,
      credits_resets_at: new Date(marchRenewal),
    });

    // ...and so does get_account_usage.
    setClock('2099-03-31T09:29:59.999Z');
    expect((await callOk(client, 'get_account_usage')).enrichment_credits).toEqual({
      remaining: 499,
      monthly_allowance: 500,
      resets_at: marchRenewal,
    });
    setClock(marchRenewal);
    expect((await callOk(client, 'get_account_usage')).enrichment_credits).toEqual({
      remaining: 500,
      monthly_allowance: 500,
      resets_at: aprilRenewal,
    });
  });
});
