import type { Client, estypes } from '@elastic/elasticsearch';
import type { LeadDoc } from '../../src/domain/documents.js';
import type { EmploymentType, ExperienceLevel, WorkType } from '../../src/domain/enums.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { marketInsightsInput, searchCompaniesInput, searchLeadsInput } from '../../src/schemas/inputs.js';
import { buildCompanyRanking } from '../../src/search/company-query.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import type { SearchBody } from '../../src/search/es.js';
import { totalHits } from '../../src/search/es.js';
import { type FallbackSearch, mapFallback, searchWithFallback } from '../../src/search/fallback.js';
import { buildInsightsQuery } from '../../src/search/insights-query.js';
import { buildLeadSearch } from '../../src/search/lead-query.js';

/**
 * The relevance suite's measurement (docs/search-quality.md, "Method"): every judged query is
 * read by the same code as the tool it is typed into (its argument schema and query builder, the
 * fallback reading only when the first finds nothing) and ALL its matches are fetched, not one
 * page; the relevant roles are found by the judgement alone, over every open role the tools look
 * at (not posted by an agency). For search_companies the units are the companies with a profile
 * that have at least one matching role.
 */

export type Tool = 'search_leads' | 'search_companies' | 'get_market_insights';

/** What a person means, over the fields of a role; every part given must hold. */
export interface Means {
  /** Case-insensitive regular expression over the display title. */
  title?: RegExp;
  /** The role needs any of these skills (names as the data spells them). */
  skills?: readonly string[];
  /** The role's industry is one of these. */
  industries?: readonly string[];
  /** The role is in one of these countries (ISO codes)… */
  countries?: readonly string[];
  /** …or, given instead, one of these cities (names as the data spells them). */
  cities?: readonly string[];
  workType?: WorkType;
  employmentType?: EmploymentType;
  levels?: readonly ExperienceLevel[];
  /** Nothing in the index is what the person means: any match is a wrong one. */
  nothing?: true;
}

export interface Judged {
  kind: string;
  /** The tool the arguments are typed into; search_leads when not given. */
  tool?: Tool;
  /** The tool's arguments; for get_market_insights, its `filters`. */
  args: Record<string, unknown>;
  means: Means;
}

export type UniverseLead = Pick<
  LeadDoc,
  'id' | 'title' | 'skills' | 'industry' | 'work_type' | 'employment_type'
> & {
  experience_level?: ExperienceLevel;
  location?: Pick<LeadDoc['location'], 'city' | 'country_code'>;
  company?: Pick<LeadDoc['company'], 'id'>;
};

const BATCH = 5000;

/** Every hit of `query` on `index`: its id, or its company's id for `byCompany`. */
async function allIds(
  client: Client,
  index: string,
  query: estypes.QueryDslQueryContainer,
  byCompany: boolean,
) {
  const ids = new Set<string>();
  let searchAfter: estypes.SortResults | undefined;
  for (;;) {
    const response = await client.search<UniverseLead>({
      index,
      query,
      size: BATCH,
      sort: [{ seq: 'asc' }],
      _source: byCompany ? { includes: ['company.id'] } : false,
      track_total_hits: false,
      ...(searchAfter ? { search_after: searchAfter } : {}),
    });
    for (const hit of response.hits.hits) {
      const id = byCompany ? hit._source?.company?.id : hit._id;
      if (id) ids.add(id);
    }
    if (response.hits.hits.length < BATCH) return ids;
    searchAfter = response.hits.hits.at(-1)?.sort;
  }
}

