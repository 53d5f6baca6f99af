import {
  classifyInboundRequest,
  createMcpHandler,
  type McpHttpHandler,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  specTypeSchemas,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { Logger } from '../logger.js';
import { StepUpRequired } from '../mcp/run-tool.js';
import {
  callTool,
  createMcpServer,
  LEGACY_REVISIONS,
  type McpServerDeps,
  MODERN_REVISION,
  SERVER_INFO,
} from '../mcp/server.js';
import { resultJson } from '../mcp/tool-result.js';
import { type McpEra, quoted, requestState, sendJsonRpcError } from './request-state.js';

/** Both forms the SDK's transports insist on, whatever the client sent: scripts often send neither. */
const TRANSPORT_ACCEPT = 'application/json, text/event-stream';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Which era a message belongs to, decided by the SDK's own classifier (a `_meta` envelope naming a
 * revision makes it 2026-07-28 traffic; none, the 2025 revisions'). What the classifier refuses
 * (a malformed envelope, `MCP-Protocol-Version` or `Mcp-Method` disagreeing with the body) is
 * answered as the SDK answers it: 400 with its code, message and data, and the request's id. A
 * message that is no valid JSON-RPC request is left to `requireJsonRpcMembers`, which names the
 * member at fault; its era is the one its `MCP-Protocol-Version` header names.
 */
export const classifyEra: RequestHandler = (req, res, next) => {
  const body = req.body as Record<string, unknown>;
  const protocolVersion = req.get('mcp-protocol-version');
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: protocolVersion,
    mcpMethodHeader: req.get('mcp-method'),
    mcpNameHeader: req.get('mcp-name'),
    body,
  });
  const state = requestState(res);
  if (outcome.kind === 'reject' && outcome.rung !== 'jsonrpc-shape') {
    return sendJsonRpcError(
      res,
      outcome.httpStatus,
      outcome.code,
      outcome.message,
      requestIdOf(body),
      outcome.data,
    );
  }
  if (outcome.kind === 'modern') {
    state.era = { kind: 'modern', revision: outcome.classification.revision };
  } else if (outcome.kind === 'reject' && protocolVersion === MODERN_REVISION) {
    state.era = { kind: 'modern', revision: protocolVersion };
  } else {
    state.era = { kind: 'legacy' };
  }
  next();
};

/**
 * A 2025-era message with an `MCP-Protocol-Version` header naming a revision we do not serve is a
 * 400 (docs/protocol.md, "Transport"); the 2026-07-28 era's versions are the SDK's to judge.
 */
export const checkProtocolVersionHeader: RequestHandler = (req, res, next) => {
  const version = req.get('mcp-protocol-version');
  if (eraOf(res).kind === 'modern' || version === undefined || LEGACY_REVISIONS.includes(version))
    return next();
  sendJsonRpcError(
    res,
    400,
    ProtocolErrorCode.InvalidRequest,
    `Unsupported MCP-Protocol-Version ${quoted(version)}. Supported: ${[...LEGACY_REVISIONS].reverse().join(', ')}, ${MODERN_REVISION}.`,
    requestIdOf(req.body as Record<string, unknown>),
  );
};

