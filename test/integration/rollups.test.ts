import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyDirectory, generateCompanies } from '../../seed/generate-companies.js';
import { generateLeads } from '../../seed/generate-leads.js';
import type { LeadDoc } from '../../src/domain/documents.js';
import { INSIGHT_BREAKDOWN_BY, INSIGHT_GROUP_BY } from '../../src/domain/enums.js';
import type { LeadRecordInput } from '../../src/feed/records.js';
import {
  cellId,
  companyDocId,
  companyFacetsOf,
  forEachCell,
  ROLLUP_LEAD_FIELDS,
  type RollupLead,
} from '../../src/feed/rollups.js';
import { numberedRecords } from '../../src/ingest/lines.js';
import { ingest } from '../../src/ingest/load.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { marketInsightsInput, searchCompaniesInput } from '../../src/schemas/inputs.js';
import { buildCompanyRanking } from '../../src/search/company-query.js';
import { buildInsightsQuery, readInsightsResponse, shapeInsights } from '../../src/search/insights-query.js';
import { liveIndex, scanDocuments } from '../../src/stores/feed-indices.js';
import { readRollupMeta, writeRollupMeta } from '../../src/stores/rollup-index.js';
import { SearchIndexStore } from '../../src/stores/search-index.js';
import { rankCompanies } from '../../src/tools/search-companies.js';
import { SEEDED } from '../support/seed-command.js';
import {
  allLeads,
  openNonAgencyLeads,
  openPrivateIndices,
  openSeededIndex,
  type PrivateIndices,
  SEEDED_NOW,
  type SeededIndex,
  seededDaysAgo,
} from '../support/seeded-data.js';

/**
 * The roll-ups (docs/decisions/rollups.md) answer exactly as the roles do: on the seeded data,
 * every company ranking and market insight the roll-ups can answer is computed both ways and
 * compared; and after each kind of load (fresh, upsert, an upsert after a crash, a snapshot with a
 * record repeated) the roll-up index holds exactly what the open roles add up to.
 */

const companyCases: Array<Record<string, unknown>> = [
  {},
  { min_open_roles: 3 },
  { min_open_roles: 20 },
  { skills: ['TypeScript'] },
  { skills: ['python'], include_recruitment_agencies: true },
  { skills: ['k8s'], min_open_roles: 2 },
  { location: 'GB', min_open_roles: 3 },
  { location: 'London' },
  { location: 'Bavaria' },
  { location: 'Germany', company_size: 'enterprise' },
  { industry: 'Fintech' },
  { industry: 'FINTECH', company_size: 'enterprise' },
  { name: 'a', skills: ['Go'] },
  { name: 'tech', min_open_roles: 2 },
  { skills: ['Python', 'Go'] },
  { location: 'DE', skills: ['Python'] },
];

const filterCases: Array<Record<string, unknown>> = [
  {},
  { location: 'DE' },
  { location: 'London', work_type: 'Remote' },
  { experience_level: 'Senior', employment_type: 'Full-time' },
  { industry: 'Fintech', company_size: 'enterprise' },
  { posted_within_days: 60 },
  { location: 'Germany', posted_within_days: 90 },
  { title: 'engineer' },
  { include_recruitment_agencies: true },
];

