import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { ToolCatalog } from '../mcp/catalog.js';
import { createMcpServer } from '../mcp/server.js';
import type { Services } from '../services.js';
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

/**
 * Hands the request to a fresh SDK server and stateless transport, and copies the one JSON answer
 * back. The transport gets a request built by us, so a script's `Accept` never causes a 406.
 */
export function serveMcp(deps: {
  catalog: ToolCatalog;
  services: Services;
  clock: () => Date;
}): RequestHandler {
  return async (req: Request, res: Response) => {
    const state = requestState(res);
    if (state.principal === undefined) throw new Error('serveMcp mounted without authentication');
    const server = createMcpServer({
      catalog: deps.catalog,
      caller: { ...state.principal, requestId: state.requestId, logger: state.logger },
      services: deps.services,
      clock: deps.clock,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const headers = new Headers({ accept: TRANSPORT_ACCEPT, 'content-type': 'application/json' });
      const version = req.get('mcp-protocol-version');
      if (version !== undefined) headers.set('mcp-protocol-version', version);
      const response = await transport.handleRequest(
        new Request(`${deps.services.config.BASE_URL}/mcp`, { method: 'POST', headers }),
        { parsedBody: withServedProtocolVersion(req.body) },
      );
      res.status(response.status);
      response.headers.forEach((value, name) => {
        res.setHeader(name, value);
      });
      res.end(await response.text());
    } finally {
      await server.close();
    }
  };
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
