import { analyse, matchKey } from '../domain/analysis.js';
import {
  COMPANY_SIZE_BANDS,
  type CompanySizeBand,
  CURRENCIES,
  type Currency,
  EMPLOYMENT_TYPES,
  type EmploymentType,
  EXPERIENCE_LEVELS,
  type ExperienceLevel,
  INSIGHT_GROUP_BY,
  INSIGHT_METRICS,
  type InsightGroupBy,
  type InsightMetric,
  SIGNAL_CATEGORIES,
  SIGNAL_POLARITIES,
  type SignalCategory,
  type SignalPolarity,
} from '../domain/enums.js';
import { foldKey } from '../domain/fold.js';
import { trimEdges } from '../domain/words.js';
import vocabulary from './vocabulary.json' with { type: 'json' };

/**
 * The reviewed vocabulary of `vocabulary.json` (abbreviations and synonyms of titles, other names
 * of skills and industries), compiled once at start into the analysed forms the search reads typed
 * filters with. Loading checks the bounds that keep every query small: a typed title form means at
 * most MAX_MEANINGS phrases (each a clause), another name of a skill or industry at most MAX_NAMES
 * names (the keys of one `terms` clause), and each form appears once per section.
 */

export const MAX_MEANINGS = 4;
export const MAX_NAMES = 12;

/** A phrase of a title, analysed: its words in order. */
export type Phrase = readonly string[];

export interface TitleTerm {
  /** The analysed typed form, e.g. ["ml"]. */
  typed: Phrase;
  /** The phrases it is read as, analysed, the typed form first; `labels` in the same order. */
  phrases: readonly Phrase[];
  labels: readonly string[];
  /** What a note says it was read as: the meanings, unless they only repeat the typed form ("AI"). */
  meaning: readonly string[];
}

export interface Alias {
  /** The names as the data spells them, e.g. "Kubernetes". */
  names: readonly string[];
  /** Their match keys (`matchKey`). */
  keys: readonly string[];
}

function fail(section: string, message: string): never {
  throw new Error(`src/reference/vocabulary.json, ${section}: ${message}`);
}

const same = (a: Phrase, b: Phrase) => a.length === b.length && a.every((word, index) => word === b[index]);

interface Entry {
  typed: string[];
  means: string[];
}

/**
 * Every typed form of a section by its `key`, checked: an entry has typed forms and at most
 * MAX_MEANINGS meanings, and no key is empty or listed twice.
 */
function byTypedForm<Value>(
  section: string,
  entries: readonly Entry[],
  key: (form: string) => string,
  value: (form: string, entry: Entry) => Value,
  maxMeanings = MAX_MEANINGS,
): Map<string, Value> {
  const values = new Map<string, Value>();
  for (const entry of entries) {
    if (entry.typed.length === 0 || entry.means.length === 0)
      fail(section, 'an entry needs typed forms and meanings');
    if (entry.means.length > maxMeanings)
      fail(section, `"${entry.typed[0]}" means more than ${maxMeanings} things`);
    for (const form of entry.typed) {
      const formKey = key(form);
      if (formKey === '' || values.has(formKey)) fail(section, `"${form}" is empty or listed twice`);
      values.set(formKey, value(form, entry));
    }
  }
  return values;
}

function titleTerms(section: string, entries: readonly Entry[]) {
  return byTypedForm(
    section,
    entries,
    (form) => analyse(form).join(' '),
    (form, entry): TitleTerm => {
      const typed = analyse(form);
      const phrases: Phrase[] = [typed];
      const labels: string[] = [form];
      for (const meaning of entry.means) {
        const phrase = analyse(meaning);
        if (!phrases.some((known) => same(known, phrase))) {
          phrases.push(phrase);
          labels.push(meaning);
        }
      }
      return { typed, phrases, labels, meaning: phrases.length > 1 ? entry.means : [] };
    },
  );
}

function aliases(section: string, entries: readonly Entry[]) {
  return byTypedForm(
    section,
    entries,
    matchKey,
    (_, entry): Alias => ({
      names: entry.means,
      keys: entry.means.map(matchKey),
    }),
    MAX_NAMES,
  );
}

