import { describe, expect, it } from 'vitest';
import { INSIGHT_BREAKDOWN_BY, INSIGHT_GROUP_BY } from '../../src/domain/enums.js';
import {
  type CellKey,
  cellFilter,
  companyFacetsOf,
  companyRollupDoc,
  countsAsOpen,
  countsFrom,
  countToken,
  FIRST_SALARY_STEP,
  forEachCell,
  LAST_SALARY_STEP,
  type RollupLead,
  SALARY_STEP_RATIO,
  salaryStep,
  stepRange,
  stepStart,
  VIEWS,
} from '../../src/feed/rollups.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { marketInsightsInput } from '../../src/schemas/inputs.js';
import { buildInsightsQuery } from '../../src/search/insights-query.js';
import { insightsViews, leadsShapedInsights, percentileOfSteps } from '../../src/search/insights-rollup.js';
import { DEFAULT_MAX_BUCKETS, worstCaseBuckets } from '../support/aggregation-buckets.js';

const lead: RollupLead = {
  is_open: true,
  expires_at: null,
  posted_date: '2026-11-02',
  location: {
    city: 'Munich',
    region: 'Bavaria',
    country_code: 'DE',
    country_name: 'Germany',
    keys: ['city:2867714', 'region:de.02', 'country:de'],
  },
  company: {
    id: 'co_AAAAAAAAAA',
    name: 'Acme',
    name_key: 'acme',
    rank_key: 'acme|co_AAAAAAAAAA',
    size_band: 'medium',
    is_agency: false,
  },
  industry: 'Robotics',
  industry_key: 'robotic',
  work_type: 'Hybrid',
  employment_type: 'Full-time',
  experience_level: 'Senior',
  skills: ['C++', 'ROS', 'C++'],
  skills_key: ['cpp', 'ros'],
  title: 'Robotics Engineer',
  title_key: 'robotics engineer',
  title_terms: 'robotic engineer',
  salary_annual: {
    gbp_min: 60_870,
    gbp_max: 78_261,
    gbp_mid: 69_566,
    eur_min: 70_000,
    eur_max: 90_000,
    eur_mid: 80_000,
    usd_min: 80_957,
    usd_max: 104_087,
    usd_mid: 92_522,
  },
};

describe('cells', () => {
  const cellsOf = (role: RollupLead) => {
    const cells: Array<{ identity: string; key: CellKey }> = [];
    forEachCell(role, (identity, key) => cells.push({ identity, key: key() }));
    return cells;
  };

  it('puts a role in one cell of each view, and in one cell per distinct skill of the skills view', () => {
    const cells = cellsOf(lead);
    expect(cells.map((cell) => cell.key.view)).toEqual([
      'titles',
      'industries',
      'skills',
      'skills',
      'roles',
      'places_by_day',
      'days',
      'salaries',
    ]);
    expect(new Set(cells.map((cell) => cell.identity)).size).toBe(cells.length);
    expect(cells.filter((cell) => cell.key.view === 'skills').map((cell) => cell.key.skills_key)).toEqual([
      ['cpp'],
      ['ros'],
    ]);
  });

  it('keeps each dimension under the leads’ own field names, and nothing else', () => {
    const byView = Object.fromEntries(cellsOf(lead).map((cell) => [cell.key.view, cell.key]));
    expect(byView.roles).toEqual({
      view: 'roles',
      is_open: true,
      location: lead.location,
      experience_level: 'Senior',
      work_type: 'Hybrid',
      employment_type: 'Full-time',
      company: { is_agency: false, size_band: 'medium' },
    });
    expect(byView.days).toEqual({
      view: 'days',
      is_open: true,
      posted_date: '2026-11-02',
      salary_step: salaryStep(69_566),
      company: { is_agency: false },
    });
    expect(byView.titles).toMatchObject({ title: 'Robotics Engineer', title_terms: 'robotic engineer' });
  });

  it('tells apart the roles that differ in any dimension of a view, and only those', () => {
    const identities = (role: RollupLead) => new Set(cellsOf(role).map((cell) => cell.identity));
    const same = identities({ ...lead, summary: 'other' } as RollupLead);
    expect(same).toEqual(identities(lead));
    const moved = identities({
      ...lead,
      location: { ...lead.location, keys: ['country:de'], city: null, region: null },
    });
    const shared = [...moved].filter((identity) => identities(lead).has(identity));
    // Only the titles and days views keep no place.
    expect(shared).toHaveLength(2);
  });

  it('counts a role as open until its expiry day has passed', () => {
    expect(countsAsOpen(lead, '2026-11-20')).toBe(true);
    expect(countsAsOpen({ ...lead, expires_at: '2026-11-20' }, '2026-11-20')).toBe(true);
    expect(countsAsOpen({ ...lead, expires_at: '2026-11-19' }, '2026-11-20')).toBe(false);
    expect(countsAsOpen({ ...lead, is_open: false }, '2026-11-20')).toBe(false);
  });

  it('finds a cell’s roles on the leads by every dimension it keeps', () => {
    const [roles] = cellsOf(lead).filter((cell) => cell.key.view === 'roles');
    expect(cellFilter(roles?.key as CellKey)).toEqual({
      bool: {
        filter: [
          { term: { is_open: true } },
          { term: { 'location.keys': 'city:2867714' } },
          { term: { 'location.city': 'Munich' } },
          { term: { 'location.region': 'Bavaria' } },
          { term: { 'location.country_code': 'DE' } },
          { term: { experience_level: 'Senior' } },
          { term: { work_type: 'Hybrid' } },
          { term: { employment_type: 'Full-time' } },
          { term: { 'company.size_band': 'medium' } },
          { term: { 'company.is_agency': false } },
        ],
      },
    });
    const unplaced = {
      ...lead,
      salary_annual: null,
      location: {
        ...lead.location,
        keys: [],
        city: null,
        region: null,
        country_code: null,
        country_name: null,
      },
    };
    const [salaries] = cellsOf(unplaced).filter((cell) => cell.key.view === 'salaries');
    expect((cellFilter(salaries?.key as CellKey) as { bool: { must_not: unknown } }).bool.must_not).toEqual([
      { exists: { field: 'location.keys' } },
      { exists: { field: 'location.city' } },
      { exists: { field: 'location.region' } },
      { exists: { field: 'location.country_code' } },
      { exists: { field: 'salary_annual.gbp_mid' } },
    ]);
  });
});

