import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyDoc, LeadDoc } from '../../src/domain/documents.js';
import { foldKey } from '../../src/domain/fold.js';
import { QuotaCounters } from '../../src/metering/quota-counters.js';
import { QUOTA_KEYS, type QuotaKey } from '../../src/plans.js';
import { connectMongo, type MongoHandle } from '../../src/stores/mongo.js';
import { QuotaCountersStore } from '../../src/stores/quota-counters.js';
import { UnlocksStore } from '../../src/stores/unlocks.js';
import { tools } from '../../src/tools/registry.js';
import { type BackendProxies, startBackendProxies } from '../support/backend-proxies.js';
import { callToolRaw, toolError } from '../support/mcp-client.js';
import { runLog } from '../support/run-log.js';
import {
  type Json,
  openPrivateIndices,
  openSeededIndex,
  SEEDED_NOW,
  type SeededIndex,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Charges match what was served, through the real endpoint: a call that fails after its charge
 * keeps nothing of it, an account with nothing left is refused before any search runs, a page
 * is charged for what it holds, and a cursor is read strictly. Elasticsearch and the unlock
 * lookups reach the backends through TCP proxies that the tests cut, as a real outage would.
 */
describe('charges that match what was served', () => {
  let proxies: BackendProxies;
  let searchProxy: TcpProxy;
  let unlocksProxy: TcpProxy;
  let unlocksMongo: MongoHandle;
  let server: TestServer;

  beforeAll(async () => {
    proxies = await startBackendProxies();
    ({ elasticsearch: searchProxy, mongo: unlocksProxy } = proxies);
    server = await startTestServer({
      tools,
      clock: () => SEEDED_NOW,
      config: { ELASTICSEARCH_URL: proxies.config.ELASTICSEARCH_URL },
    });
    // The unlock lookups get a MongoDB client of their own, through the proxy, while quota counters
    // keep the direct one: a cut then fails the lookup and nothing else. Without read retries the
    // lookup fails at once instead of waiting for the server to come back.
    unlocksMongo = await connectMongo({
      ...server.config,
      MONGODB_URI: `${proxies.config.MONGODB_URI}&retryReads=false`,
    });
    server.services.unlocks = new UnlocksStore(unlocksMongo.db, server.services.accounts);
  });

  afterAll(async () => {
    await server?.close();
    await unlocksMongo?.client.close();
    await proxies?.close();
  });

  /** A fresh account with these daily quotas; `used()` reads every one of its counters. */
  async function accountWithQuotas(quotas: Partial<Record<QuotaKey, number>>) {
    const { account, key } = await createAccountWithKey(server.services, { callsPerMinute: 100_000 });
    await server.services.accounts.update(account._id, { quota_overrides: quotas }, SEEDED_NOW);
    const used = async () =>
      Object.fromEntries(
        await Promise.all(
          QUOTA_KEYS.map(async (quota) => [
            quota,
            await server.services.quotaCounters.used(account._id, quota, SEEDED_NOW),
          ]),
        ),
      );
    return { key, used, accountId: account._id };
  }

  const call = (key: string, tool: string, args: Record<string, unknown>) =>
    callToolRaw(server.url, key, tool, args);

  async function callOk(key: string, tool: string, args: Record<string, unknown>): Promise<Json> {
    const result = await call(key, tool, args);
    if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(toolError(result))}`);
    return result.structuredContent;
  }

  /** Runs `during` with the proxy cut, and restores it whatever happens. */
  async function whileCut(proxy: TcpProxy, during: () => Promise<void>) {
    await proxy.cut();
    try {
      await during();
    } finally {
      await proxy.restore();
    }
  }

  it('a search whose unlock lookup fails after the charge answers unavailable and is not charged', async () => {
    const { key, used, accountId } = await accountWithQuotas({ lead_explores: 100 });
    // An account that has unlocked leads before, whose cards need the lookup.
    await server.services.accounts.noteUnlocks(accountId);
    // A pooled connection for the cut to drop, as a running server has.
    await server.services.unlocks.unlockedAmong({ _id: 'warm-up' }, ['ld_0000000000']);
    await whileCut(unlocksProxy, async () => {
      const failed = toolError(await call(key, 'search_leads', { page_size: 25 }));
      expect(failed).toMatchObject({ code: 'unavailable', details: { retryable: true } });
    });
    expect(await used()).toMatchObject({ lead_explores: 0 });
  });

  it('every metered tool whose search fails after the charge answers unavailable and keeps no charge', async () => {
    const { key, used } = await accountWithQuotas({
      lead_explores: 100,
      company_explores: 100,
      insight_queries: 100,
    });
    const lead = (await callOk(key, 'search_leads', { page_size: 1 })).leads[0];
    const before = await used();
    await whileCut(searchProxy, async () => {
      for (const [tool, args] of [
        ['search_leads', { page_size: 25 }],
        ['get_lead', { lead_id: lead.id }],
        ['search_companies', { page_size: 25 }],
        ['get_company', { company_id: lead.company.id }],
        ['get_market_insights', { group_by: 'city', limit: 50 }],
      ] as const) {
        expect(toolError(await call(key, tool, args)), tool).toMatchObject({ code: 'unavailable' });
      }
    });
    expect(await used()).toEqual(before);
  });

  /**
   * Charges this process has seen room for run alongside their search (Meter.chargeAlongside).
   * "Another process" is a second QuotaCounters on the same database: it charges the same
   * counters while this server's memory of them goes stale, as a second server process would.
   */
  describe('charged alongside the search', () => {
    const anotherProcess = () =>
      new QuotaCounters(new QuotaCountersStore(server.services.mongo.db), runLog());

    it('a page keeps only what the quota granted when another process took the rest meanwhile, and its cursor goes on from there', async () => {
      const reference = await accountWithQuotas({});
      const all = await callOk(reference.key, 'search_leads', { page_size: 20 });
      const ids = (page: Json) => page.leads.map((lead: Json) => lead.id);

      const { key, accountId, used } = await accountWithQuotas({ lead_explores: 30 });
      const first = await callOk(key, 'search_leads', { page_size: 10 });
      expect(ids(first)).toEqual(ids(all).slice(0, 10));
      // This server saw 20 left; another process takes 15 of them.
      await anotherProcess().charge(accountId, 'lead_explores', 15, 30, { partial: false, now: SEEDED_NOW });

      const second = await callOk(key, 'search_leads', { page_size: 10, cursor: first.next_cursor });
      expect(ids(second)).toEqual(ids(all).slice(10, 15));
      expect(second.returned).toBe(5);
      expect(second.quota).toMatchObject({ used: 30, limit: 30, remaining: 0 });
      expect(second.notes.join(' ')).toMatch(/only 5 results because that is all the lead_explores quota/);
      expect(await used()).toMatchObject({ lead_explores: 30 });
      // The cursor resumes after the fifth lead, not after the tenth the search fetched.
      const third = await callOk(reference.key, 'search_leads', { page_size: 5, cursor: second.next_cursor });
      expect(ids(third)).toEqual(ids(all).slice(15, 20));
    });

    it('a ranking keeps only the companies the quota granted when another process took the rest', async () => {
      const reference = await accountWithQuotas({});
      const all = await callOk(reference.key, 'search_companies', { page_size: 10 });
      const { key, accountId, used } = await accountWithQuotas({ company_explores: 10 });
      await callOk(key, 'search_companies', { page_size: 3 });
      await anotherProcess().charge(accountId, 'company_explores', 5, 10, {
        partial: false,
        now: SEEDED_NOW,
      });

      const second = await callOk(key, 'search_companies', { page_size: 5 });
      expect(second.companies.map((company: Json) => company.id)).toEqual(
        all.companies.slice(0, 2).map((company: Json) => company.id),
      );
      expect(second.quota).toMatchObject({ used: 10, remaining: 0 });
      expect(await used()).toMatchObject({ company_explores: 10 });
    });

    it('a charge refused alongside its search answers quota_exceeded and keeps nothing', async () => {
      const { key, accountId, used } = await accountWithQuotas({ lead_explores: 20, insight_queries: 2 });
      await callOk(key, 'search_leads', { page_size: 10 });
      await callOk(key, 'get_market_insights', { group_by: 'city' });
      const other = anotherProcess();
      await other.charge(accountId, 'lead_explores', 10, 20, { partial: false, now: SEEDED_NOW });
      await other.charge(accountId, 'insight_queries', 1, 2, { partial: false, now: SEEDED_NOW });
      for (const [tool, args, quota] of [
        ['search_leads', { page_size: 10 }, 'lead_explores'],
        ['get_market_insights', { group_by: 'skill' }, 'insight_queries'],
      ] as const) {
        expect(toolError(await call(key, tool, args)), tool).toMatchObject({
          code: 'quota_exceeded',
          details: { quota },
        });
      }
      expect(await used()).toMatchObject({ lead_explores: 20, insight_queries: 2 });
    });

    it('a search that fails alongside its charge answers unavailable and keeps no charge', async () => {
      const { key, used } = await accountWithQuotas({
        lead_explores: 100,
        company_explores: 100,
        insight_queries: 100,
      });
      // Room seen on every counter, so each call below charges alongside its search.
      await callOk(key, 'search_leads', { page_size: 1 });
      await callOk(key, 'search_companies', { page_size: 1 });
      await callOk(key, 'get_market_insights', { group_by: 'city' });
      const before = await used();
      await whileCut(searchProxy, async () => {
        for (const [tool, args] of [
          ['search_leads', { page_size: 25 }],
          ['search_companies', { page_size: 25 }],
          ['get_market_insights', { group_by: 'city', limit: 50 }],
        ] as const) {
          expect(toolError(await call(key, tool, args)), tool).toMatchObject({ code: 'unavailable' });
        }
      });
      expect(await used()).toEqual(before);
    });
  });

  it('an account with nothing left is refused with quota_exceeded before any search runs', async () => {
    const { key, used } = await accountWithQuotas({
      lead_explores: 1,
      company_explores: 1,
      insight_queries: 1,
    });
    const lead = (await callOk(key, 'search_leads', { page_size: 1 })).leads[0];
    await callOk(key, 'search_companies', { page_size: 1 });
    await callOk(key, 'get_market_insights', { group_by: 'city' });
    const spent = await used();
    expect(spent).toMatchObject({ lead_explores: 1, company_explores: 1, insight_queries: 1 });

    // With Elasticsearch unreachable, any search would answer unavailable: quota_exceeded proves none ran.
    await whileCut(searchProxy, async () => {
      for (const [tool, args, quota] of [
        ['search_leads', { page_size: 25 }, 'lead_explores'],
        ['get_lead', { lead_id: lead.id }, 'lead_explores'],
        ['search_companies', { page_size: 25 }, 'company_explores'],
        ['get_company', { company_id: lead.company.id }, 'company_explores'],
        ['get_market_insights', { group_by: 'skill', limit: 50 }, 'insight_queries'],
      ] as const) {
        expect(toolError(await call(key, tool, args)), tool).toMatchObject({
          code: 'quota_exceeded',
          details: { quota, resets_at: '2026-11-02T00:00:00.000Z' },
        });
      }
    });
    expect(await used()).toEqual(spent);
  });

  it('a cursor with one character added is invalid_argument on cursor, and nothing is charged', async () => {
    const { key, used } = await accountWithQuotas({ lead_explores: 100 });
    const first = await callOk(key, 'search_leads', { page_size: 2 });
    expect(first.next_cursor).toEqual(expect.any(String));
    // Characters that a lenient base64url decoder skips, so the signature would still match.
    for (const extra of ['=', '~', '!', 'é']) {
      const refused = toolError(
        await call(key, 'search_leads', { page_size: 2, cursor: first.next_cursor + extra }),
      );
      expect(refused, JSON.stringify(extra)).toMatchObject({
        code: 'invalid_argument',
        details: { field: 'cursor' },
      });
    }
    expect(await used()).toMatchObject({ lead_explores: 2 });
    const second = await callOk(key, 'search_leads', { page_size: 2, cursor: first.next_cursor });
    expect(second.returned).toBe(2);
  });
});

/**
 * A role whose company id has no profile in the companies index (a company removed, or not yet
 * indexed) is ranked by search_companies but cannot be listed; it must not be charged. The
 * documents live in indices of this test's own, so the seeded data stays as seeded.
 */
describe('search_companies when a ranked company has no profile', () => {
  const GHOST_COMPANY_ID = 'co_GhostCo001';
  let seeded: SeededIndex;
  let own: Awaited<ReturnType<typeof openPrivateIndices>>;
  let server: TestServer;
  let company: CompanyDoc;

  beforeAll(async () => {
    seeded = openSeededIndex();
    own = await openPrivateIndices('ghost-company');
    const leads = await seeded.client.search<LeadDoc>({
      index: seeded.indices.leads,
      size: 3,
      sort: [{ seq: 'asc' }],
      query: {
        bool: {
          filter: [
            { term: { is_open: true } },
            { term: { 'company.is_agency': false } },
            { exists: { field: 'company.id' } },
          ],
        },
      },
    });
    const roles = leads.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
    const [role] = roles;
    if (!role?.company.id) throw new Error('the seeded data has no open role at a company with a profile');
    const profile = await seeded.client.get<CompanyDoc>({
      index: seeded.indices.companies,
      id: role.company.id,
    });
    company = profile._source as CompanyDoc;
    const ghostName = `${company.name} Ghost`;
    const ghostRole: LeadDoc = {
      ...role,
      id: 'ld_GhostLead1',
      seq: role.seq + 1_000_000,
      company: {
        ...role.company,
        id: GHOST_COMPANY_ID,
        name: ghostName,
        name_key: foldKey(ghostName),
        rank_key: `${foldKey(ghostName)}|${GHOST_COMPANY_ID}`,
      },
    };
    // The company with a profile has two roles, the one without has one: it ranks second.
    const operations = [
      { index: { _index: own.indices.companies, _id: company.id } },
      company,
      ...[role, { ...role, id: 'ld_RealLead02', seq: role.seq + 2_000_000 }, ghostRole].flatMap((lead) => [
        { index: { _index: own.indices.leads, _id: lead.id } },
        lead,
      ]),
    ];
    const bulk = await own.client.bulk({ operations, refresh: true });
    if (bulk.errors) throw new Error(`indexing the test documents failed: ${JSON.stringify(bulk.items)}`);
    server = await startSeededServer({ INDEX_PREFIX: own.prefix });
  });

  afterAll(async () => {
    await server?.close();
    await own?.close();
    await seeded?.close();
  });

  it('charges only the companies it returns', async () => {
    const { account, key } = await createAccountWithKey(server.services, { callsPerMinute: 100_000 });
    await server.services.accounts.update(
      account._id,
      { quota_overrides: { company_explores: 100 } },
      SEEDED_NOW,
    );
    const result = await callToolRaw(server.url, key, 'search_companies', { page_size: 10 });
    expect(result.isError).toBeFalsy();
    const page = result.structuredContent as Json;
    expect(page.total).toBe(2);
    expect(page.companies.map((listed: Json) => [listed.id, listed.open_roles])).toEqual([[company.id, 2]]);
    expect(page.returned).toBe(1);
    expect(page.quota).toMatchObject({ used: 1, remaining: 99 });
    expect(await server.services.quotaCounters.used(account._id, 'company_explores', SEEDED_NOW)).toBe(1);
  });
});
