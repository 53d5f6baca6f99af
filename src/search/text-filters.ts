import type { estypes } from '@elastic/elasticsearch';
import { analyse, matchKey } from '../domain/analysis.js';
import { foldKey } from '../domain/fold.js';
import { InvalidArgument } from '../errors.js';
import {
  type Alias,
  INDUSTRY_ALIASES,
  LONGEST_TITLE_TERM,
  NOT_SPECIALTIES,
  type Phrase,
  ROLE_NOUNS_ALONE,
  ROLE_NOUNS_WITH_SPECIALTY,
  SKILL_ALIASES,
  STOP_WORDS,
  TITLE_TERMS,
} from '../reference/vocabulary.js';
import type { Query } from './es.js';

/**
 * How the typed text filters (title, skills, industry, company name) are read
 * (docs/search-semantics.md, "How text is read"). Each reading gives the clause of the first
 * search, a note when an abbreviation or synonym was expanded, and, where a word was taken as
 * typed, a fuzzy clause for the second reading that runs only when the first finds nothing.
 * Every clause count is bounded: at most MAX_TITLE_WORDS words, each read as at most
 * MAX_MEANINGS + 1 phrases; at most 10 skills of as many meanings; one industry.
 */

export const MAX_TITLE_WORDS = 12;

/** Core fuzziness: 1 edit for words of 3 to 5 characters, 2 beyond; the first letter as typed. */
const FUZZY = { fuzziness: 'AUTO', prefix_length: 1, max_expansions: 50 } as const;
const FUZZABLE_LENGTH = 3;

type TypoSubject = 'title' | 'skill' | 'industry' | 'company name';

/** The fuzzy form of one filter, and the term suggesters that say which spellings it found. */
export interface FuzzyFilter {
  clause: Query;
  subject: TypoSubject;
  typed: string;
  suggest: Record<string, estypes.SearchFieldSuggester>;
}

export interface TextReading {
  clause: Query;
  note?: string;
  fuzzy?: FuzzyFilter;
  /** The match keys a skills or industry reading looks for (what the company roll-ups count). */
  keys?: string[];
}

function suggester(field: string, text: string): estypes.SearchFieldSuggester {
  return {
    text,
    term: { field, suggest_mode: 'missing', size: 1, prefix_length: 1, min_word_length: FUZZABLE_LENGTH },
  };
}

function anyOf(clauses: Query[]): Query {
  return clauses.length === 1
    ? (clauses[0] as Query)
    : { bool: { should: clauses, minimum_should_match: 1 } };
}

/** Phrases of a title as clauses on `title_terms`: single words as one `terms`, longer ones as phrases. */
function phrasesClause(phrases: readonly Phrase[]): Query {
  const single = phrases.filter((phrase) => phrase.length === 1).map((phrase) => phrase[0] as string);
  const clauses: Query[] = phrases
    .filter((phrase) => phrase.length > 1)
    .map((phrase) => ({ match_phrase: { title_terms: phrase.join(' ') } }));
  if (single.length === 1) clauses.unshift({ term: { title_terms: single[0] as string } });
  if (single.length > 1) clauses.unshift({ terms: { title_terms: single } });
  return anyOf(clauses);
}

/** A part of a typed title: a word as typed, or a vocabulary term read as several phrases. */
type Concept =
  | { kind: 'word'; word: string }
  | { kind: 'role'; word: string }
  | { kind: 'term'; typed: string; phrases: readonly Phrase[]; meaning: readonly string[] };

/** Vocabulary terms (longest typed form first), role nouns and the other words, stop words dropped. */
function concepts(words: readonly string[]): Concept[] {
  const found: Concept[] = [];
  let index = 0;
  while (index < words.length) {
    const word = words[index] as string;
    const term = ROLE_NOUNS_ALONE.has(word) ? undefined : longestTermAt(words, index);
    if (term) {
      const meaning = term.labels.filter((_, position) => position > 0);
      found.push({ kind: 'term', typed: term.typed.join(' '), phrases: term.phrases, meaning });
      index += term.typed.length;
      continue;
    }
    if (ROLE_NOUNS_ALONE.has(word)) found.push({ kind: 'role', word });
    else if (!STOP_WORDS.has(word)) found.push({ kind: 'word', word });
    index += 1;
  }
  return found;
}

function longestTermAt(words: readonly string[], index: number) {
  for (let length = Math.min(LONGEST_TITLE_TERM, words.length - index); length >= 1; length--) {
    const term = TITLE_TERMS.get(words.slice(index, index + length).join(' '));
    if (term) return term;
  }
  return undefined;
}

