import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadDoc } from '../../src/domain/documents.js';
import { foldKey } from '../../src/domain/fold.js';
import { countryNameOf } from '../../src/reference/gazetteer.js';
import {
  allLeads,
  callOk,
  connectSeededClient,
  type Json,
  openNonAgencyLeads,
  openSeededIndex,
  type SeededIndex,
  seededDaysAgo,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

interface Group {
  key: string;
  label: string;
  /** Elasticsearch's bucket key, which orders ties. */
  sortKey: string;
  count: number;
}

/** How each terms dimension groups a lead: `[key, label, bucket key]` per group the lead falls in. */
const TERMS_DIMENSIONS: Record<string, (lead: LeadDoc) => Array<[string, string, string]>> = {
  experience_level: (lead) => [[lead.experience_level, lead.experience_level, lead.experience_level]],
  work_type: (lead) => [[lead.work_type, lead.work_type, lead.work_type]],
  employment_type: (lead) => [[lead.employment_type, lead.employment_type, lead.employment_type]],
  company: (lead) => [[lead.company.id ?? lead.company.name, lead.company.name, lead.company.rank_key]],
  skill: (lead) => lead.skills.map((skill): [string, string, string] => [skill, skill, skill]),
  city: (lead) =>
    lead.location.city === null ? [] : [[lead.location.city, lead.location.city, lead.location.city]],
  country: (lead) => {
    const code = lead.location.country_code;
    return code === null ? [] : [[code, countryNameOf(code), code]];
  },
  industry: (lead) => [[lead.industry, lead.industry, lead.industry]],
  title: (lead) => [[lead.title, lead.title, lead.title]],
};

/** Groups by count descending, then bucket key, as the terms aggregation ranks them. */
function groupsOf(leads: readonly LeadDoc[], dimension: string): Group[] {
  const groups = new Map<string, Group>();
  for (const lead of leads) {
    for (const [key, label, sortKey] of TERMS_DIMENSIONS[dimension]?.(lead) ?? []) {
      const group = groups.get(sortKey) ?? { key, label, sortKey, count: 0 };
      group.count++;
      groups.set(sortKey, group);
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || (a.sortKey < b.sortKey ? -1 : 1));
}

const share = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

/** Change from the period before, one decimal; none after an empty period (or before the first). */
const change = (count: number, previous: number) =>
  previous === 0 ? null : Math.round(((count - previous) / previous) * 1000) / 10;

/** Roles per period key. */
function countBy(leads: readonly LeadDoc[], periodOf: (lead: LeadDoc) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const lead of leads) counts.set(periodOf(lead), (counts.get(periodOf(lead)) ?? 0) + 1);
  return counts;
}

/** The Monday (UTC) starting the week of a `YYYY-MM-DD` date. */
function weekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return new Date(date.getTime() - sinceMonday * 86_400_000).toISOString().slice(0, 10);
}

/** The Monday `weeks` weeks after the Monday `week` (before it when negative). */
function weeksAfter(week: string, weeks: number): string {
  return new Date(Date.parse(`${week}T00:00:00Z`) + weeks * 7 * 86_400_000).toISOString().slice(0, 10);
}

