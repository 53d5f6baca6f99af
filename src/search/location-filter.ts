import { RADIUS_KM, type WorkType } from '../domain/enums.js';
import { listInWords, splitAt } from '../domain/words.js';
import {
  type City,
  closestPlace,
  placeKey,
  placeName,
  type ResolvedPlace,
  resolvePlace,
} from '../reference/gazetteer.js';
import { MAX_REGION_PLACES, regionNamed, workArrangementIn } from '../reference/regions.js';
import { type Query, valuesClause } from './es.js';

/**
 * How a typed place is read (docs/search-semantics.md, "Places"): a region of several places
 * ("DACH", "Europe", "Bay Area"), else one city, region or country of the gazetteer, else words
 * for a work arrangement with or without a place ("remote", "Remote UK"), else, when asked, the
 * place of the closest spelling; a place named with words of its vicinity ("near Munich", "London
 * area"); several places named together ("London or Manchester"). Every reading is decided in the
 * process, before any request, and is one `terms` clause on `location.keys` of at most
 * MAX_REGION_PLACES keys, and one on `work_type`.
 */

export interface LocationReading {
  /** The `location.keys`, any of which a role is in; none when only a work arrangement was named. */
  keys: string[];
  workTypes: WorkType[];
  /** The place, when it is one city, region or country of the gazetteer (a radius needs a city). */
  place?: ResolvedPlace;
  /** What it was read as: "London, United Kingdom", "Germany, Austria or Switzerland", "work_type Remote". */
  says: string;
  /** How the place was read, when not as typed. */
  note?: string;
  /** Named as an alternative ("Dublin or remote"): roles of these work types anywhere also match. */
  orAnywhere?: WorkType[];
  /** A distance typed with a city ("within 30 km of Berlin"): the radius around it. */
  radiusKm?: number;
}

type PlaceOnly = Omit<LocationReading, 'workTypes'>;

/** At most this many places named together ("London or Manchester"). */
const MAX_PLACES_NAMED = 5;
/**
 * Words around a place's name that say "thereabouts" or "there": "near Munich", "London area",
 * "Greater Munich", "based in Berlin", "anywhere in the UK", "UK-based", "UK-wide", "DACH region",
 * "London commutable", "commutable to Leeds", and the same in German and Polish: "Raum München",
 * "Großraum Berlin", "Stuttgart und Umgebung", "okolice Krakowa".
 */
const VICINITY_BEFORE =
  /^(?:near|around|close to|nearby|greater|based in|anywhere in|in|across|throughout|all over|commutable to|within commuting distance of|raum|großraum|grossraum|region|metropolregion|okolice)(?: the)? /i;
const VICINITY_AFTER =
  /(?: (?:area|region|metro area|metropolitan area|metropolitan region|metro region|commutable|and surroundings|and surrounding areas?|und umgebung|i okolice)|[\s-](?:based|wide))$/i;
/** Words that say the middle of a city, of a city only: "central London", "Leeds city centre", not "Central Asia". */
const CITY_CENTRE = /^central |(?: city)? cent(?:re|er)$/i;

/** What parts places named together: "London or Manchester", "Berlin, Munich", "Leeds/York". */
export const PLACES_APART = / or | and |[,;/&]/i;

/** One place, or several named together; undefined when a part names none. */
function placesIn(text: string, closeSpellings: boolean): PlaceOnly | undefined {
  const whole = placeNear(text, closeSpellings);
  if (whole) return whole;
  const pieces = splitAt(text, PLACES_APART)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');
  if (pieces.length < 2 || pieces.length > MAX_PLACES_NAMED) return undefined;
  const read: PlaceOnly[] = [];
  for (const piece of pieces) {
    const place = placeNear(piece, closeSpellings);
    if (!place) return undefined;
    read.push(place);
  }
  const keys = [...new Set(read.flatMap((place) => place.keys))];
  if (keys.length > MAX_REGION_PLACES) return undefined;
  const says = listInWords(
    read.map((place) => place.says),
    'or',
  );
  return { keys, says, note: `Read the location "${text}" as ${says}.` };
}

/**
 * A place, or a place named with words of its vicinity ("near Munich", "London Area, United
 * Kingdom" as networking sites write it) or with its postcode ("10115 Berlin"), read as the
 * place: the words go from the name before its qualifiers.
 */