/** Title abbreviations and synonyms by their analysed typed form ("ml", "vice president"). */
export const TITLE_TERMS: ReadonlyMap<string, TitleTerm> = titleTerms('titles', vocabulary.titles.entries);

/** The longest typed form of a title term, in words: how far ahead a reading looks. */
export const LONGEST_TITLE_TERM = Math.max(...[...TITLE_TERMS.values()].map((term) => term.typed.length));

const roleNouns = vocabulary.titles.role_nouns;

/** "engineer", "developer", "dev"... read alone, by their analysed form. */
export const ROLE_NOUNS_ALONE: ReadonlyMap<string, TitleTerm> = titleTerms(
  'titles.role_nouns',
  roleNouns.alone,
);

/** Words naming a field of work ("science", "management"), read last in a title as the field or its people. */
export const FIELD_WORDS: ReadonlyMap<string, TitleTerm> = titleTerms(
  'titles.role_nouns.fields',
  roleNouns.fields.entries,
);

/** What a role noun reads as once a specialty is given: "Engineer" or "Developer". */
export const ROLE_NOUNS_WITH_SPECIALTY: { phrases: readonly Phrase[]; labels: readonly string[] } = {
  phrases: roleNouns.with_specialty.map(analyse),
  labels: roleNouns.with_specialty,
};

/**
 * What another specialty implies ("software" beside "backend"), by analysed form: `words` are left
 * out and `roles` ("swe") read as the role nouns by the second reading of a title that found nothing.
 */
export const IMPLIED_BY_SPECIALTY: { words: ReadonlySet<string>; roles: ReadonlySet<string> } = {
  words: new Set(roleNouns.implied_by_specialty.words.flatMap(analyse)),
  roles: new Set(roleNouns.implied_by_specialty.roles.map((role) => analyse(role).join(' '))),
};

/** A field of software work and the specialties whose titles name it alone ("java": backend). */
export interface SpecialtyField {
  /** The specialties, each an analysed phrase joined by spaces ("ruby on rail"). */
  specialties: ReadonlySet<string>;
  /** Phrases of titles of other fields, analysed: "full stack" is not backend. */
  otherFields: readonly Phrase[];
  /** The same as typed in the vocabulary, for notes. */
  otherFieldLabels: readonly string[];
}

/** `titles.specialty_fields` by the field's analysed word ("backend"). */
export const SPECIALTY_FIELDS: ReadonlyMap<string, SpecialtyField> = new Map(
  vocabulary.titles.specialty_fields.fields.map((entry) => [
    analyse(entry.field).join(' '),
    {
      specialties: new Set(entry.specialties.map((specialty) => analyse(specialty).join(' '))),
      otherFields: entry.other_fields.map(analyse),
      otherFieldLabels: entry.other_fields,
    },
  ]),
);

/** Rank words that name one seniority, each with its group: "head" and "director". */
export const ALIKE_RANKS: ReadonlyMap<string, readonly string[]> = new Map(
  roleNouns.alike_ranks.groups.flatMap((group) => group.map((word) => [word, group] as const)),
);

/** Seniority and rank words: with only these beside it, a role noun is read alone. */
export const NOT_SPECIALTIES: ReadonlySet<string> = new Set(roleNouns.not_specialties.flatMap(analyse));

/** Words naming the posting, not the role ("jobs", "roles"), by analysed form. */
export const POSTING_WORDS: ReadonlySet<string> = new Set(vocabulary.stop_words.posting);

export const STOP_WORDS: ReadonlySet<string> = new Set([...vocabulary.stop_words.words, ...POSTING_WORDS]);

/** Employers' own level numbers ("II", "3", "L4"), left out of a title with a note. */
export const IGNORED_LEVEL_WORDS: ReadonlySet<string> = new Set(vocabulary.levels.ignored.flatMap(analyse));

