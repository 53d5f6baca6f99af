import type { estypes } from '@elastic/elasticsearch';

/** Elasticsearch's default `search.max_buckets`: a search building more buckets fails. */
export const DEFAULT_MAX_BUCKETS = 65_536;

type Aggregations = Record<string, estypes.AggregationsAggregationContainer>;

/** Aggregations that compute values and build no buckets. */
const METRICS = ['stats', 'percentiles', 'value_count', 'top_hits', 'sum', 'min', 'max'] as const;

/**
 * The most buckets an aggregation tree can build, whatever the data, as `search.max_buckets`
 * counts them: each bucket of a multi-bucket aggregation, and every bucket under it. Terms
 * aggregations count at Elasticsearch's default shard-side size (size × 1.5 + 10), which is
 * more than any response holds; histograms and date histograms count the steps or periods between
 * their hard bounds, and without hard bounds have no limit (Infinity). Any other aggregation is an error, so a new
 * one cannot slip past the count.
 */
export function worstCaseBuckets(aggregations: Aggregations | undefined): number {
  let total = 0;
  for (const aggregation of Object.values(aggregations ?? {})) total += worstCaseOf(aggregation);
  return total;
}

function worstCaseOf(aggregation: estypes.AggregationsAggregationContainer): number {
  const perBucket = 1 + worstCaseBuckets(aggregation.aggs ?? aggregation.aggregations);
  if (aggregation.terms) return Math.ceil((aggregation.terms.size ?? 10) * 1.5 + 10) * perBucket;
  if (aggregation.date_histogram) return periodsWithin(aggregation.date_histogram) * perBucket;
  if (aggregation.histogram) return stepsWithin(aggregation.histogram) * perBucket;
  if (aggregation.filter) return perBucket;
  if (METRICS.some((metric) => metric in aggregation)) return 0;
  throw new Error(`No bucket bound known for the aggregation ${JSON.stringify(aggregation)}`);
}

/** The values a histogram can have buckets for, from `hard_bounds.min` to `max` inclusive. */
function stepsWithin(histogram: estypes.AggregationsHistogramAggregation): number {
  const bounds = histogram.hard_bounds;
  if (bounds?.min === undefined || bounds.max === undefined) return Number.POSITIVE_INFINITY;
  return Math.floor((Number(bounds.max) - Number(bounds.min)) / Number(histogram.interval)) + 1;
}

/** Calendar periods whose start lies in [hard_bounds.min, hard_bounds.max). */
function periodsWithin(histogram: estypes.AggregationsDateHistogramAggregation): number {
  const bounds = histogram.hard_bounds;
  if (bounds?.min === undefined || bounds.max === undefined) return Number.POSITIVE_INFINITY;
  const step: Record<string, (start: Date) => void> = {
    week: (start) => start.setUTCDate(start.getUTCDate() + 7),
    month: (start) => start.setUTCMonth(start.getUTCMonth() + 1),
  };
  const next = step[String(histogram.calendar_interval)];
  if (!next) throw new Error(`No period length known for ${String(histogram.calendar_interval)}`);
  let periods = 0;
  for (const start = new Date(bounds.min as number); start.getTime() < (bounds.max as number); next(start)) {
    periods++;
  }
  return periods;
}

/** The buckets an aggregations response holds, counted the way `worstCaseBuckets` bounds them. */
export function bucketsIn(aggregations: Record<string, unknown> | undefined): number {
  let total = 0;
  for (const aggregate of Object.values(aggregations ?? {})) {
    if (aggregate === null || typeof aggregate !== 'object') continue;
    const { buckets, doc_count: docCount, ...children } = aggregate as Record<string, unknown>;
    if (Array.isArray(buckets)) {
      for (const bucket of buckets) total += 1 + bucketsIn(bucket as Record<string, unknown>);
    } else if (typeof docCount === 'number') {
      total += 1 + bucketsIn(children);
    }
  }
  return total;
}
