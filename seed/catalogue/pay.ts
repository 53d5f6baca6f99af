import type { Currency, ExperienceLevel } from '../../src/domain/enums.js';

/**
 * Pay bands. A posting's annual midpoint is the level's UK figure × the country's factor
 * (in the country's posting currency) × the city's premium × the family's factor.
 */

/** Annual midpoint in pounds for a UK software engineer outside London. */
export const LEVEL_BASE_ANNUAL: Readonly<Record<ExperienceLevel, number>> = {
  Entry: 32_000,
  Mid: 50_000,
  Senior: 68_000,
  Lead: 85_000,
  Executive: 120_000,
};

export interface CountryPay {
  /** Postings are in GBP, EUR or USD only: Swiss, Polish, Romanian and Bulgarian roles quote euros. */
  currency: Currency;
  factor: number;
  /** Share of permanent roles quoted per month, as is common in Central and Eastern Europe. */
  monthlyShare: number;
}

export const COUNTRY_PAY: Readonly<Record<string, CountryPay>> = {
  GB: { currency: 'GBP', factor: 1, monthlyShare: 0 },
  IE: { currency: 'EUR', factor: 1.2, monthlyShare: 0 },
  DE: { currency: 'EUR', factor: 1.22, monthlyShare: 0.05 },
  AT: { currency: 'EUR', factor: 1.08, monthlyShare: 0.25 },
  CH: { currency: 'EUR', factor: 2.1, monthlyShare: 0.05 },
  PL: { currency: 'EUR', factor: 0.62, monthlyShare: 0.5 },
  RO: { currency: 'EUR', factor: 0.5, monthlyShare: 0.5 },
  BG: { currency: 'EUR', factor: 0.42, monthlyShare: 0.5 },
  NL: { currency: 'EUR', factor: 1.2, monthlyShare: 0.1 },
  FR: { currency: 'EUR', factor: 1.02, monthlyShare: 0.05 },
  ES: { currency: 'EUR', factor: 0.78, monthlyShare: 0.05 },
  PT: { currency: 'EUR', factor: 0.6, monthlyShare: 0.2 },
  US: { currency: 'USD', factor: 2.4, monthlyShare: 0 },
};

/** Capital and hub premiums over the country's baseline. */
export const CITY_PAY_PREMIUM: Readonly<Record<string, number>> = {
  London: 1.18,
  Cambridge: 1.05,
  Oxford: 1.03,
  Edinburgh: 1.02,
  Dublin: 1.06,
  Munich: 1.1,
  Frankfurt: 1.06,
  Berlin: 1.02,
  Hamburg: 1.03,
  Vienna: 1.05,
  Zurich: 1.06,
  Zug: 1.05,
  Geneva: 1.04,
  Warsaw: 1.1,
  Kraków: 1.04,
  Bucharest: 1.08,
  Sofia: 1.1,
  Amsterdam: 1.06,
  Paris: 1.08,
  'New York': 1.15,
  'San Francisco': 1.25,
};

/** Share of postings that state no salary. */
export const MISSING_SALARY_SHARE = 0.12;
