import type { estypes } from '@elastic/elasticsearch';
import { daysBefore, isoDate } from '../domain/calendar.js';
import { InvalidArgument } from '../errors.js';
import type { LeadFilters, SearchLeadsArgs } from '../schemas/inputs.js';
import type { PagePosition } from './cursor.js';
import type { Query, SearchBody } from './es.js';
import { type FallbackSearch, fallbackSearch } from './fallback.js';
import { type NothingFound, nothingFound, type ReadClauses, type WordsLeftOut } from './left-out.js';
import { cityOf, locationClauses, readLocation } from './location-filter.js';
import { readIndustry, readSkills, type SecondReading, type TextReading } from './text-filters.js';
import { readTitle } from './title-reading.js';

/**
 * Pure builders for queries on the leads index (docs/search-semantics.md, "Matching"). Each clause
 * builder covers one filter so `search_leads`, `get_market_insights` and `search_companies` share
 * the exact same semantics.
 */

/** Filter clauses plus what the caller should tell the assistant about them. */
export interface FilterClauses {
  filter: Query[];
  notes: string[];
  /** The location was not recognised: the query matches nothing and the caller may skip it. */
  unknownPlace: boolean;
  /**
   * The second reading (`src/search/fallback.ts`): the same filters with the text filters read
   * again (words taken as typed made fuzzy, a title's other readings), and those readings.
   */
  second: { filter: Query[]; readings: SecondReading[] };
  /**
   * The clauses of each argument given, as first and as second read, by its name as the caller
   * sent it: what leaving one out finds is counted from them when nothing is found
   * (src/search/left-out.ts).
   */
  byArgument: Map<string, ReadClauses>;
  /** Said only when nothing is found: how a location read without a note was read ("Richmond"). */
  nothingFoundNotes: string[];
  /** The title's words left out in turn, counted when nothing is found. */
  titleWords?: { argument: string; words: () => WordsLeftOut };
}

export const OPEN_ROLES: Query = { term: { is_open: true } };
const NOT_AN_AGENCY: Query = { term: { 'company.is_agency': false } };

/** Posted on or after today (UTC) minus `days` days. */
export function sinceDaysAgoClause(field: string, days: number, now: Date): Query {
  return { range: { [field]: { gte: isoDate(daysBefore(now, days)), format: 'yyyy-MM-dd' } } };
}

/**
 * A location filter, read by `readLocation` (docs/search-semantics.md, "Places"). `field` names
 * the parameter in errors (`location` or `filters.location`). With a radius the place must be a
 * city: a region, country or area has no single centre to measure from, so that is an error on the
 * location; a place that is not recognised at all is not an error but an empty result with a note,
 * as without a radius.
 */
function placeClauses(
  location: string,
  radiusKm: number | undefined,
  fieldPrefix: string,
): Pick<FilterClauses, 'filter' | 'notes' | 'unknownPlace' | 'nothingFoundNotes'> {
  const reading = readLocation(location, true);
  if (!reading) {
    return {
      filter: [{ match_none: {} }],
      notes: [
        `The location "${location}" was not recognised, so no roles match. Use a city, region or country name or an ISO country code, a group of countries or "remote", e.g. "Berlin", "Bavaria", "Germany", "DE", "DACH" or "Remote UK".`,
      ],
      unknownPlace: true,
      nothingFoundNotes: [],
    };
  }
  const notes = reading.note ? [reading.note] : [];
  // A plain name may be another place than meant ("Richmond" is the one in Virginia, not London's): said
  // when it finds nothing.
  const read = {
    notes,
    unknownPlace: false,
    nothingFoundNotes: reading.note ? [] : [`Read the location "${location}" as ${reading.says}.`],
  };
  const radius = radiusKm ?? reading.radiusKm;
  if (radius === undefined) return { filter: locationClauses(reading), ...read };
  const city = cityOf(reading);
  if (!city) {
    const what = reading.place ? `a ${reading.place.kind}` : 'not one city';
    throw new InvalidArgument(
      `${fieldPrefix}location`,
      `"${location}" is ${what}, but radius_km measures from a city. Name a city in location, or leave radius_km out to search the whole ${reading.place?.kind ?? 'area'}.`,
    );
  }
  const geo: Query = {
    geo_distance: { distance: `${radius}km`, 'location.geo': { lat: city.lat, lon: city.lon } },
  };
  return { filter: locationClauses(reading, geo), ...read };
}

/** Adds a clause to both readings, under the `argument` it filters by unless it is always there. */
export function addClause(
  clauses: FilterClauses,
  clause: Query,
  { argument, second = clause }: { argument?: string; second?: Query } = {},
): void {
  clauses.filter.push(clause);
  clauses.second.filter.push(second);
  if (argument === undefined) return;
  const read = clauses.byArgument.get(argument) ?? { first: [], second: [] };
  clauses.byArgument.set(argument, { first: [...read.first, clause], second: [...read.second, second] });
}

/** Adds a text filter: its clause, its second reading and its note. */
export function addReading(clauses: FilterClauses, reading: TextReading, argument: string): void {
  addClause(clauses, reading.clause, {
    argument,
    ...(reading.second ? { second: reading.second.clause } : {}),
  });
  if (reading.note) clauses.notes.push(reading.note);
  if (reading.second) clauses.second.readings.push(reading.second);
  if (reading.withoutEach) clauses.titleWords = { argument, words: reading.withoutEach };
}