function placeNear(text: string, closeSpellings: boolean): PlaceOnly | undefined {
  const place = placeIn(text, closeSpellings);
  if (place) return place;
  const [name = '', ...qualifiers] = text.trim().replace(/\s+/g, ' ').split(',');
  // Postcodes beside the name ("10115 Berlin", "London EC2A") are the words with digits.
  const centre = CITY_CENTRE.test(name);
  const bareName = name
    .replace(CITY_CENTRE, '')
    .replace(VICINITY_BEFORE, '')
    .replace(VICINITY_AFTER, '')
    .split(' ')
    .filter((word) => !/\d/.test(word))
    .join(' ');
  const bare = [bareName, ...qualifiers].join(',');
  if (bare === text.trim() || bareName.trim() === '') return undefined;
  const near = placeIn(bare, closeSpellings);
  if (centre && near?.place?.kind !== 'city') return undefined;
  return near && { ...near, note: `Read the location "${text}" as ${near.says}.` };
}

function placeIn(text: string, closeSpellings: boolean): PlaceOnly | undefined {
  const region = regionNamed(text);
  if (region)
    return {
      keys: [...region.keys],
      says: region.says,
      note: `Read the location "${text}" as ${region.says}.`,
    };
  const place = resolvePlace(text) ?? qualifiedWithoutComma(text);
  if (place) return { keys: [placeKey(place)], place, says: placeName(place) };
  const close = closeSpellings ? (closestPlace(text) ?? closestQualified(text)) : undefined;
  if (!close) return undefined;
  return {
    keys: [placeKey(close)],
    place: close,
    says: placeName(close),
    note: `No place is called "${text}", so it was read as ${placeName(close)}.`,
  };
}

/** The most words a place's qualifier without a comma is taken from: "Berlin Germany", "Cambridge United Kingdom". */
const LONGEST_QUALIFIER = 2;

/**
 * A place qualified by its country or region without a comma, as people type it: "Zurich
 * Switzerland" is "Zurich, Switzerland". The last words qualify the rest only when the place they
 * name holds it, so "London Manchester" is no place.
 */
function qualifiedWithoutComma(text: string): ResolvedPlace | undefined {
  if (text.includes(',')) return undefined;
  for (const [name, qualifier] of nameAndQualifier(text)) {
    const qualified = resolvePlace(`${name}, ${qualifier}`);
    if (qualified) return qualified;
  }
  return undefined;
}

/**
 * A misspelt city qualified by a place that holds it, with or without a comma: "Manchster, UK" is
 * Manchester, not Manchester or anywhere in the United Kingdom.
 */
function closestQualified(text: string): ResolvedPlace | undefined {
  for (const [name, qualifier] of nameAndQualifier(text)) {
    if (!resolvePlace(qualifier)) continue;
    const close = closestPlace(name);
    if (close?.kind !== 'city') continue;
    const within = resolvePlace(`${close.city.name}, ${qualifier}`);
    if (within?.kind === 'city' && within.city.id === close.city.id) return within;
  }
  return undefined;
}

/** The ways `text` may be a name and its qualifier: at its first comma, else before its last one or two words. */
function nameAndQualifier(text: string): Array<[name: string, qualifier: string]> {
  const comma = text.indexOf(',');
  if (comma > 0) return [[text.slice(0, comma).trim(), text.slice(comma + 1).trim()]];
  const words = text.trim().split(/\s+/);
  const splits: Array<[string, string]> = [];
  for (let length = Math.min(LONGEST_QUALIFIER, words.length - 1); length >= 1; length--)
    splits.push([words.slice(0, -length).join(' '), words.slice(-length).join(' ')]);
  return splits;
}

/**
 * The reading of `text` as a place, or undefined when it names none. `closeSpellings` reads a name
 * the gazetteer does not know as the closest known one (the `location` filter); a title's words are
 * read without it.
 */
export function readLocation(typed: string, closeSpellings: boolean): LocationReading | undefined {
  // The days in the office a hybrid role asks for are no place: "London (hybrid, 2 days)".
  const withoutDays = typed.replace(DAYS_IN_THE_OFFICE, ' ');
  const text =
    withoutDays === typed
      ? typed
      : withoutDays
          .replace(/\s+/g, ' ')
          .replace(/ ?[,;]? ?(?=\))/g, '')
          .trim();
  return (
    withinDistance(text, closeSpellings) ??
    placeOrAnywhere(text, closeSpellings) ??
    placeAndArrangement(text, closeSpellings)
  );
}

/**
 * How many days a week are spent in the office: "(3 days office)", "2 days a week in the office",
 * "hybrid 2-3 days", "3 days/week onsite".
 */
export const DAYS_IN_THE_OFFICE =
  /\b\d(?: ?[-–] ?\d)? ?days?(?: (?:a|per) week| ?\/ ?week)?(?: (?:in |on |at )?(?:the )?(?:office|site|onsite))?\b/gi;

