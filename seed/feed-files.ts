import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { LeadRecordInput } from '../src/feed/records.js';

/** Share of the changed leads that the changes file closes (every tenth). */
const CLOSE_EVERY = 10;

interface WrittenFile {
  path: string;
  records: number;
}

/** Writes records as gzipped NDJSON, one a line, waiting whenever the compressor is behind. */
async function writeNdjsonGz(file: string, records: Iterable<unknown>): Promise<WrittenFile> {
  const gzip = createGzip({ level: 6 });
  const done = pipeline(gzip, createWriteStream(file));
  let count = 0;
  for (const record of records) {
    count++;
    if (!gzip.write(`${JSON.stringify(record)}\n`)) await once(gzip, 'drain');
  }
  gzip.end();
  await done;
  return { path: file, records: count };
}

/** The first `count` leads again, as a source would send them after a change: salaries up 5%, every tenth closed. */
function* changedLeads(leads: Iterable<LeadRecordInput>, count: number): Generator<LeadRecordInput> {
  let index = 0;
  for (const lead of leads) {
    if (index >= count) return;
    const salary = lead.salary
      ? { ...lead.salary, min: Math.round(lead.salary.min * 1.05), max: Math.round(lead.salary.max * 1.05) }
      : lead.salary;
    const closed = index % CLOSE_EVERY === CLOSE_EVERY - 1;
    yield closed
      ? {
          feed_version: lead.feed_version,
          source: lead.source,
          source_id: lead.source_id,
          status: 'closed',
          title: lead.title,
          company: lead.company,
          location: lead.location,
          posted_date: lead.posted_date,
          employment_type: lead.employment_type,
          work_type: lead.work_type,
          salary,
        }
      : { ...lead, salary };
    index++;
  }
}

/**
 * The demo data set as feed files in `folder` (companies, leads, signals .ndjson.gz), the input
 * `npm run ingest` measures itself on; with `changes`, also leads-changes.ndjson.gz.
 */
export async function writeFeedFiles(
  folder: string,
  records: {
    companies: () => Iterable<unknown>;
    leads: () => Iterable<LeadRecordInput>;
    signals: () => Iterable<unknown>;
  },
  changes: number,
): Promise<WrittenFile[]> {
  await mkdir(folder, { recursive: true });
  const written = [
    await writeNdjsonGz(path.join(folder, 'companies.ndjson.gz'), records.companies()),
    await writeNdjsonGz(path.join(folder, 'leads.ndjson.gz'), records.leads()),
    await writeNdjsonGz(path.join(folder, 'signals.ndjson.gz'), records.signals()),
  ];
  if (changes > 0) {
    written.push(
      await writeNdjsonGz(
        path.join(folder, 'leads-changes.ndjson.gz'),
        changedLeads(records.leads(), changes),
      ),
    );
  }
  return written;
}
