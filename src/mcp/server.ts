import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { Services } from '../services.js';
import type { ToolCatalog } from './catalog.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { type Caller, runTool } from './run-tool.js';

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

/**
 * A low-level SDK server for one HTTP request (stateless: nothing survives the request). The
 * low-level `Server` rather than `McpServer`, so that unknown tools are JSON-RPC -32602 and bad
 * arguments are our own `invalid_argument` results.
 */
export function createMcpServer(deps: {
  catalog: ToolCatalog;
  caller: Caller;
  services: Services;
  clock: () => Date;
}): Server {
  const server = new TasklessServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: SERVER_INSTRUCTIONS,
    jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: deps.catalog.listing }));
  server.setRequestHandler(CallToolRequestAsSentSchema, (request) => {
    const tool = deps.catalog.byName.get(request.params.name);
    if (tool === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}". Call tools/list for the tools this server offers.`,
      );
    }
    return runTool(tool, request.params.arguments, deps.caller, deps.services, deps.clock);
  });
  return server;
}
