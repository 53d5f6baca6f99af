import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import {
  answerToolCall,
  type McpHeaders,
  type SdkAnswer,
  sdkAnswers,
  type ToolCallRequest,
} from '../../src/http/mcp-endpoint.js';
import { createToolCatalog } from '../../src/mcp/catalog.js';
import { type McpServerDeps, MODERN_REVISION } from '../../src/mcp/server.js';
import { loadViewResources } from '../../src/mcp/view-resources.js';
import { QUOTA_KEYS } from '../../src/plans.js';
import { tools } from '../../src/tools/registry.js';
import { SEEDED_NOW, startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, silentLogger, type TestServer } from '../support/test-server.js';

/** What a 2026-07-28 client adds to a `tools/call`: the envelope, and the headers mirroring it. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'side-by-side', version: '1' },
};

/**
 * The endpoint answers `tools/call` itself rather than through a per-request SDK server; here both
 * answer the same messages, and must agree byte for byte (status, headers, body), for successes,
 * tool errors and JSON-RPC errors alike, in both eras. (Messages that fail the SDK's own schema for
 * `tools/call` never get this far: `requireServedParams` answers them first; nor do 2026-07-28
 * requests whose headers the SDK would refuse: the endpoint hands those to the SDK.)
 */
describe.each([
  ['2025-11-25', 'legacy'],
  [MODERN_REVISION, 'modern'],
] as const)('tools/call answered directly, as the SDK server answers it (%s)', (revision, era) => {
  let server: TestServer;
  let context: McpServerDeps;
  let leadId: string;
  let answerWithSdk: SdkAnswer;

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
    answerWithSdk = sdkAnswers(server.config.BASE_URL, silentLogger);
    const page = await answerToolCall(
      { id: 1, params: { name: 'search_leads', arguments: { page_size: 1 } } },
      context,
      era,
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
    const { id, params } = request();
    const message = era === 'modern' ? { id, params: { ...params, _meta: ENVELOPE } } : { id, params };
    const headers: McpHeaders =
      era === 'modern' ? { protocolVersion: revision, method: 'tools/call', name: params.name } : {};
    const direct = await answerToolCall(message, context, era);
    const viaSdk = await answerWithSdk(
      { jsonrpc: '2.0', method: 'tools/call', ...message },
      context,
      era,
      headers,
    );
    expect(direct.status).toBe(viaSdk.status);
    expect(direct.headers).toEqual(viaSdk.headers);
    expect(withoutUsage(direct.body)).toBe(withoutUsage(viaSdk.body));
  });
});
