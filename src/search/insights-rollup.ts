import type { estypes } from '@elastic/elasticsearch';
import type { Currency, InsightBreakdownBy, InsightGroupBy } from '../domain/enums.js';
import {
  type Dimension,
  FIRST_SALARY_STEP,
  LAST_SALARY_STEP,
  type RollupView,
  type RollupViewName,
  stepStart,
  VIEWS,
} from '../feed/rollups.js';
import { FX_TABLE } from '../reference/salary.js';
import type { MarketInsightsArgs } from '../schemas/inputs.js';
import type { Query } from './es.js';
import { readLocation } from './location-filter.js';

/**
 * `get_market_insights` on the roll-ups' cells (src/feed/rollups.ts): which view can answer a call
 * exactly, and how its answer is read back into the shape of the leads' answer, so that
 * `shapeInsights` reads both alike (docs/decisions/rollups.md).
 */

export interface InsightsViews {
  /** The view whose cells are grouped. */
  groups: RollupViewName;
  /** The view whose cells give `total`: the same one, unless the groups count a role once per skill. */
  total: RollupViewName;
}

const GROUP_DIMENSIONS: Record<InsightGroupBy, Dimension | undefined> = {
  experience_level: 'experience_level',
  work_type: 'work_type',
  employment_type: 'employment_type',
  company: undefined,
  skill: 'skill',
  city: 'place',
  country: 'place',
  industry: 'industry',
  title: 'title',
  posted_week: 'posted_date',
  posted_month: 'posted_date',
};

const BREAKDOWN_DIMENSIONS: Record<InsightBreakdownBy, Dimension> = {
  experience_level: 'experience_level',
  work_type: 'work_type',
  employment_type: 'employment_type',
  country: 'place',
};

/**
 * The dimension each filter reads, or null for a filter no view keeps: a radius (a role's own
 * coordinates), skills (a role counts once however many of them it has), one company. A filter
 * missing here is not read from the cells at all, so a new one is safe until it is listed.
 */
const FILTER_DIMENSIONS: Partial<Record<keyof MarketInsightsArgs['filters'], Dimension | null>> = {
  location: 'place',
  radius_km: null,
  title: 'title',
  skills: null,
  experience_level: 'experience_level',
  work_type: 'work_type',
  employment_type: 'employment_type',
  industry: 'industry',
  company_id: null,
  company_size: 'company_size',
  posted_within_days: 'posted_date',
  include_recruitment_agencies: 'agency',
};

/**
 * The dimensions the filters read, or undefined when one of them is not kept by any view. A
 * location that names a work arrangement ("Remote UK", "remote") reads the work type too, and one
 * with a distance ("within 30 km of Berlin") a radius.
 */
function filterDimensions(filters: MarketInsightsArgs['filters']): Dimension[] | undefined {
  const dims = new Set<Dimension>(['agency']);
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    const dim = FILTER_DIMENSIONS[name as keyof typeof FILTER_DIMENSIONS];
    if (!dim) return undefined;
    dims.add(dim);
  }
  const location = filters.location === undefined ? undefined : readLocation(filters.location, true);
  // A distance typed in it is a radius: the cells keep no coordinates.
  if (location?.radiusKm !== undefined) return undefined;
  if (location?.workTypes.length || location?.orAnywhere) dims.add('work_type');
  return [...dims];
}

function keeps(view: RollupView, dims: readonly Dimension[]): boolean {
  return dims.every((dim) => view.dims.includes(dim));
}

/** The first (smallest) view keeping `dims`; with `perSkill`, one counting a role once per skill. */
function viewKeeping(dims: readonly Dimension[], perSkill: boolean): RollupViewName | undefined {
  return VIEWS.find((view) => view.dims.includes('skill') === perSkill && keeps(view, dims))?.name;
}

/** The views that answer `args` exactly, or undefined when the roles must be read. */
export function insightsViews(args: MarketInsightsArgs): InsightsViews | undefined {
  const filters = filterDimensions(args.filters);
  const group = GROUP_DIMENSIONS[args.group_by];
  if (filters === undefined || group === undefined) return undefined;
  const wanted = [...filters];
  if (args.breakdown_by) wanted.push(BREAKDOWN_DIMENSIONS[args.breakdown_by]);
  if (args.metric === 'salary') wanted.push('salary');
  if (group !== 'skill') {
    const view = viewKeeping([...wanted, group], false);
    return view && { groups: view, total: view };
  }
  const groups = viewKeeping([...wanted, 'skill'], true);
  const total = viewKeeping(filters, false);
  return groups && total && { groups, total };
}

/** Where the salary aggregations of the leads go, on the cells: figures from each cell's sums, percentiles from its steps. */
function salaryAggregations(currency: string): Record<string, estypes.AggregationsAggregationContainer> {
  const stats = `salary_stats.${currency}`;
  return {
    salary_count: { sum: { field: `${stats}.count` } },
    salary_sum: { sum: { field: `${stats}.sum` } },
    salary_min: { min: { field: `${stats}.min` } },
    salary_max: { max: { field: `${stats}.max` } },
    salary_steps: {
      histogram: {
        field: 'salary_step',
        interval: 1,
        min_doc_count: 1,
        hard_bounds: { min: FIRST_SALARY_STEP, max: LAST_SALARY_STEP },
      },
    },
  };
}

