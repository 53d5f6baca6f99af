import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PINNED_PACKAGES } from '../../scripts/clients/setups.js';
import { BUILT_VIEWS } from '../../scripts/views/build-views.js';
import { callToolRaw, connectClient, postRaw } from '../support/mcp-client.js';
import { callOk, connectSeededClient, type Json, startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, type TestServer } from '../support/test-server.js';

/**
 * The market-insights view as MCP Apps hosts discover and fetch it, through the SDK's client over
 * HTTP (docs/protocol.md, "Resources"); what it does in a host is
 * test/integration/market-insights-view-browser.test.ts.
 */

const VIEW_URI = 'ui://market-insights/view.html';
const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
const VIEW_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };
const jsonHeaders = { 'Content-Type': 'application/json', Accept: 'application/json' };

let server: TestServer;
let client: Client;
let key: string;

beforeAll(async () => {
  server = await startSeededServer();
  ({ client, key } = await connectSeededClient(server));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('discovery', () => {
  it('announces the resources capability besides tools', () => {
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
  });

  it('points get_market_insights, and no other tool, at the view in tools/list', async () => {
    const { tools } = await client.listTools();
    const withMeta = tools.filter((tool) => tool._meta !== undefined);
    expect(withMeta.map((tool) => tool.name)).toEqual(['get_market_insights']);
    expect(withMeta[0]?._meta).toEqual({ ui: { resourceUri: VIEW_URI }, 'ui/resourceUri': VIEW_URI });
  });

  it('lists the view as an MCP App resource, with its security metadata', async () => {
    const { resources, nextCursor } = await client.listResources();
    expect(nextCursor).toBeUndefined();
    expect(resources).toEqual([
      {
        uri: VIEW_URI,
        name: 'market-insights',
        title: 'Market insights chart',
        description: expect.stringContaining('get_market_insights'),
        mimeType: VIEW_MIME_TYPE,
        _meta: VIEW_META,
      },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
  });
});

describe('resources/read', () => {
  it('returns the built document, whole and self-contained', async () => {
    const { contents } = await client.readResource({ uri: VIEW_URI });
    const built = readFileSync(`${BUILT_VIEWS}/market-insights.html`, 'utf8');
    expect(contents).toEqual([{ uri: VIEW_URI, mimeType: VIEW_MIME_TYPE, text: built, _meta: VIEW_META }]);
    expect(built).toMatch(/^<!doctype html>/i);
    expect(built).toContain('<meta name="color-scheme" content="light dark" />');
    expect(Buffer.byteLength(built)).toBeLessThan(1024 * 1024);
    // Nothing to fetch: no element loads a file, and the styles import none.
    expect(built).not.toMatch(/<(script|link|img|iframe)\b[^>]*\s(src|href)=/i);
    expect(built).not.toContain('@import');
  });

  it('answers an unknown URI with -32602 naming it', async () => {
    const uri = 'ui://market-insights/other.html';
    const refusal = await client.readResource({ uri }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(McpError);
    expect(refusal).toMatchObject({ code: -32602, message: expect.stringContaining(`"${uri}"`) });
  });

  it('answers a read without a URI with -32602 naming the field', async () => {
    const answer = await postRaw(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: {} },
      { token: key, headers: jsonHeaders },
    );
    expect(answer.json).toMatchObject({
      id: 1,
      error: { code: -32602, message: 'Invalid params: "params.uri" is required.' },
    });
  });

  it('needs a valid credential', async () => {
    const answer = await postRaw(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: VIEW_URI } },
      { headers: jsonHeaders },
    );
    expect(answer.status).toBe(401);
  });

  it('is no tool call: any account reads it, and no quota or rate limit is spent', async () => {
    // A free plan may call no metered tool, and one call a minute is as little as can be allowed.
    const { key: freeKey } = await createAccountWithKey(server.services, { plan: 'free', callsPerMinute: 1 });
    const freeClient = await connectClient(server.url, freeKey);
    try {
      for (let read = 0; read < 3; read++) {
        expect((await freeClient.readResource({ uri: VIEW_URI })).contents).toHaveLength(1);
      }
      const usage = await callOk(freeClient, 'get_account_usage');
      expect(usage.daily_quotas.insight_queries.used).toBe(0);
    } finally {
      await freeClient.close();
    }
  });
});

describe('a client of another make: the MCP Inspector command line', () => {
  /** The pinned Inspector, as the client setups print it (scripts/clients/setups.ts). */
  async function inspector(...args: string[]): Promise<Json> {
    const { name, version } = PINNED_PACKAGES.inspector;
    const { stdout } = await promisify(execFile)(
      'npx',
      ['-y', `${name}@${version}`, '--cli', server.url, '--transport', 'http'].concat(
        ['--header', `Authorization: Bearer ${key}`],
        args,
      ),
      { env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 170_000 },
    );
    return JSON.parse(stdout);
  }

  it('lists the tool with its view, reads the view and calls the tool', async () => {
    const { tools } = await inspector('--method', 'tools/list');
    expect(tools.find((tool: Json) => tool.name === 'get_market_insights')._meta).toEqual({
      ui: { resourceUri: VIEW_URI },
      'ui/resourceUri': VIEW_URI,
    });
    const { resources } = await inspector('--method', 'resources/list');
    expect(resources.map((resource: Json) => resource.uri)).toEqual([VIEW_URI]);
    const { contents } = await inspector('--method', 'resources/read', '--uri', VIEW_URI);
    expect(contents[0]).toMatchObject({ uri: VIEW_URI, mimeType: VIEW_MIME_TYPE, _meta: VIEW_META });
    const called = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'get_market_insights',
      '--tool-arg',
      'group_by=work_type',
    );
    expect(called.isError).toBeFalsy();
    expect(called.structuredContent).toMatchObject({ group_by: 'work_type', rows: expect.any(Array) });
  }, 180_000);
});

describe('the tool result, unchanged for clients without views', () => {
  const args = { group_by: 'work_type', metric: 'salary', currency: 'EUR' };

  it('is the JSON object as structuredContent and as its one text item, for the SDK and plain JSON alike', async () => {
    const viaSdk = (await client.callTool({
      name: 'get_market_insights',
      arguments: args,
    })) as CallToolResult;
    const viaFetch = await callToolRaw(server.url, key, 'get_market_insights', args);
    for (const result of [viaSdk, viaFetch]) {
      expect(result.isError).toBeUndefined();
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
      expect(result._meta).toBeUndefined();
    }
    // The same figures; only the quota differs, each call having taken one query.
    const withoutQuota = ({ quota: _quota, ...rest }: Json) => rest;
    expect(withoutQuota(viaFetch.structuredContent)).toEqual(withoutQuota(viaSdk.structuredContent));
    expect((viaFetch.structuredContent as Json).quota.used).toBe(
      (viaSdk.structuredContent as Json).quota.used + 1,
    );
  });
});
