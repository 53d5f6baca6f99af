import type { estypes } from '@elastic/elasticsearch';
import { matchKey } from '../domain/analysis.js';
import { foldKey } from '../domain/fold.js';
import { editsWithin, listInWords, splitAt } from '../domain/words.js';
import {
  type Alias,
  fixedValueKey,
  INDUSTRY_ALIASES,
  INDUSTRY_NOISE_WORDS,
  legalFormAtEnd,
  SKILL_ALIASES,
  SKILL_NOISE_WORDS,
  SKILLS_NAMED_LIKE_PLACES,
  SOFT_SKILLS,
} from '../reference/vocabulary.js';
import { type Query, valuesClause } from './es.js';
import type { WordsLeftOut } from './left-out.js';

/**
 * How the typed text filters are read (docs/search-semantics.md, "How text is read"): skills,
 * industry and company name here, the title in `title-reading.ts`. Each reading gives the clause
 * of the first search, a note when what was typed was read as something else, and, where some of
 * it can be read another way, a second reading that runs only when the first finds nothing. Every
 * clause count is bounded: at most 10 skills of at most MAX_NAME_PARTS parts, each read as at
 * most MAX_NAMES names; one industry.
 */

/**
 * Core fuzziness: 1 edit for words of 4 to 7 characters, 2 from 8; the first letter as typed. Two
 * edits in a shorter word, or one in a word of three letters (mostly acronyms: "sas", "svp"),
 * reach other words rather than typos ("project" to "product", "sas" to "sap"):
 * docs/decisions/typo-fallback.md.
 */
export const FUZZY = { fuzziness: 'AUTO:4,8', prefix_length: 1, max_expansions: 50 } as const;
export const FUZZABLE_LENGTH = 4;

/** Whether `FUZZY` reads `typed` as `word`: the same first letter, and as few edits as it allows. */
export function isCloseSpelling(typed: string, word: string): boolean {
  if (typed.length < FUZZABLE_LENGTH || typed[0] !== word[0]) return false;
  const limit = typed.length >= 8 ? 2 : 1;
  return editsWithin(typed, word, limit) <= limit;
}
/** Parts of one typed skill or industry read on their own: "Kubernetes (k8s)", "fintech or banking". */
const MAX_NAME_PARTS = 4;

type TypoSubject = 'title' | 'skill' | 'industry' | 'company name';

/**
 * One way of reading a title in the second request, counted there: only the most preferred
 * (lowest `tier`) of those that found something are kept and noted (src/search/fallback.ts).
 */
export interface Choice {
  /** Unique within the request: the bucket of the `second_readings` aggregation. */
  name: string;
  tier: number;
  clause: Query;
  /** The choice with the words made fuzzy, whose note the term suggesters word, `note` after it. */
  typo?: true;
  /** The words it makes fuzzy, when not every word sent to the suggesters: only those are noted. */
  fuzzed?: readonly string[];
  note?: string;
  /** A part of the typed `whole` read on its own; the kept parts of one whole share one note. */
  part?: { whole: string; typed: string; names?: readonly string[] };
}

/**
 * The second reading of one filter (src/search/fallback.ts): its clause, the term suggesters that
 * say which spellings its fuzzy words found, and the choices its clause is any of, the filter as
 * first read among them.
 */
export interface SecondReading {
  clause: Query;
  subject: TypoSubject;
  typed: string;
  suggest: Record<string, estypes.SearchFieldSuggester>;
  /** By suggester, the text as typed that its one key was made from, for the note ("kuberntes", not its key "kubernte"). */
  shown?: Record<string, string>;
  choices: Choice[];
  /**
   * How to find what the text names as typed among all companies (the companies index, agencies and
   * companies without open roles too), and what to say then: a company's name containing it is not
   * read as another's when nothing is found (docs/search-semantics.md, "The second reading").
   */
  named?: { clause: Query; note: string };
}

export interface TextReading {
  clause: Query;
  note?: string;
  second?: SecondReading;
  /** The match keys a skills or industry reading looks for (what the company roll-ups count). */
  keys?: string[];
  /** A title of several words read with each left out, counted when nothing is found (src/search/left-out.ts). */
  withoutEach?: () => WordsLeftOut;
}

export function suggester(field: string, text: string): estypes.SearchFieldSuggester {
  return {
    text,
    term: { field, suggest_mode: 'missing', size: 1, prefix_length: 1, min_word_length: FUZZABLE_LENGTH },
  };
}

