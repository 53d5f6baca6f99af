import type { estypes } from '@elastic/elasticsearch';
import { daysBefore, isoDate } from '../domain/calendar.js';
import { EXPERIENCE_LEVELS, WORK_TYPES } from '../domain/enums.js';
import type { CompanyHiring, LeadCardSource } from './dto.js';
import { type LabelCount, labelCounts, type SearchBody, type TermsBuckets, totalHits } from './es.js';
import { LEAD_CARD_FIELDS, NEWEST_LEADS_FIRST, OPEN_ROLES } from './lead-query.js';
import { NEWEST_SIGNALS_FIRST, RECENT_SIGNAL_FIELDS } from './signal-query.js';

/**
 * `get_company`'s hiring summary in one request on the leads index. The query takes every
 * role of the company; `post_filter` keeps only open ones for the hits (the 5 newest cards)
 * and their exact total, while the aggregations see all roles: the summary counts sit under
 * an `open` filter aggregation, and the posting trend counts every role posted in the two
 * windows, open or since closed, because it measures how actively the company posts.
 * The windows are two equal runs of 7 calendar days (UTC): today and the 6 days before it,
 * and the 7 days before those.
 */

const TOP_LIST_SIZE = 10;
const RECENT_ITEMS = 5;

export function buildCompanyHiringSummary(companyId: string, now: Date): SearchBody {
  const topTerms = (field: string, size = TOP_LIST_SIZE): estypes.AggregationsAggregationContainer => ({
    terms: { field, size, order: [{ _count: 'desc' }, { _key: 'asc' }] },
  });
  return {
    query: { term: { 'company.id': companyId } },
    post_filter: OPEN_ROLES,
    sort: NEWEST_LEADS_FIRST,
    size: RECENT_ITEMS,
    track_total_hits: true,
    _source: { includes: LEAD_CARD_FIELDS },
    aggs: {
      open: {
        filter: OPEN_ROLES,
        aggs: {
          by_experience_level: topTerms('experience_level', EXPERIENCE_LEVELS.length),
          by_work_type: topTerms('work_type', WORK_TYPES.length),
          top_titles: topTerms('title'),
          top_skills: topTerms('skills'),
          top_locations: topTerms('location.city'),
        },
      },
      posted: {
        date_range: {
          field: 'posted_date',
          format: 'yyyy-MM-dd',
          ranges: [
            { key: 'last_7_days', from: isoDate(daysBefore(now, 6)) },
            { key: 'previous_7_days', from: isoDate(daysBefore(now, 13)), to: isoDate(daysBefore(now, 6)) },
          ],
        },
      },
    },
  };
}

/** The 5 newest signals of a company, for `recent_signals`. */
export function buildRecentSignals(companyId: string): SearchBody {
  return {
    query: { bool: { filter: [{ term: { 'company.id': companyId } }] } },
    sort: NEWEST_SIGNALS_FIRST,
    size: RECENT_ITEMS,
    track_total_hits: false,
    _source: { includes: RECENT_SIGNAL_FIELDS },
  };
}

export interface HiringSummaryResponse {
  hits: { total?: number | { value: number }; hits: Array<{ _source?: LeadCardSource }> };
  aggregations?: {
    open?: {
      by_experience_level?: TermsBuckets;
      by_work_type?: TermsBuckets;
      top_titles?: TermsBuckets;
      top_skills?: TermsBuckets;
      top_locations?: TermsBuckets;
    };
    posted?: { buckets: Array<{ key?: string; doc_count: number }> };
  };
}

export function readCompanyHiring(response: HiringSummaryResponse): CompanyHiring {
  const open = response.aggregations?.open;
  const posted = response.aggregations?.posted?.buckets ?? [];
  const postedIn = (key: string) => posted.find((bucket) => bucket.key === key)?.doc_count ?? 0;
  return {
    open_roles: totalHits(response.hits.total),
    open_roles_by_experience_level: countsInOrder(EXPERIENCE_LEVELS, open?.by_experience_level),
    open_roles_by_work_type: countsInOrder(WORK_TYPES, open?.by_work_type),
    top_titles: labelCounts(open?.top_titles),
    top_skills: labelCounts(open?.top_skills),
    top_locations: labelCounts(open?.top_locations),
    posted_last_7_days: postedIn('last_7_days'),
    posted_previous_7_days: postedIn('previous_7_days'),
    recentLeads: response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : [])),
  };
}

/** Every value of a fixed list in its own order, zero counts included, so breakdowns read the same for every company. */
function countsInOrder(values: readonly string[], aggregate: TermsBuckets | undefined): LabelCount[] {
  const counts = new Map((aggregate?.buckets ?? []).map((bucket) => [String(bucket.key), bucket.doc_count]));
  return values.map((label) => ({ label, count: counts.get(label) ?? 0 }));
}
