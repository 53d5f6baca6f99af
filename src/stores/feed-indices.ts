import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, errors, type estypes } from '@elastic/elasticsearch';
import { indexNames } from './elasticsearch.js';
import { type IndexKind, indexDefinition } from './search-indices.js';

/**
 * The Elasticsearch side of loading the feed (`npm run ingest`, `npm run seed`): bulk writes
 * with retries, lookups of what the index already holds, scans, and the settings of a bulk load
 * (the indices themselves, versions and generations: src/stores/search-indices.ts). The local
 * Elasticsearch has no `_reindex`, `_update_by_query` or `_delete_by_query`, so copying and
 * closing go through a point-in-time scan and `_bulk` (docs/feed.md, "How a snapshot is loaded").
 */

interface BulkItemResult {
  status: number;
  error?: { type?: string; reason?: string };
}

type BulkResponse = { errors: boolean; items?: Array<Record<string, BulkItemResult>> };

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** A whole request that failed in a way worth repeating: no answer, a timeout, or a 429/5xx. */
function isRetryableRequestError(error: unknown): boolean {
  if (error instanceof errors.ResponseError) return isRetryableStatus(error.statusCode ?? 0);
  return error instanceof errors.ConnectionError || error instanceof errors.TimeoutError;
}

export interface BulkOutcome {
  written: number;
  /** Documents Elasticsearch refused (after retries), with a reason each. */
  failed: Array<{ id: string; reason: string }>;
}

/** What a written action is known by: its document's id, and the document for whoever watches what is written (src/ingest/rollups.ts). */
export interface BulkEntry {
  id: string;
  doc?: object;
}

/**
 * One action (an `index` and its document, or a `delete`) as the pieces of its lines: text, and
 * bytes already encoded (a document is encoded once, when its fingerprint is taken, and copied
 * into the request).
 */
export interface BulkItem extends BulkEntry {
  parts: ReadonlyArray<string | Uint8Array>;
}

/** The `index` action of the document `id` whose `_source` is `source` (or the concatenation of its pieces). */
export function indexItem(
  id: string,
  source: string | ReadonlyArray<string | Uint8Array>,
  doc?: object,
): BulkItem {
  const pieces = typeof source === 'string' ? [source] : source;
  return { id, parts: [`{"index":{"_id":${JSON.stringify(id)}}}\n`, ...pieces, '\n'], ...(doc && { doc }) };
}

export function deleteItem(id: string): BulkItem {
  return { id, parts: [`{"delete":{"_id":${JSON.stringify(id)}}}\n`] };
}

