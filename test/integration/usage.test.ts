import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminIo, runAdmin } from '../../src/admin/cli.js';
import { openAdminStores } from '../../src/admin/commands.js';
import { SCOPES } from '../../src/auth/scopes.js';
import { addMonthsClamped } from '../../src/domain/calendar.js';
import type { LeadDoc } from '../../src/domain/documents.js';
import { callToolRaw, toolError } from '../support/mcp-client.js';
import {
  callOk,
  connectSeededClient,
  type Json,
  SEEDED_NOW,
  seededLeads,
  startSeededServer,
} from '../support/seeded-data.js';
import { createAccountWithKey, type TestServer } from '../support/test-server.js';

const RESETS_AT = '2026-11-02T00:00:00.000Z';

/**
 * get_account_usage and `admin usage` (docs/enrichment.md, "get_account_usage") through the HTTP
 * endpoint over the seeded data.
 */
describe('get_account_usage', () => {
  let server: TestServer;
  let openLeads: LeadDoc[];

  beforeAll(async () => {
    server = await startSeededServer();
    openLeads = (await seededLeads()).filter((lead) => lead.is_open);
  });

  afterAll(async () => {
    await server?.close();
  });

  const adminUsage = async (accountId: string): Promise<Json> => {
    const out: string[] = [];
    const io: AdminIo = { stdout: (text) => out.push(text), stderr: (text) => out.push(text) };
    const stores = await openAdminStores(server.services.mongo.db);
    expect(await runAdmin(['usage', '--account', accountId, '--json'], stores, io, SEEDED_NOW)).toBe(0);
    return JSON.parse(out.join('\n'));
  };

  it('shows exact counts before and after searches and enrichments', async () => {
    const { client, accountId } = await connectSeededClient(server, { plan: 'growth' });
    const account = await server.services.accounts.update(accountId, { credits_remaining: 100 }, new Date());
    // Credits renew a calendar month after the account was created.
    const renewal = addMonthsClamped(account?.created_at as Date, 1).toISOString();
    const before = await callOk(client, 'get_account_usage');
    expect(before).toEqual({
      plan: 'growth',
      subscription_status: 'active',
      credential: { type: 'api_key', scopes: [...SCOPES] },
      enrichment_credits: { remaining: 100, monthly_allowance: 500, resets_at: renewal },
      daily_quotas: {
        lead_explores: { used: 0, limit: 2500, remaining: 2500, resets_at: RESETS_AT },
        company_explores: { used: 0, limit: 1000, remaining: 1000, resets_at: RESETS_AT },
        insight_queries: { used: 0, limit: 250, remaining: 250, resets_at: RESETS_AT },
        enrichments: { used: 0, limit: 300, remaining: 300, resets_at: RESETS_AT },
      },
      calls_per_minute: 100_000,
      notes: [],
    });

    const page = await callOk(client, 'search_leads', { page_size: 7 });
    await callOk(client, 'get_lead', { lead_id: page.leads[0].id });
    const companies = await callOk(client, 'search_companies', { page_size: 3 });
    await callOk(client, 'get_company', { company_id: companies.companies[0].id });
    await callOk(client, 'get_market_insights', { group_by: 'work_type' });
    for (const lead of openLeads.slice(0, 2)) await callOk(client, 'enrich_lead', { lead_id: lead.id });
    await callOk(client, 'enrich_lead', { lead_id: openLeads[0]?.id });
    // Not metered:
    await callOk(client, 'search_signals', { page_size: 5 });
    await callOk(client, 'get_filter_options');
    await callOk(client, 'get_account_usage');

    const after = await callOk(client, 'get_account_usage');
    expect(after.daily_quotas).toEqual({
      lead_explores: { used: 8, limit: 2500, remaining: 2492, resets_at: RESETS_AT },
      company_explores: { used: 4, limit: 1000, remaining: 996, resets_at: RESETS_AT },
      insight_queries: { used: 1, limit: 250, remaining: 249, resets_at: RESETS_AT },
      enrichments: { used: 2, limit: 300, remaining: 298, resets_at: RESETS_AT },
    });
    expect(after.enrichment_credits).toEqual({ remaining: 98, monthly_allowance: 500, resets_at: renewal });

    const { credential, ...rest } = await adminUsage(accountId);
    const { credential: _, ...afterRest } = after;
    expect(rest).toEqual(afterRest);
    expect(credential).toEqual({ type: 'api_key', scopes: [...SCOPES] });
  });

  it('answers a free account and a canceled subscription, saying why access is refused', async () => {
    for (const options of [
      { plan: 'free' as const },
      { plan: 'growth' as const, status: 'canceled' as const },
    ]) {
      const { key } = await createAccountWithKey(server.services, options);
      const usage = (await callToolRaw(server.url, key, 'get_account_usage')).structuredContent as Json;
      expect(usage).toMatchObject({
        plan: options.plan,
        notes: [expect.stringMatching(/^MCP access is refused/)],
      });
      expect(toolError(await callToolRaw(server.url, key, 'search_leads')).code).toBe(
        'subscription_required',
      );
    }
  });

  it('notes credits used up, a quota nearly used up and a missing leads:enrich scope', async () => {
    const { client, accountId } = await connectSeededClient(server, {
      scopes: ['account:read', 'leads:read'],
    });
    await server.services.accounts.update(
      accountId,
      { credits_remaining: 0, quota_overrides: { lead_explores: 10 } },
      new Date(),
    );
    await callOk(client, 'search_leads', { page_size: 9 });
    const usage = await callOk(client, 'get_account_usage');
    expect(usage.credential).toEqual({ type: 'api_key', scopes: ['account:read', 'leads:read'] });
    expect(usage.notes).toEqual([
      expect.stringMatching(/^No enrichment credits are left/),
      expect.stringMatching(/^The daily lead_explores quota is nearly used up: 1 of 10 left/),
      expect.stringMatching(/lacks the scope leads:enrich/),
    ]);
  });

  it('needs account:read', async () => {
    const { key } = await createAccountWithKey(server.services, { scopes: ['leads:read'] });
    expect(toolError(await callToolRaw(server.url, key, 'get_account_usage'))).toMatchObject({
      code: 'insufficient_scope',
      details: { required_scope: 'account:read' },
    });
  });

  it('admin usage refuses an unknown account', async () => {
    const err: string[] = [];
    const io: AdminIo = { stdout: () => {}, stderr: (text) => err.push(text) };
    const stores = await openAdminStores(server.services.mongo.db);
    expect(await runAdmin(['usage', '--account', 'acc_nope'], stores, io)).toBe(2);
    expect(err.join('')).toMatch(/no account has the id "acc_nope"/);
  });
});
