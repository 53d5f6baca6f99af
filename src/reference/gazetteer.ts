import type { LocationDoc } from '../domain/documents.js';
import { foldKey } from '../domain/fold.js';
import gazetteer from './gazetteer.json' with { type: 'json' };

/**
 * The places the data set uses and the names people type for them. The seed builds each
 * lead's `location.keys` from here and the search code resolves a `location` filter with
 * the same functions, so a filter key and an indexed key can never drift apart.
 */

export interface City {
  name: string;
  aliases: string[];
  region: string;
  countryCode: string;
  countryName: string;
  lat: number;
  lon: number;
  /** Relative share of the generated leads placed in this city. */
  weight: number;
}

export interface Country {
  code: string;
  name: string;
  aliases: string[];
}

export interface Region {
  name: string;
  countryCode: string;
  aliases: string[];
}

export type ResolvedPlace =
  | { kind: 'city'; city: City }
  | { kind: 'region'; region: string; countryCode: string }
  | { kind: 'country'; countryCode: string; countryName: string };

export const COUNTRIES: readonly Country[] = gazetteer.countries;

const countryByCode = new Map(COUNTRIES.map((country) => [country.code, country]));

function countryOf(code: string): Country {
  const country = countryByCode.get(code);
  if (!country) throw new Error(`gazetteer.json: unknown country code ${code}`);
  return country;
}

export const REGIONS: readonly Region[] = gazetteer.regions.map((region) => ({
  name: region.name,
  countryCode: countryOf(region.country_code).code,
  aliases: region.aliases,
}));

export const CITIES: readonly City[] = gazetteer.cities.map((city) => ({
  name: city.name,
  aliases: city.aliases,
  region: city.region,
  countryCode: city.country_code,
  countryName: countryOf(city.country_code).name,
  lat: city.lat,
  lon: city.lon,
  weight: city.weight,
}));

/**
 * Every typed name, folded, to the place it means. Cities are entered last so that a name
 * shared by a city and its one-city region (Berlin, Vienna, Zurich) resolves to the city,
 * which is what a radius search needs.
 */
const placesByName = new Map<string, ResolvedPlace>();

/** Dots are dropped so that "U.K." and "UK", "U.S.A." and "USA" meet. */
function nameKey(text: string): string {
  return foldKey(text).replace(/\./g, '');
}

function addNames(names: string[], place: ResolvedPlace): void {
  for (const name of names) placesByName.set(nameKey(name), place);
}

for (const country of COUNTRIES) {
  addNames([country.code, country.name, ...country.aliases], {
    kind: 'country',
    countryCode: country.code,
    countryName: country.name,
  });
}
for (const region of REGIONS) {
  addNames([region.name, ...region.aliases], {
    kind: 'region',
    region: region.name,
    countryCode: region.countryCode,
  });
}
for (const city of CITIES) addNames([city.name, ...city.aliases], { kind: 'city', city });

function lookUp(text: string): ResolvedPlace | undefined {
  return placesByName.get(nameKey(text));
}

function countryCodeOf(place: ResolvedPlace): string {
  if (place.kind === 'city') return place.city.countryCode;
  return place.countryCode;
}

function regionOf(place: ResolvedPlace): string | undefined {
  if (place.kind === 'city') return place.city.region;
  if (place.kind === 'region') return place.region;
  return undefined;
}

/** Whether `outer` (a region or country) contains `inner`. */
function contains(outer: ResolvedPlace, inner: ResolvedPlace): boolean {
  if (outer.kind === 'country') return countryCodeOf(inner) === outer.countryCode;
  if (outer.kind === 'region')
    return regionOf(inner) === outer.region && countryCodeOf(inner) === outer.countryCode;
  return false;
}

/**
 * Resolves what a user typed as a location: a city, region or country name, an alias
 * ("UK", "München", "Bayern") or an ISO code, ignoring case and accents. "Munich, Germany"
 * style text resolves to its first part when the later parts contain it.
 */
export function resolvePlace(text: string): ResolvedPlace | undefined {
  const whole = lookUp(text);
  if (whole) return whole;
  const [first, ...qualifiers] = text.split(',').map((part) => part.trim());
  if (!first || qualifiers.length === 0) return undefined;
  const place = lookUp(first);
  if (!place) return undefined;
  for (const qualifier of qualifiers) {
    const outer = lookUp(qualifier);
    if (!outer || !contains(outer, place)) return undefined;
  }
  return place;
}

/** The key in `LocationDoc.keys` shared by every document in `place`. */
export function placeKey(place: ResolvedPlace): string {
  switch (place.kind) {
    case 'city':
      return foldKey(place.city.name);
    case 'region':
      return foldKey(place.region);
    case 'country':
      return foldKey(place.countryCode);
  }
}

/** "Munich, Bavaria, Germany"; a city that is its own region is named once ("Berlin, Germany"). */
function cityDisplay(city: City): string {
  return city.region === city.name
    ? `${city.name}, ${city.countryName}`
    : `${city.name}, ${city.region}, ${city.countryName}`;
}

/** "Munich, Germany": the short form used for company offices and `other_locations`. */
export function cityShortDisplay(city: City): string {
  return `${city.name}, ${city.countryName}`;
}

/** The indexed location of a document placed in `city`. */
export function locationDoc(city: City): LocationDoc {
  const keys = new Set([
    placeKey({ kind: 'city', city }),
    placeKey({ kind: 'region', region: city.region, countryCode: city.countryCode }),
    foldKey(city.countryName),
    placeKey({ kind: 'country', countryCode: city.countryCode, countryName: city.countryName }),
  ]);
  return {
    display: cityDisplay(city),
    city: city.name,
    region: city.region,
    country_code: city.countryCode,
    country_name: city.countryName,
    keys: [...keys],
    geo: { lat: city.lat, lon: city.lon },
  };
}

const EARTH_RADIUS_KM = 6371;

/** Great-circle distance in kilometres (haversine), as Elasticsearch's `geo_distance` measures it. */
export function distanceKm(from: { lat: number; lon: number }, to: { lat: number; lon: number }): number {
  const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
  const deltaLat = toRadians(to.lat - from.lat);
  const deltaLon = toRadians(to.lon - from.lon);
  const a =
    Math.sin(deltaLat / 2) ** 2 +
    Math.cos(toRadians(from.lat)) * Math.cos(toRadians(to.lat)) * Math.sin(deltaLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(a));
}