/** The open roles the tools look at by default (no agencies), with what the judgements read. */
async function loadUniverse(client: Client, index: string): Promise<UniverseLead[]> {
  const leads: UniverseLead[] = [];
  let searchAfter: estypes.SortResults | undefined;
  for (;;) {
    const response = await client.search<UniverseLead>({
      index,
      query: { bool: { filter: [{ term: { is_open: true } }, { term: { 'company.is_agency': false } }] } },
      size: BATCH,
      sort: [{ seq: 'asc' }],
      _source: {
        includes: [
          'id',
          'title',
          'skills',
          'industry',
          'work_type',
          'employment_type',
          'experience_level',
          'location.city',
          'location.country_code',
          'company.id',
        ],
      },
      track_total_hits: false,
      ...(searchAfter ? { search_after: searchAfter } : {}),
    });
    for (const hit of response.hits.hits) if (hit._source) leads.push(hit._source);
    if (response.hits.hits.length < BATCH) return leads;
    searchAfter = response.hits.hits.at(-1)?.sort;
  }
}

export function isRelevant(lead: UniverseLead, means: Means): boolean {
  if (means.nothing) return false;
  if (means.title && !means.title.test(lead.title)) return false;
  if (means.skills && !lead.skills.some((skill) => means.skills?.includes(skill))) return false;
  if (means.industries && !means.industries.includes(lead.industry)) return false;
  if (means.countries && !means.countries.includes(lead.location?.country_code ?? '')) return false;
  if (means.cities && !means.cities.includes(lead.location?.city ?? '')) return false;
  if (means.workType && lead.work_type !== means.workType) return false;
  if (means.employmentType && lead.employment_type !== means.employmentType) return false;
  if (means.levels && !means.levels.includes(lead.experience_level as ExperienceLevel)) return false;
  return true;
}

/** A tool's reading of the arguments: its first request and the fallback it may run instead. */
interface Reading {
  search: { body: SearchBody; fallback?: FallbackSearch | undefined };
  found: (response: SearchResult) => boolean;
}

/** A response, with `search_companies`' count of companies when it ranks them, and the query sent. */
type SearchResult = estypes.SearchResponse & {
  aggregations?: { company_total?: { count: number } };
  query?: estypes.QueryDslQueryContainer;
};

/** The roll-ups off: what is judged is which roles a query reads. */
const ROLES_READ = { rollups: false };

/** A tool's search with each of its requests as the body it sends to the leads index. */
function asLeadsSearch<Body>(
  search: { body: Body; fallback?: FallbackSearch<Body> | undefined },
  leadsBody: (body: Body) => SearchBody,
): Reading['search'] {
  return { body: leadsBody(search.body), fallback: mapFallback(search.fallback, leadsBody) };
}

function readingOf(query: Judged, now: Date): Reading {
  const byTotal = (response: SearchResult) => totalHits(response.hits?.total) > 0;
  switch (query.tool ?? 'search_leads') {
    case 'search_leads':
      return {
        search: buildLeadSearch(parseToolArguments(searchLeadsInput, query.args), FIRST_PAGE, 0, now),
        found: byTotal,
      };
    case 'get_market_insights':
      return {
        search: asLeadsSearch(
          buildInsightsQuery(
            parseToolArguments(marketInsightsInput, { group_by: 'country', filters: query.args }),
            now,
            ROLES_READ,
          ),
          (request) => request.body,
        ),
        found: byTotal,
      };
    case 'search_companies':
      return {
        search: asLeadsSearch(
          buildCompanyRanking(
            parseToolArguments(searchCompaniesInput, query.args),
            now,
            { offset: 0, size: 1 },
            ROLES_READ,
          ),
          (request) => request.ranked.body,
        ),
        found: (response) => (response.aggregations?.company_total?.count ?? 0) > 0,
      };
  }
}

/** What the tool matches for the query's arguments: the first reading, else its fallback. */
async function matchedIds(client: Client, index: string, query: Judged, now: Date) {
  const { search, found } = readingOf(query, now);
  const { response } = await searchWithFallback(
    search,
    async (body) =>
      ({ ...(await client.search({ index, ...body, size: 0 })), query: body.query }) as SearchResult,
    found,
  );
  return {
    ids: found(response)
      ? await allIds(client, index, response.query ?? { match_all: {} }, query.tool === 'search_companies')
      : new Set<string>(),
    fellBack: response.query !== search.body.query,
  };
}

