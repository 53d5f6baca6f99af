import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createToolCatalog } from '../../src/mcp/catalog.js';
import { tools } from '../../src/tools/registry.js';
import { connectClient } from '../support/mcp-client.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The catalog's content is pinned by test/unit/tools-list.test.ts without a server; this checks
 * only what needs one: a client gets that catalog over HTTP, whole and on one page.
 */

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ tools });
  const { key } = await createAccountWithKey(server.services);
  client = await connectClient(server.url, key);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

it('tools/list over HTTP is the catalog, on one page', async () => {
  const listing = await client.listTools();
  expect(listing.nextCursor).toBeUndefined();
  expect(listing.tools).toEqual(createToolCatalog(tools).listing);
});
