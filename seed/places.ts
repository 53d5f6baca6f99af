import { SIGNAL_COUNTRIES } from '../src/domain/enums.js';
import { type City, findCity } from '../src/reference/gazetteer.js';
import { DEMO_CITIES } from './catalogue/places.js';
import { WeightedPicker } from './random.js';

/** City pickers weighted by the demo's city weights: where companies sit and roles land. */

export interface DemoCity extends City {
  weight: number;
}

export const CITIES: readonly DemoCity[] = DEMO_CITIES.map(([name, countryCode, weight]) => {
  const city = findCity(name, countryCode);
  if (!city || city.name !== name)
    throw new Error(`seed/catalogue/places.ts: no city ${name} in ${countryCode}`);
  return { ...city, weight };
});

export const ANY_CITY = new WeightedPicker(CITIES, (city) => city.weight);

const citiesByCountry = new Map<string, WeightedPicker<DemoCity>>();
for (const countryCode of new Set(CITIES.map((city) => city.countryCode))) {
  citiesByCountry.set(
    countryCode,
    new WeightedPicker(
      CITIES.filter((city) => city.countryCode === countryCode),
      (city) => city.weight,
    ),
  );
}

export function citiesIn(countryCode: string): WeightedPicker<DemoCity> {
  const picker = citiesByCountry.get(countryCode);
  if (!picker) throw new Error(`no demo city in ${countryCode}`);
  return picker;
}

const signalCountries: ReadonlySet<string> = new Set(SIGNAL_COUNTRIES);

export function isSignalCountry(countryCode: string): boolean {
  return signalCountries.has(countryCode);
}

/** Cities of the eight countries signals are reported for. */
export const SIGNAL_COUNTRY_CITY = new WeightedPicker(
  CITIES.filter((city) => isSignalCountry(city.countryCode)),
  (city) => city.weight,
);
