import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { legalFormAtEnd } from '../../src/reference/vocabulary.js';
import { searchLeadsInput, searchSignalsInput } from '../../src/schemas/inputs.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { searchWithFallback } from '../../src/search/fallback.js';
import { buildLeadSearch } from '../../src/search/lead-query.js';
import { buildSignalSearch } from '../../src/search/signal-query.js';
import {
  readCompanyName,
  readIndustry,
  readSkills,
  secondReadingNotes,
  suggester,
} from '../../src/search/text-filters.js';

const now = new Date('2026-11-18T10:00:00Z');
type Answer = {
  total: number;
  suggest?: Record<string, Array<{ text: string; options: Array<{ text: string }> }>>;
  aggregations?: Record<string, unknown>;
};
/** The `second_readings` aggregation of a second request, as Elasticsearch answers it. */
const counted = (counts: Record<string, number>) => ({
  second_readings: {
    buckets: Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, { doc_count: count }])),
  },
});
const leadSearch = (args: Record<string, unknown>) =>
  buildLeadSearch(parseToolArguments(searchLeadsInput, args), FIRST_PAGE, 10, now);

describe('reading skills and industries', () => {
  it('reads other names of skills as the skill and says so', () => {
    const reading = readSkills(['k8s', 'Postgres', 'python']);
    expect(reading.clause).toEqual({ terms: { skills_key: ['kubernetes', 'postgresql', 'python'] } });
    expect(reading.note).toBe('Read the skills "k8s" as Kubernetes and "Postgres" as PostgreSQL.');
    // Only the skill taken as typed is fuzzed in the second reading.
    expect(Object.values(reading.second?.suggest ?? {}).map((suggester) => suggester.text)).toEqual([
      'python',
    ]);
  });

  it('says that soft skills are read by no filter', () => {
    expect(readSkills(['k8s', 'communication']).note).toBe(
      'Read the skill "k8s" as Kubernetes. "communication" is a soft skill, which roles list apart from their skills: no filter reads soft skills.',
    );
    expect(readSkills(['Leadership', 'Teamwork']).note).toMatch(
      /^"Leadership" and "Teamwork" are soft skills,/,
    );
  });

  it('reads a skill without the words that say how it is known, and "and" between two skills', () => {
    expect(readSkills(['kubernetes experience'])).toMatchObject({
      clause: { terms: { skills_key: ['kubernetesexperience', 'kubernetes'] } },
      note: 'Read the skill "kubernetes experience" as Kubernetes.',
    });
    expect(readSkills(['experience with Python']).note).toBe(
      'Read the skill "experience with Python" as Python.',
    );
    expect(readSkills(['Python and Django'])).toMatchObject({
      clause: { terms: { skills_key: ['pythondjango', 'python', 'django'] } },
      note: 'Read the skill "Python and Django" as Python or Django.',
    });
    // Skills joined once the words around them are left out; years of experience; a version written on.
    expect(readSkills(['experience with React and TypeScript']).note).toBe(
      'Read the skill "experience with React and TypeScript" as React or TypeScript.',
    );
    expect(readSkills(['5+ years Python']).note).toBe('Read the skill "5+ years Python" as Python.');
    expect(readSkills(['Python (3+ years)']).note).toBe('Read the skill "Python (3+ years)" as Python.');
    expect(readSkills(['sql (advanced)']).note).toBe('Read the skill "sql (advanced)" as SQL.');
    // Named as the data names the skill, not as typed without the version.
    expect(readSkills(['vue 3']).note).toBe('Read the skill "vue 3" as Vue.js.');
    expect(readSkills(['HTML5']).keys).toEqual(['html5', 'html']);
    // Two letters and a digit are a name of their own, not a name and its version.
    expect(readSkills(['aws ec2']).note).toBeUndefined();
    expect(readSkills(['Kafka or RabbitMQ']).note).toBe(
      'Read the skill "Kafka or RabbitMQ" as Kafka or RabbitMQ.',
    );
    expect(readSkills(['Power BI / Tableau']).clause).toEqual({
      terms: { skills_key: ['powerbitableau', 'powerbi', 'tableau'] },
    });
    // "CI" is another name of CI/CD; "CD" is read as typed.
    expect(readSkills(['CI / CD']).clause).toMatchObject({ terms: { skills_key: ['cicd', 'cd'] } });
    expect(readSkills(['Next']).note).toBe('Read the skill "Next" as Next.js.');
    // Words of a name are not noise in its middle, and a name of noise alone reads as itself.
    expect(readSkills(['Natural Language Processing']).clause).toEqual({ term: { skills_key: 'nlp' } });
    expect(readSkills(['programming']).clause).toEqual({ term: { skills_key: 'programming' } });
    // Microsoft's SQL Server is no MySQL, which a close spelling of "mssql" would read.
    expect(readSkills(['MS SQL']).note).toBe('Read the skill "MS SQL" as SQL.');
  });

  it('reads an industry by any of its names', () => {
    expect(readIndustry('finance')).toMatchObject({
      clause: { terms: { industry_key: ['fintech', 'banking', 'insurance'] } },
      note: 'Read the industry "finance" as Fintech, Banking or Insurance.',
    });
    expect(readIndustry('fintech or gaming')).toMatchObject({
      clause: { terms: { industry_key: ['fintechorgaming', 'fintech', 'gaming'] } },
      note: 'Read the industry "fintech or gaming" as Fintech or Gaming.',
    });
    expect(readIndustry('finance, gaming').note).toBe(
      'Read the industry "finance, gaming" as Fintech, Banking, Insurance or Gaming.',
    );
    // "&" and "and" are in the data's names, not between two industries.
    expect(readIndustry('Media & Entertainment')).toEqual({
      clause: { term: { industry_key: 'mediaentertainment' } },
      keys: ['mediaentertainment'],
      second: expect.anything(),
    });
    expect(readIndustry('E-Commerce')).toEqual(
      expect.objectContaining({ clause: { term: { industry_key: 'ecommerce' } } }),
    );
  });

  it('reads a company name as a substring, literal wildcards escaped, and fuzzily as words', () => {
    const reading = readCompanyName('Bänk*?\\', 'company.name_key', 'company.name');
    expect(reading.clause).toEqual({ wildcard: { 'company.name_key': { value: '*bank\\*\\?\\\\*' } } });
    expect(reading.second?.choices.map((choice) => [choice.name, choice.tier, choice.clause])).toEqual([
      ['company_name_as_read', -1, reading.clause],
      [
        'company_name_close_spellings',
        1,
        {
          match: {
            'company.name': {
              query: 'bank*?\\',
              operator: 'and',
              fuzziness: 'AUTO:4,8',
              prefix_length: 1,
              max_expansions: 50,
            },
          },
        },
      ],
    ]);
  });
});

