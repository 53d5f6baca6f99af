/**
 * One example call and result per tool, for docs/tools.md. Written out by hand so the reference
 * stays deterministic; test/unit/tools-reference.test.ts parses every example with its tool's input
 * and output schemas and refuses fields the schemas do not declare, so the examples cannot drift
 * from the tools.
 */

import { SCOPES } from '../../src/auth/scopes.js';
import { filterOptions } from '../../src/search/filter-options.js';

export interface ToolExample {
  arguments: Record<string, unknown>;
  /** The result's `structuredContent`. */
  result: Record<string, unknown>;
}

const RESETS_TOMORROW = '2026-11-02T00:00:00.000Z';
const LEAD_ID = 'ld_7Hq2xK9pLm';
const COMPANY_ID = 'co_3Fk9Qw2ZrT';
const COMPANY_LOGO = `https://img.hiring-leads.example/logos/${COMPANY_ID}.png`;
const COMPANY_WEBSITE = 'https://www.isarflow.example';

function dailyQuota(used: number, limit: number) {
  return { used, limit, remaining: limit - used, resets_at: RESETS_TOMORROW };
}

/** What a company's search card and its profile both show first. */
const companyBasics = {
  id: COMPANY_ID,
  name: 'Isarflow Payments',
  logo_url: COMPANY_LOGO,
  website_url: COMPANY_WEBSITE,
  industry: 'Fintech',
  sector: 'Financial Services',
  size: '201-500',
  size_band: 'medium',
};

const leadCard = {
  id: LEAD_ID,
  title: 'Senior Backend Engineer',
  location: 'Munich, Bavaria, Germany',
  posted_date: '2026-10-29',
  company: { id: COMPANY_ID, name: 'Isarflow Payments', logo_url: COMPANY_LOGO },
  work_type: 'Hybrid',
  employment_type: 'Full-time',
  experience_level: 'Senior',
  salary: { min: 85000, max: 100000, currency: 'EUR', period: 'year', display: '€85,000–€100,000 a year' },
  estimated_fee: { min: 17000, max: 20000, currency: 'EUR', rate_percent: 20 },
  skills: ['Go', 'Kubernetes', 'PostgreSQL', 'gRPC'],
  enriched: false,
};

const leadPreview = {
  ...leadCard,
  is_open: true,
  summary:
    'Isarflow Payments is hiring a Senior Backend Engineer in Munich (hybrid). You will design and run the services that settle card payments, working with Go, Kubernetes and PostgreSQL.',
  soft_skills: ['Communication', 'Mentoring'],
  about_company:
    'Isarflow Payments is a mid-sized fintech founded in 2016 in Munich, building payment infrastructure for European merchants.',
  other_locations: [{ lead_id: 'ld_9Tz4Lm2QaX', location: 'Berlin, Germany' }],
  enrichment_cost_credits: 1,
  details: null,
};

const filterOptionsExample = filterOptions([
  { label: 'Software', count: 2841 },
  { label: 'Fintech', count: 1630 },
  { label: 'E-commerce', count: 1187 },
]);

/** A `{label, count}` list, most common first, from `[label, count]` pairs. */
function labelCounts(...pairs: Array<[label: string, count: number]>) {
  return pairs.map(([label, count]) => ({ label, count }));
}

/** A `get_market_insights` salary row in EUR; `quartiles` are min, p25, median, p75 and max. */
function eurSalaryRow(
  key: string,
  count: number,
  sharePercent: number,
  sampleSize: number,
  [min, p25, median, p75, max]: [number, number, number, number, number],
  mean: number,
) {
  return {
    key,
    label: key,
    count,
    share_percent: sharePercent,
    salary: { currency: 'EUR', sample_size: sampleSize, min, p25, median, p75, max, mean },
  };
}