describe('the roll-ups answer as the roles do, on the seeded data', () => {
  let index: SeededIndex;
  let store: SearchIndexStore;
  let leads: LeadDoc[];

  beforeAll(async () => {
    index = openSeededIndex();
    store = new SearchIndexStore(index.client, index.indices);
    leads = await allLeads(index);
    expect(await store.rollupsReady()).toBe(true);
  });

  afterAll(async () => {
    await index?.close();
  });

  it.each(companyCases)('search_companies %j: the same page and total', async (args) => {
    const parsed = parseToolArguments(searchCompaniesInput, { ...args, page_size: 25 });
    const [rolledUp, counted] = await Promise.all(
      [true, false].map(async (rollups) => {
        const { body } = buildCompanyRanking(parsed, SEEDED_NOW, { offset: 0, size: 25 }, { rollups });
        return { index: body.ranked.index, ranking: await rankCompanies(store, body, parsed.min_open_roles) };
      }),
    );
    expect(counted?.index).toBe('leads');
    expect(counted?.ranking.total).toBeGreaterThan(0);
    expect(rolledUp?.ranking).toEqual(counted?.ranking);
  });

  it('search_companies pages deep into the ranking alike', async () => {
    const parsed = parseToolArguments(searchCompaniesInput, { location: 'GB', page_size: 25 });
    for (const offset of [25, 100, 200]) {
      const pages = await Promise.all(
        [true, false].map(async (rollups) => {
          const { body } = buildCompanyRanking(parsed, SEEDED_NOW, { offset, size: 25 }, { rollups });
          return (await rankCompanies(store, body, 1)).companies;
        }),
      );
      expect(pages[0]).toEqual(pages[1]);
    }
  });

  const insightCases: Array<Record<string, unknown>> = INSIGHT_GROUP_BY.flatMap(
    (group_by): Array<Record<string, unknown>> =>
      filterCases.map((filters) => ({ group_by, filters, limit: 20 })),
  ).concat(
    INSIGHT_BREAKDOWN_BY.flatMap((breakdown_by) =>
      ['city', 'country', 'experience_level', 'skill', 'posted_month']
        .filter((group_by) => group_by !== breakdown_by)
        .map((group_by) => ({ group_by, breakdown_by, filters: {}, limit: 10 })),
    ),
  );

  it.each(insightCases)('get_market_insights %j: the same rows, counts and total', async (args) => {
    await expectSameInsights(store, args);
  });

  /** The annual midpoints, in `currency`, of the open roles of each group of a salary case. */
  const salaryCases: Array<{
    args: Record<string, unknown>;
    keep: (lead: LeadDoc) => boolean;
    group: (lead: LeadDoc) => string | null;
  }> = [
    {
      args: { group_by: 'posted_month', currency: 'USD' },
      keep: () => true,
      group: (lead) => lead.posted_date.slice(0, 7),
    },
    {
      args: { group_by: 'posted_month', currency: 'EUR', filters: { posted_within_days: 120 } },
      keep: (lead) => lead.posted_date >= seededDaysAgo(120),
      group: (lead) => lead.posted_date.slice(0, 7),
    },
    {
      args: { group_by: 'posted_week', currency: 'GBP', limit: 30 },
      keep: () => true,
      group: (lead) => mondayOf(lead.posted_date),
    },
    {
      args: { group_by: 'city', currency: 'EUR', filters: { experience_level: 'Senior' } },
      keep: (lead) => lead.experience_level === 'Senior',
      group: (lead) => lead.location.city,
    },
    {
      args: { group_by: 'country', currency: 'GBP', breakdown_by: 'experience_level' },
      keep: () => true,
      group: (lead) => lead.location.country_code,
    },
    {
      args: { group_by: 'experience_level', currency: 'USD', filters: { location: 'DE' } },
      keep: (lead) => lead.location.country_code === 'DE',
      group: (lead) => lead.experience_level,
    },
  ];

  it.each(
    salaryCases,
  )('get_market_insights salaries $args: exact counts, least, greatest and mean; each percentile within 2% of its role', async ({
    args,
    keep,
    group,
  }) => {
    const rows = await expectSameInsights(store, { ...args, metric: 'salary' });
    const currency = String(args.currency).toLowerCase() as 'gbp' | 'eur' | 'usd';
    const amounts = new Map<string, number[]>();
    for (const lead of openNonAgencyLeads(leads)) {
      const key = group(lead);
      if (!keep(lead) || key === null || lead.salary_annual === null) continue;
      amounts.set(key, [...(amounts.get(key) ?? []), lead.salary_annual[`${currency}_mid`]]);
    }
    for (const row of rows) {
      const sorted = (amounts.get(row.key) ?? []).sort((x, y) => x - y);
      expect(row.salary?.sample_size).toBe(sorted.length);
      for (const [name, percent] of [
        ['p25', 25],
        ['median', 50],
        ['p75', 75],
      ] as const) {
        const value = row.salary?.[name];
        if (sorted.length === 0) {
          expect(value).toBeNull();
          continue;
        }
        // The role at that rank, as the steps place it: the same 2% step, converted to the unit.
        const role = sorted[Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1)] as number;
        expect(Math.abs((value as number) - role)).toBeLessThanOrEqual(role * 0.02 + 1);
      }
    }
  });
});

/** The Monday (UTC) of a day's week, as the weekly trend keys it. */
function mondayOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

type Shaped = ReturnType<typeof shapeInsights>;