export function anyOf(clauses: readonly Query[]): Query {
  return clauses.length === 1
    ? (clauses[0] as Query)
    : { bool: { should: [...clauses], minimum_should_match: 1 } };
}

export function allOf(clauses: readonly Query[]): Query {
  return { bool: { filter: [...clauses] } };
}

/** The skill(s) a typed name reads as: its alias's names, or its own match key. */
export function skillKeys(text: string): { keys: readonly string[]; names?: readonly string[] } {
  return keysOf(text, SKILL_ALIASES);
}

/**
 * A name the vocabulary knows as a skill's, which a title never reads as a place: another name of
 * skills ("spring", "ELK", "mobile") or a skill named like a place ("Cypress", "CI/CD").
 */
export function isSkillName(text: string): boolean {
  const key = matchKey(text);
  return SKILL_ALIASES.has(key) || SKILLS_NAMED_LIKE_PLACES.has(key);
}

/** A skill's name of the vocabulary, or another name of one skill: "Power BI", "React Native", "k8s". */
export function namesOneSkill(text: string): boolean {
  return SKILL_NAMES.has(matchKey(text));
}

/** Every industry the vocabulary names, and every other name of industries, by match key. */
const INDUSTRY_NAMES: ReadonlySet<string> = new Set([
  ...INDUSTRY_ALIASES.keys(),
  ...[...INDUSTRY_ALIASES.values()].flatMap((alias) => alias.keys),
]);

/** An industry's name ("Fintech") or another name of industries ("payments", "healthcare"). */
export function namesAnIndustry(text: string): boolean {
  return INDUSTRY_NAMES.has(matchKey(text));
}

/** The industry (or industries) a typed name reads as: its alias's names, or its own match key. */
export function industryKeys(text: string): { keys: readonly string[]; names?: readonly string[] } {
  return keysOf(text, INDUSTRY_ALIASES);
}

function keysOf(
  text: string,
  aliases: ReadonlyMap<string, Alias>,
): { keys: readonly string[]; names?: readonly string[] } {
  const key = matchKey(text);
  const alias = aliases.get(key);
  return alias ? { keys: alias.keys, names: alias.names } : { keys: key === '' ? [] : [key] };
}

interface KeyedReading {
  keys: string[];
  /** "k8s" as Kubernetes, for the note. */
  expanded: string[];
  /** Keys taken as typed, which a fuzzy reading may correct, with the text each was typed as. */
  asTyped: Array<{ key: string; typed: string }>;
}

/**
 * Brackets, commas and a slash between spaces always part a typed skill; a slash, "&", "and",
 * "or" or " + " only between single words of 3 letters or more ("GCP/BigQuery", "Python and
 * Django", "Kafka or RabbitMQ", "React + TypeScript", not "CI/CD" or "SAP S/4HANA").
 */
