import { z } from 'zod';
import {
  COMPANY_SIZE_BANDS,
  CURRENCIES,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  SALARY_PERIODS,
  SIGNAL_CATEGORIES,
  SIGNAL_POLARITIES,
  WORK_TYPES,
} from '../domain/enums.js';
import { isCountryCode } from '../reference/gazetteer.js';
import { compileAcceptance } from './compiled-check.js';

/**
 * The feed: what a source knows about a role, a company or a piece of company news, one JSON
 * record a line (docs/feed.md). Everything the service derives (ids, normalised keys, the place
 * and its coordinates, annual and converted salaries, the fee estimate, the company's fields on
 * its roles) is left out: `src/feed/derive.ts` computes it. The JSON Schema in
 * `docs/feed/` is generated from these schemas (`npm run feed:schema`).
 */

/** The format's version; a record of another version is refused, never guessed at. */
export const FEED_VERSION = 1;

export const LIMITS = {
  source: 100,
  sourceId: 200,
  key: 200,
  name: 200,
  title: 200,
  shortText: 300,
  longText: 10_000,
  url: 2_000,
  listItem: 100,
  skills: 50,
  tags: 30,
  links: 10,
  otherLocations: 20,
  offices: 50,
} as const;

function text(maxLength: number) {
  return z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(maxLength, {
      error: (issue) =>
        `must be at most ${maxLength} characters (got ${String((issue.input as string).length)})`,
    });
}

function list<T extends z.ZodType>(item: T, maxItems: number) {
  return z.array(item).max(maxItems, { error: `must hold at most ${maxItems} items` });
}

const url = text(LIMITS.url).regex(/^https?:\/\/\S+$/, { error: 'must be an http(s) URL' });

/** `YYYY-MM-DD`, a real calendar day. */
const day = z.iso.date({ error: 'must be a date written YYYY-MM-DD' });

const versionField = z.literal(FEED_VERSION, {
  error: `must be ${FEED_VERSION}, the feed version this service reads`,
});

const sourceField = text(LIMITS.source)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { error: 'may hold letters, digits, ".", "_", ":" and "-" only' })
  .describe('Where the record comes from, e.g. "greenhouse:acme". Optional when ingest is given --source.');

const sourceIdField = text(LIMITS.sourceId).describe(
  "The record's id at its source: with the source, it names the record for good.",
);

const companyKeyField = text(LIMITS.key).describe(
  'The key of a company record (this run or an earlier one).',
);

const locationField = z
  .strictObject({
    text: text(LIMITS.shortText)
      .optional()
      .describe('As the source writes it: "Munich, Germany", "London, CA", "Remote - UK".'),
    lat: z.number().min(-90).max(90).optional(),
    lon: z.number().min(-180).max(180).optional(),
  })
  .refine(
    (location) => location.text !== undefined || (location.lat !== undefined && location.lon !== undefined),
    {
      error: 'needs text, or lat and lon',
    },
  )
  .refine((location) => (location.lat === undefined) === (location.lon === undefined), {
    error: 'lat and lon go together',
    path: ['lon'],
  });

const salaryField = z
  .strictObject({
    min: z.int({ error: 'must be a whole number of major units' }).min(0).max(100_000_000),
    max: z.int({ error: 'must be a whole number of major units' }).min(0).max(100_000_000),
    currency: z.enum(CURRENCIES, {
      error: (issue) =>
        `unknown currency ${JSON.stringify(issue.input)}: must be one of ${CURRENCIES.join(', ')}`,
    }),
    period: z.enum(SALARY_PERIODS),
  })
  .refine((salary) => salary.min <= salary.max, { error: 'min is above max', path: ['min'] })
  .describe('As published, in whole units of its currency for its period.');

/** A role whose source closed it, sent without the rest of its record. */
export const leadClosureRecord = z.strictObject({
  feed_version: versionField,
  source: sourceField.optional(),
  source_id: sourceIdField,
  status: z.literal('closed'),
});

export const leadRecord = z.strictObject({
  feed_version: versionField,
  source: sourceField.optional(),
  source_id: sourceIdField,
  status: z
    .enum(['open', 'closed'])
    .default('open')
    .describe('A closed role leaves search; "open" reopens one.'),
  title: text(LIMITS.title),
  company: z.union([
    z.strictObject({ key: companyKeyField }),
    z.strictObject({ name: text(LIMITS.name).describe('A company without a profile record') }),
  ]),
  location: locationField,
  other_locations: list(
    z.strictObject({ source_id: sourceIdField, location: text(LIMITS.shortText) }),
    LIMITS.otherLocations,
  )
    .default([])
    .describe('The same role advertised in other places, each its own record of the same source.'),
  posted_date: day.describe('Not after today (UTC) + 1 day.'),
  expires_at: day.optional().describe('The last day the role is open.'),
  employment_type: z.enum(EMPLOYMENT_TYPES),
  work_type: z.enum(WORK_TYPES),
  experience_level: z
    .enum(EXPERIENCE_LEVELS)
    .optional()
    .describe('When absent, read from the title (docs/feed.md).'),
  title_family: text(LIMITS.name).optional(),
  industry: text(LIMITS.name).optional().describe("When absent, the company's."),
  skills: list(text(LIMITS.listItem), LIMITS.skills).default([]),
  soft_skills: list(text(LIMITS.listItem), LIMITS.skills).default([]),
  salary: salaryField.nullable().default(null),
  summary: text(LIMITS.longText).optional(),
  about_company: text(LIMITS.longText).optional(),
  job_links: list(url, LIMITS.links).default([]).describe('The posting at its source first.'),
  experience_years: z
    .strictObject({ min: z.int().min(0).max(60), max: z.int().min(0).max(60).nullable() })
    .refine((years) => years.max === null || years.min <= years.max, {
      error: 'min is above max',
      path: ['min'],
    })
    .optional(),
  applicants: z.int().min(0).optional(),
  job_tags: list(text(LIMITS.listItem), LIMITS.tags).default([]),
});

