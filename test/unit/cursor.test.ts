import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { MAX_CURSOR_LENGTH, searchLeadsInput } from '../../src/schemas/inputs.js';
import {
  argumentsFingerprint,
  decodeCursor,
  encodeCursor,
  type PagePosition,
} from '../../src/search/cursor.js';
import { finishPage, MAX_PAGEABLE_RESULTS, planPage, shortenedByQuotaNote } from '../../src/search/paging.js';
import { tools } from '../../src/tools/registry.js';

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

describe('cursor decoding is strict', () => {
  const cursor = encodeCursor(secret, { tool: 'search_leads', args, position });
  const [payload = '', signature = ''] = cursor.split('.');
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  /** The same text with the lowest bit of its last character flipped: an unused bit when the text is 43 characters of 32 bytes. */
  const flipLastBit = (text: string) =>
    text.slice(0, -1) + ALPHABET[ALPHABET.indexOf(text.at(-1) as string) ^ 1];

  it.each([
    ['padding', '='],
    ['a character outside the alphabet', '~'],
    ['punctuation', '!'],
    ['a space', ' '],
    ['a newline', '\n'],
    ['a non-ASCII letter', 'é'],
  ])('refuses a cursor with %s added, which a lenient decoder would skip', (_case, extra) => {
    const error = cursorError(() => decodeCursor(secret, 'search_leads', args, cursor + extra));
    expect(error.details.field).toBe('cursor');
    expect(error.message).toMatch(/not valid/);
  });

  it('refuses a signature spelled with unused trailing bits set', () => {
    const loose = flipLastBit(signature);
    expect(Buffer.from(loose, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
    expect(
      cursorError(() => decodeCursor(secret, 'search_leads', args, `${payload}.${loose}`)).message,
    ).toMatch(/not valid/);
  });

  it('refuses a payload spelled loosely even under a valid signature', () => {
    // A payload whose encoding ends in a partial group, so its last character has unused bits.
    const json = [0, 10, 100]
      .map((served) =>
        Buffer.from(JSON.stringify({ v: 1, tool: 'search_leads', args: '', after: null, served })),
      )
      .find((bytes) => bytes.length % 3 !== 0) as Buffer;
    const canonical = json.toString('base64url');
    const loose = flipLastBit(canonical);
    expect(Buffer.from(loose, 'base64url').equals(json)).toBe(true);
    const signed = (text: string) =>
      `${text}.${createHmac('sha256', secret).update(text).digest('base64url')}`;
    expect(cursorError(() => decodeCursor(secret, 'search_leads', args, signed(loose))).message).toMatch(
      /not valid/,
    );
    // The canonical spelling of the same payload passes the decoding and fails only on the arguments.
    expect(cursorError(() => decodeCursor(secret, 'search_leads', args, signed(canonical))).message).toMatch(
      /different search/,
    );
  });

  it('refuses a cursor longer than any the server issues, before reading it', () => {
    const longestTool = tools.reduce(
      (longest, tool) => (tool.name.length > longest.length ? tool.name : longest),
      '',
    );
    const longest = encodeCursor(secret, {
      tool: longestTool,
      args,
      position: { searchAfter: [-Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER], served: 999 },
    });
    expect(longest.length).toBeLessThan(MAX_CURSOR_LENGTH / 2);
    const padded = `${cursor}${'A'.repeat(MAX_CURSOR_LENGTH - cursor.length)}`;
    expect(cursorError(() => decodeCursor(secret, 'search_leads', args, padded)).message).toMatch(
      /not valid/,
    );
    const tooLong = `${padded}A`;
    const error = cursorError(() => decodeCursor(secret, 'search_leads', args, tooLong));
    expect(error.details.field).toBe('cursor');
    expect(error.message).toMatch(
      new RegExp(`longer than any this server issues \\(at most ${MAX_CURSOR_LENGTH}`),
    );
  });

  it('is what the cursor parameter allows', () => {
    const tooLong = 'A'.repeat(MAX_CURSOR_LENGTH + 1);
    expect(() => parseToolArguments(searchLeadsInput, { cursor: tooLong })).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: 'cursor' }) }),
    );
    expect(
      parseToolArguments(searchLeadsInput, { cursor: 'A'.repeat(MAX_CURSOR_LENGTH) }).cursor,
    ).toHaveLength(MAX_CURSOR_LENGTH);
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
