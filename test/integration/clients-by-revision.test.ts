import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERN_REVISION } from '../../src/mcp/server.js';
import { tools } from '../../src/tools/registry.js';
import { connectClientV2 } from '../support/mcp-client.js';
import type { Json } from '../support/seeded-data.js';
import { startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);

/** The stdio transport, keeping the revision the v1 client tells it after `initialize`. */
class RecordingStdioTransport extends StdioClientTransport {
  agreedRevision: string | undefined;
  setProtocolVersion(version: string): void {
    this.agreedRevision = version;
  }
}
const TOOL_NAMES = tools.map((tool) => tool.name);
const SEARCH = { name: 'search_leads', arguments: { page_size: 2 } };

/** What a client says it called and saw: the protocol revision, the tools, a metered page. */
interface Seen {
  revision: string | undefined;
  tools: string[];
  page: Json;
}

/**
 * Every kind of client this server is used from, on each revision it speaks (docs/protocol.md,
 * "Protocol revisions"): the SDK's v2 client pinned to 2026-07-28 and negotiating (`auto`), the
 * v1 client and mcp-remote (2025-11-25), and curl speaking either by hand. Each lists the tools
 * and calls `search_leads`, which charges the account's lead explores: at the end the account has
 * been charged exactly what every client was served.
 */
describe('clients of both protocol eras', () => {
  let server: TestServer;
  let key: string;
  const served: number[] = [];

  beforeAll(async () => {
    server = await startSeededServer();
    ({ key } = await createAccountWithKey(server.services, { plan: 'growth', callsPerMinute: 10_000 }));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** What an SDK client, of either major version, lists and gets for one metered call. */
  async function listAndCall(
    client: {
      listTools(): Promise<{ tools: { name: string }[] }>;
      callTool(call: typeof SEARCH): Promise<unknown>;
    },
    revision: string | undefined,
  ): Promise<Seen> {
    const { tools: listed } = await client.listTools();
    const page = (await client.callTool(SEARCH)) as { isError?: boolean; structuredContent?: Json };
    expect(page.isError).toBeFalsy();
    return { revision, tools: listed.map((tool) => tool.name), page: page.structuredContent };
  }

  function expectMetered(seen: Seen, revision: string): void {
    expect(seen.revision).toBe(revision);
    expect(seen.tools).toEqual(TOOL_NAMES);
    expect(seen.page).toMatchObject({ returned: 2, quota: { used: expect.any(Number) } });
    served.push(seen.page.returned);
  }

  it.each([
    ['pinned to 2026-07-28', { pin: MODERN_REVISION }, MODERN_REVISION],
    ['negotiating (auto)', 'auto', MODERN_REVISION],
    ['in its 2025 mode (legacy)', 'legacy', '2025-11-25'],
  ] as const)('the v2 SDK client %s', async (_mode, mode, revision) => {
    const client = await connectClientV2(server.url, key, mode);
    try {
      expectMetered(await listAndCall(client, client.getNegotiatedProtocolVersion()), revision);
    } finally {
      await client.close();
    }
  });

  it('the v1 SDK client', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    const client = new Client({ name: 'v1-client', version: '1.0.0' });
    await client.connect(transport);
    try {
      expectMetered(await listAndCall(client, transport.protocolVersion), '2025-11-25');
    } finally {
      await client.close();
    }
  });

  it('mcp-remote, the stdio bridge desktop clients run', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'hl-revisions-mcp-remote-'));
    const transport = new RecordingStdioTransport({
      command: 'npx',
      args: [
        '--no-install',
        'mcp-remote',
        server.url,
        '--transport',
        'http-only',
        '--header',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote replaces ${AUTH_HEADER} from its environment
        'Authorization:${AUTH_HEADER}',
      ],
      cwd: process.cwd(),
      env: { HOME: home, PATH: process.env.PATH ?? '', AUTH_HEADER: `Bearer ${key}` },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'desktop-client-via-mcp-remote', version: '1.0.0' });
    try {
      await client.connect(transport).catch((error: unknown) => {
        throw new Error(`mcp-remote failed: ${String(error)}\n${stderr}`);
      });
      // mcp-remote relays the handshake: the revision the client agreed on is the server's.
      const seen = await listAndCall(client, undefined);
      expectMetered({ ...seen, revision: transport.agreedRevision }, '2025-11-25');
    } finally {
      await client.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  /** One request with curl, as a script sends it: the JSON-RPC answer. */
  async function curl(body: Json, headers: Record<string, string> = {}): Promise<Json> {
    const { stdout } = await run('curl', [
      '-s',
      server.url,
      '-H',
      `Authorization: Bearer ${key}`,
      '-H',
      'Content-Type: application/json',
      '-H',
      'Accept: application/json',
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
      '-d',
      JSON.stringify(body),
    ]);
    return JSON.parse(stdout);
  }

  it('curl, with no envelope (the 2025 revisions, no initialize needed)', async () => {
    const listed = await curl({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const called = await curl({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: SEARCH });
    expect(called.result.resultType).toBeUndefined();
    expectMetered(
      {
        revision: '2025-11-25',
        tools: listed.result.tools.map((tool: Json) => tool.name),
        page: called.result.structuredContent,
      },
      '2025-11-25',
    );
  });

  it('curl, with the 2026-07-28 envelope and headers', async () => {
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = { 'MCP-Protocol-Version': MODERN_REVISION };
    const listed = await curl(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta } },
      { ...headers, 'Mcp-Method': 'tools/list' },
    );
    const called = await curl(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { ...SEARCH, _meta } },
      { ...headers, 'Mcp-Method': 'tools/call', 'Mcp-Name': SEARCH.name },
    );
    expect(listed.result).toMatchObject({ resultType: 'complete', cacheScope: 'public', ttlMs: 3_600_000 });
    expect(called.result).toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hiring-leads' } },
    });
    expect(called.result).not.toHaveProperty('cacheScope');
    expectMetered(
      {
        revision: MODERN_REVISION,
        tools: listed.result.tools.map((tool: Json) => tool.name),
        page: called.result.structuredContent,
      },
      MODERN_REVISION,
    );
  });

  it('charged the account exactly the leads every client was served', async () => {
    const usage = await curl({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'get_account_usage' },
    });
    expect(served).toHaveLength(7);
    expect(usage.result.structuredContent.daily_quotas.lead_explores.used).toBe(
      served.reduce((sum, count) => sum + count, 0),
    );
  });
});
