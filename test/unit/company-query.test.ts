import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { searchCompaniesInput } from '../../src/schemas/inputs.js';
import {
  buildCompanyHiringSummary,
  buildRecentSignals,
  readCompanyHiring,
} from '../../src/search/company-profile-query.js';
import {
  buildCompanyRanking,
  companyIdOfRankKey,
  companySampleBody,
  EXACT_COMPANY_TOTAL,
  estimatedTotal,
  estimateNote,
  readCompanyRanking,
  totalIsTooLarge,
} from '../../src/search/company-query.js';
import { LEAD_CARD_FIELDS } from '../../src/search/lead-query.js';
import { RECENT_SIGNAL_FIELDS } from '../../src/search/signal-query.js';

const now = new Date('2026-11-18T10:00:00Z');
const companyArgs = (args: Record<string, unknown>) => parseToolArguments(searchCompaniesInput, args);

const onLeads = { rollups: false };
const withRollups = { rollups: true };

describe('buildCompanyRanking on the leads', () => {
  it('counts open roles of profiled companies, ranked by count then name, the total counted up to a bound', () => {
    const { body } = buildCompanyRanking(
      companyArgs({ min_open_roles: 3 }),
      now,
      { offset: 20, size: 10 },
      onLeads,
    );
    expect(body).toMatchObject({ offset: 20, size: 10, ranked: { index: 'leads' } });
    expect(body.counted).toBeUndefined();
    const ranked = body.ranked.body;
    expect(ranked.size).toBe(0);
    expect(ranked.query?.bool?.filter).toEqual([
      { term: { is_open: true } },
      { term: { 'company.is_agency': false } },
      { exists: { field: 'company.id' } },
    ]);
    expect(ranked.aggs?.ranked?.terms).toEqual({
      field: 'company.rank_key',
      size: 30,
      shard_size: 30,
      min_doc_count: 3,
      order: [{ _count: 'desc' }, { _key: 'asc' }],
    });
    expect(ranked.aggs?.counted?.terms).toMatchObject({ size: EXACT_COMPANY_TOTAL + 1, min_doc_count: 3 });
    expect(ranked.aggs?.company_total).toEqual({ stats_bucket: { buckets_path: 'counted>_count' } });
    expect(ranked.filter_path).toEqual(['aggregations.ranked', 'aggregations.company_total', 'suggest']);
    // The ranking reads the aggregations only: counting the matching roles would be wasted work.
    expect(ranked.track_total_hits).toBe(false);
  });

  it('has nothing to note and no unknown place when no location is given', () => {
    const ranking = buildCompanyRanking(
      companyArgs({ skills: ['Go'] }),
      now,
      { offset: 0, size: 10 },
      onLeads,
    );
    expect(ranking.notes).toEqual([]);
    expect(ranking.unknownPlace).toBe(false);
  });

  it('applies role and company filters on the lead fields', () => {
    const { body, notes } = buildCompanyRanking(
      companyArgs({
        name: 'Bänk*',
        industry: 'Fintech',
        location: 'Berlin',
        skills: ['Go'],
        hiring_for_title: 'data engineer',
        company_size: 'enterprise',
        posted_within_days: 30,
        include_recruitment_agencies: true,
      }),
      now,
      { offset: 0, size: 10 },
      withRollups,
    );
    expect(notes).toEqual(['Read the title "data engineer" with "engineer" as Engineer or Developer.']);
    expect(body.ranked.index).toBe('leads');
    expect(body.counted).toBeUndefined();
    expect(body.ranked.body.query?.bool?.filter).toEqual([
      { term: { is_open: true } },
      { term: { 'location.keys': 'city:2950159' } },
      {
        bool: {
          filter: [{ term: { title_terms: 'data' } }, { terms: { title_terms: ['engineer', 'developer'] } }],
        },
      },
      { term: { skills_key: 'go' } },
      { term: { industry_key: 'fintech' } },
      { term: { 'company.size_band': 'enterprise' } },
      { range: { posted_date: { gte: '2026-10-19', format: 'yyyy-MM-dd' } } },
      { exists: { field: 'company.id' } },
      { wildcard: { 'company.name_key': { value: '*bank\\**' } } },
    ]);
  });

  it('reports an unknown place, and searches nothing for it', () => {
    const ranking = buildCompanyRanking(
      companyArgs({ location: 'Mordor' }),
      now,
      { offset: 0, size: 10 },
      withRollups,
    );
    expect(ranking.unknownPlace).toBe(true);
    expect(ranking.notes[0]).toMatch(/Mordor/);
  });

  it('samples one company in `partitions` by the rank key when the total is too large to count', () => {
    const { body } = buildCompanyRanking(
      companyArgs({ skills: ['Go', 'Rust'] }),
      now,
      { offset: 0, size: 10 },
      onLeads,
    );
    const sample = companySampleBody(body, 2, 16);
    expect(sample.query).toEqual(body.ranked.body.query);
    expect(sample.aggs?.sampled?.terms).toMatchObject({
      field: 'company.rank_key',
      min_doc_count: 2,
      size: EXACT_COMPANY_TOTAL + 1,
      include: { partition: 0, num_partitions: 16 },
    });
  });
});