describe('salary steps', () => {
  it('puts every amount in the step whose range holds it, 2% wide', () => {
    for (let amount = 1_000; amount < 2_500_000; amount = Math.ceil(amount * 1.0037) + 1) {
      const step = salaryStep(amount);
      const range = stepRange(step);
      expect(amount).toBeGreaterThanOrEqual(range.gte);
      if (range.lt !== undefined) expect(amount).toBeLessThan(range.lt);
    }
    expect(stepStart(600) / stepStart(599)).toBeCloseTo(SALARY_STEP_RATIO, 3);
  });

  it('gives whatever lies beyond 1,000 and 2,000,000 a year to the first and last steps', () => {
    expect(salaryStep(0)).toBe(FIRST_SALARY_STEP);
    expect(salaryStep(999)).toBe(FIRST_SALARY_STEP);
    expect(salaryStep(50_000_000)).toBe(LAST_SALARY_STEP);
    expect(stepRange(FIRST_SALARY_STEP).gte).toBe(0);
    expect(stepRange(LAST_SALARY_STEP).lt).toBeUndefined();
    expect(LAST_SALARY_STEP - FIRST_SALARY_STEP).toBeLessThan(400);
  });

  it('reads a percentile as the amount at its rank, within its step and the exact least and greatest', () => {
    const steps = [
      { key: salaryStep(40_000), doc_count: 1 },
      { key: salaryStep(60_000), doc_count: 2 },
      { key: salaryStep(90_000), doc_count: 1 },
    ];
    const bounds = { min: 40_000, max: 90_000, perGbp: 1 };
    const median = percentileOfSteps(steps, 50, bounds) as number;
    expect(median).toBeGreaterThanOrEqual(stepStart(salaryStep(60_000)));
    expect(median).toBeLessThan(stepStart(salaryStep(60_000) + 1));
    expect(percentileOfSteps(steps, 0, bounds)).toBe(40_000);
    expect(percentileOfSteps(steps, 100, bounds)).toBe(90_000);
    expect(percentileOfSteps([], 50, bounds)).toBeNull();
    // In another currency, the GBP amounts at the fixed rate.
    const inEuros = percentileOfSteps(steps, 50, { min: 46_000, max: 103_500, perGbp: 1.15 }) as number;
    expect(inEuros / median).toBeCloseTo(1.15, 6);
  });

  it('reads the cells’ salary sums and steps back as the leads’ stats and percentiles', () => {
    const step = salaryStep(60_000);
    const shaped = leadsShapedInsights(
      {
        aggregations: {
          in_groups: {
            doc_count: 10,
            groups: {
              buckets: [
                {
                  key: 'DE',
                  doc_count: 10,
                  salary_count: { value: 4 },
                  salary_sum: { value: 250_000 },
                  salary_min: { value: 55_000 },
                  salary_max: { value: 70_000 },
                  salary_steps: { buckets: [{ key: step, doc_count: 4 }] },
                },
              ],
            },
            salary_sample: { value: 4 },
          },
        },
      },
      'GBP',
    );
    expect(shaped.hits.total).toBe(10);
    const [bucket] = (shaped.aggregations.groups as { buckets: Array<Record<string, unknown>> }).buckets;
    expect(bucket?.salary_stats).toEqual({ count: 4, min: 55_000, max: 70_000, avg: 62_500 });
    expect(shaped.aggregations.salary_sample).toEqual({ value: 4 });
  });
});

