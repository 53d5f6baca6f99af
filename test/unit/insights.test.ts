import { describe, expect, it } from 'vitest';
import { INSIGHT_BREAKDOWN_BY, INSIGHT_GROUP_BY } from '../../src/domain/enums.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { marketInsightsInput } from '../../src/schemas/inputs.js';
import { marketInsightsOutput } from '../../src/schemas/outputs.js';
import {
  changePercent,
  type InsightsResponse,
  percentOf,
  shapeInsights,
} from '../../src/search/insights-query.js';
import { DEFAULT_MAX_BUCKETS, worstCaseBuckets } from '../support/aggregation-buckets.js';
import { onLeads } from '../support/insights-query.js';

const now = new Date('2026-11-18T10:00:00Z');
const insightArgs = (args: Record<string, unknown>) => parseToolArguments(marketInsightsInput, args);
const quota = { used: 1, limit: 100, remaining: 99, resets_at: '2026-11-19T00:00:00.000Z' };
const validate = (result: object) => marketInsightsOutput.parse({ ...result, quota });

describe('buildInsightsQuery', () => {
  it('is one size-0 search with an exact total over the search_leads filters', () => {
    const { body } = onLeads(insightArgs({ group_by: 'skill', filters: { work_type: 'Remote' } }), now);
    expect(body).toMatchObject({ size: 0, track_total_hits: true });
    expect(body.query?.bool?.filter).toEqual([
      { term: { is_open: true } },
      { term: { work_type: 'Remote' } },
      { term: { 'company.is_agency': false } },
    ]);
    expect(body.aggs?.groups?.terms).toEqual({
      field: 'skills',
      size: 10,
      order: [{ _count: 'desc' }, { _key: 'asc' }],
    });
  });

  it.each([
    ['experience_level', 'experience_level'],
    ['company', 'company.rank_key'],
    ['city', 'location.city'],
    ['country', 'location.country_code'],
    ['industry', 'industry'],
    ['title', 'title'],
  ])('groups %s on %s', (groupBy, field) => {
    expect(onLeads(insightArgs({ group_by: groupBy, limit: 3 }), now).body.aggs?.groups?.terms).toMatchObject(
      {
        field,
        size: 3,
      },
    );
  });

  it('adds breakdown and salary aggregations inside each group and counts roles with a salary', () => {
    const { body } = onLeads(
      insightArgs({ group_by: 'city', breakdown_by: 'work_type', metric: 'salary', currency: 'USD' }),
      now,
    );
    expect(body.aggs?.groups?.aggs).toEqual({
      breakdown: { terms: { field: 'work_type', size: 20, order: [{ _count: 'desc' }, { _key: 'asc' }] } },
      salary_stats: { stats: { field: 'salary_annual.usd_mid' } },
      salary_percentiles: {
        percentiles: { field: 'salary_annual.usd_mid', percents: [25, 50, 75], keyed: false },
      },
    });
    expect(body.aggs?.salary_sample).toEqual({ value_count: { field: 'salary_annual.usd_mid' } });
  });

  it('uses a calendar histogram filled up to today and bounded to the periods it can show', () => {
    const { body } = onLeads(insightArgs({ group_by: 'posted_week' }), now);
    // now is Wednesday 2026-11-18: the current week began on Monday 2026-11-16; with limit 10 the
    // histogram reaches back to the week before the tenth most recent, for its change_percent.
    expect(body.aggs?.groups?.date_histogram).toEqual({
      field: 'posted_date',
      calendar_interval: 'week',
      min_doc_count: 0,
      extended_bounds: { min: Date.parse('2026-11-18'), max: Date.parse('2026-11-18') },
      hard_bounds: { min: Date.parse('2026-09-07'), max: Date.parse('2026-11-23') },
    });
    expect(body.aggs?.before_periods).toEqual({
      filter: { range: { posted_date: { lt: '2026-09-07', format: 'yyyy-MM-dd' } } },
    });
    const month = onLeads(insightArgs({ group_by: 'posted_month', filters: { posted_within_days: 90 } }), now)
      .body.aggs?.groups?.date_histogram;
    expect(month).toMatchObject({
      calendar_interval: 'month',
      extended_bounds: { min: Date.parse('2026-08-20') },
      hard_bounds: { min: Date.parse('2026-01-01'), max: Date.parse('2026-12-01') },
    });
    // Empty periods are filled in no further back than the hard bounds reach.
    const longFilter = onLeads(
      insightArgs({ group_by: 'posted_week', limit: 3, filters: { posted_within_days: 365 } }),
      now,
    ).body.aggs?.groups?.date_histogram;
    expect(longFilter).toMatchObject({
      extended_bounds: { min: Date.parse('2026-10-26') },
      hard_bounds: { min: Date.parse('2026-10-26') },
    });
  });

  it('adds no period count to terms groups', () => {
    expect(onLeads(insightArgs({ group_by: 'city' }), now).body.aggs?.before_periods).toBeUndefined();
  });

  it('names filter fields with their filters. path in errors', () => {
    expect(() => onLeads(insightArgs({ group_by: 'city', filters: { radius_km: 10 } }), now)).toThrow(
      expect.objectContaining({ details: { field: 'filters.radius_km' } }),
    );
  });
});

