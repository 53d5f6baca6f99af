import { describe, expect, it } from 'vitest';
import { COUNTRY_NAMES, SIGNAL_COUNTRIES } from '../../src/domain/enums.js';
import {
  CITIES,
  type City,
  COUNTRIES,
  distanceKm,
  locationDoc,
  placeKey,
  REGIONS,
  type ResolvedPlace,
  resolvePlace,
} from '../../src/reference/gazetteer.js';

function city(name: string): City {
  const found = CITIES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no city ${name}`);
  return found;
}

function resolvedCityName(text: string): string | undefined {
  const place = resolvePlace(text);
  return place?.kind === 'city' ? place.city.name : undefined;
}

describe('gazetteer data', () => {
  it('covers every signal country with several cities, and a few beyond', () => {
    for (const code of SIGNAL_COUNTRIES) {
      expect(CITIES.filter((candidate) => candidate.countryCode === code).length).toBeGreaterThanOrEqual(4);
    }
    expect(
      CITIES.some((candidate) => !(SIGNAL_COUNTRIES as readonly string[]).includes(candidate.countryCode)),
    ).toBe(true);
    expect(CITIES.length).toBeGreaterThanOrEqual(60);
  });

  it('names countries as the filter options do', () => {
    for (const country of COUNTRIES) expect(COUNTRY_NAMES[country.code]).toBe(country.name);
  });

  it('places every city in a known region of its country, with plausible coordinates', () => {
    for (const candidate of CITIES) {
      expect(
        REGIONS.some(
          (region) => region.name === candidate.region && region.countryCode === candidate.countryCode,
        ),
      ).toBe(true);
      expect(Math.abs(candidate.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(candidate.lon)).toBeLessThanOrEqual(180);
      expect(candidate.weight).toBeGreaterThan(0);
    }
  });

  it('has real distances: close pairs and pairs 100+ km apart', () => {
    expect(distanceKm(city('London'), city('Birmingham'))).toBeGreaterThan(150);
    expect(distanceKm(city('London'), city('Birmingham'))).toBeLessThan(170);
    expect(distanceKm(city('London'), city('Reading'))).toBeGreaterThan(50);
    expect(distanceKm(city('London'), city('Reading'))).toBeLessThan(65);
    expect(distanceKm(city('Zurich'), city('Zug'))).toBeLessThan(30);
    expect(distanceKm(city('Berlin'), city('Munich'))).toBeGreaterThan(490);
    expect(distanceKm(city('Berlin'), city('Munich'))).toBeLessThan(520);
  });
});

describe('resolvePlace', () => {
  it('resolves city names and aliases regardless of case and accents', () => {
    expect(resolvedCityName('Munich')).toBe('Munich');
    expect(resolvedCityName('MÜNCHEN')).toBe('Munich');
    expect(resolvedCityName('muenchen')).toBe('Munich');
    expect(resolvedCityName('Wien')).toBe('Vienna');
    expect(resolvedCityName('Warszawa')).toBe('Warsaw');
    expect(resolvedCityName('krakow')).toBe('Kraków');
    expect(resolvedCityName('Kraków')).toBe('Kraków');
    expect(resolvedCityName('Bucureşti')).toBe('Bucharest');
    expect(resolvedCityName('București')).toBe('Bucharest');
    expect(resolvedCityName('  zürich ')).toBe('Zurich');
  });

  it('resolves regions, with their aliases', () => {
    expect(resolvePlace('England')).toEqual({ kind: 'region', region: 'England', countryCode: 'GB' });
    expect(resolvePlace('Bayern')).toEqual({ kind: 'region', region: 'Bavaria', countryCode: 'DE' });
    expect(resolvePlace('nordrhein-westfalen')).toEqual({
      kind: 'region',
      region: 'North Rhine-Westphalia',
      countryCode: 'DE',
    });
  });

  it('resolves countries by name, alias and ISO code', () => {
    const uk = { kind: 'country', countryCode: 'GB', countryName: 'United Kingdom' };
    for (const text of ['UK', 'U.K.', 'United Kingdom', 'great britain', 'GB', 'gb'])
      expect(resolvePlace(text)).toEqual(uk);
    expect(resolvePlace('Deutschland')).toEqual({
      kind: 'country',
      countryCode: 'DE',
      countryName: 'Germany',
    });
    expect(resolvePlace('Österreich')).toEqual({
      kind: 'country',
      countryCode: 'AT',
      countryName: 'Austria',
    });
  });

  it('prefers the city when a city and its region share a name', () => {
    expect(resolvedCityName('Berlin')).toBe('Berlin');
    expect(resolvedCityName('Vienna')).toBe('Vienna');
  });

  it('accepts "city, country" when the country contains the city', () => {
    expect(resolvedCityName('Munich, Germany')).toBe('Munich');
    expect(resolvedCityName('Leeds, England, UK')).toBe('Leeds');
    expect(resolvePlace('Munich, Austria')).toBeUndefined();
  });

  it('returns undefined for unknown places', () => {
    expect(resolvePlace('Atlantis')).toBeUndefined();
    expect(resolvePlace('')).toBeUndefined();
  });
});

describe('placeKey and locationDoc', () => {
  const everyPlace: ResolvedPlace[] = [
    ...CITIES.map((candidate) => ({ kind: 'city', city: candidate }) as const),
    ...REGIONS.map(
      (region) => ({ kind: 'region', region: region.name, countryCode: region.countryCode }) as const,
    ),
    ...COUNTRIES.map(
      (country) => ({ kind: 'country', countryCode: country.code, countryName: country.name }) as const,
    ),
  ];

  function contains(place: ResolvedPlace, candidate: City): boolean {
    if (place.kind === 'city') return place.city === candidate;
    if (place.kind === 'region')
      return candidate.region === place.region && candidate.countryCode === place.countryCode;
    return candidate.countryCode === place.countryCode;
  }

  it('gives each place a key held by exactly the cities inside it', () => {
    for (const place of everyPlace) {
      const key = placeKey(place);
      const holders = CITIES.filter((candidate) => locationDoc(candidate).keys.includes(key));
      expect(holders, key).toEqual(CITIES.filter((candidate) => contains(place, candidate)));
    }
  });

  it('matches what a typed place resolves to', () => {
    const munich = locationDoc(city('Munich'));
    for (const text of ['München', 'Bavaria', 'Germany', 'DE']) {
      const place = resolvePlace(text);
      expect(place && munich.keys.includes(placeKey(place)), text).toBe(true);
    }
    expect(munich).toMatchObject({
      display: 'Munich, Bavaria, Germany',
      city: 'Munich',
      region: 'Bavaria',
      country_code: 'DE',
      country_name: 'Germany',
      geo: { lat: city('Munich').lat, lon: city('Munich').lon },
    });
  });

  it('names a city that is its own region once', () => {
    expect(locationDoc(city('Berlin')).display).toBe('Berlin, Germany');
  });
});