/**
 * A role noun names one job with its specialty ("frontend engineer" or "frontend developer"), so
 * beside a specialty it reads as either; beside rank words only ("senior engineer") it stays as typed.
 */
function withRoleNouns(found: Concept[]): Concept[] {
  const hasSpecialty = found.some(
    (concept) => concept.kind === 'term' || (concept.kind === 'word' && !NOT_SPECIALTIES.has(concept.word)),
  );
  return found.map((concept): Concept => {
    if (concept.kind !== 'role') return concept;
    if (hasSpecialty) {
      return {
        kind: 'term',
        typed: concept.word,
        phrases: ROLE_NOUNS_WITH_SPECIALTY.phrases,
        meaning: ROLE_NOUNS_WITH_SPECIALTY.labels,
      };
    }
    const alone = ROLE_NOUNS_ALONE.get(concept.word);
    if (!alone) return { kind: 'word', word: concept.word };
    const meaning = alone.labels.filter((_, position) => position > 0);
    if (meaning.length === 0) return { kind: 'word', word: concept.word };
    return { kind: 'term', typed: concept.word, phrases: alone.phrases, meaning };
  });
}

function quotedList(items: readonly string[], last: 'or' | 'and'): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}

/**
 * `title` / `hiring_for_title`: every word (or vocabulary term) must be in the role's title, in
 * any order. `field` names the parameter in errors.
 */
export function readTitle(typed: string, field: string): TextReading {
  const words = analyse(typed);
  if (words.length === 0) return { clause: { match_none: {} } };
  let found = withRoleNouns(concepts(words));
  // A title of stop words only ("The") is searched as typed rather than as no filter at all.
  if (found.length === 0) found = words.map((word) => ({ kind: 'word', word }));
  if (found.length > MAX_TITLE_WORDS) {
    throw new InvalidArgument(
      field,
      `has ${found.length} words once read; at most ${MAX_TITLE_WORDS} are searched. Keep the main words of the title, e.g. "senior data engineer".`,
    );
  }
  const clauses = found.map((concept) =>
    concept.kind === 'term' ? phrasesClause(concept.phrases) : { term: { title_terms: concept.word } },
  );
  const expanded = found.flatMap((concept) =>
    concept.kind === 'term' && concept.meaning.length > 0
      ? [`"${concept.typed}" as ${quotedList(concept.meaning, 'or')}`]
      : [],
  );
  const fuzzable = found.flatMap((concept) =>
    concept.kind === 'word' && concept.word.length >= FUZZABLE_LENGTH ? [concept.word] : [],
  );
  const reading: TextReading = { clause: { bool: { filter: clauses } } };
  if (expanded.length > 0) reading.note = titleNote(typed, found, expanded);
  if (fuzzable.length > 0) {
    reading.fuzzy = {
      clause: {
        bool: {
          filter: found.map((concept, index) =>
            concept.kind === 'word' && fuzzable.includes(concept.word)
              ? { fuzzy: { title_terms: { value: concept.word, ...FUZZY } } }
              : (clauses[index] as Query),
          ),
        },
      },
      subject: 'title',
      typed,
      suggest: { typo_title: suggester('title_terms', fuzzable.join(' ')) },
    };
  }
  return reading;
}

function titleNote(typed: string, found: readonly Concept[], expanded: readonly string[]): string {
  const only = found[0];
  if (found.length === 1 && only?.kind === 'term') {
    return `Read the title "${typed}" as ${quotedList(only.meaning, 'or')}.`;
  }
  return `Read the title "${typed}" with ${quotedList(expanded, 'and')}.`;
}

interface KeyedReading {
  keys: string[];
  /** "k8s" as Kubernetes, for the note. */
  expanded: string[];
  /** Keys taken as typed, which a fuzzy reading may correct. */
  asTyped: string[];
}

function readKeys(typed: readonly string[], aliases: ReadonlyMap<string, Alias>): KeyedReading {
  const reading: KeyedReading = { keys: [], expanded: [], asTyped: [] };
  for (const text of typed) {
    const key = matchKey(text);
    const alias = aliases.get(key);
    if (alias) {
      reading.keys.push(...alias.keys);
      reading.expanded.push(`"${text}" as ${quotedList(alias.names, 'or')}`);
    } else if (key !== '') {
      reading.keys.push(key);
      reading.asTyped.push(key);
    }
  }
  reading.keys = [...new Set(reading.keys)];
  return reading;
}

