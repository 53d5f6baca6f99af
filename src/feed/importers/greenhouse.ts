import { z } from 'zod';
import {
  convertJobs,
  dayOf,
  employmentTypeOf,
  type Imported,
  type ImportOptions,
  plainText,
  recordsPerPlace,
  salaryOf,
  summaryOf,
  workTypeOf,
} from './common.js';

/**
 * Greenhouse's Job Board API: `GET boards-api.greenhouse.io/v1/boards/{token}/jobs?content=true`
 * (add `&pay_transparency=true` for pay ranges) answers `{ jobs: [...], meta: { total } }`.
 * Greenhouse publishes no employment or workplace type: both are read from the title and the
 * location text; pay ranges are yearly, in cents.
 */

const job = z.looseObject({
  id: z.union([z.number(), z.string()]),
  title: z.string().min(1),
  absolute_url: z.string().optional(),
  location: z.looseObject({ name: z.string().nullish() }).nullish(),
  updated_at: z.string().nullish(),
  first_published: z.string().nullish(),
  content: z.string().nullish(),
  departments: z.array(z.looseObject({ name: z.string() })).nullish(),
  offices: z.array(z.looseObject({ name: z.string(), location: z.string().nullish() })).nullish(),
  pay_input_ranges: z
    .array(z.looseObject({ min_cents: z.number(), max_cents: z.number(), currency_type: z.string() }))
    .nullish(),
});

const board = z.looseObject({ jobs: z.array(z.unknown()) });

export function importGreenhouse(body: unknown, options: ImportOptions): Imported {
  const parsed = board.safeParse(body);
  if (!parsed.success) throw new Error('not a Greenhouse job board: expected an object with a "jobs" list');
  return convertJobs(parsed.data.jobs, job, (posting, number, skipped) => {
    const where = posting.location?.name ?? undefined;
    const pay = posting.pay_input_ranges?.[0];
    const salary = pay
      ? salaryOf(
          { min: pay.min_cents / 100, max: pay.max_cents / 100, currency: pay.currency_type, period: 'year' },
          number,
          skipped,
        )
      : null;
    const summary = summaryOf(posting.content ? plainText(posting.content) : undefined);
    return recordsPerPlace(
      {
        title: posting.title,
        company: options.company,
        posted_date: dayOf(posting.first_published ?? posting.updated_at, options.today),
        employment_type: employmentTypeOf(undefined, posting.title),
        work_type: workTypeOf(undefined, where),
        salary,
        ...(summary ? { summary } : {}),
        job_links: posting.absolute_url ? [posting.absolute_url] : [],
        job_tags: (posting.departments ?? []).map((department) => department.name).slice(0, 30),
      },
      String(posting.id),
      where ? [where] : [],
      options,
    );
  });
}
