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
  COUNTED_COMPANIES_LIMIT,
  companyIdOfRankKey,
  readCompanyRanking,
} from '../../src/search/company-query.js';
import { LEAD_CARD_FIELDS } from '../../src/search/lead-query.js';
import { RECENT_SIGNAL_FIELDS } from '../../src/search/signal-query.js';

const now = new Date('2026-11-18T10:00:00Z');
const companyArgs = (args: Record<string, unknown>) => parseToolArguments(searchCompaniesInput, args);

describe('buildCompanyRanking', () => {
  it('counts open roles of profiled companies, ranked by count then name, with an exact total', () => {
    const { body } = buildCompanyRanking(companyArgs({ min_open_roles: 3 }), now, { offset: 20, size: 10 });
    expect(body.size).toBe(0);
    expect(body.query?.bool?.filter).toEqual([
      { term: { is_open: true } },
      { term: { 'company.is_agency': false } },
      { exists: { field: 'company.id' } },
    ]);
    expect(body.aggs?.ranked?.terms).toEqual({
      field: 'company.rank_key',
      size: 30,
      min_doc_count: 3,
      order: [{ _count: 'desc' }, { _key: 'asc' }],
    });
    expect(body.aggs?.counted?.terms).toMatchObject({ size: COUNTED_COMPANIES_LIMIT, min_doc_count: 3 });
    expect(body.aggs?.company_total).toEqual({ stats_bucket: { buckets_path: 'counted>_count' } });
    expect(body.filter_path).toEqual(['aggregations.ranked', 'aggregations.company_total', 'suggest']);
    // The ranking reads the aggregations only: counting the matching roles would be wasted work.
    expect(body.track_total_hits).toBe(false);
  });

  it('has nothing to note and no unknown place when no location is given', () => {
    const ranking = buildCompanyRanking(companyArgs({ skills: ['Go'] }), now, { offset: 0, size: 10 });
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
    );
    expect(notes).toEqual(['Read the title "data engineer" with "engineer" as Engineer or Developer.']);
    expect(body.query?.bool?.filter).toEqual([
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

  it('reports an unknown place', () => {
    const ranking = buildCompanyRanking(companyArgs({ location: 'Mordor' }), now, { offset: 0, size: 10 });
    expect(ranking.unknownPlace).toBe(true);
    expect(ranking.notes[0]).toMatch(/Mordor/);
  });
});

describe('readCompanyRanking', () => {
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

  it('slices the page by offset and reads the ids from the rank keys', () => {
    expect(readCompanyRanking(response, { offset: 1, size: 2 })).toEqual({
      total: 4,
      companies: [
        { companyId: 'co_BBBBBBBBBB', openRoles: 5 },
        { companyId: 'co_CCCCCCCCCC', openRoles: 5 },
      ],
    });
    expect(readCompanyRanking({}, { offset: 0, size: 10 })).toEqual({ total: 0, companies: [] });
  });

  it('reads a response from which the response filter dropped one of the aggregations', () => {
    expect(
      readCompanyRanking({ aggregations: { company_total: { count: 0 } } }, { offset: 0, size: 10 }),
    ).toEqual({ total: 0, companies: [] });
    expect(
      readCompanyRanking({ aggregations: { ranked: response.aggregations.ranked } }, { offset: 0, size: 1 }),
    ).toEqual({ total: 0, companies: [{ companyId: 'co_AAAAAAAAAA', openRoles: 9 }] });
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
