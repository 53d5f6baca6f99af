import { describe, expect, it } from 'vitest';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { finishPage, shortenedByQuotaNote } from '../../src/search/paging.js';

// Edge cases of page planning; test/unit/cursor.test.ts has the main cases.

const search = { secret: 'test-secret-0123456789', tool: 'search_leads', args: { page_size: 10 } };

describe('finishing a page', () => {
  it('gives no cursor after an empty page, even when more results exist', () => {
    // A page cut to nothing (no quota left) has no last result to continue after.
    expect(finishPage(search, { position: FIRST_PAGE, size: 10 }, { returned: 0, moreExist: true })).toEqual({
      next_cursor: null,
      notes: [],
    });
  });
});

describe('the note on a page shortened by the quota', () => {
  it('says result or results as the count needs', () => {
    expect(shortenedByQuotaNote(1, 'lead explores', '2026-11-19T00:00:00.000Z')).toBe(
      'This page holds only 1 result because that is all the lead explores quota had left today; it resets at 2026-11-19T00:00:00.000Z.',
    );
    expect(shortenedByQuotaNote(3, 'lead explores', '2026-11-19T00:00:00.000Z')).toMatch(
      /^This page holds only 3 results because/,
    );
  });
});
