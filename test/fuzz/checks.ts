import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { type ExpectedAnswer, JSON_RPC } from './envelopes.js';
import type { HttpAnswer, HttpRequest } from './http-client.js';
import { abbreviate } from './json-text.js';

/**
 * The properties every answer must have, as functions that throw a readable description of the
 * exchange when one does not hold (fast-check then shrinks the input and prints its seed).
 */

/** The `error.code` values of tool errors (docs/results-and-errors.md, "Error codes"). */
const TOOL_ERROR_CODES = [
  'invalid_argument',
  'not_found',
  'insufficient_scope',
  'insufficient_credits',
  'quota_exceeded',
  'rate_limited',
  'subscription_required',
  'unavailable',
  'internal',
];

export class FuzzFailure extends Error {
  constructor(problem: string, request: HttpRequest, answer?: HttpAnswer) {
    const headers = Object.entries(request.headers)
      .map(([name, value]) => `${name}: ${abbreviate(value, 120)}`)
      .join('\n  ');
    super(
      [
        problem,
        `request: ${request.method} ${request.path}\n  ${headers}`,
        `  body: ${request.body === undefined ? '(none)' : abbreviate(request.body.toString('utf8'))}`,
        answer === undefined
          ? 'no answer'
          : `answer: ${answer.status} ${answer.headers['content-type'] ?? ''}\n  ${abbreviate(answer.text)}`,
      ].join('\n'),
    );
    this.name = 'FuzzFailure';
  }
}

/** No 5xx, no JSON-RPC internal error, and every body the server sends is JSON. */
export function checkNoServerFault(request: HttpRequest, answer: HttpAnswer): void {
  if (answer.status >= 500) throw new FuzzFailure(`answered ${answer.status}`, request, answer);
  const error = jsonRpcError(answer);
  if (error?.code === JSON_RPC.internalError) {
    throw new FuzzFailure('answered JSON-RPC -32603 (internal error) to client input', request, answer);
  }
  if (answer.status === 406) throw new FuzzFailure('answered 406: the server never does', request, answer);
  if (answer.text.length > 0 && request.method !== 'HEAD') {
    if (answer.json === undefined) throw new FuzzFailure('answered a body that is not JSON', request, answer);
    if (!String(answer.headers['content-type']).startsWith('application/json')) {
      throw new FuzzFailure('answered JSON without Content-Type: application/json', request, answer);
    }
  }
}

function jsonRpcError(answer: HttpAnswer): { code: unknown; message: unknown } | undefined {
  const body = answer.json as { error?: { code?: unknown; message?: unknown } } | undefined;
  return typeof body?.error === 'object' && body.error !== null
    ? { code: body.error.code, message: body.error.message }
    : undefined;
}

/** The answer is one of `expected`; returns the JSON-RPC result when it is a result. */
export function checkJsonRpcAnswer(
  request: HttpRequest,
  answer: HttpAnswer,
  expected: ExpectedAnswer[],
): unknown {
  const problems = expected.map((candidate) => mismatch(answer, candidate));
  if (problems.some((problem) => problem === null)) {
    return (answer.json as { result?: unknown } | undefined)?.result;
  }
  throw new FuzzFailure(`unexpected answer: ${problems.join('; or ')}`, request, answer);
}