export const TOOL_EXAMPLES: Readonly<Record<string, ToolExample>> = {
  search_leads: {
    arguments: { title: 'backend engineer', location: 'Munich', skills: ['Go'], page_size: 1 },
    result: {
      total: 14,
      returned: 1,
      leads: [leadCard],
      next_cursor: 'eyJ2IjoxLCJ0Ijoic2VhcmNoX2xlYWRzIn0.kQ2vX9',
      quota: dailyQuota(1, 2500),
      notes: [],
    },
  },
  get_lead: {
    arguments: { lead_id: LEAD_ID },
    result: { lead: leadPreview, quota: dailyQuota(2, 2500), notes: [] },
  },
  enrich_lead: {
    arguments: { lead_id: LEAD_ID },
    result: {
      lead: {
        ...leadPreview,
        enriched: true,
        enrichment_cost_credits: 0,
        details: {
          job_links: [
            'https://careers.isarflow.example/jobs/senior-backend-engineer',
            'https://www.techroles.example/jobs/senior-backend-engineer-7hq2xk9plm',
          ],
          experience_years: { min: 5, max: 8 },
          industry: 'Fintech',
          applicants: 37,
          job_tags: ['Payments', 'Visa sponsorship'],
          company_tags: ['Series B', 'Flexible hours'],
          company: {
            website_url: COMPANY_WEBSITE,
            size: '201-500',
            size_band: 'medium',
            is_blue_chip: false,
            social_links: [{ network: 'linkedin', url: 'https://www.linkedin.com/company/isarflow' }],
          },
        },
      },
      already_enriched: false,
      charged_credits: 1,
      credits: 499,
      quota: dailyQuota(1, 300),
      notes: [],
    },
  },
  search_companies: {
    arguments: { industry: 'Fintech', location: 'Germany', hiring_for_title: 'engineer', page_size: 1 },
    result: {
      total: 6,
      returned: 1,
      companies: [
        {
          ...companyBasics,
          location: 'Munich, Germany',
          open_roles: 5,
        },
      ],
      next_cursor: 'eyJ2IjoxLCJ0Ijoic2VhcmNoX2NvbXBhbmllcyJ9.Zt3mQa',
      quota: dailyQuota(1, 1000),
      notes: [],
    },
  },
  get_company: {
    arguments: { company_id: COMPANY_ID },
    result: {
      company: {
        ...companyBasics,
        headquarters: 'Munich, Bavaria, Germany',
        founded: 2016,
        about:
          'Isarflow Payments is a mid-sized fintech founded in 2016 in Munich, building payment infrastructure for European merchants.',
        specialties: ['Card acquiring', 'Open banking', 'Fraud detection'],
        is_blue_chip: false,
        office_locations: ['Munich, Germany', 'Berlin, Germany'],
        open_roles: 7,
        open_roles_by_experience_level: labelCounts(['Senior', 4], ['Mid', 3]),
        open_roles_by_work_type: labelCounts(['Hybrid', 5], ['Remote', 2]),
        top_titles: labelCounts(['Senior Backend Engineer', 2], ['Data Engineer', 2]),
        top_skills: labelCounts(['Go', 4], ['Kubernetes', 3]),
        top_locations: labelCounts(['Munich, Germany', 5], ['Berlin, Germany', 2]),
        posted_last_7_days: 2,
        posted_previous_7_days: 1,
        recent_leads: [leadCard],
        recent_signals: [
          {
            id: 'sg_5Rt8Yu1IoP',
            category: 'funding',
            polarity: 'positive',
            title: 'Isarflow Payments raises €40m Series B',
            announced_on: '2026-10-20',
            url: 'https://news.hiring-leads.example/signals/sg_5Rt8Yu1IoP',
          },
        ],
      },
      quota: dailyQuota(2, 1000),
    },
  },
  search_signals: {
    arguments: { countries: ['DE'], categories: ['funding'], announced_within_days: 30, page_size: 1 },
    result: {
      returned: 1,
      signals: [
        {
          id: 'sg_5Rt8Yu1IoP',
          company: { id: COMPANY_ID, name: 'Isarflow Payments', logo_url: COMPANY_LOGO },
          category: 'funding',
          polarity: 'positive',
          title: 'Isarflow Payments raises €40m Series B',
          summary:
            'The Munich payments company plans to double its engineering team over the next year and open an office in Berlin.',
          url: 'https://news.hiring-leads.example/signals/sg_5Rt8Yu1IoP',
          country: 'DE',
          announced_on: '2026-10-20',
        },
      ],
      next_cursor: 'eyJ2IjoxLCJ0Ijoic2VhcmNoX3NpZ25hbHMifQ.b7LpWe',
      notes: [],
    },
  },
  get_market_insights: {
    arguments: {
      group_by: 'work_type',
      metric: 'salary',
      currency: 'EUR',
      filters: { title: 'backend engineer', location: 'Germany' },
    },
    result: {
      group_by: 'work_type',
      breakdown_by: null,
      metric: 'salary',
      currency: 'EUR',
      total: 412,
      returned: 3,
      rows: [
        eurSalaryRow('Hybrid', 212, 51.5, 180, [48000, 66000, 76000, 88000, 125000], 77400),
        eurSalaryRow('Remote', 120, 29.1, 97, [52000, 70000, 80000, 92000, 130000], 81200),
        eurSalaryRow('On-site', 80, 19.4, 66, [45000, 60000, 70000, 82000, 110000], 71100),
      ],
      other_count: 0,
      quota: dailyQuota(1, 250),
      notes: [],
    },
  },
  get_account_usage: {
    arguments: {},
    result: {
      plan: 'growth',
      subscription_status: 'active',
      credential: {
        type: 'api_key',
        scopes: [...SCOPES],
      },
      enrichment_credits: { remaining: 499, monthly_allowance: 500, resets_at: '2026-12-01T00:00:00.000Z' },
      daily_quotas: {
        lead_explores: dailyQuota(2, 2500),
        company_explores: dailyQuota(2, 1000),
        insight_queries: dailyQuota(1, 250),
        enrichments: dailyQuota(1, 300),
      },
      calls_per_minute: 60,
      notes: [],
    },
  },
  get_filter_options: { arguments: {}, result: filterOptionsExample },
};
