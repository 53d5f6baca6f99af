import { createToolCatalog, type ToolCatalog } from '../../src/mcp/catalog.js';
import { ACCESS_NEEDED } from '../../src/plans.js';
import type { AnyToolDefinition, ToolCost } from '../../src/tools/define-tool.js';
import { tools } from '../../src/tools/registry.js';
import { TOOL_EXAMPLES, type ToolExample } from './tool-examples.js';

/**
 * docs/tools.md, the tools' API reference, rendered from the tool catalog: the JSON Schemas that
 * `tools/list` shows, plus each tool's scope, access and meter. Pure and deterministic, so a unit
 * test can compare the committed file with a fresh rendering.
 */

export const TOOLS_REFERENCE_FILE = 'docs/tools.md';

/** The parts of JSON Schema that `z.toJSONSchema` writes for this server's tools. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

export function renderToolsReference(
  catalog: ToolCatalog = createToolCatalog(tools),
  examples: Readonly<Record<string, ToolExample>> = TOOL_EXAMPLES,
): string {
  const sections = catalog.listing.map((listed) => {
    const tool = catalog.byName.get(listed.name);
    const example = examples[listed.name];
    if (tool === undefined) throw new Error(`${listed.name} is listed but not in the catalog`);
    if (example === undefined)
      throw new Error(`${listed.name} has no example in scripts/docs/tool-examples.ts`);
    return renderTool(
      tool,
      listed.inputSchema as JsonSchema,
      listed.outputSchema as JsonSchema,
      listed.description ?? '',
      example,
    );
  });
  const contents = catalog.listing.map(
    (listed) => `- [\`${listed.name}\`](#${listed.name}): ${listed.title}`,
  );
  const reference = blocks([
    '# Tools reference',
    [
      '<!-- Generated from the tool catalog by `npm run docs` (scripts/docs.ts); edit the tools, not this file. -->',
    ],
    [
      'Every tool of the server, as `tools/list` describes it: what it does, what it needs, what it',
      'charges, its arguments and result fields, the errors it can return, and one example. How',
      'results and errors are shaped: [results-and-errors.md](results-and-errors.md); plans, access and',
      'daily quotas: [plans.md](plans.md); what the filters match and how paging works:',
      '[search-semantics.md](search-semantics.md).',
    ],
    contents,
    ...sections,
  ]);
  return `${reference}\n`;
}

function renderTool(
  tool: AnyToolDefinition,
  input: JsonSchema,
  output: JsonSchema,
  description: string,
  example: ToolExample,
): string {
  return blocks([
    `## ${tool.name}`,
    [`**${tool.title}.** ${description}`],
    [
      `- Scope: ${tool.scope === null ? 'none' : code(tool.scope)}`,
      `- Access: ${ACCESS_TEXT[tool.access]}`,
      `- Cost: ${costText(tool.cost)}`,
      `- Annotations: ${annotationsText(tool)}`,
      ...(tool.view
        ? [
            `- View: ${code(tool.view.uri)} in \`_meta.ui.resourceUri\`, an interactive chart that MCP Apps hosts show with the result ([protocol.md](protocol.md#resources-the-market-insights-view))`,
          ]
        : []),
    ],
    '### Arguments',
    argumentsSection(input),
    '### Result',
    table(['field', 'type', 'values', 'description'], fieldRows(output, '').map(resultRow)),
    '### Errors',
    table(
      ['code', 'when'],
      toolErrors(tool, input).map(({ code: errorCode, when }) => [code(errorCode), when]),
    ),
    '### Example',
    ['Call (the `params` of `tools/call`):'],
    jsonBlock({ name: tool.name, arguments: example.arguments }),
    ['Result (`structuredContent`; the text item holds the same JSON):'],
    jsonBlock(example.result),
  ]);
}

const ACCESS_TEXT: Record<AnyToolDefinition['access'], string> = {
  paid: ACCESS_NEEDED,
  always: 'every account, whatever its plan or subscription status',
};

function costText(cost: ToolCost | null): string {
  if (cost === null) return 'free (not metered)';
  if (cost.per === 'unlock') {
    return `one monthly enrichment credit and one unit of the daily ${code(cost.quota)} quota per lead unlocked, nothing for a lead already unlocked`;
  }
  return `one unit of the daily ${code(cost.quota)} quota per ${cost.per === 'result' ? 'result returned' : 'call'}`;
}

function annotationsText(tool: AnyToolDefinition): string {
  return Object.entries(tool.annotations)
    .map(([hint, value]) => code(`${hint}: ${value}`))
    .join(', ');
}

function argumentsSection(input: JsonSchema): string[] {
  const rows = fieldRows(input, '');
  if (rows.length === 0) return ['None: call it with `{}`. Any argument is refused as unknown.'];
  return table(
    ['argument', 'type', 'required', 'default', 'values', 'description'],
    rows.map((row) => [
      code(row.path),
      row.type,
      row.required ? 'yes' : 'no',
      row.schema.default === undefined ? '' : code(JSON.stringify(row.schema.default)),
      row.values,
      row.schema.description ?? '',
    ]),
  );
}

function resultRow(row: FieldRow): string[] {
  return [
    code(row.path),
    row.required ? row.type : `${row.type}, optional`,
    row.values,
    row.schema.description ?? '',
  ];
}

interface FieldRow {
  path: string;
  schema: JsonSchema;
  required: boolean;
  type: string;
  values: string;
}

/** One row per property, nested objects and array items flattened into dotted paths (`leads[].id`). */
function fieldRows(schema: JsonSchema, prefix: string): FieldRow[] {
  const object = objectBranch(schema);
  if (object?.properties === undefined) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).flatMap(([name, property]) => {
    const path = `${prefix}${name}`;
    const row: FieldRow = {
      path,
      schema: property,
      required: required.has(name),
      type: typeText(property),
      values: valuesText(property),
    };
    const items = arrayItems(property);
    const nested = items === undefined ? fieldRows(property, `${path}.`) : fieldRows(items, `${path}[].`);
    return [row, ...nested];
  });
}

