import type { estypes } from '@elastic/elasticsearch';

/**
 * The Elasticsearch plumbing the query builders share: the request types they produce and the
 * readers of the response parts every tool meets (hit totals, terms buckets).
 */

export type Query = estypes.QueryDslQueryContainer;
export type SearchBody = Omit<estypes.SearchRequest, 'index'>;

export interface LabelCount {
  label: string;
  count: number;
}

export interface TermsBuckets {
  buckets: Array<{ key: string | number; doc_count: number }>;
}

/** A `term` on one value, a `terms` on several, a clause matching nothing on none. */
export function valuesClause(field: string, values: readonly string[]): Query {
  if (values.length === 0) return { match_none: {} };
  return values.length === 1
    ? { term: { [field]: values[0] as string } }
    : { terms: { [field]: [...values] } };
}

export function totalHits(total: number | { value: number } | undefined): number {
  if (total === undefined) return 0;
  return typeof total === 'number' ? total : total.value;
}

/** A terms aggregation's buckets as `{label, count}`, in the aggregation's order. */
export function labelCounts(aggregate: TermsBuckets | undefined): LabelCount[] {
  return (aggregate?.buckets ?? []).map((bucket) => ({ label: String(bucket.key), count: bucket.doc_count }));
}
