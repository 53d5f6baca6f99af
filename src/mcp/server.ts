import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { Services } from '../services.js';
import type { ToolCatalog } from './catalog.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { type Caller, runTool } from './run-tool.js';
import type { ViewResources } from './view-resources.js';

const SERVER_INFO = { name: 'hiring-leads', version: packageJson.version };

/**
 * The SDK would build a fresh Ajv (about a millisecond of CPU) for every per-request `Server`;
 * it only compiles schemas on demand, so one shared instance serves every request.
 */
const SHARED_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * MCP says a server that does not offer tasks processes a request carrying task metadata
 * (`params.task`) as a plain request, ignoring the metadata; the SDK's `Server` answers it with
 * -32603 instead. This server offers no tasks, so there is no capability to check.
 */
class TasklessServer extends Server {
  protected override assertTaskHandlerCapability(): void {
    // Nothing to assert: task metadata is ignored, as for any server without the tasks capability.
  }
}

/**
 * `tools/call` as MCP defines it (the SDK validates it so), as the handler receives it: the
 * arguments exactly as sent, since parsing them as a record would silently drop a `__proto__` key
 * that the tool must refuse as unknown; and without task metadata, which would make the SDK expect
 * a task as the result.
 */
const CallToolRequestAsSentSchema = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({
    arguments: z.unknown().optional(),
    task: z
      .unknown()
      .optional()
      .transform(() => undefined),
  }),
});

/** What one request's messages are answered with: the tools, the views, the caller, the stores. */
export interface McpServerDeps {
  catalog: ToolCatalog;
  viewResources: ViewResources;
  caller: Caller;
  services: Services;
  clock: () => Date;
}

/**
 * A low-level SDK server for one HTTP request (stateless: nothing survives the request). The
 * low-level `Server` rather than `McpServer`, so that unknown tools are JSON-RPC -32602 and bad
 * arguments are our own `invalid_argument` results. Its resources are the tools' views (MCP Apps):
 * reading one needs a credential like any request, but is no tool call, so it is neither metered
 * nor rate-limited.
 */
export function createMcpServer(deps: McpServerDeps): Server {
  const server = new TasklessServer(SERVER_INFO, {
    // Announced whatever the client: a stateless server never sees whether this client shows views.
    capabilities: { tools: {}, resources: {} },
    instructions: SERVER_INSTRUCTIONS,
    jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: deps.catalog.listing }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: deps.viewResources.listing }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    deps.viewResources.read(request.params.uri),
  );
  server.setRequestHandler(CallToolRequestAsSentSchema, (request) => callTool(deps, request.params));
  return server;
}

/**
 * `tools/call`: the named tool run on the arguments exactly as sent. An unknown tool is the
 * JSON-RPC error -32602, thrown as the SDK's `McpError`. Shared by the SDK server above and the
 * endpoint's direct answer to `tools/call` (src/http/mcp-endpoint.ts).
 */
export function callTool(
  deps: Omit<McpServerDeps, 'viewResources'>,
  params: { name: string; arguments?: unknown },
): Promise<CallToolResult> {
  const tool = deps.catalog.byName.get(params.name);
  if (tool === undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool "${params.name}". Call tools/list for the tools this server offers.`,
    );
  }
  return runTool(tool, params.arguments, deps.caller, deps.services, deps.clock);
}
