import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyDoc, LeadDoc, SignalDoc } from '../../src/domain/documents.js';
import { EXPERIENCE_LEVELS, WORK_TYPES } from '../../src/domain/enums.js';
import { foldKey } from '../../src/domain/fold.js';
import {
  allCompanies,
  allLeads,
  allSignals,
  callError,
  callOk,
  connectSeededClient,
  type Json,
  newestLeadsFirst,
  newestSignalsFirst,
  openSeededIndex,
  SEEDED_NOW,
  type SeededIndex,
  seededDaysAgo,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

interface Ranked {
  id: string;
  openRoles: number;
}

/** `{label, count}` by count descending, then label; the top `size`. */
function topCounts(values: readonly string[], size = 10) {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .map(([label, count]) => ({ label, count }))
    .sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : 1))
    .slice(0, size);
}

describe('search_companies and get_company over the seeded data', () => {
  let server: TestServer;
  let client: Client;
  let accountId: string;
  let index: SeededIndex;
  let leads: LeadDoc[];
  let signals: SignalDoc[];
  const companies = new Map<string, CompanyDoc>();

  beforeAll(async () => {
    server = await startSeededServer();
    ({ client, accountId } = await connectSeededClient(server));
    index = openSeededIndex();
    [leads, signals] = await Promise.all([allLeads(index), allSignals(index)]);
    for (const company of await allCompanies(index)) companies.set(company.id, company);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await index?.close();
  });

  /**
   * The ranking computed from the documents: open roles passing `roleFilter` at listed companies
   * (with a profile, agencies only when asked), by open roles descending, then name, then id.
   */
  function expectedRanking(
    roleFilter: (lead: LeadDoc) => boolean,
    options: { includeAgencies?: boolean; minOpenRoles?: number } = {},
  ): Ranked[] {
    const counts = new Map<string, number>();
    for (const lead of leads) {
      const companyId = lead.company.id;
      if (!lead.is_open || companyId === null || !roleFilter(lead)) continue;
      if (lead.company.is_agency && !options.includeAgencies) continue;
      counts.set(companyId, (counts.get(companyId) ?? 0) + 1);
    }
    const rankKey = (id: string) => `${companies.get(id)?.name_key}|${id}`;
    return [...counts]
      .map(([id, openRoles]) => ({ id, openRoles }))
      .filter((company) => company.openRoles >= (options.minOpenRoles ?? 1))
      .sort((a, b) => b.openRoles - a.openRoles || (rankKey(a.id) < rankKey(b.id) ? -1 : 1));
  }

  /** The first page (25) equals the top 25 of `expected`, which must not be empty (that would prove nothing). */
  async function expectRanking(args: Record<string, unknown>, expected: Ranked[]): Promise<Json> {
    expect(expected.length).toBeGreaterThan(0);
    const result = await callOk(client, 'search_companies', { ...args, page_size: 25 });
    expect(result.total).toBe(expected.length);
    expect(
      result.companies.map((company: Json) => ({ id: company.id, openRoles: company.open_roles })),
    ).toEqual(expected.slice(0, 25));
    return result;
  }

  describe('search_companies', () => {
    it('ranks companies by matching open roles, then by name, and lists their profiles', async () => {
      const expected = expectedRanking(() => true);
      const before = await server.services.quotaCounters.used(accountId, 'company_explores', SEEDED_NOW);
      const result = await expectRanking({}, expected);
      const [first] = result.companies;
      const profile = companies.get(first.id) as CompanyDoc;
      expect(first).toEqual({
        id: profile.id,
        name: profile.name,
        logo_url: profile.logo_url,
        website_url: profile.website_url,
        industry: profile.industry,
        sector: profile.sector,
        size: profile.size,
        size_band: profile.size_band,
        location: profile.location,
        open_roles: expected[0]?.openRoles,
      });
      expect(result.quota.used).toBe(before + 25);
    });

    it('orders companies with the same number of roles by name', async () => {
      const result = await expectRanking(
        { min_open_roles: 3 },
        expectedRanking(() => true, { minOpenRoles: 3 }),
      );
      const page: Json[] = result.companies;
      // Ties on the page itself whose ids run the other way, so only the name can have ordered them.
      const tiesOrderedByNameOnly = page.filter((company, position) => {
        const next = page[position + 1];
        return next?.open_roles === company.open_roles && next.id < company.id;
      });
      expect(tiesOrderedByNameOnly.length).toBeGreaterThan(0);
      for (const company of tiesOrderedByNameOnly) {
        const next = page[page.indexOf(company) + 1];
        expect(foldKey(company.name) < foldKey(next.name)).toBe(true);
      }
    });

    it('min_open_roles drops companies with fewer matching roles', async () => {
      await expectRanking(
        { min_open_roles: 20 },
        expectedRanking(() => true, { minOpenRoles: 20 }),
      );
    });

    it('role filters restrict which roles are counted', async () => {
      const expected = expectedRanking(
        (lead) =>
          lead.location.country_code === 'DE' &&
          lead.skills.some((skill) => ['python', 'sql'].includes(foldKey(skill))) &&
          lead.posted_date >= seededDaysAgo(180),
      );
      await expectRanking(
        { location: 'Deutschland', skills: ['Python', 'sql'], posted_within_days: 180 },
        expected,
      );
    });

    it('hiring_for_title counts roles whose title has every word', async () => {
      const expected = expectedRanking(
        (lead) => /\bdata\b/i.test(lead.title) && /\bengineer\b/i.test(lead.title),
      );
      await expectRanking({ hiring_for_title: 'Data Engineer' }, expected);
    });

    it('company filters restrict which companies are listed', async () => {
      const expected = expectedRanking(
        (lead) => lead.industry === 'Fintech' && lead.company.size_band === 'enterprise',
      );
      const result = await expectRanking({ industry: 'FINTECH', company_size: 'enterprise' }, expected);
      for (const company of result.companies)
        expect(company).toMatchObject({ industry: 'Fintech', size_band: 'enterprise' });
    });

    it('name matches part of the company name, ignoring case', async () => {
      const part = (companies.values().next().value as CompanyDoc).name_key.slice(1, 5);
      const expected = expectedRanking((lead) => lead.company.name_key.includes(part));
      expect(expected.length).toBeGreaterThan(0);
      await expectRanking({ name: part.toUpperCase() }, expected);
    });

    it('include_recruitment_agencies lists agencies too', async () => {
      const expected = expectedRanking(() => true, { includeAgencies: true });
      const result = await expectRanking({ include_recruitment_agencies: true }, expected);
      expect(result.total).toBeGreaterThan(expectedRanking(() => true).length);
      expect(expected.some((company) => companies.get(company.id)?.is_agency)).toBe(true);
    });

    it('an unknown place matches no roles and says so', async () => {
      const result = await callOk(client, 'search_companies', { location: 'Narnia' });
      expect(result).toMatchObject({ total: 0, returned: 0, companies: [], next_cursor: null });
      expect(result.notes.join(' ')).toMatch(/not recognised/);
    });

    it('pages through every company once, in order', async () => {
      const args = { location: 'Poland' };
      const expected = expectedRanking((lead) => lead.location.country_code === 'PL');
      expect(expected.length).toBeGreaterThan(25);
      const seen: Ranked[] = [];
      let pages = 0;
      let cursor: string | undefined;
      do {
        const page = await callOk(client, 'search_companies', { ...args, page_size: 25, cursor });
        pages++;
        expect(page.total).toBe(expected.length);
        seen.push(
          ...page.companies.map((company: Json) => ({ id: company.id, openRoles: company.open_roles })),
        );
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      expect(pages).toBe(Math.ceil(expected.length / 25));
      expect(seen).toEqual(expected);
    });

    it('refuses a cursor of one search sent with other filters', async () => {
      const first = await callOk(client, 'search_companies', { location: 'Poland', page_size: 5 });
      expect(first.next_cursor).toEqual(expect.any(String));
      const changed = await callError(client, 'search_companies', {
        location: 'Austria',
        page_size: 5,
        cursor: first.next_cursor,
      });
      expect(changed).toMatchObject({ code: 'invalid_argument', details: { field: 'cursor' } });
      expect(changed.message).toMatch(/different search/);
    });
  });

  describe('get_company', () => {
    it('returns the profile with a hiring summary that agrees with the documents', async () => {
      const [top] = expectedRanking(() => true);
      const profile = companies.get(top?.id as string) as CompanyDoc;
      const before = await server.services.quotaCounters.used(accountId, 'company_explores', SEEDED_NOW);
      const { company, quota } = await callOk(client, 'get_company', { company_id: profile.id });
      const own = leads.filter((lead) => lead.company.id === profile.id);
      const open = own.filter((lead) => lead.is_open);

      expect(company).toMatchObject({
        id: profile.id,
        name: profile.name,
        industry: profile.industry,
        sector: profile.sector,
        size: profile.size,
        size_band: profile.size_band,
        founded: profile.founded,
        about: profile.about,
        specialties: profile.specialties,
        is_blue_chip: profile.is_blue_chip,
        office_locations: profile.office_locations,
        open_roles: open.length,
      });
      expect(company.headquarters).toEqual(expect.any(String));
      expect(company.open_roles_by_experience_level).toEqual(
        EXPERIENCE_LEVELS.map((label) => ({
          label,
          count: open.filter((lead) => lead.experience_level === label).length,
        })),
      );
      expect(company.open_roles_by_work_type).toEqual(
        WORK_TYPES.map((label) => ({ label, count: open.filter((lead) => lead.work_type === label).length })),
      );
      expect(company.top_titles).toEqual(topCounts(open.map((lead) => lead.title)));
      expect(company.top_skills).toEqual(topCounts(open.flatMap((lead) => lead.skills)));
      expect(company.top_locations).toEqual(
        topCounts(open.flatMap((lead) => (lead.location.city === null ? [] : [lead.location.city]))),
      );

      const postedBetween = (from: number, to: number) =>
        own.filter((lead) => lead.posted_date >= seededDaysAgo(from) && lead.posted_date <= seededDaysAgo(to))
          .length;
      // Both windows hold roles, different numbers of them: a window counting nothing or swapped would show.
      expect(postedBetween(6, 0)).toBeGreaterThan(0);
      expect(postedBetween(13, 7)).not.toBe(postedBetween(6, 0));
      expect(company.posted_last_7_days).toBe(postedBetween(6, 0));
      expect(company.posted_previous_7_days).toBe(postedBetween(13, 7));

      expect(company.recent_leads.map((lead: Json) => lead.id)).toEqual(
        [...open]
          .sort(newestLeadsFirst)
          .slice(0, 5)
          .map((lead) => lead.id),
      );
      const newestSignals = signals
        .filter((signal) => signal.company.id === profile.id)
        .sort(newestSignalsFirst)
        .slice(0, 5);
      expect(newestSignals).toHaveLength(5);
      expect(company.recent_signals).toEqual(
        newestSignals.map(({ id, category, polarity, title, announced_on, url }) => ({
          id,
          category,
          polarity,
          title,
          announced_on,
          url,
        })),
      );
      expect(quota.used).toBe(before + 1);
    });

    it('answers for a company with signals but few roles', async () => {
      const withSignals = new Set(signals.map((signal) => signal.company.id));
      const [quiet] = expectedRanking(() => true)
        .filter((company) => withSignals.has(company.id))
        .slice(-1);
      const { company } = await callOk(client, 'get_company', { company_id: quiet?.id });
      expect(company.open_roles).toBe(quiet?.openRoles);
      expect(company.recent_signals.length).toBeGreaterThan(0);
    });

    it('answers not_found for an unknown id, without charging', async () => {
      const before = await server.services.quotaCounters.used(accountId, 'company_explores', SEEDED_NOW);
      const error = await callError(client, 'get_company', { company_id: 'co_0000000000' });
      expect(error).toMatchObject({ code: 'not_found', details: { field: 'company_id' } });
      expect(await server.services.quotaCounters.used(accountId, 'company_explores', SEEDED_NOW)).toBe(
        before,
      );
    });
  });
});
