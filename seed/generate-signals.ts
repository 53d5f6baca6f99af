import type { CompanySizeBand, SignalCategory } from '../src/domain/enums.js';
import { FEED_VERSION, type SignalRecordInput } from '../src/feed/records.js';
import type { City } from '../src/reference/gazetteer.js';
import { CATEGORY_SHARES, NEWS_OUTLETS, writeSignal } from './catalogue/signals.js';
import { recentDayPicker } from './dates.js';
import { type CompanyRef, DEMO_SOURCE, type SeedOptions } from './generate-companies.js';
import { isSignalCountry, SIGNAL_COUNTRY_CITY } from './places.js';
import { pickWeighted, Random, WeightedPicker } from './random.js';
import { slugify } from './text.js';

/** Bigger companies make the news more often. */
const NEWS_WEIGHT_BY_BAND: Readonly<Record<CompanySizeBand, number>> = {
  startup: 2,
  scale_up: 3,
  small: 1,
  medium: 3,
  enterprise: 5,
};

/** Categories about a place the company is moving into, rather than where it already is. */
const PLACE_CATEGORIES: ReadonlySet<SignalCategory> = new Set(['new_location', 'outsourcing']);

/** The signal's city: a new place for expansion news, otherwise the company's own presence in the eight countries. */
function signalCity(ref: CompanyRef, category: SignalCategory, random: Random): City {
  if (PLACE_CATEGORIES.has(category)) return SIGNAL_COUNTRY_CITY.pick(random);
  return ref.cities.find((city) => isSignalCountry(city.countryCode)) ?? SIGNAL_COUNTRY_CITY.pick(random);
}

/**
 * Signal feed records in index order, streamed. Recruitment agencies are left out: the news
 * that predicts hiring is about the employers themselves.
 */
export function* generateSignals(
  count: number,
  companies: readonly CompanyRef[],
  options: SeedOptions,
): Generator<SignalRecordInput> {
  const employers = companies.filter((ref) => !ref.isAgency);
  if (count > 0 && employers.length === 0)
    throw new Error('signals need at least one company that is not an agency');
  const random = new Random(`${options.seed}:signals`);
  const days = recentDayPicker(options.now, 1.8, 0.15);
  const companyPicker = new WeightedPicker(employers, (ref) => NEWS_WEIGHT_BY_BAND[ref.sizeBand]);

  for (let index = 0; index < count; index++) {
    const ref = companyPicker.pick(random);
    const category = pickWeighted(random, CATEGORY_SHARES);
    const city = signalCity(ref, category, random);
    const text = writeSignal(
      category,
      {
        company: ref.name,
        sizeBand: ref.sizeBand,
        industry: ref.industry.name,
        city: city.name,
        countryName: city.countryName,
        countryCode: city.countryCode,
        currencySymbol: city.countryCode === 'GB' ? '£' : '€',
        headcount: ref.headcount,
      },
      random,
    );
    const announcedOn = days.pick(random).date;
    const outlet = random.pick(NEWS_OUTLETS[city.countryCode] ?? NEWS_OUTLETS.GB ?? []);
    yield {
      feed_version: FEED_VERSION,
      source: DEMO_SOURCE,
      source_id: `${options.seed}-${index + 1}`,
      company: { key: ref.key },
      category,
      polarity: text.polarity,
      title: text.title,
      summary: text.summary,
      url: `${outlet}/${announcedOn.slice(0, 4)}/${announcedOn.slice(5, 7)}/${slugify(text.title)}`,
      country: city.countryCode,
      announced_on: announcedOn,
    };
  }
}
