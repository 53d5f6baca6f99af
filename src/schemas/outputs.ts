import { z } from 'zod';
import {
  COMPANY_SIZE_BANDS,
  CURRENCIES,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  INSIGHT_BREAKDOWN_BY,
  INSIGHT_GROUP_BY,
  INSIGHT_METRICS,
  SALARY_PERIODS,
  SIGNAL_CATEGORIES,
  SIGNAL_POLARITIES,
  WORK_TYPES,
} from '../domain/enums.js';
import { listInWords } from '../domain/words.js';
import { PLAN_NAMES, QUOTA_KEYS, SUBSCRIPTION_STATUSES } from '../plans.js';

/**
 * The tools' output schemas (their `outputSchema`). A handler's result has its schema's type, and
 * the tests hold every result they see to it exactly; nothing parses results at run time
 * (docs/performance.md, "Validation and serialisation"). Objects are loose (`additionalProperties`
 * allowed): MCP clients validate `structuredContent` against these, and a field added later must
 * not break a client that cached an older schema.
 */

const object = z.looseObject;
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const count = z.int().min(0);
const notes = z.array(z.string()).describe('What the assistant should know about this result.');
const nextCursor = z
  .string()
  .nullable()
  .describe('Pass back as cursor, with the same other arguments, for the next page; null on the last page.');

const quotaSchema = object({
  used: count,
  limit: count.nullable().describe('null means unlimited'),
  remaining: count.nullable().describe('null means unlimited'),
  resets_at: z.string().describe('ISO 8601 UTC time the quota resets'),
});

const salarySchema = object({
  min: z.number(),
  max: z.number(),
  currency: z.enum(CURRENCIES),
  period: z.enum(SALARY_PERIODS),
  display: z.string(),
});

const estimatedFeeSchema = object({
  min: z.number(),
  max: z.number(),
  currency: z.enum(CURRENCIES),
  rate_percent: z.number(),
});

const leadCardSchema = object({
  id: z.string(),
  title: z.string(),
  location: z.string(),
  posted_date: date,
  company: object({
    id: z.string().nullable().describe('null when the company has no profile yet'),
    name: z.string(),
    logo_url: z.string().nullable(),
  }),
  work_type: z.enum(WORK_TYPES),
  employment_type: z.enum(EMPLOYMENT_TYPES),
  experience_level: z.enum(EXPERIENCE_LEVELS),
  salary: salarySchema.nullable(),
  estimated_fee: estimatedFeeSchema.nullable(),
  skills: z.array(z.string()),
  enriched: z.boolean(),
});

const leadDetailsSchema = object({
  job_links: z.array(z.string()),
  experience_years: object({ min: z.number(), max: z.number().nullable() }),
  industry: z.string(),
  applicants: count,
  job_tags: z.array(z.string()),
  company_tags: z.array(z.string()),
  company: object({
    website_url: z.string().nullable(),
    size: z.string().nullable(),
    size_band: z.enum(COMPANY_SIZE_BANDS).nullable(),
    is_blue_chip: z.boolean(),
    social_links: z.array(object({ network: z.string(), url: z.string() })),
  }),
});

const leadPreviewSchema = leadCardSchema.extend({
  is_open: z.boolean(),
  summary: z.string(),
  soft_skills: z.array(z.string()),
  about_company: z.string(),
  other_locations: z.array(object({ lead_id: z.string(), location: z.string() })),
  enrichment_cost_credits: z.union([z.literal(0), z.literal(1)]),
  details: leadDetailsSchema.nullable(),
});

const companyBaseShape = {
  id: z.string(),
  name: z.string(),
  logo_url: z.string().nullable(),
  website_url: z.string().nullable(),
  industry: z.string(),
  sector: z.string(),
  size: z.string(),
  size_band: z.enum(COMPANY_SIZE_BANDS),
};

const labelCount = object({ label: z.string(), count });

const companyListItemSchema = object({
  ...companyBaseShape,
  location: z.string(),
  open_roles: count.describe('Open roles matching the role filters'),
});

const companyProfileSchema = object({
  ...companyBaseShape,
  headquarters: z.string(),
  founded: z.int(),
  about: z.string(),
  specialties: z.array(z.string()),
  is_blue_chip: z.boolean(),
  office_locations: z.array(z.string()),
  open_roles: count,
  open_roles_by_experience_level: z.array(labelCount),
  open_roles_by_work_type: z.array(labelCount),
  top_titles: z.array(labelCount),
  top_skills: z.array(labelCount),
  top_locations: z.array(labelCount),
  posted_last_7_days: count.describe(
    'Roles posted today and in the 6 days before (UTC), open or closed since',
  ),
  posted_previous_7_days: count.describe('Roles posted in the 7 days before those'),
  recent_leads: z.array(leadCardSchema),
  recent_signals: z.array(
    object({
      id: z.string(),
      category: z.enum(SIGNAL_CATEGORIES),
      polarity: z.enum(SIGNAL_POLARITIES),
      title: z.string(),
      announced_on: date,
      url: z.string(),
    }),
  ),
});