describe('company documents', () => {
  it('count a role of a listed company for every role, its places, skills and industry', () => {
    expect(companyFacetsOf(lead)?.facets).toEqual([
      '*',
      'industry:robotic',
      'place:city:2867714',
      'place:region:de.02',
      'place:country:de',
      'skill:cpp',
      'skill:ros',
    ]);
    expect(
      companyFacetsOf({ ...lead, company: { ...lead.company, id: null, rank_key: 'acme|' } }),
    ).toBeNull();
  });

  it('hold one token per facet, whose order is the order of the counts', () => {
    const doc = companyRollupDoc(
      companyFacetsOf(lead)?.company as NonNullable<ReturnType<typeof companyFacetsOf>>['company'],
      new Map([
        ['*', 12],
        ['skill:cpp', 3],
      ]),
    );
    expect(doc).toMatchObject({ open_roles: 12, counts: { '*': 12, 'skill:cpp': 3 } });
    expect(doc.role_counts).toBe('*=0000012 skill:cpp=0000003');
    expect(countToken('skill:cpp', 9) < countToken('skill:cpp', 10)).toBe(true);
    expect(countsFrom('skill:cpp', 3)).toEqual({ gte: 'skill:cpp=0000003', lte: 'skill:cpp=9999999' });
  });
});

describe('which view answers an insight', () => {
  const views = (args: Record<string, unknown>) =>
    insightsViews(parseToolArguments(marketInsightsInput, args));

  it('takes the smallest view keeping every dimension the call reads', () => {
    expect(views({ group_by: 'title' })).toEqual({ groups: 'titles', total: 'titles' });
    expect(views({ group_by: 'city', breakdown_by: 'experience_level' })).toEqual({
      groups: 'roles',
      total: 'roles',
    });
    expect(views({ group_by: 'industry', filters: { location: 'DE' } })).toEqual({
      groups: 'industries',
      total: 'industries',
    });
    expect(views({ group_by: 'posted_week', filters: { location: 'DE', posted_within_days: 30 } })).toEqual({
      groups: 'places_by_day',
      total: 'places_by_day',
    });
    expect(views({ group_by: 'posted_month', metric: 'salary' })).toEqual({ groups: 'days', total: 'days' });
    expect(views({ group_by: 'country', metric: 'salary', breakdown_by: 'experience_level' })).toEqual({
      groups: 'salaries',
      total: 'salaries',
    });
  });

  it('reads the work type of a location that names a work arrangement', () => {
    for (const location of ['Remote UK', 'remote', 'Berlin (hybrid)']) {
      expect(views({ group_by: 'city', filters: { location } }), location).toEqual({
        groups: 'roles',
        total: 'roles',
      });
    }
    expect(views({ group_by: 'industry', filters: { location: 'Remote UK' } })).toBeUndefined();
  });

  it('groups skills on the view counting a role once per skill, and counts the total on another', () => {
    expect(views({ group_by: 'skill', filters: { location: 'DE' } })).toEqual({
      groups: 'skills',
      total: 'industries',
    });
  });

  it('leaves to the roles what no view keeps', () => {
    for (const args of [
      { group_by: 'company' },
      { group_by: 'city', filters: { skills: ['Go'] } },
      { group_by: 'city', filters: { location: 'Berlin', radius_km: 20 } },
      { group_by: 'city', filters: { location: 'within 20 km of Berlin' } },
      { group_by: 'city', filters: { company_id: 'co_AAAAAAAAAA' } },
      { group_by: 'skill', breakdown_by: 'work_type' },
      { group_by: 'title', filters: { location: 'DE' } },
      { group_by: 'city', metric: 'salary', filters: { work_type: 'Remote' } },
    ]) {
      expect(views(args)).toBeUndefined();
    }
  });

  it('builds at most search.max_buckets on the cells, for every group_by × breakdown_by at limit 50', () => {
    const now = new Date('2026-11-18T10:00:00Z');
    for (const groupBy of INSIGHT_GROUP_BY) {
      for (const breakdownBy of [undefined, ...INSIGHT_BREAKDOWN_BY].filter((by) => by !== groupBy)) {
        for (const metric of ['count', 'salary']) {
          const query = buildInsightsQuery(
            parseToolArguments(marketInsightsInput, {
              group_by: groupBy,
              breakdown_by: breakdownBy,
              limit: 50,
              metric,
            }),
            now,
            { rollups: true },
          );
          if (query.body.index !== 'rollups') continue;
          expect(worstCaseBuckets(query.body.body.aggs)).toBeLessThanOrEqual(DEFAULT_MAX_BUCKETS);
        }
      }
    }
    expect(VIEWS.length).toBeGreaterThan(0);
  });
});
