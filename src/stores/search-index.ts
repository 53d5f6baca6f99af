import type { Client, estypes } from '@elastic/elasticsearch';
import type { SearchBody } from '../search/es.js';
import { type IndexNames, searchBackend } from './elasticsearch.js';

type IndexKind = keyof IndexNames;

/**
 * The leads, companies and signals indices as the tools read them: each call takes a request body
 * built by src/search/ and gives back Elasticsearch's answer, an outage becoming `unavailable`.
 */
export class SearchIndexStore {
  constructor(
    private readonly client: Client,
    private readonly indices: IndexNames,
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
}
