import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, formatReport, isRelevant, summarise } from '../../scripts/relevance/evaluate.js';
import { ISSUE_TABLE, JUDGED_QUERIES } from '../../scripts/relevance/judged-queries.js';
import { OUTSIDER_QUERIES } from '../../scripts/relevance/outsider-queries.js';
import { meetsTargets } from '../../scripts/relevance/targets.js';
import type { CompanyDoc, LeadDoc, SignalDoc } from '../../src/domain/documents.js';
import { legalFormAtEnd } from '../../src/reference/vocabulary.js';
import { MAX_TITLE_WORDS } from '../../src/search/title-reading.js';
import {
  allCompanies,
  allLeads,
  allSignals,
  callError,
  callOk,
  connectSeededClient,
  type Json,
  openNonAgencyLeads,
  openSeededIndex,
  SEEDED_NOW,
  type SeededIndex,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

/**
 * Search that understands what people type (docs/search-quality.md): the queries of the issue that
 * asked for it through /mcp, a fixed third of the relevance suite against its targets, the typo
 * fallback of every tool, and the bounds of a reading.
 */
describe('relevance over the seeded data', () => {
  let server: TestServer;
  let client: Client;
  let index: SeededIndex;
  let open: LeadDoc[];

  beforeAll(async () => {
    server = await startSeededServer();
    ({ client } = await connectSeededClient(server));
    index = openSeededIndex();
    open = openNonAgencyLeads(await allLeads(index));
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await index?.close();
  });

  const NOTES: Record<string, string[]> = {
    engineers: [],
    'ML engineer': [
      'Read the title "ML engineer" with "ML" as Machine Learning or MLOps and "engineer" as Engineer or Developer.',
    ],
    'front end engineer': ['Read the title "front end engineer" with "engineer" as Engineer or Developer.'],
    enginer: ['No role title contains "enginer", so it was read as "engineer".'],
    CTO: ['Read the title "CTO" as Chief Technology Officer.'],
    k8s: ['Read the skill "k8s" as Kubernetes.'],
    postgres: ['Read the skill "postgres" as PostgreSQL.'],
  };

  it.each(
    ISSUE_TABLE.map((query) => [query.args.title ?? query.args.skills?.[0], query] as const),
  )('search_leads %j finds every role a person means, and only those', async (typed, query) => {
    const expected = open.filter((lead) => isRelevant(lead, query.means));
    expect(expected.length).toBeGreaterThan(0);
    const result = await callOk(client, 'search_leads', { ...query.args, page_size: 25 });
    expect(result.total).toBe(expected.length);
    const ids = new Set(expected.map((lead) => lead.id));
    expect(result.leads.every((lead: Json) => ids.has(lead.id))).toBe(true);
    expect(result.notes).toEqual(NOTES[typed as string]);
  });

  it.each([
    ['first', JUDGED_QUERIES],
    ['outsider', OUTSIDER_QUERIES],
  ] as const)('meets the relevance targets on a fixed third of the %s set', async (_, queries) => {
    const subset = queries.filter((_, position) => position % 3 === 0);
    const results = await evaluate(index.client, index.indices.leads, subset, SEEDED_NOW);
    const verdict = meetsTargets(summarise(results));
    expect(verdict.missed, formatReport(results)).toEqual([]);
  });

  it('reads titles, skills and places as the outsider set types them, and says how', async () => {
    const cases: Array<[Json, string[]]> = [
      [
        { title: 'javascript dev' },
        [
          'Read the title "javascript dev" with "dev" as Engineer or Developer.',
          'No role title has all of "javascript dev", so "javascript" was read as a skill the role lists.',
        ],
      ],
      [
        { title: 'Software Engineer II' },
        [
          'Read the title "Software Engineer II" with "Engineer" as Engineer or Developer. Left out "II" of the title: employers number their levels differently; experience_level chooses roles by level.',
        ],
      ],
      [{ skills: ['Kubernetes (k8s)'] }, ['Read the skill "Kubernetes (k8s)" as Kubernetes.']],
      [
        { location: 'Remote UK' },
        ['Read the location "Remote UK" as United Kingdom, with work_type Remote.'],
      ],
      [{ location: 'DACH' }, ['Read the location "DACH" as Germany, Austria or Switzerland.']],
    ];
    for (const [args, notes] of cases) {
      const query = OUTSIDER_QUERIES.find((judged) => JSON.stringify(judged.args) === JSON.stringify(args));
      expect(query, JSON.stringify(args)).toBeDefined();
      const expected = open.filter((lead) => isRelevant(lead, query?.means ?? {}));
      expect(expected.length, JSON.stringify(args)).toBeGreaterThan(0);
      const result = await callOk(client, 'search_leads', { ...args, page_size: 25 });
      expect(result.total, JSON.stringify(args)).toBe(expected.length);
      expect(result.notes).toEqual(notes);
    }
  });

  it('reads the filters of get_market_insights and search_companies the same way', async () => {
    const mlEngineers = open.filter((lead) => /\b(Machine Learning|MLOps) Engineer\b/.test(lead.title));
    const insights = await callOk(client, 'get_market_insights', {
      group_by: 'experience_level',
      filters: { title: 'ML engineers', skills: ['pytorch', 'k8s'] },
    });
    const withSkills = mlEngineers.filter((lead) =>
      lead.skills.some((skill) => ['PyTorch', 'Kubernetes'].includes(skill)),
    );
    expect(insights.total).toBe(withSkills.length);
    expect(insights.notes).toEqual(
      expect.arrayContaining([
        'Read the title "ML engineers" with "ML" as Machine Learning or MLOps and "engineers" as Engineer or Developer.',
        'Read the skill "k8s" as Kubernetes.',
      ]),
    );
    const companies = await callOk(client, 'search_companies', { hiring_for_title: 'CTO', page_size: 25 });
    const hiring = new Set(
      open
        .filter((lead) => lead.company.id && lead.title === 'Chief Technology Officer')
        .map((lead) => lead.company.id),
    );
    expect(companies.total).toBe(hiring.size);
    expect(companies.notes).toContain('Read the title "CTO" as Chief Technology Officer.');
  });

  it('falls back to a fuzzy reading in every tool only when the first finds nothing', async () => {
    const fintech = open.filter((lead) => lead.industry === 'Fintech');
    const insights = await callOk(client, 'get_market_insights', {
      group_by: 'country',
      filters: { industry: 'fintec' },
    });
    expect(insights.total).toBe(fintech.length);
    expect(insights.notes).toContain('No role is in the industry "fintec", so it was read as "fintech".');

    const [company] = (await allCompanies(index)).filter((doc: CompanyDoc) =>
      open.some((lead) => lead.company.id === doc.id),
    ) as CompanyDoc[];
    const brand = (company as CompanyDoc).name.split(' ')[0] as string;
    const typo = `${brand.slice(0, 3)}${brand.slice(4)}`;
    const companies = await callOk(client, 'search_companies', { name: typo });
    expect(companies.companies.map((listed: Json) => listed.name)).toContain((company as CompanyDoc).name);
    expect(companies.notes.join(' ')).toMatch(/^No company name contains/);

    const signalled = (await allSignals(index))[0] as SignalDoc;
    const signalBrand = signalled.company.name.split(' ')[0] as string;
    const signals = await callOk(client, 'search_signals', {
      company_name: `${signalBrand.slice(0, 3)}${signalBrand.slice(4)}`,
    });
    expect(signals.signals.map((signal: Json) => signal.company.name)).toContain(signalled.company.name);
    expect(signals.notes.join(' ')).toMatch(/^No company name contains/);

    // A name typed right is never read fuzzily.
    const exact = await callOk(client, 'search_signals', { company_name: signalBrand });
    expect(exact.notes).toEqual([]);

    // Beside a misspelt filter, one typed right keeps its reading and says nothing about spellings.
    const pythonFintech = open.filter(
      (lead) =>
        lead.industry === 'Fintech' &&
        /\bPython\b/i.test(lead.title) &&
        /\b(Developer|Engineer)\b/i.test(lead.title),
    );
    const both = await callOk(client, 'search_leads', { title: 'python developer', industry: 'fintec' });
    expect(both.total).toBe(pythonFintech.length);
    expect(both.notes).toContain('No role is in the industry "fintec", so it was read as "fintech".');
    expect(both.notes.join(' ')).not.toMatch(/No role title/);
  });

  it('reads an industry joined by "and" that is no industry as each part, in one note', async () => {
    const meant = open.filter((lead) => ['Banking', 'Fintech', 'Insurance'].includes(lead.industry ?? ''));
    const leads = await callOk(client, 'search_leads', { industry: 'banking and finance' });
    expect(leads.total).toBe(meant.length);
    expect(leads.notes).toEqual([
      'No role is in the industry "banking and finance", so "banking" was read on its own and "finance" was read as Fintech, Banking or Insurance.',
    ]);
  });

  it('says what leaving out each filter finds when nothing matches them all', async () => {
    const values = (pick: (lead: LeadDoc) => string | null) => [
      ...new Set(open.flatMap((lead) => (pick(lead) === null ? [] : [pick(lead) as string]))),
    ];
    const filters = {
      industry: (lead: LeadDoc) => lead.industry,
      experience_level: (lead: LeadDoc) => lead.experience_level,
      work_type: (lead: LeadDoc) => lead.work_type,
    };
    const matching = (args: Record<string, string>) =>
      open.filter((lead) =>
        Object.entries(args).every(([name, value]) => filters[name as keyof typeof filters](lead) === value),
      ).length;
    const triples = values(filters.industry).flatMap((industry) =>
      values(filters.experience_level).flatMap((experience_level) =>
        values(filters.work_type).map((work_type) => ({ industry, experience_level, work_type })),
      ),
    );
    const args = triples.find((triple) => matching(triple) === 0) as Record<string, string>;
    const found = await callOk(client, 'search_leads', args);
    expect(found.total).toBe(0);
    const leavingOut = Object.keys(args)
      .map((name) => ({
        name,
        count: matching(Object.fromEntries(Object.entries(args).filter(([other]) => other !== name))),
      }))
      .filter(({ count }) => count > 0)
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
      .map(({ name, count }, position) => `leaving out ${name}${position === 0 ? ' finds' : ''} ${count}`);
    expect(found.notes).toEqual([`No open role matches all the filters together; ${leavingOut.join(', ')}.`]);
    const elsewhere = await callOk(client, 'search_leads', { location: 'Gaborone' });
    expect([elsewhere.total, elsewhere.notes]).toEqual([
      0,
      ['Read the location "Gaborone" as Gaborone, Botswana.'],
    ]);
    const insights = await callOk(client, 'get_market_insights', { group_by: 'city', filters: args });
    expect(insights.notes).toContain(
      `No open role matches all the filters together; ${leavingOut.join(', ').replaceAll('leaving out ', 'leaving out filters.')}.`,
    );
  });

  it('reads a distance typed with a city as radius_km', async () => {
    const typed = await callOk(client, 'search_leads', { location: 'within 70 km of London' });
    const given = await callOk(client, 'search_leads', { location: 'London', radius_km: 70 });
    const city = await callOk(client, 'search_leads', { location: 'London' });
    expect(typed.total).toBe(given.total);
    expect(typed.total).toBeGreaterThan(city.total);
    expect(typed.notes).toEqual([
      'Read the location "within 70 km of London" as within 70 km of London, United Kingdom.',
    ]);
  });

  it('leaves out the roles whose title has a word typed after a dash', async () => {
    const total = async (title: string) => (await callOk(client, 'search_leads', { title })).total;
    const all = await total('python developer');
    const senior = await total('senior python developer');
    expect(senior).toBeGreaterThan(0);
    const others = await callOk(client, 'search_leads', { title: 'python developer -senior' });
    expect(others.total).toBe(all - senior);
    expect(others.notes.join(' ')).toContain('Left out the roles whose title has "senior".');
  });

  it('reads a place "or remote" as roles in the place or remote roles anywhere', async () => {
    const meant = open.filter((lead) => lead.location.city === 'London' || lead.work_type === 'Remote');
    const inLondon = open.filter((lead) => lead.location.city === 'London');
    expect(inLondon.length).toBeLessThan(meant.length);
    for (const location of ['London or remote', 'Remote or London']) {
      const found = await callOk(client, 'search_leads', { location });
      expect(found.total).toBe(meant.length);
      expect(found.notes).toEqual([
        `Read the location "${location}" as London, United Kingdom, or work_type Remote in any place.`,
      ]);
    }
  });

  it('reads a skill of several words that no role lists as the skill its first words name', async () => {
    const meant = open.filter((lead) => lead.skills.includes('Docker'));
    expect(meant.length).toBeGreaterThan(0);
    for (const tool of ['search_leads', 'search_companies'] as const) {
      const found = await callOk(client, tool, { skills: ['docker compose'] });
      expect(found.notes).toEqual([
        'No role lists the skill "docker compose", so "docker" was read on its own.',
      ]);
      if (tool === 'search_leads') expect(found.total).toBe(meant.length);
    }
  });

  it('reads a company name typed with a legal form it lacks without the form, with a note', async () => {
    const company = ((await allCompanies(index)) as CompanyDoc[]).find(
      (doc) => legalFormAtEnd(doc.name) === undefined && open.some((lead) => lead.company.id === doc.id),
    ) as CompanyDoc;
    const typed = `${company.name}, Inc.`;
    const companies = await callOk(client, 'search_companies', { name: typed });
    expect(companies.companies.map((listed: Json) => listed.name)).toContain(company.name);
    expect(companies.notes).toContain(`No company name contains "${typed}", so it was read without "Inc.".`);

    const signalled = ((await allSignals(index)) as SignalDoc[]).find(
      (signal) => legalFormAtEnd(signal.company.name) === undefined,
    ) as SignalDoc;
    const signals = await callOk(client, 'search_signals', {
      company_name: `${signalled.company.name} GmbH`,
    });
    expect(signals.signals.map((signal: Json) => signal.company.name)).toContain(signalled.company.name);
    expect(signals.notes).toEqual([
      `No company name contains "${signalled.company.name} GmbH", so it was read without "GmbH".`,
    ]);
  });

  it("never reads a company's name as another's: an agency left out, a company without news", async () => {
    const companies = (await allCompanies(index)) as CompanyDoc[];
    const contains = (doc: CompanyDoc, name: string) => doc.name.toLowerCase().includes(name.toLowerCase());
    const leads = await allLeads(index);
    const agency = companies.find(
      (doc) =>
        doc.is_agency &&
        leads.some((lead) => lead.is_open && lead.company.id === doc.id) &&
        companies.filter((other) => contains(other, doc.name)).length === 1,
    ) as CompanyDoc;
    const left = await callOk(client, 'search_companies', { name: agency.name });
    expect(left.total).toBe(0);
    expect(left.notes).toEqual([
      `A company's name contains "${legalFormAtEnd(agency.name)?.rest ?? agency.name}", so it was not read as another name.`,
      'Recruitment agencies are left out: set include_recruitment_agencies to true to search them too.',
    ]);
    const included = await callOk(client, 'search_companies', {
      name: agency.name,
      include_recruitment_agencies: true,
    });
    expect(included.companies.map((listed: Json) => listed.name)).toEqual([agency.name]);

    const signalled = (await allSignals(index)) as SignalDoc[];
    const quiet = companies.find(
      (doc) => !signalled.some((signal) => contains(signal.company as CompanyDoc, doc.name)),
    ) as CompanyDoc;
    const none = await callOk(client, 'search_signals', { company_name: quiet.name });
    expect(none.signals).toEqual([]);
    expect(none.notes).toEqual([
      `A company's name contains "${legalFormAtEnd(quiet.name)?.rest ?? quiet.name}", so it was not read as another name.`,
    ]);
  });

  it('reads places named together as any of them, and a place named with its vicinity as the place', async () => {
    const inEither = open.filter((lead) => ['London', 'Manchester'].includes(lead.location.city ?? ''));
    expect(inEither.length).toBeGreaterThan(0);
    const either = await callOk(client, 'search_leads', { location: 'London or Manchester', page_size: 1 });
    expect(either.total).toBe(inEither.length);
    expect(either.notes).toEqual([
      'Read the location "London or Manchester" as London, United Kingdom or Manchester, United Kingdom.',
    ]);
    const near = await callOk(client, 'search_leads', {
      location: 'near Munich',
      radius_km: 30,
      page_size: 1,
    });
    const munich = await callOk(client, 'search_leads', { location: 'Munich', radius_km: 30, page_size: 1 });
    expect(near.total).toBe(munich.total);
  });

  it('reads no real word as another: "project owner" is not read as "product owner"', async () => {
    // ("project manager" is the vocabulary's other name of a Delivery Manager.)
    expect(open.some((lead) => /Product Owner/.test(lead.title))).toBe(true);
    expect(open.some((lead) => /Project/.test(lead.title))).toBe(false);
    const result = await callOk(client, 'search_leads', { title: 'project owner' });
    expect(result.total).toBe(0);
    // Only what leaving out each word finds: "owner" alone finds the Product Owners.
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toMatch(
      /^No open role has a title with all of "project owner"; leaving out "project" finds \d+\.$/,
    );
  });

  it('leaves out "software" beside a specialty that implies it, when the title as typed finds nothing', async () => {
    const backend = open.filter((lead) => /Backend (Engineer|Developer)\b/.test(lead.title));
    expect(backend.length).toBeGreaterThan(0);
    const result = await callOk(client, 'search_leads', {
      title: 'Software Engineer, Backend',
      page_size: 5,
    });
    expect(result.total).toBe(backend.length);
    expect(result.notes).toEqual([
      'Read the title "Software Engineer, Backend" with "Engineer" as Engineer or Developer.',
      'No role title has all of "Software Engineer, Backend", so it was read without "Software".',
    ]);
    const companies = await callOk(client, 'search_companies', { hiring_for_title: 'backend SWE' });
    expect(companies.total).toBeGreaterThan(0);
    expect(companies.notes.join(' ')).toContain('so it was read with "SWE" as Engineer or Developer.');
  });

  it('get_filter_options tells the assistant what the text filters understand', async () => {
    const options = await callOk(client, 'get_filter_options');
    expect(Object.keys(options.text_filters)).toEqual([
      'title',
      'skills',
      'location',
      'industry',
      'company_name',
      'fixed_values',
      'misspellings',
      'nothing_found',
    ]);
    expect(options.text_filters.skills).toMatch(/k8s/);
  });

  it('refuses a title of too many words, naming the field in each tool', async () => {
    const title = Array.from({ length: MAX_TITLE_WORDS + 1 }, (_, position) => `word${position}`).join(' ');
    for (const [tool, args, field] of [
      ['search_leads', { title }, 'title'],
      ['search_companies', { hiring_for_title: title }, 'hiring_for_title'],
      ['get_market_insights', { group_by: 'city', filters: { title } }, 'filters.title'],
    ] as const) {
      const error = await callError(client, tool, args);
      expect(error.code).toBe('invalid_argument');
      expect(error.details).toEqual({ field });
      expect(error.message).toMatch(/at most 12 are searched/);
    }
    const long = await callError(client, 'search_leads', { title: 'x'.repeat(201) });
    expect(long).toMatchObject({ code: 'invalid_argument', details: { field: 'title' } });
  });
});
