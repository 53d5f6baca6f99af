import type { estypes } from '@elastic/elasticsearch';
import { DAY_MS, daysBefore, isoDate } from '../domain/calendar.js';
import type { InsightBreakdownBy, InsightGroupBy } from '../domain/enums.js';
import type { MarketInsightsArgs } from '../schemas/inputs.js';
import { countryName } from './dto.js';
import { type Query, type SearchBody, totalHits } from './es.js';
import { type FallbackSearch, fallbackSearch, mapFallback } from './fallback.js';
import {
  insightsViews,
  leadsShapedInsights,
  type RollupInsightsResponse,
  rollupInsightsBody,
} from './insights-rollup.js';
import { buildLeadFilter } from './lead-query.js';
import { mapNothingFound, type NothingFound, nothingFound } from './left-out.js';

/**
 * `get_market_insights` as ONE search with `size: 0` on the leads index: the lead filters, an exact
 * `total`, one aggregation for `group_by` with the breakdown and salary aggregations inside each
 * group. What each field counts, and the bucket budget every request keeps within
 * `search.max_buckets`: docs/search-semantics.md, "get_market_insights".
 */

type PeriodDimension = 'posted_week' | 'posted_month';
type TermsDimension = Exclude<InsightGroupBy, PeriodDimension>;

const TERMS_FIELDS: Record<TermsDimension | InsightBreakdownBy, string> = {
  experience_level: 'experience_level',
  work_type: 'work_type',
  employment_type: 'employment_type',
  company: 'company.rank_key',
  skill: 'skills',
  city: 'location.city',
  country: 'location.country_code',
  industry: 'industry',
  title: 'title',
};

/** Enough breakdown buckets for every value of the breakdown dimensions. */
const BREAKDOWN_SIZE = 20;
const COMPANY_HIT = 'company_hit';
/** The roles posted before the oldest period the histogram covers: the rest of `other_count`. */
const BEFORE_PERIODS = 'before_periods';

function isPeriod(groupBy: InsightGroupBy): groupBy is PeriodDimension {
  return groupBy === 'posted_week' || groupBy === 'posted_month';
}

function salaryField(currency: MarketInsightsArgs['currency']): string {
  return `salary_annual.${currency.toLowerCase()}_mid`;
}

/** One request of the insights: on the leads, or on the roll-ups' cells. */
export interface InsightsRequest {
  index: 'leads' | 'rollups';
  body: SearchBody;
}

export interface InsightsQuery {
  body: InsightsRequest;
  notes: string[];
  unknownPlace: boolean;
  /** Run only when `body` counts no role (`searchWithFallback`); always on the leads. */
  fallback: FallbackSearch<InsightsRequest> | undefined;
  /** Run only when neither reading counts a role; on the leads. */
  nothingFound: NothingFound<InsightsRequest> | undefined;
}

/**
 * The request for `args`: on the roll-ups' cells when `rollups` may answer and a view keeps every
 * dimension the call reads (src/search/insights-rollup.ts), otherwise on the leads.
 */
export function buildInsightsQuery(
  args: MarketInsightsArgs,
  now: Date,
  options: { rollups: boolean },
): InsightsQuery {
  const clauses = buildLeadFilter(args.filters, now, 'filters.');
  const perGroup: Record<string, estypes.AggregationsAggregationContainer> = {};
  if (args.breakdown_by) {
    perGroup.breakdown = {
      terms: { field: TERMS_FIELDS[args.breakdown_by], size: BREAKDOWN_SIZE, order: countThenKey },
    };
  }
  if (args.metric === 'salary') {
    perGroup.salary_stats = { stats: { field: salaryField(args.currency) } };
    perGroup.salary_percentiles = {
      percentiles: { field: salaryField(args.currency), percents: [25, 50, 75], keyed: false },
    };
  }
  if (args.group_by === 'company') {
    perGroup[COMPANY_HIT] = { top_hits: { size: 1, _source: { includes: ['company.id', 'company.name'] } } };
  }
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {
    groups: {
      ...groupAggregation(args, now),
      ...(Object.keys(perGroup).length > 0 ? { aggs: perGroup } : {}),
    },
  };
  if (args.metric === 'salary') aggs.salary_sample = { value_count: { field: salaryField(args.currency) } };
  if (isPeriod(args.group_by)) {
    const oldest = isoDate(new Date(periodWindow(args.group_by, args.limit, now).oldest));
    aggs[BEFORE_PERIODS] = { filter: { range: { posted_date: { lt: oldest, format: 'yyyy-MM-dd' } } } };
  }
  const onLeads = (filter: Query[]): InsightsRequest => ({
    index: 'leads',
    body: { size: 0, track_total_hits: true, query: { bool: { filter } }, aggs },
  });
  const views = options.rollups && !clauses.unknownPlace ? insightsViews(args) : undefined;
  const fallback = fallbackSearch(clauses, (filter) => onLeads(filter).body);
  const onLeadsBody = (body: SearchBody): InsightsRequest => ({ index: 'leads', body });
  return {
    body: views
      ? { index: 'rollups', body: rollupInsightsBody(args, views, clauses.filter, aggs) }
      : onLeads(clauses.filter),
    notes: clauses.notes,
    unknownPlace: clauses.unknownPlace,
    fallback: mapFallback(fallback, onLeadsBody),
    nothingFound: mapNothingFound(nothingFound(clauses, 'open role'), onLeadsBody),
  };
}

