import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { marketInsightsInput } from '../../src/schemas/inputs.js';
import { type InsightsResponse, shapeInsights } from '../../src/search/insights-query.js';
import { onLeads } from '../support/insights-query.js';

// Edge cases of get_market_insights' query and response shaping; test/unit/insights.test.ts has the main cases.

const now = new Date('2026-11-18T10:00:00Z');
const insightArgs = (args: Record<string, unknown>) => parseToolArguments(marketInsightsInput, args);
const shaped = (args: Record<string, unknown>, response: InsightsResponse, at = now) =>
  shapeInsights(insightArgs(args), response, [], at);
const withBuckets = (total: number, buckets: NonNullable<InsightsResponse['aggregations']>['groups']) => ({
  hits: { total },
  aggregations: { groups: buckets },
});

describe('the insights query', () => {
  it('asks for nothing inside the groups when counting without a breakdown', () => {
    const { aggs } = onLeads(insightArgs({ group_by: 'city' }), now).body;
    expect(aggs).toEqual({
      groups: {
        terms: { field: 'location.city', size: 10, order: [{ _count: 'desc' }, { _key: 'asc' }] },
      },
    });
  });

  it.each([
    ['work_type', 'work_type'],
    ['employment_type', 'employment_type'],
    ['skill', 'skills'],
  ])('groups %s on %s', (groupBy, field) => {
    expect(onLeads(insightArgs({ group_by: groupBy }), now).body.aggs?.groups?.terms).toMatchObject({
      field,
    });
  });

  it('reads one role per company group, for the company’s id and name only', () => {
    const { aggs } = onLeads(insightArgs({ group_by: 'company' }), now).body;
    expect(aggs?.groups?.aggs).toEqual({
      company_hit: { top_hits: { size: 1, _source: { includes: ['company.id', 'company.name'] } } },
    });
  });
});

describe('shaping the insights response', () => {
  it('reads a response without aggregations as no groups, for terms and for periods', () => {
    for (const group_by of ['city', 'posted_week']) {
      expect(shaped({ group_by }, { hits: { total: 0 } })).toMatchObject({
        total: 0,
        returned: 0,
        rows: [],
        other_count: 0,
        notes: ['No open roles match these filters.'],
      });
    }
  });

  it('labels a plain dimension with its value', () => {
    const result = shaped(
      { group_by: 'city' },
      withBuckets(10, { buckets: [{ key: 'Berlin', doc_count: 10 }], sum_other_doc_count: 0 }),
    );
    expect(result.rows).toEqual([{ key: 'Berlin', label: 'Berlin', count: 10, share_percent: 100 }]);
  });

  it('names the countries of a country breakdown, and gives an empty breakdown when none came back', () => {
    const result = shaped(
      { group_by: 'work_type', breakdown_by: 'country' },
      withBuckets(10, {
        buckets: [
          { key: 'Remote', doc_count: 8, breakdown: { buckets: [{ key: 'DE', doc_count: 8 }] } },
          { key: 'Hybrid', doc_count: 2 },
        ],
      }),
    );
    expect(result.rows.map((row) => row.breakdown)).toEqual([
      [{ key: 'DE', label: 'Germany', count: 8, share_percent: 100 }],
      [],
    ]);
  });

  it('names a company group from its rank key when its role came back without the company', () => {
    const result = shaped(
      { group_by: 'company' },
      withBuckets(6, {
        buckets: [
          { key: 'acme|co_AAAAAAAAAA', doc_count: 3 },
          { key: 'beta|co_BBBBBBBBBB', doc_count: 1, company_hit: { hits: { hits: [] } } },
          { key: 'gamma|co_CCCCCCCCCC', doc_count: 1, company_hit: { hits: { hits: [{}] } } },
          { key: 'delta|co_DDDDDDDDDD', doc_count: 1, company_hit: { hits: { hits: [{ _source: {} }] } } },
        ],
      }),
    );
    expect(result.rows.map(({ key, label }) => ({ key, label }))).toEqual([
      { key: 'acme', label: 'acme' },
      { key: 'beta', label: 'beta' },
      { key: 'gamma', label: 'gamma' },
      { key: 'delta', label: 'delta' },
    ]);
  });

  it('gives null salary figures that did not come back, and a zero sample without stats', () => {
    const result = shaped(
      { group_by: 'city', metric: 'salary' },
      withBuckets(6, {
        buckets: [
          {
            key: 'Berlin',
            doc_count: 4,
            salary_stats: { count: 4, min: 50000, max: 90000, avg: 70000 },
            salary_percentiles: { values: [{ key: 25, value: 60000 }] },
          },
          { key: 'Munich', doc_count: 1, salary_stats: { count: 1, min: 80000, max: 80000, avg: 80000 } },
          { key: 'Hamburg', doc_count: 1 },
        ],
      }),
    );
    const nulls = { p25: null, median: null, p75: null, min: null, max: null, mean: null };
    expect(result.rows.map((row) => row.salary)).toEqual([
      {
        currency: 'GBP',
        sample_size: 4,
        min: 50000,
        p25: 60000,
        median: null,
        p75: null,
        max: 90000,
        mean: 70000,
      },
      {
        currency: 'GBP',
        sample_size: 1,
        min: 80000,
        p25: null,
        median: null,
        p75: null,
        max: 80000,
        mean: 80000,
      },
      { currency: 'GBP', sample_size: 0, ...nulls },
    ]);
  });

  it('notes roles without a salary only when there are some', () => {
    const everyRoleHasOne = {
      hits: { total: 4 },
      aggregations: { groups: { buckets: [] }, salary_sample: { value: 4 } },
    };
    expect(shaped({ group_by: 'city', metric: 'salary' }, everyRoleHasOne).notes).toEqual([]);
    expect(shaped({ group_by: 'city', metric: 'salary' }, { hits: { total: 4 } }).notes).toEqual([
      '4 of the 4 matching roles give no salary and are left out of the salary figures (annualised midpoints in GBP).',
    ]);
  });
});

describe('the period still in progress', () => {
  const month = (date: string, count: number) => ({ key: Date.parse(date), doc_count: count });
  const notesAt = (groupBy: string, latest: string, at: Date) =>
    shaped({ group_by: groupBy, limit: 1 }, withBuckets(5, { buckets: [month(latest, 5)] }), at).notes;

  it('is noted for the current month', () => {
    expect(notesAt('posted_month', '2026-11-01', now)).toEqual([
      'The latest period (November 2026) is still in progress, so its count and change_percent cover only part of it.',
    ]);
  });

  it('begins at the first instant of the period and ends at the first instant of the next', () => {
    expect(notesAt('posted_week', '2026-11-16', new Date('2026-11-15T23:59:59.999Z'))).toEqual([]);
    expect(notesAt('posted_week', '2026-11-16', new Date('2026-11-16T00:00:00Z'))).toHaveLength(1);
    expect(notesAt('posted_week', '2026-11-16', new Date('2026-11-22T23:59:59.999Z'))).toHaveLength(1);
    expect(notesAt('posted_week', '2026-11-16', new Date('2026-11-23T00:00:00Z'))).toEqual([]);
    expect(notesAt('posted_month', '2026-10-01', new Date('2026-11-01T00:00:00Z'))).toEqual([]);
  });
});