/** The object a schema describes, also when it may be null. */
function objectBranch(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties !== undefined) return schema;
  return schema.anyOf?.find((branch) => branch.properties !== undefined);
}

function arrayItems(schema: JsonSchema): JsonSchema | undefined {
  return schema.items ?? schema.anyOf?.find((branch) => branch.items !== undefined)?.items;
}

function typeText(schema: JsonSchema): string {
  if (schema.anyOf !== undefined) return schema.anyOf.map(typeText).join(' or ');
  if (schema.const !== undefined) return code(JSON.stringify(schema.const));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  return types
    .map((type) => {
      if (type === 'array') return `array of ${schema.items ? typeText(schema.items) : 'any'}`;
      if (type === 'object' && isMap(schema)) {
        return `object with ${typeText(schema.additionalProperties as JsonSchema)} values`;
      }
      return type;
    })
    .join(' or ');
}

/** A record (`z.record`): any key, each value of one schema. */
function isMap(schema: JsonSchema): boolean {
  return (
    schema.properties === undefined &&
    typeof schema.additionalProperties === 'object' &&
    Object.keys(schema.additionalProperties).length > 0
  );
}

/** `z.int()` bounds every integer by the safe range; those bounds say nothing to a reader. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** Allowed values and bounds in words: `1 to 25`, `one of …`, `at most 10 items, each …`. */
function valuesText(schema: JsonSchema): string {
  if (schema.anyOf !== undefined) {
    return schema.anyOf
      .filter((branch) => branch.type !== 'null' && branch.const === undefined)
      .map(valuesText)
      .filter((text) => text !== '')
      .join('; ');
  }
  const parts: string[] = [];
  if (schema.enum !== undefined)
    parts.push(`one of ${schema.enum.map((value) => code(String(value))).join(', ')}`);
  const range = rangeText(schema.minimum, schema.maximum, '');
  if (range !== '') parts.push(range);
  const length = rangeText(schema.minLength, schema.maxLength, ' characters');
  if (length !== '') parts.push(length);
  if (schema.pattern !== undefined) parts.push(`matches ${code(schema.pattern)}`);
  const count = rangeText(schema.minItems, schema.maxItems, ' items');
  if (count !== '') parts.push(count);
  if (schema.items !== undefined) {
    const each = valuesText(schema.items);
    if (each !== '') parts.push(`each ${each}`);
  }
  return parts.join(', ');
}

