import type { estypes } from '@elastic/elasticsearch';
import type { SearchBody } from './es.js';
import { leftOutNotes, type NothingFound } from './left-out.js';
import {
  anyOf,
  keptChoices,
  type SecondAnswer,
  type SecondReading,
  secondReadingNotes,
} from './text-filters.js';

/**
 * The second reading of a search (docs/search-semantics.md, "The second reading"): the same
 * search with its text filters read again (words taken as typed made fuzzy; a title's places,
 * work arrangement and skills), run only when the first reading found nothing, so a search that
 * finds something costs one Elasticsearch request and one that finds nothing two. Its term
 * suggesters and a count of what each way of reading a title found travel in the same request,
 * for the notes. When ways of reading a title of different preference both found something, a
 * third request keeps the preferred ones only (docs/decisions/second-reading.md).
 */
export interface FallbackSearch<Body = SearchBody> {
  body: Body;
  readings: SecondReading[];
  /** The same search with some filters' second clauses replaced. */
  rebuild: (clauses: ReadonlyMap<estypes.QueryDslQueryContainer, estypes.QueryDslQueryContainer>) => Body;
  /**
   * A reading whose typed text may name something as it is (a company's name, `SecondReading.named`):
   * how to look it up, what to say, and this second reading without its close spellings.
   */
  named?: {
    clause: estypes.QueryDslQueryContainer;
    note: string;
    fallback: FallbackSearch<Body> | undefined;
  };
}

/** The same second reading with each request body it sends turned by `map` (a tool's own request shape). */
export function mapFallback<From, To>(
  fallback: FallbackSearch<From> | undefined,
  map: (body: From) => To,
): FallbackSearch<To> | undefined {
  if (!fallback) return undefined;
  const { named } = fallback;
  return {
    body: map(fallback.body),
    readings: fallback.readings,
    rebuild: (replaced) => map(fallback.rebuild(replaced)),
    ...(named ? { named: { ...named, fallback: mapFallback(named.fallback, map) } } : {}),
  };
}

/** The aggregation counting each choice of the second reading. */
const CHOICES = 'second_readings';

/**
 * The second reading of a search built by `bodyOf` from its filters, or none when no filter can
 * be read another way or the place is unknown (which matches nothing however the words are read).
 */
export function fallbackSearch(
  clauses: {
    unknownPlace: boolean;
    second: { filter: estypes.QueryDslQueryContainer[]; readings: SecondReading[] };
  },
  bodyOf: (filter: estypes.QueryDslQueryContainer[]) => SearchBody,
): FallbackSearch | undefined {
  const { readings, filter } = clauses.second;
  if (readings.length === 0 || clauses.unknownPlace) return undefined;
  const suggest = Object.assign({}, ...readings.map((reading) => reading.suggest));
  const withSuggest = (body: SearchBody) => (Object.keys(suggest).length > 0 ? { ...body, suggest } : body);
  const body = withSuggest(bodyOf(filter));
  // Every reading has at least two choices (the filter as first read among them), all counted.
  const choices = readings.flatMap((reading) => reading.choices);
  body.aggs = {
    ...body.aggs,
    [CHOICES]: {
      filters: { filters: Object.fromEntries(choices.map((choice) => [choice.name, choice.clause])) },
    },
  };
  if (body.filter_path) body.filter_path = [...[body.filter_path].flat(), `aggregations.${CHOICES}`];
  const named = readings.find((reading) => reading.named);
  return {
    body,
    readings: [...readings],
    rebuild: (replaced) => withSuggest(bodyOf(filter.map((clause) => replaced.get(clause) ?? clause))),
    ...(named?.named
      ? { named: { ...named.named, fallback: withoutCloseSpellings(clauses, named, bodyOf) } }
      : {}),
  };
}

/**
 * The second reading without the close spellings of `named` (a name that is some company's): its
 * other choices (the name without a legal form or a web address) and the other filters read again;
 * none when nothing is left to read again.
 */
