import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHT_BREAKDOWN_BY, INSIGHT_GROUP_BY } from '../../src/domain/enums.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { marketInsightsInput } from '../../src/schemas/inputs.js';
import { bucketsIn, DEFAULT_MAX_BUCKETS, worstCaseBuckets } from '../support/aggregation-buckets.js';
import { onLeads } from '../support/insights-query.js';
import {
  allLeads,
  callOk,
  connectSeededClient,
  type Json,
  openNonAgencyLeads,
  openSeededIndex,
  SEEDED_NOW,
  type SeededIndex,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

/**
 * get_market_insights at its largest (limit 50, every group_by × breakdown_by, salary figures,
 * agencies included, a year of postings) on the seeded data: each call answers, and the search
 * it runs builds no more buckets than the bound that test/unit/insights.test.ts proves stays
 * under Elasticsearch's default search.max_buckets.
 */
describe('get_market_insights bucket counts on the seeded data', () => {
  let server: TestServer;
  let client: Client;
  let index: SeededIndex;

  beforeAll(async () => {
    server = await startSeededServer();
    ({ client } = await connectSeededClient(server));
    index = openSeededIndex();
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await index?.close();
  });

  const combinations = INSIGHT_GROUP_BY.flatMap((groupBy) =>
    [undefined, ...INSIGHT_BREAKDOWN_BY]
      .filter((breakdownBy) => breakdownBy !== groupBy)
      .map((breakdownBy) => [groupBy, breakdownBy] as const),
  );

  it.each(
    combinations,
  )('%s × %s at limit 50 answers within the bucket bound', async (groupBy, breakdownBy) => {
    const args = {
      group_by: groupBy,
      ...(breakdownBy && { breakdown_by: breakdownBy }),
      limit: 50,
      metric: 'salary',
      filters: { posted_within_days: 365, include_recruitment_agencies: true },
    };
    const result = await callOk(client, 'get_market_insights', args);
    expect(result.returned).toBeGreaterThan(0);

    const query = onLeads(parseToolArguments(marketInsightsInput, args), SEEDED_NOW);
    const response = await index.client.search({ index: index.indices.leads, ...query.body });
    const buckets = bucketsIn(response.aggregations as Record<string, unknown>);
    // Every row and breakdown entry the tool returned is one of the buckets counted.
    const entries = result.rows.reduce((sum: number, row: Json) => sum + 1 + (row.breakdown?.length ?? 0), 0);
    expect(buckets).toBeGreaterThanOrEqual(entries);
    expect(buckets).toBeLessThanOrEqual(worstCaseBuckets(query.body.aggs));
    expect(worstCaseBuckets(query.body.aggs)).toBeLessThanOrEqual(DEFAULT_MAX_BUCKETS);
  });

  it('other_count still counts every role before the first period shown', async () => {
    const open = openNonAgencyLeads(await allLeads(index));
    for (const [groupBy, limit] of [
      ['posted_week', 5],
      ['posted_month', 3],
    ] as const) {
      const result = await callOk(client, 'get_market_insights', { group_by: groupBy, limit });
      expect(result.rows).toHaveLength(limit);
      const firstDay = groupBy === 'posted_week' ? result.rows[0].key : `${result.rows[0].key}-01`;
      const earlier = open.filter((lead) => lead.posted_date < firstDay).length;
      expect(earlier).toBeGreaterThan(1000);
      expect(result.other_count).toBe(earlier);
      expect(result.other_count + result.rows.reduce((sum: number, row: Json) => sum + row.count, 0)).toBe(
        result.total,
      );
    }
  });

  it('a weekly trend builds at most limit + 1 periods although the postings span more weeks', async () => {
    const args = parseToolArguments(marketInsightsInput, { group_by: 'posted_week', limit: 50 });
    const query = onLeads(args, SEEDED_NOW);
    const response = await index.client.search({ index: index.indices.leads, ...query.body });
    const weeks = (response.aggregations?.groups as { buckets: unknown[] }).buckets;
    expect(weeks).toHaveLength(51);
    // The seeded postings cover a year, 53 calendar weeks: the bound, not the data, decides.
    const oldest = await index.client.search({
      index: index.indices.leads,
      size: 1,
      sort: [{ posted_date: 'asc' }],
      query: { bool: { filter: [{ term: { is_open: true } }, { term: { 'company.is_agency': false } }] } },
      _source: ['posted_date'],
    });
    const firstPosting = (oldest.hits.hits[0]?._source as { posted_date: string }).posted_date;
    expect(Date.parse('2026-10-26') - Date.parse(firstPosting)).toBeGreaterThan(51 * 7 * 86_400_000);
  });
});
