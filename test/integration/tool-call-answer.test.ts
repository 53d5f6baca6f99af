import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import { answerToolCall, answerWithSdk, type ToolCallRequest } from '../../src/http/mcp-endpoint.js';
import { createToolCatalog } from '../../src/mcp/catalog.js';
import type { McpServerDeps } from '../../src/mcp/server.js';
import { loadViewResources } from '../../src/mcp/view-resources.js';
import { QUOTA_KEYS } from '../../src/plans.js';
import { tools } from '../../src/tools/registry.js';
import { SEEDED_NOW, startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, silentLogger, type TestServer } from '../support/test-server.js';

/**
 * The endpoint answers `tools/call` itself rather than through a per-request SDK server; here both
 * answer the same messages, and must agree byte for byte (status, headers, body), for successes,
 * tool errors and JSON-RPC errors alike. (Messages that fail the SDK's own schema for `tools/call`
 * never get this far: `requireWellFormedMessage` answers them first.)
 */
describe('tools/call answered directly, as the SDK server answers it', () => {
  let server: TestServer;
  let context: McpServerDeps;
  let leadId: string;

  beforeAll(async () => {
    server = await startSeededServer();
    const { account, keyId } = await createAccountWithKey(server.services, {
      plan: 'scale',
      callsPerMinute: 100_000,
    });
    const unlimited = Object.fromEntries(QUOTA_KEYS.map((key) => [key, null]));
    await server.services.accounts.update(account._id, { quota_overrides: unlimited }, new Date());
    const current = (await server.services.accounts.findById(account._id)) ?? account;
    const catalog = createToolCatalog(tools);
    context = {
      catalog,
      viewResources: loadViewResources(catalog.views),
      caller: {
        account: current,
        credential: {
          type: 'api_key',
          id: keyId,
          scopes: SCOPES.filter((scope) => scope !== 'leads:enrich'),
        },
        requestId: 'req_test',
        logger: silentLogger,
      },
      services: server.services,
      clock: () => SEEDED_NOW,
    };
    const page = await answerToolCall(
      { id: 1, params: { name: 'search_leads', arguments: { page_size: 1 } } },
      context,
    );
    leadId = JSON.parse(page.body).result.structuredContent.leads[0].id;
  });

  afterAll(async () => {
    await server?.close();
  });

  /** Each call charges: the counts differ between the two answers, nothing else may. */
  const withoutUsage = (body: string) => body.replace(/\\?"used\\?":\d+/g, '"used":N');

  const requests: [string, () => ToolCallRequest][] = [
    ['a search', () => ({ id: 7, params: { name: 'search_leads', arguments: { page_size: 3 } } })],
    ['a string id', () => ({ id: 'abc', params: { name: 'get_filter_options' } })],
    ['a preview', () => ({ id: 8, params: { name: 'get_lead', arguments: { lead_id: leadId } } })],
    [
      'insights',
      () => ({ id: 9, params: { name: 'get_market_insights', arguments: { group_by: 'country' } } }),
    ],
    ['bad arguments', () => ({ id: 10, params: { name: 'search_leads', arguments: { page_size: 0 } } })],
    ['an unknown lead', () => ({ id: 12, params: { name: 'get_lead', arguments: { lead_id: 'nope' } } })],
    [
      'a scope the key lacks',
      () => ({ id: 13, params: { name: 'enrich_lead', arguments: { lead_id: leadId } } }),
    ],
    ['an unknown tool', () => ({ id: 14, params: { name: 'no_such_tool', arguments: {} } })],
  ];

  it.each(requests)('%s', async (_case, request) => {
    const message = request();
    const direct = await answerToolCall(message, context);
    const viaSdk = await answerWithSdk(
      { jsonrpc: '2.0', method: 'tools/call', ...message },
      context,
      undefined,
    );
    expect(direct.status).toBe(viaSdk.status);
    expect(direct.headers).toEqual(viaSdk.headers);
    expect(withoutUsage(direct.body)).toBe(withoutUsage(viaSdk.body));
  });
});