function keysClause(field: string, keys: readonly string[]): Query {
  if (keys.length === 0) return { match_none: {} };
  return keys.length === 1 ? { term: { [field]: keys[0] as string } } : { terms: { [field]: [...keys] } };
}

function fuzzyKeys(
  field: string,
  reading: KeyedReading,
  subject: TypoSubject,
  typed: string,
): FuzzyFilter | undefined {
  const fuzzable = reading.asTyped.filter((key) => key.length >= FUZZABLE_LENGTH);
  if (fuzzable.length === 0) return undefined;
  return {
    clause: anyOf([
      keysClause(field, reading.keys),
      ...fuzzable.map((key) => ({ fuzzy: { [field]: { value: key, ...FUZZY } } })),
    ]),
    subject,
    typed,
    suggest: Object.fromEntries(
      fuzzable.map((key, index) => [`typo_${field}_${index}`, suggester(field, key)]),
    ),
  };
}

/** `skills`: roles needing any of them, each by its name or one of its other names. */
export function readSkills(skills: readonly string[]): TextReading {
  const reading = readKeys(skills, SKILL_ALIASES);
  const result: TextReading = { clause: keysClause('skills_key', reading.keys), keys: reading.keys };
  if (reading.expanded.length > 0) {
    result.note = `Read the skill${reading.expanded.length > 1 ? 's' : ''} ${quotedList(reading.expanded, 'and')}.`;
  }
  const fuzzy = fuzzyKeys('skills_key', reading, 'skill', skills.join(', '));
  if (fuzzy) result.fuzzy = fuzzy;
  return result;
}

/** `industry`: the industry by its name or one of its other names. */
export function readIndustry(industry: string): TextReading {
  const reading = readKeys([industry], INDUSTRY_ALIASES);
  const result: TextReading = { clause: keysClause('industry_key', reading.keys), keys: reading.keys };
  if (reading.expanded.length > 0) result.note = `Read the industry ${reading.expanded[0]}.`;
  const fuzzy = fuzzyKeys('industry_key', reading, 'industry', industry);
  if (fuzzy) result.fuzzy = fuzzy;
  return result;
}

/**
 * `name` / `company_name`: part of the company name, as a `wildcard` `*part*` on the folded
 * `nameKeyField`; `*`, `?` and `\` typed by the user are literal. Its fuzzy form matches every
 * typed word, with core fuzziness, in the standard-analysed `nameField`.
 */
export function readCompanyName(part: string, nameKeyField: string, nameField: string): TextReading {
  const folded = foldKey(part);
  const literal = folded.replace(/[\\*?]/g, (character) => `\\${character}`);
  const reading: TextReading = { clause: { wildcard: { [nameKeyField]: { value: `*${literal}*` } } } };
  if (folded.replace(/[^\p{L}\p{N}]/gu, '').length >= FUZZABLE_LENGTH) {
    reading.fuzzy = {
      clause: { match: { [nameField]: { query: folded, operator: 'and', ...FUZZY } } },
      subject: 'company name',
      typed: part,
      suggest: { typo_company_name: suggester(nameField, folded) },
    };
  }
  return reading;
}

const TYPO_WORDING: Record<TypoSubject, string> = {
  title: 'No role title contains',
  skill: 'No role lists the skill',
  industry: 'No role is in the industry',
  'company name': 'No company name contains',
};

type SuggestResponse = Record<string, Array<{ text: string; options?: unknown }>> | undefined;

function corrections(filter: FuzzyFilter, suggest: SuggestResponse): Array<[string, string]> {
  return Object.keys(filter.suggest).flatMap((key) =>
    (suggest?.[key] ?? []).flatMap((entry) => {
      const options = (Array.isArray(entry.options) ? entry.options : [entry.options]) as Array<
        { text?: string } | undefined
      >;
      const best = options[0]?.text;
      return best ? [[entry.text, best] as [string, string]] : [];
    }),
  );
}

/** One sentence per filter read fuzzily: what was typed and the spelling the index has instead. */
export function typoNotes(filters: readonly FuzzyFilter[], suggest: SuggestResponse): string[] {
  return filters.map((filter) => {
    const fixes = corrections(filter, suggest);
    if (fixes.length === 0) {
      return `${TYPO_WORDING[filter.subject]} "${filter.typed}" exactly, so close spellings were searched.`;
    }
    const typos = quotedList(
      fixes.map(([typo]) => `"${typo}"`),
      'or',
    );
    const fixed = quotedList(
      fixes.map(([, fix]) => `"${fix}"`),
      'and',
    );
    return `${TYPO_WORDING[filter.subject]} ${typos}, so it was read as ${fixed}.`;
  });
}
