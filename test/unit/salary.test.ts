import { describe, expect, it } from 'vitest';
import {
  ANNUALISATION,
  annualSalary,
  convertAmount,
  estimatedFee,
  FX_TABLE,
  formatSalary,
} from '../../src/reference/salary.js';
import ECB from '../fixtures/ecb-reference-rates.json' with { type: 'json' };

describe('FX table', () => {
  it('is dated and quotes every currency against the pound', () => {
    expect(FX_TABLE.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(FX_TABLE.per_gbp.GBP).toBe(1);
    expect(FX_TABLE.per_gbp.EUR).toBeGreaterThan(1);
    expect(FX_TABLE.per_gbp.USD).toBeGreaterThan(FX_TABLE.per_gbp.EUR);
  });

  // The oracle: the ECB's published reference rates of the table's date, kept in a fixture of their
  // own with where they were read (test/fixtures/ecb-reference-rates.json). The ECB quotes every
  // currency per euro, so a rate per pound is the currency's rate over the pound's.
  it('holds the ECB reference rates of its date, crossed through the euro, to four decimals', () => {
    const toFourDecimals = (rate: number) => Math.round(rate * 10_000) / 10_000;
    expect(FX_TABLE.as_of).toBe(ECB.date);
    expect(FX_TABLE.per_gbp).toEqual({
      GBP: 1,
      EUR: toFourDecimals(1 / ECB.per_euro.GBP),
      USD: toFourDecimals(ECB.per_euro.USD / ECB.per_euro.GBP),
    });
  });
});

describe('convertAmount', () => {
  it('leaves an amount in its own currency as it is (rounded)', () => {
    expect(convertAmount(70_000, 'GBP', 'GBP')).toBe(70_000);
    expect(convertAmount(99.6, 'EUR', 'EUR')).toBe(100);
  });

  it('converts through the pound with the table rates, to whole units', () => {
    expect(convertAmount(100_000, 'GBP', 'EUR')).toBe(Math.round(100_000 * FX_TABLE.per_gbp.EUR));
    expect(convertAmount(115_000, 'EUR', 'GBP')).toBe(Math.round(115_000 / FX_TABLE.per_gbp.EUR));
    expect(convertAmount(50_000, 'EUR', 'USD')).toBe(
      Math.round((50_000 / FX_TABLE.per_gbp.EUR) * FX_TABLE.per_gbp.USD),
    );
  });

  it('only rounds an amount already in the target currency: the rates would drift a half unit', () => {
    // Through the pound, 22.5 / 1.15 * 1.15 is 22.4999… in floating point and would round down.
    expect(convertAmount(22.5, 'EUR', 'EUR')).toBe(23);
    expect(convertAmount(27.5, 'USD', 'USD')).toBe(28);
  });

  it('round-trips within a unit', () => {
    const there = convertAmount(64_321, 'USD', 'EUR');
    expect(Math.abs(convertAmount(there, 'EUR', 'USD') - 64_321)).toBeLessThanOrEqual(1);
  });
});

describe('annualSalary', () => {
  it('uses the documented factors: hour 2080, day 260, week 52, month 12', () => {
    expect(ANNUALISATION).toEqual({ hour: 2080, day: 260, week: 52, month: 12, year: 1 });
  });

  it('annualises a day rate and converts it to every currency', () => {
    const annual = annualSalary({ min: 500, max: 600, currency: 'GBP', period: 'day' });
    expect(annual.gbp_min).toBe(130_000);
    expect(annual.gbp_max).toBe(156_000);
    expect(annual.gbp_mid).toBe(143_000);
    expect(annual.eur_min).toBe(convertAmount(130_000, 'GBP', 'EUR'));
    expect(annual.usd_max).toBe(convertAmount(156_000, 'GBP', 'USD'));
    expect(annual.eur_mid).toBe(Math.round((annual.eur_min + annual.eur_max) / 2));
  });

  it('annualises hourly and monthly pay', () => {
    expect(annualSalary({ min: 45, max: 60, currency: 'USD', period: 'hour' })).toMatchObject({
      usd_min: 93_600,
      usd_max: 124_800,
      usd_mid: 109_200,
    });
    expect(annualSalary({ min: 4_000, max: 5_000, currency: 'EUR', period: 'month' })).toMatchObject({
      eur_min: 48_000,
      eur_max: 60_000,
    });
  });
});

describe('formatSalary', () => {
  it('writes ranges with symbols, thousands separators and an en dash', () => {
    expect(formatSalary({ min: 70_000, max: 85_000, currency: 'GBP', period: 'year' })).toBe(
      '£70,000–£85,000 a year',
    );
    expect(formatSalary({ min: 550, max: 650, currency: 'EUR', period: 'day' })).toBe('€550–€650 a day');
    expect(formatSalary({ min: 45, max: 60, currency: 'USD', period: 'hour' })).toBe('$45–$60 an hour');
    expect(formatSalary({ min: 4_000, max: 4_500, currency: 'EUR', period: 'month' })).toBe(
      '€4,000–€4,500 a month',
    );
    expect(formatSalary({ min: 900, max: 1_000, currency: 'GBP', period: 'week' })).toBe(
      '£900–£1,000 a week',
    );
  });

  it('writes whole units, rounding pence and cents away', () => {
    expect(formatSalary({ min: 52.5, max: 60.25, currency: 'GBP', period: 'hour' })).toBe('£53–£60 an hour');
  });

  it('writes a single figure when min and max agree', () => {
    expect(formatSalary({ min: 600, max: 600, currency: 'GBP', period: 'day' })).toBe('£600 a day');
  });
});

describe('estimatedFee', () => {
  it('is the rate times the annual salary, in the salary currency', () => {
    expect(estimatedFee({ min: 70_000, max: 85_000, currency: 'GBP', period: 'year' }, 20)).toEqual({
      min: 14_000,
      max: 17_000,
      currency: 'GBP',
      rate_percent: 20,
    });
    expect(estimatedFee({ min: 500, max: 600, currency: 'EUR', period: 'day' }, 12)).toEqual({
      min: 15_600,
      max: 18_720,
      currency: 'EUR',
      rate_percent: 12,
    });
  });
});
