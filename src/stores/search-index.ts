import type { Client, estypes } from '@elastic/elasticsearch';
import type { SearchBody } from '../search/es.js';
import { type IndexNames, searchBackend } from './elasticsearch.js';
import { isRollupOf, type RollupMeta } from './rollup-index.js';

type IndexKind = keyof IndexNames;

/** How long a process trusts what it last read of the roll-ups' state. */
const ROLLUP_STATE_MAX_AGE_MS = 1000;

/**
 * The leads, companies, signals and roll-up indices as the tools read them: each call takes a
 * request body built by src/search/ and gives back Elasticsearch's answer, an outage becoming
 * `unavailable`.
 */
export class SearchIndexStore {
  private rollupState: { readAt: number; ready: Promise<boolean> } | undefined;

  constructor(
    private readonly client: Client,
    private readonly indices: IndexNames,
    private readonly options: { rollups: boolean } = { rollups: true },
  ) {}

  /** The hits of `body` (and whatever else it asks for). */
  search<Source>(kind: IndexKind, body: SearchBody): Promise<estypes.SearchResponse<Source>> {
    return searchBackend(() => this.client.search<Source>({ index: this.indices[kind], ...body }));
  }

  /**
   * A search read for its total and aggregations, whose shape the builder of `body` knows and
   * states as `Response` (its reader in src/search/).
   */
  aggregate<Response>(kind: IndexKind, body: SearchBody): Promise<Response> {
    return this.search<unknown>(kind, body) as Promise<unknown> as Promise<Response>;
  }

  /** Whether any document of the index matches `query`; stops at the first. */
  async matchesAny(kind: IndexKind, query: estypes.QueryDslQueryContainer): Promise<boolean> {
    const response = await this.search<unknown>(kind, {
      size: 0,
      query,
      terminate_after: 1,
      track_total_hits: 1,
    });
    const total = response.hits.total;
    return (typeof total === 'number' ? total : (total?.value ?? 0)) > 0;
  }

  /** The document with this id, or undefined when there is none. */
  async get<Source>(kind: IndexKind, id: string): Promise<Source | undefined> {
    const response = await searchBackend(() =>
      this.client.get<Source>({ index: this.indices[kind], id }, { ignore: [404] }),
    );
    return response.found ? response._source : undefined;
  }

  /** The documents found among `ids`, in the order of `ids`; missing ones are left out. */
  async mget<Source>(kind: IndexKind, ids: string[]): Promise<Source[]> {
    if (ids.length === 0) return [];
    const response = await searchBackend(() => this.client.mget<Source>({ index: this.indices[kind], ids }));
    return response.docs.flatMap((doc) => ('found' in doc && doc.found && doc._source ? [doc._source] : []));
  }

  /**
   * Whether the roll-ups may answer: turned on, and complete for the index the leads alias names now
   * (docs/decisions/rollups.md). Read at most once a second per process; while they are not, every
   * count reads the roles, which is exact but slower.
   */
  rollupsReady(): Promise<boolean> {
    if (!this.options.rollups) return Promise.resolve(false);
    const now = performance.now();
    if (this.rollupState === undefined || now - this.rollupState.readAt >= ROLLUP_STATE_MAX_AGE_MS) {
      this.rollupState = { readAt: now, ready: this.readRollupState() };
    }
    return this.rollupState.ready;
  }

  private async readRollupState(): Promise<boolean> {
    try {
      const mappings = (await this.client.indices.getMapping(
        { index: [this.indices.leads, this.indices.rollups] },
        { querystring: { filter_path: '*.mappings._meta,*.mappings.dynamic' } },
      )) as Record<string, { mappings?: { _meta?: RollupMeta } }>;
      const names = Object.keys(mappings);
      const leads = names.find((name) => name.startsWith(`${this.indices.leads}-`));
      const rollups = names.find((name) => name.startsWith(`${this.indices.rollups}-`));
      return (
        leads !== undefined && rollups !== undefined && isRollupOf(mappings[rollups]?.mappings?._meta, leads)
      );
    } catch {
      // Missing indices, or Elasticsearch away: the roles answer (or fail as unavailable) on their own.
      return false;
    }
  }
}
