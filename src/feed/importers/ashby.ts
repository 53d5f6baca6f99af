import { z } from 'zod';
import type { EmploymentType, SalaryPeriod } from '../../domain/enums.js';
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
 * Ashby's job posting API: `GET api.ashbyhq.com/posting-api/job-board/{board}?includeCompensation=true`
 * answers `{ apiVersion: "1", jobs: [...] }`. Unlisted jobs are left out; a job's secondary
 * locations become linked records of their own; the salary is the first `Salary` component of
 * its compensation, its interval ("1 YEAR") the period.
 */

const EMPLOYMENT: Record<string, EmploymentType> = {
  FullTime: 'Full-time',
  PartTime: 'Part-time',
  Intern: 'Internship',
  Contract: 'Contract',
  Temporary: 'Temporary',
};

const INTERVALS: Record<string, SalaryPeriod> = {
  '1 YEAR': 'year',
  '1 MONTH': 'month',
  '1 WEEK': 'week',
  '1 DAY': 'day',
  '1 HOUR': 'hour',
};

const component = z.looseObject({
  compensationType: z.string(),
  interval: z.string().nullish(),
  currencyCode: z.string().nullish(),
  minValue: z.number().nullish(),
  maxValue: z.number().nullish(),
});

const job = z.looseObject({
  id: z.string().nullish(),
  title: z.string().min(1),
  location: z.string().nullish(),
  secondaryLocations: z.array(z.looseObject({ location: z.string() })).nullish(),
  department: z.string().nullish(),
  team: z.string().nullish(),
  isListed: z.boolean().nullish(),
  isRemote: z.boolean().nullish(),
  workplaceType: z.string().nullish(),
  descriptionPlain: z.string().nullish(),
  publishedAt: z.string().nullish(),
  employmentType: z.string().nullish(),
  jobUrl: z.string().nullish(),
  compensation: z
    .looseObject({
      summaryComponents: z.array(component).nullish(),
      compensationTiers: z.array(z.looseObject({ components: z.array(component).nullish() })).nullish(),
    })
    .nullish(),
});

const board = z.looseObject({ jobs: z.array(z.unknown()) });

export function importAshby(body: unknown, options: ImportOptions): Imported {
  const parsed = board.safeParse(body);
  if (!parsed.success) throw new Error('not an Ashby job board: expected an object with a "jobs" list');
  return convertJobs(parsed.data.jobs, job, (posting, number, skipped) => {
    if (posting.isListed === false) return [];
    const id = posting.id ?? posting.jobUrl;
    if (!id) {
      skipped.push({ job: number, field: 'id', reason: 'the job has neither an id nor a jobUrl' });
      return [];
    }
    const components = [
      ...(posting.compensation?.summaryComponents ?? []),
      ...(posting.compensation?.compensationTiers ?? []).flatMap((tier) => tier.components ?? []),
    ];
    const pay = components.find(
      (part) =>
        part.compensationType === 'Salary' &&
        part.minValue != null &&
        part.maxValue != null &&
        part.currencyCode,
    );
    const salary = pay
      ? salaryOf(
          {
            min: pay.minValue as number,
            max: pay.maxValue as number,
            currency: pay.currencyCode as string,
            period: INTERVALS[pay.interval ?? ''],
          },
          number,
          skipped,
        )
      : null;
    const stated = posting.workplaceType ?? (posting.isRemote ? 'Remote' : undefined);
    const summary = summaryOf(posting.descriptionPlain ?? undefined);
    return recordsPerPlace(
      {
        title: posting.title,
        company: options.company,
        posted_date: dayOf(posting.publishedAt, options.today),
        employment_type:
          EMPLOYMENT[posting.employmentType ?? ''] ??
          employmentTypeOf(posting.employmentType ?? undefined, posting.title),
        work_type: workTypeOf(stated, posting.location ?? undefined),
        salary,
        ...(summary ? { summary } : {}),
        job_links: posting.jobUrl ? [posting.jobUrl] : [],
        job_tags: [posting.department, posting.team].filter((tag): tag is string => Boolean(tag)),
      },
      id,
      [posting.location ?? '', ...(posting.secondaryLocations ?? []).map((secondary) => secondary.location)],
      options,
    );
  });
}
