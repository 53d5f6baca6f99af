import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import {
  argumentsFingerprint,
  decodeCursor,
  encodeCursor,
  type PagePosition,
} from '../../src/search/cursor.js';
import { finishPage, MAX_PAGEABLE_RESULTS, planPage, shortenedByQuotaNote } from '../../src/search/paging.js';
import { parseToolArguments, searchLeadsInput } from '../../src/tools/params.js';

const secret = 'test-secret-0123456789';
const position: PagePosition = { searchAfter: [1793577600000, 42], served: 20 };
const args = { title: 'engineer', skills: ['Go'], page_size: 10, include_recruitment_agencies: false };

function cursorError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the cursor to be rejected');
}

describe('cursor codec', () => {
  it('round-trips the position for the same tool and arguments', () => {
    const cursor = encodeCursor(secret, { tool: 'search_leads', args, position });
    expect(decodeCursor(secret, 'search_leads', args, cursor)).toEqual(position);
  });

  it('is opaque base64url text', () => {
    expect(encodeCursor(secret, { tool: 'search_leads', args, position })).toMatch(
      /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
    );
  });

  it('lets page_size change between pages and ignores the cursor argument itself', () => {
    const cursor = encodeCursor(secret, { tool: 'search_leads', args, position });
    const nextArgs = { ...args, page_size: 25, cursor };
    expect(decodeCursor(secret, 'search_leads', nextArgs, cursor)).toEqual(position);
  });

  it('treats omitted defaults, undefined values, empty lists and key order as the same search', () => {
    const parsedOmitted = parseToolArguments(searchLeadsInput, { title: 'x' });
    const parsedExplicit = parseToolArguments(searchLeadsInput, {
      salary_currency: 'GBP',
      include_recruitment_agencies: false,
      title: 'x',
      skills: [],
    });
    expect(argumentsFingerprint(parsedOmitted)).toBe(argumentsFingerprint(parsedExplicit));
    expect(argumentsFingerprint({ a: 1, b: undefined })).toBe(argumentsFingerprint({ a: 1 }));
  });

  it.each([
    ['other filters', 'search_leads', { ...args, title: 'designer' }],
    ['an added filter', 'search_leads', { ...args, work_type: 'Remote' }],
    ['another tool', 'search_signals', args],
  ])('rejects a cursor reused with %s', (_case, tool, otherArgs) => {
    const cursor = encodeCursor(secret, { tool: 'search_leads', args, position });
    const error = cursorError(() => decodeCursor(secret, tool, otherArgs, cursor));
    expect(error.code).toBe('invalid_argument');
    expect(error.details.field).toBe('cursor');
    expect(error.message).toMatch(/different search/);
  });

  it('rejects altered, foreign and malformed cursors', () => {
    const cursor = encodeCursor(secret, { tool: 'search_leads', args, position });
    const [payload = '', signature = ''] = cursor.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), served: 0 }),
    ).toString('base64url');
    const candidates = [
      `${forged}.${signature}`,
      `${payload}.${signature.slice(0, -2)}AA`,
      encodeCursor('another-secret-0123456789', { tool: 'search_leads', args, position }),
      'not-a-cursor',
      `${cursor}.extra`,
      '.',
    ];
    for (const candidate of candidates) {
      const error = cursorError(() => decodeCursor(secret, 'search_leads', args, candidate));
      expect(error.details.field).toBe('cursor');
      expect(error.message).toMatch(/not valid/);
    }
  });
});

describe('paging', () => {
  const search = (extra: Record<string, unknown> = {}) => ({
    secret,
    tool: 'search_leads',
    args: { ...args, ...extra },
  });

  it('starts at the first page and continues from a cursor', () => {
    expect(planPage(search())).toEqual({ position: { searchAfter: null, served: 0 }, size: 10 });
    const cursor = encodeCursor(secret, { tool: 'search_leads', args, position });
    expect(planPage(search({ cursor, page_size: 5 })).position).toEqual(position);
  });

  it('says how many results a page shortened by the quota holds', () => {
    expect(shortenedByQuotaNote(4, 'lead explores', '2026-11-19T00:00:00.000Z')).toContain('4 results');
  });

  it('issues a cursor carrying the last sort values and the served count', () => {
    const plan = planPage(search());
    const outcome = finishPage(search(), plan, { returned: 10, moreExist: true, lastSort: [5, 6] });
    expect(outcome.notes).toEqual([]);
    expect(outcome.next_cursor).not.toBeNull();
    expect(decodeCursor(secret, 'search_leads', args, outcome.next_cursor ?? '')).toEqual({
      searchAfter: [5, 6],
      served: 10,
    });
  });

  it('gives no cursor on the last page', () => {
    const plan = planPage(search());
    expect(finishPage(search(), plan, { returned: 7, moreExist: false, lastSort: [1] })).toEqual({
      next_cursor: null,
      notes: [],
    });
  });

  it('cuts the page that would pass result 1,000 and says to narrow the filters', () => {
    const near = encodeCursor(secret, {
      tool: 'search_leads',
      args,
      position: { searchAfter: [1], served: 995 },
    });
    const plan = planPage(search({ cursor: near }));
    expect(plan.size).toBe(MAX_PAGEABLE_RESULTS - 995);
    const outcome = finishPage(search({ cursor: near }), plan, {
      returned: plan.size,
      moreExist: true,
      lastSort: [0],
    });
    expect(outcome.next_cursor).toBeNull();
    expect(outcome.notes.join(' ')).toMatch(/first 1,000 results.*Narrow the filters/);
  });
});
