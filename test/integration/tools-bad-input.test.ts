import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_KEYS } from '../../src/plans.js';
import { postRaw, type RawAnswer, toolError } from '../support/mcp-client.js';
import { callError, connectSeededClient, SEEDED_NOW, startSeededServer } from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

const LEAD_ID = 'ld_7Hq2xK9pLm';
const COMPANY_ID = 'co_3Fk9Qw2ZrT';
const ELEVEN_SKILLS = Array.from({ length: 11 }, (_, index) => `Skill${index}`);

/** `[tool, arguments, the field the error must name]`: wrong types, out of range, unknown values and fields. */
const BAD_INPUT: Array<[string, Record<string, unknown>, string]> = [
  ['search_leads', { title: 5 }, 'title'],
  ['search_leads', { title: '   ' }, 'title'],
  ['search_leads', { page_size: '10' }, 'page_size'],
  ['search_leads', { page_size: 0 }, 'page_size'],
  ['search_leads', { page_size: 26 }, 'page_size'],
  ['search_leads', { location: 'London', radius_km: 0 }, 'radius_km'],
  ['search_leads', { location: 'London', radius_km: 201 }, 'radius_km'],
  ['search_leads', { location: 'London', radius_km: 10.5 }, 'radius_km'],
  ['search_leads', { posted_within_days: 366 }, 'posted_within_days'],
  ['search_leads', { experience_level: 'senior' }, 'experience_level'],
  ['search_leads', { work_type: 'Onsite' }, 'work_type'],
  ['search_leads', { employment_type: 'Permanent' }, 'employment_type'],
  ['search_leads', { company_size: 'huge' }, 'company_size'],
  ['search_leads', { salary_currency: 'CHF' }, 'salary_currency'],
  ['search_leads', { min_annual_salary: -1 }, 'min_annual_salary'],
  ['search_leads', { min_annual_salary: 90_000, max_annual_salary: 50_000 }, 'max_annual_salary'],
  ['search_leads', { skills: 'Python' }, 'skills'],
  ['search_leads', { skills: ['Go', 5] }, 'skills.1'],
  ['search_leads', { skills: ELEVEN_SKILLS }, 'skills'],
  ['search_leads', { company_id: 'acme' }, 'company_id'],
  ['search_leads', { include_recruitment_agencies: 'yes' }, 'include_recruitment_agencies'],
  ['search_leads', { cursor: 'not-a-cursor' }, 'cursor'],
  ['search_leads', { keywords: 'rust' }, 'keywords'],
  ['get_lead', {}, 'lead_id'],
  ['get_lead', { lead_id: 42 }, 'lead_id'],
  ['get_lead', { lead_id: COMPANY_ID }, 'lead_id'],
  ['get_lead', { lead_id: LEAD_ID, full: true }, 'full'],
  ['search_companies', { name: 7 }, 'name'],
  ['search_companies', { min_open_roles: 0 }, 'min_open_roles'],
  ['search_companies', { min_open_roles: 1001 }, 'min_open_roles'],
  ['search_companies', { company_size: 'Enterprise' }, 'company_size'],
  ['search_companies', { skills: ELEVEN_SKILLS }, 'skills'],
  ['search_companies', { posted_within_days: 0 }, 'posted_within_days'],
  ['search_companies', { page_size: 100 }, 'page_size'],
  ['search_companies', { radius_km: 10 }, 'radius_km'],
  ['get_company', {}, 'company_id'],
  ['get_company', { company_id: LEAD_ID }, 'company_id'],
  ['get_company', { company_id: COMPANY_ID, with_leads: true }, 'with_leads'],
  ['search_signals', { countries: 'GB' }, 'countries'],
  ['search_signals', { countries: ['GB', 'FR'] }, 'countries.1'],
  ['search_signals', { categories: ['hiring'] }, 'categories.0'],
  ['search_signals', { polarity: 'good' }, 'polarity'],
  ['search_signals', { announced_within_days: 400 }, 'announced_within_days'],
  ['search_signals', { company_id: 'co_short' }, 'company_id'],
  ['search_signals', { page_size: 1.5 }, 'page_size'],
  ['search_signals', { country: 'GB' }, 'country'],
  ['get_market_insights', {}, 'group_by'],
  ['get_market_insights', { group_by: 'region' }, 'group_by'],
  ['get_market_insights', { group_by: 'city', metric: 'average' }, 'metric'],
  ['get_market_insights', { group_by: 'city', breakdown_by: 'city' }, 'breakdown_by'],
  ['get_market_insights', { group_by: 'country', breakdown_by: 'country' }, 'breakdown_by'],
  ['get_market_insights', { group_by: 'city', currency: 'JPY' }, 'currency'],
  ['get_market_insights', { group_by: 'city', limit: 51 }, 'limit'],
  ['get_market_insights', { group_by: 'city', limit: '5' }, 'limit'],
  ['get_market_insights', { group_by: 'city', filters: 'London' }, 'filters'],
  [
    'get_market_insights',
    { group_by: 'city', filters: { location: 'London', radius_km: 300 } },
    'filters.radius_km',
  ],
  [
    'get_market_insights',
    { group_by: 'city', filters: { location: 'Bavaria', radius_km: 30 } },
    'filters.location',
  ],
  ['get_market_insights', { group_by: 'city', filters: { skills: ['Go', ''] } }, 'filters.skills.1'],
  [
    'get_market_insights',
    { group_by: 'city', filters: { min_annual_salary: 50_000 } },
    'filters.min_annual_salary',
  ],
  ['get_market_insights', { group_by: 'city', page_size: 10 }, 'page_size'],
  ['get_filter_options', { verbose: true }, 'verbose'],
];