describe('buildCompanyRanking with the company roll-ups', () => {
  const rankedWith = (args: Record<string, unknown>) =>
    buildCompanyRanking(companyArgs(args), now, { offset: 20, size: 10 }, withRollups).body;

  it('counts the total on the roll-ups when the role filters name one facet, and ranks on the leads', () => {
    for (const [args, facet] of [
      [{ location: 'Berlin' }, 'place:city:2950159'],
      [{ location: 'UK' }, 'place:country:gb'],
      [{ skills: ['Golang'] }, 'skill:go'],
      [{ skills: ['k8s', 'Kubernetes'] }, 'skill:kubernetes'],
      [{ industry: 'FinTech', name: 'bank' }, 'industry:fintech'],
    ] as const) {
      const request = rankedWith({ ...args, min_open_roles: 3 });
      expect(request.ranked.index).toBe('leads');
      expect(request.ranked.body.aggs?.counted).toBeUndefined();
      expect(request.counted?.track_total_hits).toBe(true);
      expect(request.counted?.query?.bool?.filter).toContainEqual({
        range: { role_counts: { gte: `${facet}=0000003`, lte: `${facet}=9999999` } },
      });
    }
  });

  it('applies the company filters to the roll-ups as to the leads', () => {
    const request = rankedWith({ skills: ['Go'], min_open_roles: 4, company_size: 'startup', name: 'x' });
    expect(request.counted?.query?.bool?.filter).toEqual([
      { term: { view: 'companies' } },
      { term: { 'company.is_agency': false } },
      { term: { 'company.size_band': 'startup' } },
      { wildcard: { 'company.name_key': { value: '*x*' } } },
      { range: { role_counts: { gte: 'skill:go=0000004', lte: 'skill:go=9999999' } } },
    ]);
  });

  it('ranks on the roll-ups alone with no role filter: by all open roles, then name, from the offset', () => {
    const request = rankedWith({ min_open_roles: 2, include_recruitment_agencies: true });
    expect(request.counted).toBeUndefined();
    expect(request.ranked).toEqual({
      index: 'rollups',
      body: {
        query: {
          bool: { filter: [{ term: { view: 'companies' } }, { range: { open_roles: { gte: 2 } } }] },
        },
        sort: [{ open_roles: { order: 'desc' } }, { 'company.rank_key': { order: 'asc' } }],
        from: 20,
        size: 10,
        track_total_hits: true,
        _source: ['company.id', 'open_roles'],
      },
    });
  });

  it('counts on the leads what the roll-ups do not count: two facets, several skills, titles and days', () => {
    for (const args of [
      { location: 'Berlin', skills: ['Go'] },
      { skills: ['Go', 'Rust'] },
      { skills: ['tf'] },
      { hiring_for_title: 'engineer' },
      { posted_within_days: 7 },
      { location: 'Berlin', industry: 'Fintech' },
    ]) {
      const request = rankedWith(args);
      expect(request.ranked.index).toBe('leads');
      expect(request.counted).toBeUndefined();
    }
    expect(
      buildCompanyRanking(companyArgs({}), now, { offset: 0, size: 10 }, onLeads).body.ranked.index,
    ).toBe('leads');
  });

  it('reads a fuzzy reading on the leads only, counting there', () => {
    const ranking = buildCompanyRanking(
      companyArgs({ skills: ['Pythn'] }),
      now,
      { offset: 0, size: 10 },
      withRollups,
    );
    expect(ranking.body.counted).toBeDefined();
    expect(ranking.fallback?.body.ranked.index).toBe('leads');
    expect(ranking.fallback?.body.counted).toBeUndefined();
  });
});

