import { Client, errors } from '@elastic/elasticsearch';
import type { Config } from '../config.js';
import { Unavailable } from '../errors.js';

export interface IndexNames {
  leads: string;
  companies: string;
  signals: string;
  /** Open roles counted ahead of time, from the leads (docs/decisions/rollups.md). */
  rollups: string;
}

/** Aliases the application reads and writes; each points at a versioned index (`<alias>-v1`). */
export function indexNames(prefix: string): IndexNames {
  return {
    leads: `${prefix}-leads`,
    companies: `${prefix}-companies`,
    signals: `${prefix}-signals`,
    rollups: `${prefix}-rollups`,
  };
}

/** The client as the processes hold it: they hand it to the stores and call nothing on it. */
export type ElasticsearchClient = ReturnType<typeof createElasticsearchClient>;

export function createElasticsearchClient(
  settings: Pick<Config, 'ELASTICSEARCH_URL' | 'BACKEND_TIMEOUT_MS'>,
) {
  return new Client({
    node: settings.ELASTICSEARCH_URL,
    requestTimeout: settings.BACKEND_TIMEOUT_MS,
    maxRetries: 0,
    // The integ-test build has no `GET /`; never sniff or ping it.
    sniffOnStart: false,
  });
}

/** An index creation that lost the race to another process: the index exists, which is what was wanted. */
export function isIndexAlreadyCreated(error: unknown): boolean {
  return (
    error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception'
  );
}

/** Connection failures and timeouts become the retryable `unavailable`; anything else is a bug to surface. */
export function isElasticsearchOutage(error: unknown): boolean {
  return (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError ||
    (error instanceof errors.ResponseError && [502, 503, 504].includes(error.statusCode ?? 0))
  );
}

/** Runs one Elasticsearch call, mapping an outage to `Unavailable`. */
export async function searchBackend<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isElasticsearchOutage(error)) throw new Unavailable('search');
    throw error;
  }
}