/**
 * Computes `args` on the roll-ups and on the roles: the same answer but for salary percentiles
 * (Elasticsearch's are TDigest estimates, the roll-ups' are read from 2% steps). The roll-ups' rows.
 */
async function expectSameInsights(
  store: SearchIndexStore,
  args: Record<string, unknown>,
): Promise<Shaped['rows']> {
  const parsed = parseToolArguments(marketInsightsInput, args);
  const answers: Array<{ index: string; shaped: Shaped }> = [];
  for (const rollups of [true, false]) {
    const query = buildInsightsQuery(parsed, SEEDED_NOW, { rollups });
    const raw = await store.aggregate<unknown>(query.body.index, query.body.body);
    answers.push({
      index: query.body.index,
      shaped: shapeInsights(parsed, readInsightsResponse(parsed, query.body, raw), query.notes, SEEDED_NOW),
    });
  }
  const [rolledUp, counted] = answers as [(typeof answers)[0], (typeof answers)[0]];
  expect(counted.index).toBe('leads');
  const percentiles = ['p25', 'median', 'p75'];
  const withoutPercentiles = (shaped: Shaped) =>
    JSON.parse(JSON.stringify(shaped, (key, value) => (percentiles.includes(key) ? undefined : value)));
  expect(withoutPercentiles(rolledUp.shaped)).toEqual(withoutPercentiles(counted.shaped));
  expect(counted.shaped.total).toBeGreaterThan(0);
  return rolledUp.shaped.rows;
}

// --- Keeping them up to date -----------------------------------------------------------------

const TODAY = SEEDED.now;
const generated = { seed: 11, now: TODAY };

/** The roll-up documents the open roles of `leadsIndex` add up to, by id, as the loader computes them. */
async function expectedRollups(indices: PrivateIndices, leadsIndex: string): Promise<Map<string, unknown>> {
  const cells = new Map<string, { key: Record<string, unknown>; roles: number }>();
  const companies = new Map<string, { company: unknown; counts: Map<string, number> }>();
  for await (const page of scanDocuments<RollupLead>(
    indices.client,
    leadsIndex,
    { term: { is_open: true } },
    [...ROLLUP_LEAD_FIELDS],
  )) {
    for (const { source: lead } of page) {
      forEachCell(lead, (identity, key) => {
        const cell = cells.get(identity) ?? { key: key() as Record<string, unknown>, roles: 0 };
        cell.roles++;
        cells.set(identity, cell);
      });
      const facets = companyFacetsOf(lead);
      if (!facets) continue;
      const company = companies.get(facets.company.rank_key) ?? {
        company: facets.company,
        counts: new Map(),
      };
      for (const facet of facets.facets) company.counts.set(facet, (company.counts.get(facet) ?? 0) + 1);
      companies.set(facets.company.rank_key, company);
    }
  }
  const expected = new Map<string, unknown>();
  for (const [identity, cell] of cells) expected.set(cellId(identity), { ...cell.key, roles: cell.roles });
  for (const [rankKey, company] of companies) {
    expected.set(companyDocId(rankKey), {
      company: company.company,
      counts: Object.fromEntries(company.counts),
    });
  }
  return expected;
}

/** What the roll-up index holds, by id: each cell's key and roles, each company's counts. */
async function actualRollups(indices: PrivateIndices): Promise<Map<string, unknown>> {
  const actual = new Map<string, unknown>();
  const rollups = (await liveIndex(indices.client, indices.prefix, 'rollups')) as string;
  await indices.client.indices.refresh({ index: rollups });
  for await (const page of scanDocuments<Record<string, unknown>>(
    indices.client,
    rollups,
    { match_all: {} },
    true,
  )) {
    for (const { id, source } of page) {
      if (source.view === 'companies') actual.set(id, { company: source.company, counts: source.counts });
      else {
        const { salary_stats: _salary, _doc_count: _roles, ...cell } = source;
        actual.set(id, cell);
      }
    }
  }
  return actual;
}