describe('bad input to the read tools', () => {
  let server: TestServer;
  let client: Client;
  let accountId: string;

  beforeAll(async () => {
    server = await startSeededServer();
    ({ client, accountId } = await connectSeededClient(server, { plan: 'growth' }));
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it.each(BAD_INPUT)('%s %j is invalid_argument on %s', async (tool, args, field) => {
    const error = await callError(client, tool, args);
    expect(error).toMatchObject({ code: 'invalid_argument', details: { field } });
    // The message names the field (its last part, for a path) so the assistant knows what to change.
    expect(error.message).toContain(
      field
        .split('.')
        .filter((part) => !/^\d+$/.test(part))
        .at(-1),
    );
  });

  it('charges nothing for refused calls', async () => {
    for (const quota of QUOTA_KEYS) {
      expect(await server.services.quotaCounters.used(accountId, quota, SEEDED_NOW)).toBe(0);
    }
  });
});

/**
 * Requests written as JSON text, for what `JSON.stringify` cannot write or a client library would
 * not send: numbers beyond a double, nesting deeper than a recursive printer's stack, own
 * `__proto__` keys, task metadata. Found by the fuzzer (test/integration/fuzz.test.ts).
 */
describe('hostile JSON in a tool call', () => {
  let server: TestServer;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    server = await startSeededServer();
    ({ key, accountId } = await connectSeededClient(server, { plan: 'growth' }));
  });

  afterAll(async () => {
    await server?.close();
  });

  const post = (json: string): Promise<RawAnswer> =>
    postRaw(server.url, json, { token: key, headers: { 'Content-Type': 'application/json' } });

  async function callWithParams(paramsJson: string): Promise<CallToolResult> {
    const answer = await post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${paramsJson}}`);
    expect(answer.status, answer.text).toBe(200);
    return (answer.json as { result: CallToolResult }).result;
  }

  it('refuses an argument nested 100,000 deep as invalid_argument, not internal', async () => {
    const depth = 100_000;
    const result = await callWithParams(
      `{"name":"search_leads","arguments":{"title":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    );
    expect(toolError(result)).toMatchObject({ code: 'invalid_argument', details: { field: 'title' } });
  });

  it('refuses a __proto__ argument as an unknown parameter instead of ignoring it', async () => {
    for (const tool of ['search_signals', 'get_filter_options']) {
      const result = await callWithParams(`{"name":"${tool}","arguments":{"__proto__":{"page_size":3}}}`);
      const error = toolError(result);
      expect(error).toMatchObject({ code: 'invalid_argument', details: { field: '__proto__' } });
      expect(error.message).toContain('Unknown parameter "__proto__"');
    }
  });

  it('says a number beyond a double was read as Infinity, not null', async () => {
    const result = await callWithParams('{"name":"search_leads","arguments":{"page_size":1e400}}');
    expect(toolError(result)).toMatchObject({
      code: 'invalid_argument',
      details: { field: 'page_size' },
      message: expect.stringContaining('(received Infinity)'),
    });
  });

  it('serves a tools/call carrying task metadata as a plain call, as MCP asks of a server without tasks', async () => {
    const result = await callWithParams('{"name":"get_filter_options","arguments":{},"task":{"ttl":60000}}');
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toHaveProperty('experience_levels');
  });

  it('answers ping and tools/list carrying task metadata', async () => {
    const ping = await post('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"task":{}}}');
    expect(ping.json).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    const list = await post('{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"task":{"ttl":1}}}');
    expect((list.json as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });

  it('charges nothing for the refused calls', async () => {
    for (const quota of QUOTA_KEYS) {
      expect(await server.services.quotaCounters.used(accountId, quota, SEEDED_NOW)).toBe(0);
    }
  });
});
