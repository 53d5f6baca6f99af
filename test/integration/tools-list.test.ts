import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createToolCatalog } from '../../src/mcp/catalog.js';
import { tools } from '../../src/tools/registry.js';
import { connectClient } from '../support/mcp-client.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The catalog's content is pinned by test/unit/tools-list.test.ts without a server; this checks
 * only what needs one: a client gets that catalog over HTTP, whole and on one page, and the MCP
 * Inspector finds nothing to warn about in its schemas.
 */

const run = promisify(execFile);

let server: TestServer;
let key: string;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ tools });
  ({ key } = await createAccountWithKey(server.services));
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

/**
 * The Inspector's `--strict` report of tool-schema portability (the dev dependency, 2.12.0): a
 * node without a validation keyword, a `type` array, a remote `$ref` or a bare boolean schema is
 * reported on stderr, as a warning or an error. Clients with strict schema subsets (several model
 * providers' tool-calling APIs) reject or mangle such schemas; ours must give it nothing to say.
 */
it('the MCP Inspector reports no schema portability finding for any tool', async () => {
  const { stdout, stderr } = await run(
    'npx',
    [
      '--no-install',
      '@modelcontextprotocol/inspector',
      '--cli',
      server.url,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${key}`,
      '--method',
      'tools/list',
      '--strict',
    ],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 120_000 },
  );
  expect(JSON.parse(stdout).tools.map((tool: { name: string }) => tool.name)).toEqual(
    tools.map((tool) => tool.name),
  );
  expect(stderr).not.toMatch(/Warning:|Error:|portability/i);
}, 150_000);
