import type { Client, estypes } from '@elastic/elasticsearch';

/**
 * The roll-up index's state, kept in its mapping's `_meta`: which leads index it counts, and
 * whether it is complete for it (`ready`) or being brought up to date (`updating`, also left behind
 * by an ingest that stopped half-way). Readers use the roll-ups only when they are `ready` for the
 * index the leads alias names (src/stores/search-index.ts); so a new leads index published
 * before its roll-ups, an upsert under way or a crashed one all fall back to counting the roles.
 */
export interface RollupMeta {
  leads_index?: string;
  state?: 'ready' | 'updating';
}

export function isRollupOf(meta: RollupMeta | undefined, leadsIndex: string): boolean {
  return meta?.state === 'ready' && meta.leads_index === leadsIndex;
}

export async function readRollupMeta(client: Client, rollupIndex: string): Promise<RollupMeta | undefined> {
  const mappings = await client.indices.getMapping({ index: rollupIndex });
  return Object.values(mappings)[0]?.mappings?._meta as RollupMeta | undefined;
}

export async function writeRollupMeta(client: Client, rollupIndex: string, meta: RollupMeta): Promise<void> {
  await client.indices.putMapping({ index: rollupIndex, _meta: meta as Record<string, unknown> });
}

/** The open roles `leadsIndex` holds. */
export async function countOpenRoles(client: Client, leadsIndex: string): Promise<number> {
  const { count } = await client.count({ index: leadsIndex, query: { term: { is_open: true } } });
  return count;
}

/**
 * Searches of the leads sent together in one `_msearch` (src/ingest/rollups.ts): each answer in
 * order, or an error naming the first search Elasticsearch refused.
 */
export async function searchLeadsEach<Response>(
  client: Client,
  leadsIndex: string,
  bodies: readonly estypes.SearchSearchRequestBody[],
): Promise<Response[]> {
  if (bodies.length === 0) return [];
  const { responses } = await client.msearch({
    index: leadsIndex,
    searches: bodies.flatMap((body) => [{}, body]),
  });
  return responses.map((response) => {
    if ('error' in response) {
      throw new Error(
        `a search of ${leadsIndex} failed: ${response.error.type}: ${response.error.reason ?? ''}`,
      );
    }
    return response as unknown as Response;
  });
}
