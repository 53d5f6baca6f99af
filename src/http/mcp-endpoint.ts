import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { createMcpServer, type ToolCatalog } from '../mcp/server.js';
import type { Services } from '../mcp/services.js';
import { requestState, sendJsonRpcError } from './request-state.js';

/** The revisions the contract serves; the SDK itself would also accept two older ones. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-03-26', '2025-06-18', '2025-11-25'];

/** Both forms the transport insists on, whatever the client sent: scripts often send neither. */
const TRANSPORT_ACCEPT = 'application/json, text/event-stream';

export const MAX_BODY_BYTES = 1024 * 1024;

/** An unsupported `MCP-Protocol-Version` header is a 400 (CONTRACT §1). */
export const checkProtocolVersionHeader: RequestHandler = (req, res, next) => {
  const version = req.get('mcp-protocol-version');
  if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return next();
  sendJsonRpcError(
    res,
    400,
    ErrorCode.InvalidRequest,
    `Unsupported MCP-Protocol-Version "${version}". Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
  );
};

/** Body-parser failures in the contract's words: 413 for oversize bodies, 400/-32700 for malformed JSON. */
export const bodyErrorsAsJsonRpc: ErrorRequestHandler = (error, _req, res, next) => {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') {
    return sendJsonRpcError(res, 413, ErrorCode.InvalidRequest, 'The request body is larger than 1 MiB.');
  }
  if (type === 'entity.parse.failed') {
    return sendJsonRpcError(
      res,
      400,
      ErrorCode.ParseError,
      'Parse error: the request body is not valid JSON.',
    );
  }
  next(error);
};

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
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return sendJsonRpcError(
      res,
      400,
      ErrorCode.InvalidRequest,
      'Invalid request: the body must be a JSON-RPC 2.0 object with "jsonrpc": "2.0" and a "method".',
      id,
    );
  }
  next();
};

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
