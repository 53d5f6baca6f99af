import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import type { LeadDoc } from '../../src/domain/documents.js';
import { QUOTA_KEYS } from '../../src/plans.js';
import { tools } from '../../src/tools/registry.js';
import { callToolRaw, toolError } from '../support/mcp-client.js';
import { seededLeads } from '../support/seeded-data.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';
import { TOOL_POLICY } from '../support/tool-policy.js';

/**
 * Far in the future, so that a TTL index (real MongoDB) never removes the counters of "today"
 * between two readings of a test.
 */
const NOW = new Date('2099-03-15T12:00:00.000Z');

/** Every tool that needs a scope, with the scope the table (not the catalog) says it needs. */
const SCOPED_TOOLS = Object.entries(TOOL_POLICY).flatMap(([name, { scope }]) =>
  scope === null ? [] : [[name, scope] as const],
);

/** Per-tool scopes over the real tools and the seeded data, through the HTTP endpoint, with API keys. */
describe('scopes', () => {
  let server: TestServer;
  let controlLead: LeadDoc;
  let refusedLead: LeadDoc;

  beforeAll(async () => {
    server = await startTestServer({ tools, clock: () => NOW });
    const openLeadsOfKnownCompanies = (await seededLeads()).filter(
      (lead) => lead.is_open && lead.company.id !== null,
    );
    [controlLead, refusedLead] = openLeadsOfKnownCompanies as [LeadDoc, LeadDoc];
  });

  afterAll(async () => {
    await server?.close();
  });

  /** Arguments each tool accepts, so that only a missing scope can refuse the call. */
  const validArguments = (name: string, lead: LeadDoc): Record<string, unknown> => {
    switch (name) {
      case 'search_leads':
      case 'search_companies':
      case 'search_signals':
        return { page_size: 3 };
      case 'get_lead':
      case 'enrich_lead':
        return { lead_id: lead.id };
      case 'get_company':
        return { company_id: lead.company.id };
      case 'get_market_insights':
        return { group_by: 'work_type' };
      case 'get_account_usage':
      case 'get_filter_options':
        return {};
      default:
        throw new Error(`No arguments written for the tool ${name}`);
    }
  };

  /** What an account has to pay with, read from the stores: credits, today's counters, unlocks. */
  const balance = async (accountId: string) => ({
    credits: (await server.services.accounts.findById(accountId))?.credits_remaining,
    quotas: Object.fromEntries(
      await Promise.all(
        QUOTA_KEYS.map(
          async (quota) => [quota, await server.services.quotaCounters.used(accountId, quota, NOW)] as const,
        ),
      ),
    ),
    refusedLeadUnlock: await server.services.unlocks.find(accountId, refusedLead.id),
  });

  it.each(
    SCOPED_TOOLS,
  )('%s refuses a key lacking exactly %s with insufficient_scope, charging nothing', async (name, scope) => {
    const { account, key: everyScopeKey } = await createAccountWithKey(server.services, {
      plan: 'growth',
      callsPerMinute: 1000,
    });
    const { key: lackingKey } = await server.services.apiKeys.create(
      account._id,
      SCOPES.filter((granted) => granted !== scope),
      NOW,
    );

    // The same account with every scope is served: the arguments, the plan and the quotas are fine.
    const served = await callToolRaw(server.url, everyScopeKey, name, validArguments(name, controlLead));
    expect(served.isError, JSON.stringify(served.content)).toBeFalsy();
    const before = await balance(account._id);
    const meter = TOOL_POLICY[name]?.cost?.quota;
    // The stores show what a served call charges, so "unchanged" below is not read from empty counters.
    if (meter) expect(before.quotas[meter]).toBeGreaterThan(0);

    const refused = await callToolRaw(server.url, lackingKey, name, validArguments(name, refusedLead));
    expect(toolError(refused)).toMatchObject({
      code: 'insufficient_scope',
      details: { required_scope: scope },
    });
    expect(await balance(account._id)).toEqual(before);
  });

  it('get_filter_options answers a key with no scopes at all', async () => {
    const { key } = await createAccountWithKey(server.services, { scopes: [] });
    const answer = await callToolRaw(server.url, key, 'get_filter_options');
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ work_types: expect.any(Array) });
  });
});
