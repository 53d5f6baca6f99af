import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { searchLeadsInput, searchSignalsInput } from '../../src/schemas/inputs.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { searchWithFallback } from '../../src/search/fallback.js';
import { buildLeadSearch } from '../../src/search/lead-query.js';
import { leftOutNote } from '../../src/search/left-out.js';
import { buildSignalSearch } from '../../src/search/signal-query.js';

const now = new Date('2026-11-18T23:30:00Z');
const leadSearch = (args: Record<string, unknown>) =>
  buildLeadSearch(parseToolArguments(searchLeadsInput, args), FIRST_PAGE, 10, now);
/** The `left_out` aggregation as Elasticsearch answers it. */
const counted = (counts: Record<string, number>) => ({
  aggregations: {
    left_out: {
      buckets: Object.fromEntries(
        Object.entries(counts).map(([name, count]) => [name, { doc_count: count }]),
      ),
    },
  },
});

describe('counting what leaving out each argument finds', () => {
  it('is no request with fewer than two arguments', () => {
    expect(leadSearch({}).nothingFound).toBeUndefined();
    expect(leadSearch({ title: 'game developer' }).nothingFound).toBeUndefined();
    // A location read without a note says how it was read, when nothing is found.
    expect(leadSearch({ location: 'Gaborone' }).nothingFound).toEqual({
      notes: ['Read the location "Gaborone" as Gaborone, Botswana.'],
      noun: 'open role',
    });
    expect(leadSearch({ location: 'DACH' }).nothingFound).toBeUndefined();
    expect(
      leadSearch({ work_type: 'Remote', include_recruitment_agencies: true }).nothingFound,
    ).toBeUndefined();
  });

  it('counts each argument left out, as first read and as read again, beside the clauses always there', () => {
    const { nothingFound } = leadSearch({ title: 'enginer', work_type: 'Remote', min_annual_salary: 90000 });
    const query = nothingFound?.leftOut?.().query as { bool: { filter: unknown[] } };
    expect(query.bool.filter).toEqual([
      { term: { is_open: true } },
      { term: { 'company.is_agency': false } },
    ]);
    const buckets = (nothingFound?.leftOut?.().aggs?.left_out?.filters?.filters ?? {}) as Record<
      string,
      { bool: { filter: unknown[] } }
    >;
    expect(Object.keys(buckets)).toEqual([
      'first:title',
      'second:title',
      'first:work_type',
      'second:work_type',
      'first:min_annual_salary',
      'second:min_annual_salary',
    ]);
    const salary = { range: { 'salary_annual.gbp_max': { gte: 90000 } } };
    expect(buckets['first:title']?.bool.filter).toEqual([{ term: { work_type: 'Remote' } }, salary]);
    expect(JSON.stringify(buckets['first:work_type'])).not.toContain('fuzziness');
    expect(JSON.stringify(buckets['second:work_type'])).toContain('fuzziness');
    expect(nothingFound?.noun).toBe('open role');
    expect(nothingFound?.leftOut?.()).toMatchObject({ size: 0, track_total_hits: false });
  });

  it('counts a signal search on its first page only', () => {
    const args = parseToolArguments(searchSignalsInput, { countries: ['GB'], categories: ['layoff'] });
    expect(buildSignalSearch(args, now, FIRST_PAGE, 10).nothingFound?.noun).toBe('signal');
    const later = { searchAfter: [1793577600000, 'sig_1'], served: 10 };
    expect(buildSignalSearch(args, now, later, 10).nothingFound).toBeUndefined();
  });
});

describe('the note', () => {
  it('names what leaving out each argument finds, first read when that finds something, most first', () => {
    const response = counted({
      'first:title': 0,
      'second:title': 12,
      'first:skills': 114,
      'second:skills': 300,
      'first:work_type': 0,
      'second:work_type': 0,
      'first:location': 7,
      'second:location': 7,
      'first:industry': 2,
      'second:industry': 2,
    });
    expect(leftOutNote(response, 'open role')).toBe(
      'No open role matches all the filters together; leaving out skills finds 114, leaving out title 12, leaving out location 7.',
    );
  });

  it('says when no argument left out finds anything either', () => {
    expect(leftOutNote(counted({ 'first:a': 0, 'second:a': 0, 'first:b': 0, 'second:b': 0 }), 'signal')).toBe(
      'No signal matches all the filters together, nor all but any one of them.',
    );
  });

  it('is sent only when no reading found anything', async () => {
    const search = leadSearch({ title: 'zzzzzz', location: 'Berlin' });
    const sent: unknown[] = [];
    const answers = [
      { total: 0 },
      { total: 0 },
      { total: 0, ...counted({ 'first:title': 0, 'first:location': 9 }) },
    ];
    const result = await searchWithFallback(
      search,
      async (body) => {
        sent.push(body);
        return answers[sent.length - 1] as (typeof answers)[number];
      },
      (response) => response.total > 0,
    );
    expect(sent).toEqual([search.body, search.fallback?.body, search.nothingFound?.leftOut?.()]);
    expect(result.notes).toEqual([
      'Read the location "Berlin" as Berlin, Germany.',
      'No open role matches all the filters together; leaving out location finds 9.',
    ]);

    sent.length = 0;
    await searchWithFallback(
      search,
      async (body) => {
        sent.push(body);
        return { total: sent.length === 1 ? 0 : 4 };
      },
      (response) => response.total > 0,
    );
    expect(sent).toEqual([search.body, search.fallback?.body]);
  });
});
