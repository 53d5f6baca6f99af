import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { searchLeadsInput, searchSignalsInput } from '../../src/schemas/inputs.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { searchWithFallback } from '../../src/search/fallback.js';
import { buildLeadSearch } from '../../src/search/lead-query.js';
import { leftOutNotes } from '../../src/search/left-out.js';
import { buildSignalSearch } from '../../src/search/signal-query.js';

const now = new Date('2026-11-18T23:30:00Z');
const json = (value: unknown) => JSON.stringify(value);
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
  it('is no request with fewer than two arguments and no title of several words', () => {
    expect(leadSearch({}).nothingFound).toBeUndefined();
    expect(leadSearch({ title: 'developers' }).nothingFound).toBeUndefined();
    expect(leadSearch({ title: 'data engineer or data scientist' }).nothingFound).toBeUndefined();
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
    const query = nothingFound?.leftOut?.()?.query as { bool: { filter: unknown[] } };
    expect(query.bool.filter).toEqual([
      { term: { is_open: true } },
      { term: { 'company.is_agency': false } },
    ]);
    const buckets = (nothingFound?.leftOut?.()?.aggs?.left_out?.filters?.filters ?? {}) as Record<
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

  it('counts a title of several words with each word left out, beside the other arguments', () => {
    const alone = leadSearch({ title: 'Data Scientist NLP' }).nothingFound;
    expect(alone?.titleWords?.()).toEqual({
      typed: 'Data Scientist NLP',
      words: ['Data', 'Scientist', 'NLP'],
    });
    const buckets = (alone?.leftOut?.()?.aggs?.left_out?.filters?.filters ?? {}) as Record<
      string,
      { bool: { filter: unknown[] } }
    >;
    expect(Object.keys(buckets)).toEqual(['word:0', 'word:1', 'word:2']);
    expect(buckets['word:2']?.bool.filter).toEqual([
      { bool: { filter: [{ term: { title_terms: 'data' } }, { term: { title_terms: 'scientist' } }] } },
    ]);

    const beside = leadSearch({ title: 'Data Scientist NLP', work_type: 'Remote' }).nothingFound;
    const besideBuckets = (beside?.leftOut?.()?.aggs?.left_out?.filters?.filters ?? {}) as Record<
      string,
      { bool: { filter: unknown[] } }
    >;
    expect(Object.keys(besideBuckets)).toEqual([
      'first:title',
      'second:title',
      'first:work_type',
      'second:work_type',
      'word:0',
      'word:1',
      'word:2',
    ]);
    expect(besideBuckets['word:0']?.bool.filter).toContainEqual({ term: { work_type: 'Remote' } });
    // A skill's name of two words is left out as one.
    expect(leadSearch({ title: 'BI Analyst Power BI' }).nothingFound?.titleWords?.()).toEqual({
      typed: 'BI Analyst Power BI',
      words: ['BI', 'Analyst', 'Power BI'],
    });
    // A job-board title: each part left out, the rest read as a title is, and read again.
    const parts = leadSearch({ title: 'Graduate Data Analyst - SQL - Leeds' }).nothingFound;
    expect(parts?.titleWords?.()).toEqual({
      typed: 'Graduate Data Analyst - SQL - Leeds',
      words: ['Graduate Data Analyst', 'SQL', 'Leeds'],
    });
    const partBuckets = (parts?.leftOut?.()?.aggs?.left_out?.filters?.filters ?? {}) as Record<
      string,
      unknown
    >;
    expect(Object.keys(partBuckets)).toEqual([
      'word:0',
      'word again:0',
      'word:1',
      'word again:1',
      'word:2',
      'word again:2',
    ]);
    // Without "Leeds", read again: a Graduate Data Analyst listing SQL.
    expect(json(partBuckets['word again:2'])).toContain('"skills_key":"sql"');
    // A title alone of too many words or parts to count each left out: no request.
    const long = 'senior lead staff principal python java go engineer';
    expect(leadSearch({ title: long }).nothingFound?.leftOut?.()).toBeUndefined();
    expect(leftOutNotes({}, { noun: 'open role', titleWords: () => ({ typed: long, words: [] }) })).toEqual(
      [],
    );
    // Words excluded from the title stay excluded with each other word left out.
    const excluding = leadSearch({ title: 'data scientist -lead' }).nothingFound?.leftOut?.();
    expect(JSON.stringify(excluding)).toContain('must_not');
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
    expect(leftOutNotes(response, { noun: 'open role' })).toEqual([
      'No open role matches all the filters together; leaving out skills finds 114, leaving out title 12, leaving out location 7.',
    ]);
  });

  it('says when no argument left out finds anything either', () => {
    expect(
      leftOutNotes(counted({ 'first:a': 0, 'second:a': 0, 'first:b': 0, 'second:b': 0 }), { noun: 'signal' }),
    ).toEqual(['No signal matches all the filters together, nor all but any one of them.']);
  });

  it('names what leaving out each word of the title finds, most first', () => {
    const titleWords = () => ({
      typed: 'senior data scientist NLP',
      words: ['senior', 'data', 'scientist', 'NLP'],
    });
    expect(
      leftOutNotes(counted({ 'word:0': 0, 'word:1': 0, 'word:2': 0, 'word:3': 233 }), {
        noun: 'open role',
        titleWords,
      }),
    ).toEqual([
      'No open role has a title with all of "senior data scientist NLP"; leaving out "NLP" finds 233.',
    ]);
    expect(
      leftOutNotes(counted({ 'first:title': 40, 'first:location': 0, 'word:0': 2, 'word:3': 5 }), {
        noun: 'open role',
        titleWords,
      }),
    ).toEqual([
      'No open role matches all the filters together; leaving out title finds 40.',
      'No open role matching the other filters has a title with all of "senior data scientist NLP"; leaving out "NLP" finds 5, leaving out "senior" 2.',
    ]);
    // A part left out is counted as read again when its first reading finds nothing.
    expect(
      leftOutNotes(counted({ 'word:0': 0, 'word again:0': 30, 'word:3': 0, 'word again:3': 0 }), {
        noun: 'open role',
        titleWords,
      }),
    ).toEqual([
      'No open role has a title with all of "senior data scientist NLP"; leaving out "senior" finds 30.',
    ]);
    expect(leftOutNotes(counted({ 'word:0': 0, 'word:1': 0 }), { noun: 'open role', titleWords })).toEqual([
      'No open role has a title with all of "senior data scientist NLP", nor all but any one of its words.',
    ]);
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
