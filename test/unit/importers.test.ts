import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveLead } from '../../src/feed/derive.js';
import { importAshby } from '../../src/feed/importers/ashby.js';
import type { Imported, ImportOptions } from '../../src/feed/importers/common.js';
import { importGreenhouse } from '../../src/feed/importers/greenhouse.js';
import { importLever } from '../../src/feed/importers/lever.js';
import { checkLeadRecord, type LeadRecord } from '../../src/feed/records.js';

/** Fixtures written from each board's public API documentation (test/fixtures/boards/). */
function board(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/boards/${name}.json`, import.meta.url), 'utf8'));
}

const TODAY = '2026-11-05';

function options(source: string): ImportOptions {
  return { source, company: { name: 'Vaultbank' }, today: TODAY };
}

/** Every imported record passes the feed's own check, as ingest will apply it. */
function checked(imported: Imported): LeadRecord[] {
  return imported.records.map((record) => {
    const result = checkLeadRecord(record, TODAY);
    if (!result.ok) throw new Error(`${record.source_id}: ${result.problem.field}: ${result.problem.reason}`);
    return result.record as LeadRecord;
  });
}

function located(record: LeadRecord) {
  return deriveLead(record, record.source ?? '', null, TODAY).doc.location;
}

describe('the Greenhouse importer', () => {
  const imported = importGreenhouse(board('greenhouse'), options('greenhouse:vaultbank'));
  const records = checked(imported);

  it('converts each job, with its title, place, link, date and published pay', () => {
    expect(records).toHaveLength(3);
    const [backend, intern, sre] = records as [LeadRecord, LeadRecord, LeadRecord];
    expect(backend).toMatchObject({
      source: 'greenhouse:vaultbank',
      source_id: '4012345',
      title: 'Senior Backend Engineer',
      company: { name: 'Vaultbank' },
      location: { text: 'London, United Kingdom' },
      posted_date: '2026-10-20',
      employment_type: 'Full-time',
      work_type: 'On-site',
      salary: { min: 85_000, max: 105_000, currency: 'GBP', period: 'year' },
      job_links: ['https://boards.greenhouse.io/vaultbank/jobs/4012345'],
      job_tags: ['Engineering'],
    });
    expect(backend.summary).toBe(
      'Vaultbank builds payment rails for Europe. You will design & run our ledger services. Go',
    );
    expect(located(backend)).toMatchObject({ city: 'London', country_code: 'GB' });
    expect(intern).toMatchObject({
      employment_type: 'Internship',
      work_type: 'Remote',
      salary: null,
      posted_date: '2026-10-30',
    });
    expect(located(intern)).toMatchObject({ city: null, country_code: 'DE' });
    expect(located(sre)).toMatchObject({ city: 'Toronto', country_code: 'CA' });
  });

  it('leaves out pay in a currency it does not convert, and skips a job without a title', () => {
    expect(records[2]?.salary).toBeNull();
    expect(imported.skipped).toEqual([
      { job: 3, field: 'salary.currency', reason: expect.stringMatching(/CAD left out/) },
      { job: 4, field: 'title', reason: expect.any(String) },
    ]);
  });
});

describe('the Lever importer', () => {
  const records = checked(importLever(board('lever'), options('lever:kitecraft')));

  it('makes one linked record per place of a posting', () => {
    const designs = records.filter((record) => record.title === 'Product Designer');
    expect(designs.map((record) => record.source_id)).toEqual([
      '5ac21346-8e0c-4494-8e7a-3eb92ff77902',
      '5ac21346-8e0c-4494-8e7a-3eb92ff77902@Munich',
    ]);
    expect(designs[0]?.other_locations).toEqual([
      { source_id: '5ac21346-8e0c-4494-8e7a-3eb92ff77902@Munich', location: 'Munich' },
    ]);
    expect(designs[1]?.other_locations).toEqual([
      { source_id: '5ac21346-8e0c-4494-8e7a-3eb92ff77902', location: 'Berlin' },
    ]);
    expect(designs[0]).toMatchObject({
      work_type: 'Hybrid',
      employment_type: 'Full-time',
      salary: { min: 65_000, max: 80_000, currency: 'EUR', period: 'year' },
      posted_date: '2026-10-26',
      job_tags: ['Growth', 'Design'],
    });
  });

  it('reads commitments, workplace types and pay intervals', () => {
    const contract = records.find((record) => record.title === 'Contract DevOps Engineer');
    expect(contract).toMatchObject({
      employment_type: 'Contract',
      work_type: 'Remote',
      salary: { min: 550, max: 650, currency: 'GBP', period: 'day' },
    });
    expect(located(contract as LeadRecord)).toMatchObject({ country_code: 'GB', city: null });
    const head = records.find((record) => record.title === 'Head of Engineering') as LeadRecord;
    expect(head).toMatchObject({ work_type: 'On-site', salary: null });
    expect(deriveLead(head, 'lever:kitecraft', null, TODAY).doc.experience_level).toBe('Executive');
  });
});

describe('the Ashby importer', () => {
  const imported = importAshby(board('ashby'), {
    ...options('ashby:lexiforge'),
    company: { key: 'lexiforge' },
  });
  const records = checked(imported);

  it('converts listed jobs with their compensation, and leaves out unlisted ones', () => {
    expect(records.map((record) => record.title)).toEqual([
      'Machine Learning Engineer',
      'Machine Learning Engineer',
      'Part-time Support Specialist',
    ]);
    expect(records[0]).toMatchObject({
      company: { key: 'lexiforge' },
      employment_type: 'Full-time',
      work_type: 'On-site',
      posted_date: '2026-10-29',
      salary: { min: 160_000, max: 190_000, currency: 'USD', period: 'year' },
      job_links: ['https://jobs.ashbyhq.com/lexiforge/7f3a2c10-1111-4222-8333-944455556666'],
    });
    expect(located(records[0] as LeadRecord)).toMatchObject({ city: 'Cambridge', region: 'Massachusetts' });
    expect(located(records[1] as LeadRecord)).toMatchObject({ city: 'New York' });
    expect(records[2]).toMatchObject({ employment_type: 'Part-time', work_type: 'Remote', salary: null });
    expect(imported.skipped).toEqual([]);
  });

  it('refuses something that is not a board', () => {
    expect(() => importAshby({ postings: [] }, options('ashby:x'))).toThrow(/not an Ashby job board/);
    expect(() => importLever({}, options('lever:x'))).toThrow(/not a Lever postings list/);
    expect(() => importGreenhouse([], options('greenhouse:x'))).toThrow(/not a Greenhouse job board/);
  });
});
