import type { estypes } from '@elastic/elasticsearch';
import { ALL_ROLES_FACET, countsFrom, industryFacet, placeFacet, skillFacet } from '../feed/rollups.js';
import { placeKey, resolvePlace } from '../reference/gazetteer.js';
import type { SearchCompaniesArgs } from '../schemas/inputs.js';
import type { Query, SearchBody } from './es.js';
import { type FallbackSearch, fallbackSearch, mapFallback, type SecondResponse } from './fallback.js';
import { addClause, addReading, buildLeadFilter, type FilterClauses } from './lead-query.js';
import { mapNothingFound, type NothingFound, nothingFound } from './left-out.js';
import { readCompanyName, readIndustry, readSkills } from './text-filters.js';

/**
 * `search_companies` ranks companies by their matching open roles (docs/search-semantics.md,
 * "search_companies"):
 *
 * - The page: a terms aggregation on `company.rank_key` over the matching roles (company fields
 *   are copied onto every role), sized just past the page, which ranks exactly; or, with no role
 *   filter at all, the company roll-ups sorted by their open roles.
 * - The total: when the role filters name at most one place, one skill or one industry, the company
 *   roll-ups with at least `min_open_roles` of it are counted exactly (src/feed/rollups.ts,
 *   docs/decisions/rollups.md); otherwise a second terms aggregation counts the companies exactly
 *   up to EXACT_COMPANY_TOTAL of them, and a sample of companies estimates the total beyond that.
 *
 * The page's profiles are fetched by id after it.
 */

/** Companies counted exactly on the leads index; beyond this, `total` is estimated. */
export const EXACT_COMPANY_TOTAL = 10_000;

type Target = { index: 'leads' | 'rollups'; body: SearchBody };

/** The requests of one page of the ranking, and the place of that page in the ranking. */
export interface RankingRequest {
  offset: number;
  size: number;
  /** Ranks the page; counts the total too, unless `counted` does. */
  ranked: Target;
  /** Counts the total on the company roll-ups, sent beside `ranked`. */
  counted?: SearchBody;
}

export interface CompanyRanking {
  body: RankingRequest;
  notes: string[];
  unknownPlace: boolean;
  /** Run only when `body` ranks no company (`searchWithFallback`); always on the leads. */
  fallback: FallbackSearch<RankingRequest> | undefined;
  /** Said when no reading ranks a company: how the location was read (no count of roles left out). */
  nothingFound: NothingFound<RankingRequest> | undefined;
}

export interface RankingOptions {
  /** Whether the company roll-ups may answer (they are complete for the live leads index). */
  rollups: boolean;
}

export function buildCompanyRanking(
  args: SearchCompaniesArgs,
  now: Date,
  page: { offset: number; size: number },
  options: RankingOptions,
): CompanyRanking {
  const clauses = companyRoleFilter(args, now);
  const onLeads = (filter: Query[], withTotal: boolean): RankingRequest => ({
    ...page,
    ranked: { index: 'leads', body: leadsRankingBody(filter, args.min_open_roles, page, withTotal) },
  });
  const fallback = fallbackSearch(clauses, (filter) => onLeads(filter, true).ranked.body);
  const onLeadsBody = (body: SearchBody): RankingRequest => ({ ...page, ranked: { index: 'leads', body } });
  const facet = options.rollups && !clauses.unknownPlace ? rolledUpFacet(args) : undefined;
  let body: RankingRequest;
  if (facet === undefined) body = onLeads(clauses.filter, true);
  else if (facet === ALL_ROLES_FACET) {
    body = { ...page, ranked: { index: 'rollups', body: rollupRankingBody(args, page) } };
  } else body = { ...onLeads(clauses.filter, false), counted: rollupCountBody(args, facet) };
  return {
    body,
    notes: clauses.notes,
    unknownPlace: clauses.unknownPlace,
    fallback: mapFallback(fallback, onLeadsBody),
    // Leaving out a filter counts roles, not companies holding min_open_roles of them.
    nothingFound: mapNothingFound(
      nothingFound(
        { filter: clauses.filter, byArgument: new Map(), nothingFoundNotes: clauses.nothingFoundNotes },
        'company',
      ),
      onLeadsBody,
    ),
  };
}

/**
 * The arguments a ranking on the company roll-ups reads; with any other (a title, a window of
 * days, or a filter added later), the roles are counted.
 */
const ROLLED_UP_ARGUMENTS: ReadonlySet<string> = new Set([
  'name',
  'industry',
  'location',
  'skills',
  'company_size',
  'min_open_roles',
  'include_recruitment_agencies',
  'page_size',
  'cursor',
]);

