import { isDeepStrictEqual } from 'node:util';
import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHT_BREAKDOWN_BY, INSIGHT_GROUP_BY } from '../../src/domain/enums.js';
import { createToolCatalog } from '../../src/mcp/catalog.js';
import { tools } from '../../src/tools/registry.js';
import { callToolRaw } from '../support/mcp-client.js';
import { startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, type TestServer } from '../support/test-server.js';

/**
 * The server does not parse its own results against the output schemas (it would cost CPU on every
 * call); this holds every tool's results, over the seeded data and a spread of arguments, to its
 * schema exactly: accepted, and unchanged by parsing (no field the schema would drop or default).
 * Each is also held to the JSON Schema `tools/list` shows, written for strict clients
 * (src/schemas/json-schema.ts), as a client's validator reads it.
 */
describe('every tool result is exactly what its output schema accepts', () => {
  let server: TestServer;
  let key: string;
  let leadIds: string[] = [];
  let companyIds: string[] = [];

  beforeAll(async () => {
    server = await startSeededServer();
    ({ key } = await createAccountWithKey(server.services, { plan: 'scale', callsPerMinute: 100_000 }));
    const page = (await callToolRaw(server.url, key, 'search_leads', { page_size: 25 }))
      .structuredContent as {
      leads: { id: string; company: { id: string | null } }[];
    };
    leadIds = page.leads.map((lead) => lead.id);
    companyIds = [...new Set(page.leads.flatMap((lead) => (lead.company.id ? [lead.company.id] : [])))];
  });

  afterAll(async () => {
    await server?.close();
  });

  const argumentSets: Record<string, () => Record<string, unknown>[]> = {
    search_leads: () => [
      {},
      { page_size: 25, posted_within_days: 7 },
      { title: 'engineer', work_type: 'Remote' },
    ],
    search_companies: () => [{}, { page_size: 25 }, { hiring_for_title: 'engineer' }],
    search_signals: () => [{}, { page_size: 25 }],
    get_market_insights: () => [
      ...INSIGHT_GROUP_BY.map((group_by) => ({ group_by })),
      ...INSIGHT_GROUP_BY.map((group_by) => ({ group_by, metric: 'salary', currency: 'USD' })),
      ...INSIGHT_BREAKDOWN_BY.filter((by) => by !== 'experience_level').map((breakdown_by) => ({
        group_by: 'experience_level',
        breakdown_by,
      })),
    ],
    get_lead: () => leadIds.slice(0, 5).map((lead_id) => ({ lead_id })),
    get_company: () => companyIds.slice(0, 5).map((company_id) => ({ company_id })),
    enrich_lead: () => leadIds.slice(0, 2).map((lead_id) => ({ lead_id })),
    get_account_usage: () => [{}],
    get_filter_options: () => [{}],
  };

  const listed = new Map(createToolCatalog(tools).listing.map((tool) => [tool.name, tool.outputSchema]));
  const jsonSchemas = new AjvJsonSchemaValidator();

  it.each(tools.map((tool) => [tool.name, tool] as const))('%s', async (name, tool) => {
    const matchesListedSchema = jsonSchemas.getValidator(listed.get(name) as JsonSchemaType);
    const sets = argumentSets[name]?.() ?? [];
    expect(sets.length, `argument sets for ${name}`).toBeGreaterThan(0);
    for (const args of sets) {
      const result = await callToolRaw(server.url, key, name, args);
      expect(result.isError, `${JSON.stringify(args)}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const accepted = tool.outputSchema.safeParse(result.structuredContent);
      expect(accepted.error, JSON.stringify(args)).toBeUndefined();
      expect(isDeepStrictEqual(accepted.data, result.structuredContent), JSON.stringify(args)).toBe(true);
      expect(matchesListedSchema(result.structuredContent), JSON.stringify(args)).toMatchObject({
        valid: true,
      });
    }
  });
});