describe('readCompanyRanking', () => {
  const request = (index: 'leads' | 'rollups', offset: number, size: number, counted?: object) => ({
    offset,
    size,
    ranked: { index, body: {} },
    ...(counted && { counted }),
  });
  const response = {
    aggregations: {
      ranked: {
        buckets: [
          { key: 'acme|co_AAAAAAAAAA', doc_count: 9 },
          { key: 'beta|co_BBBBBBBBBB', doc_count: 5 },
          { key: 'gamma|co_CCCCCCCCCC', doc_count: 5 },
        ],
      },
      company_total: { count: 4 },
    },
  };

  it('slices the page of the leads ranking by offset and reads the ids from the rank keys', () => {
    expect(readCompanyRanking(request('leads', 1, 2), response)).toEqual({
      total: 4,
      companies: [
        { companyId: 'co_BBBBBBBBBB', openRoles: 5 },
        { companyId: 'co_CCCCCCCCCC', openRoles: 5 },
      ],
    });
    expect(readCompanyRanking(request('leads', 0, 10), {})).toEqual({ total: 0, companies: [] });
  });

  it('reads a response from which the response filter dropped one of the aggregations', () => {
    expect(
      readCompanyRanking(request('leads', 0, 10), { aggregations: { company_total: { count: 0 } } }),
    ).toEqual({ total: 0, companies: [] });
    expect(
      readCompanyRanking(request('leads', 0, 1), { aggregations: { ranked: response.aggregations.ranked } }),
    ).toEqual({ total: 0, companies: [{ companyId: 'co_AAAAAAAAAA', openRoles: 9 }] });
  });

  it('takes the total from the roll-ups count when there is one', () => {
    const ranking = readCompanyRanking(request('leads', 0, 1, {}), response, {
      hits: { total: { value: 31 }, hits: [] },
    });
    expect(ranking).toEqual({ total: 31, companies: [{ companyId: 'co_AAAAAAAAAA', openRoles: 9 }] });
  });

  it('reads the roll-ups page as it comes, with each company’s open roles', () => {
    expect(
      readCompanyRanking(request('rollups', 20, 2), {
        hits: {
          total: { value: 31 },
          hits: [
            { _source: { company: { id: 'co_AAAAAAAAAA' }, open_roles: 12 } },
            { _source: { company: { id: 'co_BBBBBBBBBB' }, open_roles: 3 } },
          ],
        },
      }),
    ).toEqual({
      total: 31,
      companies: [
        { companyId: 'co_AAAAAAAAAA', openRoles: 12 },
        { companyId: 'co_BBBBBBBBBB', openRoles: 3 },
      ],
    });
  });

  it('knows when the leads counted too many companies to count exactly, and estimates from a sample', () => {
    const counted = (total: number) => ({ total, companies: [] });
    expect(totalIsTooLarge(request('leads', 0, 10), counted(EXACT_COMPANY_TOTAL))).toBe(false);
    expect(totalIsTooLarge(request('leads', 0, 10), counted(EXACT_COMPANY_TOTAL + 1))).toBe(true);
    expect(totalIsTooLarge(request('leads', 0, 10, {}), counted(EXACT_COMPANY_TOTAL + 1))).toBe(false);
    expect(totalIsTooLarge(request('rollups', 0, 10), counted(EXACT_COMPANY_TOTAL + 1))).toBe(false);
    const estimate = estimatedTotal(1000, 16);
    expect(estimate.total).toBe(16_000);
    // 1.96 standard errors of a binomial count of one company in 16.
    expect(estimate.margin).toBeCloseTo((1.96 * Math.sqrt(16_000 * 15)) / 16_000, 10);
    expect(
      estimateNote({ total: 16_000, companies: [], estimate: { margin: 0.06, partitions: 16 } }),
    ).toEqual([
      'More than 10,000 companies match, so total is an estimate from one company in 16: within 6% of the exact number 19 times in 20. The ranking itself is exact.',
    ]);
    expect(estimateNote(counted(5))).toEqual([]);
  });

  it('takes the id after the last separator', () => {
    expect(companyIdOfRankKey('a|b company|co_AAAAAAAAAA')).toBe('co_AAAAAAAAAA');
  });
});