/** What `item` adds to a bulk request's body, in bytes. */
export function bulkItemBytes(item: BulkItem): number {
  let length = 0;
  for (const part of item.parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  return length;
}

/**
 * A `_bulk` request's body, made once from its items, and what each action is known by: the
 * items' parts (views of the encoder's memory, src/ingest/serialise.ts) are garbage as soon as it
 * is made, before the young generation's collections would copy them, and a retry sends slices
 * of it. Its buffer is used again once `writeBulk` is done with it (docs/performance.md,
 * "Loading the feed").
 */
export interface BulkRequest {
  entries: BulkEntry[];
  /** Where each entry's lines end in `body`. */
  ends: number[];
  body: Buffer;
  /** The pooled buffer `body` is the start of. */
  buffer: Buffer;
}

/** Buffers for request bodies, used again once their request has ended; a body dropped instead is freed only when the collector gets to it. */
const spareBodies: Buffer[] = [];
const SPARE_BODIES = 4;

function bodyBuffer(length: number): Buffer {
  const fits = spareBodies.findIndex((buffer) => buffer.length >= length);
  if (fits !== -1) return spareBodies.splice(fits, 1)[0] as Buffer;
  // A spare too small for this body makes room for the one made now, rounded up to a whole MiB
  // so that the next bodies, of about the same size, fit it.
  spareBodies.shift();
  return Buffer.allocUnsafeSlow(Math.max(1, Math.ceil(length / 2 ** 20)) * 2 ** 20);
}

export function bulkRequest(items: readonly BulkItem[]): BulkRequest {
  let length = 0;
  for (const item of items) length += bulkItemBytes(item);
  const buffer = bodyBuffer(length);
  const entries: BulkEntry[] = [];
  const ends: number[] = [];
  let offset = 0;
  for (const item of items) {
    for (const part of item.parts) {
      if (typeof part === 'string') offset += buffer.write(part, offset);
      else {
        buffer.set(part, offset);
        offset += part.length;
      }
    }
    entries.push(item.doc ? { id: item.id, doc: item.doc } : { id: item.id });
    ends.push(offset);
  }
  return { entries, ends, body: buffer.subarray(0, length), buffer };
}

/** The body of the entries at `positions` of `request`: its slices, copied together. */
function sliceOf(request: BulkRequest, positions: readonly number[]): Buffer {
  return Buffer.concat(
    positions.map((position) =>
      request.body.subarray(position === 0 ? 0 : request.ends[position - 1], request.ends[position]),
    ),
  );
}

/**
 * Writes the items (or the request made of them) to `index` in one `_bulk` request, sending again
 * (with backoff, `retries` times) the items the cluster pushed back (429, 5xx) and whole requests
 * that failed to connect or timed out; every other refusal is reported.
 */
export async function writeBulk(
  client: Client,
  index: string,
  items: readonly BulkItem[] | BulkRequest,
  retries = 5,
): Promise<BulkOutcome> {
  const request = 'body' in items ? items : bulkRequest(items);
  const outcome: BulkOutcome = { written: 0, failed: [] };
  let pending = request.entries.map((_entry, position) => position);
  try {
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(Math.min(10_000, 250 * 2 ** attempt));
      const lastTry = attempt >= retries;
      let response: BulkResponse;
      try {
        response = await client.transport.request<BulkResponse>({
          method: 'POST',
          path: `/${encodeURIComponent(index)}/_bulk`,
          querystring: { filter_path: 'errors,items.*.status,items.*.error.type,items.*.error.reason' },
          bulkBody: attempt === 0 ? request.body : sliceOf(request, pending),
        });
      } catch (error) {
        if (!lastTry && isRetryableRequestError(error)) continue;
        const reason = error instanceof Error ? error.message : String(error);
        outcome.failed.push(...pending.map((position) => ({ id: idAt(request, position), reason })));
        return outcome;
      }
      if (!response.errors) {
        outcome.written += pending.length;
        return outcome;
      }
      const retry: number[] = [];
      (response.items ?? []).forEach((entry, at) => {
        const result = Object.values(entry)[0] as BulkItemResult;
        const position = pending[at] as number;
        // A delete of a document already gone answers 404 without an error: nothing left to do.
        if (result.status < 300 || result.error === undefined) outcome.written++;
        else if (!lastTry && isRetryableStatus(result.status)) retry.push(position);
        else
          outcome.failed.push({
            id: idAt(request, position),
            reason: `${result.status} ${result.error?.type ?? ''}: ${result.error?.reason ?? 'no reason given'}`,
          });
      });
      pending = retry;
    }
    return outcome;
  } finally {
    if (spareBodies.length < SPARE_BODIES) spareBodies.push(request.buffer);
  }
}

function idAt(request: BulkRequest, position: number): string {
  return (request.entries[position] as BulkEntry).id;
}

/**
 * The documents with these ids (only `fields` of each), realtime: a document written a moment
 * ago is found before any refresh. Missing ids are absent from the map.
 */
export async function lookUpDocuments<T>(
  client: Client,
  index: string,
  ids: readonly string[],
  fields: readonly string[] | true,
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  if (ids.length === 0) return found;
  const response = await client.mget<T>({
    index,
    ids: [...ids],
    _source: fields === true ? true : [...fields],
    realtime: true,
  });
  for (const doc of response.docs) {
    if ('found' in doc && doc.found && doc._source !== undefined) found.set(doc._id, doc._source);
  }
  return found;
}

/** The ids among `ids` that `index` holds. */
export async function existingIds(
  client: Client,
  index: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const response = await client.mget({ index, ids: [...ids], _source: false, realtime: true });
  return new Set(response.docs.filter((doc) => 'found' in doc && doc.found).map((doc) => doc._id));
}

/**
 * Every document of `index` matching `query` (only `fields`), a page at a time, through a
 * point in time: a consistent view however the index changes meanwhile.
 */
