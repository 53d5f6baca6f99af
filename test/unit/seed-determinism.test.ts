import { describe, expect, it } from 'vitest';
import {
  companyDirectory,
  DEMO_SOURCE,
  generateCompanies,
  type SeedOptions,
} from '../../seed/generate-companies.js';
import { generateLeads } from '../../seed/generate-leads.js';
import { generateSignals } from '../../seed/generate-signals.js';
import type { CompanyDoc, LeadDoc, SignalDoc } from '../../src/domain/documents.js';
import {
  CURRENCIES,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  SIGNAL_CATEGORIES,
  SIGNAL_COUNTRIES,
  WORK_TYPES,
} from '../../src/domain/enums.js';
import {
  type CompanyFacts,
  companyFacts,
  deriveCompany,
  deriveLead,
  deriveSignal,
} from '../../src/feed/derive.js';
import { companyRecord, leadRecord, signalRecord } from '../../src/feed/records.js';
import { annualSalary } from '../../src/reference/salary.js';

const OPTIONS: SeedOptions = { seed: 42, now: '2026-11-01' };

function records(options: SeedOptions, sizes: { companies: number; leads: number; signals: number }) {
  const directory = companyDirectory(sizes.companies, options);
  return {
    companies: [...generateCompanies(sizes.companies, options)],
    leads: [...generateLeads(sizes.leads, directory, options)],
    signals: [...generateSignals(sizes.signals, directory, options)],
  };
}

/** The documents ingest would index for the generated records (every record must pass the feed's schema). */
function dataSet(options: SeedOptions, sizes = { companies: 300, leads: 2000, signals: 500 }) {
  const generated = records(options, sizes);
  const facts = new Map<string, CompanyFacts>();
  const companies = generated.companies.map((input, index): CompanyDoc => {
    const doc = {
      ...deriveCompany(companyRecord.parse(input), DEMO_SOURCE).doc,
      seq: index + 1,
      fingerprint: '',
    };
    facts.set(doc.key, companyFacts(doc));
    return doc;
  });
  const leads = generated.leads.map((input, index): LeadDoc => {
    const record = leadRecord.parse(input);
    const company = 'key' in record.company ? (facts.get(record.company.key) ?? null) : null;
    return { ...deriveLead(record, DEMO_SOURCE, company, options.now).doc, seq: index + 1, fingerprint: '' };
  });
  const signals = generated.signals.map((input, index): SignalDoc => {
    const record = signalRecord.parse(input);
    const company = facts.get(record.company.key) as CompanyFacts;
    return { ...deriveSignal(record, DEMO_SOURCE, company), seq: index + 1, fingerprint: '' };
  });
  return { records: generated, companies, leads, signals };
}

describe('seed determinism', () => {
  const first = records(OPTIONS, { companies: 300, leads: 2000, signals: 500 });

  it('gives byte-identical records for the same seed and now', () => {
    const again = records(OPTIONS, { companies: 300, leads: 2000, signals: 500 });
    expect(JSON.stringify(again.companies)).toBe(JSON.stringify(first.companies));
    expect(JSON.stringify(again.leads)).toBe(JSON.stringify(first.leads));
    expect(JSON.stringify(again.signals)).toBe(JSON.stringify(first.signals));
  });

  it('gives different records and ids for another seed', () => {
    const other = records({ ...OPTIONS, seed: 7 }, { companies: 300, leads: 2000, signals: 500 });
    expect(other.leads[0]?.source_id).not.toBe(first.leads[0]?.source_id);
    expect(JSON.stringify(other.leads.slice(0, 50))).not.toBe(JSON.stringify(first.leads.slice(0, 50)));
    expect(other.companies.map((company) => company.name)).not.toEqual(
      first.companies.map((company) => company.name),
    );
  });

  it('moves dates with now', () => {
    const later = records({ ...OPTIONS, now: '2026-12-01' }, { companies: 300, leads: 2000, signals: 500 });
    expect(later.leads.map((lead) => lead.posted_date)).not.toEqual(
      first.leads.map((lead) => lead.posted_date),
    );
  });

  it('keeps the first companies the same whatever the count', () => {
    const fewer = [...generateCompanies(50, OPTIONS)];
    expect(JSON.stringify(fewer)).toBe(JSON.stringify(first.companies.slice(0, 50)));
  });
});