export const companyRecord = z.strictObject({
  feed_version: versionField,
  source: sourceField.optional(),
  key: companyKeyField.describe(
    "The company's key: leads and signals name it; it names the company for good.",
  ),
  name: text(LIMITS.name),
  industry: text(LIMITS.name),
  sector: text(LIMITS.name).optional().describe('When absent, the industry.'),
  size_band: z.enum(COMPANY_SIZE_BANDS),
  size: text(LIMITS.listItem).optional().describe('Head count as published, e.g. "51-200".'),
  founded: z.int().min(1600).max(2200),
  headquarters: locationField,
  office_locations: list(text(LIMITS.shortText), LIMITS.offices).default([]),
  about: text(LIMITS.longText).optional(),
  specialties: list(text(LIMITS.listItem), LIMITS.tags).default([]),
  tags: list(text(LIMITS.listItem), LIMITS.tags).default([]),
  is_agency: z
    .boolean()
    .default(false)
    .describe('A recruitment agency: its roles are left out of searches by default.'),
  is_blue_chip: z.boolean().default(false),
  logo_url: url.optional(),
  website_url: url.optional(),
  social_links: list(z.strictObject({ network: text(LIMITS.listItem), url }), LIMITS.links).default([]),
});

export const signalRecord = z.strictObject({
  feed_version: versionField,
  source: sourceField.optional(),
  source_id: sourceIdField,
  company: z.strictObject({ key: companyKeyField }),
  category: z.enum(SIGNAL_CATEGORIES),
  polarity: z.enum(SIGNAL_POLARITIES),
  title: text(LIMITS.shortText),
  summary: text(LIMITS.longText),
  url,
  country: z
    .string()
    .refine(isCountryCode, { error: 'must be an ISO 3166 alpha-2 country code such as "DE"' }),
  announced_on: day.describe('Not after today (UTC) + 1 day.'),
});

export type LeadRecord = z.infer<typeof leadRecord>;
export type LeadClosureRecord = z.infer<typeof leadClosureRecord>;
export type CompanyRecord = z.infer<typeof companyRecord>;
export type SignalRecord = z.infer<typeof signalRecord>;
/** What a record writer may leave out (fields with defaults): the input shape. */
export type LeadRecordInput = z.input<typeof leadRecord>;
export type CompanyRecordInput = z.input<typeof companyRecord>;
export type SignalRecordInput = z.input<typeof signalRecord>;

export type FeedKind = 'leads' | 'companies' | 'signals';

/** One reason a record was refused: the field (dotted path) and what is wrong with it. */
export interface RecordProblem {
  field: string;
  reason: string;
}

export type Checked<T> = { ok: true; record: T } | { ok: false; problem: RecordProblem };

function firstProblem(error: z.ZodError): RecordProblem {
  const [issue] = error.issues;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : '';
  return {
    field: issue && issue.path.length > 0 ? issue.path.join('.') : '(record)',
    reason: `${issue?.message ?? 'is not valid'}${more}`,
  };
}

let latest = { today: '', day: '' };

/** The day after `today`: the latest date a record may carry, for sources a timezone ahead. */
function latestDay(today: string): string {
  if (latest.today !== today) {
    latest = {
      today,
      day: new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
    };
  }
  return latest.day;
}

function notInFuture(field: string, value: string, today: string): RecordProblem | undefined {
  return value > latestDay(today)
    ? { field, reason: `${value} is in the future (today is ${today} UTC)` }
    : undefined;
}

/** A schema and its compiled acceptance: valid records take the fast way, zod judges the rest (src/feed/compiled-check.ts). */
interface RecordCheck<T> {
  schema: z.ZodType<T>;
  accept: (value: unknown) => T | undefined;
}

function recordCheck<T>(schema: z.ZodType<T>): RecordCheck<T> {
  return { schema, accept: compileAcceptance(schema) };
}

const leadCheck = recordCheck(leadRecord);
const leadClosureCheck = recordCheck(leadClosureRecord);
const companyCheck = recordCheck(companyRecord);
const signalCheck = recordCheck(signalRecord);

function check<T>({ schema, accept }: RecordCheck<T>, value: unknown): Checked<T> {
  const accepted = accept(value);
  if (accepted !== undefined) return { ok: true, record: accepted };
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, record: parsed.data }
    : { ok: false, problem: firstProblem(parsed.error) };
}

/** A lead line: a full record, or a closure (`status: "closed"` and no title). */
export function checkLeadRecord(value: unknown, today: string): Checked<LeadRecord | LeadClosureRecord> {
  const isClosure =
    typeof value === 'object' &&
    value !== null &&
    (value as { status?: unknown }).status === 'closed' &&
    !('title' in value);
  if (isClosure) return check(leadClosureCheck, value);
  const checked = check(leadCheck, value);
  if (!checked.ok) return checked;
  const future = notInFuture('posted_date', checked.record.posted_date, today);
  return future ? { ok: false, problem: future } : checked;
}

export function checkCompanyRecord(value: unknown): Checked<CompanyRecord> {
  return check(companyCheck, value);
}

export function checkSignalRecord(value: unknown, today: string): Checked<SignalRecord> {
  const checked = check(signalCheck, value);
  if (!checked.ok) return checked;
  const future = notInFuture('announced_on', checked.record.announced_on, today);
  return future ? { ok: false, problem: future } : checked;
}

export function isClosure(record: LeadRecord | LeadClosureRecord): record is LeadClosureRecord {
  return !('title' in record);
}