function eraOf(res: Response): McpEra {
  const era = requestState(res).era;
  if (era === undefined) throw new Error('mounted before classifyEra');
  return era;
}

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
        code: ProtocolErrorCode.InvalidRequest,
        message: 'The request body is larger than 1 MiB.',
      };
    case 'entity.parse.failed':
      return {
        status: 400,
        code: ProtocolErrorCode.ParseError,
        message: 'Parse error: the request body is not valid JSON.',
      };
    case 'encoding.unsupported':
      return {
        status: 415,
        code: ProtocolErrorCode.InvalidRequest,
        message: `Unsupported Content-Encoding ${quoted(contentEncoding ?? '')}. Send the body uncompressed, or with gzip, deflate or br.`,
      };
    case 'charset.unsupported':
      return {
        status: 415,
        code: ProtocolErrorCode.InvalidRequest,
        message: `Unsupported charset ${quoted(error.charset ?? '')}. Send the body as UTF-8 JSON.`,
      };
  }
  // An errno comes from zlib (gzip, deflate, br: the body is not what its encoding says), or from
  // a socket whose client has gone and reads no answer.
  if (typeof error.errno === 'number') {
    return {
      status: 400,
      code: ProtocolErrorCode.ParseError,
      message: `Parse error: the request body is not valid ${contentEncoding} data.`,
    };
  }
  if (error.status !== undefined && error.status >= 400 && error.status < 500) {
    return {
      status: error.status,
      code: ProtocolErrorCode.InvalidRequest,
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
      ProtocolErrorCode.InvalidRequest,
      'Invalid request: batches are not supported. Send one JSON-RPC request per HTTP request.',
    );
  }
  const message = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return sendJsonRpcError(
      res,
      400,
      ProtocolErrorCode.InvalidRequest,
      'Invalid request: the body must be a JSON-RPC 2.0 object with "jsonrpc": "2.0" and a "method".',
      requestIdOf(message),
    );
  }
  next();
};

/** A schema of the SDK's, as `specTypeSchemas` holds them: zod underneath, so its issues are zod's. */
interface SpecSchema {
  '~standard': { validate(value: unknown): { issues?: readonly unknown[] | undefined } };
}

/** The SDK's own schemas for the requests each era serves: what passes here passes the SDK. */
const LISTINGS: ReadonlyArray<[string, SpecSchema]> = [
  ['tools/list', specTypeSchemas.ListToolsRequest],
  ['tools/call', specTypeSchemas.CallToolRequest],
  ['resources/list', specTypeSchemas.ListResourcesRequest],
  ['resources/templates/list', specTypeSchemas.ListResourceTemplatesRequest],
  ['resources/read', specTypeSchemas.ReadResourceRequest],
];
const SERVED_REQUESTS: Readonly<Record<McpEra['kind'], ReadonlyMap<string, SpecSchema>>> = {
  legacy: new Map([
    ['initialize', specTypeSchemas.InitializeRequest],
    ['ping', specTypeSchemas.PingRequest],
    ...LISTINGS,
  ]),
  // 2026-07-28 has no `initialize` or `ping` (the SDK answers them 404, -32601 as the revision says).
  modern: new Map([
    ['server/discover', specTypeSchemas.DiscoverRequest],
    ['subscriptions/listen', specTypeSchemas.SubscriptionsListenRequest],
    ...LISTINGS,
  ]),
};

/** The first issue zod finds, as the SDK's Standard Schema face passes it on. */
function firstIssue(schema: SpecSchema | undefined, value: unknown): z.core.$ZodIssue | undefined {
  return schema?.['~standard'].validate(value).issues?.[0] as z.core.$ZodIssue | undefined;
}

/**
 * Checks the message as the SDK will, but answers in words naming the field: left to the SDK, a
 * bad envelope is -32700 "Parse error" or -32600 "not a valid JSON-RPC message", and bad params of
 * a served method are -32602 or -32603 carrying the validator's own text. A request whose `params`
 * are wrong is -32602; anything else wrong is -32600. First the JSON-RPC members
 * (`requireJsonRpcMembers`), then the params of the methods the message's era serves
 * (`requireServedParams`); the same for both eras.
 */
export const requireJsonRpcMembers: RequestHandler = (req, res, next) => {
  const message = req.body as Record<string, unknown>;
  const envelope = Object.hasOwn(message, 'id')
    ? specTypeSchemas.JSONRPCRequest
    : specTypeSchemas.JSONRPCNotification;
  refuseIssue(res, message, firstIssue(envelope, message)) || next();
};

/** The params of a request, against the SDK's schema for its method in the message's era. */
export const requireServedParams: RequestHandler = (req, res, next) => {
  const message = req.body as Record<string, unknown> & { method: string };
  if (!Object.hasOwn(message, 'id')) return next();
  const schema = SERVED_REQUESTS[eraOf(res).kind].get(message.method);
  refuseIssue(res, message, firstIssue(schema, message)) || next();
};

