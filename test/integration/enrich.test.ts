import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminIo, runAdmin } from '../../src/admin/cli.js';
import { openAdminStores } from '../../src/admin/commands.js';
import type { Scope } from '../../src/auth/scopes.js';
import type { LeadDoc } from '../../src/domain/documents.js';
import type { QuotaKey } from '../../src/plans.js';
import { accessTokenFor, createUser } from '../support/access-tokens.js';
import { callToolRaw, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import {
  callOk,
  connectSeededClient,
  newestLeadsFirst,
  SEEDED_NOW,
  seededLeads,
  startSeededServer,
} from '../support/seeded-data.js';
import { createAccountWithKey, TEST_BASE_URL, type TestServer } from '../support/test-server.js';

/**
 * enrich_lead through the HTTP endpoint over the seeded data: unlocked or not, open or closed, each
 * error in the check order, and the concurrency guarantees (docs/enrichment.md, "Check order" and
 * "Why every interleaving ends right").
 */
describe('enrich_lead', () => {
  let server: TestServer;
  let openLeads: LeadDoc[];
  /** The newest open role of all, so certainly among its company's recent_leads. */
  let newestOpenLead: LeadDoc;
  let closedLeads: LeadDoc[];
  /** Each test takes leads of its own, so unlocks never leak between tests. */
  let nextOpen = 0;
  let nextClosed = 0;
  const takeOpenLeads = (count: number) => {
    nextOpen += count;
    return openLeads.slice(nextOpen - count, nextOpen);
  };
  const takeOpenLead = () => takeOpenLeads(1)[0] as LeadDoc;
  const takeClosedLead = () => closedLeads[nextClosed++] as LeadDoc;

  beforeAll(async () => {
    server = await startSeededServer();
    const leads = (await seededLeads()).sort(newestLeadsFirst);
    // Leads with a company profile from a non-agency, so every read tool can show them.
    const listed = leads.filter((lead) => lead.company.id !== null && !lead.company.is_agency);
    [newestOpenLead, ...openLeads] = listed.filter((lead) => lead.is_open) as [LeadDoc, ...LeadDoc[]];
    closedLeads = listed.filter((lead) => !lead.is_open);
    expect(openLeads.length).toBeGreaterThan(300);
    expect(closedLeads.length).toBeGreaterThan(5);
  });

  afterAll(async () => {
    await server?.close();
  });

  /** An account whose calls never hit the per-minute budget (the clock is pinned to one minute). */
  const newAccount = async (
    options: { credits?: number; enrichments?: number; scopes?: Scope[]; plan?: 'growth' | 'free' } = {},
  ) => {
    const created = await createAccountWithKey(server.services, {
      plan: options.plan ?? 'growth',
      callsPerMinute: 100_000,
      ...(options.scopes && { scopes: options.scopes }),
    });
    await server.services.accounts.update(
      created.account._id,
      {
        ...(options.credits !== undefined && { credits_remaining: options.credits }),
        ...(options.enrichments !== undefined && { quota_overrides: { enrichments: options.enrichments } }),
      },
      new Date(),
    );
    return created;
  };
  const enrich = (key: string, leadId: string) =>
    callToolRaw(server.url, key, 'enrich_lead', { lead_id: leadId });
  const credits = async (accountId: string) =>
    (await server.services.accounts.findById(accountId))?.credits_remaining;
  const used = (accountId: string, quota: QuotaKey = 'enrichments') =>
    server.services.quotaCounters.used(accountId, quota, SEEDED_NOW);
  const adminUnlock = async (accountId: string, leadId: string) => {
    const io: AdminIo = { stdout: () => {}, stderr: () => {} };
    const stores = await openAdminStores(server.services.mongo.db);
    expect(await runAdmin(['unlock', '--account', accountId, '--lead', leadId], stores, io)).toBe(0);
  };
  const structured = (result: CallToolResult) => {
    if (result.isError) throw new Error(`unexpected error ${JSON.stringify(toolError(result))}`);
    return result.structuredContent as Record<string, unknown> & { lead: Record<string, unknown> };
  };

  describe('state table', () => {
    it('not unlocked → enrich_lead: unlocked, 1 credit charged, details filled in', async () => {
      const { key, account } = await newAccount({ credits: 20 });
      const lead = takeOpenLead();
      const result = structured(await enrich(key, lead.id));
      expect(result).toMatchObject({
        already_enriched: false,
        charged_credits: 1,
        credits: 19,
        quota: { used: 1, limit: 300, remaining: 299, resets_at: '2026-11-02T00:00:00.000Z' },
        notes: [],
      });
      expect(result.lead).toMatchObject({
        id: lead.id,
        enriched: true,
        is_open: true,
        enrichment_cost_credits: 0,
        details: { job_links: lead.details.job_links, applicants: lead.details.applicants },
      });
      expect(await credits(account._id)).toBe(19);
      expect(await used(account._id)).toBe(1);
    });

    it('unlocked → enrich_lead: already_enriched, nothing charged', async () => {
      const { key, account } = await newAccount({ credits: 5 });
      const lead = takeOpenLead();
      structured(await enrich(key, lead.id));
      const again = structured(await enrich(key, lead.id));
      expect(again).toMatchObject({
        already_enriched: true,
        charged_credits: 0,
        credits: 4,
        quota: { used: 1 },
      });
      expect(again.lead.details).not.toBeNull();
      expect(await credits(account._id)).toBe(4);
      expect(await used(account._id)).toBe(1);
    });

    it('after an unlock every read tool agrees: search cards, get_lead and get_company', async () => {
      const { client, key } = await connectSeededClient(server, { plan: 'growth' });
      const lead = newestOpenLead;
      const companyId = lead.company.id as string;
      const card = async () => {
        const page = await callOk(client, 'search_leads', {
          company_id: companyId,
          title: lead.title,
          page_size: 25,
        });
        return page.leads.find((found: { id: string }) => found.id === lead.id);
      };
      const recentCard = async () =>
        (await callOk(client, 'get_company', { company_id: companyId })).company.recent_leads.find(
          (found: { id: string }) => found.id === lead.id,
        );

      expect(await card()).toMatchObject({ enriched: false });
      expect(await recentCard()).toMatchObject({ enriched: false });
      expect((await callOk(client, 'get_lead', { lead_id: lead.id })).lead).toMatchObject({
        enriched: false,
        enrichment_cost_credits: 1,
        details: null,
      });

      // Through the SDK client, which validates the result against enrich_lead's outputSchema.
      const enriched = await callOk(client, 'enrich_lead', { lead_id: lead.id });
      expect(enriched).toMatchObject({ already_enriched: false, charged_credits: 1 });
      expect(structured(await enrich(key, lead.id)).already_enriched).toBe(true);

      expect(await card()).toMatchObject({ enriched: true });
      expect(await recentCard()).toMatchObject({ enriched: true });
      expect((await callOk(client, 'get_lead', { lead_id: lead.id })).lead).toMatchObject({
        enriched: true,
        enrichment_cost_credits: 0,
        details: enriched.lead.details,
      });
    });

    it('an unlock in the app (admin unlock) makes enrich_lead free', async () => {
      const { key, account } = await newAccount({ credits: 3 });
      const lead = takeOpenLead();
      await adminUnlock(account._id, lead.id);
      await adminUnlock(account._id, lead.id);
      expect(structured(await enrich(key, lead.id))).toMatchObject({
        already_enriched: true,
        charged_credits: 0,
        credits: 3,
        quota: { used: 0 },
      });
      expect(await credits(account._id)).toBe(3);
    });

    it('a closed role unlocked before still answers already_enriched, with its details', async () => {
      const { key, account } = await newAccount({ credits: 0, enrichments: 0 });
      const lead = takeClosedLead();
      await adminUnlock(account._id, lead.id);
      const result = structured(await enrich(key, lead.id));
      expect(result).toMatchObject({ already_enriched: true, charged_credits: 0, credits: 0 });
      expect(result.lead).toMatchObject({ is_open: false, enriched: true, details: expect.any(Object) });
      expect(result.notes).toEqual([expect.stringMatching(/closed.*unlocked it earlier/)]);
    });
  });

  describe('errors, in the documented check order', () => {
    it('insufficient_scope comes first, even for an unknown lead (API key: the tool error)', async () => {
      const { key } = await newAccount({ scopes: ['leads:read', 'account:read'] });
      expect(toolError(await enrich(key, 'ld_0000000000'))).toMatchObject({
        code: 'insufficient_scope',
        details: { required_scope: 'leads:enrich' },
      });
    });

    it('an OAuth token lacking leads:enrich gets the 403 step-up challenge; with the scope it enriches', async () => {
      const { account } = await newAccount({ credits: 2 });
      const user = await createUser(server.services, account._id);
      // Token times are real times, whatever day the server's business clock is pinned to.
      const token = (scopes: Scope[]) => accessTokenFor(server, { userId: user._id, scopes });
      const lead = takeOpenLead();
      const refused = await postRaw(server.url, toolCallRequest('enrich_lead', { lead_id: lead.id }), {
        token: await token(['leads:read']),
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="leads:enrich", resource_metadata="${TEST_BASE_URL}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(await credits(account._id)).toBe(2);
      const granted = await callToolRaw(server.url, await token(['leads:enrich']), 'enrich_lead', {
        lead_id: lead.id,
      });
      expect(structured(granted)).toMatchObject({ charged_credits: 1, credits: 1 });
    });

    it('a free plan gets subscription_required', async () => {
      const { key } = await newAccount({ plan: 'free' });
      expect(toolError(await enrich(key, takeOpenLead().id)).code).toBe('subscription_required');
    });

    it('not_found before anything about credits or quota', async () => {
      const { key } = await newAccount({ credits: 0, enrichments: 0 });
      expect(toolError(await enrich(key, 'ld_0000000000'))).toMatchObject({
        code: 'not_found',
        details: { field: 'lead_id' },
      });
    });

    it('a closed role never unlocked: invalid_argument role_closed, before quota and credits', async () => {
      const { key, account } = await newAccount({ credits: 0, enrichments: 0 });
      expect(toolError(await enrich(key, takeClosedLead().id))).toMatchObject({
        code: 'invalid_argument',
        details: { field: 'lead_id', reason: 'role_closed' },
      });
      const { key: richKey, account: rich } = await newAccount({ credits: 10 });
      expect(toolError(await enrich(richKey, takeClosedLead().id)).details.reason).toBe('role_closed');
      expect(await credits(rich._id)).toBe(10);
      expect(await used(account._id)).toBe(0);
    });

    it('quota_exceeded after the day’s enrichments, before insufficient_credits', async () => {
      const { key, account } = await newAccount({ credits: 2, enrichments: 2 });
      for (const lead of takeOpenLeads(2)) structured(await enrich(key, lead.id));
      expect(await credits(account._id)).toBe(0);
      expect(toolError(await enrich(key, takeOpenLead().id))).toMatchObject({
        code: 'quota_exceeded',
        details: { quota: 'enrichments', resets_at: '2026-11-02T00:00:00.000Z' },
      });
      expect(await used(account._id)).toBe(2);
    });

    it('insufficient_credits when none are left, charging nothing', async () => {
      const { key, account } = await newAccount({ credits: 0 });
      const lead = takeOpenLead();
      expect(toolError(await enrich(key, lead.id))).toMatchObject({
        code: 'insufficient_credits',
        details: { credits: 0, resets_at: expect.stringMatching(/Z$/) },
      });
      expect(await used(account._id)).toBe(0);
      expect(await server.services.unlocks.find(account._id, lead.id)).toBeNull();
    });

    it('the default enrichments quota is 300 a day', async () => {
      const { key, account } = await newAccount({ credits: 1000 });
      // 299 units used today already, as if by earlier calls.
      await server.services.quotaCounters.charge(account._id, 'enrichments', 299, 300, {
        partial: false,
        now: SEEDED_NOW,
      });
      structured(await enrich(key, takeOpenLead().id));
      expect(toolError(await enrich(key, takeOpenLead().id)).details.quota).toBe('enrichments');
      expect(await used(account._id)).toBe(300);
      expect(await credits(account._id)).toBe(999);
    });
  });

  describe('monthly credits', () => {
    it('renew lazily to the plan allowance, once, however many calls see the date pass', async () => {
      const { key, account } = await newAccount({ credits: 0 });
      const due = new Date(SEEDED_NOW.getTime() - 60_000);
      await server.services.mongo.db
        .collection('accounts')
        .updateOne({ _id: account._id as never }, { $set: { credits_resets_at: due } });
      const results = await Promise.all(takeOpenLeads(20).map((lead) => enrich(key, lead.id)));
      expect(results.filter((result) => !result.isError)).toHaveLength(20);
      const after = await server.services.accounts.findById(account._id);
      // growth: 500 a month; a second renewal after some charges would have put credits back up.
      expect(after?.credits_remaining).toBe(480);
      expect(after?.credits_resets_at.getTime()).toBeGreaterThan(SEEDED_NOW.getTime());
      expect(after?.credit_claims).toEqual([]);
    });

    it('account set --credits sets them for the account, shared by all its keys', async () => {
      const { account, key } = await newAccount();
      const { key: secondKey } = await server.services.apiKeys.create(
        account._id,
        ['leads:enrich'],
        new Date(),
      );
      const io: AdminIo = { stdout: () => {}, stderr: () => {} };
      const stores = await openAdminStores(server.services.mongo.db);
      expect(await runAdmin(['account', 'set', '--account', account._id, '--credits', '2'], stores, io)).toBe(
        0,
      );
      structured(await enrich(key, takeOpenLead().id));
      expect(structured(await enrich(secondKey, takeOpenLead().id)).credits).toBe(0);
      expect(toolError(await enrich(key, takeOpenLead().id)).code).toBe('insufficient_credits');
    });
  });

  describe('concurrency', () => {
    it('100 simultaneous calls for one lead by one account charge exactly one credit', async () => {
      const { key, account } = await newAccount({ credits: 50 });
      const lead = takeOpenLead();
      const results = await Promise.all(Array.from({ length: 100 }, () => enrich(key, lead.id)));
      const outcomes = results.map(structured);
      const charged = outcomes.filter((outcome) => outcome.charged_credits === 1);
      const already = outcomes.filter((outcome) => outcome.already_enriched === true);
      const finalCredits = await credits(account._id);
      const finalEnrichments = await used(account._id);
      console.log(
        `[enrich] same lead: 100 calls, ${charged.length} charged_credits 1, ${already.length} already_enriched; ` +
          `credits 50 -> ${finalCredits}, enrichments used ${finalEnrichments}`,
      );
      expect(charged).toHaveLength(1);
      expect(already).toHaveLength(99);
      expect(finalCredits).toBe(49);
      expect(finalEnrichments).toBe(1);
      expect(await server.services.unlocks.find(account._id, lead.id)).toMatchObject({
        state: 'done',
        charged_credits: 1,
      });
      expect((await server.services.accounts.findById(account._id))?.credit_claims).toEqual([]);
    });

    it('100 simultaneous enrichments of different leads with 10 credits: exactly 10 succeed', async () => {
      const { key, account } = await newAccount({ credits: 10 });
      const leads = takeOpenLeads(100);
      const results = await Promise.all(leads.map((lead) => enrich(key, lead.id)));
      const succeeded = results.filter((result) => !result.isError);
      const refusals = results.filter((result) => result.isError).map((result) => toolError(result).code);
      const finalCredits = await credits(account._id);
      const finalEnrichments = await used(account._id);
      const unlocked = await server.services.unlocks.unlockedAmong(
        { _id: account._id },
        leads.map((lead) => lead.id),
      );
      console.log(
        `[enrich] different leads: 100 calls with 10 credits, ${succeeded.length} succeeded, ` +
          `${refusals.length} insufficient_credits; credits 10 -> ${finalCredits}, enrichments used ${finalEnrichments}, unlocks ${unlocked.size}`,
      );
      expect(succeeded).toHaveLength(10);
      expect(refusals).toEqual(Array(90).fill('insufficient_credits'));
      expect(finalCredits).toBe(0);
      expect(finalEnrichments).toBe(10);
      expect(unlocked.size).toBe(10);
      expect(
        await server.services.mongo.db
          .collection('unlocks')
          .countDocuments({ account_id: account._id, state: 'pending' }),
      ).toBe(0);
    });

    it('recovers the claims of calls that died mid-charge: every charge comes back, the lead is charged once', async () => {
      const { key, account } = await newAccount({ credits: 5 });
      const [lead, otherLead] = takeOpenLeads(2) as [LeadDoc, LeadDoc];
      const { services } = server;
      // What a process killed after charging leaves behind: a pending unlock and journalled charges.
      const dieMidCharge = async (leadId: string, claimId: string) => {
        const claimedLongAgo = new Date(Date.now() - 60_000);
        await services.unlocks.claim(account._id, leadId, claimId, {
          now: SEEDED_NOW,
          wallClock: claimedLongAgo,
        });
        await services.quotaCounters.reserveOne(account._id, 'enrichments', 300, claimId, SEEDED_NOW);
        await services.accounts.takeCredit(account._id, claimId);
      };
      await dieMidCharge(lead.id, 'claim-of-a-dead-call');
      expect(await credits(account._id)).toBe(4);
      expect(await used(account._id)).toBe(1);

      const result = structured(await enrich(key, lead.id));
      expect(result).toMatchObject({
        already_enriched: false,
        charged_credits: 1,
        credits: 4,
        quota: { used: 1 },
      });
      expect(await credits(account._id)).toBe(4);
      expect(await used(account._id)).toBe(1);

      // get_account_usage recovers them too, so it shows what the next call will meet.
      await dieMidCharge(otherLead.id, 'claim-of-another-dead-call');
      expect(await credits(account._id)).toBe(3);
      const usage = (await callToolRaw(server.url, key, 'get_account_usage')).structuredContent as {
        enrichment_credits: { remaining: number };
        daily_quotas: { enrichments: { used: number } };
      };
      expect(usage.enrichment_credits.remaining).toBe(4);
      expect(usage.daily_quotas.enrichments.used).toBe(1);
      expect(await services.unlocks.find(account._id, otherLead.id)).toBeNull();
      expect((await services.accounts.findById(account._id))?.credit_claims).toEqual([]);
    });
  });
});
