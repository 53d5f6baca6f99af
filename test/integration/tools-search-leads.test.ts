import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadDoc } from '../../src/domain/documents.js';
import { foldKey } from '../../src/domain/fold.js';
import { distanceKm, findCity } from '../../src/reference/gazetteer.js';
import { postRaw, toolCallRequest } from '../support/mcp-client.js';
import {
  allLeads,
  callError,
  callOk,
  connectSeededClient,
  type Json,
  newestLeadsFirst,
  openNonAgencyLeads,
  openSeededIndex,
  SEEDED_NOW,
  type SeededIndex,
  seededDaysAgo,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

function city(name: string) {
  const found = findCity(name);
  if (!found) throw new Error(`no city ${name}`);
  return found;
}

describe('search_leads and get_lead over the seeded data', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  let accountId: string;
  let index: SeededIndex;
  let leads: LeadDoc[];
  let open: LeadDoc[];
  const byId = new Map<string, LeadDoc>();

  beforeAll(async () => {
    server = await startSeededServer();
    ({ client, key, accountId } = await connectSeededClient(server));
    index = openSeededIndex();
    leads = await allLeads(index);
    open = openNonAgencyLeads(leads).sort(newestLeadsFirst);
    for (const lead of leads) byId.set(lead.id, lead);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await index?.close();
  });

  /**
   * The first page (25) equals the newest 25 of `expected`, and `total` counts all of them. An empty
   * `expected` is refused: a filter that matches nothing would pass against a search that finds nothing.
   */
  async function expectSearch(args: Record<string, unknown>, expected: LeadDoc[]): Promise<Json> {
    expect(expected.length).toBeGreaterThan(0);
    const result = await callOk(client, 'search_leads', { ...args, page_size: 25 });
    const newest = [...expected].sort(newestLeadsFirst).slice(0, 25);
    expect(result.total).toBe(expected.length);
    expect(result.returned).toBe(newest.length);
    expect(result.leads.map((lead: Json) => lead.id)).toEqual(newest.map((lead) => lead.id));
    return result;
  }

  it('without filters returns the newest open roles, agencies left out, as lead cards', async () => {
    const before = await server.services.quotaCounters.used(accountId, 'lead_explores', SEEDED_NOW);
    const result = await expectSearch({}, open);
    expect(open.length).toBeGreaterThan(1000);
    const [card] = result.leads;
    const doc = byId.get(card.id) as LeadDoc;
    expect(card).toEqual({
      id: doc.id,
      title: doc.title,
      location: doc.location.display,
      posted_date: doc.posted_date,
      company: { id: doc.company.id, name: doc.company.name, logo_url: doc.company.logo_url },
      work_type: doc.work_type,
      employment_type: doc.employment_type,
      experience_level: doc.experience_level,
      salary: doc.salary,
      estimated_fee: doc.estimated_fee,
      skills: doc.skills,
      enriched: false,
    });
    expect(result.notes).toEqual([]);
    expect(result.next_cursor).toEqual(expect.any(String));
    expect(result.quota).toMatchObject({ used: before + 25, limit: null, remaining: null });
  });

  it('orders leads posted the same day by seq, highest first', async () => {
    const result = await expectSearch({}, open);
    const page: LeadDoc[] = result.leads.map((card: Json) => byId.get(card.id));
    // The tie must be on the page: seeded in generation order, a search without the seq
    // tiebreak would list them lowest seq first.
    const tied = page.filter((lead, position) => lead.posted_date === page[position + 1]?.posted_date);
    expect(tied.length).toBeGreaterThan(1);
    page.slice(1).forEach((lead, position) => {
      const before = page[position] as LeadDoc;
      if (before.posted_date === lead.posted_date) expect(before.seq).toBeGreaterThan(lead.seq);
    });
  });

  it('include_recruitment_agencies adds the agencies’ open roles', async () => {
    const withAgencies = leads.filter((lead) => lead.is_open);
    const result = await expectSearch({ include_recruitment_agencies: true }, withAgencies);
    expect(result.total).toBeGreaterThan(open.length);
  });

  it('title needs every word in the title, in any case, order, spelling or number', async () => {
    // Beside a specialty, engineer and developer name one job (docs/search-semantics.md).
    const expected = open.filter(
      (lead) => /Full Stack/.test(lead.title) && /\b(Engineer|Developer)\b/.test(lead.title),
    );
    expect(expected.length).toBeGreaterThan(25);
    const result = await expectSearch({ title: 'engineers, FULL-stack' }, expected);
    expect(result.notes).toEqual([
      'Read the title "engineers, FULL-stack" with "engineers" as Engineer or Developer.',
    ]);
  });

  it('skills match any of the names, ignoring case', async () => {
    const wanted = ['python', 'kubernetes'];
    const expected = open.filter((lead) => lead.skills.some((skill) => wanted.includes(foldKey(skill))));
    await expectSearch({ skills: ['PYTHON', 'Kubernetes'] }, expected);
  });

  it.each([
    ['experience_level', 'Lead', (lead: LeadDoc) => lead.experience_level === 'Lead'],
    ['work_type', 'Remote', (lead: LeadDoc) => lead.work_type === 'Remote'],
    ['employment_type', 'Contract', (lead: LeadDoc) => lead.employment_type === 'Contract'],
    ['company_size', 'startup', (lead: LeadDoc) => lead.company.size_band === 'startup'],
    ['industry', 'fintech', (lead: LeadDoc) => lead.industry === 'Fintech'],
    ['posted_within_days', 7, (lead: LeadDoc) => lead.posted_date >= seededDaysAgo(7)],
  ] as const)('%s %j', async (name, value, matches) => {
    const expected = open.filter(matches);
    expect(expected.length).toBeGreaterThan(0);
    await expectSearch({ [name]: value }, expected);
  });

  it('company_id keeps the roles of that company only', async () => {
    const companyId = open.find((lead) => lead.company.id !== null)?.company.id as string;
    const expected = open.filter((lead) => lead.company.id === companyId);
    const result = await expectSearch({ company_id: companyId }, expected);
    for (const card of result.leads) expect(card.company.id).toBe(companyId);
  });

  it('filters combine with AND', async () => {
    const expected = open.filter(
      (lead) =>
        lead.location.country_code === 'DE' &&
        lead.experience_level === 'Senior' &&
        lead.work_type === 'Hybrid' &&
        lead.posted_date >= seededDaysAgo(90),
    );
    await expectSearch(
      { location: 'Germany', experience_level: 'Senior', work_type: 'Hybrid', posted_within_days: 90 },
      expected,
    );
  });

  describe('salary bounds', () => {
    it('in EUR match roles whose converted annual range overlaps the bounds', async () => {
      const expected = open.filter(
        (lead) =>
          lead.salary_annual !== null &&
          lead.salary_annual.eur_max >= 60_000 &&
          lead.salary_annual.eur_min <= 80_000,
      );
      const result = await expectSearch(
        { min_annual_salary: 60_000, max_annual_salary: 80_000, salary_currency: 'EUR' },
        expected,
      );
      // Checked on each returned lead's own document too, not only by the set computed above.
      const docs = await index.client.mget<LeadDoc>({
        index: index.indices.leads,
        ids: result.leads.map((lead: Json) => lead.id),
      });
      for (const doc of docs.docs) {
        const annual = ('_source' in doc && doc._source?.salary_annual) || null;
        expect(annual).not.toBeNull();
        expect(annual?.eur_max).toBeGreaterThanOrEqual(60_000);
        expect(annual?.eur_min).toBeLessThanOrEqual(80_000);
      }
    });

    it('default to GBP, and a single bound leaves out roles without a salary', async () => {
      const expected = open.filter(
        (lead) => lead.salary_annual !== null && lead.salary_annual.gbp_max >= 90_000,
      );
      const result = await expectSearch({ min_annual_salary: 90_000 }, expected);
      expect(result.total).toBeLessThan(open.filter((lead) => lead.salary_annual !== null).length);
    });

    it('in another currency give another answer for the same number', async () => {
      const inUsd = open.filter(
        (lead) => lead.salary_annual !== null && lead.salary_annual.usd_min <= 50_000,
      );
      const inGbp = open.filter(
        (lead) => lead.salary_annual !== null && lead.salary_annual.gbp_min <= 50_000,
      );
      expect(inUsd.length).not.toBe(inGbp.length);
      await expectSearch({ max_annual_salary: 50_000, salary_currency: 'USD' }, inUsd);
    });
  });

  describe('location', () => {
    it.each([
      ['DE', (lead: LeadDoc) => lead.location.country_code === 'DE'],
      ['germany', (lead: LeadDoc) => lead.location.country_code === 'DE'],
      ['UK', (lead: LeadDoc) => lead.location.country_code === 'GB'],
      ['United Kingdom', (lead: LeadDoc) => lead.location.country_code === 'GB'],
      ['England', (lead: LeadDoc) => lead.location.region === 'England'],
      ['Bavaria', (lead: LeadDoc) => lead.location.region === 'Bavaria'],
      ['München', (lead: LeadDoc) => lead.location.city === 'Munich'],
      ['munich', (lead: LeadDoc) => lead.location.city === 'Munich'],
      ['Kraków', (lead: LeadDoc) => lead.location.city === 'Kraków'],
      ['krakow', (lead: LeadDoc) => lead.location.city === 'Kraków'],
      ['Munich, Germany', (lead: LeadDoc) => lead.location.city === 'Munich'],
      ['U.K.', (lead: LeadDoc) => lead.location.country_code === 'GB'],
      ['Wien', (lead: LeadDoc) => lead.location.city === 'Vienna'],
    ] as const)('%s', async (location, matches) => {
      const expected = open.filter(matches);
      expect(expected.length).toBeGreaterThan(0);
      await expectSearch({ location }, expected);
    });

    it('an unknown place gives no results and a note saying so', async () => {
      const result = await callOk(client, 'search_leads', { location: 'Narnia' });
      expect(result).toMatchObject({ total: 0, returned: 0, leads: [], next_cursor: null });
      expect(result.notes.join(' ')).toMatch(/"Narnia" was not recognised/);
    });

    // London–Reading is 59 km, London–Milton Keynes 74 km: 70 km keeps a margin on both sides.
    it.each([70, 100])('radius_km %i around London keeps only roles within the radius', async (radius) => {
      const london = city('London');
      const expected = open.filter(
        (lead) => lead.location.geo !== null && distanceKm(london, lead.location.geo) <= radius,
      );
      expect(new Set(expected.map((lead) => lead.location.city)).size).toBeGreaterThan(1);
      const result = await expectSearch({ location: 'London', radius_km: radius }, expected);
      for (const card of result.leads) {
        const geo = (byId.get(card.id) as LeadDoc).location.geo;
        expect(geo && distanceKm(london, geo)).toBeLessThanOrEqual(radius);
      }
    });

    it.each([
      'England',
      'Germany',
      'DE',
    ])('radius_km with %s (not a city) is refused on location', async (location) => {
      const error = await callError(client, 'search_leads', { location, radius_km: 50 });
      expect(error).toMatchObject({ code: 'invalid_argument', details: { field: 'location' } });
    });

    it('radius_km without a location is refused on radius_km', async () => {
      const error = await callError(client, 'search_leads', { radius_km: 50 });
      expect(error).toMatchObject({ code: 'invalid_argument', details: { field: 'radius_km' } });
    });
  });

  describe('paging', () => {
    it('pages to the end of a 60-result search, visiting every lead once, in order', async () => {
      const args = { location: 'Bristol' };
      const expected = open.filter((lead) => lead.location.city === 'Bristol').map((lead) => lead.id);
      // More than the first three pages hold, fewer than four: the last page is a short one.
      expect(expected.length).toBeGreaterThan(60);
      expect(expected.length).toBeLessThan(85);
      const pages: number[] = [];
      const seen: string[] = [];
      let cursor: string | undefined;
      // page_size may change from page to page.
      for (const pageSize of [25, 10, 25, 25]) {
        const page = await callOk(client, 'search_leads', { ...args, page_size: pageSize, cursor });
        expect(page.total).toBe(expected.length);
        pages.push(page.returned);
        seen.push(...page.leads.map((lead: Json) => lead.id));
        cursor = page.next_cursor ?? undefined;
        if (cursor === undefined) break;
      }
      expect(cursor).toBeUndefined();
      expect(pages).toEqual([25, 10, 25, expected.length - 60]);
      expect(seen).toEqual(expected);
    });

    it('refuses a cursor sent with changed filters, and an altered cursor', async () => {
      const first = await callOk(client, 'search_leads', { location: 'Bristol', page_size: 5 });
      expect(first.next_cursor).toEqual(expect.any(String));
      const next = await callOk(client, 'search_leads', {
        location: 'Bristol',
        page_size: 5,
        cursor: first.next_cursor,
      });
      expect(next.returned).toBe(5);
      const changed = await callError(client, 'search_leads', {
        location: 'Bristol',
        work_type: 'Remote',
        cursor: first.next_cursor,
      });
      expect(changed).toMatchObject({ code: 'invalid_argument', details: { field: 'cursor' } });
      expect(changed.message).toMatch(/different search/);

      const otherTool = await callError(client, 'search_signals', { cursor: first.next_cursor });
      expect(otherTool).toMatchObject({ code: 'invalid_argument', details: { field: 'cursor' } });
      expect(otherTool.message).toMatch(/different search/);

      const altered = `${first.next_cursor.slice(0, -2)}xx`;
      const tampered = await callError(client, 'search_leads', { location: 'Bristol', cursor: altered });
      expect(tampered).toMatchObject({ code: 'invalid_argument', details: { field: 'cursor' } });
      expect(tampered.message).toMatch(/not valid/);
    });

    it('stops a search with more than 1,000 matches at 1,000, cutting the page that would pass it', async () => {
      const args = { experience_level: 'Senior' };
      const expected = open.filter((lead) => lead.experience_level === 'Senior').map((lead) => lead.id);
      expect(expected.length).toBeGreaterThan(1000);
      expect(expected.length).toBeLessThan(2000);
      const seen: string[] = [];
      let cursor: string | undefined;
      // 39 pages of 25 and one of 24 reach 999; the last page asks for 10 and gets the 1,000th.
      const pageSizes = [...Array<number>(39).fill(25), 24, 10];
      let last: Json;
      for (const pageSize of pageSizes) {
        last = await callOk(client, 'search_leads', { ...args, page_size: pageSize, cursor });
        seen.push(...last.leads.map((lead: Json) => lead.id));
        cursor = last.next_cursor;
      }
      expect(last.returned).toBe(1);
      expect(last.next_cursor).toBeNull();
      expect(last.total).toBe(expected.length);
      expect(last.notes.join(' ')).toMatch(/first 1,000 results.*Narrow the filters/);
      expect(seen).toEqual(expected.slice(0, 1000));
    });
  });

  it('marks leads the account has unlocked as enriched', async () => {
    // An account of its own: the get_lead tests unlock leads for the shared one.
    const own = await connectSeededClient(server);
    try {
      const [newest] = open;
      await server.services.unlocks.recordAppUnlock(own.accountId, (newest as LeadDoc).id, SEEDED_NOW);
      const result = await callOk(own.client, 'search_leads', { page_size: 2 });
      expect(result.leads.map((lead: Json) => [lead.id, lead.enriched])).toEqual([
        [open[0]?.id, true],
        [open[1]?.id, false],
      ]);
    } finally {
      await own.client.close();
    }
  });

  describe('get_lead', () => {
    it('returns the preview of an open lead and counts one lead explore', async () => {
      const doc = open.find((lead) => lead.other_locations.length > 0) as LeadDoc;
      const before = await server.services.quotaCounters.used(accountId, 'lead_explores', SEEDED_NOW);
      const result = await callOk(client, 'get_lead', { lead_id: doc.id });
      expect(result.lead).toMatchObject({
        id: doc.id,
        title: doc.title,
        location: doc.location.display,
        is_open: true,
        summary: doc.summary,
        soft_skills: doc.soft_skills,
        about_company: doc.about_company,
        other_locations: doc.other_locations,
        enrichment_cost_credits: 1,
        details: null,
        enriched: false,
      });
      expect(result.notes).toEqual([]);
      expect(result.quota.used).toBe(before + 1);
    });

    it('shows the details of a lead the account unlocked, at no cost', async () => {
      const doc = open[1] as LeadDoc;
      await server.services.unlocks.recordAppUnlock(accountId, doc.id, SEEDED_NOW);
      const result = await callOk(client, 'get_lead', { lead_id: doc.id });
      expect(result.lead).toMatchObject({ enriched: true, enrichment_cost_credits: 0 });
      expect(result.lead.details).toMatchObject({
        job_links: doc.details.job_links,
        industry: doc.details.industry,
        applicants: doc.details.applicants,
      });
    });

    it('answers for a closed role, with a note', async () => {
      const closed = leads.find((lead) => !lead.is_open) as LeadDoc;
      const result = await callOk(client, 'get_lead', { lead_id: closed.id });
      expect(result.lead).toMatchObject({ id: closed.id, is_open: false, details: null });
      expect(result.notes.join(' ')).toMatch(/has closed/);
    });

    it('answers not_found for an unknown id, without charging', async () => {
      const before = await server.services.quotaCounters.used(accountId, 'lead_explores', SEEDED_NOW);
      const error = await callError(client, 'get_lead', { lead_id: 'ld_0000000000' });
      expect(error).toMatchObject({ code: 'not_found', details: { field: 'lead_id' } });
      expect(await server.services.quotaCounters.used(accountId, 'lead_explores', SEEDED_NOW)).toBe(before);
    });
  });

  it('answers a plain HTTP call that accepts only application/json', async () => {
    const answer = await postRaw(
      server.url,
      toolCallRequest('search_leads', { location: 'Bristol', page_size: 3 }),
      {
        token: key,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const body = answer.json as Json;
    expect(body.result.isError).toBeFalsy();
    expect(body.result.structuredContent).toMatchObject({ returned: 3 });
    expect(JSON.parse(body.result.content[0].text)).toEqual(body.result.structuredContent);
  });
});
