import { analyse, matchKey } from '../domain/analysis.js';
import { EMPLOYMENT_TYPES, type EmploymentType, type ExperienceLevel } from '../domain/enums.js';
import { listInWords, splitAt, trimEdges } from '../domain/words.js';
import { InvalidArgument } from '../errors.js';
import { workArrangementIn } from '../reference/regions.js';
import {
  ALIKE_RANKS,
  EMPLOYMENT_TYPE_NAMES,
  EXPERIENCE_LEVEL_WORDS,
  FIELD_WORDS,
  fixedValueKey,
  IGNORED_LEVEL_WORDS,
  IMPLIED_BY_SPECIALTY,
  INDUSTRY_NAMES_NOT_IN_TITLES,
  LONGEST_TITLE_TERM,
  NOT_SPECIALTIES,
  type Phrase,
  POSTING_WORDS,
  RANKS_AND_ABOVE,
  ROLE_NOUNS_ALONE,
  ROLE_NOUNS_WITH_SPECIALTY,
  SKILL_NOISE_WORDS,
  SPECIALTY_FIELDS,
  STOP_WORDS,
  TITLE_TERMS,
  type TitleTerm,
} from '../reference/vocabulary.js';
import { type Query, valuesClause } from './es.js';
import type { WordsLeftOut } from './left-out.js';
import {
  cityOf,
  DAYS_IN_THE_OFFICE,
  type LocationReading,
  locationClauses,
  PLACES_APART,
  readLocation,
} from './location-filter.js';
import {
  allOf,
  anyOf,
  asReadChoice,
  type Choice,
  companyNameAlone,
  FUZZABLE_LENGTH,
  FUZZY,
  industryKeys,
  isCloseSpelling,
  isSkillName,
  nameContaining,
  namesAnIndustry,
  namesOneSkill,
  type SecondReading,
  skillKeys,
  suggester,
  type TextReading,
} from './text-filters.js';

/**
 * How a typed title (`title`, `hiring_for_title`) is read (docs/search-semantics.md, "Titles"):
 * its words, vocabulary terms, role nouns, level words and alternatives, every one required. When
 * that finds nothing, a second reading in the same second request as the typo fallback takes the
 * parts of a job-board title that name a place or a work arrangement as those filters ("Data
 * Engineer - London", "(Remote)") and reads the rest as typed, with close spellings, or with one of
 * its words (or two or three in a row) as a skill the role lists ("javascript developer") or as
 * the industry it is in ("fintech java developer"), or
 * without "software" beside another specialty, or, last, with its later parts as skills or the
 * company ("DevOps Engineer (AWS, Terraform)", "Java Developer at Pixelstream"). Bounded: at most MAX_TITLE_WORDS words once read,
 * each at most MAX_MEANINGS + 1 phrases, and at most MAX_SKILL_CHOICES skill choices for each of
 * the title as typed, with its places, and without what a specialty implies.
 */

export const MAX_TITLE_WORDS = 12;
const MAX_SKILL_CHOICES = 6;
const MAX_INDUSTRY_CHOICES = 3;
/** Titles of more words or parts than this are not counted with each left out when nothing is found. */
const MAX_WORDS_LEFT_OUT = 6;
/** Parts of a job-board title read as a place or work arrangement: "Software Engineer - Remote (UK)". */
const MAX_TITLE_PLACES = 2;
/** Words of a place at the end of a title without a separator: "San Francisco Bay Area" is not one. */
const LONGEST_PLACE_NAME = 3;
const LONGEST_SKILL_NAME = 3;
const LONGEST_LEVEL_FORM = Math.max(
  ...[...EXPERIENCE_LEVEL_WORDS.keys()].map((form) => form.split(' ').length),
);

/** A part of a typed title. */
type Concept =
  /** A word as typed; `role` when it is a role noun read alone. */
  | { kind: 'word'; word: string; role?: true }
  | { kind: 'role'; word: string }
  /** A vocabulary term read as any of its phrases; `rank` when it names a level only ("Sr"), `role` for a role noun. */
  | {
      kind: 'term';
      typed: string;
      phrases: readonly Phrase[];
      meaning: readonly string[];
      rank: boolean;
      role?: true;
    }
  /** Words for a level titles do not spell out ("mid-level"), read as experience_level. */
  | { kind: 'level'; typed: string; levels: readonly ExperienceLevel[] }
  /** Words joined by a slash ("Backend/Platform"): any one side. */
  | { kind: 'either'; typed: string; labels: readonly string[]; sides: Concept[][] };

interface Sequence {
  concepts: Concept[];
  /** Level numbers left out ("ii"). */
  ignored: string[];
}

function longestAt<Value>(
  words: readonly string[],
  index: number,
  forms: ReadonlyMap<string, Value>,
  longest: number,
): { value: Value; length: number } | undefined {
  for (let length = Math.min(longest, words.length - index); length >= 1; length--) {
    const value = forms.get(words.slice(index, index + length).join(' '));
    if (value !== undefined) return { value, length };
  }
  return undefined;
}

/** A term naming a level only ("Sr", "junior"): every phrase it means is rank words. */
function isRankTerm(term: TitleTerm): boolean {
  const meanings = term.phrases.slice(1);
  return meanings.length > 0 && meanings.every((phrase) => phrase.every((word) => NOT_SPECIALTIES.has(word)));
}

function termConcept(term: TitleTerm, typed = term.typed.join(' ')): Concept {
  return { kind: 'term', typed, phrases: term.phrases, meaning: term.meaning, rank: isRankTerm(term) };
}

/**
 * A field of work before a word naming the posting as the field or its people, as `withField`
 * reads it after a specialty: "engineering roles" are engineers too, "engineering" alone the
 * Engineering titles.
 */
function withFieldBefore(concepts: Concept[]): void {
  const last = concepts.at(-1);
  const field = last?.kind === 'word' ? FIELD_WORDS.get(last.word) : undefined;
  if (last?.kind === 'word' && field) concepts[concepts.length - 1] = termConcept(field, last.word);
}

/** Level words, vocabulary terms (longest typed form first), role nouns and the other words, stop words dropped. */
function conceptsOf(words: readonly string[]): Sequence {
  const sequence: Sequence = { concepts: [], ignored: [] };
  let index = 0;
  while (index < words.length) {
    const word = words[index] as string;
    const level = longestAt(words, index, EXPERIENCE_LEVEL_WORDS, LONGEST_LEVEL_FORM);
    const term =
      level || ROLE_NOUNS_ALONE.has(word)
        ? undefined
        : longestAt(words, index, TITLE_TERMS, LONGEST_TITLE_TERM);
    if (level) {
      const typed = words.slice(index, index + level.length).join(' ');
      sequence.concepts.push({ kind: 'level', typed, levels: level.value });
      index += level.length;
    } else if (term) {
      sequence.concepts.push(termConcept(term.value));
      index += term.length;
    } else {
      if (IGNORED_LEVEL_WORDS.has(word)) sequence.ignored.push(word);
      else if (ROLE_NOUNS_ALONE.has(word)) sequence.concepts.push({ kind: 'role', word });
      else if (POSTING_WORDS.has(word)) withFieldBefore(sequence.concepts);
      else if (!STOP_WORDS.has(word)) sequence.concepts.push({ kind: 'word', word });
      index += 1;
    }
  }
  return sequence;
}

