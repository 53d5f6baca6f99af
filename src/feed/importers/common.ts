import type { z } from 'zod';
import type { EmploymentType, SalaryPeriod, WorkType } from '../../domain/enums.js';
import { CURRENCIES } from '../../domain/enums.js';
import { FEED_VERSION, type LeadRecordInput, LIMITS, type RecordProblem } from '../records.js';

/**
 * What the job-board importers share: the options every board is converted with, and the
 * readings of the fields boards publish loosely (free-text commitments, HTML descriptions).
 * docs/feed.md, "Importers", says what each board's fields become.
 */

export interface ImportOptions {
  /** The feed source of the records, e.g. "greenhouse:acme". */
  source: string;
  /** The company the board belongs to: a profile's key, or a name alone. */
  company: { key: string } | { name: string };
  /** `YYYY-MM-DD` (UTC): the posting date of a job that gives none. */
  today: string;
}

/** A job the importer could not convert, by its position on the board (1 = the first job). */
export interface SkippedJob extends RecordProblem {
  job: number;
}

export interface Imported {
  records: LeadRecordInput[];
  skipped: SkippedJob[];
}

/** How long a summary taken from a posting's description may be. */
const SUMMARY_CHARACTERS = 600;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** Plain text of HTML a board publishes (tags dropped, the common entities read, whitespace collapsed). */
export function plainText(html: string): string {
  const unescaped = html.replace(
    /&(amp|lt|gt|quot|apos|nbsp|#39);/g,
    (_, name: string) => ENTITIES[name] ?? '',
  );
  return unescaped
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The opening of a description as the role's summary: whole sentences up to SUMMARY_CHARACTERS. */
export function summaryOf(text: string | undefined): string | undefined {
  const plain = text?.trim();
  if (!plain) return undefined;
  if (plain.length <= SUMMARY_CHARACTERS) return plain;
  const cut = plain.slice(0, SUMMARY_CHARACTERS);
  const sentenceEnd = cut.lastIndexOf('. ');
  return sentenceEnd > SUMMARY_CHARACTERS / 2 ? cut.slice(0, sentenceEnd + 1) : `${cut.trimEnd()}…`;
}

/** The employment type in a board's free text ("Full time", "FullTime", "Contractor", "Intern"). */
export function employmentTypeOf(text: string | undefined, title: string): EmploymentType {
  const words = `${text ?? ''} ${title}`.toLowerCase();
  if (/\bintern(ship)?\b/.test(words)) return 'Internship';
  if (/\bfree-?lance/.test(words)) return 'Freelance';
  if (/\bcontract/.test(words)) return 'Contract';
  if (/\btemp(orary)?\b/.test(words)) return 'Temporary';
  if (/\bpart[- ]?time\b/.test(words)) return 'Part-time';
  return 'Full-time';
}

/** The work type a board states, else what the location text says ("Remote - UK"), else on-site. */
export function workTypeOf(stated: string | undefined, locationText: string | undefined): WorkType {
  const words = `${stated ?? ''} ${stated ? '' : (locationText ?? '')}`.toLowerCase();
  if (/remote/.test(words)) return 'Remote';
  if (/hybrid/.test(words)) return 'Hybrid';
  return 'On-site';
}

/** `YYYY-MM-DD` (UTC) of a timestamp a board gives (ISO text or epoch milliseconds), else `today`. */
export function dayOf(value: string | number | undefined | null, today: string): string {
  if (value === undefined || value === null) return today;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? today : date.toISOString().slice(0, 10);
}

type Salary = NonNullable<LeadRecordInput['salary']>;

/**
 * A published pay range as the feed's salary, or why it is left out: a currency the service
 * does not convert (the role is still imported, without a salary), or a period it cannot read.
 */
export function salaryOf(
  range: { min: number; max: number; currency: string; period: SalaryPeriod | undefined },
  job: number,
  skipped: SkippedJob[],
): Salary | null {
  if (!(CURRENCIES as readonly string[]).includes(range.currency)) {
    skipped.push({
      job,
      field: 'salary.currency',
      reason: `pay in ${range.currency} left out: only ${CURRENCIES.join(', ')} are converted`,
    });
    return null;
  }
  if (range.period === undefined) return null;
  const min = Math.round(Math.min(range.min, range.max));
  const max = Math.round(Math.max(range.min, range.max));
  return { min, max, currency: range.currency as Salary['currency'], period: range.period };
}

/**
 * The records of one job advertised in several places: one record per place, the first under
 * the job's own id, the others under `<id>@<place>`, each listing the others.
 */
export function recordsPerPlace(
  base: Omit<LeadRecordInput, 'feed_version' | 'source' | 'source_id' | 'location' | 'other_locations'>,
  jobId: string,
  places: readonly string[],
  options: ImportOptions,
): LeadRecordInput[] {
  const unique = [...new Set(places.map((place) => place.trim()).filter((place) => place.length > 0))].slice(
    0,
    LIMITS.otherLocations + 1,
  );
  const located = unique.length > 0 ? unique : [undefined];
  const ids = located.map((place, index) =>
    index === 0 || place === undefined ? jobId : `${jobId}@${place}`,
  );
  return located.map((place, index) => ({
    ...base,
    feed_version: FEED_VERSION,
    source: options.source,
    source_id: ids[index] as string,
    location: { text: place ?? 'Remote' },
    other_locations: located.flatMap((other, otherIndex) =>
      otherIndex === index || other === undefined
        ? []
        : [{ source_id: ids[otherIndex] as string, location: other }],
    ),
  }));
}

/**
 * Converts each job of a board's list: a job its schema refuses is skipped and reported with the
 * first problem; `convert` turns the others into records (adding to `skipped` what it leaves out).
 */
export function convertJobs<T>(
  jobs: readonly unknown[],
  schema: z.ZodType<T>,
  convert: (job: T, number: number, skipped: SkippedJob[]) => LeadRecordInput[],
): Imported {
  const result: Imported = { records: [], skipped: [] };
  jobs.forEach((raw, index) => {
    const number = index + 1;
    const checked = schema.safeParse(raw);
    if (checked.success) {
      result.records.push(...convert(checked.data, number, result.skipped));
      return;
    }
    const issue = checked.error.issues[0];
    result.skipped.push({
      job: number,
      field: issue?.path.join('.') || '(job)',
      reason: issue?.message ?? 'not a job',
    });
  });
  return result;
}