const signalSchema = object({
  id: z.string(),
  company: object({ id: z.string(), name: z.string(), logo_url: z.string().nullable() }),
  category: z.enum(SIGNAL_CATEGORIES),
  polarity: z.enum(SIGNAL_POLARITIES),
  title: z.string(),
  summary: z.string(),
  url: z.string(),
  country: z.string(),
  announced_on: date,
});

export const searchLeadsOutput = object({
  total: count.describe('Open roles matching the filters (exact)'),
  returned: count,
  leads: z.array(leadCardSchema),
  next_cursor: nextCursor,
  quota: quotaSchema,
  notes,
});

export const getLeadOutput = object({ lead: leadPreviewSchema, quota: quotaSchema, notes });

export const searchCompaniesOutput = object({
  total: count.describe('Companies with at least min_open_roles matching open roles'),
  returned: count,
  companies: z.array(companyListItemSchema),
  next_cursor: nextCursor,
  quota: quotaSchema,
  notes,
});

export const getCompanyOutput = object({ company: companyProfileSchema, quota: quotaSchema });

export const searchSignalsOutput = object({
  returned: count,
  signals: z.array(signalSchema),
  next_cursor: nextCursor,
  notes,
});

const shareSchema = {
  key: z.string(),
  label: z.string(),
  count,
  share_percent: z
    .number()
    .describe('count over the total (for breakdown entries: over the row) x 100, one decimal'),
};

export const marketInsightsOutput = object({
  group_by: z.enum(INSIGHT_GROUP_BY),
  breakdown_by: z.enum(INSIGHT_BREAKDOWN_BY).nullable(),
  metric: z.enum(INSIGHT_METRICS),
  currency: z.enum(CURRENCIES),
  total: count.describe('Open roles matching the filters'),
  returned: count,
  rows: z.array(
    object({
      ...shareSchema,
      salary: object({
        currency: z.enum(CURRENCIES),
        sample_size: count,
        min: z.number().nullable(),
        p25: z.number().nullable(),
        median: z.number().nullable(),
        p75: z.number().nullable(),
        max: z.number().nullable(),
        mean: z.number().nullable(),
      }).optional(),
      breakdown: z.array(object(shareSchema)).optional(),
      change_percent: z
        .number()
        .nullable()
        .optional()
        .describe('Change against the previous period, one decimal'),
    }),
  ),
  other_count: count.describe('Roles in groups beyond limit (or in earlier periods)'),
  quota: quotaSchema,
  notes,
});

export const filterOptionsOutput = object({
  experience_levels: z.array(z.string()),
  work_types: z.array(z.string()),
  employment_types: z.array(z.string()),
  company_size_bands: z.record(z.string(), z.string()).describe('value to label'),
  salary_currencies: z.array(z.string()),
  signal_categories: z.array(z.string()),
  signal_polarities: z.array(z.string()),
  signal_countries: z.record(z.string(), z.string()).describe('ISO code to country name'),
  insight_group_by: z.array(z.string()),
  insight_breakdown_by: z.array(z.string()),
  top_industries: z
    .array(labelCount)
    .describe('Most common industries among open roles; pass label as the industry filter'),
  text_filters: z
    .record(z.string(), z.string())
    .describe('What the free-text filters understand: filter name to explanation'),
});

export const enrichLeadOutput = object({
  lead: leadPreviewSchema.describe('The lead preview with details filled in'),
  already_enriched: z
    .boolean()
    .describe(
      'true when the account had unlocked this lead before (here or in the app): nothing was charged',
    ),
  charged_credits: z.int().min(0).max(1).describe('Credits this call charged: 1, or 0 when already unlocked'),
  credits: z.int().min(0).describe('Enrichment credits left this month'),
  quota: quotaSchema.describe("Today's enrichments quota after this call"),
  notes,
});

export const accountUsageOutput = object({
  plan: z.string().describe(listInWords(PLAN_NAMES, 'or')),
  subscription_status: z.string().describe(listInWords(SUBSCRIPTION_STATUSES, 'or')),
  credential: object({
    type: z.enum(['api_key', 'oauth']),
    scopes: z.array(z.string()).describe('Scopes of the credential in use'),
  }),
  enrichment_credits: object({
    remaining: z.int().min(0),
    monthly_allowance: z.int().min(0),
    resets_at: z.string().describe('ISO 8601 UTC time the credits renew to the monthly allowance'),
  }),
  daily_quotas: object(Object.fromEntries(QUOTA_KEYS.map((key) => [key, quotaSchema]))),
  calls_per_minute: z.int().min(1).describe('Tool calls this account may make per minute'),
  notes: z.array(z.string()).describe('Why access is refused, what is nearly used up.'),
});
