import { type Client, errors } from '@elastic/elasticsearch';
import { type MongoClient, MongoServerError } from 'mongodb';
import type { Metrics } from '../metrics.js';

/**
 * Times every Elasticsearch request from the client's own diagnostic events, which carry the
 * request's duration: no call site needs to know about metrics.
 */
export function observeElasticsearch(client: Client, metrics: Metrics): void {
  client.diagnostic.on('response', (error, result) => {
    const meta = result?.meta;
    metrics.elasticsearchRequestFinished(
      elasticsearchOperation(meta?.request.params.path ?? ''),
      meta?.duration ?? 0,
      error === null ? undefined : elasticsearchErrorKind(error),
    );
  });
}

/**
 * The API a request path calls, from its first `_` segment: `/hl-leads/_search` is `search`,
 * `/_cluster/health` is `cluster`. Index names cannot start with `_` and document ids come after
 * the API segment, so the names form a small fixed set. A path without one (creating or deleting
 * an index) is `index`.
 */
export function elasticsearchOperation(path: string): string {
  const start = path.indexOf('/_');
  if (start < 0) return 'index';
  const end = path.indexOf('/', start + 2);
  return path.slice(start + 2, end < 0 ? undefined : end) || 'index';
}

function elasticsearchErrorKind(error: Error): string {
  if (error instanceof errors.ResponseError) return `status_${error.statusCode ?? 'unknown'}`;
  if (error instanceof errors.TimeoutError) return 'timeout';
  if (error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError) {
    return 'connection';
  }
  return 'other';
}

/**
 * Times every MongoDB command from the driver's command monitoring (the client must be created
 * with `monitorCommands`, as `connectMongo` does). Only the command name and duration are read:
 * the listeners allocate nothing of their own per command.
 */
export function observeMongo(client: MongoClient, metrics: Metrics): void {
  client.on('commandSucceeded', (event) => {
    metrics.mongoCommandFinished(event.commandName, event.duration, undefined);
  });
  client.on('commandFailed', (event) => {
    // A server error is an answer (a unique index refusing a duplicate is part of the charging
    // protocol); anything else means no answer came: the network, a timeout, a closed pool.
    const error = event.failure instanceof MongoServerError ? 'server' : 'network';
    metrics.mongoCommandFinished(event.commandName, event.duration, error);
  });
}