describe('an industry named with words that say it is one', () => {
  it('is also read without them, with a note', () => {
    expect(readIndustry('the banking sector')).toMatchObject({
      clause: { terms: { industry_key: ['thebankingsector', 'banking'] } },
      note: 'Read the industry "the banking sector" as Banking.',
    });
    expect(readIndustry('AI startups').note).toBe(
      'Read the industry "AI startups" as Artificial Intelligence.',
    );
    expect(readIndustry('fintech or banking firms').clause).toEqual({
      terms: { industry_key: ['fintechorbankingfirm', 'fintech', 'banking'] },
    });
  });
});

describe('an industry joined by "and"', () => {
  it('is read again as each part that reads as something else, then fuzzily', () => {
    const second = readIndustry('banking & finance').second;
    expect(second?.choices.map((choice) => [choice.name, choice.tier, choice.clause, choice.part])).toEqual([
      ['industry_key_as_read', -1, { term: { industry_key: 'bankingfinance' } }, undefined],
      [
        'industry_key_close_spellings',
        1,
        { fuzzy: { industry_key: expect.objectContaining({ value: 'bankingfinance' }) } },
        undefined,
      ],
      [
        'industry_part_0',
        0,
        { term: { industry_key: 'banking' } },
        { whole: 'banking & finance', typed: 'banking' },
      ],
      [
        'industry_part_1',
        0,
        { terms: { industry_key: ['fintech', 'banking', 'insurance'] } },
        { whole: 'banking & finance', typed: 'finance', names: ['Fintech', 'Banking', 'Insurance'] },
      ],
    ]);
    const found = (names: string[]) => ({ found: (name: string) => (names.includes(name) ? 5 : 0) });
    expect(secondReadingNotes(second ? [second] : [], found(['industry_part_0', 'industry_part_1']))).toEqual(
      [
        'No role is in the industry "banking & finance", so "banking" was read on its own and "finance" was read as Fintech, Banking or Insurance.',
      ],
    );
    expect(secondReadingNotes(second ? [second] : [], found(['industry_part_0']))).toEqual([
      'No role is in the industry "banking & finance", so "banking" was read on its own.',
    ]);
  });

  it('keeps the plain second reading when its parts add nothing', () => {
    for (const typed of ['Media & Entertainment', 'fintec']) {
      expect(readIndustry(typed).second?.choices.map((choice) => choice.name)).toEqual([
        'industry_key_as_read',
        'industry_key_close_spellings',
      ]);
    }
  });
});

