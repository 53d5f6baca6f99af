import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { MAX_TITLE_WORDS, readTitle } from '../../src/search/title-reading.js';

/** A reading with what it builds only when asked (the title with each word left out) built, to compare. */
const built = (typed: string) => {
  const reading = readTitle(typed, 'title');
  return { ...reading, withoutEach: reading.withoutEach?.() };
};

describe('reading a title', () => {
  it('matches plural words as singular, with no note and a fuzzy reading kept for later', () => {
    const reading = readTitle('engineers', 'title');
    expect(reading.clause).toEqual({ bool: { filter: [{ term: { title_terms: 'engineer' } }] } });
    expect(reading.note).toBeUndefined();
    expect(reading.second?.choices.find((choice) => choice.typo)?.clause).toEqual({
      bool: {
        filter: [
          {
            fuzzy: {
              title_terms: { value: 'engineer', fuzziness: 'AUTO:4,8', prefix_length: 1, max_expansions: 50 },
            },
          },
        ],
      },
    });
    expect(reading.second?.choices[0]).toEqual({ name: 'title_as_read', tier: -1, clause: reading.clause });
  });

  it('reads a role noun misspelt beside a specialty as either role noun, by close spellings', () => {
    const typo = readTitle('java enginer', 'title').second?.choices.find((choice) => choice.typo);
    expect(JSON.stringify(typo?.clause)).toContain('{"terms":{"title_terms":["engineer","developer"]}}');
    expect(typo?.note).toBe('"engineer" was read as Engineer or Developer.');
    // Alone it is the word it is spelt like, as "engineer" alone is.
    const alone = readTitle('enginer', 'title').second?.choices.find((choice) => choice.typo);
    expect(JSON.stringify(alone?.clause)).not.toContain('developer');
    expect(alone?.note).toBeUndefined();
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
    expect(reading.second).toBeUndefined();
  });

  it('reads a field of work ending a title as the field or its people, with a note', () => {
    expect(readTitle('data science', 'title')).toMatchObject({
      clause: {
        bool: {
          filter: [{ term: { title_terms: 'data' } }, { terms: { title_terms: ['science', 'scientist'] } }],
        },
      },
      note: 'Read the title "data science" with "science" as Science or Scientist.',
    });
    // Rank words may follow; a role noun, or no specialty before it, keeps it as typed.
    expect(readTitle('data science lead', 'title').note).toContain('"science" as Science or Scientist');
    for (const typed of ['engineering manager', 'director of engineering', 'data engineering manager']) {
      expect(readTitle(typed, 'title').note, typed).toBeUndefined();
    }
    expect(readTitle('data engineering engineer', 'title').note).not.toContain('"engineering"');
    // Alone, before a word naming the posting: "engineering" alone stays the Engineering titles.
    expect(readTitle('engineering roles', 'title')).toMatchObject({
      clause: { bool: { filter: [{ terms: { title_terms: ['engineering', 'engineer', 'developer'] } }] } },
      note: 'Read the title "engineering roles" as Engineering, Engineer or Developer.',
    });
    expect(readTitle('engineering', 'title').note).toBeUndefined();
    // Alone before rank words: a lead designer.
    expect(readTitle('Design Lead', 'title').note).toBe(
      'Read the title "Design Lead" with "Design" as Design or Designer.',
    );
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

/** Every leaf clause of a query, `terms` counting once (it is one Lucene query however many values). */
function leafClauses(query: unknown): number {
  if (Array.isArray(query)) return query.reduce((sum: number, clause) => sum + leafClauses(clause), 0);
  const bool = (query as { bool?: Record<string, unknown> }).bool;
  if (!bool) return 1;
  return ['filter', 'should', 'must', 'must_not'].reduce(
    (sum, occur) => sum + (bool[occur] ? leafClauses(bool[occur]) : 0),
    0,
  );
}

const json = (value: unknown) => JSON.stringify(value);

describe('levels in a title', () => {
  it('reads Sr as Senior and a junior role as Junior, Graduate or Associate, keeping engineer as typed', () => {
    const senior = readTitle('Sr. Engineer', 'title');
    expect(senior.clause).toEqual({
      bool: {
        filter: [{ terms: { title_terms: ['sr', 'senior'] } }, { term: { title_terms: 'engineer' } }],
      },
    });
    expect(senior.note).toBe('Read the title "Sr. Engineer" with "Sr." as Senior.');
    expect(json(readTitle('Jr developer', 'title').clause)).toContain(
      '["jr","junior","graduate","associate"]',
    );
    expect(json(readTitle('junior developer', 'title').clause)).not.toContain('"engineer"');
  });

  it("leaves out an employer's level numbers with a note, and reads mid-level as experience_level", () => {
    const numbered = readTitle('Software Engineer II', 'title');
    expect(json(numbered.clause)).not.toContain('"ii"');
    expect(numbered.note).toMatch(
      /Left out "II" of the title: .* experience_level chooses roles by level\.$/,
    );
    expect(json(readTitle('SWE 3', 'title').clause)).not.toContain('"3"');
    // A title of level numbers only is searched as typed, not as every role.
    expect(readTitle('III', 'title').clause).toEqual({
      bool: { filter: [{ term: { title_terms: 'iii' } }] },
    });
    const mid = readTitle('mid-level python developer', 'title');
    expect(json(mid.clause)).toContain('{"term":{"experience_level":"Mid"}}');
    expect(mid.note).toMatch(/"mid-level" as experience_level Mid/);
  });

  it('reads a range of levels as either, and trainees, graduate schemes and placements as those titles', () => {
    expect(readTitle('junior to mid developer', 'title').note).toBe(
      'Read the title "junior to mid developer" with "junior to mid" as experience_level Entry or Mid.',
    );
    expect(readTitle('apprentice developer', 'title').note).toContain(
      '"apprentice" as Junior, Graduate or Associate',
    );
    expect(readTitle('graduate scheme', 'title').note).toBe('Read the title "graduate scheme" as Graduate.');
    expect(readTitle('summer internship', 'title').note).toBe(
      'Read the title "summer internship" as Intern.',
    );
  });

  it('drops the gender markers of German and French titles and reads their role nouns', () => {
    expect(readTitle('Java Entwickler (m/w/d)', 'title').clause).toEqual(
      readTitle('Java developer', 'title').clause,
    );
    expect(json(readTitle('Data Scientist (f/m/x)', 'title').clause)).not.toMatch(/"[fmx]"/);
  });
});

describe('alternatives in a title', () => {
  it('reads words joined by a slash as either one, beside the rest', () => {
    const reading = readTitle('Backend/Platform Engineer', 'title');
    expect(reading.clause).toEqual({
      bool: {
        filter: [
          {
            bool: {
              should: [{ term: { title_terms: 'backend' } }, { term: { title_terms: 'platform' } }],
              minimum_should_match: 1,
            },
          },
          { terms: { title_terms: ['engineer', 'developer'] } },
        ],
      },
    });
    expect(reading.note).toBe(
      'Read the title "Backend/Platform Engineer" with "Backend/Platform" as Backend or Platform and "Engineer" as Engineer or Developer.',
    );
    // A side read as something else says so in place of its label.
    expect(readTitle('Junior/Mid Frontend Developer', 'title').note).toBe(
      'Read the title "Junior/Mid Frontend Developer" with "Junior/Mid" as Junior, Graduate or Associate, or as experience_level Mid and "Developer" as Engineer or Developer.',
    );
    expect(readTitle('Frontend/FE Engineer', 'title').note).toMatch(/"Frontend\/FE" as Frontend and/);
    // A rank with "+" is it and the ranks above it, as alternatives; "C++" is no rank.
    expect(built('Staff+ Engineer')).toEqual(built('Staff/Principal Engineer'));
    expect(readTitle('Senior+ backend engineer', 'title').note).toMatch(
      /"Senior\/Lead\/Staff\/Principal" as Senior, Lead, Staff or Principal/,
    );
    expect(json(readTitle('C++ developer', 'title').clause)).toContain('"title_terms":"cpp"');
    // Known whole ("UX/UI"), or too short to be words ("A/B", "(m/w/d)"): not alternatives.
    expect(json(readTitle('UX/UI designer', 'title').clause)).not.toContain(
      'should":[{"term":{"title_terms":"ux"',
    );
  });

  it('reads titles separated by "or" as alternatives, and leaves out the words that name a posting', () => {
    const reading = readTitle('data engineer OR data scientist jobs', 'title');
    expect((reading.clause as { bool: { should: unknown[] } }).bool.should).toHaveLength(2);
    expect(reading.note).toMatch(
      /^Read the title "data engineer OR data scientist jobs" as "data engineer" or "data scientist jobs", with/,
    );
    expect(json(reading.clause)).not.toContain('"job"');
    expect(readTitle('python roles', 'title').clause).toEqual(readTitle('python', 'title').clause);
    // A word that only contains "or" is no separator.
    expect(json(readTitle('operator', 'title').clause)).toContain('"operator"');
  });

  it('reads one word before "or" as sharing the words after the next, as people elide them', () => {
    const same = (typed: string, as: string) =>
      expect(json(readTitle(typed, 'title').clause), typed).toBe(json(readTitle(as, 'title').clause));
    same('senior OR lead python developer', 'senior/lead python developer');
    same('python or java developer', 'python/java developer');
    same('sr or lead java dev', 'sr/lead java dev');
    // In brackets, as search engines take them; a bar between words is a slash.
    same('(senior OR lead) python', 'senior/lead python');
    same('react|vue developer', 'react/vue developer');
    // A title of its own, or a role noun, does not share the words after it.
    expect(
      (readTitle('CTO or VP Engineering', 'title').clause as { bool: { should: unknown[] } }).bool.should,
    ).toHaveLength(2);
    expect(
      (readTitle('designer or UX researcher', 'title').clause as { bool: { should: unknown[] } }).bool.should,
    ).toHaveLength(2);
  });

  it('reads words joined by "&" or "and" as either one in the second reading, before close spellings', () => {
    for (const typed of ['Head of Data & Analytics', 'Head of Data and Analytics']) {
      const either = readTitle(typed, 'title').second?.choices.find(
        (choice) => choice.name === 'title_0_either',
      );
      expect(either, typed).toMatchObject({
        tier: 0.5,
        clause: {
          bool: {
            filter: [
              { term: { title_terms: 'head' } },
              {
                bool: {
                  should: [{ term: { title_terms: 'data' } }, { term: { title_terms: 'analytics' } }],
                  minimum_should_match: 1,
                },
              },
            ],
          },
        },
        note: `No role title has all of "${typed}", so it was read with "Data" or "Analytics".`,
      });
    }
    expect(readTitle('R&D Engineer', 'title').second?.choices.map((choice) => choice.name)).not.toContain(
      'title_0_either',
    );
  });

  it('reads a rank word as its alike ranks in the second reading, before any word is a skill', () => {
    const alike = readTitle('Head of ML', 'title').second?.choices.find(
      (choice) => choice.name === 'title_0_alike_rank',
    );
    expect(alike?.tier).toBe(1.5);
    expect(JSON.stringify(alike?.clause)).toContain('{"terms":{"title_terms":["head","director"]}}');
    expect(alike?.note).toBe(
      'No role title has all of "Head of ML", so "Head" was read as Head or Director.',
    );
  });

  it('reads titles separated by a spaced slash as alternatives', () => {
    const reading = readTitle('Data Scientist / ML Engineer', 'title');
    expect((reading.clause as { bool: { should: unknown[] } }).bool.should).toHaveLength(2);
    expect(reading.note).toMatch(
      /^Read the title "Data Scientist \/ ML Engineer" as "Data Scientist" or "ML Engineer", with/,
    );
    // One word naming a role after another shares the words before it, as people elide them.
    for (const typed of ['Software Developer / Engineer', 'Software Developer or Engineer']) {
      expect(readTitle(typed, 'title').note, typed).toMatch(
        new RegExp(`^Read the title "${typed}" as "Software Developer" or "Software Engineer", with`),
      );
    }
    expect(readTitle('Head of Data / Director', 'title').note).toBe(
      'Read the title "Head of Data / Director" as "Head of Data" or "Director".',
    );
  });
});

describe('quotes around a title', () => {
  it('are not part of the words the notes quote', () => {
    expect(built('"python developer"')).toEqual(built('python developer'));
    expect(built('senior python developer!!!')).toEqual(built('senior python developer'));
    expect(readTitle('“Rust engineer”', 'title').note).toBe(
      'Read the title "Rust engineer" with "engineer" as Engineer or Developer.',
    );
  });
});

describe('words typed to leave out', () => {
  it('leaves out the roles whose title has a word after a dash or NOT, in every reading', () => {
    const reading = readTitle('senior -lead python NOT manager', 'title');
    const notTitled = { terms: { title_terms: ['lead', 'manager'] } };
    expect(reading.clause).toEqual({
      bool: { filter: [readTitle('senior python', 'title').clause], must_not: [notTitled] },
    });
    expect(reading.note).toBe('Left out the roles whose title has "lead" or "manager".');
    for (const choice of reading.second?.choices ?? []) {
      expect(choice.clause, choice.name).toMatchObject({ bool: { must_not: [notTitled] } });
    }
    expect(readTitle('-intern', 'title').clause).toEqual({
      bool: { must_not: [{ term: { title_terms: 'intern' } }] },
    });
    // Two words that are one spelt apart are left out together; another word after one stays.
    const fullStack = readTitle('python developer NOT full stack', 'title');
    expect(fullStack.note).toContain('Left out the roles whose title has "full stack".');
    expect(fullStack.clause).toEqual({
      bool: {
        filter: [readTitle('python developer', 'title').clause],
        must_not: [{ term: { title_terms: 'fullstack' } }],
      },
    });
    expect(readTitle('java NOT spring NOT boot', 'title').note).toBe(
      'Left out the roles whose title has "spring" or "boot".',
    );
    expect(readTitle('senior -lead python', 'title').clause).toEqual({
      bool: {
        filter: [readTitle('senior python', 'title').clause],
        must_not: [{ term: { title_terms: 'lead' } }],
      },
    });
  });

  it('takes no dash inside a word or between spaces, nor a "not" in small letters, as leaving out', () => {
    for (const typed of ['front-end developer', 'Data Engineer - London', 'not a developer']) {
      expect(JSON.stringify(readTitle(typed, 'title').clause), typed).not.toContain('must_not');
    }
  });

  it('refuses more than four words to leave out, naming the field', () => {
    expect(() => readTitle('engineer -a1 -b2 -c3 -d4 -e5', 'hiring_for_title')).toThrow(
      expect.objectContaining({ code: 'invalid_argument', details: { field: 'hiring_for_title' } }),
    );
  });
});

describe('the second reading of a title', () => {
  const choicesOf = (typed: string) =>
    (readTitle(typed, 'title').second?.choices ?? []).map((choice) => [
      choice.name,
      choice.tier,
      choice.note,
    ]);

  it('reads words at the end named like a place with close spellings too, as words of the title', () => {
    const choices = readTitle('product manger', 'title').second?.choices ?? [];
    // Manger, Norway: with it as the place, then as a word made fuzzy.
    const named = choices.map((choice) => [choice.name, choice.tier]);
    expect(named).toContainEqual(['title_0_close_spellings', 1]);
    expect(named).toContainEqual(['title_0_words_close_spellings', 1.25]);
    const words = choices.find((choice) => choice.name === 'title_0_words_close_spellings');
    expect(json(words?.clause)).toContain('"value":"manger"');
    expect(json(words?.clause)).not.toContain('location.keys');
    // A place after a separator is a place in every close spelling.
    expect(
      (readTitle('Full Stack Developer - Leeds', 'title').second?.choices ?? []).map((choice) => choice.name),
    ).not.toContain('title_0_words_close_spellings');
  });

  it('reads single words in brackets joined by "or" as either, and no two small towns out of them', () => {
    const reading = readTitle('Backend Developer (Java or Kotlin)', 'title');
    expect(reading.clause).toEqual(readTitle('Backend Developer (Java/Kotlin)', 'title').clause);
    const choices = reading.second?.choices ?? [];
    // Java, Georgia and Kotlin, Poland are towns of fewer than 10,000 people, named together.
    expect(choices.map((choice) => choice.name)).not.toContain('title_0_places');
    expect(json(choices.find((choice) => choice.name === 'title_0_field')?.clause)).toContain(
      '{"should":[{"term":{"title_terms":"java"}},{"term":{"title_terms":"kotlin"}}]',
    );
    // Larger places named together still are places.
    expect(json(readTitle('Data Engineer (London or Manchester)', 'title').second?.choices)).toContain(
      '"title_0_places"',
    );
  });

  it('reads the names of skills in a title as the skills, not as places named like them', () => {
    const second = (typed: string) => json(readTitle(typed, 'title').second?.choices);
    // Cypress, California; Dax, France; Ivory Coast and Congo; Ełk, Poland.
    for (const typed of [
      'QA Engineer (Cypress) - Dublin',
      'Power BI Developer (DAX)',
      'DevOps Engineer (CI/CD)',
      'Data Engineer - ELK',
    ]) {
      const read = second(typed);
      expect(read, typed).not.toMatch(/city:(5339111|3021670|3093692)|country:(ci|cd)"/);
      expect(read, typed).toContain('skills_key');
    }
    expect(second('QA Engineer (Cypress) - Dublin')).toContain('"skills_key":"cypress"');
    // A skill's name with a slash is one skill, not either side.
    expect(second('DevOps Engineer (CI/CD)')).toContain('{"term":{"skills_key":"cicd"}}');
    expect(json(readTitle('DevOps Engineer (CI/CD)', 'title').clause)).not.toContain('"should"');
  });

  it('reads the parts of a job-board title after the first by what they are, after every other choice', () => {
    const choice = (typed: string, suffix: string) =>
      readTitle(typed, 'title').second?.choices.find((found) => found.name === `title_0_${suffix}`);
    const stack = choice('DevOps Engineer (AWS, Terraform)', 'qualifiers');
    expect(stack?.tier).toBe(6);
    expect(stack?.clause).toEqual({
      bool: {
        filter: [
          { term: { title_terms: 'devops' } },
          { terms: { title_terms: ['engineer', 'developer'] } },
          { terms: { skills_key: ['aws', 'terraform'] } },
        ],
      },
    });
    expect(stack?.note).toBe(
      'No role title has all of "DevOps Engineer (AWS, Terraform)", so "AWS" and "Terraform" were read as skills the role lists.',
    );
    expect(choice('DevOps Engineer (AWS, Terraform)', 'head')).toMatchObject({
      tier: 7,
      note: 'No role title has all of "DevOps Engineer (AWS, Terraform)", so it was read without "AWS" and "Terraform".',
    });
    const employer = choice('Java Developer at Pixelstream, Berlin', 'qualifiers');
    expect(JSON.stringify(employer?.clause)).toContain(
      '{"wildcard":{"company.name_key":{"value":"*pixelstream*"}}}',
    );
    expect(
      JSON.stringify(choice('Java Developer at Pixelstream Technologies', 'qualifiers')?.clause),
    ).toContain('{"wildcard":{"company.name_key":{"value":"*pixelstream*"}}}');
    expect(employer?.note).toBe(
      'No role title has all of "Java Developer at Pixelstream, Berlin", so "Pixelstream" was read as the company and "Berlin" was read as the location Berlin, Germany.',
    );
    expect(choice('Java Developer (Spring) - Contract', 'qualifiers')?.note).toBe(
      'No role title has all of "Java Developer (Spring) - Contract", so "Contract" was read as employment_type Contract and "Spring" was read as a skill the role lists.',
    );
    // The first part read again beside the later ones, after it was read as typed.
    const cloud = choice('Cloud DevOps Engineer - AWS', 'qualifiers_head_skill_0');
    expect(cloud?.tier).toBe(6.5);
    expect(JSON.stringify(cloud?.clause)).toContain('{"term":{"skills_key":"aws"}}');
    expect(JSON.stringify(cloud?.clause)).toContain('{"term":{"title_terms":"devops"}}');
    expect(JSON.stringify(cloud?.clause)).not.toContain('"title_terms":"cloud"');
    expect(cloud?.note).toBe(
      'No role title has all of "Cloud DevOps Engineer - AWS", so "Cloud" was read as the skill AWS, Azure, GCP, Cloud Architecture, Cloud Security or AWS SageMaker and "AWS" was read as a skill the role lists.',
    );
    expect(choice('Cloud DevOps Engineer (Terraform)', 'head_skill_0')).toMatchObject({
      tier: 7.5,
      note: 'No role title has all of "Cloud DevOps Engineer (Terraform)", so "Cloud" was read as the skill AWS, Azure, GCP, Cloud Architecture, Cloud Security or AWS SageMaker and it was read without "Terraform".',
    });
    // Only places after the first part: the places choice reads them.
    expect(choice('Data Engineer - Berlin', 'qualifiers')).toBeUndefined();
    // Or as the industry the role is in.
    const industry = choice('Product Manager - Payments (Fintech)', 'qualifiers_industry');
    expect(JSON.stringify(industry?.clause)).toContain('{"term":{"industry_key":"fintech"}}');
    expect(industry?.note).toBe(
      'No role title has all of "Product Manager - Payments (Fintech)", so "Payments" and "Fintech" were read as the industry the role is in.',
    );
    // One part naming an industry, another a skill: both, then either alone.
    const both = choice('Data Engineer - Healthcare (Python)', 'qualifiers');
    expect(JSON.stringify(both?.clause)).toContain(
      '{"term":{"industry_key":"healthtech"}},{"term":{"skills_key":"python"}}',
    );
    expect(both?.note).toBe(
      'No role title has all of "Data Engineer - Healthcare (Python)", so "Healthcare" was read as the industry the role is in and "Python" was read as a skill the role lists.',
    );
    expect(choice('Data Engineer - Healthcare (Python)', 'qualifiers_industry')).toMatchObject({
      tier: 6.75,
      note: 'No role title has all of "Data Engineer - Healthcare (Python)", so "Healthcare" was read as the industry the role is in, and it was read without "Python".',
    });
    expect(choice('Data Engineer - Healthcare (Python)', 'qualifiers_skills')?.note).toBe(
      'No role title has all of "Data Engineer - Healthcare (Python)", so "Python" was read as a skill the role lists, and it was read without "Healthcare".',
    );
    // Later parts as the specialty "software" stands for, either one, beside an industry part.
    const specialty = choice('Staff Software Engineer, Platform (Go)', 'qualifiers_specialty');
    expect(specialty?.tier).toBe(6);
    expect(JSON.stringify(specialty?.clause)).toMatch(/"platform"}}]}},{"bool":{"filter":\[.*"go"}}]}}]/);
    expect(JSON.stringify(specialty?.clause)).not.toContain('"software"');
    expect(choice('Software Engineer - Payments (Kotlin)', 'qualifiers_specialty')?.note).toBe(
      'No role title has all of "Software Engineer - Payments (Kotlin)", so "Payments" was read as the industry the role is in and it was read without "Software", with "Kotlin" as the role\'s specialty.',
    );
    // A stack in brackets is skills though towns have some of its names; places read together.
    const towns = JSON.stringify(
      choice('Data Engineer (Python, dbt, Snowflake) | London', 'qualifiers')?.clause,
    );
    expect(towns).toContain('{"terms":{"skills_key":["python","dbt","snowflake"]}}');
    expect(towns).toContain('{"term":{"location.keys":"city:2643743"}}');
    expect(JSON.stringify(choice('Java Developer (London, Manchester)', 'places')?.clause)).toContain(
      '{"terms":{"location.keys":["city:2643743","city:2643123"]}}',
    );
    expect(JSON.stringify(choice('Data Engineer - London, UK', 'places')?.clause)).toContain(
      '{"term":{"location.keys":"city:2643743"}}',
    );
    // A town too small to be meant in a title is not read as a place: Líně, Snowflake (Arizona).
    expect(choice('IT Support Technician - 1st/2nd Line', 'places')).toBeUndefined();
    expect(choice('Data Engineer - Snowflake', 'qualifiers')?.note).toBe(
      'No role title has all of "Data Engineer - Snowflake", so "Snowflake" was read as a skill the role lists.',
    );
    // Only the first part names alternatives.
    for (const typed of ['Backend Engineer (Python or Go)', 'Lead Frontend Engineer – React / TypeScript']) {
      expect(readTitle(typed, 'title').note, typed).not.toMatch(/" or "/);
    }
    // Nor years of experience, nor words that say someone is hired; nor are such words places
    // ("roles" is a name of Raleigh).
    expect(readTitle('python developer (5+ years)', 'title').clause).toEqual(
      readTitle('python developer', 'title').clause,
    );
    expect(readTitle('react developer wanted', 'title').clause).toEqual(
      readTitle('react developer', 'title').clause,
    );
    expect(choice('java roles near Manchester', 'places')?.note).toBe(
      'No role title has "near Manchester", so it was read as the location Manchester, United Kingdom.',
    );
    // Words that say how a skill is known go with it: "kubernetes experience", "using vue".
    expect(
      JSON.stringify(choice('devops engineer with kubernetes experience', 'skill_1')?.clause),
    ).not.toContain('experience');
    // Pay and days in the office are no words of a title either.
    expect(built('Data Engineer | £70-85k')).toEqual(built('Data Engineer'));
    for (const pay of [
      '£500/day',
      '€600 p/d',
      '£60k pa',
      '£45 per hour',
      'up to £80k + bonus',
      '60-70k DOE',
    ]) {
      expect(built(`Frontend Developer - ${pay}`), pay).toEqual(built('Frontend Developer'));
    }
    expect(built('UX Designer - Hybrid (3 days office)')).toEqual(built('UX Designer - Hybrid'));
    // How long a contract runs and its tax status are no words of a title.
    expect(built('DevOps Engineer - 6 month contract - Outside IR35')).toEqual(
      built('DevOps Engineer - contract'),
    );
    expect(choice('Java Developer - 12 month FTC', 'qualifiers')?.note).toBe(
      'No role title has all of "Java Developer - FTC", so "FTC" was read as employment_type Temporary.',
    );
  });

  it('reads words of a work arrangement or employment type anywhere in a title as those filters', () => {
    const terms = (typed: string) =>
      readTitle(typed, 'title').second?.choices.find((choice) => choice.name === 'title_0_terms_of_work');
    expect(terms('contract java developer')).toMatchObject({
      tier: 3,
      clause: {
        bool: {
          filter: [
            { term: { employment_type: 'Contract' } },
            { term: { title_terms: 'java' } },
            { terms: { title_terms: ['engineer', 'developer'] } },
          ],
        },
      },
      note: 'No role title has "contract", so it was read as employment_type Contract.',
    });
    expect(terms('senior remote react developer')?.note).toBe(
      'No role title has "remote", so it was read as work_type Remote.',
    );
    expect(terms('part time data analyst')?.note).toBe(
      'No role title has "part time", so it was read as employment_type Part-time.',
    );
    // "contract" beside one word may name what the role looks after, but not beside a role noun;
    // "intern" is in titles.
    expect(terms('Contract Manager')).toBeUndefined();
    expect(terms('contract developer')?.note).toBe(
      'No role title has "contract", so it was read as employment_type Contract.',
    );
    expect(terms('contractor devops')?.note).toBe(
      'No role title has "contractor", so it was read as employment_type Contract.',
    );
    expect(terms('software engineering intern')).toBeUndefined();
  });

  it('reads words naming an industry as the industry, beside the rest of the title and its filters', () => {
    const industry = (typed: string, suffix = 'title_industry_0') =>
      readTitle(typed, 'title').second?.choices.find((choice) => choice.name === `title_0_${suffix}`);
    expect(industry('fintech java developer')).toMatchObject({
      tier: 3,
      clause: {
        bool: {
          filter: [
            { term: { industry_key: 'fintech' } },
            { term: { title_terms: 'java' } },
            { terms: { title_terms: ['engineer', 'developer'] } },
          ],
        },
      },
      note: 'No role title has all of "fintech java developer", so "fintech" was read as an industry.',
    });
    expect(industry('game developer')?.note).toBe(
      'No role title has all of "game developer", so "game" was read as the industry Gaming.',
    );
    // With a place before the title, or a work arrangement in it.
    const placed = industry('London fintech developer', 'leading_place_industry_0');
    expect(JSON.stringify(placed?.clause)).toContain('"industry_key":"fintech"');
    expect(placed?.note).toBe(
      'No role title has "London", so it was read as the location London, United Kingdom. No role title has all of "London fintech developer", so "fintech" was read as an industry.',
    );
    expect(JSON.stringify(industry('remote gaming engineer', 'terms_of_work_industry_0')?.clause)).toContain(
      '"industry_key":"gaming"',
    );
    // Not the whole title, and not "software", which another specialty implies.
    expect(industry('fintech')).toBeUndefined();
    const backend = readTitle('backend software engineer', 'title').second?.choices ?? [];
    expect(JSON.stringify(backend)).not.toContain('"industry_key":"software"');
    // Nor a department the role is in, which also names an industry: "IT Analyst".
    for (const typed of ['IT analyst', 'head of technology', 'tech java developer'])
      expect(JSON.stringify(readTitle(typed, 'title').second?.choices), typed).not.toContain('"saas"');
  });

  it('prefers fewer words read as a skill, and quotes words without the signs around them', () => {
    const choices = readTitle('azure devops engineer', 'title').second?.choices ?? [];
    const tierOf = (skill: Record<string, unknown>) =>
      choices.find((choice) => choice.name.includes('_skill_') && json(choice.clause) === json(skill))?.tier;
    const skilled = (key: string, ...titled: unknown[]) => ({
      bool: {
        filter: [
          { term: { skills_key: key } },
          ...titled,
          { terms: { title_terms: ['engineer', 'developer'] } },
        ],
      },
    });
    // "azure" alone keeps "devops" in the title; "azure devops" (Azure) keeps only "engineer".
    expect(tierOf(skilled('azure', { term: { title_terms: 'devops' } }))).toBe(2);
    expect(tierOf(skilled('azure'))).toBeGreaterThan(2);
    const django = readTitle('Python & Django developer', 'title').second?.choices ?? [];
    expect(django.map((choice) => choice.note).join(' ')).toContain('so "Django" was read as a skill');
  });

  it('reads a word no title has as a skill, beside the rest of the title', () => {
    const reading = readTitle('javascript dev', 'title');
    const skill = reading.second?.choices?.find((choice) => choice.name === 'title_0_skill_0');
    expect(skill?.clause).toEqual({
      bool: {
        filter: [
          { term: { skills_key: 'javascript' } },
          { terms: { title_terms: ['engineer', 'developer'] } },
        ],
      },
    });
    expect(skill?.note).toBe(
      'No role title has all of "javascript dev", so "javascript" was read as a skill the role lists.',
    );
    expect(choicesOf('Power BI developer').map(([, , note]) => note)).toContain(
      'No role title has all of "Power BI developer", so "Power BI" was read as a skill the role lists.',
    );
    expect(choicesOf('JS developer').map(([, , note]) => note)).toContain(
      'No role title has all of "JS developer", so "JS" was read as the skill JavaScript.',
    );
    // Rank words, role nouns and vocabulary terms alone are never read as skills.
    expect(choicesOf('CTO')).toEqual([]);
    expect(choicesOf('senior engineer').map(([name]) => name)).toEqual([
      'title_as_read',
      'title_0_close_spellings',
    ]);
  });

  it('reads the parts of a job-board title that name a place or work arrangement as those filters', () => {
    const reading = readTitle('Software Engineer - Remote (UK)', 'title');
    const places = reading.second?.choices?.find((choice) => choice.name === 'title_0_places');
    expect(json(places?.clause)).toContain('{"term":{"location.keys":"country:gb"}}');
    expect(json(places?.clause)).toContain('{"term":{"work_type":"Remote"}}');
    expect(places?.note).toBe(
      'No role title has "Remote", so it was read as work_type Remote. No role title has "UK", so it was read as the location United Kingdom.',
    );
    // Words at the end that name a place or arrangement need no separator; one word stays the title.
    const atTheEnd = readTitle('devops engineer london hybrid', 'title').second?.choices.find(
      (choice) => choice.name === 'title_0_places',
    );
    expect(atTheEnd?.note).toBe(
      'No role title has "london hybrid", so it was read as the location London, United Kingdom, with work_type Hybrid.',
    );
    expect(json(readTitle('Data Engineer New York', 'title').second?.choices?.[1]?.clause)).toContain(
      '"location.keys":"city:5128581"',
    );
    expect(choicesOf('Berlin').map(([name]) => name)).not.toContain('title_0_places');
    // The first part is always the title, and a bracket that names no place stays in it.
    expect(choicesOf('London').map(([name]) => name)).not.toContain('title_0_places');
    expect(choicesOf('Engineer (Spark)').map(([name]) => name)).not.toContain('title_0_places');
  });

  it('reads words at the start that name a place or arrangement as those filters, after every skill reading', () => {
    const remote = readTitle('remote python jobs', 'title').second?.choices?.find(
      (choice) => choice.name === 'title_0_leading_place',
    );
    expect(remote?.tier).toBe(3);
    expect(remote?.clause).toEqual({
      bool: { filter: [{ term: { work_type: 'Remote' } }, { term: { title_terms: 'python' } }] },
    });
    expect(remote?.note).toBe('No role title has "remote", so it was read as work_type Remote.');
    // With a place at the end too, both are filters.
    const both = readTitle('London data engineer hybrid', 'title').second?.choices?.find(
      (choice) => choice.name === 'title_0_leading_place',
    );
    expect(json(both?.clause)).toContain('"location.keys":"city:2643743"');
    expect(json(both?.clause)).toContain('"work_type":"Hybrid"');
    expect(both?.note).toBe(
      'No role title has "hybrid", so it was read as work_type Hybrid. No role title has "London", so it was read as the location London, United Kingdom.',
    );
    // One word always stays the title.
    expect(choicesOf('London').map(([name]) => name)).not.toContain('title_0_leading_place');
  });

  it('leaves out a field of work ending a title beside a rank word', () => {
    expect(
      choicesOf('Head of Platform Engineering').find(([name]) => name === 'title_0_without_field'),
    ).toEqual([
      'title_0_without_field',
      1.75,
      'No role title has all of "Head of Platform Engineering", so it was read without "Engineering".',
    ]);
    // Not without a rank word, nor a field word that is not last.
    expect(choicesOf('platform engineering').map(([name]) => name)).not.toContain('title_0_without_field');
    expect(choicesOf('Data Science Lead').map(([name]) => name)).not.toContain('title_0_without_field');
  });

  it('leaves out what another specialty implies: "software" beside "backend", "SWE" as a role noun', () => {
    const software = readTitle('backend software engineers', 'title').second?.choices?.find(
      (choice) => choice.name === 'title_0_implied',
    );
    expect(software?.tier).toBe(4);
    expect(software?.clause).toEqual({
      bool: {
        filter: [{ term: { title_terms: 'backend' } }, { terms: { title_terms: ['engineer', 'developer'] } }],
      },
    });
    expect(software?.note).toBe(
      'No role title has all of "backend software engineers", so it was read without "software".',
    );
    const swe = readTitle('iOS SWE', 'title').second?.choices?.find(
      (choice) => choice.name === 'title_0_implied',
    );
    expect(swe?.clause).toEqual({
      bool: {
        filter: [{ term: { title_terms: 'ios' } }, { terms: { title_terms: ['engineer', 'developer'] } }],
      },
    });
    expect(swe?.note).toBe(
      'No role title has all of "iOS SWE", so it was read with "SWE" as Engineer or Developer.',
    );
    // With a place after it: the place read as the filter and "software" left out.
    const located = choicesOf('Software Engineer, Frontend - London').find(
      ([name]) => name === 'title_0_places_implied',
    );
    expect(located?.[2]).toBe(
      'No role title has "London", so it was read as the location London, United Kingdom. No role title has all of "Software Engineer, Frontend - London", so it was read without "Software".',
    );
    // Then with a word of what is left read as a skill, after the reading without the skill.
    const skilled = readTitle('iOS SWE (Swift)', 'title').second?.choices?.find(
      (choice) =>
        choice.name.startsWith('title_0_implied_skill') &&
        json(choice.clause).includes('"skills_key":"swift"'),
    );
    expect(skilled?.tier).toBe(5);
    expect(skilled?.note).toBe(
      'No role title has all of "iOS SWE (Swift)", so it was read with "SWE" as Engineer or Developer and with "Swift" as a skill the role lists.',
    );
    // Beside a language roles are titled by, as preferred as that language read as a skill.
    const titledBy = readTitle('Software Engineer (Python)', 'title').second?.choices ?? [];
    expect(
      titledBy
        .filter((choice) => choice.name === 'title_0_implied' || choice.name.startsWith('title_0_skill'))
        .map((choice) => [choice.name, choice.tier]),
    ).toEqual([
      ['title_0_skill_0', 2],
      ['title_0_skill_1', 2],
      ['title_0_implied', 2],
    ]);
    // Nothing else names the specialty: "software" is the role's specialty, as typed.
    for (const typed of ['software engineer', 'senior software engineer', 'SWE', 'lead SWE'])
      expect(
        choicesOf(typed).map(([name]) => name),
        typed,
      ).not.toContain('title_0_implied');
  });

  it('leaves out a field its specialty beside it implies, and the titles of other fields', () => {
    const field = (typed: string) =>
      readTitle(typed, 'title').second?.choices?.find((choice) => choice.name === 'title_0_field');
    const notOtherFields = {
      bool: {
        must_not: [{ terms: { title_terms: ['fullstack', 'frontend', 'mobile', 'data', 'embedded'] } }],
      },
    };
    const python = field('Python back-end engineers');
    // As preferred as reading "Python" as a skill beside "back-end", which it comes with.
    expect(python?.tier).toBe(2);
    expect(python?.clause).toEqual({
      bool: {
        filter: [
          notOtherFields,
          { term: { title_terms: 'python' } },
          { terms: { title_terms: ['engineer', 'developer'] } },
        ],
      },
    });
    expect(python?.note).toBe(
      'No role title has all of "Python back-end engineers", so it was read without "back-end", leaving out the titles of other fields (full stack, frontend, mobile, data and embedded).',
    );
    // A vocabulary term naming the specialty, in a bracket after the title.
    expect(json(field('Backend Engineer (RoR)')?.clause)).toContain(
      '"match_phrase":{"title_terms":"ruby on rail"}',
    );
    expect(field('golang backend')?.clause).toEqual({
      bool: { filter: [notOtherFields, { term: { title_terms: 'go' } }] },
    });
    // Only beside a specialty of that field.
    for (const typed of ['backend engineer', 'senior backend', 'react backend', 'python frontend'])
      expect(field(typed), typed).toBeUndefined();
    expect(json(field('React front end')?.clause)).toContain('"match_phrase":{"title_terms":"react native"}');

    // Beside a place before the title or terms of work in it, as preferred as those readings.
    const leading = readTitle('London python backend developer', 'title').second?.choices.find(
      (choice) => choice.name === 'title_0_leading_place_field',
    );
    expect(leading?.tier).toBe(3);
    expect(json(leading?.clause)).toContain('{"term":{"location.keys":"city:2643743"}}');
    expect(
      readTitle('contract java backend developer', 'title').second?.choices.map((choice) => choice.name),
    ).toContain('title_0_terms_of_work_field');
    // Beside the places of the title, and with one run of the rest read as a skill.
    const choices = readTitle('Backend Python Developer (Django) - London', 'title').second?.choices ?? [];
    const placed = choices.find((choice) => choice.name === 'title_0_places_field');
    expect(json(placed?.clause)).toContain('{"term":{"location.keys":"city:2643743"}}');
    expect(json(placed?.clause)).toContain('fullstack');
    const skilled = choices.find(
      (choice) =>
        choice.name.startsWith('title_0_places_field_skill') &&
        json(choice.clause).includes('"skills_key":"django"'),
    );
    expect(skilled?.tier).toBe(2.5);
    expect(skilled?.note).toBe(
      'No role title has "London", so it was read as the location London, United Kingdom. No role title has all of "Backend Python Developer (Django) - London", so it was read without "Backend", leaving out the titles of other fields (full stack, frontend, mobile, data and embedded) and with "Django" as a skill the role lists.',
    );
  });

  it('quotes the words of a note as they were typed', () => {
    expect(readTitle('c# engineers', 'title').note).toBe(
      'Read the title "c# engineers" with "c#" as .NET and "engineers" as Engineer or Developer.',
    );
    expect(readTitle('Front-End Dev', 'title').note).toBe(
      'Read the title "Front-End Dev" with "Dev" as Engineer or Developer.',
    );
    expect(readTitle('Sr. Eng. Mgr.', 'title').note).toBe(
      'Read the title "Sr. Eng. Mgr." with "Sr." as Senior, "Eng." as Engineering or Engineer and "Mgr." as Manager.',
    );
    // A word typed twice is said once.
    expect(readTitle('BI Analyst Power BI', 'title').note).toBe(
      'Read the title "BI Analyst Power BI" with "BI" as Business Intelligence.',
    );
  });

  it('stays small whatever is typed', () => {
    for (const typed of [
      'ml ai sre swe ux ui bi nlp cto cio ciso web',
      'mobile web ml ai cyber helpdesk infosec mobile web ml ai - London',
      'mobile web - London, Berlin, Paris, Remote, DACH, Europe, EMEA',
      'x1 / x2 / x3 / x4 / x5 / x6 / x7 / x8 / x9 / x10 / x11 / x12',
      'a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 engineer',
    ]) {
      const reading = readTitle(typed, 'title');
      expect(leafClauses(reading.clause), typed).toBeLessThanOrEqual(60);
      expect(leafClauses(reading.second?.clause ?? []), typed).toBeLessThanOrEqual(400);
      expect(reading.second?.choices?.length ?? 0, typed).toBeLessThanOrEqual(24);
    }
  });
});
