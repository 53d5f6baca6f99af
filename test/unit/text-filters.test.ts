import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { searchLeadsInput, searchSignalsInput } from '../../src/schemas/inputs.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { searchWithFallback } from '../../src/search/fallback.js';
import { buildLeadSearch } from '../../src/search/lead-query.js';
import { buildSignalSearch } from '../../src/search/signal-query.js';
import {
  MAX_TITLE_WORDS,
  readCompanyName,
  readIndustry,
  readSkills,
  readTitle,
  typoNotes,
} from '../../src/search/text-filters.js';

const now = new Date('2026-11-18T10:00:00Z');
type Answer = {
  total: number;
  suggest?: Record<string, Array<{ text: string; options: Array<{ text: string }> }>>;
};
const leadSearch = (args: Record<string, unknown>) =>
  buildLeadSearch(parseToolArguments(searchLeadsInput, args), FIRST_PAGE, 10, now);

describe('reading a title', () => {
  it('matches plural words as singular, with no note and a fuzzy reading kept for later', () => {
    const reading = readTitle('engineers', 'title');
    expect(reading.clause).toEqual({ bool: { filter: [{ term: { title_terms: 'engineer' } }] } });
    expect(reading.note).toBeUndefined();
    expect(reading.fuzzy?.clause).toEqual({
      bool: {
        filter: [
          {
            fuzzy: {
              title_terms: { value: 'engineer', fuzziness: 'AUTO', prefix_length: 1, max_expansions: 50 },
            },
          },
        ],
      },
    });
  });

  it('expands an abbreviation into phrases and says so', () => {
    const reading = readTitle('CTO', 'title');
    expect(reading.clause).toEqual({
      bool: {
        filter: [
          {
            bool: {
              should: [
                { term: { title_terms: 'cto' } },
                { match_phrase: { title_terms: 'chief technology officer' } },
              ],
              minimum_should_match: 1,
            },
          },
        ],
      },
    });
    expect(reading.note).toBe('Read the title "CTO" as Chief Technology Officer.');
    expect(reading.fuzzy).toBeUndefined();
  });

  it('reads a role noun beside a specialty as engineer or developer, and alone as typed', () => {
    const frontend = readTitle('front-end engineer', 'title');
    expect(frontend.clause).toEqual({
      bool: {
        filter: [
          { term: { title_terms: 'frontend' } },
          { terms: { title_terms: ['engineer', 'developer'] } },
        ],
      },
    });
    expect(frontend.note).toBe(
      'Read the title "front-end engineer" with "engineer" as Engineer or Developer.',
    );
    expect(readTitle('Senior Engineer', 'title').clause).toEqual({
      bool: { filter: [{ term: { title_terms: 'senior' } }, { term: { title_terms: 'engineer' } }] },
    });
    expect(readTitle('Senior Engineer', 'title').note).toBeUndefined();
  });

  it('keeps the precision traps apart', () => {
    expect(JSON.stringify(readTitle('engineer', 'title').clause)).not.toContain('engineering');
    expect(JSON.stringify(readTitle('java', 'title').clause)).not.toContain('javascript');
    expect(JSON.stringify(readTitle('data engineer', 'title').clause)).not.toContain('scientist');
    // A chief information officer is not a chief information security officer: a phrase, not three words.
    expect(readTitle('chief information officer', 'title').clause).toEqual({
      bool: { filter: [{ match_phrase: { title_terms: 'chief information officer' } }] },
    });
  });

  it('ignores word order, punctuation and stop words', () => {
    const ordered = readTitle('machine learning engineer', 'title').clause;
    const reordered = readTitle('Engineer, Machine-Learning', 'title').clause as {
      bool: { filter: unknown[] };
    };
    expect(new Set(reordered.bool.filter.map((clause) => JSON.stringify(clause)))).toEqual(
      new Set(
        (ordered as { bool: { filter: unknown[] } }).bool.filter.map((clause) => JSON.stringify(clause)),
      ),
    );
    expect(readTitle('head of data', 'title').clause).toEqual({
      bool: { filter: [{ term: { title_terms: 'head' } }, { term: { title_terms: 'data' } }] },
    });
  });

  it('matches nothing for a title without words', () => {
    expect(readTitle('?!', 'title')).toEqual({ clause: { match_none: {} } });
  });

  it('refuses more words than it searches, naming the field', () => {
    const long = Array.from({ length: MAX_TITLE_WORDS + 1 }, (_, index) => `word${index}`).join(' ');
    let error: unknown;
    try {
      readTitle(long, 'filters.title');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).details.field).toBe('filters.title');
    expect((error as DomainError).message).toMatch(/at most 12 are searched/);
  });
});

