import type { CallToolResult } from '@modelcontextprotocol/server';
import { DomainError, Unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { isElasticsearchOutage } from '../stores/elasticsearch.js';
import { isMongoOutage } from '../stores/mongo.js';

/** The JSON of each success result's `structuredContent`, as its text already holds it. */
const structuredJson = new WeakMap<CallToolResult, string>();

/** Success: the object as `structuredContent`, and the same JSON as text for clients that read only text. */
export function successResult(value: Record<string, unknown>): CallToolResult {
  const json = JSON.stringify(value);
  const result: CallToolResult = { content: [{ type: 'text', text: json }], structuredContent: value };
  structuredJson.set(result, json);
  return result;
}

/**
 * `JSON.stringify(result)`, byte for byte, without serialising a success's `structuredContent` a
 * second time: its JSON is the text `successResult` already made. A page of 25 leads is about 15 kB
 * of JSON, and serialising it again took about 30 µs of each call (docs/performance.md,
 * "Validation and serialisation").
 */
export function resultJson(result: CallToolResult): string {
  const json = structuredJson.get(result);
  if (json === undefined) return JSON.stringify(result);
  return `{"content":${JSON.stringify(result.content)},"structuredContent":${json}}`;
}

/**
 * The one place an error becomes a tool result (docs/results-and-errors.md, "Tool errors"). No
 * `structuredContent`: clients validate it against the output schema, which describes success.
 */
export function errorResult(error: DomainError): CallToolResult {
  const body = { error: { code: error.code, message: error.message, details: error.details } };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/** Anything thrown during a call, as the error the caller will see; unexpected ones are logged with their stack. */
export function asDomainError(error: unknown, context: { requestId: string; logger: Logger }): DomainError {
  if (error instanceof DomainError) return error;
  // A backend failure that slipped past its store's mapping is still an outage, not a bug.
  if (isMongoOutage(error)) return new Unavailable('database');
  if (isElasticsearchOutage(error)) return new Unavailable('search');
  context.logger.error('tool call failed unexpectedly', {
    error,
    stack: error instanceof Error ? error.stack : undefined,
  });
  return new DomainError(
    'internal',
    `Something went wrong on our side. Retry later; if it keeps failing, report request id ${context.requestId}.`,
    { request_id: context.requestId },
  );
}
