import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { feedSchemaFiles } from '../../scripts/feed-schema.js';
import { deriveCompany, deriveLead, levelFromTitle, UNSPECIFIED_INDUSTRY } from '../../src/feed/derive.js';
import { companyIdFor, leadIdFor, signalIdFor } from '../../src/feed/ids.js';
import {
  type CompanyRecord,
  checkCompanyRecord,
  checkLeadRecord,
  checkSignalRecord,
  type LeadRecord,
} from '../../src/feed/records.js';
import { annualSalary } from '../../src/reference/salary.js';

const TODAY = '2026-11-01';

const LEAD = {
  feed_version: 1,
  source: 'acme-ats',
  source_id: 'req-1',
  title: 'Senior Data Engineer',
  company: { key: 'acme' },
  location: { text: 'Munich, Germany' },
  posted_date: '2026-10-30',
  employment_type: 'Full-time',
  work_type: 'Hybrid',
  skills: ['Python', 'Kafka'],
  salary: { min: 70_000, max: 85_000, currency: 'EUR', period: 'year' },
};

const COMPANY = {
  feed_version: 1,
  key: 'acme',
  name: 'Acme Payments GmbH',
  industry: 'Payments',
  size_band: 'scale_up',
  founded: 2015,
  headquarters: { text: 'Berlin' },
};

function lead(overrides: Record<string, unknown> = {}): LeadRecord {
  const result = checkLeadRecord({ ...LEAD, ...overrides }, TODAY);
  if (!result.ok) throw new Error(`${result.problem.field}: ${result.problem.reason}`);
  return result.record as LeadRecord;
}

function problemOf(overrides: Record<string, unknown>) {
  const result = checkLeadRecord({ ...LEAD, ...overrides }, TODAY);
  return result.ok ? undefined : result.problem;
}

describe('feed records', () => {
  it('accept a complete lead, a closure and a company', () => {
    expect(lead()).toMatchObject({ status: 'open', other_locations: [], soft_skills: [] });
    expect(checkLeadRecord({ feed_version: 1, source_id: 'req-1', status: 'closed' }, TODAY)).toMatchObject({
      ok: true,
    });
    expect(checkCompanyRecord(COMPANY)).toMatchObject({ ok: true, record: { is_agency: false, tags: [] } });
  });

  it.each([
    [{ salary: { ...LEAD.salary, min: 90_000 } }, 'salary.min', /min is above max/],
    [{ salary: { ...LEAD.salary, currency: 'CHF' } }, 'salary.currency', /unknown currency "CHF"/],
    [{ posted_date: '2026-11-03' }, 'posted_date', /in the future/],
    [{ posted_date: '2026-02-30' }, 'posted_date', /YYYY-MM-DD/],
    [{ title: 'x'.repeat(201) }, 'title', /at most 200 characters \(got 201\)/],
    [{ skills: ['Go', 'y'.repeat(101)] }, 'skills.1', /at most 100 characters/],
    [{ feed_version: 2 }, 'feed_version', /must be 1/],
    [{ location: { lat: 48.1 } }, 'location', /needs text, or lat and lon/],
    [{ location: { text: 'Munich', lat: 48.1 } }, 'location.lon', /lat and lon go together/],
    [{ work_type: 'remote' }, 'work_type', /Remote/],
    [{ colour: 'blue' }, '(record)', /colour/],
  ])('refuse %j on %s', (overrides, field, reason) => {
    const problem = problemOf(overrides);
    expect(problem?.field).toBe(field);
    expect(problem?.reason).toMatch(reason);
  });

  it('allow a date one day ahead, for sources a timezone ahead', () => {
    expect(problemOf({ posted_date: '2026-11-02' })).toBeUndefined();
  });

  it('refuse a signal in an unknown country or from the future', () => {
    const signal = {
      feed_version: 1,
      source: 'news',
      source_id: 'n-1',
      company: { key: 'acme' },
      category: 'funding',
      polarity: 'positive',
      title: 'Acme raises',
      summary: 'Acme raised a round.',
      url: 'https://news.example/acme',
      country: 'DE',
      announced_on: '2026-10-01',
    };
    expect(checkSignalRecord(signal, TODAY)).toMatchObject({ ok: true });
    expect(checkSignalRecord({ ...signal, country: 'XX' }, TODAY)).toMatchObject({
      ok: false,
      problem: { field: 'country' },
    });
    expect(checkSignalRecord({ ...signal, announced_on: '2027-01-01' }, TODAY)).toMatchObject({
      ok: false,
      problem: { field: 'announced_on' },
    });
  });
});

