import type { estypes } from '@elastic/elasticsearch';
import { decodeCursor, encodeCursor, FIRST_PAGE, type PagePosition } from './cursor.js';

/**
 * Page planning shared by the three search tools: where a page starts, how big it may be
 * (page_size and the 1,000-result cap), and what the next cursor and notes are once the page has
 * been fetched (docs/search-semantics.md, "Ordering and paging").
 */

export const MAX_PAGEABLE_RESULTS = 1000;

export interface PagedSearch {
  secret: string;
  tool: string;
  /** The parsed arguments, including `cursor` and `page_size` (both ignored by the binding). */
  args: Record<string, unknown> & { cursor?: string | undefined; page_size: number };
}

export interface PagePlan {
  position: PagePosition;
  /** How many results to fetch: page_size, or fewer where the page reaches the 1,000-result cap. */
  size: number;
}

/** Where the page starts and how big it may be; a metered page may then hold fewer (src/tools/metered-page.ts). */
export function planPage(search: PagedSearch): PagePlan {
  const position = search.args.cursor
    ? decodeCursor(search.secret, search.tool, search.args, search.args.cursor)
    : FIRST_PAGE;
  return {
    position,
    size: Math.max(0, Math.min(search.args.page_size, MAX_PAGEABLE_RESULTS - position.served)),
  };
}

export interface FetchedPage {
  returned: number;
  /** Whether any result exists beyond this page (from an exact total, or by fetching one extra). */
  moreExist: boolean;
  /** Sort values of the page's last result, for `search_after` paging; omit when paging by offset. */
  lastSort?: estypes.SortResults | undefined;
}

export interface PageOutcome {
  next_cursor: string | null;
  notes: string[];
}

export function finishPage(search: PagedSearch, plan: PagePlan, page: FetchedPage): PageOutcome {
  const served = plan.position.served + page.returned;
  const capReached = served >= MAX_PAGEABLE_RESULTS && page.moreExist;
  const notes: string[] = [];
  if (capReached) {
    notes.push(
      `Only the first ${MAX_PAGEABLE_RESULTS.toLocaleString('en-GB')} results of a search can be paged, and this page ends there. Narrow the filters (for example location, skills or posted_within_days) to reach the others.`,
    );
  }
  if (!page.moreExist || capReached || page.returned === 0) return { next_cursor: null, notes };
  const position: PagePosition = { searchAfter: page.lastSort ?? null, served };
  return {
    next_cursor: encodeCursor(search.secret, { tool: search.tool, args: search.args, position }),
    notes,
  };
}

/** The note for a page cut short because the daily quota had fewer units left than page_size. */
export function shortenedByQuotaNote(returned: number, unit: string, resetsAt: string): string {
  return `This page holds only ${returned} result${returned === 1 ? '' : 's'} because that is all the ${unit} quota had left today; it resets at ${resetsAt}.`;
}