/**
 * The same request as on the leads, on the cells of `views`: the filter clauses unchanged (the cells
 * keep the leads' field names), the aggregations of `leadAggs` under a filter on the groups' view,
 * the salary ones replaced by their sums, and `total` from the total view's cells.
 */
export function rollupInsightsBody(
  args: MarketInsightsArgs,
  views: InsightsViews,
  filter: Query[],
  leadAggs: Record<string, estypes.AggregationsAggregationContainer>,
): estypes.SearchRequest {
  const currency = args.currency.toLowerCase();
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {};
  for (const [name, aggregation] of Object.entries(leadAggs)) {
    if (name === 'salary_sample') continue;
    const { aggs: inner, ...outer } = aggregation;
    const perGroup = { ...inner };
    if (args.metric === 'salary') {
      delete perGroup.salary_stats;
      delete perGroup.salary_percentiles;
      Object.assign(perGroup, salaryAggregations(currency));
    }
    aggs[name] = { ...outer, ...(Object.keys(perGroup).length > 0 ? { aggs: perGroup } : {}) };
  }
  if (args.metric === 'salary') aggs.salary_sample = { sum: { field: `salary_stats.${currency}.count` } };
  const inView = (view: string): Query => ({ term: { view } });
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [...filter, { terms: { view: [...new Set([views.groups, views.total])] } }] } },
    aggs: {
      in_groups: { filter: inView(views.groups), aggs },
      ...(views.total !== views.groups ? { in_total: { filter: inView(views.total) } } : {}),
    },
  };
}

interface RollupBucket {
  key: string | number;
  doc_count: number;
  salary_count?: { value: number | null };
  salary_sum?: { value: number | null };
  salary_min?: { value: number | null };
  salary_max?: { value: number | null };
  salary_steps?: { buckets: Array<{ key: number; doc_count: number }> };
  [other: string]: unknown;
}

interface RollupAggregations {
  doc_count: number;
  groups?: { buckets: RollupBucket[]; sum_other_doc_count?: number };
  salary_sample?: { value: number | null };
  [other: string]: unknown;
}

export interface RollupInsightsResponse {
  aggregations?: { in_groups?: RollupAggregations; in_total?: { doc_count: number } };
}

/** The cells' answer in the shape of the leads' one (`InsightsResponse` of insights-query.ts). */
export function leadsShapedInsights(
  response: RollupInsightsResponse,
  currency: Currency,
): {
  hits: { total: number };
  aggregations: Record<string, unknown>;
} {
  const inGroups = response.aggregations?.in_groups;
  const total = response.aggregations?.in_total?.doc_count ?? inGroups?.doc_count ?? 0;
  const { doc_count: _, groups, ...rest } = inGroups ?? { doc_count: 0 };
  return {
    hits: { total },
    aggregations: {
      ...rest,
      ...(groups && {
        groups: { ...groups, buckets: groups.buckets.map((bucket) => withSalaryFigures(bucket, currency)) },
      }),
    },
  };
}

const PERCENTS = [25, 50, 75] as const;

function withSalaryFigures(bucket: RollupBucket, currency: Currency): Record<string, unknown> {
  if (bucket.salary_count === undefined) return bucket;
  const { salary_count, salary_sum, salary_min, salary_max, salary_steps, ...rest } = bucket;
  const count = salary_count.value ?? 0;
  const min = salary_min?.value ?? null;
  const max = salary_max?.value ?? null;
  const steps = salary_steps?.buckets ?? [];
  return {
    ...rest,
    salary_stats: { count, min, max, avg: count > 0 ? (salary_sum?.value ?? 0) / count : null },
    salary_percentiles: {
      values: PERCENTS.map((percent) => ({
        key: percent,
        value: percentileOfSteps(steps, percent, { min, max, perGbp: FX_TABLE.per_gbp[currency] }),
      })),
    },
  };
}

/**
 * A percentile from the roles counted per 2% step of the midpoint in GBP: the amount at that rank,
 * placed proportionally within its step, converted at the fixed rate (every currency's midpoint is
 * the GBP one at that rate, to the unit) and kept within the exact least and greatest amounts of
 * the currency asked for. Within one step (2%) of the exact percentile.
 */
export function percentileOfSteps(
  steps: ReadonlyArray<{ key: number; doc_count: number }>,
  percent: number,
  bounds: { min: number | null; max: number | null; perGbp: number },
): number | null {
  const { min, max, perGbp } = bounds;
  const count = steps.reduce((sum, step) => sum + step.doc_count, 0);
  if (count === 0 || min === null || max === null) return null;
  const rank = (percent / 100) * count;
  let before = 0;
  for (const step of steps) {
    if (before + step.doc_count >= rank) {
      // The open-ended first and last steps run from the least amount and to the greatest.
      const start = step.key <= FIRST_SALARY_STEP ? min : stepStart(step.key) * perGbp;
      const end = step.key >= LAST_SALARY_STEP ? max : stepStart(step.key + 1) * perGbp;
      const value = start + ((rank - before) / step.doc_count) * (end - start);
      return Math.min(max, Math.max(min, value));
    }
    before += step.doc_count;
  }
  return max;
}