describe('get_market_insights and get_filter_options over the seeded data', () => {
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

  describe('group_by a terms dimension', () => {
    it.each(
      Object.keys(TERMS_DIMENSIONS),
    )('%s: rows, shares and other_count agree with the data', async (groupBy) => {
      const result = await callOk(client, 'get_market_insights', { group_by: groupBy });
      const groups = groupsOf(open, groupBy);
      const top = groups.slice(0, 10);
      expect(result).toMatchObject({
        group_by: groupBy,
        breakdown_by: null,
        metric: 'count',
        currency: 'GBP',
        total: open.length,
        returned: top.length,
      });
      expect(result.rows).toEqual(
        top.map((group) => ({
          key: group.key,
          label: group.label,
          count: group.count,
          share_percent: share(group.count, open.length),
        })),
      );
      const inGroups = groups.reduce((sum, group) => sum + group.count, 0);
      expect(result.other_count).toBe(inGroups - top.reduce((sum, group) => sum + group.count, 0));
      if (groupBy !== 'skill') expect(inGroups).toBe(result.total);
    });

    it('orders groups with the same count by their bucket key: companies by name', async () => {
      const result = await callOk(client, 'get_market_insights', { group_by: 'company' });
      const rows: Json[] = result.rows;
      // Ties in the rows themselves whose keys (company ids) run the other way: only the name ordered them.
      const tiesOrderedByNameOnly = rows.filter((row, position) => {
        const next = rows[position + 1];
        return next?.count === row.count && next.key < row.key;
      });
      expect(tiesOrderedByNameOnly.length).toBeGreaterThan(0);
      for (const row of tiesOrderedByNameOnly) {
        const next = rows[rows.indexOf(row) + 1];
        expect(foldKey(row.label) < foldKey(next.label)).toBe(true);
      }
    });
  });

  it('posted_month: the last periods oldest first, each with its change against the one before', async () => {
    const result = await callOk(client, 'get_market_insights', { group_by: 'posted_month', limit: 12 });
    const counts = countBy(open, (lead) => lead.posted_date.slice(0, 7));
    const months = [...counts.keys()].sort();
    expect(months.at(-1)).toBe('2026-11');
    const shown = months.slice(-12);
    expect(result.rows.map((row: Json) => row.key)).toEqual(shown);
    expect(result.rows[0].label).toBe('December 2025');
    // Thirteen months of data: the first row shown still has a month before it to compare with.
    expect(months).toHaveLength(13);
    result.rows.forEach((row: Json, position: number) => {
      const previous = counts.get(months[months.length - 12 + position - 1] as string) as number;
      expect(previous).toBeGreaterThan(0);
      expect(row.count).toBe(counts.get(row.key));
      expect(row.share_percent).toBe(share(row.count, open.length));
      expect(row.change_percent).toBe(change(row.count, previous));
    });
    expect(result.other_count).toBe(
      open.length - shown.reduce((sum, month) => sum + (counts.get(month) ?? 0), 0),
    );
    expect(result.notes.join(' ')).toMatch(/November 2026\) is still in progress/);
  });

  it('posted_week: calendar weeks from Monday, up to the current one', async () => {
    const result = await callOk(client, 'get_market_insights', { group_by: 'posted_week', limit: 5 });
    const counts = countBy(open, (lead) => weekOf(lead.posted_date));
    const weeks = [...counts.keys()].sort().slice(-5);
    expect(weeks.at(-1)).toBe('2026-10-26');
    expect(result.rows.map((row: Json) => [row.key, row.label, row.count, row.change_percent])).toEqual(
      weeks.map((week) => {
        const count = counts.get(week) as number;
        return [week, `Week of ${week}`, count, change(count, counts.get(weeksAfter(week, -1)) ?? 0)];
      }),
    );
  });

  it('posted_week fills empty weeks with 0 and gives no change after one, nor for the first', async () => {
    const days = 84;
    const firstDay = seededDaysAgo(days);
    const weeksOf = (companyId: string | null) =>
      countBy(
        open.filter((lead) => lead.company.id === companyId && lead.posted_date >= firstDay),
        (lead) => weekOf(lead.posted_date),
      );
    const thisWeek = weekOf(seededDaysAgo(0));
    const shown: string[] = [];
    for (let week = weekOf(firstDay); week <= thisWeek; week = weeksAfter(week, 1)) shown.push(week);
    // A company whose weeks in the window include an empty one followed by a busy one.
    const company = [...new Set(open.map((lead) => lead.company.id))].find((id) => {
      if (id === null) return false;
      const counts = weeksOf(id);
      return shown.some(
        (week, position) => position > 0 && !counts.has(shown[position - 1] as string) && counts.has(week),
      );
    });
    expect(company).toEqual(expect.any(String));
    const counts = weeksOf(company as string);

    const result = await callOk(client, 'get_market_insights', {
      group_by: 'posted_week',
      limit: 50,
      filters: { company_id: company, posted_within_days: days },
    });
    expect(result.rows.map((row: Json) => [row.key, row.count, row.change_percent])).toEqual(
      shown.map((week, position) => {
        const count = counts.get(week) ?? 0;
        const previous = position === 0 ? 0 : (counts.get(shown[position - 1] as string) ?? 0);
        return [week, count, change(count, previous)];
      }),
    );
    expect(result.rows.some((row: Json) => row.count === 0)).toBe(true);
    expect(result.other_count).toBe(0);
  });

  it('metric salary gives figures from the annualised midpoints in the chosen currency', async () => {
    const result = await callOk(client, 'get_market_insights', {
      group_by: 'experience_level',
      metric: 'salary',
      currency: 'EUR',
    });
    const withoutSalary = open.filter((lead) => lead.salary_annual === null).length;
    expect(withoutSalary).toBeGreaterThan(0);
    expect(result.notes.join(' ')).toContain(
      `${withoutSalary} of the ${open.length} matching roles give no salary`,
    );
    expect(result.rows.map((row: Json) => row.key)).toEqual(
      groupsOf(open, 'experience_level').map((group) => group.key),
    );
    for (const row of result.rows) {
      const mids = open
        .filter((lead) => lead.experience_level === row.key && lead.salary_annual !== null)
        .map((lead) => lead.salary_annual?.eur_mid as number);
      const { salary } = row;
      expect(salary).toMatchObject({
        currency: 'EUR',
        sample_size: mids.length,
        min: Math.min(...mids),
        max: Math.max(...mids),
        mean: Math.round(mids.reduce((sum, mid) => sum + mid, 0) / mids.length),
      });
      expect(salary.min).toBeLessThanOrEqual(salary.p25);
      expect(salary.p25).toBeLessThanOrEqual(salary.median);
      expect(salary.median).toBeLessThanOrEqual(salary.p75);
      expect(salary.p75).toBeLessThanOrEqual(salary.max);
    }
    const gbp = await callOk(client, 'get_market_insights', {
      group_by: 'experience_level',
      metric: 'salary',
    });
    expect(gbp.rows[0].salary.currency).toBe('GBP');
    expect(gbp.rows[0].salary.mean).toBeLessThan(
      result.rows.find((row: Json) => row.key === gbp.rows[0].key).salary.mean,
    );
  });

  it('breakdown_by splits each row, with shares of the row', async () => {
    const result = await callOk(client, 'get_market_insights', {
      group_by: 'country',
      breakdown_by: 'work_type',
      limit: 3,
    });
    expect(result.breakdown_by).toBe('work_type');
    expect(result.rows.map((row: Json) => row.key)).toEqual(
      groupsOf(open, 'country')
        .slice(0, 3)
        .map((group) => group.key),
    );
    for (const row of result.rows) {
      const inCountry = open.filter((lead) => lead.location.country_code === row.key);
      const expected = groupsOf(inCountry, 'work_type').map((group) => ({
        key: group.key,
        label: group.label,
        count: group.count,
        share_percent: share(group.count, row.count),
      }));
      expect(row.breakdown).toEqual(expected);
    }
  });

  it('filters take the search_leads filters', async () => {
    const matches = open.filter(
      (lead) =>
        lead.location.country_code === 'GB' && lead.skills.includes('Python') && lead.work_type === 'Remote',
    );
    const remote = await callOk(client, 'get_market_insights', {
      group_by: 'work_type',
      filters: { location: 'UK', skills: ['python'], work_type: 'Remote' },
    });
    expect(matches.length).toBeGreaterThan(0);
    expect(remote.total).toBe(matches.length);
    expect(remote.rows).toEqual([
      { key: 'Remote', label: 'Remote', count: matches.length, share_percent: 100 },
    ]);
    const byCity = await callOk(client, 'get_market_insights', {
      group_by: 'city',
      limit: 50,
      filters: { location: 'London', radius_km: 70, include_recruitment_agencies: true },
    });
    expect(byCity.rows.map((row: Json) => row.key).sort()).toEqual(['London', 'Reading']);
  });

  it('counts a location naming a work arrangement as the place and work_type filters', async () => {
    for (const groupBy of ['city', 'industry', 'country']) {
      const named = await callOk(client, 'get_market_insights', {
        group_by: groupBy,
        filters: { location: 'Remote UK' },
      });
      const apart = await callOk(client, 'get_market_insights', {
        group_by: groupBy,
        filters: { location: 'UK', work_type: 'Remote' },
      });
      expect(named.total).toBeGreaterThan(0);
      expect([named.total, named.rows]).toEqual([apart.total, apart.rows]);
    }
  });

  it.each([
    'city',
    'posted_week',
  ])('an unknown place in the filters counts nothing, charges nothing and says so (group_by %s)', async (groupBy) => {
    const before = await callOk(client, 'get_account_usage');
    const result = await callOk(client, 'get_market_insights', {
      group_by: groupBy,
      filters: { location: 'Narnia' },
    });
    // No search either: one would have filled in the empty weeks.
    expect(result).toMatchObject({ total: 0, returned: 0, rows: [], other_count: 0 });
    expect(result.quota).toEqual(before.daily_quotas.insight_queries);
    expect(result.notes.join(' ')).toMatch(/not recognised/);
  });

  it('get_filter_options lists the documented values and the most common industries', async () => {
    const options = await callOk(client, 'get_filter_options');
    expect(options).toMatchObject({
      experience_levels: ['Entry', 'Mid', 'Senior', 'Lead', 'Executive'],
      work_types: ['Remote', 'Hybrid', 'On-site'],
      employment_types: ['Full-time', 'Part-time', 'Contract', 'Internship', 'Temporary', 'Freelance'],
      salary_currencies: ['GBP', 'EUR', 'USD'],
      signal_categories: [
        'funding',
        'grant',
        'investor_fund',
        'new_location',
        'acquisition',
        'c_level_change',
        'layoff',
        'technology_change',
        'outsourcing',
      ],
      signal_polarities: ['positive', 'negative', 'neutral'],
      insight_group_by: [
        'experience_level',
        'work_type',
        'employment_type',
        'company',
        'skill',
        'city',
        'country',
        'industry',
        'title',
        'posted_week',
        'posted_month',
      ],
      insight_breakdown_by: ['experience_level', 'work_type', 'employment_type', 'country'],
    });
    expect(Object.keys(options.company_size_bands)).toEqual([
      'startup',
      'scale_up',
      'small',
      'medium',
      'enterprise',
    ]);
    expect(Object.keys(options.signal_countries)).toEqual(['GB', 'IE', 'DE', 'AT', 'CH', 'PL', 'RO', 'BG']);
    expect(options.signal_countries.DE).toBe('Germany');
    // Counted over every open role, agencies included: it describes the data, not one search.
    const industries = groupsOf(
      open.concat((await allLeads(index)).filter((lead) => lead.is_open && lead.company.is_agency)),
      'industry',
    );
    expect(options.top_industries).toEqual(
      industries.slice(0, 20).map((group) => ({ label: group.label, count: group.count })),
    );
  });
});