describe('stable ids', () => {
  it('follow from the source and its id, in the contract format', () => {
    expect(leadIdFor('acme-ats', 'req-1')).toBe(leadIdFor('acme-ats', 'req-1'));
    expect(leadIdFor('acme-ats', 'req-1')).toMatch(/^ld_[0-9A-Za-z]{10}$/);
    expect(leadIdFor('acme-ats', 'req-1')).not.toBe(leadIdFor('acme-ats', 'req-2'));
    expect(leadIdFor('a:b', 'c')).not.toBe(leadIdFor('a', 'b:c'));
    expect(signalIdFor('acme-ats', 'req-1')).toMatch(/^sg_[0-9A-Za-z]{10}$/);
    expect(companyIdFor('acme')).toMatch(/^co_[0-9A-Za-z]{10}$/);
    const ids = new Set(Array.from({ length: 100_000 }, (_, index) => leadIdFor('bulk', String(index))));
    expect(ids.size).toBe(100_000);
  });

  it('stay what they have always been', () => {
    // Ids are stored and handed to accounts: any change of their computation breaks every unlock.
    expect([
      leadIdFor('acme-ats', 'req-1'),
      leadIdFor('demo', '42-1'),
      leadIdFor('greenhouse:acme', '4012@Berlin, Germany'),
      leadIdFor('ü', '€'),
      companyIdFor('acme'),
      companyIdFor('demo-42-1'),
      signalIdFor('newsdesk', '2026-10-acme-series-b'),
    ]).toEqual([
      'ld_968Wxv6p2D',
      'ld_dYaDJuHn52',
      'ld_lalDfkdACK',
      'ld_Sc3vLCkVFV',
      'co_i0z79d855f',
      'co_ZlMNnDS3Mj',
      'sg_eslEGs7M3y',
    ]);
  });
});

describe('deriving documents', () => {
  const company = deriveCompany((checkCompanyRecord(COMPANY) as { record: CompanyRecord }).record, 'crm').doc;
  const facts = { ...company, tags: ['Series B'] };

  it('computes the place, keys, annual salary, fee and company fields', () => {
    const { doc, warnings } = deriveLead(lead(), 'acme-ats', facts, TODAY);
    expect(warnings).toEqual([]);
    expect(doc).toMatchObject({
      id: leadIdFor('acme-ats', 'req-1'),
      source: 'acme-ats',
      source_id: 'req-1',
      title_key: 'senior data engineer',
      is_open: true,
      experience_level: 'Senior',
      industry: 'Payments',
      industry_key: 'payment',
      skills_key: ['python', 'kafka'],
      location: { display: 'Munich, Bavaria, Germany', city: 'Munich', country_code: 'DE' },
      company: { id: company.id, name: 'Acme Payments GmbH', rank_key: `acme payments gmbh|${company.id}` },
      salary: { display: '€70,000–€85,000 a year' },
      salary_annual: annualSalary({ min: 70_000, max: 85_000, currency: 'EUR', period: 'year' }),
      estimated_fee: { rate_percent: 20, currency: 'EUR', min: 14_000, max: 17_000 },
      details: { company_tags: ['Series B'], experience_years: { min: 5, max: null }, applicants: 0 },
    });
    expect(company).toMatchObject({ size: '51-250', sector: 'Payments', location: 'Berlin, Germany' });
  });

  it('closes a role whose expires_at has passed, and a closed record', () => {
    expect(deriveLead(lead({ expires_at: '2026-10-31' }), 's', null, TODAY).doc.is_open).toBe(false);
    expect(deriveLead(lead({ expires_at: '2026-11-01' }), 's', null, TODAY).doc.is_open).toBe(true);
    expect(deriveLead(lead({ status: 'closed' }), 's', null, TODAY).doc.is_open).toBe(false);
  });

  it('places by coordinates, reports a place it cannot name, and names a profile-less company', () => {
    const byPoint = deriveLead(
      lead({ location: { lat: 51.52, lon: -0.1 }, company: { name: 'Nameless Ltd' } }),
      's',
      null,
      TODAY,
    );
    expect(byPoint.doc.location).toMatchObject({ city: 'London', geo: { lat: 51.52, lon: -0.1 } });
    expect(byPoint.doc.company).toMatchObject({ id: null, name: 'Nameless Ltd', rank_key: 'nameless ltd|' });
    expect(byPoint.doc.industry).toBe(UNSPECIFIED_INDUSTRY);
    const nowhere = deriveLead(lead({ location: { text: 'Anywhere in EMEA' } }), 's', null, TODAY);
    expect(nowhere.doc.location).toMatchObject({ display: 'Anywhere in EMEA', keys: [], geo: null });
    expect(nowhere.warnings).toEqual([
      { field: 'location.text', reason: expect.stringMatching(/not a place we know/) },
    ]);
  });

  it('reads the level from a title that does not give one', () => {
    expect(levelFromTitle('VP of Engineering')).toBe('Executive');
    expect(levelFromTitle('Graduate Software Engineer')).toBe('Entry');
    expect(levelFromTitle('Principal Engineer')).toBe('Lead');
    expect(levelFromTitle('Sr. Frontend Developer')).toBe('Senior');
    expect(levelFromTitle('Backend Developer')).toBe('Mid');
  });
});

describe('the feed JSON Schema', () => {
  it('is what npm run feed:schema writes from the zod schemas', () => {
    for (const file of feedSchemaFiles()) {
      expect(
        readFileSync(new URL(`../../${file.path}`, import.meta.url), 'utf8'),
        `${file.path}: run npm run feed:schema`,
      ).toBe(file.text);
    }
  });
});
