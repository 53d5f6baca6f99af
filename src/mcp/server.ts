import {
  type CacheHint,
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { Services } from '../services.js';
import type { ToolCatalog } from './catalog.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { type Caller, runTool, StepUpRequired } from './run-tool.js';
import type { ViewResources } from './view-resources.js';

export const SERVER_INFO = { name: 'hiring-leads', version: packageJson.version };

/** The revision of the per-request envelope era (docs/protocol.md, "Protocol revisions"). */
export const MODERN_REVISION = '2026-07-28';

/** The revisions of the `initialize` era we serve; the SDK would also agree to two older ones. */
export const LEGACY_REVISIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/**
 * How long a client may keep what it lists (revision 2026-07-28 carries it as `ttlMs` and
 * `cacheScope`). The tools, the view and the instructions are the same for every caller whatever
 * the credential or the plan, and change only when a new version is deployed: any cache may keep
 * them an hour. Tool results, per account, are not cacheable results and carry no hint.
 */
const SHARED_FOR_AN_HOUR: CacheHint = { ttlMs: 60 * 60 * 1000, cacheScope: 'public' };

const CACHE_HINTS = {
  'server/discover': SHARED_FOR_AN_HOUR,
  'tools/list': SHARED_FOR_AN_HOUR,
  'resources/list': SHARED_FOR_AN_HOUR,
  'resources/templates/list': SHARED_FOR_AN_HOUR,
  'resources/read': SHARED_FOR_AN_HOUR,
} as const;

/**
 * `tools/call` params as the handler receives them: the arguments exactly as sent, since parsing
 * them as a record would silently drop a `__proto__` key that the tool must refuse as unknown. The
 * endpoint has already held the message to MCP's own schema (src/http/mcp-endpoint.ts).
 */
const CallToolParamsAsSent = z.looseObject({ name: z.string(), arguments: z.unknown().optional() });

/** What one request's messages are answered with: the tools, the views, the caller, the stores. */
export interface McpServerDeps {
  catalog: ToolCatalog;
  viewResources: ViewResources;
  caller: Caller;
  services: Services;
  clock: () => Date;
  /** Set when a tool run through the SDK needs a scope the OAuth client can step up to. */
  stepUp?: StepUpRequired;
}

/**
 * A low-level SDK server for one HTTP request, of either era (stateless: nothing survives the
 * request). The low-level `Server` rather than `McpServer`, so that unknown tools are JSON-RPC
 * -32602 and bad arguments are our own `invalid_argument` results. Its resources are the tools'
 * views (MCP Apps): reading one needs a credential like any request, but is no tool call, so it is
 * neither metered nor rate-limited. Task metadata (`params.task`) is ignored, as MCP says a server
 * without the tasks capability does.
 */
export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server(SERVER_INFO, {
    // Announced whatever the client: a stateless server never sees whether this client shows views.
    capabilities: { tools: {}, resources: {} },
    instructions: SERVER_INSTRUCTIONS,
    supportedProtocolVersions: [...LEGACY_REVISIONS, MODERN_REVISION],
    cacheHints: CACHE_HINTS,
  });
  server.setRequestHandler('tools/list', () => ({ tools: deps.catalog.listing }));
  server.setRequestHandler('resources/list', () => ({ resources: deps.viewResources.listing }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', (request) => deps.viewResources.read(request.params.uri));
  server.setRequestHandler('tools/call', { params: CallToolParamsAsSent }, async (params) => {
    try {
      return await callTool(deps, params);
    } catch (error) {
      // The SDK would answer it as JSON-RPC; the endpoint answers the HTTP 403 challenge instead.
      if (error instanceof StepUpRequired) deps.stepUp = error;
      throw error;
    }
  });
  return server;
}

/**
 * `tools/call`: the named tool run on the arguments exactly as sent. An unknown tool is the
 * JSON-RPC error -32602, thrown as the SDK's `ProtocolError`. Shared by the SDK server above and the
 * endpoint's direct answer to `tools/call` (src/http/mcp-endpoint.ts).
 */
export function callTool(
  deps: Omit<McpServerDeps, 'viewResources'>,
  params: { name: string; arguments?: unknown },
): Promise<CallToolResult> {
  const tool = deps.catalog.byName.get(params.name);
  if (tool === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown tool "${params.name}". Call tools/list for the tools this server offers.`,
    );
  }
  return runTool(tool, params.arguments, deps.caller, deps.services, deps.clock);
}