/** A distance in kilometres or miles: "30km", "30 km", "20 miles". */
const DISTANCE = /(\d{1,3})\s?(km|kms|kilometers|kilometres|mi|miles)\b/i;
/** Words and signs that join a distance to its city: "within 30 km of Berlin", "Berlin (+50km)". */
const DISTANCE_WORDS = /\b(?:within|of|from|around|radius)\b|[+()]/gi;
const KM_PER_MILE = 1.609;

/**
 * A city with a distance typed around it ("within 30 km of Berlin", "20 miles from Manchester",
 * "Berlin +50km"): the radius, as `radius_km` would give it (which wins when both are given),
 * brought within its bounds with a note. Only with one city.
 */
function withinDistance(text: string, closeSpellings: boolean): LocationReading | undefined {
  const match = DISTANCE.exec(text);
  if (!match) return undefined;
  const miles = /^mi/i.test(match[2] as string);
  const typedKm = Math.round(Number(match[1]) * (miles ? KM_PER_MILE : 1));
  const km = Math.min(Math.max(typedKm, RADIUS_KM.min), RADIUS_KM.max);
  const rest = `${text.slice(0, match.index)} ${text.slice(match.index + match[0].length)}`
    .replace(DISTANCE_WORDS, ' ')
    .replace(/[\s,]+/g, ' ')
    .trim();
  const place = placeAndArrangement(rest, closeSpellings);
  if (place?.place?.kind !== 'city' || place.keys.length !== 1) return undefined;
  const says = `within ${km} km of ${place.says}`;
  const bound = km === typedKm ? '' : ` (a radius is ${RADIUS_KM.min} to ${RADIUS_KM.max} km)`;
  return { ...place, radiusKm: km, says, note: `Read the location "${text}" as ${says}${bound}.` };
}

/**
 * A place with " or " a work arrangement alone ("Dublin or remote", "Berlin, Munich or remote",
 * "London (hybrid) or remote"): the place as read, or roles of that arrangement anywhere.
 */
function placeOrAnywhere(text: string, closeSpellings: boolean): LocationReading | undefined {
  const pieces = splitAt(text, / or /i).map((piece) => piece.trim());
  const anywhere = pieces.filter((piece) => workArrangementIn(piece)?.rest === '');
  const places = pieces.filter((piece) => !anywhere.includes(piece));
  if (anywhere.length === 0 || places.length === 0) return undefined;
  const place = placeAndArrangement(places.join(' or '), closeSpellings);
  if (!place) return undefined;
  const orAnywhere = [...new Set(anywhere.flatMap((piece) => workArrangementIn(piece)?.workTypes ?? []))];
  const says = `${place.says}, or work_type ${listInWords(orAnywhere, 'or')} in any place`;
  return { ...place, orAnywhere, says, note: `Read the location "${text}" as ${says}.` };
}

function placeAndArrangement(text: string, closeSpellings: boolean): LocationReading | undefined {
  const place = placesIn(text, closeSpellings);
  if (place) return { ...place, workTypes: [] };
  const arrangement = workArrangementIn(text);
  if (!arrangement) return undefined;
  const workTypes = `work_type ${listInWords(arrangement.workTypes, 'or')}`;
  if (arrangement.rest === '') {
    return {
      keys: [],
      workTypes: arrangement.workTypes,
      says: workTypes,
      note: `Read the location "${text}" as ${workTypes}, in any place.`,
    };
  }
  const rest = placesIn(arrangement.rest, closeSpellings);
  if (!rest) return undefined;
  const says = `${rest.says}, with ${workTypes}`;
  return {
    keys: rest.keys,
    workTypes: arrangement.workTypes,
    ...(rest.place ? { place: rest.place } : {}),
    says,
    note: `Read the location "${text}" as ${says}.`,
  };
}

/**
 * The clauses of a reading: in one of its places (or within `near`, a radius around its city), of
 * one of its work types; or, when it names one, of a work arrangement anywhere.
 */
export function locationClauses(reading: LocationReading, near?: Query): Query[] {
  const clauses: Query[] = [];
  if (near) clauses.push(near);
  else if (reading.keys.length > 0) clauses.push(valuesClause('location.keys', reading.keys));
  if (reading.workTypes.length > 0) clauses.push(valuesClause('work_type', reading.workTypes));
  if (!reading.orAnywhere) return clauses;
  const here: Query = clauses.length === 1 ? (clauses[0] as Query) : { bool: { filter: clauses } };
  return [
    { bool: { should: [here, valuesClause('work_type', reading.orAnywhere)], minimum_should_match: 1 } },
  ];
}

/** The city of a reading, when it names exactly one. */
export function cityOf(reading: LocationReading): City | undefined {
  return reading.place?.kind === 'city' && reading.keys.length === 1 ? reading.place.city : undefined;
}
