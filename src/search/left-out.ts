import type { Query, SearchBody } from './es.js';

/**
 * What stands in the way when a search finds nothing (docs/search-semantics.md, "When nothing is
 * found"): one request counting, for each argument given, what the search finds with all the
 * others, as first read and as read again. Sent only after the readings found nothing, and only
 * with two arguments or more: an assistant told `total: 0` alone would take the market for empty.
 */
const LEFT_OUT = 'left_out';
/** Arguments the note names, those finding most first. */
const NAMED_IN_NOTE = 3;

/**
 * What a search that finds nothing in any reading says besides: the notes kept for that case
 * (how a location read without a note was read), and what leaving out each argument finds.
 */
export interface NothingFound<Body = SearchBody> {
  notes: readonly string[];
  /**
   * The request counting what leaving out each argument finds; with two arguments or more. Built
   * only when needed, off the path of searches that find something.
   */
  leftOut?: () => Body;
  /** What is searched, for the note: "open role", "signal". */
  noun: string;
}

/** An argument's clauses as its first reading and its second reading have them. */
export interface ReadClauses {
  first: readonly Query[];
  second: readonly Query[];
}

/** The clauses always there (open roles, no agencies), those of each argument, and the notes for nothing found. */
export interface ArgumentClauses {
  filter: Query[];
  byArgument: ReadonlyMap<string, ReadClauses>;
  nothingFoundNotes: readonly string[];
}

type Reading = keyof ReadClauses;
const READINGS: readonly Reading[] = ['first', 'second'];

/** What a search of `clauses` says when it finds nothing, or undefined for nothing to say. */
export function nothingFound(clauses: ArgumentClauses, noun: string): NothingFound | undefined {
  const notes = clauses.nothingFoundNotes;
  const counted = clauses.byArgument.size >= 2;
  if (!counted && notes.length === 0) return undefined;
  return { notes, noun, ...(counted ? { leftOut: () => leftOutCount(clauses) } : {}) };
}

/** The request counting what leaving out each argument finds. */
function leftOutCount(clauses: ArgumentClauses): SearchBody {
  const { byArgument } = clauses;
  const given = new Set([...byArgument.values()].flatMap((read) => read.first));
  const without = (leftOut: string, reading: Reading) =>
    [...byArgument].flatMap(([argument, read]) => (argument === leftOut ? [] : read[reading]));
  const buckets = [...byArgument.keys()].flatMap((argument) =>
    READINGS.map((reading) => [`${reading}:${argument}`, { bool: { filter: without(argument, reading) } }]),
  );
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: clauses.filter.filter((clause) => !given.has(clause)) } },
    aggs: { [LEFT_OUT]: { filters: { filters: Object.fromEntries(buckets) } } },
    filter_path: [`aggregations.${LEFT_OUT}`],
  };
}

/**
 * `No open role matches all the filters together; leaving out work_type finds 114, leaving out
 * skills 37`, from the response to the `leftOut` request; `noun` names what is searched.
 */
export function leftOutNote(response: { aggregations?: Record<string, unknown> }, noun: string): string {
  const buckets =
    (response.aggregations?.[LEFT_OUT] as { buckets?: Record<string, { doc_count: number }> } | undefined)
      ?.buckets ?? {};
  const given = Object.keys(buckets).flatMap((name) =>
    name.startsWith('first:') ? [name.slice('first:'.length)] : [],
  );
  // As a search without the argument would answer: its first reading when that finds something.
  const finding = given
    .map((argument) => ({
      argument,
      count: buckets[`first:${argument}`]?.doc_count || (buckets[`second:${argument}`]?.doc_count ?? 0),
    }))
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count || a.argument.localeCompare(b.argument));
  const together = `No ${noun} matches all the filters together`;
  if (finding.length === 0) return `${together}, nor all but any one of them.`;
  const counts = finding
    .slice(0, NAMED_IN_NOTE)
    .map(({ argument, count }, index) =>
      index === 0 ? `leaving out ${argument} finds ${count}` : `leaving out ${argument} ${count}`,
    );
  return `${together}; ${counts.join(', ')}.`;
}

/** The same with its request body turned by `map` (a tool's own request shape). */
export function mapNothingFound<To>(
  said: NothingFound | undefined,
  map: (body: SearchBody) => To,
): NothingFound<To> | undefined {
  if (!said) return undefined;
  const { leftOut, ...rest } = said;
  return leftOut ? { ...rest, leftOut: () => map(leftOut()) } : rest;
}