const alphanumerics = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '');
/** A side of a slashed group without the brackets and punctuation around it, keeping ".NET", "C++", "C#". */
const sideLabel = (side: string) => trimEdges(side, (character) => !/[\p{L}\p{N}.+#]/u.test(character));

/**
 * The concepts of `text`. A word with slashes ("Backend/Platform") is read as either side when
 * each side has two letters or more and the vocabulary does not know it whole ("UX/UI"); "(m/w/d)"
 * and "A/B" are read as words.
 */
function sequenceOf(text: string): Sequence {
  const sequence: Sequence = { concepts: [], ignored: [] };
  const add = (part: Sequence) => {
    sequence.concepts.push(...part.concepts);
    sequence.ignored.push(...part.ignored);
  };
  let run: string[] = [];
  for (const token of text.split(/\s+/)) {
    const labels = token.split('/').map(sideLabel);
    const slashed =
      labels.length > 1 &&
      labels.every((side) => alphanumerics(side).length >= 2) &&
      !TITLE_TERMS.has(analyse(token).join(' ')) &&
      !isSkillName(sideLabel(token));
    if (!slashed) {
      run.push(token);
      continue;
    }
    add(conceptsOf(analyse(run.join(' '))));
    run = [];
    const sides = labels.map((side) => conceptsOf(analyse(side)));
    for (const side of sides) sequence.ignored.push(...side.ignored);
    const read = sides.map((side) => side.concepts).filter((concepts) => concepts.length > 0);
    if (read.length > 1)
      sequence.concepts.push({ kind: 'either', typed: labels.join('/'), labels, sides: read });
    else sequence.concepts.push(...(read[0] ?? []));
  }
  add(conceptsOf(analyse(run.join(' '))));
  return sequence;
}

function isSpecialty(concept: Concept): boolean {
  switch (concept.kind) {
    case 'word':
      return !concept.role && !NOT_SPECIALTIES.has(concept.word);
    case 'term':
      return !concept.rank;
    case 'either':
      return concept.sides.some((side) => side.some(isSpecialty));
    default:
      return false;
  }
}

/** A role noun (`typed`) beside a specialty: any of the role nouns. */
function roleNounsWithSpecialty(typed: string): Concept {
  return {
    kind: 'term',
    typed,
    phrases: ROLE_NOUNS_WITH_SPECIALTY.phrases,
    meaning: ROLE_NOUNS_WITH_SPECIALTY.labels,
    rank: false,
    role: true,
  };
}

/** A rank word or level ("senior", "lead", "mid-level"): what may follow a field of work. */
const isRank = (concept: Concept): boolean =>
  (concept.kind === 'word' && NOT_SPECIALTIES.has(concept.word)) ||
  (concept.kind === 'term' && concept.rank) ||
  concept.kind === 'level';

/**
 * A word naming a field of work last in a title, rank words aside, after a specialty or alone
 * before rank words, with no role noun ("data science", "product management", "data science
 * lead", "design lead"), as the field or the people who work in it (`titles.role_nouns.fields`).
 */
function withField(concepts: readonly Concept[]): readonly Concept[] {
  if (concepts.some((concept) => concept.kind === 'role' || isRoleNoun(concept))) return concepts;
  let last = concepts.length - 1;
  while (last > 0 && isRank(concepts[last] as Concept)) last -= 1;
  const concept = concepts[last];
  // Alone before rank words it names a role too: "design lead" is a lead designer.
  const ledBy = last === 0 && concepts.length > 1;
  if (concept?.kind !== 'word' || !(ledBy || concepts.slice(0, last).some(isSpecialty))) return concepts;
  const field = FIELD_WORDS.get(concept.word);
  if (!field) return concepts;
  return concepts.map((each, index) => (index === last ? termConcept(field, concept.word) : each));
}

/**
 * A role noun names one job with its specialty ("frontend engineer" or "frontend developer"), so
 * beside a specialty it reads as either; beside rank words only ("senior engineer") it stays as
 * typed. A title without one may end with a field of work (`withField`).
 */
function withRoleNouns(
  typedConcepts: readonly Concept[],
  hasSpecialty = typedConcepts.some(isSpecialty),
): Concept[] {
  const concepts = withField(typedConcepts);
  return concepts.map((concept): Concept => {
    if (concept.kind === 'either') {
      return { ...concept, sides: concept.sides.map((side) => withRoleNouns(side, hasSpecialty)) };
    }
    if (concept.kind !== 'role') return concept;
    if (hasSpecialty) return roleNounsWithSpecialty(concept.word);
    const alone = ROLE_NOUNS_ALONE.get(concept.word);
    if (!alone || alone.meaning.length === 0) return { kind: 'word', word: concept.word, role: true };
    return { ...termConcept(alone, concept.word), role: true } as Concept;
  });
}

/** Phrases of a title as clauses on `title_terms`: single words as one `terms`, longer ones as phrases. */
function phrasesClause(phrases: readonly Phrase[]): Query {
  const single = phrases.filter((phrase) => phrase.length === 1).map((phrase) => phrase[0] as string);
  const clauses: Query[] = phrases
    .filter((phrase) => phrase.length > 1)
    .map((phrase) => ({ match_phrase: { title_terms: phrase.join(' ') } }));
  if (single.length > 0) clauses.unshift(valuesClause('title_terms', single));
  return anyOf(clauses);
}

function clauseOf(concept: Concept): Query {
  switch (concept.kind) {
    case 'word':
    case 'role':
      return { term: { title_terms: concept.word } };
    case 'term':
      return phrasesClause(concept.phrases);
    case 'level':
      return valuesClause('experience_level', concept.levels);
    case 'either':
      return anyOf(concept.sides.map(sequenceClause));
  }
}

function sequenceClause(concepts: readonly Concept[]): Query {
  return concepts.length === 1 ? clauseOf(concepts[0] as Concept) : allOf(concepts.map(clauseOf));
}

const wordCount = (concept: Concept): number =>
  concept.kind === 'either' ? concept.sides.flat().reduce((sum, side) => sum + wordCount(side), 0) : 1;

/** "x" as y, for the note, of every concept read as something else than typed, `x` as `typed` shows it. */
function expansions(concept: Concept, typed: string): string[] {
  switch (concept.kind) {
    case 'term':
    case 'level': {
      const meaning = meaningOf(concept);
      return meaning === undefined ? [] : [`"${asTyped(typed, concept.typed)}" as ${meaning}`];
    }
    case 'either': {
      // A side of one word read as something else says that instead of its label, once:
      // "Junior/Mid" as Junior, Graduate or Associate, or as experience_level Mid.
      const meanings = concept.sides.map((side) => {
        const [only, ...more] = side;
        return only && more.length === 0 ? meaningOf(only) : undefined;
      });
      if (meanings.every((meaning) => meaning === undefined))
        return [
          `"${concept.typed}" as ${listInWords(concept.labels, 'or')}`,
          ...concept.sides.flat().flatMap((side) => expansions(side, typed)),
        ];
      const each = [...new Set(meanings.map((meaning, index) => meaning ?? concept.labels[index]))];
      return [
        `"${concept.typed}" as ${each.join(', or as ')}`,
        ...concept.sides.flatMap((side, index) =>
          meanings[index] === undefined ? side.flatMap((inner) => expansions(inner, typed)) : [],
        ),
      ];
    }
    default:
      return [];
  }
}

/** What one concept is read as, when not as typed: "Junior, Graduate or Associate", "experience_level Mid". */
function meaningOf(concept: Concept): string | undefined {
  if (concept.kind === 'term' && concept.meaning.length > 0) return listInWords(concept.meaning, 'or');
  if (concept.kind === 'level') return `experience_level ${listInWords(concept.levels, 'or')}`;
  return undefined;
}

/** Words of typed text that one run of analysed words may come from: a spelling joins two ("front end"), stop words drop out. */
const LONGEST_TYPED_RUN_BEYOND = 3;

/**
 * Analysed words as the user typed them, found again in the typed text: "Sr." for "sr", "C#" for
 * "csharp", "front-end" for "frontend", "engineers" for "engineer"; the words themselves if no run
 * of the text reads as them.
 */
function asTyped(typed: string, words: string): string {
  // Only tokens with a letter or digit start or end a run ("Django", not "& Django").
  const tokens = [...typed.matchAll(/[^\s,;:|()[\]/"“”«»]+/gu)].filter((token) =>
    /[\p{L}\p{N}]/u.test(token[0]),
  );
  const longest = words.split(' ').length + LONGEST_TYPED_RUN_BEYOND;
  for (let start = 0; start < tokens.length; start++) {
    const first = tokens[start] as RegExpExecArray;
    for (let end = start; end < Math.min(tokens.length, start + longest); end++) {
      const last = tokens[end] as RegExpExecArray;
      const text = typed.slice(first.index, last.index + last[0].length);
      if (analyse(text).join(' ') === words) return text;
    }
  }
  return words;
}

/**
 * The title without what its other specialty implies (src/reference/vocabulary.json,
 * "implied_by_specialty"): "software" left out and "SWE" read as a role noun beside "backend";
 * undefined when nothing in it is implied by another specialty.
 */
function withoutImplied(
  typed: string,
  concepts: readonly Concept[],
): { concepts: Concept[]; says: string } | undefined {
  const impliedWord = (concept: Concept): concept is Extract<Concept, { kind: 'word' }> =>
    concept.kind === 'word' && IMPLIED_BY_SPECIALTY.words.has(concept.word);
  const impliedRole = (concept: Concept): concept is Extract<Concept, { kind: 'term' }> =>
    concept.kind === 'term' && IMPLIED_BY_SPECIALTY.roles.has(concept.typed);
  const others = concepts.filter((concept) => !impliedWord(concept) && !impliedRole(concept));
  const specialty = others.some((concept) => isSpecialty(concept) && !isRoleNoun(concept));
  if (others.length === concepts.length || !specialty) return undefined;
  const hasRoleNoun = others.some(isRoleNoun);
  const says: string[] = [];
  const read = concepts.flatMap((concept): Concept[] => {
    if (impliedWord(concept)) {
      says.push(`without "${asTyped(typed, concept.word)}"`);
      return [];
    }
    if (!impliedRole(concept)) return [concept];
    const shown = asTyped(typed, concept.typed);
    if (hasRoleNoun) {
      says.push(`without "${shown}"`);
      return [];
    }
    says.push(`with "${shown}" as ${listInWords(ROLE_NOUNS_WITH_SPECIALTY.labels, 'or')}`);
    return [roleNounsWithSpecialty(concept.typed)];
  });
  return { concepts: read, says: listInWords(says, 'and') };
}

/** A role noun, read alone or beside a specialty ("engineer", "developer"). */
const isRoleNoun = (concept: Concept): boolean => 'role' in concept && concept.role === true;

/** A word of a title taken as typed: what a second reading may read with close spellings. */
const isPlain = (concept: Concept): concept is { kind: 'word'; word: string } => concept.kind === 'word';

/**
 * The words of a concept a skill may be named by: a word as typed or a vocabulary term ("power",
 * "bi"), not a rank word or role noun.
 */
function skillWords(concept: Concept | undefined): string | undefined {
  if (concept?.kind === 'word' && !concept.role && !NOT_SPECIALTIES.has(concept.word)) return concept.word;
  if (concept?.kind === 'term' && !concept.role && !concept.rank) return concept.typed;
  return undefined;
}

/**
 * What separates the parts of a job-board title: a spaced dash or bar, "@", commas, brackets, " in ",
 * " at "; captured, so that `split` keeps it (the one before a part says what it may be).
 */
const TITLE_PARTS = /(\s[-–—|@]\s|[,|()[\]]|\s(?:in|at)\s)/i;

interface TitlePart {
  typed: string;
  concepts: Concept[];
}

/**
 * Takes off the end of the title's last part, into `places`, the words (up to 3, the longest
 * first) that name a place or work arrangement without a separator before them: "python
 * developer remote", "Data Engineer New York". At least one word stays the title.
 */
function placesAtTheEnd(kept: string[], places: Array<{ segment: string; reading: LocationReading }>) {
  while (places.length < MAX_TITLE_PLACES && kept.length > 0) {
    const words = (kept.at(-1) as string).split(/\s+/);
    let taken = false;
    for (let length = Math.min(LONGEST_PLACE_NAME, words.length - 1); length >= 1 && !taken; length--) {
      const segment = words.slice(-length).join(' ');
      const reading = titlePlace(segment);
      if (!reading) continue;
      places.push({ segment, reading });
      kept[kept.length - 1] = words.slice(0, -length).join(' ');
      taken = true;
    }
    if (!taken) return;
  }
}

/**
 * The places and work arrangements read from a title's parts, read together as one location would
 * read them: "(London, Manchester)" is either city, "London, UK" London, "Remote (UK)" both; each on
 * its own only when together they read as nothing.
 */
function placesClauses(places: ReadonlyArray<{ segment: string; reading: LocationReading }>): Query[] {
  const together =
    places.length > 1 ? readLocation(places.map(({ segment }) => segment).join(', '), false) : undefined;
  return together ? locationClauses(together) : places.flatMap(({ reading }) => locationClauses(reading));
}

/** Towns smaller than this are not read out of a title: their names are more often words there. */
const SMALLEST_TITLE_TOWN = 10_000;

/**
 * A place named in a title: as `location` reads it, but not a town of fewer than
 * SMALLEST_TITLE_TOWN people ("1st/2nd Line" is not Líně, "Snowflake" not Snowflake, Arizona,
 * "Rust" not Rust in Baden).
 */
function titlePlace(text: string): LocationReading | undefined {
  // Words of no role ("roles", "jobs") are no places either, though some town has the name, nor
  // the names of skills ("(Cypress)", "- ELK").
  if (analyse(text).every((word) => STOP_WORDS.has(word))) return undefined;
  const reading = readLocation(text, false);
  if (!reading || isSkillName(text)) return undefined;
  // Several places named together are each one a title names: "(Java or Kotlin)" is no two towns.
  const pieces = reading.keys.length > 1 ? splitAt(text, PLACES_APART) : [];
  if (pieces.length > 1)
    return pieces.every((piece) => titlePlace(piece) !== undefined) ? reading : undefined;
  const city = cityOf(reading);
  return city && city.population < SMALLEST_TITLE_TOWN ? undefined : reading;
}

function placeNote({ segment, reading }: { segment: string; reading: LocationReading }): string {
  const location = reading.keys.length > 0 ? 'the location ' : '';
  return `No role title has "${segment}", so it was read as ${location}${reading.says}.`;
}

/**
 * The words (up to 3, the longest first) at the start of the title's first part that name a place
 * or work arrangement, and the title without them: "remote python jobs", "London data engineer".
 * At least one word stays the title.
 */
function placeAtTheStart(kept: readonly string[]) {
  const words = (kept[0] ?? '').split(/\s+/);
  for (let length = Math.min(LONGEST_PLACE_NAME, words.length - 1); length >= 1; length--) {
    const segment = words.slice(0, length).join(' ');
    const reading = titlePlace(segment);
    if (reading)
      return { place: { segment, reading }, kept: [words.slice(length).join(' '), ...kept.slice(1)] };
  }
  return undefined;
}

/** Words of a work arrangement or employment type read from a title: "part time", "fully remote". */
const LONGEST_TERMS_OF_WORK = 3;
/** Employment words that also name what a role looks after: "Contract Manager", "Contracts Administrator". */
const ROLE_SUBJECTS: ReadonlySet<string> = new Set(['contract', 'contracts']);

/**
 * The words of a title, anywhere in it, that name a work arrangement ("senior remote react
 * developer") or an employment type ("contract java developer", "part time data analyst") by the
 * names `location` and `employment_type` know, read as those filters, and the rest of the title;
 * none when no such word is found or no word is left, or "contract" leaves one word only but a
 * role noun. Not "intern": titles have it.
 */
function termsOfWork(title: string): { rest: string; clauses: Query[]; notes: string[] } | undefined {
  const words = title.split(/\s+/).filter((word) => word !== '');
  // One scan of the whole title first: most titles name no arrangement.
  const arranged = workArrangementIn(title) !== undefined;
  const rest: string[] = [];
  const clauses: Query[] = [];
  const notes: string[] = [];
  let subject = false;
  for (let index = 0; index < words.length; ) {
    const found = termOfWorkAt(words, index, arranged);
    if (!found) {
      rest.push(words[index] as string);
      index += 1;
      continue;
    }
    clauses.push(valuesClause(found.filter, found.values));
    const says = `${found.filter} ${listInWords(found.values, 'or')}`;
    notes.push(`No role title has "${found.typed}", so it was read as ${says}.`);
    subject ||= found.filter === 'employment_type' && ROLE_SUBJECTS.has(found.typed.toLowerCase());
    index += found.length;
  }
  // "contract" beside one other word may be what the role manages ("Contract Manager"), though
  // not beside a role noun ("contract developer").
  const managed = subject && rest.length === 1 && !ROLE_NOUNS_ALONE.has(analyse(rest[0] as string).join(' '));
  if (clauses.length === 0 || rest.length === 0 || managed) return undefined;
  return { rest: rest.join(' '), clauses, notes };
}

/** The employment types by the key of their value or of another name ("parttime", "contractor"). */
const EMPLOYMENT_BY_KEY: ReadonlyMap<string, EmploymentType> = new Map([
  ...EMPLOYMENT_TYPES.map((value) => [fixedValueKey(value), value] as const),
  ...[...EMPLOYMENT_TYPE_NAMES].flatMap(([key, values]) => values.map((value) => [key, value] as const)),
]);

function termOfWorkAt(
  words: readonly string[],
  index: number,
  arranged: boolean,
): { typed: string; length: number; filter: 'work_type' | 'employment_type'; values: string[] } | undefined {
  for (let length = Math.min(LONGEST_TERMS_OF_WORK, words.length - index); length >= 1; length--) {
    const typed = words.slice(index, index + length).join(' ');
    const arrangement = arranged ? workArrangementIn(typed) : undefined;
    if (arrangement?.rest === '')
      return { typed, length, filter: 'work_type', values: arrangement.workTypes };
    const employment = typed.length >= 3 ? EMPLOYMENT_BY_KEY.get(fixedValueKey(typed)) : undefined;
    if (employment && employment !== 'Internship')
      return { typed, length, filter: 'employment_type', values: [employment] };
  }
  return undefined;
}

/**
 * The choices of the second reading of one title (or of one of several titles separated by " / "),
 * in order of preference (`tier`): the parts after the first that name a place or work arrangement
 * read as those filters and the rest as typed; the plain words with close spellings; one run of
 * words read as a skill, with or without those places; without what another specialty implies
 * ("software" beside "backend"), with or without those places, then also with a run read as a
 * skill: every word typed is kept before one is left out.
 */
function secondReadingOf(part: TitlePart, name: string): { choices: Choice[]; fuzzable: string[] } {
  const { head, qualifiers } = qualifiersOf(part.typed);
  const places: Array<{ segment: string; reading: LocationReading }> = [];
  // The first part is the title; a later one the place it names, up to MAX_TITLE_PLACES.
  const kept = [{ text: head, place: undefined }, ...qualifiers].flatMap(({ text: segment, place }) => {
    if (segment === '') return [];
    const reading = places.length === MAX_TITLE_PLACES ? undefined : place;
    if (reading) places.push({ segment, reading });
    return reading ? [] : [segment];
  });
  const separated = places.length;
  placesAtTheEnd(kept, places);
  const choices: Choice[] = [];
  const located = placesClauses(places);
  const placeNotes = places.map(placeNote);
  const rest = places.length > 0 ? withRoleNouns(sequenceOf(kept.join(' ')).concepts) : part.concepts;
  if (places.length > 0) {
    choices.push({
      name: `${name}_places`,
      tier: 0,
      clause: allOf([...located, ...rest.map(clauseOf)]),
      note: placeNotes.join(' '),
    });
  }
  choices.push(
    ...joinedAsEither(part, name),
    ...alikeRankChoices(part, name),
    ...fieldBesideRank(part, name),
  );
  // With the places of choice 1 as places first: "Full Stack Developer - Leeds" is not spelt close
  // to "lead"; then, when words at the end without a separator were read as a place, with those
  // as words of the title: a misspelling may name a town too ("product manger").
  const endPlaces = places.slice(separated);
  const spelt = [
    closeSpellingsChoice(rest, `${name}_close_spellings`, 1, { clauses: located, notes: placeNotes }),
    ...(endPlaces.length > 0
      ? [
          closeSpellingsChoice(
            withRoleNouns(
              sequenceOf([...kept, ...endPlaces.map(({ segment }) => segment).reverse()].join(' ')).concepts,
            ),
            `${name}_words_close_spellings`,
            1.25,
            {
              clauses: placesClauses(places.slice(0, separated)),
              notes: places.slice(0, separated).map(placeNote),
            },
          ),
        ]
      : []),
  ].filter((choice) => choice !== undefined);
  choices.push(...spelt);
  const fuzzable = [...new Set(spelt.flatMap((choice) => choice.fuzzed ?? []))];
  choices.push(
    ...runChoices(part, part.concepts, AS_SKILL, { name: `${name}_skill`, tier: 2, clauses: [], notes: [] }),
    ...fieldOfSpecialtyChoices(part, `${name}_field`, part.concepts, { clauses: [], notes: [] }),
  );
  if (places.length > 0) {
    choices.push(
      ...fieldOfSpecialtyChoices(part, `${name}_places_field`, rest, { clauses: located, notes: placeNotes }),
    );
  }
  if (places.length > 0) {
    choices.push(
      ...runChoices(part, rest, AS_SKILL, {
        name: `${name}_places_skill`,
        tier: 2,
        clauses: located,
        notes: placeNotes,
      }),
    );
  }
  // Less preferred than a skill: many titles start with a word that is also some town's name
  // ("Java Developer", "Mobile Engineer", "Rust Developer").
  const leading = places.length < MAX_TITLE_PLACES ? placeAtTheStart(kept) : undefined;
  // The places of choice 1 and `clauses` as filters and `rest` as the title (`also`), and the same
  // with one run of `rest` read as the industry: "fintech java developer", "London fintech developer".
  const asFilters = (
    suffix: string,
    clauses: Query[],
    rest: readonly Concept[],
    notes: string[],
    also = true,
  ): Choice[] => {
    const with_ = { clauses: [...located, ...clauses], notes: [...placeNotes, ...notes] };
    const industries = runChoices(part, rest, AS_INDUSTRY, {
      name: `${name}_${suffix}_industry`,
      tier: 3,
      ...with_,
    });
    if (!also) return industries;
    const clause = allOf([...with_.clauses, ...rest.map(clauseOf)]);
    return [
      { name: `${name}_${suffix}`, tier: 3, clause, note: with_.notes.join(' ') },
      ...industries,
      // "London python backend developer": Python Developers in London.
      ...fieldOfSpecialtyChoices(part, `${name}_${suffix}_field`, rest, with_, 3),
    ];
  };
  choices.push(...asFilters('title', [], rest, [], false));
  const conceptsOfRest = (text: string) => withRoleNouns(sequenceOf(text).concepts);
  if (leading) {
    const { place } = leading;
    const clauses = locationClauses(place.reading);
    choices.push(
      ...asFilters('leading_place', clauses, conceptsOfRest(leading.kept.join(' ')), [placeNote(place)]),
    );
  }
  const terms = termsOfWork(kept.join(' '));
  if (terms)
    choices.push(...asFilters('terms_of_work', terms.clauses, conceptsOfRest(terms.rest), terms.notes));
  choices.push(...qualifierChoices(part, name, { head, qualifiers }));
  const implied = [
    {
      suffix: 'implied',
      concepts: part.concepts,
      clauses: [] as Query[],
      notes: [] as string[],
      skills: true,
    },
    ...(places.length > 0
      ? [{ suffix: 'places_implied', concepts: rest, clauses: located, notes: placeNotes, skills: false }]
      : []),
  ];
  for (const { suffix, concepts, clauses, notes, skills } of implied) {
    const without = withoutImplied(part.typed, concepts);
    if (!without) continue;
    // A language roles are titled by is their specialty as much as a skill: "Software Engineer
    // (Python)" is the Python Developers beside the Software Engineers listing Python.
    const titledBy = without.concepts.some((concept) => namesSpecialtyOf(FIELD_SPECIALTIES, concept));
    choices.push({
      name: `${name}_${suffix}`,
      tier: titledBy ? 2 : 4,
      clause: allOf([...clauses, ...without.concepts.map(clauseOf)]),
      note: [
        ...notes,
        `No role title has all of "${part.typed.trim()}", so it was read ${without.says}.`,
      ].join(' '),
    });
    // Then a word of what is left read as a skill: "Senior Software Engineer - Backend (Python)".
    if (skills) {
      choices.push(
        ...runChoices(part, without.concepts, AS_SKILL, {
          name: `${name}_implied_skill`,
          tier: 5,
          clauses: [],
          notes: [],
          without: without.says,
        }),
      );
    }
  }
  return { choices, fuzzable };
}

/** A concept that names one of `specialties`; a side of "java or python" names one too. */
function namesSpecialtyOf(specialties: ReadonlySet<string>, concept: Concept): boolean {
  return (
    (concept.kind === 'word' && specialties.has(concept.word)) ||
    (concept.kind === 'term' && concept.phrases.some((phrase) => specialties.has(phrase.join(' ')))) ||
    (concept.kind === 'either' &&
      concept.sides.some((side) => side.some((other) => namesSpecialtyOf(specialties, other))))
  );
}

/** The languages and frameworks roles of some field are titled by (`titles.specialty_fields`). */
const FIELD_SPECIALTIES: ReadonlySet<string> = new Set(
  [...SPECIALTY_FIELDS.values()].flatMap((field) => [...field.specialties]),
);

/**
 * The title without a field of work that a specialty beside it implies, and without the titles of
 * other fields (`titles.specialty_fields`): "python backend" is the Python Developers, not the Full
 * Stack Python Developers. As preferred as a skill, so it comes with the Backend Engineers listing
 * Python; then with one run of the rest read as a skill ("Backend Python Developer (Django)").
 * `concepts` are the title's, or what is left of them once its places are read (`with_`).
 */
function fieldOfSpecialtyChoices(
  part: TitlePart,
  name: string,
  concepts: readonly Concept[],
  with_: { clauses: readonly Query[]; notes: readonly string[] },
  tier = 2,
): Choice[] {
  const fieldWord = concepts.find(
    (concept): concept is Extract<Concept, { kind: 'word' }> =>
      concept.kind === 'word' && SPECIALTY_FIELDS.has(concept.word),
  );
  const field = fieldWord && SPECIALTY_FIELDS.get(fieldWord.word);
  if (!fieldWord || !field) return [];
  const others = concepts.filter((concept) => concept !== fieldWord);
  if (!others.some((concept) => namesSpecialtyOf(field.specialties, concept))) return [];
  const notOtherFields: Query = { bool: { must_not: [phrasesClause(field.otherFields)] } };
  const clauses = [...with_.clauses, notOtherFields];
  const without = `without "${asTyped(part.typed, fieldWord.word)}", leaving out the titles of other fields (${listInWords(field.otherFieldLabels, 'and')})`;
  return [
    {
      name,
      tier,
      clause: allOf([...clauses, ...others.map(clauseOf)]),
      note: [
        ...with_.notes,
        `No role title has all of "${part.typed.trim()}", so it was read ${without}.`,
      ].join(' '),
    },
    ...runChoices(part, others, AS_SKILL, {
      name: `${name}_skill`,
      tier: tier + 0.5,
      clauses,
      notes: with_.notes,
      without,
    }),
  ];
}

/**
 * The title with its words taken as typed made fuzzy on `title_terms`, beside `with_`'s clauses;
 * none when no word is long enough. A role noun misspelt beside a specialty is either role noun,
 * as spelt right: "java enginer" finds the Java Developers.
 */
function closeSpellingsChoice(
  concepts: readonly Concept[],
  name: string,
  tier: number,
  with_: { clauses: readonly Query[]; notes: readonly string[] },
): Choice | undefined {
  const fuzzed = concepts.flatMap((concept) =>
    isPlain(concept) && concept.word.length >= FUZZABLE_LENGTH ? [concept.word] : [],
  );
  if (fuzzed.length === 0) return undefined;
  const nounsSpelt = fuzzed.flatMap((word) => {
    const beside = concepts.some((other) => !(isPlain(other) && other.word === word) && isSpecialty(other));
    const noun = beside
      ? [...ROLE_NOUNS_ALONE.keys()].find((each) => isCloseSpelling(word, each))
      : undefined;
    return noun ? [{ word, noun }] : [];
  });
  const roleNouns = nounsSpelt.map(({ word }) => word);
  const fuzzy = concepts.map((concept) => {
    if (!isPlain(concept) || !fuzzed.includes(concept.word)) return clauseOf(concept);
    const closeSpellings: Query = { fuzzy: { title_terms: { value: concept.word, ...FUZZY } } };
    return roleNouns.includes(concept.word)
      ? anyOf([closeSpellings, clauseOf(roleNounsWithSpecialty(concept.word))])
      : closeSpellings;
  });
  const asRoleNouns = [...new Set(nounsSpelt.map(({ noun }) => `"${noun}"`))];
  const note = [
    ...(asRoleNouns.length > 0
      ? [
          `${listInWords(asRoleNouns, 'and')} ${asRoleNouns.length > 1 ? 'were' : 'was'} read as ${listInWords(ROLE_NOUNS_WITH_SPECIALTY.labels, 'or')}.`,
        ]
      : []),
    ...with_.notes,
  ].join(' ');
  return {
    name,
    tier,
    clause: allOf([...with_.clauses, ...fuzzy]),
    typo: true,
    fuzzed,
    ...(note !== '' ? { note } : {}),
  };
}

/** Two words joined by "&" or "and": "Data & Analytics". */
const JOINED_WORDS = /(?<=[\p{L}\p{N}]) ?(?:&| and ) ?(?=[\p{L}\p{N}])/gu;

/**
 * The title with words joined by "&" or "and" read as either, as a slash between them is: "Head of
 * Data & Analytics" is Head of Data or Head of Analytics when no title has both words. Before the
 * close spellings: it reads the words as typed.
 */
function joinedAsEither(part: TitlePart, name: string): Choice[] {
  const slashed = part.typed.replace(JOINED_WORDS, '/');
  if (slashed === part.typed) return [];
  const concepts = withRoleNouns(sequenceOf(slashed).concepts);
  const eithers = concepts.filter((concept) => concept.kind === 'either');
  if (eithers.length === 0) return [];
  const said = eithers.map((either) =>
    listInWords(
      either.labels.map((label) => `"${label}"`),
      'or',
    ),
  );
  return [
    {
      name: `${name}_either`,
      tier: 0.5,
      clause: allOf(concepts.map(clauseOf)),
      note: `No role title has all of "${part.typed.trim()}", so it was read with ${listInWords(said, 'and')}.`,
    },
  ];
}

/**
 * The title with a rank word read as any of its alike ranks (`titles.role_nouns.alike_ranks`):
 * "Head of ML" is the Director of Machine Learning when no Head of it is hiring. After the close
 * spellings and before a word is read as a skill: a Head of Machine Learning is the Director of
 * it before a Head of something listing machine learning.
 */
function alikeRankChoices(part: TitlePart, name: string): Choice[] {
  const at = part.concepts.findIndex((concept) => isPlain(concept) && ALIKE_RANKS.has(concept.word));
  const typed = part.concepts[at];
  const ranks = typed && isPlain(typed) ? ALIKE_RANKS.get(typed.word) : undefined;
  if (!typed || !isPlain(typed) || !ranks) return [];
  const meaning = ranks.map((rank) => `${rank.charAt(0).toUpperCase()}${rank.slice(1)}`);
  const alike: Concept = {
    kind: 'term',
    typed: typed.word,
    phrases: ranks.map((rank) => [rank]),
    meaning,
    rank: true,
  };
  const concepts = part.concepts.map((concept, index) => (index === at ? alike : concept));
  return [
    {
      name: `${name}_alike_rank`,
      tier: 1.5,
      clause: allOf(concepts.map(clauseOf)),
      note: `No role title has all of "${part.typed.trim()}", so "${asTyped(part.typed, typed.word)}" was read as ${listInWords(meaning, 'or')}.`,
    },
  ];
}

/**
 * The title without a field of work it ends with beside a rank word: "Head of Platform
 * Engineering" is the Head of Platform, "Director of Product Management" the Director of Product.
 * After the alike ranks, before a word is read as a skill.
 */
function fieldBesideRank(part: TitlePart, name: string): Choice[] {
  const last = part.concepts.at(-1);
  const field = last?.kind === 'term' && FIELD_WORDS.has(last.typed) ? last : undefined;
  if (!field || !part.concepts.some(isRank)) return [];
  return [
    {
      name: `${name}_without_field`,
      tier: 1.75,
      clause: allOf(part.concepts.slice(0, -1).map(clauseOf)),
      note: `No role title has all of "${part.typed.trim()}", so it was read without "${asTyped(part.typed, field.typed)}".`,
    },
  ];
}

/** A part after " at " or " @ " names the employer: "Java Developer at Pixelstream". */
const BEFORE_A_COMPANY = /^\s(?:at|@)\s$/i;
/** What separates the skills of a bracketed list: "(React/Node)", "(AWS, Terraform)". */
const BETWEEN_SKILLS = /[/,&]| and | or /i;
/** Parts after the first read by `qualifierChoices`, and skills in one of them. */
const MAX_QUALIFIERS = 5;
const MAX_SKILLS_LISTED = 4;

/** The first part of a job-board title and the parts after it, each with whether it follows " at ". */
function qualifiersOf(typed: string): { head: string; qualifiers: Qualifier[] } {
  const pieces = typed.split(TITLE_PARTS);
  let head = (pieces[0] ?? '').trim();
  const qualifiers: Array<Qualifier & { list?: number }> = [];
  let list = 0;
  let inBrackets = false;
  for (let index = 1; index < pieces.length; index += 2) {
    const separator = pieces[index] ?? '';
    if (separator === '(' || separator === '[') {
      inBrackets = true;
      list += 1;
    } else if (separator === ')' || separator === ']') inBrackets = false;
    const text = (pieces[index + 1] ?? '').trim();
    if (text === '') continue;
    if (head === '') head = text;
    else
      qualifiers.push({
        text,
        company: BEFORE_A_COMPANY.test(separator),
        place: titlePlace(text),
        ...(inBrackets ? { list } : {}),
      });
  }
  // A list in brackets of which some item names no place is a stack: "(Python, dbt, Snowflake)" are
  // skills, though towns have the names of the last two.
  const stacks = new Set(
    qualifiers.flatMap(({ list: item, place }) =>
      item !== undefined &&
      place === undefined &&
      qualifiers.filter((other) => other.list === item).length > 1
        ? [item]
        : [],
    ),
  );
  return {
    head,
    qualifiers: qualifiers.map(({ list: item, ...qualifier }) =>
      item !== undefined && stacks.has(item) ? { ...qualifier, place: undefined } : qualifier,
    ),
  };
}

/**
 * A part of a job-board title after the first, with the place it names (`titlePlace`), read once;
 * none for an item of a stack in brackets.
 */
interface Qualifier {
  text: string;
  company: boolean;
  place: LocationReading | undefined;
}

/**
 * A job-board title's parts after the first read by what they are, the first part as typed: a
 * place, work arrangement or employment type as those filters ("- Contract"), a part after " at "
 * as the company, any other as skills the role lists ("Full-Stack Engineer (React/Node)",
 * "DevOps Engineer (AWS, Terraform)");
 * then, least preferred, the title without the parts that are none of those ("Software Engineer -
 * Growth"). After every other choice: a part read as a skill may be a specialty ("Backend"),
 * which the reading without "software" reads better ("Senior Software Engineer - Backend
 * (Python)").
 */
function qualifierChoices(
  part: TitlePart,
  name: string,
  { head, qualifiers }: ReturnType<typeof qualifiersOf>,
): Choice[] {
  if (qualifiers.length === 0 || qualifiers.length > MAX_QUALIFIERS) return [];
  const read = qualifiers.map(({ text, company, place }) => {
    if (place) {
      const as = `${place.keys.length > 0 ? 'the location ' : ''}${place.says}`;
      return {
        text,
        place: true,
        skills: [] as string[],
        clauses: locationClauses(place),
        said: `"${text}" was read as ${as}`,
      };
    }
    const employment = EMPLOYMENT_BY_KEY.get(fixedValueKey(text));
    if (employment && employment !== 'Internship') {
      const clauses = [valuesClause('employment_type', [employment])];
      return {
        text,
        place: false,
        skills: [],
        clauses,
        said: `"${text}" was read as employment_type ${employment}`,
      };
    }
    if (company) {
      const clauses = [nameContaining('company.name_key', companyNameAlone(text))];
      return { text, place: false, skills: [], clauses, said: `"${text}" was read as the company` };
    }
    // A skill's name with a slash is one skill: "(CI/CD)".
    const skills = (isSkillName(text) ? [text] : splitAt(text, BETWEEN_SKILLS))
      .map((skill) => skill.trim())
      .filter((skill) => skill !== '')
      .slice(0, MAX_SKILLS_LISTED);
    return { text, place: false, skills, clauses: [], said: '' };
  });
  const listed = read.filter(({ skills }) => skills.length > 0);
  // Parts naming an industry beside parts that do not: "Software Engineer - Payments (Kotlin)" is
  // in Fintech and lists Kotlin.
  const inIndustry = listed.filter(({ skills }) => skills.every(namesIndustryInTitle));
  const mixed = inIndustry.length > 0 && inIndustry.length < listed.length;
  // The skills of every other part are one list: "(AWS, Terraform)" is two parts, either skill.
  const asSkillsListed = mixed ? listed.filter((qualifier) => !inIndustry.includes(qualifier)) : listed;
  const keys = [
    ...new Set(asSkillsListed.flatMap(({ skills }) => skills.flatMap((skill) => skillKeys(skill).keys))),
  ];
  const others = read.filter(({ skills }) => skills.length === 0);
  // Places only: the places choice reads them.
  if (read.every(({ place }) => place)) return [];
  const headConcepts = withRoleNouns(sequenceOf(head).concepts);
  const headClauses = headConcepts.map(clauseOf);
  const quote = (parts: typeof listed) =>
    listInWords(
      parts.map(({ text }) => `"${text}"`),
      'and',
    );
  const quoted = quote(asSkillsListed);
  const asIndustry = (parts: typeof listed) =>
    `${quote(parts)} ${parts.length > 1 ? 'were' : 'was'} read as the industry the role is in`;
  const industriesOf = (parts: typeof listed) =>
    valuesClause('industry_key', [
      ...new Set(parts.flatMap(({ skills }) => skills.flatMap((text) => industryKeys(text).keys))),
    ]);
  const asSkills =
    asSkillsListed.length === 0
      ? []
      : [
          `${quoted} ${asSkillsListed.length > 1 ? 'were' : 'was'} read as ${keys.length > 1 ? 'skills' : 'a skill'} the role lists`,
        ];
  const lead = `No role title has all of "${part.typed.trim()}", so`;
  const otherClauses = others.flatMap(({ clauses }) => clauses);
  const industryClauses = mixed ? [industriesOf(inIndustry)] : [];
  const skillClauses = keys.length > 0 ? [valuesClause('skills_key', keys)] : [];
  const qualifierClauses = [...otherClauses, ...industryClauses, ...skillClauses];
  const saidOthers = others.map(({ said }) => said);
  const saidQualifiers = [...saidOthers, ...(mixed ? [asIndustry(inIndustry)] : []), ...asSkills];
  const choices: Choice[] = [
    {
      name: `${name}_qualifiers`,
      tier: 6,
      clause: allOf([...headClauses, ...qualifierClauses]),
      note: `${lead} ${listInWords(saidQualifiers, 'and')}.`,
    },
    ...specialtyOfLaterParts(part, name, headConcepts, asSkillsListed, {
      clauses: [...otherClauses, ...industryClauses],
      said: [...saidOthers, ...(mixed ? [asIndustry(inIndustry)] : [])],
    }),
    // The first part read again too: "Cloud DevOps Engineer - AWS" is a DevOps Engineer listing
    // cloud and AWS, as "Cloud DevOps Engineer" alone would be.
    ...runChoices(part, headConcepts, AS_SKILL, {
      name: `${name}_qualifiers_head_skill`,
      tier: 6.5,
      clauses: qualifierClauses,
      notes: [],
      also: saidQualifiers,
    }),
  ];
  if (listed.length > 0) {
    if (mixed) {
      // Then either kind alone, without the other.
      choices.push(
        {
          name: `${name}_qualifiers_industry`,
          tier: 6.75,
          clause: allOf([...headClauses, ...otherClauses, ...industryClauses]),
          note: `${lead} ${listInWords([...saidOthers, asIndustry(inIndustry)], 'and')}, and it was read without ${quoted}.`,
        },
        {
          name: `${name}_qualifiers_skills`,
          tier: 6.75,
          clause: allOf([...headClauses, ...otherClauses, ...skillClauses]),
          note: `${lead} ${listInWords([...saidOthers, ...asSkills], 'and')}, and it was read without ${quote(inIndustry)}.`,
        },
      );
    } else {
      // Or the industry the role is in: "Product Manager - Payments (Fintech)".
      choices.push({
        name: `${name}_qualifiers_industry`,
        tier: 6,
        clause: allOf([...headClauses, ...otherClauses, industriesOf(listed)]),
        note: `${lead} ${listInWords([...saidOthers, asIndustry(listed)], 'and')}.`,
      });
    }
    const withOthers = saidOthers.length > 0 ? `, and ${listInWords(saidOthers, 'and')}` : '';
    choices.push({
      name: `${name}_head`,
      tier: 7,
      clause: allOf([...headClauses, ...otherClauses]),
      note: `${lead} it was read without ${quote(listed)}${withOthers}.`,
    });
    choices.push(
      ...runChoices(part, headConcepts, AS_SKILL, {
        name: `${name}_head_skill`,
        tier: 7.5,
        clauses: otherClauses,
        notes: [],
        also: [`it was read without ${quote(listed)}`, ...saidOthers],
      }),
    );
  }
  return choices;
}

/**
 * Beside a first part whose "software" a specialty implies, each later part naming a specialty as
 * the role's, either one, beside `others` (places, an industry...): "Staff Software Engineer,
 * Platform (Go)" is a Staff Platform or Staff Go Engineer. As preferred as the later parts read as
 * skills.
 */
function specialtyOfLaterParts(
  part: TitlePart,
  name: string,
  headConcepts: readonly Concept[],
  listed: ReadonlyArray<{ text: string }>,
  others: { clauses: readonly Query[]; said: readonly string[] },
): Choice[] {
  const read = listed.flatMap(({ text }) => {
    const without = withoutImplied(part.typed, [
      ...headConcepts,
      ...withRoleNouns(sequenceOf(text).concepts),
    ]);
    return without ? [{ text, without }] : [];
  });
  const [first] = read;
  if (!first) return [];
  const specialties = listInWords(
    read.map(({ text }) => `"${text}"`),
    'or',
  );
  const said = [
    ...others.said,
    `it was read ${first.without.says}, with ${specialties} as the role's specialty`,
  ];
  return [
    {
      name: `${name}_qualifiers_specialty`,
      tier: 6,
      clause: allOf([
        ...others.clauses,
        anyOf(read.map(({ without }) => allOf(without.concepts.map(clauseOf)))),
      ]),
      note: `No role title has all of "${part.typed.trim()}", so ${listInWords(said, 'and')}.`,
    },
  ];
}

/** A part of a title that names an industry the vocabulary knows, not a department ("IT"). */
function namesIndustryInTitle(text: string): boolean {
  return namesAnIndustry(text) && !INDUSTRY_NAMES_NOT_IN_TITLES.has(matchKey(text));
}

/** What one run of a title's words may be read as: a skill the role lists, or the industry it is in. */
interface RunFilter {
  field: 'skills_key' | 'industry_key';
  keysOf: (words: string) => { keys: readonly string[]; names?: readonly string[] };
  /** What the note says the run was read as, by the names of an alias. */
  as: (names: readonly string[] | undefined) => string;
  /** Choices for one title, single words first. */
  most: number;
  /** Whether the run may be the whole title ("kubernetes"), or names what kind of role it is. */
  alone: boolean;
  /** Words that say how the run is known, left out with it: "kubernetes experience", "using vue". */
  noise?: ReadonlySet<string>;
}

const AS_SKILL: RunFilter = {
  field: 'skills_key',
  keysOf: skillKeys,
  as: (names) => (names ? `the skill ${listInWords(names, 'or')}` : 'a skill the role lists'),
  most: MAX_SKILL_CHOICES,
  alone: true,
  noise: SKILL_NOISE_WORDS,
};

/**
 * "software" is what a specialty implies ("backend software engineer"), read by `withoutImplied`,
 * not the Software industry.
 */
const AS_INDUSTRY: RunFilter = {
  field: 'industry_key',
  keysOf: (words) =>
    IMPLIED_BY_SPECIALTY.words.has(words) || INDUSTRY_NAMES_NOT_IN_TITLES.has(matchKey(words))
      ? { keys: [] }
      : industryKeys(words),
  as: (names) => (names ? `the industry ${listInWords(names, 'or')}` : 'an industry'),
  most: MAX_INDUSTRY_CHOICES,
  alone: false,
};

/**
 * The title with one run of up to LONGEST_SKILL_NAME words read as `how` says (a skill the role
 * lists, the industry it is in) and the rest as typed, beside the clauses and notes of `with`:
 * single words first, at most `how.most`.
 */
function runChoices(
  part: TitlePart,
  concepts: readonly Concept[],
  how: RunFilter,
  with_: {
    name: string;
    tier: number;
    clauses: readonly Query[];
    notes: readonly string[];
    /** How the concepts were read beside the skill (`withoutImplied`), for the note. */
    without?: string;
    /** How other parts of the title were read, said after the run: `"AWS" was read as a skill the role lists`. */
    also?: readonly string[];
  },
): Choice[] {
  const choices: Choice[] = [];
  const noise = (concept: Concept | undefined) =>
    concept !== undefined && isPlain(concept) && how.noise?.has(matchKey(concept.word)) === true;
  for (let length = 1; length <= LONGEST_SKILL_NAME; length++) {
    for (let start = 0; start + length <= concepts.length && choices.length < how.most; start++) {
      const run = concepts.slice(start, start + length);
      const named = run.map(skillWords);
      // A run of vocabulary terms only ("CTO") was recognised as a title: not a skill or industry.
      if (named.some((words) => words === undefined) || !run.some(isPlain)) continue;
      if (noise(run[0]) || noise(run.at(-1))) continue;
      const words = named.join(' ');
      const read = how.keysOf(words);
      if (read.keys.length === 0) continue;
      const others = concepts.filter(
        (concept, index) => (index < start || index >= start + length) && !noise(concept),
      );
      if (others.length === 0 && !how.alone) continue;
      const as = how.as(read.names);
      const shown = asTyped(part.typed, words);
      choices.push({
        name: `${with_.name}_${choices.length}`,
        // Fewer words read as the filter keep more of the title: "azure devops engineer" is a DevOps
        // Engineer listing Azure before any engineer listing Azure DevOps.
        tier: with_.tier + (length - 1) / LONGEST_SKILL_NAME / 2,
        clause: allOf([...with_.clauses, valuesClause(how.field, read.keys), ...others.map(clauseOf)]),
        note: [
          ...with_.notes,
          with_.without
            ? `No role title has all of "${part.typed}", so it was read ${with_.without} and with "${shown}" as ${as}.`
            : `No role title has all of "${part.typed}", so ${listInWords([`"${shown}" was read as ${as}`, ...(with_.also ?? [])], 'and')}.`,
        ].join(' '),
      });
    }
  }
  return choices;
}

/**
 * Titles separated by "or" or by a slash with spaces around it: "data engineer or data scientist",
 * "Data Scientist / ML Engineer".
 */
function titleAlternatives(typed: string): string[] {
  const text = typed
    .replace(BRACKETED_OR, unbracketed)
    .replace(BAR_BETWEEN_WORDS, '/')
    .replace(BRACKETED, slashedIfOr);
  // Only the first part of a job-board title names alternatives: in "Lead Frontend Engineer – React /
  // TypeScript" or "Backend Engineer (Python or Go)" the later parts list skills.
  const end = text.search(TITLE_PARTS);
  const pieces = splitAt(end < 0 ? text : text.slice(0, end), / or /i);
  const titles = specialtyShared(
    (pieces.length > 1 ? sharedWords(pieces) : pieces).flatMap(slashedAlternatives),
  );
  if (end >= 0) titles[titles.length - 1] += text.slice(end);
  return titles;
}

/** Whether a word names a role: a role noun, or formed as one. */
const namesARole = (word: string | undefined): boolean =>
  word !== undefined && (ROLE_NOUNS_ALONE.has(word) || NAMES_A_ROLE.test(word));

/**
 * An alternative of one word naming a role, after one ending with another, shares the words before
 * it, as people elide them: "Software Developer / Engineer" is Software Developer or Software
 * Engineer, not every Engineer.
 */
function specialtyShared(titles: readonly string[]): string[] {
  const shared: string[] = [];
  for (const title of titles) {
    const words = analyse(title);
    const before = (shared.at(-1) ?? '').trim().split(/\s+/);
    const elided =
      words.length === 1 &&
      before.length > 1 &&
      namesARole(words[0]) &&
      namesARole(analyse(before.at(-1) as string).at(-1));
    shared.push(elided ? `${before.slice(0, -1).join(' ')} ${title.trim()}` : title);
  }
  return shared;
}

/** How words naming a role end: designer, architect, analyst, scientist, consultant, administrator. */
const NAMES_A_ROLE = /(?:er|or|ist|yst|ant|ect)$/;
/**
 * Words in brackets joined by "or" that start a title, as search engines take them: "(senior OR
 * lead) python". Later in a title, brackets hold a job-board part: "Backend Engineer (Python or Go)".
 */
const BRACKETED_OR = /^\s*\(([^()]+)\)/;
/** A bar between words is a slash ("react|vue developer"); between spaces it parts a job-board title. */
const BAR_BETWEEN_WORDS = /(?<=[\p{L}\p{N}])\|(?=[\p{L}\p{N}])/gu;

/** Words in brackets later in a title: "(Java or Kotlin)". */
const BRACKETED = /\(([^()]+)\)/g;

/** The single words of a bracket's text joined by "or" ("senior OR lead"), or none. */
function wordsJoinedByOr(inside: string): string[] | undefined {
  const words = splitAt(inside, / or /i).map((word) => word.trim());
  return words.length > 1 && words.every((word) => /^\S+$/.test(word)) ? words : undefined;
}

/** Single words in brackets joined by "or" as a slash joins them: "(Java or Kotlin)" is "(Java/Kotlin)". */
function slashedIfOr(bracketed: string, inside: string): string {
  const words = wordsJoinedByOr(inside);
  return words ? `(${words.join('/')})` : bracketed;
}

function unbracketed(bracketed: string, inside: string): string {
  return wordsJoinedByOr(inside) ? inside : bracketed;
}

/**
 * One word before "or" shares the words after the next one, as people elide them: "senior or lead
 * python developer" is Senior/Lead Python Developer, "python or java developer" Python/Java
 * Developer; unless the word is a title of its own: a vocabulary term ("CTO or VP Engineering"),
 * a role noun, or a word formed as one ("designer or UX researcher").
 */
function sharedWords(pieces: readonly string[]): string[] {
  const joined = [...pieces];
  for (let index = joined.length - 2; index >= 0; index--) {
    const [word, ...more] = analyse(joined[index] as string);
    if (word === undefined || more.length > 0 || analyse(joined[index + 1] as string).length < 2) continue;
    const term = TITLE_TERMS.get(word);
    const shares = term
      ? isRankTerm(term)
      : NOT_SPECIALTIES.has(word) || (!namesARole(word) && !STOP_WORDS.has(word));
    if (!shares) continue;
    joined.splice(index, 2, `${(joined[index] as string).trim()}/${(joined[index + 1] as string).trim()}`);
  }
  return joined;
}

function slashedAlternatives(typed: string): string[] {
  const titles: string[] = [];
  for (const piece of typed.split('/')) {
    const last = titles.at(-1);
    if (last !== undefined && !(/\s$/.test(last) && /^\s/.test(piece)))
      titles[titles.length - 1] = `${last}/${piece}`;
    else titles.push(piece);
  }
  return titles;
}

/** A word with "+" after it and no sign or letter beyond ("Staff+", not "C++"): a rank and above. */
const RANK_AND_ABOVE = /(?<![\p{L}\p{N}])(\p{L}{2,12})\+(?![\p{L}\p{N}+#])/gu;

/**
 * Words typed to leave out, as search engines take them: after a dash that starts a word ("senior
 * -lead python") or after NOT in capitals ("java NOT spring"). A dash inside a word ("front-end")
 * or between spaces ("Data Engineer - London") is no exclusion.
 */
const EXCLUDED_WORD =
  /(?:^|\s)(?:-|NOT\s+)([\p{L}\p{N}][\p{L}\p{N}.+#]*)(?:\s+(?!NOT\s)([\p{L}\p{N}][\p{L}\p{N}.+#]*))?/gu;
const MAX_EXCLUDED_WORDS = 4;
/** Brackets left empty once those are taken out: "Hybrid (3 days office)". */
const EMPTY_BRACKETS = / ?\( ?\)| ?\[ ?\]/g;
/** A spaced dash or bar with nothing after it once those are taken out: "DevOps Engineer - contract -". */
const SEPARATOR_LEFT_EMPTY = / [-–—|](?= [-–—|]| ?$)/g;
/**
 * Pay as job boards add it to a title: "£70-85k", "up to €90,000", "$120k", "60-70k", with its
 * period and extras: "£500/day", "£60k pa", "€600 p/d", "£45 per hour", "+ bonus", "DOE".
 */
const SALARY =
  /(?:up to )?(?:[£$€] ?\d{1,3}(?:[.,]\d{3})*k?|\b\d{2,3}(?:k\b|(?=[-–]\d{2,3}k)))(?: ?[-–] ?[£$€]? ?\d{1,3}(?:[.,]\d{3})*k?)?(?: ?(?:\/ ?|per |p\/)(?:day|d|hour|hr|h|annum|year|yr|month)\b| ?(?:pa|pd|ph|p\.a\.)(?!\p{L}))?(?: ?\+ ?(?:bonus|benefits|bens|equity|package|shares))?(?: doe\b)?/giu;
/** Years of experience asked for, as job boards add them to a title: "(5+ years)", "3 yrs experience". */
const YEARS_OF_EXPERIENCE = /(?<!\d)\d{1,2}(?: ?\+)? ?(?:years?|yrs?)(?: of)?(?: (?:experience|exp)\b)?/gi;
/** How long a contract runs and its tax status, as job boards add them to a title. */
const TERMS_OF_A_CONTRACT = /\b\d{1,2}[ -]?(?:months?|mths?|weeks?|wks?)\b|\b(?:inside|outside) ir ?35\b/gi;

/**
 * `title` / `hiring_for_title`: every word (or vocabulary term) must be in the role's title, in any
 * order; titles separated by " / " or "or" are alternatives (`readTitleWords`), without the roles
 * whose title has a word typed to leave out, which every choice of the second reading leaves out
 * too. `field` names the parameter in errors.
 */
export function readTitle(typedWithQuotes: string, field: string): TextReading {
  // A rank and those above it are its alternatives, which the notes then quote: "Staff+ Engineer"
  // is read as "Staff/Principal Engineer".
  const withRanks = typedWithQuotes.replace(
    RANK_AND_ABOVE,
    (whole, rank: string) => RANKS_AND_ABOVE.get(rank.toLowerCase())?.join('/') ?? whole,
  );
  // Quotes, "!" and "?" around the title ("\"python developer\"") are no words of it, nor the
  // length of a contract or its tax status ("- 6 month contract - Outside IR35"), nor years of
  // experience: no title has them.
  const withoutTerms = withRanks
    .replace(TERMS_OF_A_CONTRACT, ' ')
    .replace(YEARS_OF_EXPERIENCE, ' ')
    .replace(SALARY, ' ')
    .replace(DAYS_IN_THE_OFFICE, ' ')
    .replace(/\s+/g, ' ')
    .replace(EMPTY_BRACKETS, '')
    .replace(SEPARATOR_LEFT_EMPTY, '');
  const typed = trimEdges(withoutTerms, (character) => /[\s"“”«»!?]/.test(character));
  const excluded: string[] = [];
  // The word after it, or two that are one word spelt apart ("NOT full stack", "-front end").
  const rest = typed
    .replace(EXCLUDED_WORD, (_, first: string, second: string | undefined) => {
      const both = second !== undefined && analyse(`${first} ${second}`).length === 1;
      excluded.push(both ? `${first} ${second}` : first);
      return both || second === undefined ? ' ' : ` ${second}`;
    })
    .replace(/\s+/g, ' ')
    .trim();
  if (excluded.length === 0) return readTitleWords(typed, field);
  if (excluded.length > MAX_EXCLUDED_WORDS) {
    throw new InvalidArgument(
      field,
      `leaves out ${excluded.length} words; at most ${MAX_EXCLUDED_WORDS} can be left out ("-lead", "NOT manager").`,
    );
  }
  const words = [...new Set(excluded.flatMap((word) => analyse(word)))];
  const notTitled: Query = valuesClause('title_terms', words);
  const without = (clause: Query): Query => ({ bool: { filter: [clause], must_not: [notTitled] } });
  const leftOut = `Left out the roles whose title has ${listInWords(
    excluded.map((word) => `"${word}"`),
    'or',
  )}.`;
  if (rest === '') return { clause: { bool: { must_not: [notTitled] } }, note: leftOut };
  const reading = readTitleWords(rest, field);
  const read = reading.withoutEach;
  const withoutEach =
    read &&
    (() => {
      const words = read();
      return {
        ...words,
        each: words.each.map(({ word, clause, again }) => ({
          word,
          clause: without(clause),
          ...(again ? { again: without(again) } : {}),
        })),
      };
    });
  const second = reading.second && {
    ...reading.second,
    clause: without(reading.second.clause),
    choices: reading.second.choices.map((choice) => ({ ...choice, clause: without(choice.clause) })),
  };
  return {
    clause: without(reading.clause),
    note: [reading.note, leftOut].filter((note) => note !== undefined).join(' '),
    ...(second ? { second } : {}),
    ...(withoutEach ? { withoutEach } : {}),
  };
}

function readTitleWords(typed: string, field: string): TextReading {
  const parts = titleAlternatives(typed)
    .map((text) => ({ text, sequence: sequenceOf(text) }))
    .filter((part) => part.sequence.concepts.length > 0);
  if (parts.length === 0) {
    const words = analyse(typed);
    if (words.length === 0) return { clause: { match_none: {} } };
    // A title of stop words or level numbers only ("The", "II") is searched as typed rather than
    // as no filter at all.
    parts.push({
      text: typed,
      sequence: { concepts: words.map((word) => ({ kind: 'word', word })), ignored: [] },
    });
  }
  const read: TitlePart[] = parts.map((part) => ({
    typed: part.text,
    concepts: withRoleNouns(part.sequence.concepts),
  }));
  const words = read.flatMap((part) => part.concepts).reduce((sum, concept) => sum + wordCount(concept), 0);
  if (words > MAX_TITLE_WORDS) {
    throw new InvalidArgument(
      field,
      `has ${words} words once read; at most ${MAX_TITLE_WORDS} are searched. Keep the main words of the title, e.g. "senior data engineer".`,
    );
  }
  const reading: TextReading = { clause: anyOf(read.map((part) => allOf(part.concepts.map(clauseOf)))) };
  const notes = [
    titleNote(typed, read),
    ignoredNote(
      typed,
      parts.flatMap((part) => part.sequence.ignored),
    ),
  ];
  if (notes.some((note) => note !== undefined))
    reading.note = notes.filter((note) => note !== undefined).join(' ');
  const [only, ...more] = parts;
  if (only && more.length === 0) {
    const withoutEach = eachLeftOut(typed, only.sequence.concepts, field);
    if (withoutEach) reading.withoutEach = withoutEach;
  }
  const seconds = read.map((part, index) => secondReadingOf(part, `title_${index}`));
  const choices = seconds.flatMap((second) => second.choices);
  if (choices.length > 0)
    reading.second = titleSecondReading(
      typed,
      [asReadChoice('title', reading.clause), ...choices],
      seconds.flatMap((second) => second.fuzzable),
    );
  return reading;
}

/**
 * The title with each of its parts left out in turn, each part then read as a whole title is (a
 * job-board title: "Graduate Data Analyst - SQL - Leeds" without "Leeds"), or, for a title of one
 * part, each of its words (a skill's name of two as one), the rest read again ("prompt engineer"
 * without "prompt" is the Engineer titles); built only when nothing is found. None for one word,
 * or more than MAX_WORDS_LEFT_OUT.
 */
function eachLeftOut(
  typed: string,
  concepts: readonly Concept[],
  field: string,
): (() => WordsLeftOut) | undefined {
  // A title of two parts has two words: one word has nothing to leave out.
  if (concepts.length < 2) return undefined;
  return () => {
    const { head, qualifiers } = qualifiersOf(typed);
    const pieces = [head, ...qualifiers.map(({ text }) => text)].filter((piece) => piece !== '');
    if (pieces.length >= 2) {
      if (pieces.length > MAX_WORDS_LEFT_OUT) return { typed, each: [] };
      const each = pieces.map((piece, index) => {
        const rest = readTitle(pieces.filter((_, other) => other !== index).join(' - '), field);
        return { word: piece, clause: rest.clause, ...(rest.second ? { again: rest.second.clause } : {}) };
      });
      return { typed, each };
    }
    const groups = leftOutTogether(concepts);
    if (groups.length < 2 || groups.length > MAX_WORDS_LEFT_OUT) return { typed, each: [] };
    const each = groups.map((group, index) => ({
      word: asTyped(typed, group.map(typedWords).join(' ')),
      clause: allOf(withRoleNouns(groups.filter((_, other) => other !== index).flat()).map(clauseOf)),
    }));
    return { typed, each };
  };
}

/** A title's concepts one by one, but two in a row naming one skill ("Power BI") together. */
function leftOutTogether(concepts: readonly Concept[]): Concept[][] {
  const groups: Concept[][] = [];
  for (let index = 0; index < concepts.length; index++) {
    const pair = concepts.slice(index, index + 2);
    const oneSkill = pair.length === 2 && namesOneSkill(pair.map(typedWords).join(' '));
    groups.push(oneSkill ? pair : pair.slice(0, 1));
    if (oneSkill) index++;
  }
  return groups;
}

/** The analysed words a concept was read from. */
function typedWords(concept: Concept): string {
  return concept.kind === 'word' || concept.kind === 'role' ? concept.word : concept.typed;
}

function titleSecondReading(typed: string, choices: Choice[], fuzzable: readonly string[]): SecondReading {
  const words = [...new Set(fuzzable)];
  return {
    clause: anyOf(choices.map((choice) => choice.clause)),
    subject: 'title',
    typed,
    suggest: words.length > 0 ? { typo_title: suggester('title_terms', words.join(' ')) } : {},
    choices,
  };
}

function titleNote(typed: string, parts: readonly TitlePart[]): string | undefined {
  const expanded = [
    ...new Set(parts.flatMap((part) => part.concepts.flatMap((concept) => expansions(concept, part.typed)))),
  ];
  if (parts.length > 1) {
    const titles = listInWords(
      parts.map((part) => `"${part.typed.trim()}"`),
      'or',
    );
    return `Read the title "${typed}" as ${titles}${expanded.length > 0 ? `, with ${listInWords(expanded, 'and')}` : ''}.`;
  }
  if (expanded.length === 0) return undefined;
  const [only, ...others] = parts[0]?.concepts ?? [];
  if (others.length === 0 && only?.kind === 'term')
    return `Read the title "${typed}" as ${listInWords(only.meaning, 'or')}.`;
  return `Read the title "${typed}" with ${listInWords(expanded, 'and')}.`;
}

function ignoredNote(typed: string, ignored: readonly string[]): string | undefined {
  if (ignored.length === 0) return undefined;
  const words = listInWords(
    [...new Set(ignored)].map((word) => `"${asTyped(typed, word)}"`),
    'and',
  );
  return `Left out ${words} of the title: employers number their levels differently; experience_level chooses roles by level.`;
}