/** JSON with every object's keys sorted: the same for equal documents, whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
}

async function expectRollupsOfLiveLeads(indices: PrivateIndices): Promise<void> {
  const leads = (await liveIndex(indices.client, indices.prefix, 'leads')) as string;
  const rollups = (await liveIndex(indices.client, indices.prefix, 'rollups')) as string;
  expect(await readRollupMeta(indices.client, rollups)).toEqual({ leads_index: leads, state: 'ready' });
  const [expected, actual] = await Promise.all([expectedRollups(indices, leads), actualRollups(indices)]);
  const differing = [...new Set([...expected.keys(), ...actual.keys()])].filter(
    (id) => canonical(actual.get(id)) !== canonical(expected.get(id)),
  );
  expect(
    differing.slice(0, 3).map((id) => ({ id, actual: actual.get(id), expected: expected.get(id) })),
  ).toEqual([]);
}

describe('the roll-ups follow every load', () => {
  let indices: PrivateIndices;
  const companies = companyDirectory(120, generated);
  const leads = [...generateLeads(1500, companies, generated)];

  const load = (records: Iterable<unknown>, mode: 'fresh' | 'upsert' | 'snapshot', batchSize = 250) =>
    ingest(
      {
        ...(mode === 'fresh' && { companies: numberedRecords(generateCompanies(120, generated)) }),
        leads: numberedRecords(records),
      },
      { client: indices.client, prefix: indices.prefix, mode, today: TODAY, batchSize, source: 'demo' },
    );

  /** Changes every kind of thing a role's roll-ups depend on, closes some, adds some. */
  function changes(round: number): unknown[] {
    const changed: unknown[] = [];
    leads.slice(round * 40, round * 40 + 200).forEach((record, position) => {
      const other = leads[(position * 7 + round) % leads.length] as LeadRecordInput;
      const kind = position % 8;
      if (kind === 0)
        changed.push({ feed_version: 1, source: 'demo', source_id: record.source_id, status: 'closed' });
      else if (kind === 1) changed.push({ ...record, location: other.location, skills: other.skills });
      else if (kind === 2) changed.push({ ...record, company: other.company, title: other.title });
      else if (kind === 3) changed.push({ ...record, salary: other.salary, posted_date: other.posted_date });
      else if (kind === 4)
        changed.push({ ...record, experience_level: other.experience_level, work_type: 'Remote' });
      else if (kind === 5) changed.push({ ...record, expires_at: '2026-10-01' });
      else if (kind === 6) changed.push({ ...record, source_id: `${record.source_id}-new-${round}` });
      else changed.push({ ...record, status: 'open', employment_type: other.employment_type });
    });
    return changed;
  }

  beforeAll(async () => {
    indices = await openPrivateIndices('rollups');
  });

  afterAll(async () => {
    await indices?.close();
  });

  it('a fresh load counts them as it writes the roles', async () => {
    const report = await load(leads, 'fresh');
    expect(report.published).toBe(true);
    expect(report.rollups?.how).toBe('loaded');
    await expectRollupsOfLiveLeads(indices);
  });

  it('an upsert applies its changes: roles closed, moved, repriced, expired and added', async () => {
    const report = await load(changes(1), 'upsert');
    expect(report.kinds[0]?.updated).toBeGreaterThan(100);
    expect(report.rollups?.how).toBe('changed');
    await expectRollupsOfLiveLeads(indices);
  });

  it('a second upsert over the same roles applies its changes to the first one', async () => {
    const report = await load(changes(3), 'upsert', 50);
    expect(report.rollups?.how).toBe('changed');
    await expectRollupsOfLiveLeads(indices);
  });

  it('an upsert after one that stopped half-way counts them all again', async () => {
    const rollups = (await liveIndex(indices.client, indices.prefix, 'rollups')) as string;
    const leadsIndex = (await liveIndex(indices.client, indices.prefix, 'leads')) as string;
    await writeRollupMeta(indices.client, rollups, { leads_index: leadsIndex, state: 'updating' });
    expect(await new SearchIndexStore(indices.client, indices.indices).rollupsReady()).toBe(false);
    const report = await load(changes(2), 'upsert');
    expect(report.rollups?.how).toBe('scanned');
    await expectRollupsOfLiveLeads(indices);
  });

  it('a snapshot with a record given twice counts them again from the index', async () => {
    const repeated = [...leads.slice(0, 600), ...leads.slice(0, 1)];
    const report = await load(repeated, 'snapshot', 100);
    expect(report.published).toBe(true);
    expect(report.rollups?.how).toBe('scanned');
    await expectRollupsOfLiveLeads(indices);
  });

  it('a snapshot counts the roles it copies and the roles it writes', async () => {
    const report = await load(leads.slice(300, 900), 'snapshot');
    expect(report.rollups?.how).toBe('loaded');
    await expectRollupsOfLiveLeads(indices);
  });
});
