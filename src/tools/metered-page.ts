import type { QuotaState } from '../metering/quota-state.js';
import type { QuotaKey } from '../plans.js';
import type { PagePosition } from '../search/cursor.js';
import type { SearchBody } from '../search/es.js';
import { type FallbackSearch, searchWithFallback } from '../search/fallback.js';
import type { NothingFound } from '../search/left-out.js';
import {
  type FetchedPage,
  finishPage,
  type PagedSearch,
  planPage,
  shortenedByQuotaNote,
} from '../search/paging.js';
import type { ToolContext } from './define-tool.js';

/** What a query builder gives a metered search besides its request body. */
interface PageQuery<Body> {
  body: Body;
  /** The second reading, sent only when `body` finds nothing (src/search/fallback.ts). */
  fallback?: FallbackSearch<Body> | undefined;
  /** The count of what leaving out each argument (or word of the title) finds, sent only when no reading finds anything. */
  nothingFound?: NothingFound<Body> | undefined;
  notes: string[];
  /** The location named no known place: nothing can match, so nothing is searched or charged. */
  unknownPlace: boolean;
}

/** What a search response holds for one page, cut to the results the quota granted. */
interface FoundPage<Result> {
  results: Result[];
  /** Every result the search matches, on this page and the others. */
  total: number;
  lastSort?: FetchedPage['lastSort'];
}

/** A search that charges one unit of `quota` per result it lists. */
export interface MeteredSearch<Query extends PageQuery<Body>, Found, Result, Listed, Body = SearchBody> {
  tool: string;
  args: PagedSearch['args'];
  quota: QuotaKey;
  /** The request for `size` results from `position`; it throws on a bad argument, before any charge. */
  build(position: PagePosition, size: number): Query;
  /** Sends one request body. */
  run(body: Body): Promise<Found>;
  /** Whether a response found anything; when not, the query's fallback reading is sent. */
  found(response: Found): boolean;
  /** The page in a response: at most `size` results from `position`. */
  read(found: Found, position: PagePosition, size: number): FoundPage<Result>;
  /** The results as the page lists them; one that cannot be listed is left out, and not charged. */
  list(results: Result[]): Promise<Listed[]>;
}

export interface MeteredPage<Listed> {
  total: number;
  listed: Listed[];
  next_cursor: string | null;
  quota: QuotaState;
  notes: string[];
}

/**
 * One page of `search_leads` or `search_companies` (docs/search-semantics.md, "Metering"): the page
 * is planned from the cursor, reserved with one partial charge beside the search, cut to what was
 * granted and listed; what it did not fill or list is given back before its cursor and notes.
 */
export async function meteredPage<Query extends PageQuery<Body>, Found, Result, Listed, Body = SearchBody>(
  { meter, services }: Pick<ToolContext, 'meter' | 'services'>,
  search: MeteredSearch<Query, Found, Result, Listed, Body>,
): Promise<MeteredPage<Listed>> {
  const paged: PagedSearch = { secret: services.config.SERVER_SECRET, tool: search.tool, args: search.args };
  const plan = planPage(paged);
  const query = search.build(plan.position, plan.size);
  if (query.unknownPlace) {
    // As a search that found nothing: refused only when nothing is left, and nothing charged.
    const { quota } = await meter.charge(search.quota, 0);
    return { total: 0, listed: [], next_cursor: null, quota, notes: query.notes };
  }
  // The query answering a page of `size`: the one built above unless the charge came first and
  // granted less (Meter.chargeAlongside).
  const searchPage = async (size: number) => {
    const sized = size === plan.size ? query : search.build(plan.position, size);
    const { response, notes } = await searchWithFallback(sized, search.run, search.found, (named) =>
      services.searchIndex.matchesAny('companies', named),
    );
    return { notes: [...sized.notes, ...notes], found: response };
  };
  const { result: answered, ...reserved } = await meter.chargeAlongside(
    search.quota,
    plan.size,
    { partial: true },
    searchPage,
  );
  const page = search.read(answered.found, plan.position, reserved.granted);
  const unfilled = reserved.granted - page.results.length;
  const [listed, quotaAfterUnfilled] = await Promise.all([
    search.list(page.results),
    unfilled > 0 ? meter.refundUnused(search.quota, unfilled) : reserved.quota,
  ]);
  const unlisted = page.results.length - listed.length;
  const quota = unlisted > 0 ? await meter.refundUnused(search.quota, unlisted) : quotaAfterUnfilled;
  const moreExist = plan.position.served + page.results.length < page.total;
  const outcome = finishPage(paged, plan, {
    returned: page.results.length,
    moreExist,
    lastSort: page.lastSort,
  });
  const notes = [...answered.notes, ...outcome.notes];
  if (reserved.granted < plan.size && moreExist) {
    notes.push(shortenedByQuotaNote(listed.length, search.quota, quota.resets_at));
  }
  return { total: page.total, listed, next_cursor: outcome.next_cursor, quota, notes };
}