describe('a skill of several words', () => {
  const runs = (skills: string[]) =>
    readSkills(skills)
      .second?.choices.filter((choice) => choice.part)
      .map((choice) => [choice.tier, choice.clause, choice.part?.typed]);

  it('is read again as each shorter run of its words, longer runs first, then earlier ones', () => {
    expect(runs(['rest api design'])).toEqual([
      [2, { term: { skills_key: 'restapi' } }, 'rest api'],
      [3, { term: { skills_key: 'apidesign' } }, 'api design'],
      // "rest" reads as REST APIs, already counted as "rest api".
      [8, { term: { skills_key: 'api' } }, 'api'],
      [9, { term: { skills_key: 'design' } }, 'design'],
    ]);
    expect(runs(['docker-compose'])).toEqual([
      [2, { term: { skills_key: 'docker' } }, 'docker'],
      [3, { term: { skills_key: 'compose' } }, 'compose'],
    ]);
  });

  it('reads a run by its other names, and never as a single letter or a word about knowing it', () => {
    expect(runs(['c compiler'])).toEqual([[3, { term: { skills_key: 'compiler' } }, 'compiler']]);
    expect(runs(['kube operators'])).toEqual([
      [2, { term: { skills_key: 'kubernetes' } }, 'kube'],
      [3, { term: { skills_key: 'operator' } }, 'operators'],
    ]);
    expect(runs(['experience with jenkins', 'nest js'])).toEqual([]);
    // A skill named whole as the vocabulary names it is that one skill, not its words ("BI", "React").
    expect(runs(['Power BI', 'React Native'])).toEqual([]);
  });

  it('is bounded: words of one skill and runs over all skills', () => {
    expect(runs(['a b c d e f g'])).toEqual([]);
    const many = Array.from({ length: 10 }, (_, index) => `tool${index} plugin${index} setup${index}`);
    expect(runs(many)).toHaveLength(24);
  });

  it('says for each skill which run was read', () => {
    const second = readSkills(['jenkins pipelines', 'graphql api']).second;
    const found = { found: (name: string) => (name.startsWith('skills_key_run') ? 7 : 0) };
    expect(secondReadingNotes(second ? [second] : [], found)).toEqual([
      'No role lists the skill "jenkins pipelines", so "jenkins" was read on its own.',
      'No role lists the skill "graphql api", so "graphql" was read on its own.',
    ]);
    // A run is quoted as typed, with the signs inside it.
    const slashed = readSkills(['CI/CD pipelines']).second;
    expect(secondReadingNotes(slashed ? [slashed] : [], found)).toEqual([
      'No role lists the skill "CI/CD pipelines", so "CI/CD" was read on its own.',
    ]);
    // Names the vocabulary knows are alike: each that finds something is kept.
    expect(runs(['python sql'])?.map(([tier, , typed]) => [tier, typed])).toEqual([
      [2, 'python'],
      [2, 'sql'],
    ]);
    // A kind of tool is no name of one: "terraform cloud" is Terraform first.
    expect(runs(['terraform cloud'])?.map(([tier, , typed]) => [tier, typed])).toEqual([
      [2, 'terraform'],
      [3, 'cloud'],
    ]);
    const both = readSkills(['python sql']).second;
    expect(secondReadingNotes(both ? [both] : [], found)).toEqual([
      'No role lists the skill "python sql", so "python" and "sql" were read on their own.',
    ]);
  });
});

