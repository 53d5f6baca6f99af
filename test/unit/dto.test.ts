import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CompanyDoc, LeadDoc, SignalDoc } from '../../src/domain/documents.js';
import {
  filterOptionsOutput,
  getCompanyOutput,
  getLeadOutput,
  searchCompaniesOutput,
  searchLeadsOutput,
  searchSignalsOutput,
} from '../../src/schemas/outputs.js';
import { readCompanyHiring } from '../../src/search/company-profile-query.js';
import {
  leadPreviewNotes,
  toCompanyListItem,
  toCompanyProfile,
  toLeadCard,
  toLeadPreview,
  toRecentSignal,
  toSignal,
} from '../../src/search/dto.js';
import { filterOptions } from '../../src/search/filter-options.js';
import { LEAD_CARD_FIELDS } from '../../src/search/lead-query.js';
import { RECENT_SIGNAL_FIELDS, SIGNAL_FIELDS } from '../../src/search/signal-query.js';

const quota = { used: 3, limit: null, remaining: null, resets_at: '2026-11-19T00:00:00.000Z' };

const lead: LeadDoc = {
  id: 'ld_7Hq2xK9pLm',
  seq: 42,
  source: 'test',
  source_id: 'backend-1',
  fingerprint: 'f',
  title: 'Senior Backend Engineer',
  title_key: 'senior backend engineer',
  title_terms: 'senior backend engineer',
  title_family: 'backend',
  is_open: true,
  posted_date: '2026-11-10',
  expires_at: null,
  location: {
    display: 'Munich, Bavaria, Germany',
    city: 'Munich',
    region: 'Bavaria',
    country_code: 'DE',
    country_name: 'Germany',
    keys: ['city:2867714', 'region:de.02', 'country:de'],
    geo: { lat: 48.14, lon: 11.58 },
  },
  company: {
    id: 'co_3Fk9Qw2ZrT',
    name: 'Acme',
    name_key: 'acme',
    rank_key: 'acme|co_3Fk9Qw2ZrT',
    logo_url: 'https://logo.example/acme.png',
    size_band: 'scale_up',
    is_agency: false,
  },
  industry: 'Fintech',
  industry_key: 'fintech',
  work_type: 'Hybrid',
  employment_type: 'Full-time',
  experience_level: 'Senior',
  skills: ['Go', 'Kubernetes'],
  skills_key: ['go', 'kubernetes'],
  soft_skills: ['Communication'],
  salary: { min: 70000, max: 85000, currency: 'EUR', period: 'year', display: '€70,000–€85,000 a year' },
  salary_annual: {
    gbp_min: 60000,
    gbp_max: 73000,
    gbp_mid: 66500,
    eur_min: 70000,
    eur_max: 85000,
    eur_mid: 77500,
    usd_min: 76000,
    usd_max: 92000,
    usd_mid: 84000,
  },
  estimated_fee: { min: 14000, max: 17000, currency: 'EUR', rate_percent: 20 },
  summary: 'Build payment services.',
  about_company: 'Acme moves money.',
  other_locations: [{ lead_id: 'ld_8Hq2xK9pLm', location: 'Berlin, Germany' }],
  details: {
    job_links: ['https://jobs.example/1'],
    experience_years: { min: 5, max: null },
    industry: 'Fintech',
    applicants: 31,
    job_tags: ['payments'],
    company_tags: ['series-b'],
    company: {
      website_url: 'https://acme.example',
      size: '51-200',
      size_band: 'scale_up',
      is_blue_chip: false,
      social_links: [{ network: 'linkedin', url: 'https://linkedin.example/acme' }],
    },
  },
};

const company: CompanyDoc = {
  id: 'co_3Fk9Qw2ZrT',
  seq: 7,
  key: 'acme',
  source: 'test',
  fingerprint: 'f',
  tags: [],
  name: 'Acme',
  name_key: 'acme',
  logo_url: null,
  website_url: 'https://acme.example',
  industry: 'Fintech',
  industry_key: 'fintech',
  sector: 'Financial Services',
  size: '51-200',
  size_band: 'scale_up',
  headquarters: { ...lead.location },
  location: 'Munich, Germany',
  founded: 2015,
  about: 'Acme moves money.',
  specialties: ['payments'],
  is_blue_chip: false,
  is_agency: false,
  office_locations: ['Munich, Germany', 'Berlin, Germany'],
  social_links: [],
};