/** A rank typed with "+" after it ("staff"), by its folded form: the ranks of titles from it up. */
export const RANKS_AND_ABOVE: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(vocabulary.levels.and_above.ranks),
);

/** Level words titles do not spell out, by their analysed typed form ("mid level"): the experience levels they mean. */
export const EXPERIENCE_LEVEL_WORDS: ReadonlyMap<string, readonly ExperienceLevel[]> = new Map(
  vocabulary.levels.experience_levels.flatMap((entry) => {
    const levels = entry.levels.map((level) => {
      if (!(EXPERIENCE_LEVELS as readonly string[]).includes(level))
        fail('levels.experience_levels', `"${level}" is not an experience level`);
      return level as ExperienceLevel;
    });
    return entry.typed.map((form) => [analyse(form).join(' '), levels] as const);
  }),
);

/** Other names of skills, by match key ("k8s" → Kubernetes). */
export const SKILL_ALIASES: ReadonlyMap<string, Alias> = aliases('skills', vocabulary.skills.entries);

/** Words around a skill's name that say how it is known ("experience", "certified"), by match key. */
export const SKILL_NOISE_WORDS: ReadonlySet<string> = new Set(
  vocabulary.skills.noise_words.words.map(matchKey),
);

/** Skills of the data named like places ("Cypress", "DAX"), by match key: in a title, the skill. */
export const SKILLS_NAMED_LIKE_PLACES: ReadonlySet<string> = new Set(
  vocabulary.skills.named_like_places.names.map(matchKey),
);

/** Soft skills ("Communication"), by match key: typed in skills, a note says no filter reads them. */
export const SOFT_SKILLS: ReadonlySet<string> = new Set(vocabulary.skills.soft.names.map(matchKey));

/** Words around an industry's name that say it is one ("fintech companies"), by match key. */
export const INDUSTRY_NOISE_WORDS: ReadonlySet<string> = new Set(
  vocabulary.industries.noise_words.words.map(matchKey),
);

/** Other names of industries that in a title name a department ("IT Analyst"), by match key. */
export const INDUSTRY_NAMES_NOT_IN_TITLES: ReadonlySet<string> = new Set(
  vocabulary.industries.not_in_titles.typed.map(matchKey),
);

/** Other names of industries, by match key ("telecoms" → Telecommunications). */
export const INDUSTRY_ALIASES: ReadonlyMap<string, Alias> = aliases(
  'industries',
  vocabulary.industries.entries,
);

/**
 * How a fixed value is compared: folded, letters, digits and currency signs only ("On-site", "on
 * site" and "ONSITE" are one; "£" is a name of GBP).
 */
export function fixedValueKey(text: string): string {
  return foldKey(text).replace(/[^\p{L}\p{N}\p{Sc}]/gu, '');
}

/**
 * Other names of one list's fixed values by `fixedValueKey`, each meaning values of the list: one,
 * or with `several` as many as it names ("location" is city or country).
 */
function fixedValueNames<Value extends string>(
  section: string,
  values: readonly Value[],
  entries: readonly Entry[],
  several = false,
): ReadonlyMap<string, readonly Value[]> {
  const names = byTypedForm(section, entries, fixedValueKey, (_, entry) => {
    const meant = entry.means as Value[];
    if ((meant.length > 1 && !several) || !meant.every((value) => values.includes(value)))
      fail(section, `"${entry.typed[0]}" must mean ${several ? 'values' : 'one'} of ${values.join(', ')}`);
    return meant;
  });
  for (const value of values)
    if (names.has(fixedValueKey(value))) fail(section, `"${value}" is a value itself`);
  return names;
}

/** Other names of the experience levels ("jr" → Entry). */
export const EXPERIENCE_LEVEL_NAMES: ReadonlyMap<string, readonly ExperienceLevel[]> = fixedValueNames(
  'filter_values.experience_level',
  EXPERIENCE_LEVELS,
  vocabulary.filter_values.experience_level,
);

/** Other names of the employment types ("contractor" → Contract). */
export const EMPLOYMENT_TYPE_NAMES: ReadonlyMap<string, readonly EmploymentType[]> = fixedValueNames(
  'filter_values.employment_type',
  EMPLOYMENT_TYPES,
  vocabulary.filter_values.employment_type,
);

