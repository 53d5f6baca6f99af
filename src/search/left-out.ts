import type { Query, SearchBody } from './es.js';

/**
 * What stands in the way when a search finds nothing (docs/search-semantics.md, "When nothing is
 * found"): one request counting, for each argument given, what the search finds with all the
 * others, as first read and as read again, and for a title of several words what it finds with
 * each word left out. Sent only after the readings found nothing, and only with two arguments or
 * such a title: an assistant told `total: 0` alone would take the market for empty.
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
  leftOut?: () => Body | undefined;
  /** What is searched, for the note: "open role", "signal". */
  noun: string;
  /** The title whose words are each left out in the count, as typed, and those words. */
  titleWords?: () => { typed: string; words: readonly string[] };
}

/**
 * A typed title read with each of its words or parts left out in turn (`TextReading.withoutEach`):
 * the rest as first read, and as read again when it has a second reading.
 */
export interface WordsLeftOut {
  typed: string;
  each: ReadonlyArray<{ word: string; clause: Query; again?: Query }>;
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
  /** The title argument's words left out in turn, by its name; read only when nothing is found. */
  titleWords?: { argument: string; words: () => WordsLeftOut };
}

type Reading = keyof ReadClauses;
/** The buckets of the title with its word at an index left out, as first read and read again: `word:0`. */
const WORD = 'word:';
const WORD_AGAIN = 'word again:';
const READINGS: readonly Reading[] = ['first', 'second'];

/** What a search of `clauses` says when it finds nothing, or undefined for nothing to say. */
export function nothingFound(clauses: ArgumentClauses, noun: string): NothingFound | undefined {
  const notes = clauses.nothingFoundNotes;
  const { titleWords } = clauses;
  const counted = clauses.byArgument.size >= 2 || titleWords !== undefined;
  if (!counted && notes.length === 0) return undefined;
  let read: WordsLeftOut | undefined;
  const words = titleWords && (() => (read ??= titleWords.words()));
  return {
    notes,
    noun,
    ...(counted ? { leftOut: () => leftOutCount(clauses, words?.()) } : {}),
    ...(words
      ? { titleWords: () => ({ typed: words().typed, words: words().each.map(({ word }) => word) }) }
      : {}),
  };
}

/**
 * The request counting what leaving out each argument, or each word of the title (`words`), finds;
 * none when there is nothing to count (a title alone of too many words).
 */
function leftOutCount(clauses: ArgumentClauses, words: WordsLeftOut | undefined): SearchBody | undefined {
  const { byArgument, titleWords } = clauses;
  const given = new Set([...byArgument.values()].flatMap((read) => read.first));
  const without = (leftOut: string, reading: Reading) =>
    [...byArgument].flatMap(([argument, read]) => (argument === leftOut ? [] : read[reading]));
  const byArgumentCounted = byArgument.size >= 2 ? [...byArgument.keys()] : [];
  const buckets = byArgumentCounted.flatMap((argument) =>
    READINGS.map((reading) => [`${reading}:${argument}`, { bool: { filter: without(argument, reading) } }]),
  );
  if (titleWords && words) {
    const others = without(titleWords.argument, 'first');
    words.each.forEach(({ clause, again }, index) => {
      buckets.push([`${WORD}${index}`, { bool: { filter: [...others, clause] } }]);
      if (again) buckets.push([`${WORD_AGAIN}${index}`, { bool: { filter: [...others, again] } }]);
    });
  }
  if (buckets.length === 0) return undefined;
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
 * skills 37` and `No open role has a title with all of "data scientist NLP"; leaving out "NLP"
 * finds 186`, from the response to the `leftOut` request.
 */
export function leftOutNotes(
  response: { aggregations?: Record<string, unknown> },
  said: Pick<NothingFound<unknown>, 'noun' | 'titleWords'>,
): string[] {
  const buckets =
    (response.aggregations?.[LEFT_OUT] as { buckets?: Record<string, { doc_count: number }> } | undefined)
      ?.buckets ?? {};
  const given = Object.keys(buckets).flatMap((name) =>
    name.startsWith('first:') ? [name.slice('first:'.length)] : [],
  );
  const notes = given.length > 0 ? [argumentsNote(buckets, given, said.noun)] : [];
  const title = said.titleWords?.();
  // A title of too many words or parts to count each left out says nothing of them.
  if (title && title.words.length > 0)
    notes.push(titleWordsNote(buckets, title, said.noun, given.length > 0));
  return notes;
}

type Counts = Record<string, { doc_count: number }>;

function argumentsNote(buckets: Counts, given: readonly string[], noun: string): string {
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
  return `${together}; ${leavingOut(finding.map(({ argument, count }) => ({ left: argument, count })))}.`;
}

/** `leaving out skills finds 114, leaving out title 12`: the NAMED_IN_NOTE finding most, in that order. */
function leavingOut(finding: ReadonlyArray<{ left: string; count: number }>): string {
  return finding
    .slice(0, NAMED_IN_NOTE)
    .map(({ left, count }, index) =>
      index === 0 ? `leaving out ${left} finds ${count}` : `leaving out ${left} ${count}`,
    )
    .join(', ');
}

function titleWordsNote(
  buckets: Counts,
  title: ReturnType<NonNullable<NothingFound['titleWords']>>,
  noun: string,
  withOthers: boolean,
): string {
  const finding = title.words
    // As a search of the rest would answer: as first read when that finds something.
    .map((word, index) => ({
      left: `"${word}"`,
      count: buckets[`${WORD}${index}`]?.doc_count || (buckets[`${WORD_AGAIN}${index}`]?.doc_count ?? 0),
    }))
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count);
  const none = `No ${noun}${withOthers ? ' matching the other filters' : ''} has a title with all of "${title.typed}"`;
  if (finding.length === 0) return `${none}, nor all but any one of its words.`;
  return `${none}; ${leavingOut(finding)}.`;
}

/** The same with its request body turned by `map` (a tool's own request shape). */
export function mapNothingFound<To>(
  said: NothingFound | undefined,
  map: (body: SearchBody) => To,
): NothingFound<To> | undefined {
  if (!said) return undefined;
  const { leftOut, ...rest } = said;
  return leftOut
    ? {
        ...rest,
        leftOut: () => {
          const body = leftOut();
          return body && map(body);
        },
      }
    : rest;
}