const signal: SignalDoc = {
  id: 'sg_1Ab2Cd3Ef4',
  seq: 3,
  source: 'test',
  source_id: 'news-1',
  fingerprint: 'f',
  company: { id: 'co_3Fk9Qw2ZrT', name: 'Acme', name_key: 'acme', logo_url: null, size_band: 'scale_up' },
  category: 'funding',
  polarity: 'positive',
  title: 'Acme raises €30m',
  summary: 'Series B.',
  url: 'https://news.example/acme',
  country: 'DE',
  announced_on: '2026-11-01',
};

describe('lead cards and previews', () => {
  it('hold exactly the documented fields', () => {
    const card = toLeadCard(lead, false);
    expect(Object.keys(card)).toEqual([
      'id',
      'title',
      'location',
      'posted_date',
      'company',
      'work_type',
      'employment_type',
      'experience_level',
      'salary',
      'estimated_fee',
      'skills',
      'enriched',
    ]);
    expect(card.location).toBe('Munich, Bavaria, Germany');
    expect(card.company).toEqual({
      id: 'co_3Fk9Qw2ZrT',
      name: 'Acme',
      logo_url: 'https://logo.example/acme.png',
    });
    expect(JSON.stringify(card)).not.toMatch(/seq|_key|salary_annual|is_agency/);
  });

  it('give null salary and fee when the posting has none', () => {
    const card = toLeadCard(
      { ...lead, salary: null, estimated_fee: null, company: { ...lead.company, id: null } },
      true,
    );
    expect(card).toMatchObject({ salary: null, estimated_fee: null, enriched: true, company: { id: null } });
    expect(
      searchLeadsOutput.parse({ total: 1, returned: 1, leads: [card], next_cursor: null, quota, notes: [] }),
    ).toBeTruthy();
  });

  it('validate against the search_leads output schema', () => {
    const result = {
      total: 1,
      returned: 1,
      leads: [toLeadCard(lead, false)],
      next_cursor: 'abc.def',
      quota,
      notes: [],
    };
    expect(searchLeadsOutput.parse(result)).toEqual(result);
  });

  it('show details and cost 0 only once unlocked', () => {
    const locked = toLeadPreview(lead, false);
    expect(locked).toMatchObject({
      enriched: false,
      enrichment_cost_credits: 1,
      details: null,
      is_open: true,
    });
    const unlocked = toLeadPreview(lead, true);
    expect(unlocked.enrichment_cost_credits).toBe(0);
    expect(unlocked.details).toEqual(lead.details);
    expect(unlocked.other_locations).toEqual([{ lead_id: 'ld_8Hq2xK9pLm', location: 'Berlin, Germany' }]);
    for (const preview of [locked, unlocked]) {
      expect(getLeadOutput.parse({ lead: preview, quota, notes: [] })).toBeTruthy();
    }
  });

  it('note a closed role, and whether it can still be unlocked', () => {
    expect(leadPreviewNotes(lead, false)).toEqual([]);
    expect(leadPreviewNotes({ is_open: false }, false)[0]).toMatch(/closed.*can no longer/);
    expect(leadPreviewNotes({ is_open: false }, true)[0]).toMatch(/closed.*stay available/);
  });
});

