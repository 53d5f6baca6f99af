import type { estypes } from '@elastic/elasticsearch';
import type { SearchCompaniesArgs } from '../schemas/inputs.js';
import type { Query, SearchBody } from './es.js';
import { type FallbackSearch, fallbackSearch } from './fallback.js';
import { addClause, addReading, buildLeadFilter, type FilterClauses } from './lead-query.js';
import { readCompanyName } from './text-filters.js';

/**
 * `search_companies` ranks companies by their matching open roles with ONE aggregation request on
 * the leads index, where company fields are copied onto every role: the page from a terms
 * aggregation on `company.rank_key`, the exact `total` from a second one under a `stats_bucket`
 * (docs/search-semantics.md, "search_companies"). The page's profiles are fetched by id after it.
 */

/** Upper bound on the companies the `total` can count; `search.max_buckets` must exceed it (the stacks raise it). */
export const COUNTED_COMPANIES_LIMIT = 200_000;

export interface CompanyRanking {
  body: SearchBody;
  notes: string[];
  unknownPlace: boolean;
  /** Run only when `body` ranks no company (`searchWithFallback`). */
  fallback: FallbackSearch | undefined;
}

export function buildCompanyRanking(
  args: SearchCompaniesArgs,
  now: Date,
  page: { offset: number; size: number },
): CompanyRanking {
  const clauses = companyRoleFilter(args, now);
  const byRank = (size: number): estypes.AggregationsAggregationContainer => ({
    terms: {
      field: 'company.rank_key',
      size,
      min_doc_count: args.min_open_roles,
      order: [{ _count: 'desc' }, { _key: 'asc' }],
    },
  });
  const bodyOf = (filter: Query[]): SearchBody => ({
    size: 0,
    track_total_hits: false,
    query: { bool: { filter } },
    aggs: {
      ranked: byRank(Math.max(1, page.offset + page.size)),
      counted: byRank(COUNTED_COMPANIES_LIMIT),
      company_total: { stats_bucket: { buckets_path: 'counted>_count' } },
    },
    // `suggest` is there only in the fuzzy reading, to say which spellings it found.
    filter_path: ['aggregations.ranked', 'aggregations.company_total', 'suggest'],
  });
  return {
    body: bodyOf(clauses.filter),
    notes: clauses.notes,
    unknownPlace: clauses.unknownPlace,
    fallback: fallbackSearch(clauses, bodyOf),
  };
}

/**
 * The role filters are the lead filters of `search_leads` under the names `search_companies` gives
 * them; on top, only companies with a profile (search_companies cannot list the others) and the
 * name filter.
 */
function companyRoleFilter(args: SearchCompaniesArgs, now: Date): FilterClauses {
  const clauses = buildLeadFilter(
    {
      location: args.location,
      skills: args.skills,
      title: args.hiring_for_title,
      industry: args.industry,
      company_size: args.company_size,
      posted_within_days: args.posted_within_days,
      include_recruitment_agencies: args.include_recruitment_agencies,
    },
    now,
    '',
    'hiring_for_title',
  );
  addClause(clauses, { exists: { field: 'company.id' } });
  // A leading-wildcard pattern walks the term dictionary of one field of company names: fine for
  // ~100,000 distinct names.
  if (args.name !== undefined)
    addReading(clauses, readCompanyName(args.name, 'company.name_key', 'company.name'));
  return clauses;
}

export interface RankedCompany {
  companyId: string;
  openRoles: number;
}

export interface RankingResponse {
  aggregations?: {
    ranked?: { buckets: Array<{ key: string | number; doc_count: number }> };
    company_total?: { count: number };
  };
}

/** The page of the ranking (by offset) and the exact number of companies meeting min_open_roles. */
export function readCompanyRanking(
  response: RankingResponse,
  page: { offset: number; size: number },
): { total: number; companies: RankedCompany[] } {
  const total = response.aggregations?.company_total?.count ?? 0;
  const buckets = response.aggregations?.ranked?.buckets ?? [];
  const companies = buckets.slice(page.offset, page.offset + page.size).map((bucket) => ({
    companyId: companyIdOfRankKey(String(bucket.key)),
    openRoles: bucket.doc_count,
  }));
  return { total, companies };
}

export function companyIdOfRankKey(rankKey: string): string {
  return rankKey.slice(rankKey.lastIndexOf('|') + 1);
}