export interface QueryResult {
  query: Judged;
  relevant: number;
  returned: number;
  /** Returned and relevant. */
  found: number;
  /** found / relevant; null when nothing is relevant. */
  recall: number | null;
  /** found / returned; null when nothing was returned. */
  precision: number | null;
  fellBack: boolean;
}

export async function evaluate(
  client: Client,
  index: string,
  queries: readonly Judged[],
  now: Date,
): Promise<QueryResult[]> {
  const universe = await loadUniverse(client, index);
  const results: QueryResult[] = [];
  for (const query of queries) {
    const relevantLeads = universe.filter((lead) => isRelevant(lead, query.means));
    const relevant = new Set(
      query.tool === 'search_companies'
        ? relevantLeads.flatMap((lead) => (lead.company?.id ? [lead.company.id] : []))
        : relevantLeads.map((lead) => lead.id),
    );
    const matched = await matchedIds(client, index, query, now);
    const found = [...matched.ids].filter((id) => relevant.has(id)).length;
    results.push({
      query,
      relevant: relevant.size,
      returned: matched.ids.size,
      found,
      recall: relevant.size === 0 ? null : found / relevant.size,
      precision: matched.ids.size === 0 ? null : found / matched.ids.size,
      fellBack: matched.fellBack,
    });
  }
  return results;
}

export interface Summary {
  queries: number;
  meanRecall: number;
  meanPrecision: number;
  /** Share of the queries with relevant roles that returned none. */
  zeroResultRate: number;
  zeroWithMatches: number;
}

const mean = (values: number[]) =>
  values.length === 0 ? 1 : values.reduce((sum, value) => sum + value, 0) / values.length;

export function summarise(results: readonly QueryResult[]): Summary {
  const withMatches = results.filter((result) => result.relevant > 0);
  const zeroWithMatches = withMatches.filter((result) => result.returned === 0).length;
  return {
    queries: results.length,
    meanRecall: mean(results.flatMap((result) => (result.recall === null ? [] : [result.recall]))),
    meanPrecision: mean(results.flatMap((result) => (result.precision === null ? [] : [result.precision]))),
    zeroResultRate: withMatches.length === 0 ? 0 : zeroWithMatches / withMatches.length,
    zeroWithMatches,
  };
}

const figure = (value: number | null) => (value === null ? '   -' : value.toFixed(2));

/** The arguments as typed, prefixed with the tool when it is not search_leads. */
function typed(query: Judged): string {
  const args = Object.entries(query.args)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ');
  const tool = query.tool ?? 'search_leads';
  return tool === 'search_leads' ? args : `${tool.replace(/^(search|get)_/, '')}: ${args}`;
}

/** One line per query, then the overall figures and the figures per kind of query. */
export function formatReport(results: readonly QueryResult[]): string {
  const lines = [
    `${'kind'.padEnd(12)} ${'query'.padEnd(56)} ${'relevant'.padStart(8)} ${'returned'.padStart(8)} recall precision`,
  ];
  for (const result of results) {
    const flag =
      result.relevant > 0 && result.returned === 0 ? '  ZERO' : result.fellBack ? '  (fallback)' : '';
    lines.push(
      `${result.query.kind.padEnd(12)} ${typed(result.query).padEnd(56)} ${String(result.relevant).padStart(8)} ${String(result.returned).padStart(8)}   ${figure(result.recall)}      ${figure(result.precision)}${flag}`,
    );
  }
  const line = (label: string, summary: Summary) =>
    `${label.padEnd(14)} ${String(summary.queries).padStart(4)} queries  recall ${summary.meanRecall.toFixed(3)}  precision ${summary.meanPrecision.toFixed(3)}  zero-result rate ${summary.zeroResultRate.toFixed(3)} (${summary.zeroWithMatches} with matches returned nothing)`;
  lines.push('', line('overall', summarise(results)));
  const kinds = [...new Set(results.map((result) => result.query.kind))];
  for (const kind of kinds) {
    lines.push(line(kind, summarise(results.filter((result) => result.query.kind === kind))));
  }
  return lines.join('\n');
}