/** Other names of the company size bands ("mid-size" → medium). */
export const COMPANY_SIZE_NAMES: ReadonlyMap<string, readonly CompanySizeBand[]> = fixedValueNames(
  'filter_values.company_size',
  COMPANY_SIZE_BANDS,
  vocabulary.filter_values.company_size,
);

/** Other names of the market insight dimensions ("seniority" → experience_level), for breakdown_by too. */
export const INSIGHT_DIMENSION_NAMES: ReadonlyMap<string, readonly InsightGroupBy[]> = fixedValueNames(
  'filter_values.insight_group_by',
  INSIGHT_GROUP_BY,
  vocabulary.filter_values.insight_group_by,
  true,
);

/** Other names of the market insight metrics ("median salary" → salary). */
export const INSIGHT_METRIC_NAMES: ReadonlyMap<string, readonly InsightMetric[]> = fixedValueNames(
  'filter_values.insight_metric',
  INSIGHT_METRICS,
  vocabulary.filter_values.insight_metric,
);

/** Other names of the signal categories ("redundancies" → layoff). */
export const SIGNAL_CATEGORY_NAMES: ReadonlyMap<string, readonly SignalCategory[]> = fixedValueNames(
  'filter_values.signal_category',
  SIGNAL_CATEGORIES,
  vocabulary.filter_values.signal_category,
);

/** Other names of the salary currencies ("£", "euro" → GBP, EUR). */
export const CURRENCY_NAMES: ReadonlyMap<string, readonly Currency[]> = fixedValueNames(
  'filter_values.currency',
  CURRENCIES,
  vocabulary.filter_values.currency,
);

/** Other names of the signal polarities ("good news" → positive). */
export const SIGNAL_POLARITY_NAMES: ReadonlyMap<string, readonly SignalPolarity[]> = fixedValueNames(
  'filter_values.signal_polarity',
  SIGNAL_POLARITIES,
  vocabulary.filter_values.signal_polarity,
);

/** What ends a company name as people type it, as `company_names` lists it. */
const NAME_ENDINGS = [...vocabulary.company_names.legal_forms, ...vocabulary.company_names.descriptors];

/** The legal forms and descriptors a typed company name may end with, by `fixedValueKey` ("sa" for "S.A."). */
const LEGAL_FORMS: ReadonlySet<string> = (() => {
  const forms = new Set<string>();
  for (const form of NAME_ENDINGS) {
    const key = fixedValueKey(form);
    if (key === '' || forms.has(key)) fail('company_names.legal_forms', `"${form}" is empty or listed twice`);
    forms.add(key);
  }
  return forms;
})();

/** The longest legal form a form of the list can span, in words ("GmbH & Co. KG"). */
const LONGEST_LEGAL_FORM = Math.max(...NAME_ENDINGS.map((form) => form.split(/\s+/).length));

/**
 * A typed company name without the legal forms and descriptors it ends with ("Everstream, Inc." is
 * "Everstream" and "Inc.", "Snowline AI Ltd" "Snowline" and "AI Ltd"), or undefined when it ends
 * with none or is nothing else.
 */
export function legalFormAtEnd(name: string): { rest: string; form: string } | undefined {
  const words = name.trim().split(/\s+/);
  for (let count = Math.min(LONGEST_LEGAL_FORM, words.length - 1); count >= 1; count--) {
    const form = words.slice(-count).join(' ');
    if (!LEGAL_FORMS.has(fixedValueKey(form))) continue;
    const rest = trimEdges(words.slice(0, -count).join(' '), (character) => /[\s,;&–-]/u.test(character));
    if (fixedValueKey(rest) === '') continue;
    // A descriptor before a legal form goes too: "Snowline AI Ltd".
    const before = legalFormAtEnd(rest);
    return before ? { rest: before.rest, form: `${before.form} ${form}` } : { rest, form };
  }
  return undefined;
}