/** A response in the leads' shape, whichever index answered. */
export function readInsightsResponse(
  args: MarketInsightsArgs,
  request: InsightsRequest,
  response: unknown,
): InsightsResponse {
  return request.index === 'rollups'
    ? (leadsShapedInsights(response as RollupInsightsResponse, args.currency) as InsightsResponse)
    : (response as InsightsResponse);
}

const countThenKey: estypes.AggregationsAggregateOrder = [{ _count: 'desc' }, { _key: 'asc' }];

function groupAggregation(args: MarketInsightsArgs, now: Date): estypes.AggregationsAggregationContainer {
  if (!isPeriod(args.group_by)) {
    return { terms: { field: TERMS_FIELDS[args.group_by], size: args.limit, order: countThenKey } };
  }
  const today = daysBefore(now, 0).getTime();
  const window = periodWindow(args.group_by, args.limit, now);
  const since = args.filters.posted_within_days;
  return {
    date_histogram: {
      field: 'posted_date',
      calendar_interval: args.group_by === 'posted_week' ? 'week' : 'month',
      min_doc_count: 0,
      // Elasticsearch requires extended bounds to lie inside the hard bounds.
      extended_bounds: {
        min: since === undefined ? today : Math.max(daysBefore(now, since).getTime(), window.oldest),
        max: today,
      },
      // Bucket keys from `min` up to, not including, `max`.
      hard_bounds: { min: window.oldest, max: window.end },
    },
  };
}

/**
 * The periods a trend can show: `oldest` is the start of the period before the `limit` most
 * recent ones (the change_percent of the first row compares with it), `end` the start of the
 * period after the current one. Milliseconds since the epoch, UTC.
 */
function periodWindow(groupBy: PeriodDimension, limit: number, now: Date): { oldest: number; end: number } {
  if (groupBy === 'posted_week') {
    const monday = daysBefore(now, (now.getUTCDay() + 6) % 7).getTime();
    return { oldest: monday - limit * 7 * DAY_MS, end: monday + 7 * DAY_MS };
  }
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { oldest: Date.UTC(year, month - limit, 1), end: Date.UTC(year, month + 1, 1) };
}

interface SalaryFigures {
  currency: MarketInsightsArgs['currency'];
  sample_size: number;
  min: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
  max: number | null;
  mean: number | null;
}

interface InsightBreakdownEntry {
  key: string;
  label: string;
  count: number;
  share_percent: number;
}

interface InsightRow extends InsightBreakdownEntry {
  salary?: SalaryFigures;
  breakdown?: InsightBreakdownEntry[];
  change_percent?: number | null;
}

export interface Insights {
  group_by: InsightGroupBy;
  breakdown_by: InsightBreakdownBy | null;
  metric: MarketInsightsArgs['metric'];
  currency: MarketInsightsArgs['currency'];
  total: number;
  returned: number;
  rows: InsightRow[];
  other_count: number;
  notes: string[];
}

interface Bucket {
  key: string | number;
  doc_count: number;
  breakdown?: { buckets: Bucket[] };
  salary_stats?: { count: number; min: number | null; max: number | null; avg: number | null };
  salary_percentiles?: { values: Array<{ key: number; value: number | null }> };
  [COMPANY_HIT]?: {
    hits: { hits: Array<{ _source?: { company?: { id?: string | null; name?: string } } }> };
  };
}

export interface InsightsResponse {
  hits: { total?: number | { value: number } };
  aggregations?: {
    groups?: { buckets: Bucket[]; sum_other_doc_count?: number };
    salary_sample?: { value: number | null };
    [BEFORE_PERIODS]?: { doc_count: number };
  };
}