function skillParts(text: string): string[] {
  const parts = text
    .split(/[()[\],;|]|\s\/\s/)
    .flatMap((part) => {
      const sides = splitAt(part, /[/&]| and | or | \+ /i).map((side) => side.trim());
      return sides.length > 1 && sides.every((side) => /^[\p{L}\p{N}.#+-]{3,}$/u.test(side)) ? sides : [part];
    })
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return parts.length > 1 ? parts.slice(0, MAX_NAME_PARTS) : [];
}

/**
 * A version after a name: "Python 3", "Postgres 15", "Angular 2+", "Python 3.11", ".NET 8"; a
 * major of at most two digits, so that "Office 365" and "ISO 27001" stay names.
 */
const VERSION = /(?<=\S)\s+v?\d{1,2}(?:\.(?:\d+|x))*\+?$/i;

/**
 * A typed name without the `noiseWords` at its start and end: of a skill, those that say how it is
 * known ("AWS certified"); of an industry, those that say it is one ("fintech companies").
 */
function withoutNoise(text: string, noiseWords: ReadonlySet<string>): string {
  const words = text.trim().split(/\s+/);
  const noise = (word: string | undefined) => word !== undefined && noiseWords.has(matchKey(word));
  while (words.length > 0 && noise(words[0])) words.shift();
  while (words.length > 0 && noise(words.at(-1))) words.pop();
  return words.join(' ');
}

/** A version written onto a name of three letters or more: "HTML5", "CSS3", "python3" (not "EC2"). */
const GLUED_VERSION = /(?<=\p{L}{3})\d{1,2}\+?$/u;
/** Years of experience typed with a skill: "5+ years Python", "Python (3+ years)". */
const EXPERIENCE_YEARS = /(?<!\d)\d{1,2}(?: ?\+)? ?(?:years?|yrs?)(?: of)?/gi;
/** Brackets left empty once the years are taken out: "Python ( )". */
const EMPTY_BRACKETS = /\( ?\)|\[ ?\]/g;

/**
 * The names a typed skill also reads as, beside itself: each of its parts, and each without its
 * version, without years of experience and without the words that say how it is known. Documents
 * list skills without versions. A name whose known part has parts is read as them only
 * ("experience with React and TypeScript" is React or TypeScript).
 */
function skillForms(text: string): string[] {
  const clean = (piece: string) =>
    piece.replace(EXPERIENCE_YEARS, ' ').replace(/\s+/g, ' ').replace(EMPTY_BRACKETS, ' ').trim();
  const known = withoutNoise(clean(text), SKILL_NOISE_WORDS);
  const knownParts = skillParts(known);
  const pieces = [...(knownParts.length > 0 ? [] : [clean(text), known]), ...skillParts(text), ...knownParts]
    .map(clean)
    .filter((piece) => withoutNoise(piece, SKILL_NOISE_WORDS) !== '');
  return pieces
    .flatMap((piece) => [
      piece,
      piece.replace(VERSION, ''),
      piece.replace(GLUED_VERSION, ''),
      withoutNoise(piece, SKILL_NOISE_WORDS),
    ])
    .filter((form) => form !== text);
}

/**
 * The industries a typed industry also reads as: each of several named with "or" or commas
 * ("fintech or banking"; not "and" or "&": the data's names have them, "Media & Entertainment"),
 * and each without the words that say it is an industry ("fintech companies").
 */
function industryForms(text: string): string[] {
  const parts = splitAt(text, / or |[,;/]/i);
  return (parts.length > 1 ? parts.slice(0, MAX_NAME_PARTS) : [text]).map((part) =>
    withoutNoise(part, INDUSTRY_NOISE_WORDS),
  );
}

/** The skills and industries the vocabulary maps to, by match key: a note names "vue" as Vue.js. */
const NAMES_BY_KEY: ReadonlyMap<string, string> = new Map(
  [...SKILL_ALIASES.values(), ...INDUSTRY_ALIASES.values()].flatMap((alias) =>
    alias.names.map((name, index) => [alias.keys[index] as string, name] as const),
  ),
);

/** The other forms of a typed name (`formsOf`), each with its keys and the names a note gives it. */
function otherForms(
  text: string,
  aliases: ReadonlyMap<string, Alias>,
  formsOf: (text: string) => string[],
): Array<{ keys: readonly string[]; names: readonly string[] }> {
  return formsOf(text).flatMap((form) => {
    const trimmed = form.trim();
    const read = keysOf(trimmed, aliases);
    if (read.keys.length === 0) return [];
    return [
      { keys: read.keys, names: read.names ?? read.keys.map((key) => NAMES_BY_KEY.get(key) ?? trimmed) },
    ];
  });
}

function readKeys(
  typed: readonly string[],
  aliases: ReadonlyMap<string, Alias>,
  formsOf: (text: string) => string[],
): KeyedReading {
  const reading: KeyedReading = { keys: [], expanded: [], asTyped: [] };
  for (const text of typed) {
    const key = matchKey(text);
    const alias = aliases.get(key);
    if (alias) {
      reading.keys.push(...alias.keys);
      reading.expanded.push(`"${text}" as ${listInWords(alias.names, 'or')}`);
      continue;
    }
    if (key === '') continue;
    reading.keys.push(key);
    reading.asTyped.push({ key, typed: text.trim() });
    const others = otherForms(text, aliases, formsOf).filter((form) => !form.keys.includes(key));
    if (others.length === 0) continue;
    const labels: string[] = [];
    for (const form of others) {
      reading.keys.push(...form.keys);
      for (const name of form.names)
        if (!labels.some((label) => foldKey(label) === foldKey(name))) labels.push(name);
    }
    reading.expanded.push(`"${text}" as ${listInWords(labels, 'or')}`);
  }
  reading.keys = [...new Set(reading.keys)];
  return reading;
}

function fuzzyKeys(
  field: string,
  reading: KeyedReading,
  typed: Pick<SecondReading, 'subject' | 'typed'>,
): SecondReading | undefined {
  const fuzzable = reading.asTyped.filter(({ key }) => key.length >= FUZZABLE_LENGTH);
  if (fuzzable.length === 0) return undefined;
  const choices: Choice[] = [
    asReadChoice(field, valuesClause(field, reading.keys)),
    {
      name: `${field}_close_spellings`,
      tier: 1,
      clause: anyOf(fuzzable.map(({ key }) => ({ fuzzy: { [field]: { value: key, ...FUZZY } } }))),
      typo: true,
    },
  ];
  return {
    clause: anyOf(choices.map((choice) => choice.clause)),
    ...typed,
    suggest: Object.fromEntries(
      fuzzable.map(({ key }, index) => [`typo_${field}_${index}`, suggester(field, key)]),
    ),
    shown: Object.fromEntries(fuzzable.map(({ typed }, index) => [`typo_${field}_${index}`, typed])),
    choices,
  };
}

/**
 * A filter as its first reading read it, as the most preferred choice of its second reading: when
 * the second request finds something with it, this filter was not what found nothing, so it stays
 * as read, with no note, and only the others are read another way (docs/search-semantics.md, "The
 * second reading").
 */
export function asReadChoice(name: string, clause: Query): Choice {
  return { name: `${name}_as_read`, tier: -1, clause };
}

/**
 * `skills`: roles needing any of them, each by its name or one of its other names, and by the
 * parts and versionless name of what was typed ("Kubernetes (k8s)", "Python 3").
 */
export function readSkills(skills: readonly string[]): TextReading {
  const reading = readKeys(skills, SKILL_ALIASES, skillForms);
  const { expanded } = reading;
  const soft = skills.filter((skill) => SOFT_SKILLS.has(matchKey(skill))).map((skill) => `"${skill.trim()}"`);
  const notes = [
    ...(expanded.length > 0
      ? [`Read the skill${expanded.length > 1 ? 's' : ''} ${listInWords(expanded, 'and')}.`]
      : []),
    ...(soft.length > 0
      ? [
          `${listInWords(soft, 'and')} ${soft.length > 1 ? 'are soft skills' : 'is a soft skill'}, which roles list apart from their skills: no filter reads soft skills.`,
        ]
      : []),
  ];
  const note = notes.length > 0 ? notes.join(' ') : undefined;
  const typed = { subject: 'skill', typed: skills.join(', ') } as const;
  const close = closeAliasChoices(
    'skills_key',
    reading,
    SKILL_ALIASES_BY_INITIAL,
    SKILL_NAMES,
    typed.subject,
  );
  return keyedReading(
    'skills_key',
    reading,
    typed,
    [...close, ...runChoices(skills, reading.keys, SKILL_RUNS)],
    note,
  );
}

/**
 * `industry`: the industry by its name or one of its other names. Its second reading is each part
 * of a name joined by "and" or "&" on its own ("banking and finance"; the data's own names have
 * them, so only when the whole finds nothing), then the words by close spellings, then, for a name
 * without such parts, the runs of its words ("retail banking").
 */
export function readIndustry(industry: string): TextReading {
  const reading = readKeys([industry], INDUSTRY_ALIASES, industryForms);
  const note = reading.expanded.length > 0 ? `Read the industry ${reading.expanded[0]}.` : undefined;
  const typed = { subject: 'industry', typed: industry } as const;
  const parts = industryPartChoices(industry, reading.keys);
  const runs = parts.length > 0 ? [] : runChoices([industry], reading.keys, INDUSTRY_RUNS);
  const close = closeAliasChoices(
    'industry_key',
    reading,
    INDUSTRY_ALIASES_BY_INITIAL,
    INDUSTRY_NAMES,
    typed.subject,
  );
  return keyedReading('industry_key', reading, typed, [...close, ...parts, ...runs], note);
}

/** Other names of skills or industries by the first letter of their key, which a close spelling keeps. */
type AliasesByInitial = ReadonlyMap<string, ReadonlyArray<readonly [string, Alias]>>;

function byInitial(aliases: ReadonlyMap<string, Alias>): AliasesByInitial {
  const grouped = new Map<string, Array<readonly [string, Alias]>>();
  for (const entry of aliases) {
    const initial = entry[0][0] ?? '';
    const group = grouped.get(initial) ?? [];
    group.push(entry);
    grouped.set(initial, group);
  }
  return grouped;
}

const SKILL_ALIASES_BY_INITIAL = byInitial(SKILL_ALIASES);
const INDUSTRY_ALIASES_BY_INITIAL = byInitial(INDUSTRY_ALIASES);

/**
 * Other names of the vocabulary spelt close to a name taken as typed ("helthcare" for healthcare,
 * which the index cannot correct, as it holds only what the names mean), after the close spellings
 * the index has, with a note naming what they mean. None for a name the vocabulary knows.
 */
function closeAliasChoices(
  field: string,
  reading: KeyedReading,
  aliases: AliasesByInitial,
  known: ReadonlySet<string>,
  subject: TypoSubject,
): Choice[] {
  return reading.asTyped.flatMap(({ key, typed }, index) => {
    if (known.has(key)) return [];
    const meant = (aliases.get(key[0] ?? '') ?? []).flatMap(([form, alias]) =>
      isCloseSpelling(key, form) ? [alias] : [],
    );
    if (meant.length === 0) return [];
    const names = [...new Set(meant.flatMap((alias) => alias.names))];
    return [
      {
        name: `${field}_close_alias_${index}`,
        tier: 1.5,
        clause: valuesClause(field, [...new Set(meant.flatMap((alias) => alias.keys))]),
        note: `${TYPO_WORDING[subject]} "${typed}", so it was read as ${listInWords(names, 'or')}.`,
      },
    ];
  });
}

/**
 * A filter read by its keys on `field`, with `note`; its second reading has the close spellings of
 * the keys taken as typed and `parts`, each part of what was typed read on its own.
 */
function keyedReading(
  field: string,
  reading: KeyedReading,
  typed: Pick<SecondReading, 'subject' | 'typed'>,
  parts: readonly Choice[],
  note: string | undefined,
): TextReading {
  const result: TextReading = { clause: valuesClause(field, reading.keys), keys: reading.keys };
  if (note) result.note = note;
  const fuzzy = fuzzyKeys(field, reading, typed);
  if (parts.length === 0) {
    if (fuzzy) result.second = fuzzy;
    return result;
  }
  const choices = [...(fuzzy?.choices ?? [asReadChoice(field, result.clause)]), ...parts];
  result.second = {
    clause: anyOf(choices.map((choice) => choice.clause)),
    ...typed,
    suggest: fuzzy?.suggest ?? {},
    ...(fuzzy?.shown ? { shown: fuzzy.shown } : {}),
    choices,
  };
  return result;
}

/** Each part of an industry joined by "and" or "&" that reads as other keys than the whole, as a choice. */
function industryPartChoices(industry: string, wholeKeys: readonly string[]): Choice[] {
  const parts = splitAt(industry, / and |&/i)
    .map((part) => withoutNoise(part, INDUSTRY_NOISE_WORDS))
    .filter((part) => part !== '');
  if (parts.length < 2) return [];
  return parts.slice(0, MAX_NAME_PARTS).flatMap((part, index): Choice[] => {
    const read = keysOf(part, INDUSTRY_ALIASES);
    if (read.keys.length === 0 || read.keys.every((key) => wholeKeys.includes(key))) return [];
    return [
      {
        name: `industry_part_${index}`,
        tier: 0,
        clause: valuesClause('industry_key', read.keys),
        part: { whole: industry, typed: part, ...(read.names ? { names: read.names } : {}) },
      },
    ];
  });
}

/** Words of one typed name whose runs are read on their own: "jenkins pipelines", "retail banking". */
const MAX_RUN_WORDS = 5;
/** Runs of words read on their own, over all names typed: each is a bucket of the second request. */
const MAX_RUNS = 24;

/** How the runs of one filter's words are read, and which come first among runs of one length. */
interface RunReading {
  field: string;
  aliases: ReadonlyMap<string, Alias>;
  /** Words that say how a skill is known, or that an industry is one: no run starts or ends with one. */
  noiseWords: ReadonlySet<string>;
  /** A skill names the tool first ("graphql api"); an industry's kind comes last ("retail banking"). */
  nameFirst: boolean;
  /**
   * Names the vocabulary knows, by match key: when every word of a typed name is one, each is as
   * likely meant as another, all kept that find something ("python sql" is Python or SQL, as
   * "python, sql" is), not the first only ("graphql api", "microservice architecture").
   */
  knownNames?: ReadonlySet<string>;
}

/**
 * Every name an alias gives, and every typed form of an alias of one name, by match key: not a
 * kind of tool ("cloud" is AWS, Azure, GCP...; "terraform cloud" is Terraform).
 */
const namesOf = (aliases: ReadonlyMap<string, Alias>): ReadonlySet<string> =>
  new Set([
    ...[...aliases].flatMap(([typed, alias]) => (alias.keys.length === 1 ? [typed] : [])),
    ...[...aliases.values()].flatMap((alias) => alias.keys),
  ]);

/** Every skill the vocabulary names, and every other name of one skill, by match key. */
const SKILL_NAMES: ReadonlySet<string> = namesOf(SKILL_ALIASES);

const SKILL_RUNS: RunReading = {
  field: 'skills_key',
  aliases: SKILL_ALIASES,
  noiseWords: SKILL_NOISE_WORDS,
  nameFirst: true,
  knownNames: SKILL_NAMES,
};
const INDUSTRY_RUNS: RunReading = {
  field: 'industry_key',
  aliases: INDUSTRY_ALIASES,
  noiseWords: INDUSTRY_NOISE_WORDS,
  nameFirst: false,
};

/**
 * The second reading of names typed in several words: each shorter run of their words that reads
 * as other keys than the first reading's ("docker" of "docker compose", "rest api" of "rest api
 * design", "banking" of "retail banking"), longer runs preferred (a lower tier), then those where
 * the name is (`nameFirst`), but single words alike when each is a known name (`knownNames`). Not of another name of one ("nest js"); no single letters, and no runs
 * that start or end with a noise word.
 */
function runChoices(names: readonly string[], firstKeys: readonly string[], how: RunReading): Choice[] {
  const choices: Choice[] = [];
  const seen = new Set(firstKeys);
  for (const typed of names) {
    // Each run is quoted as typed, its signs within kept: "CI/CD" of "CI/CD pipelines".
    const tokens = [...typed.matchAll(/[^\s_/-]+/g)];
    const words = tokens.map(([token]) => token);
    const whole = matchKey(typed);
    // A name the vocabulary knows whole ("Power BI", "React Native") means that one name, not its words.
    if (
      words.length < 2 ||
      words.length > MAX_RUN_WORDS ||
      how.aliases.has(whole) ||
      how.knownNames?.has(whole)
    )
      continue;
    const allKnown = words.every((word) => how.knownNames?.has(matchKey(word)));
    for (let length = words.length - 1; length >= 1; length -= 1) {
      for (let start = 0; start + length <= words.length; start += 1) {
        const first = tokens[start] as RegExpExecArray;
        const last = tokens[start + length - 1] as RegExpExecArray;
        const run = typed.slice(first.index, last.index + last[0].length).replace(/\s+/g, ' ');
        const read = keysOf(run, how.aliases);
        const fresh = read.keys.filter((key) => !seen.has(key));
        const noisy = withoutNoise(run, how.noiseWords) !== run;
        if (fresh.length === 0 || matchKey(run).length < 2 || noisy) continue;
        for (const key of fresh) seen.add(key);
        const place = length === 1 && allKnown ? 0 : how.nameFirst ? start : words.length - length - start;
        choices.push({
          name: `${how.field}_run_${choices.length}`,
          tier: 2 + (words.length - 1 - length) * MAX_RUN_WORDS + place,
          clause: valuesClause(how.field, read.keys),
          part: { whole: typed.trim(), typed: run, ...(read.names ? { names: read.names } : {}) },
        });
      }
    }
  }
  return choices.slice(0, MAX_RUNS);
}

/**
 * `name` / `company_name`: part of the company name, as a `wildcard` `*part*` on the folded
 * `nameKeyField`; `*`, `?` and `\` typed by the user are literal. Its second reading is the same
 * without a legal form it ends with ("Everstream Ltd"), else the words (without it) fuzzily, with
 * core fuzziness, in the standard-analysed `nameField`.
 */
export function readCompanyName(part: string, nameKeyField: string, nameField: string): TextReading {
  const reading: TextReading = { clause: nameContaining(nameKeyField, part) };
  const bare = bareCompanyName(part);
  const legalForm = legalFormAtEnd(bare);
  const words = foldKey(legalForm?.rest ?? bare);
  const fuzzy: Query | undefined =
    words.replace(/[^\p{L}\p{N}]/gu, '').length >= FUZZABLE_LENGTH
      ? { match: { [nameField]: { query: words, operator: 'and', ...FUZZY } } }
      : undefined;
  const choices: Choice[] = [
    asReadChoice('company_name', reading.clause),
    ...(legalForm && bare === part.trim()
      ? [
          {
            name: 'company_name_without_legal_form',
            tier: 0,
            clause: nameContaining(nameKeyField, legalForm.rest),
            note: `No company name contains "${part}", so it was read without "${legalForm.form}".`,
          },
        ]
      : []),
    ...otherNameChoices(part, legalForm?.rest ?? bare, bare !== part.trim(), nameKeyField),
    ...(fuzzy ? [{ name: 'company_name_close_spellings', tier: 1, clause: fuzzy, typo: true as const }] : []),
  ];
  if (choices.length === 1) return reading;
  reading.second = {
    clause: anyOf(choices.map((choice) => choice.clause)),
    subject: 'company name',
    typed: legalForm?.rest ?? part,
    suggest: fuzzy ? { typo_company_name: suggester(nameField, words) } : {},
    choices,
    // The name as typed or without what was written around it ("kitecraft.io") is some company's.
    named: {
      clause: anyOf(
        [...new Set([part.trim(), legalForm?.rest ?? bare])].map((name) =>
          nameContaining(COMPANY_NAME_KEY, name),
        ),
      ),
      note: `A company's name contains "${legalForm?.rest ?? bare}", so it was not read as another name.`,
    },
  };
  return reading;
}

/** A typed company name without what is written around it and the legal forms and descriptors it ends with. */
export function companyNameAlone(typed: string): string {
  const bare = bareCompanyName(typed);
  return legalFormAtEnd(bare)?.rest ?? bare;
}

/**
 * A company's name written as a web address ("www.snowlink.com") or a handle ("@snowlink"), after
 * "the", or with a place in brackets ("Snowlink (UK)"): the name alone.
 */
function bareCompanyName(typed: string): string {
  let name = typed.trim().replace(WEB_ADDRESS_START, '').split('/')[0] ?? '';
  for (let dot = name.lastIndexOf('.'); dot > 0 && WEB_DOMAINS.has(name.slice(dot + 1).toLowerCase()); ) {
    name = name.slice(0, dot);
    dot = name.lastIndexOf('.');
  }
  name = name.replace(LEADING_THE, '').trim();
  const bracket = name.endsWith(')') ? name.lastIndexOf('(') : -1;
  if (bracket > 0) name = name.slice(0, bracket).trim();
  return name === '' ? typed.trim() : name;
}

const WEB_ADDRESS_START = /^(?:@|(?:https?:\/\/)?(?:www\.)?)/i;
/** The endings of web addresses taken off a company's name: ".com", ".co.uk", ".io". */
const WEB_DOMAINS: ReadonlySet<string> = new Set(
  'com io ai co uk net org eu de pl ro bg at ch ie nl fr es app dev tech'.split(' '),
);
const LEADING_THE = /^the\s+/i;

/**
 * The name without what was written around it (`around`: a web address, "the", a place in
 * brackets, and a legal form with them), and run together when typed in words ("snow link",
 * "snow-line"), as choices of its second reading. A legal form alone has its own choice and note.
 */
function otherNameChoices(typed: string, name: string, around: boolean, nameKeyField: string): Choice[] {
  const choices: Choice[] = [];
  const said = (as: string) => `No company name contains "${typed.trim()}", so it was read as "${as}".`;
  if (around) {
    choices.push({
      name: 'company_name_bare',
      tier: 0,
      clause: nameContaining(nameKeyField, name),
      note: said(name),
    });
  }
  const joined = name.replace(/[\s-]+/g, '');
  if (joined !== name && fixedValueKey(joined).length >= FUZZABLE_LENGTH) {
    choices.push({
      name: 'company_name_joined',
      tier: 0.5,
      clause: nameContaining(nameKeyField, joined),
      note: said(joined),
    });
  }
  return choices;
}

/** The folded company name on the companies index, where `named` looks a typed name up. */
const COMPANY_NAME_KEY = 'name_key';

/** Names containing `part`, folded, as a `wildcard` whose own wildcard characters are escaped. */
export function nameContaining(nameKeyField: string, part: string): Query {
  const literal = foldKey(part).replace(/[\\*?]/g, (character) => `\\${character}`);
  return { wildcard: { [nameKeyField]: { value: `*${literal}*` } } };
}

const TYPO_WORDING: Record<TypoSubject, string> = {
  title: 'No role title contains',
  skill: 'No role lists the skill',
  industry: 'No role is in the industry',
  'company name': 'No company name contains',
};

type SuggestResponse = Record<string, Array<{ text: string; options?: unknown }>> | undefined;

function corrections(
  reading: SecondReading,
  suggest: SuggestResponse,
  fuzzed: readonly string[] | undefined,
): Array<[string, string]> {
  return Object.keys(reading.suggest).flatMap((key) =>
    (suggest?.[key] ?? []).flatMap((entry) => {
      if (fuzzed && !fuzzed.includes(entry.text)) return [];
      const options = (Array.isArray(entry.options) ? entry.options : [entry.options]) as Array<
        { text?: string } | undefined
      >;
      const best = options[0]?.text;
      return best ? [[reading.shown?.[key] ?? entry.text, best] as [string, string]] : [];
    }),
  );
}

/** What was typed and the spelling the index has instead. */
function typoNote(reading: SecondReading, suggest: SuggestResponse, fuzzed?: readonly string[]): string {
  const fixes = corrections(reading, suggest, fuzzed);
  if (fixes.length === 0) {
    return `${TYPO_WORDING[reading.subject]} "${reading.typed}" exactly, so close spellings were searched.`;
  }
  const typos = listInWords(
    fixes.map(([typo]) => `"${typo}"`),
    'or',
  );
  const fixed = listInWords(
    fixes.map(([, fix]) => `"${fix}"`),
    'and',
  );
  return `${TYPO_WORDING[reading.subject]} ${typos}, so it was read as ${fixed}.`;
}

/** What the second request says: its term suggesters, and how many roles each choice found. */
export interface SecondAnswer {
  suggest?: SuggestResponse;
  /** Roles found by each choice (`Choice.name`); unknown when the request did not count them. */
  found?: (name: string) => number | undefined;
}

/** The choices of a title's second reading to keep: those of the most preferred tier that found something. */
export function keptChoices(choices: readonly Choice[], answer: SecondAnswer): Choice[] {
  const found = choices.filter((choice) => (answer.found?.(choice.name) ?? 1) > 0);
  const tier = Math.min(...found.map((choice) => choice.tier));
  return found.filter((choice) => choice.tier === tier);
}

/**
 * The notes of a second reading that found something: per filter, one per choice kept (none for
 * the filter as first read, the typo note for close spellings), the kept parts of one typed name
 * in one.
 */
export function secondReadingNotes(readings: readonly SecondReading[], answer: SecondAnswer): string[] {
  return readings.flatMap((reading) => {
    const kept = keptChoices(reading.choices, answer);
    const wholes = [...new Set(kept.flatMap((choice) => (choice.part ? [choice.part.whole] : [])))];
    return [
      ...kept.flatMap((choice) =>
        choice.typo
          ? [typoNote(reading, answer.suggest, choice.fuzzed), ...(choice.note ? [choice.note] : [])]
          : choice.note
            ? [choice.note]
            : [],
      ),
      ...wholes.map((whole) =>
        partsNote(
          reading.subject,
          whole,
          kept.flatMap((choice) => (choice.part?.whole === whole ? [choice.part] : [])),
        ),
      ),
    ];
  });
}

/**
 * One note for the parts of `whole` kept: `No role is in the industry "banking & finance", so
 * "banking" was read on its own and "finance" was read as Fintech, Banking or Insurance.`
 */
function partsNote(
  subject: TypoSubject,
  whole: string,
  parts: ReadonlyArray<NonNullable<Choice['part']>>,
): string {
  const alone = parts.filter((part) => part.names === undefined).map((part) => `"${part.typed}"`);
  const readAs = parts.flatMap((part) =>
    part.names ? [`"${part.typed}" was read as ${listInWords(part.names, 'or')}`] : [],
  );
  const aloneVerb = alone.length > 1 ? 'were read on their own' : 'was read on its own';
  const clauses = [...(alone.length === 0 ? [] : [`${listInWords(alone, 'and')} ${aloneVerb}`]), ...readAs];
  return `${TYPO_WORDING[subject]} "${whole}", so ${listInWords(clauses, 'and')}.`;
}
