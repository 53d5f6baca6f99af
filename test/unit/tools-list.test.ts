import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import { createToolCatalog } from '../../src/mcp/catalog.js';
import { tools } from '../../src/tools/registry.js';

/**
 * The `tools/list` answer, built from the catalog alone and committed as pretty JSON, so that any
 * change to a tool's name, title, description, schemas or annotations shows up in review. It is
 * read through the SDK's `tools/list` result schema, as an MCP client reads it: that checks the
 * listing is valid MCP and gives the keys the order clients see. After an intended change:
 * `npx vitest run test/unit/tools-list.test.ts -u`, read the diff, and run `npm run docs`
 * (docs/tools.md is generated from the same catalog).
 */
it('tools/list matches the committed snapshot', async () => {
  const { tools: listing } = ListToolsResultSchema.parse({ tools: createToolCatalog(tools).listing });
  await expect(`${JSON.stringify(listing, null, 2)}\n`).toMatchFileSnapshot(
    '../__snapshots__/tools-list.json',
  );
});