describe('another name of the vocabulary misspelt', () => {
  it('is read as what that name means, after the close spellings the index has', () => {
    const close = (reading: ReturnType<typeof readIndustry>) =>
      reading.second?.choices.filter((choice) => choice.name.includes('_close_alias_'));
    expect(close(readIndustry('helthcare'))).toEqual([
      {
        name: 'industry_key_close_alias_0',
        tier: 1.5,
        clause: { term: { industry_key: 'healthtech' } },
        note: 'No role is in the industry "helthcare", so it was read as Health Tech.',
      },
    ]);
    expect(close(readSkills(['python', 'sklern']))?.map((choice) => choice.note)).toEqual([
      'No role lists the skill "sklern", so it was read as scikit-learn.',
    ]);
    // A name the vocabulary knows is no misspelling of another.
    expect(close(readIndustry('fintech'))).toEqual([]);
  });
});

describe('an industry of several words', () => {
  const runs = (industry: string) =>
    readIndustry(industry)
      .second?.choices.filter((choice) => choice.part)
      .map((choice) => [choice.tier, choice.clause, choice.part?.typed]);

  it('is read again as each shorter run of its words, longer runs first, then later ones', () => {
    expect(runs('retail banking')).toEqual([
      [3, { term: { industry_key: 'retail' } }, 'retail'],
      [2, { term: { industry_key: 'banking' } }, 'banking'],
    ]);
    expect(runs('online gaming games')?.map(([tier, , typed]) => [tier, typed])).toEqual([
      [3, 'online gaming'],
      [2, 'gaming games'],
      [9, 'online'],
      [8, 'gaming'],
      // "games" reads as Gaming too, already counted as "gaming".
    ]);
  });

  it('leaves the runs to the parts of a name joined by "and"', () => {
    expect(runs('banking and finance')?.map(([, , typed]) => typed)).toEqual(['banking', 'finance']);
  });
});

