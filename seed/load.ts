import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@elastic/elasticsearch';
import { errors } from '@elastic/elasticsearch';
import { type IndexKind, indexDefinition } from '../src/stores/search-indices.js';
import { Progress } from './progress.js';

/**
 * Bulk-loads a stream of documents into one index: batches of NDJSON built as the stream is
 * read, a few requests in flight, items the cluster pushed back (429, 5xx) sent again with
 * backoff, and every other failure counted and reported. Memory is bounded by
 * `batchSize × concurrency` documents, whatever the stream's length.
 */

export interface LoadOptions {
  batchSize: number;
  concurrency: number;
  /** Attempts after the first for items the cluster pushed back. */
  retries: number;
  /** Label of the progress line; no progress line when absent. */
  progressLabel?: string;
}

export const DEFAULT_LOAD_OPTIONS: LoadOptions = { batchSize: 2000, concurrency: 3, retries: 5 };

export interface LoadResult {
  index: string;
  indexed: number;
  failed: number;
  seconds: number;
  /** The first few reasons documents were rejected, for the report. */
  failureSamples: string[];
}

interface BulkItemResult {
  status: number;
  error?: { type?: string; reason?: string };
}

type BulkResponse = { errors: boolean; items?: Array<Record<string, BulkItemResult>> };

const MAX_FAILURE_SAMPLES = 5;

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** A whole request that failed in a way worth repeating: no answer, a timeout, or a 429/5xx. */
function isRetryableRequestError(error: unknown): boolean {
  if (error instanceof errors.ResponseError) return isRetryableStatus(error.statusCode ?? 0);
  return error instanceof errors.ConnectionError || error instanceof errors.TimeoutError;
}

class BulkLoad {
  indexed = 0;
  failed = 0;
  readonly failureSamples: string[] = [];

  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly options: LoadOptions,
    private readonly progress: Progress | undefined,
  ) {}

  /** Sends `items` (each an action line and a source line) until each is indexed, rejected, or out of retries. */
  async send(items: string[]): Promise<void> {
    let pending = items;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(Math.min(10_000, 250 * 2 ** attempt));
      const outOfRetries = attempt >= this.options.retries;
      pending = await this.attempt(pending, outOfRetries);
    }
  }

  /** One `_bulk` request; returns the items to send again. */
  private async attempt(items: string[], outOfRetries: boolean): Promise<string[]> {
    let response: BulkResponse;
    try {
      response = await this.client.transport.request<BulkResponse>({
        method: 'POST',
        path: `/${encodeURIComponent(this.index)}/_bulk`,
        querystring: { filter_path: 'errors,items.*.status,items.*.error.type,items.*.error.reason' },
        bulkBody: items.join(''),
      });
    } catch (error) {
      if (!outOfRetries && isRetryableRequestError(error)) return items;
      this.reject(items.length, error instanceof Error ? error.message : String(error));
      return [];
    }
    if (!response.errors) {
      this.accept(items.length);
      return [];
    }
    const retry: string[] = [];
    (response.items ?? []).forEach((item, position) => {
      const result = Object.values(item)[0] as BulkItemResult;
      if (result.status < 300) this.accept(1);
      else if (!outOfRetries && isRetryableStatus(result.status)) retry.push(items[position] as string);
      else
        this.reject(
          1,
          `${result.status} ${result.error?.type ?? ''}: ${result.error?.reason ?? 'no reason given'}`,
        );
    });
    return retry;
  }

  private accept(count: number): void {
    this.indexed += count;
    this.progress?.advance(count);
  }

  private reject(count: number, reason: string): void {
    this.failed += count;
    this.progress?.advance(count);
    if (this.failureSamples.length < MAX_FAILURE_SAMPLES) this.failureSamples.push(reason);
  }
}

export async function bulkLoad(
  client: Client,
  index: string,
  documents: Iterable<{ id: string }>,
  total: number,
  options: LoadOptions = DEFAULT_LOAD_OPTIONS,
): Promise<LoadResult> {
  const startedAt = performance.now();
  const progress =
    options.progressLabel === undefined ? undefined : new Progress(options.progressLabel, total);
  const load = new BulkLoad(client, index, options, progress);
  const inFlight = new Set<Promise<void>>();
  const dispatch = (items: string[]) => {
    const request: Promise<void> = load.send(items).finally(() => inFlight.delete(request));
    inFlight.add(request);
  };

  let batch: string[] = [];
  for (const document of documents) {
    batch.push(`{"index":{"_id":${JSON.stringify(document.id)}}}\n${JSON.stringify(document)}\n`);
    if (batch.length < options.batchSize) continue;
    dispatch(batch);
    batch = [];
    // Generating is far faster than indexing: wait for a free slot so memory stays bounded.
    if (inFlight.size >= options.concurrency) await Promise.race(inFlight);
  }
  if (batch.length > 0) dispatch(batch);
  await Promise.all(inFlight);
  progress?.finish();

  return {
    index,
    indexed: load.indexed,
    failed: load.failed,
    seconds: (performance.now() - startedAt) / 1000,
    failureSamples: load.failureSamples,
  };
}

/**
 * Index settings for a bulk load: no refresh and asynchronous translog while loading, then
 * the definition's refresh interval and durable writes back, and one refresh so the
 * documents are searchable when the seed returns.
 */
export async function prepareForBulk(client: Client, index: string): Promise<void> {
  await client.indices.putSettings({
    index,
    settings: { index: { refresh_interval: '-1', translog: { durability: 'async' } } },
  });
}

export async function finishBulk(client: Client, index: string, kind: IndexKind): Promise<void> {
  const refreshInterval = indexDefinition(kind).settings.refresh_interval ?? '1s';
  await client.indices.putSettings({
    index,
    settings: { index: { refresh_interval: refreshInterval, translog: { durability: 'request' } } },
  });
  await client.indices.refresh({ index });
}