/**
 * The one facet the role filters count, when the company roll-ups count it: no role filter (every
 * open role), or only a place, only a skill read as one key, or only an industry read as one key.
 */
function rolledUpFacet(args: SearchCompaniesArgs): string | undefined {
  const unread = Object.entries(args).some(
    ([name, value]) => value !== undefined && !ROLLED_UP_ARGUMENTS.has(name),
  );
  if (unread) return undefined;
  const facets: string[] = [];
  if (args.location !== undefined) {
    const place = resolvePlace(args.location);
    if (!place) return undefined;
    facets.push(placeFacet(placeKey(place)));
  }
  if (args.skills?.length) {
    const [key, ...more] = readSkills(args.skills).keys ?? [];
    if (key === undefined || more.length > 0) return undefined;
    facets.push(skillFacet(key));
  }
  if (args.industry !== undefined) {
    const [key, ...more] = readIndustry(args.industry).keys ?? [];
    if (key === undefined || more.length > 0) return undefined;
    facets.push(industryFacet(key));
  }
  if (facets.length > 1) return undefined;
  return facets[0] ?? ALL_ROLES_FACET;
}

/** The company filters on the company roll-ups (the same fields as on the leads). */
function companyFilter(args: SearchCompaniesArgs): Query[] {
  const filter: Query[] = [{ term: { view: 'companies' } }];
  if (!args.include_recruitment_agencies) filter.push({ term: { 'company.is_agency': false } });
  if (args.company_size) filter.push({ term: { 'company.size_band': args.company_size } });
  if (args.name !== undefined)
    filter.push(readCompanyName(args.name, 'company.name_key', 'company.name').clause);
  return filter;
}

/** The companies with at least `min_open_roles` roles of `facet`, counted: one range of count tokens. */
function rollupCountBody(args: SearchCompaniesArgs, facet: string): SearchBody {
  return {
    size: 0,
    track_total_hits: true,
    query: {
      bool: {
        filter: [...companyFilter(args), { range: { role_counts: countsFrom(facet, args.min_open_roles) } }],
      },
    },
  };
}

/** Every company by its open roles, then name: the page from the offset, and the exact total. */
function rollupRankingBody(args: SearchCompaniesArgs, page: { offset: number; size: number }): SearchBody {
  return {
    query: {
      bool: { filter: [...companyFilter(args), { range: { open_roles: { gte: args.min_open_roles } } }] },
    },
    sort: [{ open_roles: { order: 'desc' } }, { 'company.rank_key': { order: 'asc' } }],
    from: page.offset,
    size: page.size,
    track_total_hits: true,
    _source: ['company.id', 'open_roles'],
  };
}

const countThenName: estypes.AggregationsAggregateOrder = [{ _count: 'desc' }, { _key: 'asc' }];

function byRank(size: number, minOpenRoles: number): estypes.AggregationsAggregationContainer {
  return {
    terms: {
      field: 'company.rank_key',
      size,
      // One shard: its own top `size` is exact, and no more buckets are built than asked for.
      shard_size: size,
      min_doc_count: minOpenRoles,
      order: countThenName,
    },
  };
}

/**
 * On the leads: the page from a terms aggregation sized just past it; `withTotal`, the companies
 * meeting min_open_roles counted by a second one built for at most EXACT_COMPANY_TOTAL + 1 of them.
 */
function leadsRankingBody(
  filter: Query[],
  minOpenRoles: number,
  page: { offset: number; size: number },
  withTotal: boolean,
): SearchBody {
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter } },
    aggs: {
      ranked: byRank(Math.max(1, page.offset + page.size), minOpenRoles),
      ...(withTotal && {
        counted: byRank(EXACT_COMPANY_TOTAL + 1, minOpenRoles),
        company_total: { stats_bucket: { buckets_path: 'counted>_count' } },
      }),
    },
    // `suggest` is there only in the fuzzy reading, to say which spellings it found.
    filter_path: ['aggregations.ranked', 'aggregations.company_total', 'suggest'],
  };
}

/**
 * The companies meeting min_open_roles among one in `partitions` of all companies (by a hash of
 * their rank key, so a sample independent of any filter): the estimate when there are more than
 * EXACT_COMPANY_TOTAL.
 */