function mismatch(answer: HttpAnswer, expected: ExpectedAnswer): string | null {
  const body = answer.json as { jsonrpc?: unknown; id?: unknown; result?: unknown } | undefined;
  const error = jsonRpcError(answer);
  switch (expected.kind) {
    case 'notification':
      if (answer.status === 202 && answer.text === '') return null;
      if (
        expected.malformed &&
        answer.status === 400 &&
        ([JSON_RPC.invalidRequest, JSON_RPC.invalidParams] as number[]).includes(error?.code as number)
      ) {
        return null;
      }
      return expected.malformed
        ? 'expected 202, or 400 with -32600/-32602, for a notification with malformed params'
        : 'expected 202 with no body for a notification';
    case 'error':
      if (error === undefined || !expected.codes.includes(error.code as number)) {
        return `expected JSON-RPC error ${expected.codes.join('/')}`;
      }
      if (!expected.statuses.includes(answer.status)) return `expected HTTP ${expected.statuses.join('/')}`;
      if (typeof error.message !== 'string' || error.message === '') return 'expected an error message';
      if (expected.echoId !== undefined && body?.id !== expected.echoId) {
        return `expected the request's id ${JSON.stringify(expected.echoId)} in the error`;
      }
      return null;
    case 'result':
      if (
        answer.status !== 200 ||
        body?.jsonrpc !== '2.0' ||
        typeof body.result !== 'object' ||
        body.result === null
      ) {
        return `expected HTTP 200 with a JSON-RPC result for ${expected.method}`;
      }
      return body.id === expected.id ? null : `expected the request's id ${JSON.stringify(expected.id)}`;
  }
}

export interface ToolError {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/**
 * A tool result as docs/results-and-errors.md shapes it: success with `structuredContent` and the
 * same JSON as text, or `isError` with one text item holding `{ error: { code, message, details } }`,
 * whose code is a documented one and never `internal` (a tool failing on client input is a bug).
 * With the tool's `outputSchema`, a success must be exactly what the schema accepts: the server does
 * not parse its own results, so this is what holds them to the schema.
 */
export function checkToolResult(
  request: HttpRequest,
  answer: HttpAnswer,
  result: unknown,
  outputSchema?: z.ZodType,
): ToolError | null {
  const fail = (problem: string) => new FuzzFailure(problem, request, answer);
  const { isError, content, structuredContent } = result as {
    isError?: unknown;
    content?: Array<{ type?: unknown; text?: unknown }>;
    structuredContent?: unknown;
  };
  if (!Array.isArray(content) || content.length !== 1 || content[0]?.type !== 'text') {
    throw fail('a tool result must hold exactly one text item');
  }
  const text = String(content[0].text);
  if (isError !== true) {
    if (typeof structuredContent !== 'object' || structuredContent === null)
      throw fail('success without structuredContent');
    if (!isDeepStrictEqual(JSON.parse(text), structuredContent))
      throw fail('the text differs from structuredContent');
    const accepted = outputSchema?.safeParse(structuredContent);
    if (accepted !== undefined && !(accepted.success && isDeepStrictEqual(accepted.data, structuredContent)))
      throw fail(
        `structuredContent is not exactly what the output schema accepts: ${accepted.error?.message}`,
      );
    return null;
  }
  if (structuredContent !== undefined) throw fail('an error result must not carry structuredContent');
  let error: ToolError;
  try {
    error = (JSON.parse(text) as { error: ToolError }).error;
  } catch {
    throw fail('an error result whose text is not JSON');
  }
  if (!TOOL_ERROR_CODES.includes(error?.code))
    throw fail(`error code ${JSON.stringify(error?.code)} is not a documented one`);
  if (error.code === 'internal') throw fail('the tool failed with internal on client input');
  if (typeof error.message !== 'string' || error.message === '') throw fail('an error without a message');
  if (typeof error.details !== 'object' || error.details === null) throw fail('an error without details');
  return error;
}

/**
 * Whether `field` (a dotted path such as `filters.skills.2`) names a value present in `args`.
 * Keys may themselves hold dots, so every way of splitting the path is tried.
 */
export function fieldIsPresent(args: unknown, field: string): boolean {
  if (typeof args !== 'object' || args === null) return false;
  for (const key of Object.keys(args)) {
    const value = (args as Record<string, unknown>)[key];
    if (field === key) return true;
    if (field.startsWith(`${key}.`) && fieldIsPresent(value, field.slice(key.length + 1))) return true;
  }
  return false;
}

/** The part of a field path a message must mention: its last part that is not a list index. */
export function fieldName(field: string): string {
  return (
    field
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .at(-1) ?? field
  );
}
