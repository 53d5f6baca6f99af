import type { estypes } from '@elastic/elasticsearch';
import type { SearchSignalsArgs } from '../schemas/inputs.js';
import type { PagePosition } from './cursor.js';
import type { Query, SearchBody } from './es.js';
import { type FallbackSearch, fallbackSearch } from './fallback.js';
import { addClause, addReading, type FilterClauses, sinceDaysAgoClause } from './lead-query.js';
import { type NothingFound, nothingFound } from './left-out.js';
import { readCompanyName } from './text-filters.js';

export const NEWEST_SIGNALS_FIRST: estypes.SortCombinations[] = [{ announced_on: 'desc' }, { seq: 'desc' }];

export const SIGNAL_FIELDS = [
  'id',
  'company.id',
  'company.name',
  'company.logo_url',
  'category',
  'polarity',
  'title',
  'summary',
  'url',
  'country',
  'announced_on',
];

export const RECENT_SIGNAL_FIELDS = ['id', 'category', 'polarity', 'title', 'announced_on', 'url'];

export interface SignalSearch {
  body: SearchBody;
  /** Run only when `body` finds no signal (`searchWithFallback`): `company_name` read fuzzily. */
  fallback: FallbackSearch | undefined;
  /** Run only when neither reading finds a signal, on a first page. */
  nothingFound: NothingFound | undefined;
}

/**
 * One page of `search_signals`, newest first. It returns no total, so instead of
 * counting every match the page fetches one signal more than it serves: that extra one
 * says whether a next page exists.
 */
export function buildSignalSearch(
  args: SearchSignalsArgs,
  now: Date,
  position: PagePosition,
  size: number,
): SignalSearch {
  const clauses: FilterClauses = {
    filter: [],
    notes: [],
    unknownPlace: false,
    second: { filter: [], readings: [] },
    byArgument: new Map(),
    nothingFoundNotes: [],
  };
  if (args.countries?.length)
    addClause(clauses, { terms: { country: args.countries } }, { argument: 'countries' });
  if (args.categories?.length)
    addClause(clauses, { terms: { category: args.categories } }, { argument: 'categories' });
  if (args.polarity) addClause(clauses, { term: { polarity: args.polarity } }, { argument: 'polarity' });
  if (args.company_id)
    addClause(clauses, { term: { 'company.id': args.company_id } }, { argument: 'company_id' });
  if (args.company_name !== undefined) {
    const name = readCompanyName(args.company_name, 'company.name_key', 'company.name');
    addReading(clauses, name, 'company_name');
  }
  if (args.company_size)
    addClause(clauses, { term: { 'company.size_band': args.company_size } }, { argument: 'company_size' });
  if (args.announced_within_days !== undefined) {
    const since = sinceDaysAgoClause('announced_on', args.announced_within_days, now);
    addClause(clauses, since, { argument: 'announced_within_days' });
  }
  const bodyOf = (filter: Query[]): SearchBody => ({
    query: { bool: { filter } },
    sort: NEWEST_SIGNALS_FIRST,
    size: size + 1,
    track_total_hits: false,
    _source: { includes: SIGNAL_FIELDS },
    ...(position.searchAfter ? { search_after: position.searchAfter } : {}),
  });
  return {
    body: bodyOf(clauses.filter),
    fallback: fallbackSearch(clauses, bodyOf),
    // A later page found empty says nothing about the filters: the first one found signals.
    nothingFound: position.searchAfter ? undefined : nothingFound(clauses, 'signal'),
  };
}

interface SignalHits<Source> {
  hits: { hits: Array<{ _source?: Source; sort?: estypes.SortResults }> };
}

/** Splits the page from the one extra signal fetched to learn whether more exist. */
export function readSignalPage<Source>(
  response: SignalHits<Source>,
  size: number,
): { signals: Source[]; moreExist: boolean; lastSort: estypes.SortResults | undefined } {
  const page = response.hits.hits.slice(0, size);
  return {
    signals: page.flatMap((hit) => (hit._source ? [hit._source] : [])),
    moreExist: response.hits.hits.length > size,
    lastSort: page.at(-1)?.sort,
  };
}