describe('company profile queries', () => {
  it('takes open roles for the cards and summary, every role for the posting trend', () => {
    const body = buildCompanyHiringSummary('co_AAAAAAAAAA', now);
    expect(body.query).toEqual({ term: { 'company.id': 'co_AAAAAAAAAA' } });
    expect(body.post_filter).toEqual({ term: { is_open: true } });
    expect(body).toMatchObject({
      size: 5,
      track_total_hits: true,
      sort: [{ posted_date: 'desc' }, { seq: 'desc' }],
    });
    expect(body._source).toEqual({ includes: LEAD_CARD_FIELDS });
    expect(body.aggs?.open?.filter).toEqual({ term: { is_open: true } });
    expect(body.aggs?.posted?.date_range).toEqual({
      field: 'posted_date',
      format: 'yyyy-MM-dd',
      ranges: [
        { key: 'last_7_days', from: '2026-11-12' },
        { key: 'previous_7_days', from: '2026-11-05', to: '2026-11-12' },
      ],
    });
  });

  it('breaks the open roles down by count then name: every level and work type, the top 10 of the rest', () => {
    const byCountThenName = (field: string, size: number) => ({
      terms: { field, size, order: [{ _count: 'desc' }, { _key: 'asc' }] },
    });
    expect(buildCompanyHiringSummary('co_AAAAAAAAAA', now).aggs?.open?.aggs).toEqual({
      by_experience_level: byCountThenName('experience_level', 5),
      by_work_type: byCountThenName('work_type', 3),
      top_titles: byCountThenName('title', 10),
      top_skills: byCountThenName('skills', 10),
      top_locations: byCountThenName('location.city', 10),
    });
  });

  it('asks for the 5 newest signals of the company, uncounted, with the recent-signal fields', () => {
    expect(buildRecentSignals('co_AAAAAAAAAA')).toEqual({
      size: 5,
      sort: [{ announced_on: 'desc' }, { seq: 'desc' }],
      query: { bool: { filter: [{ term: { 'company.id': 'co_AAAAAAAAAA' } }] } },
      track_total_hits: false,
      _source: { includes: RECENT_SIGNAL_FIELDS },
    });
  });

  it('reads a company without roles, whose response has no total and no aggregations', () => {
    expect(readCompanyHiring({ hits: { hits: [{}] } })).toEqual({
      open_roles: 0,
      open_roles_by_experience_level: ['Entry', 'Mid', 'Senior', 'Lead', 'Executive'].map((label) => ({
        label,
        count: 0,
      })),
      open_roles_by_work_type: ['Remote', 'Hybrid', 'On-site'].map((label) => ({ label, count: 0 })),
      top_titles: [],
      top_skills: [],
      top_locations: [],
      posted_last_7_days: 0,
      posted_previous_7_days: 0,
      recentLeads: [],
    });
    expect(readCompanyHiring({ hits: { total: 3, hits: [] } }).open_roles).toBe(3);
  });

  it('reads the summary, listing every experience level and work type in order', () => {
    const hiring = readCompanyHiring({
      hits: { total: { value: 7 }, hits: [] },
      aggregations: {
        open: {
          by_experience_level: {
            buckets: [
              { key: 'Senior', doc_count: 4 },
              { key: 'Entry', doc_count: 3 },
            ],
          },
          by_work_type: { buckets: [{ key: 'Remote', doc_count: 7 }] },
          top_titles: { buckets: [{ key: 'Data Engineer', doc_count: 4 }] },
          top_skills: { buckets: [] },
          top_locations: { buckets: [{ key: 'London', doc_count: 7 }] },
        },
        posted: {
          buckets: [
            { key: 'last_7_days', doc_count: 3 },
            { key: 'previous_7_days', doc_count: 1 },
          ],
        },
      },
    });
    expect(hiring).toEqual({
      open_roles: 7,
      open_roles_by_experience_level: [
        { label: 'Entry', count: 3 },
        { label: 'Mid', count: 0 },
        { label: 'Senior', count: 4 },
        { label: 'Lead', count: 0 },
        { label: 'Executive', count: 0 },
      ],
      open_roles_by_work_type: [
        { label: 'Remote', count: 7 },
        { label: 'Hybrid', count: 0 },
        { label: 'On-site', count: 0 },
      ],
      top_titles: [{ label: 'Data Engineer', count: 4 }],
      top_skills: [],
      top_locations: [{ label: 'London', count: 7 }],
      posted_last_7_days: 3,
      posted_previous_7_days: 1,
      recentLeads: [],
    });
  });
});
