import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOL_EXAMPLES } from '../../scripts/docs/tool-examples.js';
import {
  type JsonSchema,
  renderToolsReference,
  TOOLS_REFERENCE_FILE,
  toolErrors,
} from '../../scripts/docs/tools-reference.js';
import { createToolCatalog } from '../../src/mcp/catalog.js';
import { tools } from '../../src/tools/registry.js';

const catalog = createToolCatalog(tools);

describe('docs/tools.md', () => {
  it('is what `npm run docs` renders from the current catalog', () => {
    const committed = readFileSync(new URL(`../../${TOOLS_REFERENCE_FILE}`, import.meta.url), 'utf8');
    expect(committed, `${TOOLS_REFERENCE_FILE} is stale: run \`npm run docs\` and commit the result`).toBe(
      renderToolsReference(catalog),
    );
  });
});

describe('the reference examples', () => {
  it('cover exactly the tools the server offers', () => {
    expect(Object.keys(TOOL_EXAMPLES).sort()).toEqual(tools.map((tool) => tool.name).sort());
  });

  describe.each(catalog.listing.map((listed) => [listed.name, listed] as const))('%s', (name, listed) => {
    const tool = catalog.byName.get(name);
    const example = TOOL_EXAMPLES[name];

    it('calls it with arguments its input schema accepts', () => {
      expect(tool?.inputSchema.safeParse(example?.arguments).error).toBeUndefined();
    });

    it('shows a result its output schema accepts, with no field the schema does not declare', () => {
      expect(tool?.outputSchema.safeParse(example?.result).error).toBeUndefined();
      expect(undeclaredFields(listed.outputSchema as JsonSchema, example?.result, 'result')).toEqual([]);
    });
  });
});

/**
 * The errors each tool can return, written out by hand so that a change to the rule in
 * scripts/docs/tools-reference.ts, or to a tool's declarations, shows here in plain sight.
 */
const ALWAYS = ['invalid_argument', 'rate_limited', 'unavailable', 'internal'];
const EXPECTED_ERRORS: Record<string, string[]> = {
  search_leads: [...ALWAYS, 'insufficient_scope', 'quota_exceeded', 'subscription_required'],
  get_lead: [...ALWAYS, 'not_found', 'insufficient_scope', 'quota_exceeded', 'subscription_required'],
  enrich_lead: [
    ...ALWAYS,
    'not_found',
    'insufficient_scope',
    'insufficient_credits',
    'quota_exceeded',
    'subscription_required',
  ],
  search_companies: [...ALWAYS, 'insufficient_scope', 'quota_exceeded', 'subscription_required'],
  get_company: [...ALWAYS, 'not_found', 'insufficient_scope', 'quota_exceeded', 'subscription_required'],
  search_signals: [...ALWAYS, 'insufficient_scope', 'subscription_required'],
  get_market_insights: [...ALWAYS, 'insufficient_scope', 'quota_exceeded', 'subscription_required'],
  get_account_usage: [...ALWAYS, 'insufficient_scope'],
  get_filter_options: ALWAYS,
};

describe('the errors the reference lists', () => {
  it.each(catalog.listing.map((listed) => [listed.name, listed] as const))('for %s', (name, listed) => {
    const tool = catalog.byName.get(name);
    if (tool === undefined) throw new Error(`${name} is not in the catalog`);
    const codes = toolErrors(tool, listed.inputSchema as JsonSchema).map((error) => error.code);
    expect([...codes].sort()).toEqual([...(EXPECTED_ERRORS[name] ?? [])].sort());
  });
});

/** Paths of the fields in `value` that `schema` does not name: loose output objects would let them pass. */
function undeclaredFields(schema: JsonSchema, value: unknown, path: string): string[] {
  if (Array.isArray(value)) {
    const items = schema.items ?? schema.anyOf?.find((branch) => branch.items !== undefined)?.items;
    if (items === undefined) return [path];
    return value.flatMap((item, index) => undeclaredFields(items, item, `${path}[${index}]`));
  }
  if (typeof value !== 'object' || value === null) return [];
  const object = schema.anyOf?.find((branch) => branch.type === 'object') ?? schema;
  return Object.entries(value).flatMap(([key, field]) => {
    const declared =
      object.properties?.[key] ??
      (typeof object.additionalProperties === 'object' && object.properties === undefined
        ? object.additionalProperties
        : undefined);
    return declared === undefined ? [`${path}.${key}`] : undeclaredFields(declared, field, `${path}.${key}`);
  });
}
