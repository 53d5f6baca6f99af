import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  elasticsearchPaths,
  startElasticsearch,
  stopElasticsearch,
} from '../../scripts/stack/elasticsearch-local.js';
import { elasticsearchHealthy, mongoAnswers, waitUntil } from '../../scripts/stack/health.js';
import { findJdk } from '../../scripts/stack/jdk.js';
import { installMongo, mongoPaths, startMongo, stopMongo } from '../../scripts/stack/mongo-local.js';
import { stackSettings } from '../../scripts/stack/settings.js';
import { readStackState } from '../../scripts/stack/state.js';
import { stackVersions } from '../../scripts/stack/versions.js';
import type { LeadDoc } from '../../src/domain/documents.js';
import { Unavailable } from '../../src/errors.js';
import { testBackends } from '../support/backends.js';
import { callToolRaw, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import { SEEDED_NOW, seededLeads, startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, type TestServer } from '../support/test-server.js';

/**
 * Backend outages (CONTRACT §2, §7): a call during an outage answers `unavailable` (or, when the
 * credential itself cannot be checked, HTTP 503), charges nothing, leaves nothing half-done, and
 * the first call after recovery works.
 */

const stack = readStackState();
const backends = testBackends();
/** Stopping servers is only ours to do when this run uses the local stack that `stack:up` started. */
const onLocalStack =
  stack?.mode === 'local' &&
  stack.elasticsearchUrl === backends.elasticsearchUrl &&
  stack.mongodbUri === backends.mongodbUri;

describe('enrich_lead when the database fails between its steps', () => {
  let server: TestServer;
  let openLeads: LeadDoc[];

  beforeAll(async () => {
    server = await startSeededServer();
    openLeads = (await seededLeads()).filter((lead) => lead.is_open);
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });

  // Each step of the charge in turn fails as a MongoDB outage would; the later ones run after
  // earlier steps have charged, so the undo is what keeps the account whole.
  const steps = [
    ['reserving the enrichment', () => vi.spyOn(server.services.quotaCounters, 'reserveOne')],
    ['taking the credit', () => vi.spyOn(server.services.accounts, 'takeCredit')],
    ['recording the unlock', () => vi.spyOn(server.services.unlocks, 'completeClaim')],
  ] as const;

  it.each(
    steps.map(([name], index) => [name, index] as const),
  )('fails while %s: unavailable, nothing charged, and the retry works', async (_name, stepIndex) => {
    const { key, account } = await createAccountWithKey(server.services, { callsPerMinute: 1000 });
    await server.services.accounts.update(account._id, { credits_remaining: 3 }, new Date());
    const lead = openLeads[stepIndex] as LeadDoc;
    steps[stepIndex]?.[1]().mockRejectedValueOnce(new Unavailable('database'));

    const failed = toolError(await callToolRaw(server.url, key, 'enrich_lead', { lead_id: lead.id }));
    expect(failed).toMatchObject({ code: 'unavailable', details: { retryable: true } });
    const after = await server.services.accounts.findById(account._id);
    expect(after).toMatchObject({ credits_remaining: 3, credit_claims: [] });
    expect(await server.services.quotaCounters.used(account._id, 'enrichments', SEEDED_NOW)).toBe(0);
    expect(await server.services.unlocks.find(account._id, lead.id)).toBeNull();

    const retried = await callToolRaw(server.url, key, 'enrich_lead', { lead_id: lead.id });
    expect(retried.structuredContent).toMatchObject({ charged_credits: 1, credits: 2, quota: { used: 1 } });
  });
});

describe.skipIf(!onLocalStack)('stopping and restarting the local backends', () => {
  const settings = stackSettings();
  const elasticsearch = elasticsearchPaths(settings, stackVersions.elasticsearch);
  const mongo = mongoPaths(settings, stackVersions.mongoJavaServer);
  let server: TestServer;
  let openLeads: LeadDoc[];
  let key: string;
  let accountId: string;

  const enrich = (leadId: string) => callToolRaw(server.url, key, 'enrich_lead', { lead_id: leadId });
  const accountState = async () => {
    const account = await server.services.accounts.findById(accountId);
    return {
      credits: account?.credits_remaining,
      enrichments: await server.services.quotaCounters.used(accountId, 'enrichments', SEEDED_NOW),
      leadExplores: await server.services.quotaCounters.used(accountId, 'lead_explores', SEEDED_NOW),
    };
  };
  const restartElasticsearch = async () => {
    // Health decides, not the launcher: its exit status has been seen to report a failure for a
    // node that came up all the same. A start that truly failed ends in waitUntil's timeout.
    const startFailure = await startElasticsearch(elasticsearch, settings, findJdk()).then(
      () => undefined,
      (error: unknown) => error,
    );
    await waitUntil(() => elasticsearchHealthy(backends.elasticsearchUrl), {
      what: `Elasticsearch after its restart${startFailure ? ` (the launcher said: ${String(startFailure)})` : ''}`,
      timeoutMs: 180_000,
    });
  };
  const restartMongo = async () => {
    startMongo(mongo, settings, findJdk(), await installMongo(mongo, stackVersions.mongoJavaServer));
    await waitUntil(() => mongoAnswers(backends.mongodbUri), {
      what: 'The MongoDB-wire server after its restart',
      timeoutMs: 60_000,
    });
  };

  beforeAll(async () => {
    server = await startSeededServer();
    openLeads = (await seededLeads()).filter((lead) => lead.is_open).slice(-10);
    const created = await createAccountWithKey(server.services, { callsPerMinute: 1000 });
    ({ key } = created);
    accountId = created.account._id;
    await server.services.accounts.update(accountId, { credits_remaining: 10 }, new Date());
  });

  afterAll(async () => {
    // Whatever happened, later test files need both servers back.
    if (!(await elasticsearchHealthy(backends.elasticsearchUrl))) await restartElasticsearch();
    if (!(await mongoAnswers(backends.mongodbUri))) await restartMongo();
    await server?.close();
  });

  it('Elasticsearch stopped: unavailable in time, nothing charged; after its restart the call works', async () => {
    const lead = openLeads[0] as LeadDoc;
    const before = await accountState();
    await stopElasticsearch(elasticsearch);
    try {
      const startedAt = Date.now();
      const results: CallToolResult[] = [
        await enrich(lead.id),
        await callToolRaw(server.url, key, 'search_leads', { page_size: 5 }),
        await callToolRaw(server.url, key, 'get_lead', { lead_id: lead.id }),
      ];
      expect(Date.now() - startedAt).toBeLessThan(3 * 3000);
      for (const result of results) {
        expect(toolError(result)).toMatchObject({ code: 'unavailable', details: { retryable: true } });
      }
      // MongoDB alone still answers the account's own questions.
      const usage = await callToolRaw(server.url, key, 'get_account_usage');
      expect(usage.structuredContent).toMatchObject({ enrichment_credits: { remaining: 10 } });
      expect(await accountState()).toEqual(before);
    } finally {
      await restartElasticsearch();
    }
    const recovered = await enrich(lead.id);
    expect(recovered.structuredContent).toMatchObject({ charged_credits: 1, credits: 9 });
    console.log(
      `[outage] Elasticsearch: ${JSON.stringify(before)} before, ${JSON.stringify(await accountState())} after recovery`,
    );
  }, 300_000);

  it('MongoDB-wire server stopped: refused within ~2 s, nothing charged; after its restart the call works', async () => {
    const lead = openLeads[1] as LeadDoc;
    const before = await accountState();
    await stopMongo(mongo);
    try {
      const startedAt = Date.now();
      const answer = await postRaw(server.url, toolCallRequest('enrich_lead', { lead_id: lead.id }), {
        token: key,
      });
      expect(Date.now() - startedAt).toBeLessThan(3500);
      // The credential cannot be checked: the HTTP edge answers 503 before any tool runs.
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.json).toMatchObject({ error: 'temporarily_unavailable' });
    } finally {
      await restartMongo();
    }
    await expect
      .poll(
        async () => (await postRaw(server.url, toolCallRequest('get_account_usage'), { token: key })).status,
        {
          timeout: 20_000,
          interval: 250,
        },
      )
      .toBe(200);
    expect(await accountState()).toEqual(before);
    const recovered = await enrich(lead.id);
    expect(recovered.structuredContent).toMatchObject({
      charged_credits: 1,
      credits: (before.credits ?? 0) - 1,
    });
  }, 300_000);

  it('MongoDB stopped in the middle of a charge: the charge is reversed after recovery', async () => {
    const lead = openLeads[2] as LeadDoc;
    const before = await accountState();
    // The server goes away just after the enrichment was reserved: the credit cannot be taken and
    // the undo cannot reach the database either, so the reservation stays journalled.
    const takeCredit = server.services.accounts.takeCredit.bind(server.services.accounts);
    vi.spyOn(server.services.accounts, 'takeCredit').mockImplementationOnce(async (...args) => {
      await stopMongo(mongo);
      return takeCredit(...args);
    });
    let failed: CallToolResult;
    try {
      failed = await enrich(lead.id);
    } finally {
      await restartMongo();
    }
    expect(toolError(failed).code).toBe('unavailable');
    await expect
      .poll(
        async () => (await postRaw(server.url, toolCallRequest('get_account_usage'), { token: key })).status,
        {
          timeout: 20_000,
          interval: 250,
        },
      )
      .toBe(200);
    // Once the claim is old enough to be known abandoned, the next look at the account reverses it.
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    const usage = (await callToolRaw(server.url, key, 'get_account_usage')).structuredContent as {
      enrichment_credits: { remaining: number };
      daily_quotas: { enrichments: { used: number } };
    };
    expect(usage.enrichment_credits.remaining).toBe(before.credits);
    expect(usage.daily_quotas.enrichments.used).toBe(before.enrichments);
    expect(await server.services.unlocks.find(accountId, lead.id)).toBeNull();
    const recovered = await enrich(lead.id);
    expect(recovered.structuredContent).toMatchObject({
      charged_credits: 1,
      credits: (before.credits ?? 0) - 1,
    });
    console.log(
      `[outage] MongoDB mid-charge: ${JSON.stringify(before)} before, ${JSON.stringify(await accountState())} after recovery and one enrichment`,
    );
  }, 300_000);
});
