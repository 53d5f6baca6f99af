import type { AnnualSalaryDoc, EstimatedFeeDoc } from '../domain/documents.js';
import type { Currency, EmploymentType, ExperienceLevel, SalaryPeriod } from '../domain/enums.js';
import fxRates from './fx-rates.json' with { type: 'json' };

/**
 * Salary arithmetic shared by the seed (at indexing time) and the search code (for query
 * bounds), so that an annual figure means the same thing on both sides (docs/results-and-errors.md,
 * "Money and salaries").
 */

export interface SalaryRange {
  min: number;
  max: number;
  currency: Currency;
  period: SalaryPeriod;
}

export interface FxTable {
  /** The date the rates were taken; every conversion in the data set uses this one table. */
  as_of: string;
  source: string;
  /** Units of each currency that one pound buys. */
  per_gbp: Record<Currency, number>;
}

export const FX_TABLE: FxTable = fxRates;

/** Periods in a working year: 52 weeks of 5 days of 8 hours. */
export const ANNUALISATION: Record<SalaryPeriod, number> = {
  hour: 2080,
  day: 260,
  week: 52,
  month: 12,
  year: 1,
};

/** Converts with the fixed FX table, rounded to whole major units. */
export function convertAmount(amount: number, from: Currency, to: Currency): number {
  if (from === to) return Math.round(amount);
  return Math.round((amount / FX_TABLE.per_gbp[from]) * FX_TABLE.per_gbp[to]);
}

/** The range as a yearly figure in every supported currency, with its midpoint. */
export function annualSalary(salary: SalaryRange): AnnualSalaryDoc {
  const factor = ANNUALISATION[salary.period];
  const annualMin = salary.min * factor;
  const annualMax = salary.max * factor;
  const inCurrency = (to: Currency) => {
    const min = convertAmount(annualMin, salary.currency, to);
    const max = convertAmount(annualMax, salary.currency, to);
    return { min, max, mid: Math.round((min + max) / 2) };
  };
  const gbp = inCurrency('GBP');
  const eur = inCurrency('EUR');
  const usd = inCurrency('USD');
  return {
    gbp_min: gbp.min,
    gbp_max: gbp.max,
    gbp_mid: gbp.mid,
    eur_min: eur.min,
    eur_max: eur.max,
    eur_mid: eur.mid,
    usd_min: usd.min,
    usd_max: usd.max,
    usd_mid: usd.mid,
  };
}

const CURRENCY_SYMBOLS: Record<Currency, string> = { GBP: '£', EUR: '€', USD: '$' };

const PERIOD_PHRASES: Record<SalaryPeriod, string> = {
  year: 'a year',
  month: 'a month',
  week: 'a week',
  day: 'a day',
  hour: 'an hour',
};

const wholeNumber = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

function money(amount: number, currency: Currency): string {
  return `${CURRENCY_SYMBOLS[currency]}${wholeNumber.format(amount)}`;
}

/** "£70,000–£85,000 a year", "€600 a day" when the range is a single figure. */
export function formatSalary(salary: SalaryRange): string {
  const amounts =
    salary.min === salary.max
      ? money(salary.min, salary.currency)
      : `${money(salary.min, salary.currency)}–${money(salary.max, salary.currency)}`;
  return `${amounts} ${PERIOD_PHRASES[salary.period]}`;
}

/** Placement fee as a share of annual salary: agencies charge more for senior hires. */
const FEE_PERCENT_BY_LEVEL: Readonly<Record<ExperienceLevel, number>> = {
  Entry: 15,
  Mid: 18,
  Senior: 20,
  Lead: 22,
  Executive: 25,
};

/** Non-permanent work is billed as a margin, a smaller share. */
const FEE_PERCENT_BY_EMPLOYMENT: Readonly<Partial<Record<EmploymentType, number>>> = {
  Contract: 12,
  Freelance: 10,
  Temporary: 12,
  Internship: 10,
};

/** The fee rate a recruiter would charge for a role of this level and kind, in percent. */
export function feeRatePercent(level: ExperienceLevel, employment: EmploymentType): number {
  return FEE_PERCENT_BY_EMPLOYMENT[employment] ?? FEE_PERCENT_BY_LEVEL[level];
}

/** A placement fee of `ratePercent` of the annual salary, in the salary's own currency. */
export function estimatedFee(salary: SalaryRange, ratePercent: number): EstimatedFeeDoc {
  const factor = ANNUALISATION[salary.period];
  return {
    min: Math.round((salary.min * factor * ratePercent) / 100),
    max: Math.round((salary.max * factor * ratePercent) / 100),
    currency: salary.currency,
    rate_percent: ratePercent,
  };
}