describe('the bucket budget of get_market_insights', () => {
  const breakdowns = [undefined, ...INSIGHT_BREAKDOWN_BY];
  const combinations = INSIGHT_GROUP_BY.flatMap((groupBy) =>
    breakdowns
      .filter((breakdownBy) => breakdownBy !== groupBy)
      .map((breakdownBy) => [groupBy, breakdownBy] as const),
  );
  const variants = [
    { metric: 'count', filters: {} },
    { metric: 'salary', filters: { posted_within_days: 365, include_recruitment_agencies: true } },
  ];
  const largest = (groupBy: string, breakdownBy: string | undefined, variant: (typeof variants)[number]) =>
    onLeads(insightArgs({ group_by: groupBy, breakdown_by: breakdownBy, limit: 50, ...variant }), now).body
      .aggs;

  it.each(
    combinations,
  )('%s × %s at limit 50 cannot reach search.max_buckets, whatever the data', (groupBy, breakdownBy) => {
    for (const variant of variants) {
      expect(worstCaseBuckets(largest(groupBy, breakdownBy, variant))).toBeLessThanOrEqual(
        DEFAULT_MAX_BUCKETS,
      );
    }
  });

  it('is at most 3,485 buckets for any combination, and a trend covers at most limit + 1 periods', () => {
    const worst = Math.max(
      ...combinations.flatMap(([groupBy, breakdownBy]) =>
        variants.map((variant) => worstCaseBuckets(largest(groupBy, breakdownBy, variant))),
      ),
    );
    // 85 groups (50 at Elasticsearch's shard-side size) × (1 + 40 breakdown buckets), plus nothing else.
    expect(worst).toBe(3485);
    for (const groupBy of ['posted_week', 'posted_month']) {
      for (const day of ['2026-01-01', '2026-02-28', '2026-03-31', '2026-12-31', '2028-02-29']) {
        const aggs = onLeads(insightArgs({ group_by: groupBy, limit: 50 }), new Date(`${day}T23:59:59Z`)).body
          .aggs;
        const { groups, ...rest } = aggs ?? {};
        expect(worstCaseBuckets({ groups: groups as NonNullable<typeof groups> })).toBe(51);
        expect(worstCaseBuckets(rest)).toBe(1);
      }
    }
  });

  it('counts an unbounded histogram as unbounded, so the proof cannot pass by accident', () => {
    expect(
      worstCaseBuckets({ groups: { date_histogram: { field: 'posted_date', calendar_interval: 'week' } } }),
    ).toBe(Number.POSITIVE_INFINITY);
    expect(worstCaseBuckets({ groups: { histogram: { field: 'seq', interval: 1 } } })).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(() => worstCaseBuckets({ groups: { geohash_grid: { field: 'location.geo' } } })).toThrow(
      /No bucket bound/,
    );
  });
});

