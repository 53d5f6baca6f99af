import { SIGNAL_COUNTRIES } from '../src/domain/enums.js';
import { CITIES, type City } from '../src/reference/gazetteer.js';
import { WeightedPicker } from './random.js';

/** City pickers weighted by the gazetteer's `weight`: where companies sit and roles land. */

export const ANY_CITY = new WeightedPicker(CITIES, (city) => city.weight);

const citiesByCountry = new Map<string, WeightedPicker<City>>();
for (const countryCode of new Set(CITIES.map((city) => city.countryCode))) {
  citiesByCountry.set(
    countryCode,
    new WeightedPicker(
      CITIES.filter((city) => city.countryCode === countryCode),
      (city) => city.weight,
    ),
  );
}

export function citiesIn(countryCode: string): WeightedPicker<City> {
  const picker = citiesByCountry.get(countryCode);
  if (!picker) throw new Error(`no gazetteer city in ${countryCode}`);
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
