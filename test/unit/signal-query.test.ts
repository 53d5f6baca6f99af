import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { searchSignalsInput } from '../../src/schemas/inputs.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { buildSignalSearch, readSignalPage, SIGNAL_FIELDS } from '../../src/search/signal-query.js';

const now = new Date('2026-11-18T10:00:00Z');
const signalArgs = (args: Record<string, unknown>) => parseToolArguments(searchSignalsInput, args);

describe('buildSignalSearch', () => {
  it('pages newest first, fetching one extra signal to know whether more exist', () => {
    expect(buildSignalSearch(signalArgs({}), now, FIRST_PAGE, 10).body).toEqual({
      query: { bool: { filter: [] } },
      sort: [{ announced_on: 'desc' }, { seq: 'desc' }],
      size: 11,
      track_total_hits: false,
      _source: { includes: SIGNAL_FIELDS },
    });
  });

  it('applies every filter', () => {
    const { body } = buildSignalSearch(
      signalArgs({
        countries: ['GB', 'DE'],
        categories: ['funding'],
        polarity: 'positive',
        company_id: 'co_AAAAAAAAAA',
        company_name: 'Zälando',
        company_size: 'enterprise',
        announced_within_days: 30,
      }),
      now,
      { searchAfter: [1793577600000, 3], served: 10 },
      5,
    );
    expect(body.query?.bool?.filter).toEqual([
      { terms: { country: ['GB', 'DE'] } },
      { terms: { category: ['funding'] } },
      { term: { polarity: 'positive' } },
      { term: { 'company.id': 'co_AAAAAAAAAA' } },
      { wildcard: { 'company.name_key': { value: '*zalando*' } } },
      { term: { 'company.size_band': 'enterprise' } },
      { range: { announced_on: { gte: '2026-10-19', format: 'yyyy-MM-dd' } } },
    ]);
    expect(body.search_after).toEqual([1793577600000, 3]);
  });
});

describe('readSignalPage', () => {
  const hit = (id: string, sort: number) => ({ _source: { id }, sort: [sort, sort] });

  it('serves the page and keeps the extra hit only as a sign of more', () => {
    expect(readSignalPage({ hits: { hits: [hit('a', 3), hit('b', 2), hit('c', 1)] } }, 2)).toEqual({
      signals: [{ id: 'a' }, { id: 'b' }],
      moreExist: true,
      lastSort: [2, 2],
    });
    expect(readSignalPage({ hits: { hits: [hit('a', 3)] } }, 2)).toEqual({
      signals: [{ id: 'a' }],
      moreExist: false,
      lastSort: [3, 3],
    });
  });

  it('knows the page is the last when exactly page-size signals came back', () => {
    expect(readSignalPage({ hits: { hits: [hit('a', 3), hit('b', 2)] } }, 2)).toMatchObject({
      moreExist: false,
      lastSort: [2, 2],
    });
  });

  it('serves an empty page with no position to continue from', () => {
    expect(readSignalPage({ hits: { hits: [] } }, 10)).toEqual({
      signals: [],
      moreExist: false,
      lastSort: undefined,
    });
  });

  it('leaves out a hit that came back without its source', () => {
    expect(readSignalPage({ hits: { hits: [hit('a', 3), { sort: [2, 2] }] } }, 5)).toEqual({
      signals: [{ id: 'a' }],
      moreExist: false,
      lastSort: [2, 2],
    });
  });
});
