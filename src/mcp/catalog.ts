import type { Tool } from '@modelcontextprotocol/server';
import { toolJsonSchema } from '../schemas/json-schema.js';
import type { AnyToolDefinition, ToolView } from '../tools/define-tool.js';

/**
 * The tools as `tools/list` shows them, plus a lookup by name and the views they point at; built
 * once, shared by every request. Pure (no server, no I/O), so the public surface can be snapshotted
 * and documented without one.
 */
export interface ToolCatalog {
  listing: Tool[];
  byName: ReadonlyMap<string, AnyToolDefinition>;
  /** Each view once, however many tools show their results in it. */
  views: readonly ToolView[];
}

export function createToolCatalog(tools: readonly AnyToolDefinition[]): ToolCatalog {
  return {
    listing: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toolJsonSchema(tool.inputSchema, 'input') as Tool['inputSchema'],
      outputSchema: toolJsonSchema(tool.outputSchema, 'output') as Tool['outputSchema'],
      annotations: { title: tool.title, ...tool.annotations },
      ...(tool.view && { _meta: viewMeta(tool.view) }),
    })),
    byName: new Map(tools.map((tool) => [tool.name, tool])),
    views: [...new Map(tools.flatMap((tool) => (tool.view ? [[tool.view.uri, tool.view]] : []))).values()],
  };
}

/**
 * Where MCP Apps hosts find a tool's view: `ui.resourceUri`, and the flat key that hosts built on
 * earlier drafts of MCP Apps still read. Hosts without apps ignore `_meta`.
 */
function viewMeta(view: ToolView): Record<string, unknown> {
  return { ui: { resourceUri: view.uri }, 'ui/resourceUri': view.uri };
}
