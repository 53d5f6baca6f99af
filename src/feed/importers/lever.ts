import { z } from 'zod';
import type { SalaryPeriod } from '../../domain/enums.js';
import {
  convertJobs,
  dayOf,
  employmentTypeOf,
  type Imported,
  type ImportOptions,
  recordsPerPlace,
  salaryOf,
  summaryOf,
  workTypeOf,
} from './common.js';

/**
 * Lever's Postings API: `GET api.lever.co/v0/postings/{site}?mode=json` answers a list of
 * postings. One posting may name several places (`categories.allLocations`): each becomes a
 * record of its own, linked to the others. `salaryRange.interval` gives the period.
 */

const INTERVALS: Record<string, SalaryPeriod> = {
  'per-year-salary': 'year',
  'per-month-salary': 'month',
  'per-week-salary': 'week',
  'per-day-wage': 'day',
  'per-hour-wage': 'hour',
};

const posting = z.looseObject({
  id: z.string().min(1),
  text: z.string().min(1),
  categories: z
    .looseObject({
      commitment: z.string().nullish(),
      department: z.string().nullish(),
      team: z.string().nullish(),
      location: z.string().nullish(),
      allLocations: z.array(z.string()).nullish(),
    })
    .nullish(),
  createdAt: z.number().nullish(),
  workplaceType: z.string().nullish(),
  hostedUrl: z.string().nullish(),
  openingPlain: z.string().nullish(),
  descriptionPlain: z.string().nullish(),
  salaryRange: z
    .looseObject({ min: z.number(), max: z.number(), currency: z.string(), interval: z.string() })
    .nullish(),
});

export function importLever(body: unknown, options: ImportOptions): Imported {
  if (!Array.isArray(body)) throw new Error('not a Lever postings list: expected a JSON array of postings');
  return convertJobs(body, posting, (job, number, skipped) => {
    const categories = job.categories ?? {};
    const places = [categories.location ?? '', ...(categories.allLocations ?? [])];
    const range = job.salaryRange;
    const salary = range
      ? salaryOf(
          { min: range.min, max: range.max, currency: range.currency, period: INTERVALS[range.interval] },
          number,
          skipped,
        )
      : null;
    const workplace =
      job.workplaceType && job.workplaceType !== 'unspecified' ? job.workplaceType : undefined;
    const summary = summaryOf(job.openingPlain || job.descriptionPlain || undefined);
    return recordsPerPlace(
      {
        title: job.text,
        company: options.company,
        posted_date: dayOf(job.createdAt, options.today),
        employment_type: employmentTypeOf(categories.commitment ?? undefined, job.text),
        work_type: workTypeOf(workplace, categories.location ?? undefined),
        salary,
        ...(summary ? { summary } : {}),
        job_links: job.hostedUrl ? [job.hostedUrl] : [],
        job_tags: [categories.team, categories.department].filter((tag): tag is string => Boolean(tag)),
      },
      job.id,
      places,
      options,
    );
  });
}