describe('a company name typed with a legal form', () => {
  it.each([
    ['Everstream Ltd', { rest: 'Everstream', form: 'Ltd' }],
    ['Everstream, Inc.', { rest: 'Everstream', form: 'Inc.' }],
    ['Acme Pty Ltd', { rest: 'Acme', form: 'Pty Ltd' }],
    ['Nordwerk GmbH & Co. KG', { rest: 'Nordwerk', form: 'GmbH & Co. KG' }],
    ['Banco S.A.', { rest: 'Banco', form: 'S.A.' }],
    // Descriptors people add to a name, before a legal form too.
    ['Snowline Technologies', { rest: 'Snowline', form: 'Technologies' }],
    ['Snowline AI Ltd', { rest: 'Snowline', form: 'AI Ltd' }],
    ['Starlane Security company', { rest: 'Starlane Security', form: 'company' }],
    ['Ltd', undefined],
    ['Everstream', undefined],
    ['Limited Edition Games', undefined],
  ])('finds the form that ends "%s"', (typed, found) => {
    expect(legalFormAtEnd(typed)).toEqual(found);
  });

  it('reads a handle or a name in parts joined by a hyphen as the name', () => {
    const choices = (typed: string) =>
      readCompanyName(typed, 'company.name_key', 'company.name').second?.choices.map((choice) => [
        choice.name,
        choice.clause,
      ]);
    expect(choices('@snowline')).toContainEqual([
      'company_name_bare',
      { wildcard: { 'company.name_key': { value: '*snowline*' } } },
    ]);
    expect(choices('Snow-line')).toContainEqual([
      'company_name_joined',
      { wildcard: { 'company.name_key': { value: '*snowline*' } } },
    ]);
  });

  it('is read again without it, then fuzzily, as choices of the second reading', () => {
    const reading = readCompanyName('Everstrem, Inc.', 'company.name_key', 'company.name');
    expect(reading.clause).toEqual({ wildcard: { 'company.name_key': { value: '*everstrem, inc.*' } } });
    expect(reading.second?.choices).toEqual([
      { name: 'company_name_as_read', tier: -1, clause: reading.clause },
      {
        name: 'company_name_without_legal_form',
        tier: 0,
        clause: { wildcard: { 'company.name_key': { value: '*everstrem*' } } },
        note: 'No company name contains "Everstrem, Inc.", so it was read without "Inc.".',
      },
      {
        name: 'company_name_close_spellings',
        tier: 1,
        clause: {
          match: {
            'company.name': {
              query: 'everstrem',
              operator: 'and',
              fuzziness: 'AUTO:4,8',
              prefix_length: 1,
              max_expansions: 50,
            },
          },
        },
        typo: true,
      },
    ]);
    expect(reading.second?.suggest).toEqual({ typo_company_name: suggester('company.name', 'everstrem') });
  });
});