export async function* scanDocuments<T>(
  client: Client,
  index: string,
  query: estypes.QueryDslQueryContainer,
  fields: readonly string[] | true,
  pageSize = 1000,
): AsyncGenerator<Array<{ id: string; source: T }>> {
  const pit = await client.openPointInTime({ index, keep_alive: '5m' });
  let pitId = pit.id;
  try {
    let after: estypes.SortResults | undefined;
    for (;;) {
      const response = await client.search<T>({
        pit: { id: pitId, keep_alive: '5m' },
        query,
        size: pageSize,
        sort: [{ _shard_doc: 'asc' }],
        _source: fields === true ? true : [...fields],
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      });
      pitId = response.pit_id ?? pitId;
      const hits = response.hits.hits;
      if (hits.length === 0) return;
      yield hits.map((hit) => ({ id: hit._id as string, source: hit._source as T }));
      after = hits[hits.length - 1]?.sort;
      if (hits.length < pageSize) return;
    }
  } finally {
    await client.closePointInTime({ id: pitId }).catch(() => {});
  }
}

/** The highest `seq` in `index`, 0 when empty. */
export async function highestSeq(client: Client, index: string): Promise<number> {
  const response = await client.search({
    index,
    size: 0,
    track_total_hits: false,
    aggs: { highest: { max: { field: 'seq' } } },
  });
  const value = (response.aggregations?.highest as { value: number | null } | undefined)?.value;
  return value ?? 0;
}

/** The concrete index the alias of `kind` points at, or null when there is none yet. */
export async function liveIndex(client: Client, prefix: string, kind: IndexKind): Promise<string | null> {
  const alias = indexNames(prefix)[kind];
  if (!(await client.indices.existsAlias({ name: alias }))) return null;
  const aliased = await client.indices.getAlias({ name: alias });
  return Object.keys(aliased)[0] ?? null;
}

/** Drops an index this run created and will not publish. */
export async function dropIndex(client: Client, index: string): Promise<void> {
  await client.indices.delete({ index, ignore_unavailable: true });
}

/** Settings for a bulk load: no refresh and an asynchronous translog while loading. */
export async function prepareForBulk(client: Client, index: string): Promise<void> {
  await client.indices.putSettings({
    index,
    settings: { index: { refresh_interval: '-1', translog: { durability: 'async' } } },
  });
}

/** How long merging a loaded index into one segment may take: minutes at ten million leads. */
const FORCE_MERGE_TIMEOUT_MS = 60 * 60_000;
/** Each wait for the merge's task; well inside the client's own timeout (ingest and seed: 300 s). */
const MERGE_WAIT = '60s';

/**
 * The definition's refresh interval and durable writes back, one refresh so the documents are
 * searchable, and the index merged into one segment before it is published: a bulk load leaves
 * tens of segments, and each search visits every one (docs/performance.md, "Segments after a load").
 */
export async function finishBulk(client: Client, index: string, kind: IndexKind): Promise<void> {
  const refreshInterval = indexDefinition(kind).settings.refresh_interval ?? '1s';
  await client.indices.putSettings({
    index,
    settings: { index: { refresh_interval: refreshInterval, translog: { durability: 'request' } } },
  });
  await client.indices.refresh({ index });
  await mergeIntoOneSegment(client, index);
}

/**
 * Runs the merge as a task and waits for it a minute at a time: the client cannot hold one request
 * open longer than its own timeout, whatever a request asks (its HTTP pool has no per-request
 * timeout), and merging ten million roles takes several minutes.
 */
async function mergeIntoOneSegment(client: Client, index: string): Promise<void> {
  const { task } = await client.indices.forcemerge({
    index,
    max_num_segments: 1,
    wait_for_completion: false,
  });
  if (task === undefined) throw new Error(`the merge of ${index} did not start a task`);
  const startedAt = Date.now();
  for (;;) {
    try {
      const status = await client.tasks.get({
        task_id: String(task),
        wait_for_completion: true,
        timeout: MERGE_WAIT,
      });
      if (status.error)
        throw new Error(`the merge of ${index} failed: ${status.error.reason ?? status.error.type}`);
      if (status.completed) return;
    } catch (error) {
      // The wait ran out before the merge did: wait again, up to the merge's own limit.
      const stillMerging =
        error instanceof errors.ResponseError && error.body?.error?.type === 'timeout_exception';
      if (!stillMerging) throw error;
    }
    if (Date.now() - startedAt > FORCE_MERGE_TIMEOUT_MS) {
      throw new Error(`the merge of ${index} took longer than ${FORCE_MERGE_TIMEOUT_MS / 60_000} minutes`);
    }
  }
}

export async function refreshIndex(client: Client, index: string): Promise<void> {
  await client.indices.refresh({ index });
}
