import { describe, expect, it } from 'vitest';
import { CITIES } from '../../seed/places.js';
import {
  areaLocationDoc,
  type City,
  cityNear,
  countryNameOf,
  distanceKm,
  findCity,
  locationDoc,
  placeInText,
  placeKey,
  type ResolvedPlace,
  resolvePlace,
} from '../../src/reference/gazetteer.js';

function city(name: string, countryCode?: string): City {
  const found = findCity(name, countryCode);
  if (!found) throw new Error(`no city ${name}`);
  return found;
}

function resolvedCity(text: string): string | undefined {
  const place = resolvePlace(text);
  return place?.kind === 'city' ? `${place.city.name}, ${place.city.countryCode}` : undefined;
}

describe('gazetteer data', () => {
  it('knows the whole world, not only the demo cities', () => {
    for (const [name, country] of [
      ['Tokyo', 'JP'],
      ['Sydney', 'AU'],
      ['São Paulo', 'BR'],
      ['Nairobi', 'KE'],
      ['Reykjavík', 'IS'],
      ['Tallinn', 'EE'],
      ['Ruse', 'BG'],
    ]) {
      expect(resolvedCity(name as string), name).toBe(`${name}, ${country}`);
    }
  });

  it('finds every demo city under the name and country the demo uses', () => {
    expect(CITIES.length).toBeGreaterThanOrEqual(60);
    for (const demo of CITIES) expect(findCity(demo.name, demo.countryCode)?.name).toBe(demo.name);
  });

  it('names countries in English', () => {
    expect(countryNameOf('GB')).toBe('United Kingdom');
    expect(countryNameOf('DE')).toBe('Germany');
    expect(countryNameOf('US')).toBe('United States');
    expect(countryNameOf('ZZ')).toBe('ZZ');
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
    expect(resolvedCity('Munich')).toBe('Munich, DE');
    expect(resolvedCity('MÜNCHEN')).toBe('Munich, DE');
    expect(resolvedCity('muenchen')).toBe('Munich, DE');
    expect(resolvedCity('Wien')).toBe('Vienna, AT');
    expect(resolvedCity('Warszawa')).toBe('Warsaw, PL');
    expect(resolvedCity('krakow')).toBe('Kraków, PL');
    expect(resolvedCity('Bucureşti')).toBe('Bucharest, RO');
    expect(resolvedCity('București')).toBe('Bucharest, RO');
    expect(resolvedCity('  zürich ')).toBe('Zurich, CH');
    expect(resolvedCity('Köln')).toBe('Cologne, DE');
    expect(resolvedCity('NYC')).toBe('New York, US');
    expect(resolvedCity('Cluj Napoca')).toBe('Cluj-Napoca, RO');
    expect(resolvedCity('Москва')).toBe('Moscow, RU');
    expect(resolvedCity('Bangalore')).toBe('Bengaluru, IN');
  });

  it('resolves regions, with their aliases and US postal codes', () => {
    expect(resolvePlace('England')).toEqual({
      kind: 'region',
      region: 'England',
      regionCode: 'GB.ENG',
      countryCode: 'GB',
    });
    expect(resolvePlace('Bayern')).toMatchObject({ kind: 'region', region: 'Bavaria', countryCode: 'DE' });
    expect(resolvePlace('nordrhein-westfalen')).toMatchObject({ region: 'North Rhine-Westphalia' });
    expect(resolvePlace('California')).toMatchObject({ kind: 'region', regionCode: 'US.CA' });
    expect(resolvePlace('TX')).toMatchObject({ kind: 'region', region: 'Texas' });
  });

  it('resolves countries by name, alias, native name and ISO codes', () => {
    const uk = { kind: 'country', countryCode: 'GB', countryName: 'United Kingdom' };
    for (const text of ['UK', 'U.K.', 'United Kingdom', 'great britain', 'GB', 'gb', 'GBR', 'Großbritannien'])
      expect(resolvePlace(text), text).toEqual(uk);
    expect(resolvePlace('Deutschland')).toMatchObject({ kind: 'country', countryCode: 'DE' });
    expect(resolvePlace('Österreich')).toMatchObject({ kind: 'country', countryCode: 'AT' });
    expect(resolvePlace('Georgia')).toMatchObject({ kind: 'country', countryCode: 'GE' });
    // The names the data's other languages give them, and short names people use.
    expect(resolvePlace('Polen')).toMatchObject({ kind: 'country', countryCode: 'PL' });
    expect(resolvePlace('Irland')).toMatchObject({ kind: 'country', countryCode: 'IE' });
    expect(resolvePlace('KSA')).toMatchObject({ kind: 'country', countryCode: 'SA' });
  });

  it('prefers the city when a city lies in its namesake region', () => {
    expect(resolvedCity('Berlin')).toBe('Berlin, DE');
    expect(resolvedCity('Vienna')).toBe('Vienna, AT');
    expect(resolvedCity('New York')).toBe('New York, US');
    expect(resolvedCity('Salzburg')).toBe('Salzburg, AT');
  });

  it('resolves an ambiguous name to the most populous place, and a qualified one within its qualifier', () => {
    expect(resolvedCity('London')).toBe('London, GB');
    expect(resolvedCity('London, CA')).toBe('London, CA');
    expect(resolvePlace('London, CA')).toMatchObject({ city: { region: 'Ontario' } });
    expect(resolvedCity('London, Ontario')).toBe('London, CA');
    expect(resolvedCity('Cambridge')).toBe('Cambridge, GB');
    expect(resolvedCity('Cambridge, US')).toBe('Cambridge, US');
    expect(resolvePlace('Cambridge, US')).toMatchObject({ city: { region: 'Massachusetts' } });
    expect(resolvedCity('Portland, OR')).toBe('Portland, US');
    expect(resolvePlace('Portland, ME')).toMatchObject({ city: { region: 'Maine' } });
    expect(resolvedCity('San Francisco, CA')).toBe('San Francisco, US');
    expect(resolvedCity('Paris')).toBe('Paris, FR');
    expect(resolvedCity('Paris, TX')).toBe('Paris, US');
  });

  it('accepts "city, region, country" when each part contains the one before', () => {
    expect(resolvedCity('Munich, Germany')).toBe('Munich, DE');
    expect(resolvedCity('Leeds, England, UK')).toBe('Leeds, GB');
    expect(resolvePlace('Munich, Austria')).toBeUndefined();
    expect(resolvePlace('Bavaria, Germany')).toMatchObject({ kind: 'region', region: 'Bavaria' });
  });

  it('returns undefined for unknown places', () => {
    expect(resolvePlace('Narnia')).toBeUndefined();
    expect(resolvePlace('')).toBeUndefined();
    expect(resolvePlace(', ,')).toBeUndefined();
  });

  it('reads no airport code as a city: they are the acronyms of skills and titles', () => {
    for (const code of ['NLP', 'SRE', 'SOC', 'SEO', 'SAP', 'LHR'])
      expect(resolvePlace(code), code).toBeUndefined();
    expect(resolvePlace('NYC')).toMatchObject({ kind: 'city', city: { name: 'New York' } });
  });
});