describe('the second reading', () => {
  it('exists only when a word can be read another way and the place is known', () => {
    expect(JSON.stringify(leadSearch({ title: 'enginer' }).fallback?.body.query)).toContain(
      '{"fuzzy":{"title_terms":{"value":"enginer"',
    );
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
    const { query: _query, suggest, aggs, ...rest } = search.fallback?.body ?? {};
    const { query: _first, ...first } = search.body;
    expect(rest).toEqual(first);
    expect(suggest).toEqual({ typo_title: expect.objectContaining({ text: 'enginer' }) });
    // Each way of reading the title is counted in the same request, for the notes.
    expect(Object.keys((aggs?.second_readings?.filters?.filters ?? {}) as object)).toEqual([
      'title_as_read',
      'title_0_close_spellings',
      'title_0_skill_0',
    ]);
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

  it("reads a company's name as typed when a company has it, the other filters read again", async () => {
    const signalSearch = (args: Record<string, unknown>) =>
      buildSignalSearch(parseToolArguments(searchSignalsInput, args), now, FIRST_PAGE, 10);
    const alone = signalSearch({ company_name: 'Snowlink' });
    expect(alone.fallback?.named).toEqual({
      clause: { wildcard: { name_key: { value: '*snowlink*' } } },
      note: `A company's name contains "Snowlink", so it was not read as another name.`,
      fallback: undefined,
    });
    const sent: unknown[] = [];
    const looked: unknown[] = [];
    const result = await searchWithFallback(
      alone,
      async (body: unknown) => {
        sent.push(body);
        return { hits: { hits: [] } };
      },
      (response) => response.hits.hits.length > 0,
      async (query) => {
        looked.push(query);
        return true;
      },
    );
    expect(sent).toEqual([alone.body]);
    expect(looked).toEqual([alone.fallback?.named?.clause]);
    expect(result.notes).toEqual([
      `A company's name contains "Snowlink", so it was not read as another name.`,
    ]);
    // A name that some company's is without its legal form is still read without it, not by close spellings.
    const withForm = signalSearch({ company_name: 'www.snowlink.com' }).fallback?.named;
    expect(withForm?.note).toBe(`A company's name contains "snowlink", so it was not read as another name.`);
    expect(
      withForm?.fallback?.readings.map((reading) => reading.choices.map((choice) => choice.name)),
    ).toEqual([['company_name_as_read', 'company_name_bare']]);
    expect(withForm?.fallback?.named).toBeUndefined();
    // A name no company has is read again, by close spellings.
    const unknown = await searchWithFallback(
      alone,
      async (body: unknown) => ({ hits: { hits: body === alone.body ? [] : [{}] } }),
      (response) => response.hits.hits.length > 0,
      async () => false,
    );
    expect(unknown.notes.join(' ')).not.toContain("A company's name");
  });

  it('runs the second request only when the first found nothing, and then says what it read', async () => {
    const search = leadSearch({ title: 'enginer' });
    const sent: unknown[] = [];
    const run = async (body: unknown): Promise<Answer> => {
      sent.push(body);
      return sent.length === 1
        ? { total: 0 }
        : {
            total: 3,
            suggest: { typo_title: [{ text: 'enginer', options: [{ text: 'engineer' }] }] },
            aggregations: counted({ title_0_close_spellings: 3, title_0_skill_0: 0 }),
          };
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
      readSkills(['kuberntes']).second,
      readCompanyName('brightpth', 'company.name_key', 'company.name').second,
    ].flatMap((typo) => (typo ? [typo] : []));
    // Elasticsearch names the skill by its key; the note quotes it as typed.
    const suggest = {
      typo_skills_key_0: [{ text: 'kubernte', options: [{ text: 'kubernetes' }] }],
      typo_company_name: [{ text: 'brightpth', options: [] }],
    };
    const foundOnlyBy = (names: string[]) => (name: string) => (names.includes(name) ? 3 : 0);
    expect(
      secondReadingNotes(typos, {
        suggest,
        found: foundOnlyBy(['skills_key_close_spellings', 'company_name_close_spellings']),
      }),
    ).toEqual([
      'No role lists the skill "kuberntes", so it was read as "kubernetes".',
      'No company name contains "brightpth" exactly, so close spellings were searched.',
    ]);
    // A filter that finds something as first read beside the others read again keeps its reading,
    // and says nothing.
    expect(
      secondReadingNotes(typos, {
        suggest,
        found: foundOnlyBy([
          'skills_key_close_spellings',
          'company_name_as_read',
          'company_name_close_spellings',
        ]),
      }),
    ).toEqual(['No role lists the skill "kuberntes", so it was read as "kubernetes".']);
  });
});

describe('the second reading of a title', () => {
  /** Runs `search` against Elasticsearch answering `answers` in turn; the bodies it sent. */
  async function answered(search: ReturnType<typeof leadSearch>, answers: readonly Answer[]) {
    const sent: Array<{ query?: unknown }> = [];
    const result = await searchWithFallback(
      search,
      async (body) => {
        sent.push(body);
        return answers[sent.length - 1] as Answer;
      },
      (response) => response.total > 0,
    );
    return { sent, result };
  }

  it('keeps only the preferred readings that found something, in a third request when others did too', async () => {
    // "Java Developer, Berlin": Berlin read as the place is preferred to "java" read as a skill.
    const search = leadSearch({ title: 'Java Developer, Berlin' });
    const choices = search.fallback?.readings[0]?.choices ?? [];
    expect(choices.map((choice) => [choice.name, choice.tier])).toEqual([
      ['title_as_read', -1],
      ['title_0_places', 0],
      // Close spellings with the place read as the place.
      ['title_0_close_spellings', 1],
      ['title_0_skill_0', 2],
      ['title_0_skill_1', 2],
      ['title_0_places_skill_0', 2],
      // "java" read as an industry, with the place, as words read as filters are.
      ['title_0_title_industry_0', 3],
      // "Java" is also a town in Georgia, too small to be read out of a title.
    ]);
    const { sent, result } = await answered(search, [
      { total: 0 },
      {
        total: 90,
        aggregations: counted({ title_0_places: 20, title_0_close_spellings: 70, title_0_skill_0: 60 }),
      },
      { total: 20 },
    ]);
    expect(sent).toHaveLength(3);
    expect(result.response.total).toBe(20);
    expect(JSON.stringify(sent[2]?.query)).not.toContain('skills_key');
    expect(JSON.stringify(sent[2]?.query)).toContain('city:2950159');
    expect(result.notes).toEqual([
      'No role title has "Berlin", so it was read as the location Berlin, Germany.',
    ]);
  });

  it('notes only the words the kept close spellings made fuzzy, beside the place they kept', async () => {
    // "Leeds" is a place: close spellings with it as the place leave it as typed, not as "lead".
    const search = leadSearch({ title: 'Full Stack Developr - Leeds' });
    const { result } = await answered(search, [
      { total: 0 },
      {
        total: 12,
        suggest: {
          typo_title: [
            { text: 'developr', options: [{ text: 'developer' }] },
            { text: 'leed', options: [{ text: 'lead' }] },
          ],
        },
        aggregations: counted({ title_0_close_spellings: 12 }),
      },
      { total: 12 },
    ]);
    expect(result.notes).toEqual([
      'No role title contains "developr", so it was read as "developer".',
      '"developer" was read as Engineer or Developer. No role title has "Leeds", so it was read as the location Leeds, United Kingdom.',
    ]);
  });

  it('keeps a filter that finds something as first read, and reads only the others again', async () => {
    // "python developer" is a title as typed; the misspelt skill is what found nothing.
    const search = leadSearch({ title: 'python developer', skills: ['kuberntes'] });
    const { sent, result } = await answered(search, [
      { total: 0 },
      {
        total: 40,
        suggest: { typo_skills_key_0: [{ text: 'kuberntes', options: [{ text: 'kubernetes' }] }] },
        aggregations: counted({
          title_as_read: 38,
          title_0_close_spellings: 40,
          skills_key_close_spellings: 40,
        }),
      },
      { total: 38 },
    ]);
    expect(sent).toHaveLength(3);
    expect(JSON.stringify(sent[2]?.query)).not.toContain('"fuzzy":{"title_terms"');
    expect(result.response.total).toBe(38);
    expect(result.notes).toEqual(['No role lists the skill "kuberntes", so it was read as "kubernetes".']);
  });

  it('reads every filter again when those that found something as first read find nothing together', async () => {
    const search = leadSearch({ title: 'python developer', skills: ['kuberntes'] });
    const second = {
      total: 5,
      suggest: {
        typo_title: [{ text: 'python developer', options: [] }],
        typo_skills_key_0: [{ text: 'kuberntes', options: [{ text: 'kubernetes' }] }],
      },
      aggregations: counted({
        title_as_read: 2,
        title_0_close_spellings: 5,
        skills_key_as_read: 3,
        skills_key_close_spellings: 5,
      }),
    };
    const { sent, result } = await answered(search, [{ total: 0 }, second, { total: 0 }]);
    expect(sent).toHaveLength(3);
    expect(result.response).toBe(second);
    expect(result.notes).toEqual([
      'No role title contains "python developer" exactly, so close spellings were searched.',
      'No role lists the skill "kuberntes", so it was read as "kubernetes".',
    ]);
  });

  it('needs no third request when only one kind of reading found something', async () => {
    const { sent, result } = await answered(leadSearch({ title: 'javascript developer' }), [
      { total: 0 },
      { total: 919, aggregations: counted({ title_0_close_spellings: 0, title_0_skill_0: 919 }) },
    ]);
    expect(sent).toHaveLength(2);
    expect(result.notes).toEqual([
      'No role title has all of "javascript developer", so "javascript" was read as a skill the role lists.',
    ]);
  });
});