/** Answers the issue, if there is one, and says whether it did. */
function refuseIssue(
  res: Response,
  message: Record<string, unknown>,
  issue: z.core.$ZodIssue | undefined,
): boolean {
  if (issue === undefined) return false;
  const fault = describeIssue(message, issue);
  if (Object.hasOwn(message, 'id') && issue.path[0] === 'params') {
    sendJsonRpcError(
      res,
      200,
      ProtocolErrorCode.InvalidParams,
      `Invalid params: ${fault}.`,
      requestIdOf(message),
    );
  } else {
    sendJsonRpcError(
      res,
      400,
      ProtocolErrorCode.InvalidRequest,
      `Invalid request: ${fault}.`,
      requestIdOf(message),
    );
  }
  return true;
}

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
 * The headers of a 2026-07-28 request that the SDK checks against its body (`Mcp-Method`,
 * `Mcp-Name`) and the revision it names, as the client sent them.
 */
export interface McpHeaders {
  protocolVersion?: string | undefined;
  method?: string | undefined;
  name?: string | undefined;
}

function mcpHeadersOf(req: Request): McpHeaders {
  return {
    protocolVersion: req.get('mcp-protocol-version'),
    method: req.get('mcp-method'),
    name: req.get('mcp-name'),
  };
}

/**
 * Answers `/mcp` once the caller is authenticated and the message classified. `tools/call`, the
 * request that carries nearly all the traffic, is answered directly (`answerToolCall`) whenever the
 * SDK would run it; every other message goes through the SDK (`sdkAnswers`), which owns the
 * handshake, discovery, the listings and every refusal of the 2026-07-28 revision.
 */
export function serveMcp(deps: Omit<McpServerDeps, 'caller'> & { logger: Logger }): RequestHandler {
  const { logger, ...serverDeps } = deps;
  const answerWithSdk = sdkAnswers(serverDeps.services.config.BASE_URL, logger);
  return async (req: Request, res: Response) => {
    const state = requestState(res);
    if (state.principal === undefined) throw new Error('serveMcp mounted without authentication');
    const context: McpServerDeps = {
      ...serverDeps,
      caller: { ...state.principal, requestId: state.requestId, logger: state.logger },
    };
    const era = eraOf(res);
    const headers = mcpHeadersOf(req);
    const message = req.body as Record<string, unknown>;
    const answer = isAnsweredDirectly(message, era, headers)
      ? await answerToolCall(message, context, era.kind)
      : await answerWithSdk(message, context, era.kind, headers);
    // A tool the SDK ran needed a scope the client can step up to: the 403, not the SDK's answer.
    if (context.stepUp !== undefined) throw context.stepUp;
    // The SDK reports why to `sdkAnswers`' logger at debug level; a fault of its own is ours to see.
    if (answer.status >= 500)
      state.logger.error('the MCP SDK answered with a server error', { status: answer.status });
    res.status(answer.status).set(answer.headers).end(answer.body);
  };
}

/** Answers one message through the SDK, as `sdkAnswers` builds it. */
export type SdkAnswer = (
  message: Record<string, unknown>,
  context: McpServerDeps,
  era: McpEra['kind'],
  headers: McpHeaders,
) => Promise<McpAnswer>;

/**
 * Answers through a fresh SDK server per message, one factory for both eras: the SDK's
 * `createMcpHandler` for 2026-07-28 (strict: it refuses what is not of that era, which the endpoint
 * never hands it), and for the 2025 revisions a stateless transport answering in JSON, as the SDK
 * documents for keeping 2025 traffic beside it. (Its own 2025 fallback would answer with event
 * streams.) Each gets a request built by us, so a script's `Accept` never causes a 406.
 */