export function companySampleBody(
  request: RankingRequest,
  minOpenRoles: number,
  partitions: number,
): SearchBody {
  return {
    size: 0,
    track_total_hits: false,
    query: request.ranked.body.query as Query,
    aggs: {
      sampled: {
        terms: {
          ...(byRank(EXACT_COMPANY_TOTAL + 1, minOpenRoles).terms as estypes.AggregationsTermsAggregation),
          include: { partition: 0, num_partitions: partitions },
        },
      },
      sample_total: { stats_bucket: { buckets_path: 'sampled>_count' } },
    },
    filter_path: ['aggregations.sample_total'],
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
  if (args.name !== undefined) {
    addReading(clauses, readCompanyName(args.name, 'company.name_key', 'company.name'), 'name');
    // The company named may be one: say how to see it.
    if (!args.include_recruitment_agencies) clauses.nothingFoundNotes.push(AGENCIES_LEFT_OUT);
  }
  return clauses;
}

const AGENCIES_LEFT_OUT =
  'Recruitment agencies are left out: set include_recruitment_agencies to true to search them too.';

interface RankedCompany {
  companyId: string;
  openRoles: number;
}

/** A page of the ranking, whichever index answered. */
/** A ranking; read on the leads, with what a second reading found, for its notes. */
export interface Ranking extends SecondResponse {
  total: number;
  /** The page's companies, in order. */
  companies: RankedCompany[];
  /** Set when `total` is estimated: the estimate's margin at 95%, as a fraction of it. */
  estimate?: { margin: number; partitions: number };
}

interface LeadsRankingResponse {
  aggregations?: {
    ranked?: { buckets: Array<{ key: string | number; doc_count: number }> };
    company_total?: { count: number };
    second_readings?: unknown;
  };
  suggest?: SecondResponse['suggest'];
}

interface RollupHitsResponse {
  hits: {
    total?: number | { value: number };
    hits: Array<{ _source?: { company?: { id?: string }; open_roles?: number } }>;
  };
}

export type RankingResponse = LeadsRankingResponse | RollupHitsResponse;

function hitsTotal(response: RollupHitsResponse): number {
  const { total } = response.hits;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

/**
 * The page the responses hold, in order, and the total: `ranked` answers `request.ranked`,
 * `counted` its `counted` request when it has one.
 */
export function readCompanyRanking(
  request: RankingRequest,
  ranked: RankingResponse,
  counted?: RankingResponse,
): Ranking {
  if (request.ranked.index === 'rollups') {
    const hits = ranked as RollupHitsResponse;
    return {
      total: hitsTotal(hits),
      companies: hits.hits.hits.map((hit) => ({
        companyId: hit._source?.company?.id ?? '',
        openRoles: hit._source?.open_roles ?? 0,
      })),
    };
  }
  const leads = ranked as LeadsRankingResponse;
  const buckets = leads.aggregations?.ranked?.buckets ?? [];
  return {
    total:
      counted === undefined
        ? (leads.aggregations?.company_total?.count ?? 0)
        : hitsTotal(counted as RollupHitsResponse),
    companies: buckets.slice(request.offset, request.offset + request.size).map((bucket) => ({
      companyId: companyIdOfRankKey(String(bucket.key)),
      openRoles: bucket.doc_count,
    })),
    ...(leads.suggest !== undefined ? { suggest: leads.suggest } : {}),
    ...(leads.aggregations?.second_readings !== undefined
      ? { aggregations: { second_readings: leads.aggregations.second_readings } }
      : {}),
  };
}

/** Whether a leads ranking counted more companies than it counts exactly. */
export function totalIsTooLarge(request: RankingRequest, ranking: Ranking): boolean {
  return (
    request.ranked.index === 'leads' && request.counted === undefined && ranking.total > EXACT_COMPANY_TOTAL
  );
}

/** The sampled count scaled up, with its margin at 95% (binomial sampling of companies). */
export function estimatedTotal(sampled: number, partitions: number): { total: number; margin: number } {
  const total = sampled * partitions;
  const margin = total > 0 ? (1.96 * Math.sqrt(total * (partitions - 1))) / total : 0;
  return { total, margin };
}

export function estimateNote(ranking: Ranking): string[] {
  if (!ranking.estimate) return [];
  const percent = Math.max(1, Math.round(ranking.estimate.margin * 100));
  return [
    `More than ${EXACT_COMPANY_TOTAL.toLocaleString('en-GB')} companies match, so total is an estimate from one company in ${ranking.estimate.partitions}: within ${percent}% of the exact number 19 times in 20. The ranking itself is exact.`,
  ];
}

export function companyIdOfRankKey(rankKey: string): string {
  return rankKey.slice(rankKey.lastIndexOf('|') + 1);
}