describe('reading skills and industries', () => {
  it('reads other names of skills as the skill and says so', () => {
    const reading = readSkills(['k8s', 'Postgres', 'python']);
    expect(reading.clause).toEqual({ terms: { skills_key: ['kubernetes', 'postgresql', 'python'] } });
    expect(reading.note).toBe('Read the skills "k8s" as Kubernetes and "Postgres" as PostgreSQL.');
    // Only the skill taken as typed is fuzzed in the second reading.
    expect(Object.values(reading.fuzzy?.suggest ?? {}).map((suggester) => suggester.text)).toEqual([
      'python',
    ]);
  });

  it('reads an industry by any of its names', () => {
    expect(readIndustry('finance')).toMatchObject({
      clause: { terms: { industry_key: ['fintech', 'banking', 'insurance'] } },
      note: 'Read the industry "finance" as Fintech, Banking or Insurance.',
    });
    expect(readIndustry('E-Commerce')).toEqual(
      expect.objectContaining({ clause: { term: { industry_key: 'ecommerce' } } }),
    );
  });

  it('reads a company name as a substring, literal wildcards escaped, and fuzzily as words', () => {
    const reading = readCompanyName('Bänk*?\\', 'company.name_key', 'company.name');
    expect(reading.clause).toEqual({ wildcard: { 'company.name_key': { value: '*bank\\*\\?\\\\*' } } });
    expect(reading.fuzzy?.clause).toEqual({
      match: {
        'company.name': {
          query: 'bank*?\\',
          operator: 'and',
          fuzziness: 'AUTO',
          prefix_length: 1,
          max_expansions: 50,
        },
      },
    });
  });
});

describe('the fallback reading', () => {
  it('exists only when a word can be fuzzed and the place is known', () => {
    expect(leadSearch({ title: 'enginer' }).fallback?.body.query).toEqual({
      bool: {
        filter: expect.arrayContaining([
          { bool: { filter: [{ fuzzy: { title_terms: expect.objectContaining({ value: 'enginer' }) } }] } },
        ]),
      },
    });
    expect(leadSearch({ title: 'CTO' }).fallback).toBeUndefined();
    expect(leadSearch({ experience_level: 'Senior' }).fallback).toBeUndefined();
    expect(leadSearch({ title: 'enginer', location: 'Narnia' }).fallback).toBeUndefined();
  });

  it('keeps the page, order and cursor position of the first reading', () => {
    const search = buildLeadSearch(
      parseToolArguments(searchLeadsInput, { title: 'enginer' }),
      { searchAfter: [1, 2], served: 10 },
      5,
      now,
    );
    const { query: _query, suggest, ...rest } = search.fallback?.body ?? {};
    const { query: _first, ...first } = search.body;
    expect(rest).toEqual(first);
    expect(suggest).toEqual({ typo_title: expect.objectContaining({ text: 'enginer' }) });
  });

  it('reads a signal company name fuzzily only in the fallback', () => {
    const search = buildSignalSearch(
      parseToolArguments(searchSignalsInput, { company_name: 'brightpth' }),
      now,
      FIRST_PAGE,
      10,
    );
    expect(JSON.stringify(search.body)).not.toContain('fuzziness');
    expect(JSON.stringify(search.fallback?.body)).toContain('fuzziness');
  });

  it('runs the second request only when the first found nothing, and then says what it read', async () => {
    const search = leadSearch({ title: 'enginer' });
    const sent: unknown[] = [];
    const run = async (body: unknown): Promise<Answer> => {
      sent.push(body);
      return sent.length === 1
        ? { total: 0 }
        : { total: 3, suggest: { typo_title: [{ text: 'enginer', options: [{ text: 'engineer' }] }] } };
    };
    const result = await searchWithFallback(search, run, (response) => response.total > 0);
    expect(sent).toEqual([search.body, search.fallback?.body]);
    expect(result.notes).toEqual(['No role title contains "enginer", so it was read as "engineer".']);

    sent.length = 0;
    const found = await searchWithFallback(
      search,
      async (): Promise<Answer> => ({ total: 1 }),
      (response) => response.total > 0,
    );
    expect(found.notes).toEqual([]);
  });

  it('says nothing about spellings when the fuzzy reading finds nothing either', async () => {
    const search = leadSearch({ title: 'zzzzzz' });
    const result = await searchWithFallback(
      search,
      async (): Promise<Answer> => ({ total: 0 }),
      (response) => response.total > 0,
    );
    expect(result.notes).toEqual([]);
  });

  it('words a note for each filter read fuzzily', () => {
    const typos = [
      readSkills(['kuberntes']).fuzzy,
      readCompanyName('brightpth', 'company.name_key', 'company.name').fuzzy,
    ].flatMap((typo) => (typo ? [typo] : []));
    expect(
      typoNotes(typos, {
        typo_skills_key_0: [{ text: 'kuberntes', options: [{ text: 'kubernetes' }] }],
        typo_company_name: [{ text: 'brightpth', options: [] }],
      }),
    ).toEqual([
      'No role lists the skill "kuberntes", so it was read as "kubernetes".',
      'No company name contains "brightpth" exactly, so close spellings were searched.',
    ]);
  });
});