/**
 * The filters shared by `search_leads` and `get_market_insights.filters`: open roles only,
 * agencies left out unless asked for. `fieldPrefix` is prepended to field names in errors, and
 * `titleField` names the title filter there (`hiring_for_title` in search_companies).
 */
export function buildLeadFilter(
  filters: LeadFilters,
  now: Date,
  fieldPrefix = '',
  titleField = 'title',
): FilterClauses {
  if (filters.radius_km !== undefined && filters.location === undefined) {
    throw new InvalidArgument(
      `${fieldPrefix}radius_km`,
      'radius_km needs location naming the city to measure from. Add location, or leave radius_km out.',
    );
  }
  const clauses: FilterClauses = {
    filter: [OPEN_ROLES],
    notes: [],
    unknownPlace: false,
    second: { filter: [OPEN_ROLES], readings: [] },
    byArgument: new Map(),
    nothingFoundNotes: [],
  };
  const by = (name: string) => ({ argument: `${fieldPrefix}${name}` });
  if (filters.location !== undefined) {
    const place = placeClauses(filters.location, filters.radius_km, fieldPrefix);
    for (const clause of place.filter) addClause(clauses, clause, by('location'));
    clauses.notes.push(...place.notes);
    clauses.nothingFoundNotes.push(...place.nothingFoundNotes);
    clauses.unknownPlace = place.unknownPlace;
  }
  if (filters.title !== undefined) {
    const argument = `${fieldPrefix}${titleField}`;
    addReading(clauses, readTitle(filters.title, argument), argument);
  }
  if (filters.skills?.length) addReading(clauses, readSkills(filters.skills), by('skills').argument);
  const term = (field: string, value: string) => ({ term: { [field]: value } });
  if (filters.experience_level)
    addClause(clauses, term('experience_level', filters.experience_level), by('experience_level'));
  if (filters.work_type) addClause(clauses, term('work_type', filters.work_type), by('work_type'));
  if (filters.employment_type)
    addClause(clauses, term('employment_type', filters.employment_type), by('employment_type'));
  if (filters.industry !== undefined)
    addReading(clauses, readIndustry(filters.industry), by('industry').argument);
  if (filters.company_id) addClause(clauses, term('company.id', filters.company_id), by('company_id'));
  if (filters.company_size)
    addClause(clauses, term('company.size_band', filters.company_size), by('company_size'));
  if (filters.posted_within_days !== undefined) {
    const since = sinceDaysAgoClause('posted_date', filters.posted_within_days, now);
    addClause(clauses, since, by('posted_within_days'));
  }
  if (!filters.include_recruitment_agencies) addClause(clauses, NOT_AN_AGENCY);
  return clauses;
}

/**
 * Annual salary overlap on the pre-converted fields: the role's max reaches the lower
 * bound and its min is within the upper bound. A role without a salary has neither field,
 * so any bound leaves it out.
 */
function addSalaryClauses(clauses: FilterClauses, args: SearchLeadsArgs): void {
  const prefix = `salary_annual.${args.salary_currency.toLowerCase()}`;
  if (args.min_annual_salary !== undefined) {
    const reaching = { range: { [`${prefix}_max`]: { gte: args.min_annual_salary } } };
    addClause(clauses, reaching, { argument: 'min_annual_salary' });
  }
  if (args.max_annual_salary !== undefined) {
    const within = { range: { [`${prefix}_min`]: { lte: args.max_annual_salary } } };
    addClause(clauses, within, { argument: 'max_annual_salary' });
  }
}

/** The `_source` fields a lead card is built from (see `LeadCardSource`). */
export const LEAD_CARD_FIELDS = [
  'id',
  'title',
  'location.display',
  'posted_date',
  'company.id',
  'company.name',
  'company.logo_url',
  'work_type',
  'employment_type',
  'experience_level',
  'salary',
  'estimated_fee',
  'skills',
];

/** Newest first; `seq` is unique, so equal dates never make pages overlap or skip. */
export const NEWEST_LEADS_FIRST: estypes.SortCombinations[] = [{ posted_date: 'desc' }, { seq: 'desc' }];

export interface LeadSearch {
  body: SearchBody;
  notes: string[];
  unknownPlace: boolean;
  /** Run only when `body` finds nothing (`searchWithFallback`). */
  fallback: FallbackSearch | undefined;
  /** Run only when neither reading finds anything. */
  nothingFound: NothingFound | undefined;
}

/** One page of `search_leads`: exact total, newest first, continuing after `position`. */
export function buildLeadSearch(
  args: SearchLeadsArgs,
  position: PagePosition,
  size: number,
  now: Date,
): LeadSearch {
  const clauses = buildLeadFilter(args, now);
  addSalaryClauses(clauses, args);
  const bodyOf = (filter: Query[]): SearchBody => ({
    query: { bool: { filter } },
    sort: NEWEST_LEADS_FIRST,
    size,
    track_total_hits: true,
    _source: { includes: LEAD_CARD_FIELDS },
    ...(position.searchAfter ? { search_after: position.searchAfter } : {}),
  });
  return {
    body: bodyOf(clauses.filter),
    notes: clauses.notes,
    unknownPlace: clauses.unknownPlace,
    fallback: fallbackSearch(clauses, bodyOf),
    nothingFound: nothingFound(clauses, 'open role'),
  };
}