describe('placeInText', () => {
  it('finds the place in the location text of job boards', () => {
    expect(placeInText('Remote - UK')).toMatchObject({ kind: 'country', countryCode: 'GB' });
    expect(placeInText('Hybrid (Berlin)')).toMatchObject({ kind: 'city', city: { name: 'Berlin' } });
    expect(placeInText('London or Remote')).toMatchObject({ kind: 'city', city: { name: 'London' } });
    expect(placeInText('Munich / Berlin')).toMatchObject({ kind: 'city', city: { name: 'Munich' } });
    expect(placeInText('New York, NY')).toMatchObject({ kind: 'city', city: { name: 'New York' } });
    expect(placeInText('Remote')).toBeUndefined();
    expect(placeInText('Anywhere in EMEA')).toBeUndefined();
  });
});

describe('placeKey and locationDoc', () => {
  const munich = city('Munich');

  it('gives a city, its region and its country keys of their own', () => {
    const doc = locationDoc(munich);
    expect(doc).toEqual({
      display: 'Munich, Bavaria, Germany',
      city: 'Munich',
      region: 'Bavaria',
      country_code: 'DE',
      country_name: 'Germany',
      keys: [`city:${munich.id}`, 'region:de.02', 'country:de'],
      geo: { lat: munich.lat, lon: munich.lon },
    });
    for (const text of ['München', 'Bavaria', 'Germany', 'DE']) {
      const place = resolvePlace(text) as ResolvedPlace;
      expect(doc.keys, text).toContain(placeKey(place));
    }
    // Washington the state and Washington the city share a name but not a key.
    const dc = city('Washington, D.C.');
    expect(locationDoc(dc).keys).not.toContain(placeKey(resolvePlace('Washington') as ResolvedPlace));
  });

  it('holds the keys of exactly the places each demo city lies in', () => {
    for (const demo of CITIES) {
      const keys = locationDoc(demo).keys;
      for (const other of CITIES) {
        const otherKey = placeKey({ kind: 'city', city: other });
        expect(keys.includes(otherKey), `${demo.name} / ${other.name}`).toBe(other.id === demo.id);
      }
      expect(keys).toContain(`country:${demo.countryCode.toLowerCase()}`);
    }
  });

  it('names a city that is its own region once', () => {
    expect(locationDoc(city('Berlin')).display).toBe('Berlin, Germany');
  });

  it('places a role known only by its region or country, or nowhere', () => {
    const england = resolvePlace('England') as Exclude<ResolvedPlace, { kind: 'city' }>;
    expect(areaLocationDoc(england, 'Remote - England')).toEqual({
      display: 'England, United Kingdom',
      city: null,
      region: 'England',
      country_code: 'GB',
      country_name: 'United Kingdom',
      keys: ['region:gb.eng', 'country:gb'],
      geo: null,
    });
    expect(areaLocationDoc(undefined, 'Anywhere in EMEA')).toMatchObject({
      display: 'Anywhere in EMEA',
      keys: [],
    });
  });

  it('names the city at a point', () => {
    expect(cityNear({ lat: 51.52, lon: -0.1 })?.name).toBe('London');
    expect(cityNear({ lat: 0, lon: -30 })).toBeUndefined();
  });
});