/** The `get_market_insights` result without `quota` (the metering wrapper adds it). */
export function shapeInsights(
  args: MarketInsightsArgs,
  response: InsightsResponse,
  filterNotes: string[],
  now: Date,
): Insights {
  const total = totalHits(response.hits.total);
  const groups = response.aggregations?.groups;
  const buckets = groups?.buckets ?? [];
  const notes = [...filterNotes];
  let rows: InsightRow[];
  let otherCount: number;
  if (isPeriod(args.group_by)) {
    const shown = buckets.slice(-args.limit);
    const earlier = buckets.slice(0, buckets.length - shown.length);
    rows = shown.map((bucket, index) => ({
      ...toRow(args, bucket, total),
      change_percent: changePercent(
        bucket.doc_count,
        (index > 0 ? shown[index - 1] : earlier.at(-1))?.doc_count,
      ),
    }));
    otherCount =
      earlier.reduce((sum, bucket) => sum + bucket.doc_count, 0) +
      (response.aggregations?.[BEFORE_PERIODS]?.doc_count ?? 0);
    const latest = shown.at(-1);
    if (latest && periodIncludes(args.group_by, Number(latest.key), now)) {
      notes.push(
        `The latest period (${periodLabel(args.group_by, Number(latest.key))}) is still in progress, so its count and change_percent cover only part of it.`,
      );
    }
  } else {
    rows = buckets.map((bucket) => toRow(args, bucket, total));
    otherCount = groups?.sum_other_doc_count ?? 0;
    if (args.group_by === 'skill') {
      notes.push(
        'A role needing several skills counts in each of their groups, so shares can add up to more than 100%.',
      );
    }
  }
  if (args.metric === 'salary') {
    const withSalary = response.aggregations?.salary_sample?.value ?? 0;
    const withoutSalary = total - withSalary;
    if (withoutSalary > 0) {
      notes.push(
        `${withoutSalary} of the ${total} matching roles give no salary and are left out of the salary figures (annualised midpoints in ${args.currency}).`,
      );
    }
  }
  if (total === 0 && filterNotes.length === 0) notes.push('No open roles match these filters.');
  return {
    group_by: args.group_by,
    breakdown_by: args.breakdown_by ?? null,
    metric: args.metric,
    currency: args.currency,
    total,
    returned: rows.length,
    rows,
    other_count: otherCount,
    notes,
  };
}

function toRow(args: MarketInsightsArgs, bucket: Bucket, total: number): InsightRow {
  const { key, label } = groupKeyAndLabel(args.group_by, bucket);
  const row: InsightRow = {
    key,
    label,
    count: bucket.doc_count,
    share_percent: percentOf(bucket.doc_count, total),
  };
  if (args.metric === 'salary') row.salary = salaryFigures(args.currency, bucket);
  if (args.breakdown_by) {
    const dimension = args.breakdown_by;
    row.breakdown = (bucket.breakdown?.buckets ?? []).map((entry) => ({
      key: String(entry.key),
      label: dimension === 'country' ? countryName(String(entry.key)) : String(entry.key),
      count: entry.doc_count,
      share_percent: percentOf(entry.doc_count, bucket.doc_count),
    }));
  }
  return row;
}

function groupKeyAndLabel(groupBy: InsightGroupBy, bucket: Bucket): { key: string; label: string } {
  switch (groupBy) {
    case 'posted_week':
    case 'posted_month':
      return { key: periodKey(groupBy, Number(bucket.key)), label: periodLabel(groupBy, Number(bucket.key)) };
    case 'country':
      return { key: String(bucket.key), label: countryName(String(bucket.key)) };
    case 'company': {
      const company = bucket[COMPANY_HIT]?.hits.hits[0]?._source?.company;
      const name = company?.name ?? String(bucket.key).split('|')[0] ?? '';
      return { key: company?.id ?? name, label: name };
    }
    default:
      return { key: String(bucket.key), label: String(bucket.key) };
  }
}

function salaryFigures(currency: MarketInsightsArgs['currency'], bucket: Bucket): SalaryFigures {
  const stats = bucket.salary_stats;
  const sampleSize = stats?.count ?? 0;
  const percentile = (percent: number) =>
    wholeOrNull(bucket.salary_percentiles?.values.find((entry) => entry.key === percent)?.value);
  const known = sampleSize > 0;
  return {
    currency,
    sample_size: sampleSize,
    min: known ? wholeOrNull(stats?.min) : null,
    p25: known ? percentile(25) : null,
    median: known ? percentile(50) : null,
    p75: known ? percentile(75) : null,
    max: known ? wholeOrNull(stats?.max) : null,
    mean: known ? wholeOrNull(stats?.avg) : null,
  };
}

function wholeOrNull(value: number | null | undefined): number | null {
  return value === null || value === undefined || !Number.isFinite(value) ? null : Math.round(value);
}

/** One decimal place; 0 when there is nothing to divide by. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

/** Change against the period before, one decimal; null for the first period or after an empty one. */
export function changePercent(current: number, previous: number | undefined): number | null {
  if (previous === undefined || previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

function periodKey(groupBy: PeriodDimension, startMillis: number): string {
  const iso = new Date(startMillis).toISOString();
  return groupBy === 'posted_week' ? iso.slice(0, 10) : iso.slice(0, 7);
}

const monthYear = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

function periodLabel(groupBy: PeriodDimension, startMillis: number): string {
  return groupBy === 'posted_week'
    ? `Week of ${periodKey(groupBy, startMillis)}`
    : monthYear.format(new Date(startMillis));
}

function periodIncludes(groupBy: PeriodDimension, startMillis: number, now: Date): boolean {
  const start = new Date(startMillis);
  const end =
    groupBy === 'posted_week'
      ? startMillis + 7 * DAY_MS
      : Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
  return now.getTime() >= startMillis && now.getTime() < end;
}
