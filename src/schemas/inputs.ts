import { z } from 'zod';
import {
  COMPANY_SIZE_BANDS,
  CURRENCIES,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  INSIGHT_BREAKDOWN_BY,
  INSIGHT_GROUP_BY,
  INSIGHT_METRICS,
  RADIUS_KM,
  SIGNAL_CATEGORIES,
  SIGNAL_COUNTRIES,
  SIGNAL_POLARITIES,
  WORK_TYPES,
} from '../domain/enums.js';
import { listInWords } from '../domain/words.js';

/**
 * The tools' input schemas (their `inputSchema`), and the argument types the query builders take. Every description is written for
 * the assistant that fills the arguments in: what the value means and where valid values
 * come from. All input objects are strict, so a misspelt parameter is an error naming it
 * instead of a silently ignored filter.
 */

const MAX_PAGE_SIZE = 25;
const MAX_SKILLS = 10;

/**
 * No cursor this server issues comes near this length: the payload holds a tool name, a
 * 22-character fingerprint, two sort values and a count (about 200 characters once encoded and
 * signed). A longer one is refused before it is decoded or its signature computed.
 */
export const MAX_CURSOR_LENGTH = 512;

function wholeNumberBetween(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

function text(maxLength: number) {
  return z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(maxLength, { error: `must be at most ${maxLength} characters` });
}

function prefixedId(prefix: string, what: string, source: string) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{10}$`), {
    error: `must be a ${what} id such as "${prefix}_7Hq2xK9pLm", used exactly as ${source} returned it`,
  });
}

export const leadIdParam = prefixedId('ld', 'lead', 'search_leads or get_company').describe(
  'Lead id exactly as returned by search_leads (or in recent_leads of get_company), e.g. "ld_7Hq2xK9pLm".',
);

const companyIdParam = prefixedId('co', 'company', 'search_companies or search_leads').describe(
  'Company id exactly as returned by search_companies, or in the company of a lead card, e.g. "co_3Fk9Qw2ZrT".',
);

const pageSizeParam = wholeNumberBetween(1, MAX_PAGE_SIZE)
  .default(10)
  .describe(`Results per page, 1 to ${MAX_PAGE_SIZE} (default 10). May change from page to page.`);

const cursorParam = z
  .string()
  .min(1, { error: 'must not be empty; leave it out for the first page' })
  .max(MAX_CURSOR_LENGTH, { error: 'is too long to be a cursor this server issued' })
  .describe(
    'next_cursor from the previous page of this same search, sent with exactly the same other arguments. Leave out for the first page.',
  );

const experienceLevelParam = z
  .enum(EXPERIENCE_LEVELS)
  .describe(`Seniority of the role: ${EXPERIENCE_LEVELS.join(', ')} (also listed by get_filter_options).`);

const workTypeParam = z
  .enum(WORK_TYPES)
  .describe(`Where the work happens: ${WORK_TYPES.join(', ')} (also listed by get_filter_options).`);

const employmentTypeParam = z
  .enum(EMPLOYMENT_TYPES)
  .describe(`Kind of contract: ${EMPLOYMENT_TYPES.join(', ')} (also listed by get_filter_options).`);

const companySizeParam = z
  .enum(COMPANY_SIZE_BANDS)
  .describe(
    `Company size band: ${COMPANY_SIZE_BANDS.join(', ')}. get_filter_options explains each band in company_size_bands.`,
  );

const currencyParam = z.enum(CURRENCIES).default('GBP');
const currencyChoices = `${listInWords(CURRENCIES, 'or')} (default GBP)`;

const skillsParam = z
  .array(text(60))
  .max(MAX_SKILLS, { error: `can hold at most ${MAX_SKILLS} skills` })
  .describe(
    `Up to ${MAX_SKILLS} hard skills, e.g. ["Python", "Kubernetes"]. Matches roles needing ANY of them, by name ignoring case, accents, punctuation, plurals and versions ("Python 3"), by a common other name ("k8s", "postgres", "JS", "golang", "AWS Lambda"), by each name of "Kubernetes (k8s)", "GCP/BigQuery" or "Python and Django", without words like "experience" or "certified" around it, or as the skills of a field ("ML", "cloud", "frontend"); notes say how a name was read.`,
  );

const postedWithinDaysParam = wholeNumberBetween(1, 365).describe(
  'Only roles posted on or after today (UTC) minus this many days, 1 to 365.',
);

const radiusKmParam = wholeNumberBetween(RADIUS_KM.min, RADIUS_KM.max).describe(
  `Radius in km around the city named in location, ${RADIUS_KM.min} to ${RADIUS_KM.max}. Needs location to be a city (not a region or country).`,
);

const locationParam = text(100).describe(
  'Any city, region or country of the world: name or ISO code, any case, with common aliases ("London", "Bavaria", "UK", "DE", "München", "German"); a group of countries or an area ("Europe", "EMEA", "DACH", "Nordics", "Bay Area", "Thames Valley", an English county such as "Surrey"); or a work arrangement, alone or with a place ("remote", "Remote UK", "Berlin (hybrid)"), read as work_type. A name several places share means the most populous; qualify it with a country or region ("London, CA", "Cambridge, US", "Portland, OR"). Several places may be named together ("London or Manchester", "Germany and Austria"), and a place "or remote" ("Dublin or remote": roles there, or remote roles anywhere); a distance typed with a city is read as radius_km ("within 30 km of Berlin"). A misspelt name is read as the closest place and notes say so; an unrecognised place gives no results and a note.',
);

const industryParam = text(100).describe(
  'Industry name ignoring case, accents and punctuation, e.g. "Fintech", or a common other name ("telecoms", "healthcare"); several joined by "or" or commas are any of them ("fintech or banking"), and by "and" too when no industry has the whole name ("banking and finance"). get_filter_options lists the most common ones in top_industries.',
);

const includeAgenciesParam = z
  .boolean({ error: 'must be true or false' })
  .default(false)
  .describe('Include roles posted by recruitment agencies. Default false: agencies are left out.');

/** The lead filters shared by `search_leads` and `get_market_insights.filters`. */
const leadFilterShape = {
  title: text(200)
    .optional()
    .describe(
      'Job title words, each in the title in any order and case, e.g. "backend engineer". Plurals, hyphens and common abbreviations are understood ("ML engineers", "front-end dev", "CTO", "Sr."/"Jr."); beside a specialty, engineer and developer are read alike; "A/B" and "A or B" mean either; "jobs", "roles" and "positions" are ignored; an employer\'s level numbers ("Software Engineer II") are left out: use experience_level; a word after "-" or NOT is excluded ("senior -lead python"). When nothing matches as typed, the title is read with close spellings, with a word no title has as a skill ("javascript developer") or as the industry ("fintech developer"), with the place or "(Remote)" of a job-board title as filters, without "software" beside a specialty ("Software Engineer, Backend"), and without a field beside a language of its roles ("python backend": Python Developers). notes say how the title was read, and, when nothing is found, what leaving out each word would find.',
    ),
  location: locationParam.optional(),
  radius_km: radiusKmParam.optional(),
  skills: skillsParam.optional(),
  experience_level: experienceLevelParam.optional(),
  work_type: workTypeParam.optional(),
  employment_type: employmentTypeParam.optional(),
  industry: industryParam.optional(),
  company_id: companyIdParam
    .optional()
    .describe('Only roles at this company (id as returned by search_companies).'),
  company_size: companySizeParam.optional(),
  posted_within_days: postedWithinDaysParam.optional(),
  include_recruitment_agencies: includeAgenciesParam,
};

const leadFilterObject = z.strictObject(leadFilterShape);
export type LeadFilters = z.infer<typeof leadFilterObject>;

const annualSalaryBound = (which: 'min' | 'max') =>
  z
    .int({ error: 'must be a whole number of currency units per year, e.g. 60000' })
    .min(0, { error: 'must be 0 or more' })
    .max(10_000_000, { error: 'must be at most 10000000' })
    .describe(
      which === 'min'
        ? 'Lowest acceptable annual salary in salary_currency. Matches roles whose annual range reaches it; roles without a salary are left out.'
        : 'Highest annual salary in salary_currency. Matches roles whose annual range starts at or below it; roles without a salary are left out.',
    );

function salaryBoundsInOrder(value: { min_annual_salary?: number; max_annual_salary?: number }): boolean {
  return (
    value.min_annual_salary === undefined ||
    value.max_annual_salary === undefined ||
    value.min_annual_salary <= value.max_annual_salary
  );
}

export const searchLeadsInput = leadFilterObject
  .extend({
    min_annual_salary: annualSalaryBound('min').optional(),
    max_annual_salary: annualSalaryBound('max').optional(),
    salary_currency: currencyParam.describe(
      `Currency of min_annual_salary and max_annual_salary: ${currencyChoices}.`,
    ),
    page_size: pageSizeParam,
    cursor: cursorParam.optional(),
  })
  .refine(salaryBoundsInOrder, {
    path: ['max_annual_salary'],
    error: 'must not be below min_annual_salary',
  });
export type SearchLeadsArgs = z.infer<typeof searchLeadsInput>;

export const getLeadInput = z.strictObject({ lead_id: leadIdParam });

export const enrichLeadInput = z.strictObject({
  lead_id: leadIdParam.describe(
    'Lead id exactly as returned by search_leads or get_lead. The role must still be open. Costs 1 credit unless already unlocked.',
  ),
});

export const searchCompaniesInput = z.strictObject({
  name: text(100)
    .optional()
    .describe(
      'Part of the company name, any case, e.g. "bank" finds "Monzo Bank". When no name contains it, it is read without a legal form or web address around it ("Ltd", "GmbH", "www.x.com"), then by close spellings unless some company has that name, and notes say so.',
    ),
  industry: industryParam.optional(),
  location: locationParam
    .optional()
    .describe(
      'Count only roles in this city, region or country (name or ISO code, common aliases accepted).',
    ),
  skills: skillsParam
    .optional()
    .describe(
      `Count only roles needing any of these hard skills (up to ${MAX_SKILLS}), read as in search_leads: names ignoring case and punctuation, or common other names ("k8s").`,
    ),
  hiring_for_title: text(200)
    .optional()
    .describe(
      'Count only roles whose title has all these words, read as the title of search_leads (plurals, abbreviations, close spellings), e.g. "data engineer".',
    ),
  company_size: companySizeParam.optional(),
  min_open_roles: wholeNumberBetween(1, 1000)
    .default(1)
    .describe('Only companies with at least this many matching open roles, 1 to 1000 (default 1).'),
  posted_within_days: postedWithinDaysParam
    .optional()
    .describe('Count only roles posted on or after today (UTC) minus this many days, 1 to 365.'),
  include_recruitment_agencies: includeAgenciesParam.describe(
    'Include recruitment agencies and their roles. Default false.',
  ),
  page_size: pageSizeParam,
  cursor: cursorParam.optional(),
});
export type SearchCompaniesArgs = z.infer<typeof searchCompaniesInput>;

export const getCompanyInput = z.strictObject({ company_id: companyIdParam });

export const searchSignalsInput = z.strictObject({
  countries: z
    .array(z.enum(SIGNAL_COUNTRIES))
    .max(SIGNAL_COUNTRIES.length, { error: `can hold at most ${SIGNAL_COUNTRIES.length} countries` })
    .optional()
    .describe(
      `ISO country codes of the news: any of ${SIGNAL_COUNTRIES.join(', ')} (names in get_filter_options signal_countries).`,
    ),
  categories: z
    .array(z.enum(SIGNAL_CATEGORIES))
    .max(SIGNAL_CATEGORIES.length, { error: `can hold at most ${SIGNAL_CATEGORIES.length} categories` })
    .optional()
    .describe(`Kinds of news, any of: ${SIGNAL_CATEGORIES.join(', ')}.`),
  polarity: z
    .enum(SIGNAL_POLARITIES)
    .optional()
    .describe(`Whether the news is good or bad for hiring: ${SIGNAL_POLARITIES.join(', ')}.`),
  company_id: companyIdParam
    .optional()
    .describe('Only signals of this company (id as returned by search_companies).'),
  company_name: text(100)
    .optional()
    .describe(
      'Part of the company name, any case. When no name contains it, it is read without a legal form or web address around it ("Ltd", "GmbH", "www.x.com"), then by close spellings unless some company has that name, and notes say so.',
    ),
  company_size: companySizeParam.optional(),
  announced_within_days: wholeNumberBetween(1, 365)
    .optional()
    .describe('Only news announced on or after today (UTC) minus this many days, 1 to 365.'),
  page_size: pageSizeParam,
  cursor: cursorParam.optional(),
});
export type SearchSignalsArgs = z.infer<typeof searchSignalsInput>;

export const marketInsightsInput = z
  .strictObject({
    group_by: z
      .enum(INSIGHT_GROUP_BY)
      .describe(
        'Dimension to group open roles by. posted_week and posted_month give a trend over time (oldest period first, with change_percent).',
      ),
    metric: z
      .enum(INSIGHT_METRICS)
      .default('count')
      .describe(
        'count (default): roles per group. salary: adds annual salary figures (min, p25, median, p75, max, mean) per group in currency.',
      ),
    breakdown_by: z
      .enum(INSIGHT_BREAKDOWN_BY)
      .optional()
      .describe('Optional second dimension: splits each group by it. Must differ from group_by.'),
    currency: currencyParam.describe(`Currency of the salary figures: ${currencyChoices}.`),
    limit: wholeNumberBetween(1, 50)
      .default(10)
      .describe('Maximum number of groups (or most recent periods), 1 to 50 (default 10).'),
    filters: leadFilterObject
      .default({ include_recruitment_agencies: false })
      .describe(
        'Which open roles to count; the same filters and meanings as search_leads (no salary bounds).',
      ),
  })
  .refine((value) => value.breakdown_by === undefined || value.breakdown_by !== value.group_by, {
    path: ['breakdown_by'],
    error: 'must differ from group_by',
  });
export type MarketInsightsArgs = z.infer<typeof marketInsightsInput>;

export const noArgumentsInput = z.strictObject({});
