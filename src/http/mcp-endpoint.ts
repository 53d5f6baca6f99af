import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { StepUpRequired } from '../mcp/run-tool.js';
import { callTool, createMcpServer, type McpServerDeps } from '../mcp/server.js';
import { resultJson } from '../mcp/tool-result.js';
import { quoted, requestState, sendJsonRpcError } from './request-state.js';

/** The revisions served (docs/protocol.md, "Transport"); the SDK itself would also accept two older ones. */
const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-03-26', '2025-06-18', '2025-11-25'];

/** Both forms the transport insists on, whatever the client sent: scripts often send neither. */
const TRANSPORT_ACCEPT = 'application/json, text/event-stream';

export const MAX_BODY_BYTES = 1024 * 1024;

/** An unsupported `MCP-Protocol-Version` header is a 400 (docs/protocol.md, "Transport"). */
export const checkProtocolVersionHeader: RequestHandler = (req, res, next) => {
  const version = req.get('mcp-protocol-version');
  if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return next();
  sendJsonRpcError(
    res,
    400,
    ErrorCode.InvalidRequest,
    `Unsupported MCP-Protocol-Version ${quoted(version)}. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
  );
};

/**
 * Body-parser failures as docs/protocol.md ("Transport") lists them (413 for oversize bodies,
 * 400/-32700 for malformed JSON), each a client fault: answered with its own status and logged as
 * such, never as an error.
 */
export const bodyErrorsAsJsonRpc: ErrorRequestHandler = (error, req, res, next) => {
  const fault = bodyFault(error as BodyParserError, req.get('content-encoding'));
  if (fault === undefined) return next(error);
  requestState(res).logger.info('request body refused', {
    status: fault.status,
    reason: (error as BodyParserError).type ?? (error as BodyParserError).code,
  });
  sendJsonRpcError(res, fault.status, fault.code, fault.message);
};

/** The encodings a body may come in: the ones every supported Node reads (docs/protocol.md). */
const SERVED_CONTENT_ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);

/**
 * Refuses the encodings we do not serve before the body parser sees them, as it refuses those it
 * does not know: Node 24's zlib reads zstd and Node 20's does not, and the answer must not depend
 * on the Node a server runs on. Mounted before the body parser, so the body is never read.
 */
export const refuseUnservedEncodings: RequestHandler = (req, _res, next) => {
  const encoding = (req.get('content-encoding') ?? 'identity').toLowerCase();
  if (SERVED_CONTENT_ENCODINGS.has(encoding)) return next();
  next(
    Object.assign(new Error('unsupported content encoding'), { status: 415, type: 'encoding.unsupported' }),
  );
};

/** What body-parser (and zlib, through it) attaches to the errors it passes on. */
interface BodyParserError {
  type?: string;
  status?: number;
  code?: string;
  errno?: number;
  charset?: string;
}

function bodyFault(
  error: BodyParserError,
  contentEncoding: string | undefined,
): { status: number; code: number; message: string } | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return {
        status: 413,
        code: ErrorCode.InvalidRequest,
        message: 'The request body is larger than 1 MiB.',
      };
    case 'entity.parse.failed':
      return {
        status: 400,
        code: ErrorCode.ParseError,
        message: 'Parse error: the request body is not valid JSON.',
      };
    case 'encoding.unsupported':
      return {
        status: 415,
        code: ErrorCode.InvalidRequest,
        message: `Unsupported Content-Encoding ${quoted(contentEncoding ?? '')}. Send the body uncompressed, or with gzip, deflate or br.`,
      };
    case 'charset.unsupported':
      return {
        status: 415,
        code: ErrorCode.InvalidRequest,
        message: `Unsupported charset ${quoted(error.charset ?? '')}. Send the body as UTF-8 JSON.`,
      };
  }
  // An errno comes from zlib (gzip, deflate, br: the body is not what its encoding says), or from
  // a socket whose client has gone and reads no answer.
  if (typeof error.errno === 'number') {
    return {
      status: 400,
      code: ErrorCode.ParseError,
      message: `Parse error: the request body is not valid ${contentEncoding} data.`,
    };
  }
  if (error.status !== undefined && error.status >= 400 && error.status < 500) {
    return {
      status: error.status,
      code: ErrorCode.InvalidRequest,
      message: 'The request body could not be read completely.',
    };
  }
  return undefined;
}

/** One JSON-RPC request or notification per HTTP request; batches and other shapes are -32600. */
export const requireSingleJsonRpcMessage: RequestHandler = (req, res, next) => {
  const body: unknown = req.body;
  if (Array.isArray(body)) {
    return sendJsonRpcError(
      res,
      400,
      ErrorCode.InvalidRequest,
      'Invalid request: batches are not supported. Send one JSON-RPC request per HTTP request.',
    );
  }
  const message = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return sendJsonRpcError(
      res,
      400,
      ErrorCode.InvalidRequest,
      'Invalid request: the body must be a JSON-RPC 2.0 object with "jsonrpc": "2.0" and a "method".',
      requestIdOf(message),
    );
  }
  next();
};

/** The SDK's own schemas for the requests we serve: what passes here passes the SDK. */
const SERVED_REQUESTS = new Map<string, z.ZodType>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/templates/list', ListResourceTemplatesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
]);

/**
 * Checks the message as the SDK will, but answers in words naming the field: left to the SDK, a
 * bad envelope is -32700 "Parse error" and bad params of a served method are -32603 carrying the
 * validator's own text. A request whose `params` are wrong is -32602; anything else wrong is
 * -32600. Mounted after `requireSingleJsonRpcMessage`.
 */
export const requireWellFormedMessage: RequestHandler = (req, res, next) => {
  const message = req.body as Record<string, unknown> & { method: string };
  const isRequest = Object.hasOwn(message, 'id');
  const envelope = isRequest ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  const issue =
    envelope.safeParse(message).error?.issues[0] ??
    (isRequest ? SERVED_REQUESTS.get(message.method)?.safeParse(message).error?.issues[0] : undefined);
  if (issue === undefined) return next();
  const fault = describeIssue(message, issue);
  if (isRequest && issue.path[0] === 'params') {
    return sendJsonRpcError(
      res,
      200,
      ErrorCode.InvalidParams,
      `Invalid params: ${fault}.`,
      requestIdOf(message),
    );
  }
  sendJsonRpcError(res, 400, ErrorCode.InvalidRequest, `Invalid request: ${fault}.`, requestIdOf(message));
};

function describeIssue(message: Record<string, unknown>, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `${quoted(issue.keys.join('", "'))} ${issue.keys.length === 1 ? 'is' : 'are'} not a member of a JSON-RPC message`;
  }
  const field = quoted(issue.path.join('.'));
  if (valueAt(message, issue.path) === undefined) return `${field} is required`;
  if (issue.path.length === 1 && issue.path[0] === 'id') return `${field} must be a string or an integer`;
  if (issue.code === 'invalid_type')
    return `${field} must be ${EXPECTED_TYPES[issue.expected] ?? issue.expected}`;
  return `${field} is not valid`;
}

const EXPECTED_TYPES: Readonly<Record<string, string>> = {
  object: 'an object',
  record: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
};

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (node, key) =>
      typeof node === 'object' && node !== null && Object.hasOwn(node, key)
        ? (node as Record<PropertyKey, unknown>)[key]
        : undefined,
    value,
  );
}

function requestIdOf(message: Record<string, unknown>): string | number | null {
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
}

/** What the endpoint sends back for one JSON-RPC message. */
export interface McpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Answers `/mcp` once the caller is authenticated. `tools/call`, the request that carries nearly all
 * the traffic, is answered directly (`answerToolCall`); every other message goes through the SDK's
 * server (`answerWithSdk`), which owns the handshake and the listings.
 */
export function serveMcp(deps: Omit<McpServerDeps, 'caller'>): RequestHandler {
  return async (req: Request, res: Response) => {
    const state = requestState(res);
    if (state.principal === undefined) throw new Error('serveMcp mounted without authentication');
    const context: McpServerDeps = {
      ...deps,
      caller: { ...state.principal, requestId: state.requestId, logger: state.logger },
    };
    const message = req.body as Record<string, unknown>;
    const answer =
      message.method === 'tools/call' && Object.hasOwn(message, 'id')
        ? await answerToolCall(message as unknown as ToolCallRequest, context)
        : await answerWithSdk(message, context, req.get('mcp-protocol-version'));
    res.status(answer.status).set(answer.headers).end(answer.body);
  };
}

/**
 * Hands the message to a fresh SDK server and stateless transport, and returns its one JSON
 * answer. The transport gets a request built by us, so a script's `Accept` never causes a 406.
 */
export async function answerWithSdk(
  message: Record<string, unknown>,
  context: McpServerDeps,
  protocolVersion: string | undefined,
): Promise<McpAnswer> {
  const server = createMcpServer(context);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const headers = new Headers({ accept: TRANSPORT_ACCEPT, 'content-type': 'application/json' });
    if (protocolVersion !== undefined) headers.set('mcp-protocol-version', protocolVersion);
    const response = await transport.handleRequest(
      new Request(`${context.services.config.BASE_URL}/mcp`, { method: 'POST', headers }),
      { parsedBody: withServedProtocolVersion(message) },
    );
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
  } finally {
    await server.close();
  }
}

/** A `tools/call` request as `requireWellFormedMessage` has let it through. */
export interface ToolCallRequest {
  id: string | number;
  params: { name: string; arguments?: unknown };
}

/**
 * `tools/call` answered without building an SDK server and transport for it, which cost more CPU
 * than the rest of the call's own work: the message has already passed the SDK's own schema for
 * it (`requireWellFormedMessage`), and the tool runs exactly as under the SDK (`callTool`). The
 * answer is the one the SDK gives, byte for byte; test/integration/tool-call-answer.test.ts holds
 * the two side by side.
 */
export async function answerToolCall(message: ToolCallRequest, context: McpServerDeps): Promise<McpAnswer> {
  const { id } = message;
  try {
    const result = await callTool(context, message.params);
    // As JSON.stringify({ result, jsonrpc: '2.0', id }) writes it, the result's JSON made once.
    return jsonRpcAnswer(`{"result":${resultJson(result)},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
  } catch (error) {
    // Answered with HTTP 403 by the edge (src/http/auth-middleware.ts), not as JSON-RPC.
    if (error instanceof StepUpRequired) throw error;
    // As the SDK answers a handler that throws: the error's own code if it has one, else -32603.
    const { code, message: text, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    return jsonRpcAnswer(
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: {
          code: Number.isSafeInteger(code) ? code : ErrorCode.InternalError,
          message: typeof text === 'string' && text !== '' ? text : 'Internal error',
          ...(data !== undefined && { data }),
        },
      }),
    );
  }
}

function jsonRpcAnswer(body: string): McpAnswer {
  return { status: 200, headers: { 'content-type': 'application/json' }, body };
}

/**
 * The SDK would agree to the older revisions it knows; asking for one we do not serve gets the
 * latest instead, which is what MCP prescribes for an unsupported requested version.
 */
function withServedProtocolVersion(body: Record<string, unknown>): Record<string, unknown> {
  const params = body.params as { protocolVersion?: unknown } | undefined;
  if (body.method !== 'initialize' || typeof params?.protocolVersion !== 'string') return body;
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)) return body;
  return { ...body, params: { ...params, protocolVersion: LATEST_PROTOCOL_VERSION } };
}