describe('companies', () => {
  it('list items validate against the search_companies output schema', () => {
    const item = toCompanyListItem(company, 12);
    expect(item).toEqual({
      id: 'co_3Fk9Qw2ZrT',
      name: 'Acme',
      logo_url: null,
      website_url: 'https://acme.example',
      industry: 'Fintech',
      sector: 'Financial Services',
      size: '51-200',
      size_band: 'scale_up',
      location: 'Munich, Germany',
      open_roles: 12,
    });
    expect(
      searchCompaniesOutput.parse({
        total: 1,
        returned: 1,
        companies: [item],
        next_cursor: null,
        quota,
        notes: [],
      }),
    ).toBeTruthy();
  });

  it('profiles combine the company, the hiring summary, cards and signals', () => {
    const hiring = readCompanyHiring({
      hits: { total: { value: 1 }, hits: [{ _source: lead }] },
      aggregations: { open: { top_titles: { buckets: [{ key: lead.title, doc_count: 1 }] } } },
    });
    const profile = toCompanyProfile(company, hiring, new Set([lead.id]), [signal]);
    expect(profile).toMatchObject({
      headquarters: 'Munich, Bavaria, Germany',
      open_roles: 1,
      top_titles: [{ label: 'Senior Backend Engineer', count: 1 }],
      posted_last_7_days: 0,
      recent_leads: [{ id: lead.id, enriched: true }],
      recent_signals: [
        {
          id: 'sg_1Ab2Cd3Ef4',
          category: 'funding',
          polarity: 'positive',
          title: 'Acme raises €30m',
          announced_on: '2026-11-01',
          url: 'https://news.example/acme',
        },
      ],
    });
    expect(Object.keys(profile.recent_signals[0] ?? {})).toHaveLength(6);
    expect(getCompanyOutput.parse({ company: profile, quota })).toBeTruthy();
  });
});

describe('signals and filter options', () => {
  it('signals validate against the search_signals output schema', () => {
    const shaped = toSignal(signal);
    expect(shaped.company).toEqual({ id: 'co_3Fk9Qw2ZrT', name: 'Acme', logo_url: null });
    expect(
      searchSignalsOutput.parse({ returned: 1, signals: [shaped], next_cursor: null, notes: [] }),
    ).toBeTruthy();
  });

  it('filter options list the enumerations exactly and validate', () => {
    const options = filterOptions([{ label: 'Fintech', count: 120 }]);
    expect(options.work_types).toEqual(['Remote', 'Hybrid', 'On-site']);
    expect(options.company_size_bands.scale_up).toMatch(/Scale-up/);
    expect(options.signal_countries).toEqual({
      GB: 'United Kingdom',
      IE: 'Ireland',
      DE: 'Germany',
      AT: 'Austria',
      CH: 'Switzerland',
      PL: 'Poland',
      RO: 'Romania',
      BG: 'Bulgaria',
    });
    expect(options.insight_group_by).toHaveLength(11);
    expect(options.insight_breakdown_by).toEqual([
      'experience_level',
      'work_type',
      'employment_type',
      'country',
    ]);
    expect(filterOptionsOutput.parse(options)).toBeTruthy();
  });
});

/** What Elasticsearch returns as `_source` when asked for `includes: paths` (dotted paths). */
function sourceWith<Doc extends object>(doc: Doc, paths: readonly string[]): Doc {
  type Fields = Record<string, unknown>;
  const kept: Fields = {};
  for (const path of paths) {
    const names = path.split('.');
    const field = names.pop() ?? '';
    let from = doc as Fields | undefined;
    let to = kept;
    for (const name of names) {
      from = from?.[name] as Fields | undefined;
      to[name] ??= {};
      to = to[name] as Fields;
    }
    if (from && field in from) to[field] = from[field];
  }
  return kept as Doc;
}

describe('the _source fields a search fetches', () => {
  it('are enough for a full lead card', () => {
    const fetched = sourceWith(lead, LEAD_CARD_FIELDS);
    expect(toLeadCard(fetched, false)).toStrictEqual(toLeadCard(lead, false));
    expect(fetched).not.toHaveProperty('details');
  });

  it('are enough for a full signal, and for a company profile’s recent signal', () => {
    expect(toSignal(sourceWith(signal, SIGNAL_FIELDS))).toStrictEqual(toSignal(signal));
    expect(toRecentSignal(sourceWith(signal, RECENT_SIGNAL_FIELDS))).toStrictEqual(toRecentSignal(signal));
  });
});

describe('output schemas', () => {
  it('allow fields added later and emit JSON Schema', () => {
    expect(
      searchSignalsOutput.parse({ returned: 0, signals: [], next_cursor: null, notes: [], extra: 1 }),
    ).toBeTruthy();
    const schema = z.toJSONSchema(getLeadOutput, { io: 'output' });
    expect(JSON.stringify(schema.properties?.lead)).toContain('"enrichment_cost_credits"');
  });
});
