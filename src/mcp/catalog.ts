import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyToolDefinition } from '../tools/define-tool.js';

/**
 * The tools as `tools/list` shows them, plus a lookup by name; built once, shared by every request.
 * Pure (no server, no I/O), so the public surface can be snapshotted and documented without one.
 */
export interface ToolCatalog {
  listing: Tool[];
  byName: ReadonlyMap<string, AnyToolDefinition>;
}

export function createToolCatalog(tools: readonly AnyToolDefinition[]): ToolCatalog {
  return {
    listing: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Tool['inputSchema'],
      outputSchema: z.toJSONSchema(tool.outputSchema, { io: 'output' }) as Tool['outputSchema'],
      annotations: { title: tool.title, ...tool.annotations },
    })),
    byName: new Map(tools.map((tool) => [tool.name, tool])),
  };
}