describe('generated data', () => {
  const { companies, leads, signals } = dataSet(OPTIONS, { companies: 2000, leads: 10_000, signals: 3000 });
  const companiesById = new Map(companies.map((company) => [company.id, company]));
  const share = (count: number, total: number) => count / total;

  it('gives unique ids', () => {
    for (const docs of [companies, leads, signals])
      expect(new Set(docs.map((doc) => doc.id)).size).toBe(docs.length);
  });

  it('gives distinct company names for the demo size', () => {
    expect(new Set(companies.map((company) => company.name_key)).size).toBe(companies.length);
  });

  it('makes about 8% of companies recruitment agencies', () => {
    expect(share(companies.filter((company) => company.is_agency).length, companies.length)).toBeGreaterThan(
      0.06,
    );
    expect(share(companies.filter((company) => company.is_agency).length, companies.length)).toBeLessThan(
      0.1,
    );
  });

  it('keeps size strings consistent with the size band', () => {
    const sizes: Record<string, string[]> = {
      startup: ['1-10', '11-50'],
      scale_up: ['51-200'],
      small: ['11-50', '51-200'],
      medium: ['201-500', '501-1,000'],
      enterprise: ['1,001-5,000', '5,001-10,000', '10,000+'],
    };
    for (const company of companies) expect(sizes[company.size_band]).toContain(company.size);
  });

  it('closes about 10% of roles, older ones more often', () => {
    const closed = leads.filter((lead) => !lead.is_open);
    expect(share(closed.length, leads.length)).toBeGreaterThan(0.07);
    expect(share(closed.length, leads.length)).toBeLessThan(0.13);
    const averageDate = (docs: typeof leads) =>
      docs.reduce((sum, lead) => sum + Date.parse(lead.posted_date), 0) / docs.length;
    expect(averageDate(closed)).toBeLessThan(averageDate(leads.filter((lead) => lead.is_open)));
  });

  it('posts roles in the year before now', () => {
    const dates = leads.map((lead) => lead.posted_date).sort();
    expect((dates[0] ?? '') >= '2025-11-02').toBe(true);
    expect(dates.at(-1)).toBe('2026-11-01');
  });

  it('copies company fields onto leads, and flags agency leads', () => {
    const mismatched = leads.filter((lead) => {
      if (lead.company.id === null) return lead.company.rank_key !== `${lead.company.name_key}|`;
      const company = companiesById.get(lead.company.id);
      return (
        !company ||
        lead.company.name !== company.name ||
        lead.company.name_key !== company.name_key ||
        lead.company.size_band !== company.size_band ||
        lead.company.is_agency !== company.is_agency ||
        lead.company.logo_url !== company.logo_url ||
        lead.company.rank_key !== `${company.name_key}|${company.id}` ||
        lead.details.company.size !== company.size
      );
    });
    expect(mismatched).toEqual([]);
    const withoutProfile = leads.filter((lead) => lead.company.id === null).length;
    expect(share(withoutProfile, leads.length)).toBeGreaterThan(0.03);
    expect(share(withoutProfile, leads.length)).toBeLessThan(0.07);
    expect(leads.some((lead) => lead.company.is_agency)).toBe(true);
  });

  it('uses the enumerations of the filters', () => {
    const valuesOf = (pick: (lead: (typeof leads)[number]) => string | undefined) =>
      new Set(leads.flatMap((lead) => pick(lead) ?? []));
    expect(valuesOf((lead) => lead.experience_level)).toEqual(new Set(EXPERIENCE_LEVELS));
    expect(valuesOf((lead) => lead.work_type)).toEqual(new Set(WORK_TYPES));
    expect(valuesOf((lead) => lead.employment_type)).toEqual(new Set(EMPLOYMENT_TYPES));
    expect(CURRENCIES).toEqual(expect.arrayContaining([...valuesOf((lead) => lead.salary?.currency)]));
    expect(new Set(signals.map((signal) => signal.category))).toEqual(new Set(SIGNAL_CATEGORIES));
  });

  it('gives salaries in the right shape, and leaves about 12% without', () => {
    const missing = leads.filter((lead) => lead.salary === null);
    expect(share(missing.length, leads.length)).toBeGreaterThan(0.09);
    expect(share(missing.length, leads.length)).toBeLessThan(0.15);
    expect(missing.filter((lead) => lead.salary_annual !== null || lead.estimated_fee !== null)).toEqual([]);
    const inconsistent = leads.filter(
      (lead) =>
        lead.salary &&
        (lead.salary.min > lead.salary.max ||
          JSON.stringify(lead.salary_annual) !== JSON.stringify(annualSalary(lead.salary)) ||
          lead.estimated_fee?.currency !== lead.salary.currency),
    );
    expect(inconsistent).toEqual([]);
    const periods = new Set(leads.flatMap((lead) => (lead.salary ? [lead.salary.period] : [])));
    expect(periods).toEqual(new Set(['year', 'month', 'week', 'day', 'hour']));
    const contracts = leads.filter((lead) => lead.employment_type === 'Contract' && lead.salary);
    expect(
      share(contracts.filter((lead) => lead.salary?.period === 'day').length, contracts.length),
    ).toBeGreaterThan(0.7);
  });

  it('links roles posted in several cities both ways', () => {
    const byId = new Map(leads.map((lead) => [lead.id, lead]));
    const linked = leads.filter((lead) => lead.other_locations.length > 0);
    expect(linked.length).toBeGreaterThan(0);
    for (const lead of linked) {
      for (const other of lead.other_locations) {
        const sibling = byId.get(other.lead_id);
        expect(sibling?.title).toBe(lead.title);
        expect(sibling?.company.name).toBe(lead.company.name);
        expect(sibling?.other_locations.map((entry) => entry.lead_id)).toContain(lead.id);
        expect(sibling?.location.city).not.toBe(lead.location.city);
      }
    }
  });

  it('gives signals a fitting polarity and one of the eight countries', () => {
    const polarities = (category: string) =>
      new Set(signals.filter((signal) => signal.category === category).map((signal) => signal.polarity));
    expect(polarities('layoff')).toEqual(new Set(['negative']));
    expect(polarities('funding')).toEqual(new Set(['positive']));
    expect(polarities('grant')).toEqual(new Set(['positive']));
    expect(new Set(signals.map((signal) => signal.country))).toEqual(new Set(SIGNAL_COUNTRIES));
    expect(signals.filter((signal) => companiesById.get(signal.company.id)?.is_agency !== false)).toEqual([]);
  });
});
