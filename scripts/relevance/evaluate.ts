import type { Client, estypes } from '@elastic/elasticsearch';
import type { LeadDoc } from '../../src/domain/documents.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { searchLeadsInput } from '../../src/schemas/inputs.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { totalHits } from '../../src/search/es.js';
import { searchWithFallback } from '../../src/search/fallback.js';
import { buildLeadSearch } from '../../src/search/lead-query.js';
import type { JudgedQuery } from './judged-queries.js';

/**
 * The relevance suite's measurement (docs/search-quality.md, "Method"): every judged query is
 * read by the same code as search_leads (its argument schema and query builder, the fallback
 * reading only when the first finds nothing) and ALL its matches are fetched, not one page; the
 * relevant roles are found by the judgement alone, over every open role that search_leads looks
 * at (not posted by an agency).
 */

export type UniverseLead = Pick<LeadDoc, 'id' | 'title' | 'skills' | 'industry'>;

const BATCH = 5000;

/** Every hit of `query` on `index`, by `search_after` over the leads' own order. */
async function allIds(client: Client, index: string, query: estypes.QueryDslQueryContainer) {
  const ids: string[] = [];
  let searchAfter: estypes.SortResults | undefined;
  for (;;) {
    const response = await client.search<UniverseLead>({
      index,
      query,
      size: BATCH,
      sort: [{ seq: 'asc' }],
      _source: false,
      track_total_hits: false,
      ...(searchAfter ? { search_after: searchAfter } : {}),
    });
    for (const hit of response.hits.hits) if (hit._id) ids.push(hit._id);
    if (response.hits.hits.length < BATCH) return ids;
    searchAfter = response.hits.hits.at(-1)?.sort;
  }
}

/** The open roles search_leads looks at by default (no agencies), with what the judgements read. */
async function loadUniverse(client: Client, index: string): Promise<UniverseLead[]> {
  const leads: UniverseLead[] = [];
  let searchAfter: estypes.SortResults | undefined;
  for (;;) {
    const response = await client.search<UniverseLead>({
      index,
      query: { bool: { filter: [{ term: { is_open: true } }, { term: { 'company.is_agency': false } }] } },
      size: BATCH,
      sort: [{ seq: 'asc' }],
      _source: { includes: ['id', 'title', 'skills', 'industry'] },
      track_total_hits: false,
      ...(searchAfter ? { search_after: searchAfter } : {}),
    });
    for (const hit of response.hits.hits) if (hit._source) leads.push(hit._source);
    if (response.hits.hits.length < BATCH) return leads;
    searchAfter = response.hits.hits.at(-1)?.sort;
  }
}

export function isRelevant(lead: UniverseLead, means: JudgedQuery['means']): boolean {
  if (means.title && !means.title.test(lead.title)) return false;
  if (means.skills && !lead.skills.some((skill) => means.skills?.includes(skill))) return false;
  if (means.industries && !means.industries.includes(lead.industry)) return false;
  return true;
}

/** What search_leads matches for the query's arguments: the first reading, else its fallback. */
async function matchedIds(client: Client, index: string, query: JudgedQuery, now: Date) {
  const search = buildLeadSearch(parseToolArguments(searchLeadsInput, query.args), FIRST_PAGE, 0, now);
  const { response } = await searchWithFallback(
    search,
    async (body) => ({ ...(await client.search({ index, ...body, size: 0 })), query: body.query }),
    (response) => totalHits(response.hits.total) > 0,
  );
  return {
    ids: await allIds(client, index, response.query ?? { match_all: {} }),
    fellBack: response.query !== search.body.query,
  };
}

export interface QueryResult {
  query: JudgedQuery;
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
  queries: readonly JudgedQuery[],
  now: Date,
): Promise<QueryResult[]> {
  const universe = await loadUniverse(client, index);
  const results: QueryResult[] = [];
  for (const query of queries) {
    const relevant = new Set(universe.filter((lead) => isRelevant(lead, query.means)).map((lead) => lead.id));
    const matched = await matchedIds(client, index, query, now);
    const found = matched.ids.filter((id) => relevant.has(id)).length;
    results.push({
      query,
      relevant: relevant.size,
      returned: matched.ids.length,
      found,
      recall: relevant.size === 0 ? null : found / relevant.size,
      precision: matched.ids.length === 0 ? null : found / matched.ids.length,
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

function typed(query: JudgedQuery): string {
  const { title, skills, industry } = query.args;
  if (title !== undefined) return `title ${JSON.stringify(title)}`;
  if (skills !== undefined) return `skills ${JSON.stringify(skills)}`;
  return `industry ${JSON.stringify(industry)}`;
}

/** One line per query, then the overall figures and the figures per kind of query. */
export function formatReport(results: readonly QueryResult[]): string {
  const lines = [
    `${'kind'.padEnd(12)} ${'query'.padEnd(44)} ${'relevant'.padStart(8)} ${'returned'.padStart(8)} recall precision`,
  ];
  for (const result of results) {
    const flag = result.relevant > 0 && result.returned === 0 ? '  ZERO' : result.fellBack ? '  (fuzzy)' : '';
    lines.push(
      `${result.query.kind.padEnd(12)} ${typed(result.query).padEnd(44)} ${String(result.relevant).padStart(8)} ${String(result.returned).padStart(8)}   ${figure(result.recall)}      ${figure(result.precision)}${flag}`,
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