function rangeText(min: number | undefined, max: number | undefined, unit: string): string {
  const low = min === undefined || Math.abs(min) === UNBOUNDED ? undefined : min;
  const high = max === undefined || max === UNBOUNDED ? undefined : max;
  if (low !== undefined && high !== undefined) return `${low} to ${high}${unit}`;
  if (low !== undefined) return `at least ${low}${unit}`;
  if (high !== undefined) return `at most ${high}${unit}`;
  return '';
}

/** Arguments naming the lead or company a tool looks up; an id that no document has is `not_found`. */
const LOOKUP_ARGUMENTS: Record<string, string> = { lead_id: 'lead', company_id: 'company' };

/**
 * The errors a tool can return, derived from what it declares rather than written per tool:
 * every call can be refused for its arguments or the call rate, meet a backend outage or fail
 * unexpectedly; a scope adds `insufficient_scope`, paid access `subscription_required`, a meter
 * `quota_exceeded`; a required `lead_id` or `company_id` (a lookup, unlike an optional filter,
 * which just matches nothing) adds `not_found`; and the `enrichments` meter is the one that goes
 * with a monthly credit, so it adds `insufficient_credits`. Listed in the order of src/errors.ts.
 */
export function toolErrors(
  tool: AnyToolDefinition,
  input: JsonSchema,
): Array<{ code: string; when: string }> {
  const errors: Array<{ code: string; when: string }> = [
    {
      code: 'invalid_argument',
      when: 'an argument is missing, of the wrong type, out of bounds, not allowed or unknown; `details.field` names it',
    },
  ];
  for (const name of input.required ?? []) {
    const what = LOOKUP_ARGUMENTS[name];
    if (what !== undefined) {
      errors.push({ code: 'not_found', when: `a well-formed ${code(name)} that no ${what} has` });
    }
  }
  if (tool.scope !== null) {
    errors.push({ code: 'insufficient_scope', when: `the credential lacks the scope ${code(tool.scope)}` });
  }
  if (tool.cost?.per === 'unlock') {
    errors.push({ code: 'insufficient_credits', when: 'no enrichment credits are left this month' });
  }
  if (tool.cost !== null) {
    errors.push({ code: 'quota_exceeded', when: `the daily ${code(tool.cost.quota)} quota is used up` });
  }
  errors.push({ code: 'rate_limited', when: 'the account is over its `calls_per_minute`' });
  if (tool.access === 'paid') {
    errors.push({
      code: 'subscription_required',
      when: 'the plan is not paid, or the subscription is not active or trialing',
    });
  }
  errors.push(
    { code: 'unavailable', when: 'a backend cannot be reached in time; nothing was charged; retry' },
    { code: 'internal', when: 'anything unexpected; `details.request_id` identifies the call in the logs' },
  );
  return errors;
}

function table(header: string[], rows: string[][]): string[] {
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)];
}

/** A table cell: one line, with the column separator escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function jsonBlock(value: unknown): string[] {
  return ['```json', json(value, ''), '```'];
}

const JSON_LINE_WIDTH = 100;

/** Pretty JSON that keeps a short list of plain values on one line, as a person would write it. */
function json(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const plain = value.every((item) => item === null || typeof item !== 'object');
    const inline = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    if (plain && indent.length + inline.length <= JSON_LINE_WIDTH) return inline;
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${json(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    const lines = entries.map(([key, field]) => `${inner}${JSON.stringify(key)}: ${json(field, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** Markdown blocks (a heading, a paragraph's lines, a table) with one blank line between them. */
function blocks(parts: Array<string | string[]>): string {
  return parts.map((part) => (Array.isArray(part) ? part.join('\n') : part)).join('\n\n');
}
