import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tools } from '../../src/tools/registry.js';
import { connectClient } from '../support/mcp-client.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The `tools/list` answer, committed as pretty JSON so that any change to a tool's name,
 * description, schemas or annotations shows up in review. After an intended change:
 * `npx vitest run test/integration/tools-list.test.ts -u`, then read the diff.
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

it('tools/list matches the committed snapshot', async () => {
  const listing = await client.listTools();
  expect(listing.nextCursor).toBeUndefined();
  await expect(`${JSON.stringify(listing.tools, null, 2)}\n`).toMatchFileSnapshot(
    '../__snapshots__/tools-list.json',
  );
});
