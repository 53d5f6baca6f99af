import type { estypes } from '@elastic/elasticsearch';
import type { SearchBody } from './es.js';
import { type FuzzyFilter, typoNotes } from './text-filters.js';

/**
 * The second reading of a search (docs/search-semantics.md, "Typos"): the same search with the
 * words taken as typed made fuzzy, run only when the first reading found nothing, so a search
 * that finds something costs one Elasticsearch request and a misspelt one two. Its term
 * suggesters travel in the same request and say which spellings were found, for the notes.
 */
export interface FallbackSearch<Body = SearchBody> {
  body: Body;
  typos: FuzzyFilter[];
}

/**
 * The fuzzy reading of a search built by `bodyOf` from its filters, or none when no filter can be
 * fuzzed or the place is unknown (which matches nothing however the words are read).
 */
export function fallbackSearch(
  clauses: {
    unknownPlace: boolean;
    fuzzy: { filter: estypes.QueryDslQueryContainer[]; typos: FuzzyFilter[] };
  },
  bodyOf: (filter: estypes.QueryDslQueryContainer[]) => SearchBody,
): FallbackSearch | undefined {
  const { typos, filter } = clauses.fuzzy;
  if (typos.length === 0 || clauses.unknownPlace) return undefined;
  const suggest = Object.assign({}, ...typos.map((typo) => typo.suggest));
  return { body: { ...bodyOf(filter), suggest }, typos: [...typos] };
}

interface WithSuggestions {
  suggest?: Record<string, Array<{ text: string; options?: unknown }>>;
}

/**
 * Runs the first reading and, only when `found` says it found nothing and there is a fuzzy
 * reading, the fuzzy one; `notes` say how the fuzzy reading read the typed words when it found
 * something.
 */
export async function searchWithFallback<Response, Body = SearchBody>(
  search: { body: Body; fallback?: FallbackSearch<Body> | undefined },
  run: (body: Body) => Promise<Response>,
  found: (response: Response) => boolean,
): Promise<{ response: Response; notes: string[] }> {
  const first = await run(search.body);
  if (!search.fallback || found(first)) return { response: first, notes: [] };
  const second = await run(search.fallback.body);
  return {
    response: second,
    notes: found(second) ? typoNotes(search.fallback.typos, (second as WithSuggestions).suggest) : [],
  };
}
