import { countries as countryList } from 'countries-list';
import type { WorkType } from '../domain/enums.js';
import { foldKey } from '../domain/fold.js';
import { listInWords, trimEdges } from '../domain/words.js';
import {
  countryNameOf,
  isCountryCode,
  placeKey,
  placeName,
  regionByCode,
  resolvePlace,
} from './gazetteer.js';
import data from './regions.json' with { type: 'json' };

/**
 * The places of `regions.json` that are not one city, region or country (continents, groups of
 * countries, metropolitan areas), and the words for a work arrangement typed as a location,
 * compiled once at start. Loading checks every member against the gazetteer and the bound that
 * keeps a location filter one small `terms` clause: at most MAX_REGION_PLACES members.
 */

export const MAX_REGION_PLACES = 150;

export interface NamedRegion {
  /** The `location.keys` of its members: a role in any of them is in the region. */
  keys: readonly string[];
  /** How a note names it: "the countries of Europe", "Germany, Austria or Switzerland". */
  says: string;
  /** The countries its members lie in, by ISO code: what may qualify its name ("Surrey, UK"). */
  countries: ReadonlySet<string>;
}

interface RegionEntry {
  typed: string[];
  continents?: string[];
  countries?: string[];
  regions?: string[];
  cities?: string[];
  except?: string[];
  says?: string;
}

function fail(message: string): never {
  throw new Error(`src/reference/regions.json: ${message}`);
}

/** Folded, without punctuation, spaces or "and": "UK & I", "UK and I" and "UKI" meet. */
function regionKey(text: string): string {
  return foldKey(text.replace(/&/g, ' and '))
    .replace(/\band\b/g, ' ')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

function compile(entry: RegionEntry): NamedRegion {
  const except = new Set(entry.except ?? []);
  const countries = [
    ...(entry.continents ?? []).flatMap((continent) =>
      Object.entries(countryList).flatMap(([code, country]) =>
        country.continent === continent ? [code] : [],
      ),
    ),
    ...(entry.countries ?? []),
  ].filter((code) => !except.has(code));
  for (const code of countries) if (!isCountryCode(code)) fail(`"${code}" is not a country code`);
  const members = [
    ...[...new Set(countries)].map((countryCode) => ({
      kind: 'country' as const,
      countryCode,
      countryName: countryNameOf(countryCode),
    })),
    ...(entry.regions ?? []).map((code) => regionByCode(code) ?? fail(`no region ${code}`)),
    ...(entry.cities ?? []).map((name) => {
      const place = resolvePlace(name);
      return place?.kind === 'city' ? place : fail(`"${name}" is not a city`);
    }),
  ];
  if (members.length === 0 || members.length > MAX_REGION_PLACES)
    fail(`"${entry.typed[0]}" has ${members.length} places; 1 to ${MAX_REGION_PLACES} are allowed`);
  return {
    keys: members.map(placeKey),
    says: entry.says ?? listInWords(members.map(placeName), 'or'),
    countries: new Set(
      members.map((member) => (member.kind === 'city' ? member.city.countryCode : member.countryCode)),
    ),
  };
}

const regions = new Map<string, NamedRegion>();
for (const entry of data.regions as RegionEntry[]) {
  const region = compile(entry);
  for (const form of entry.typed) {
    const key = regionKey(form);
    if (key === '' || regions.has(key)) fail(`"${form}" is empty or listed twice`);
    regions.set(key, region);
  }
}

/**
 * The region `text` names ("DACH", "Bay Area", "Europe"), also qualified by a country or region
 * that holds it ("Surrey, UK", "Bay Area, CA", "Yorkshire, England"), or undefined.
 */
export function regionNamed(text: string): NamedRegion | undefined {
  const region = regions.get(regionKey(text));
  if (region) return region;
  const comma = text.indexOf(',');
  if (comma < 0) return undefined;
  const qualified = regions.get(regionKey(text.slice(0, comma)));
  return qualified && holds(text.slice(comma + 1), qualified) ? qualified : undefined;
}

/** Whether `qualifier` names a country or region of one of `region`'s countries ("CA" as California). */
function holds(qualifier: string, region: NamedRegion): boolean {
  const inRegion = (place: ReturnType<typeof resolvePlace>, code?: string) =>
    (place?.kind === 'country' || place?.kind === 'region') &&
    region.countries.has(place.countryCode) &&
    (code === undefined || place.countryCode === code);
  return (
    inRegion(resolvePlace(qualifier)) ||
    [...region.countries].some((code) => inRegion(resolvePlace(`${qualifier}, ${code}`), code))
  );
}

/** Words as the location reading compares them: folded, split at anything but letters, digits and "%". */
function wordsOf(text: string): Array<{ word: string; start: number; end: number }> {
  return [...foldKey(text).matchAll(/[\p{L}\p{N}%]+/gu)].map((match) => ({
    word: match[0],
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** Each arrangement's words and work type, longest first, so that "fully remote" is taken whole. */
const ARRANGEMENTS = (['Remote', 'Hybrid', 'On-site'] as const)
  .flatMap((workType) =>
    data.work_arrangements[workType].map((words) => ({
      workType,
      words: wordsOf(words).map((token) => token.word),
    })),
  )
  .sort((a, b) => b.words.length - a.words.length);

/** Words that join a work arrangement to its place: "Remote in Germany", "UK only", "based in Berlin". */
const JOINING_WORDS = new Set(['in', 'from', 'within', 'based', 'only', 'across']);
/** What separates the parts of location text: brackets, slashes, bars, commas, a spaced dash. */
const SEPARATORS = /[()[\]|/;:,]|\s[-–—]\s/;

/**
 * The work types named in location text ("Remote UK", "Berlin (Hybrid)"), and the rest of the
 * text once they, brackets, separators and joining words are taken out, its parts joined by
 * commas ("london, uk"; empty for "remote"); undefined when it names no work arrangement.
 */
export function workArrangementIn(text: string): { workTypes: WorkType[]; rest: string } | undefined {
  const folded = foldKey(text);
  const tokens = wordsOf(text);
  const found = new Set<WorkType>();
  const dropped: Array<{ start: number; end: number }> = [];
  for (let index = 0; index < tokens.length; index++) {
    const arrangement = ARRANGEMENTS.find((candidate) =>
      candidate.words.every((word, offset) => tokens[index + offset]?.word === word),
    );
    if (arrangement) {
      found.add(arrangement.workType);
      const last = tokens[index + arrangement.words.length - 1] as { end: number };
      dropped.push({ start: (tokens[index] as { start: number }).start, end: last.end });
      index += arrangement.words.length - 1;
    } else if (JOINING_WORDS.has((tokens[index] as { word: string }).word)) {
      dropped.push(tokens[index] as { start: number; end: number });
    }
  }
  if (found.size === 0) return undefined;
  let rest = '';
  let from = 0;
  for (const { start, end } of dropped) {
    rest += `${folded.slice(from, start)},`;
    from = end;
  }
  rest += folded.slice(from);
  const parts = rest
    .split(SEPARATORS)
    .map((part) => trimEdges(part, (character) => /[\s-]/.test(character)))
    .filter((part) => part !== '');
  return { workTypes: [...found], rest: parts.join(', ') };
}