export function sdkAnswers(baseUrl: string, logger: Logger): SdkAnswer {
  const url = `${baseUrl}/mcp`;
  // The handler calls the factory with the request it was given: that request finds its context.
  const contexts = new WeakMap<globalThis.Request, McpServerDeps>();
  const reportError = (error: Error) =>
    logger.debug('MCP request refused by the SDK', { reason: error.message });
  const modern: McpHttpHandler = createMcpHandler(
    ({ requestInfo }) => {
      const context = requestInfo === undefined ? undefined : contexts.get(requestInfo);
      if (context === undefined) throw new Error('an MCP request without its context');
      return createMcpServer(context);
    },
    { legacy: 'reject', onerror: reportError },
  );
  return async (message, context, era, headers) => {
    const sent = new Headers({ accept: TRANSPORT_ACCEPT, 'content-type': 'application/json' });
    if (headers.protocolVersion !== undefined) sent.set('mcp-protocol-version', headers.protocolVersion);
    let response: globalThis.Response;
    if (era === 'modern') {
      if (headers.method !== undefined) sent.set('mcp-method', headers.method);
      if (headers.name !== undefined) sent.set('mcp-name', headers.name);
      const request = new globalThis.Request(url, { method: 'POST', headers: sent });
      contexts.set(request, context);
      response = await modern.fetch(request, { parsedBody: message });
    } else {
      const server = createMcpServer(context);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      transport.onerror = reportError;
      try {
        await server.connect(transport);
        response = await transport.handleRequest(
          new globalThis.Request(url, { method: 'POST', headers: sent }),
          {
            parsedBody: message,
          },
        );
      } finally {
        await server.close();
      }
    }
    // A 2026-07-28 `subscriptions/listen` is an event stream by the revision; it ends at once here
    // (nothing of this server changes while it runs), so it is read whole like any other answer.
    const { connection: _hopByHop, ...answerHeaders } = Object.fromEntries(response.headers);
    return { status: response.status, headers: answerHeaders, body: await response.text() };
  };
}

/** A `tools/call` request as `requireServedParams` has let it through. */
export interface ToolCallRequest {
  id: string | number;
  params: { name: string; arguments?: unknown };
}

/**
 * Whether the SDK would run this message's tool: a `tools/call` request, and for 2026-07-28 one
 * whose headers the SDK accepts as they stand (the revision it serves, `MCP-Protocol-Version` and
 * `Mcp-Method` present, `Mcp-Name` the tool's name written plainly). Anything else, the SDK answers.
 */
function isAnsweredDirectly(
  message: Record<string, unknown>,
  era: McpEra,
  headers: McpHeaders,
): message is Record<string, unknown> & ToolCallRequest {
  if (message.method !== 'tools/call' || !Object.hasOwn(message, 'id')) return false;
  if (era.kind === 'legacy') return true;
  return (
    era.revision === MODERN_REVISION &&
    headers.protocolVersion !== undefined &&
    headers.method !== undefined &&
    headers.name === (message.params as ToolCallRequest['params']).name &&
    !headers.name.startsWith('=?base64?')
  );
}

/** What 2026-07-28 adds to every result: its type, and who answered. */
const MODERN_RESULT_TAIL = `,"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: SERVER_INFO })}}`;

/**
 * `tools/call` answered without building an SDK server and transport for it, which cost more CPU
 * than the rest of the call's own work (docs/performance.md, "`tools/call` without a per-request
 * SDK server"): the message has already passed the SDK's own checks for it (`classifyEra`,
 * `requireServedParams`, `isAnsweredDirectly`), and the tool runs exactly as under the SDK
 * (`callTool`). The answer is the one the SDK gives in that era, byte for byte;
 * test/integration/tool-call-answer.test.ts holds the two side by side.
 */
export async function answerToolCall(
  message: ToolCallRequest,
  context: McpServerDeps,
  era: McpEra['kind'],
): Promise<McpAnswer> {
  const { id } = message;
  try {
    const result = resultJson(await callTool(context, message.params));
    // As JSON.stringify({ result, jsonrpc: '2.0', id }) writes it, the result's JSON made once.
    const encoded = era === 'modern' ? `${result.slice(0, -1)}${MODERN_RESULT_TAIL}` : result;
    return jsonRpcAnswer(`{"result":${encoded},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
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
          code: Number.isSafeInteger(code) ? code : ProtocolErrorCode.InternalError,
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