describe('shapeInsights', () => {
  it('shapes terms groups with shares, breakdown, salary and other_count', () => {
    const args = insightArgs({
      group_by: 'country',
      breakdown_by: 'experience_level',
      metric: 'salary',
      limit: 2,
    });
    const response: InsightsResponse = {
      hits: { total: { value: 200 } },
      aggregations: {
        groups: {
          sum_other_doc_count: 40,
          buckets: [
            {
              key: 'GB',
              doc_count: 120,
              breakdown: {
                buckets: [
                  { key: 'Senior', doc_count: 80 },
                  { key: 'Mid', doc_count: 40 },
                ],
              },
              salary_stats: { count: 100, min: 30000, max: 150000, avg: 72000.4 },
              salary_percentiles: {
                values: [
                  { key: 25, value: 55000.2 },
                  { key: 50, value: 70000 },
                  { key: 75, value: 90000.7 },
                ],
              },
            },
            {
              key: 'DE',
              doc_count: 40,
              breakdown: { buckets: [{ key: 'Senior', doc_count: 40 }] },
              salary_stats: { count: 0, min: null, max: null, avg: null },
              salary_percentiles: { values: [{ key: 25, value: null }] },
            },
          ],
        },
        salary_sample: { value: 150 },
      },
    };
    const result = shapeInsights(args, response, [], now);
    expect(validate(result)).toBeTruthy();
    expect(result).toMatchObject({
      group_by: 'country',
      breakdown_by: 'experience_level',
      metric: 'salary',
      currency: 'GBP',
      total: 200,
      returned: 2,
      other_count: 40,
    });
    expect(result.rows[0]).toEqual({
      key: 'GB',
      label: 'United Kingdom',
      count: 120,
      share_percent: 60,
      salary: {
        currency: 'GBP',
        sample_size: 100,
        min: 30000,
        p25: 55000,
        median: 70000,
        p75: 90001,
        max: 150000,
        mean: 72000,
      },
      breakdown: [
        { key: 'Senior', label: 'Senior', count: 80, share_percent: 66.7 },
        { key: 'Mid', label: 'Mid', count: 40, share_percent: 33.3 },
      ],
    });
    expect(result.rows[1]?.salary).toEqual({
      currency: 'GBP',
      sample_size: 0,
      min: null,
      p25: null,
      median: null,
      p75: null,
      max: null,
      mean: null,
    });
    expect(result.notes).toEqual([
      '50 of the 200 matching roles give no salary and are left out of the salary figures (annualised midpoints in GBP).',
    ]);
  });

  it('keys a company group by its id, or by name when it has no profile', () => {
    const args = insightArgs({ group_by: 'company' });
    const companyHit = (company: object) => ({ hits: { hits: [{ _source: { company } }] } });
    const result = shapeInsights(
      args,
      {
        hits: { total: 10 },
        aggregations: {
          groups: {
            sum_other_doc_count: 0,
            buckets: [
              {
                key: 'acme|co_AAAAAAAAAA',
                doc_count: 6,
                company_hit: companyHit({ id: 'co_AAAAAAAAAA', name: 'Acme' }),
              },
              { key: 'stealth|', doc_count: 4, company_hit: companyHit({ id: null, name: 'Stealth' }) },
            ],
          },
        },
      },
      [],
      now,
    );
    expect(result.rows.map(({ key, label }) => ({ key, label }))).toEqual([
      { key: 'co_AAAAAAAAAA', label: 'Acme' },
      { key: 'Stealth', label: 'Stealth' },
    ]);
    expect(validate(result)).toBeTruthy();
  });

  it('returns the last periods oldest first with change against the period before', () => {
    const args = insightArgs({ group_by: 'posted_week', limit: 3 });
    const week = (date: string, count: number) => ({ key: Date.parse(date), doc_count: count });
    const result = shapeInsights(
      args,
      {
        hits: { total: { value: 31 } },
        aggregations: {
          groups: {
            buckets: [
              week('2026-10-19', 6),
              week('2026-10-26', 10),
              week('2026-11-02', 0),
              week('2026-11-09', 12),
              week('2026-11-16', 3),
            ],
          },
        },
      },
      [],
      now,
    );
    expect(result.rows).toEqual([
      { key: '2026-11-02', label: 'Week of 2026-11-02', count: 0, share_percent: 0, change_percent: -100 },
      {
        key: '2026-11-09',
        label: 'Week of 2026-11-09',
        count: 12,
        share_percent: 38.7,
        change_percent: null,
      },
      { key: '2026-11-16', label: 'Week of 2026-11-16', count: 3, share_percent: 9.7, change_percent: -75 },
    ]);
    expect(result.other_count).toBe(16);
    const withEarlierRoles = shapeInsights(
      args,
      {
        hits: { total: { value: 31 } },
        aggregations: {
          groups: {
            buckets: [
              week('2026-10-26', 10),
              week('2026-11-02', 0),
              week('2026-11-09', 12),
              week('2026-11-16', 3),
            ],
          },
          before_periods: { doc_count: 6 },
        },
      },
      [],
      now,
    );
    expect(withEarlierRoles.rows).toEqual(result.rows);
    expect(withEarlierRoles.other_count).toBe(16);
    expect(result.notes[0]).toMatch(/Week of 2026-11-16.*in progress/);
    expect(validate(result)).toBeTruthy();
  });

  it('labels months and leaves change_percent null for the first period of all', () => {
    const args = insightArgs({ group_by: 'posted_month' });
    const result = shapeInsights(
      args,
      {
        hits: { total: { value: 9 } },
        aggregations: {
          groups: {
            buckets: [
              { key: Date.parse('2026-09-01'), doc_count: 4 },
              { key: Date.parse('2026-10-01'), doc_count: 5 },
            ],
          },
        },
      },
      [],
      now,
    );
    expect(result.rows).toEqual([
      { key: '2026-09', label: 'September 2026', count: 4, share_percent: 44.4, change_percent: null },
      { key: '2026-10', label: 'October 2026', count: 5, share_percent: 55.6, change_percent: 25 },
    ]);
    expect(result.notes).toEqual([]);
  });

  it('explains multi-valued skills and empty results, and keeps filter notes', () => {
    const empty = {
      hits: { total: { value: 0 } },
      aggregations: { groups: { buckets: [], sum_other_doc_count: 0 } },
    };
    expect(shapeInsights(insightArgs({ group_by: 'skill' }), empty, [], now).notes).toEqual([
      'A role needing several skills counts in each of their groups, so shares can add up to more than 100%.',
      'No open roles match these filters.',
    ]);
    expect(shapeInsights(insightArgs({ group_by: 'city' }), empty, ['unknown place'], now).notes).toEqual([
      'unknown place',
    ]);
  });
});

describe('percent helpers', () => {
  it('round to one decimal and avoid dividing by zero', () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(5, 0)).toBe(0);
    expect(changePercent(3, 2)).toBe(50);
    expect(changePercent(3, 0)).toBeNull();
    expect(changePercent(3, undefined)).toBeNull();
  });
});
