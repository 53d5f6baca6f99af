import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/registry.js';
import { type BackendProxies, startBackendProxies } from '../support/backend-proxies.js';
import { callToolRaw, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import { type Scrape, scrape } from '../support/prometheus.js';
import { SEEDED_NOW, seededLeads } from '../support/seeded-data.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

/** How much each sample moved between two scrapes. */
function moved(before: Scrape, after: Scrape) {
  return (name: string, labels: Record<string, string> = {}) =>
    after.value(name, labels) - before.value(name, labels);
}

/** A seeded server with its metrics listener, and a key of an account that no limit gets in the way of. */
async function startMeteredServer(config: Record<string, string> = {}) {
  const server = await startTestServer({ tools, clock: () => SEEDED_NOW, metrics: true, config });
  const { key } = await createAccountWithKey(server.services, { plan: 'scale', callsPerMinute: 100_000 });
  const metricsUrl = server.metrics?.url;
  if (metricsUrl === undefined) throw new Error('the test server started no metrics listener');
  return { server, key, metricsUrl };
}

describe('Prometheus metrics', () => {
  let server: TestServer;
  let key: string;
  let metricsUrl: string;

  beforeAll(async () => {
    ({ server, key, metricsUrl } = await startMeteredServer());
  });
  afterAll(async () => {
    await server?.close();
  });

  it('are served on a listener of their own, bound to loopback by default, and not on the public port', async () => {
    expect(server.config.METRICS_HOST).toBe('127.0.0.1');
    expect(server.metrics?.boundAddress).toBe('127.0.0.1');

    const page = await fetch(metricsUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await page.text();
    // prom-client's process metrics, under their usual names.
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    // The loop's lag without the 100 ms sampling interval: a server with nothing to do reads near
    // zero, where prom-client's own figures read the interval, 0.1 s, or more (docs/observability.md).
    // Each scrape covers the samples since the one before; beside other test files every sample of
    // one window may have waited for a core, so scrapes go on until one window had the loop free.
    const worstLag = async () => {
      const lag = await scrape(metricsUrl);
      const figure = (name: string) => lag.value(`nodejs_eventloop_lag_${name}_seconds`);
      // Before the monitor's first sample every figure reads 0, which proves nothing.
      if (figure('max') === 0) return Number.POSITIVE_INFINITY;
      return Math.max(figure('min'), figure('p50'), figure('mean'));
    };
    await expect.poll(worstLag, { timeout: 15_000, interval: 250 }).toBeLessThan(0.05);

    expect((await fetch(`${server.root}/metrics`)).status).toBe(404);
    expect((await fetch(new URL('/', metricsUrl))).status).toBe(404);
    const post = await fetch(metricsUrl, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('count requests by route and status, tool calls by tool and outcome with their latency, and refused credentials by reason', async () => {
    const before = await scrape(metricsUrl);

    const found = await callToolRaw(server.url, key, 'search_leads', { page_size: 2 });
    expect(found.isError).toBeFalsy();
    const refused = await callToolRaw(server.url, key, 'search_leads', { page_size: 'many' });
    expect(toolError(refused).code).toBe('invalid_argument');
    const unknownKey = `hl_live_${'0'.repeat(32)}`;
    for (const token of [undefined, unknownKey, 'not-a-credential']) {
      const answer = await postRaw(server.url, toolCallRequest('search_leads'), {
        headers: JSON_HEADERS,
        ...(token !== undefined && { token }),
      });
      expect(answer.status).toBe(401);
    }

    const after = await scrape(metricsUrl);
    const delta = moved(before, after);
    expect(delta('hiring_leads_tool_calls_total', { tool: 'search_leads', outcome: 'ok' })).toBe(1);
    expect(
      delta('hiring_leads_tool_calls_total', { tool: 'search_leads', outcome: 'invalid_argument' }),
    ).toBe(1);
    expect(
      delta('hiring_leads_tool_call_duration_seconds_count', { tool: 'search_leads', outcome: 'ok' }),
    ).toBe(1);
    expect(
      delta('hiring_leads_tool_call_duration_seconds_bucket', {
        tool: 'search_leads',
        outcome: 'ok',
        le: '+Inf',
      }),
    ).toBe(1);
    // The page of two is reserved, then what it did not fill is given back: two units stay charged.
    const leadExplores = { quota: 'lead_explores' };
    expect(
      delta('hiring_leads_quota_charged_units_total', leadExplores) -
        delta('hiring_leads_quota_refunded_units_total', leadExplores),
    ).toBe(2);

    const mcpRequests = { method: 'POST', route: '/mcp' };
    expect(delta('hiring_leads_http_requests_total', { ...mcpRequests, status: '200' })).toBe(2);
    expect(delta('hiring_leads_http_requests_total', { ...mcpRequests, status: '401' })).toBe(3);
    expect(delta('hiring_leads_http_request_duration_seconds_count', mcpRequests)).toBe(5);
    for (const reason of ['missing_credential', 'api_key_refused', 'unrecognized_token']) {
      expect(delta('hiring_leads_authentication_failures_total', { reason, status: '401' })).toBe(1);
    }

    // The successful search asked Elasticsearch, and the call touched MongoDB.
    expect(
      delta('hiring_leads_elasticsearch_request_duration_seconds_count', { operation: 'search' }),
    ).toBeGreaterThan(0);
    expect(delta('hiring_leads_mongodb_command_duration_seconds_count')).toBeGreaterThan(0);
  });

  it('label requests by route pattern, never by the path a client sent', async () => {
    await fetch(`${server.root}/no/such/path/${'x'.repeat(40)}`);
    await fetch(`${server.root}/register/some-client-id`);
    const routes = (await scrape(metricsUrl)).labelValues('hiring_leads_http_requests_total', 'route');
    expect(routes).toContain('/mcp');
    expect(routes).toContain('unmatched');
    expect(routes).toContain('/register/:clientId');
    expect(
      routes.filter((route) => route.includes('x'.repeat(40)) || route.includes('some-client-id')),
    ).toEqual([]);
  });

  it('count the credit and the enrichment that enrich_lead charges', async () => {
    const lead = (await seededLeads()).find((candidate) => candidate.is_open);
    if (lead === undefined) throw new Error('the seeded data has no open lead');
    const before = await scrape(metricsUrl);
    const result = await callToolRaw(server.url, key, 'enrich_lead', { lead_id: lead.id });
    expect(result.structuredContent).toMatchObject({ charged_credits: 1 });
    const delta = moved(before, await scrape(metricsUrl));
    expect(delta('hiring_leads_credits_charged_total')).toBe(1);
    expect(delta('hiring_leads_quota_charged_units_total', { quota: 'enrichments' })).toBe(1);
    expect(delta('hiring_leads_credits_refunded_total')).toBe(0);
  });

  it('count a MongoDB command the server refuses apart from one that gets no answer, by command name', async () => {
    const before = await scrape(metricsUrl);
    await expect(server.services.mongo.db.command({ noSuchCommandForMetrics: 1 })).rejects.toThrow();
    const delta = moved(before, await scrape(metricsUrl));
    expect(
      delta('hiring_leads_mongodb_command_errors_total', {
        command: 'noSuchCommandForMetrics',
        error: 'server',
      }),
    ).toBe(1);
    expect(
      delta('hiring_leads_mongodb_command_duration_seconds_count', { command: 'noSuchCommandForMetrics' }),
    ).toBe(1);
  });
});

describe('Prometheus metrics during an outage', () => {
  let proxies: BackendProxies;
  let behind: Awaited<ReturnType<typeof startMeteredServer>>;
  let other: Awaited<ReturnType<typeof startMeteredServer>>;

  beforeAll(async () => {
    proxies = await startBackendProxies();
    [behind, other] = await Promise.all([startMeteredServer(proxies.config), startMeteredServer()]);
  });
  afterAll(async () => {
    await Promise.allSettled([behind?.server.close(), other?.server.close()]);
    await proxies?.close();
  });

  it('count Elasticsearch failures by API and error, in the registry of the server that met them only', async () => {
    const [before, otherBefore] = await Promise.all([scrape(behind.metricsUrl), scrape(other.metricsUrl)]);
    await proxies.elasticsearch.cut();
    try {
      const result = await callToolRaw(behind.server.url, behind.key, 'search_leads', { page_size: 2 });
      expect(toolError(result).code).toBe('unavailable');
    } finally {
      await proxies.restore();
    }
    const delta = moved(before, await scrape(behind.metricsUrl));
    expect(delta('hiring_leads_tool_calls_total', { tool: 'search_leads', outcome: 'unavailable' })).toBe(1);
    expect(
      delta('hiring_leads_elasticsearch_errors_total', { operation: 'search', error: 'connection' }),
    ).toBeGreaterThan(0);

    const otherDelta = moved(otherBefore, await scrape(other.metricsUrl));
    expect(otherDelta('hiring_leads_tool_calls_total')).toBe(0);
    expect(otherDelta('hiring_leads_elasticsearch_errors_total')).toBe(0);
  });

  it('count a MongoDB command whose connection drops as a network error', async () => {
    const before = await scrape(behind.metricsUrl);
    const probe = { name: 'find', collection: 'metrics_probe' };
    const fault = proxies.mongo.failOn(probe, { times: 2 });
    await expect(behind.server.services.mongo.db.collection(probe.collection).findOne({})).rejects.toThrow();
    expect(fault.fired).toBeGreaterThan(0);
    const delta = moved(before, await scrape(behind.metricsUrl));
    expect(delta('hiring_leads_mongodb_command_errors_total', { command: 'find', error: 'network' })).toBe(
      fault.fired,
    );
  });
});