function withoutCloseSpellings(
  clauses: Parameters<typeof fallbackSearch>[0],
  named: SecondReading,
  bodyOf: (filter: estypes.QueryDslQueryContainer[]) => SearchBody,
): FallbackSearch | undefined {
  const choices = named.choices.filter((choice) => !choice.typo);
  const asRead = choices.find((choice) => choice.tier < 0)?.clause ?? named.clause;
  const reading: SecondReading | undefined =
    choices.length > 1
      ? // Without `named`: the name was looked up once.
        {
          subject: named.subject,
          typed: named.typed,
          choices,
          clause: anyOf(choices.map((choice) => choice.clause)),
          suggest: {},
        }
      : undefined;
  const second = {
    filter: clauses.second.filter.map((clause) =>
      clause === named.clause ? (reading?.clause ?? asRead) : clause,
    ),
    readings: clauses.second.readings.flatMap((other) =>
      other !== named ? [other] : reading ? [reading] : [],
    ),
  };
  return fallbackSearch({ ...clauses, second }, bodyOf);
}

/** The titles whose second reading kept fewer choices than found something, with the clause of those kept. */
function narrowed(readings: readonly SecondReading[], answer: SecondAnswer) {
  const replaced = new Map<estypes.QueryDslQueryContainer, estypes.QueryDslQueryContainer>();
  for (const reading of readings) {
    if (!answer.found) continue;
    const kept = keptChoices(reading.choices, answer);
    const found = reading.choices.filter((choice) => (answer.found?.(choice.name) ?? 0) > 0);
    if (kept.length < found.length) replaced.set(reading.clause, anyOf(kept.map((choice) => choice.clause)));
  }
  return replaced;
}

/** What a response to a second reading carries for its notes (a tool's own answer may pass it on). */
export interface SecondResponse {
  suggest?: SecondAnswer['suggest'];
  aggregations?: Record<string, unknown>;
}

function answerOf(response: SecondResponse): SecondAnswer {
  const buckets = (response.aggregations?.[CHOICES] as { buckets?: Record<string, { doc_count: number }> })
    ?.buckets;
  return {
    ...(response.suggest ? { suggest: response.suggest } : {}),
    ...(buckets ? { found: (name: string) => buckets[name]?.doc_count ?? 0 } : {}),
  };
}

/**
 * Runs the first reading and, only when `found` says it found nothing and there is a second
 * reading, the second; `notes` say how the second read the typed words when it found something.
 * When neither found anything, `nothingFound` says how a location was read and what leaving out
 * each argument would find.
 */
export async function searchWithFallback<Response, Body = SearchBody>(
  search: {
    body: Body;
    fallback?: FallbackSearch<Body> | undefined;
    nothingFound?: NothingFound<Body> | undefined;
  },
  run: (body: Body) => Promise<Response>,
  found: (response: Response) => boolean,
  /** Whether a query matches some company of the companies index (`FallbackSearch.named`). */
  namesCompany?: (query: estypes.QueryDslQueryContainer) => Promise<boolean>,
): Promise<{ response: Response; notes: string[] }> {
  const named: string[] = [];
  const nothingFound = async (response: Response) => {
    const said = search.nothingFound;
    if (!said) return { response, notes: named };
    const leftOut = said.leftOut?.();
    const counted = leftOut ? leftOutNotes((await run(leftOut)) as SecondResponse, said) : [];
    return { response, notes: [...named, ...said.notes, ...counted] };
  };
  const first = await run(search.body);
  if (found(first)) return { response: first, notes: [] };
  let fallback = search.fallback;
  // A company's name is not read by close spellings as another's: that company has nothing matching.
  if (fallback?.named && namesCompany && (await namesCompany(fallback.named.clause))) {
    named.push(fallback.named.note);
    fallback = fallback.named.fallback;
  }
  if (!fallback) return nothingFound(first);
  const second = await run(fallback.body);
  if (!found(second)) return nothingFound(second);
  const answer = answerOf(second as SecondResponse);
  const notes = [...new Set(secondReadingNotes(fallback.readings, answer))];
  const replaced = narrowed(fallback.readings, answer);
  if (replaced.size === 0) return { response: second, notes };
  const third = await run(fallback.rebuild(replaced));
  if (found(third)) return { response: third, notes };
  // Two filters each found something as first read beside the other read the second way, but not
  // together: every filter keeps its second reading, as the second request had them.
  const everyFilterReadAgain = fallback.readings.map((reading) => ({
    ...reading,
    choices: reading.choices.filter((choice) => choice.tier >= 0),
  }));
  return { response: second, notes: [...new Set(secondReadingNotes(everyFilterReadAgain, answer))] };
}
