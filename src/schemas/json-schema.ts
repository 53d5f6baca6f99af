import { z } from 'zod';

/** A JSON Schema node, as `z.toJSONSchema` writes it. */
type JsonSchema = { [keyword: string]: unknown };

/**
 * A tool's input or output schema as `tools/list` shows it: zod's draft 2020-12 JSON Schema, written
 * in the subset that clients with strict schema dialects accept (docs/results-and-errors.md): every
 * node carries a validation keyword, and a value that may be null is an `anyOf` of single types
 * rather than a `type` array. Both rewrites accept exactly the same values.
 */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return portable(z.toJSONSchema(schema, { io }) as JsonSchema);
}

/** Keywords that describe a node without constraining it; they stay where they are. */
const ANNOTATIONS = new Set([
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Keywords holding one subschema, a map of them, or a list of them. */
const SUBSCHEMA = ['items', 'contains', 'not', 'propertyNames', 'additionalProperties'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

function portable(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (SUBSCHEMA.includes(keyword) && isSchema(value)) {
      // zod writes a loose object's "anything else" as `{}`, which constrains nothing: say `true`.
      out[keyword] =
        keyword === 'additionalProperties' && Object.keys(value).length === 0 ? true : portable(value);
    } else if (SUBSCHEMA_MAPS.includes(keyword) && isSchema(value)) {
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? portable(sub) : sub]),
      );
    } else if (SUBSCHEMA_LISTS.includes(keyword) && Array.isArray(value)) {
      out[keyword] = value.map((sub) => (isSchema(sub) ? portable(sub) : sub));
    } else {
      out[keyword] = value;
    }
  }
  return Array.isArray(out.type) ? typeUnionAsAnyOf(out, out.type as string[]) : out;
}

/**
 * `{ type: ["string", "null"], maxLength: 5 }` as `{ anyOf: [{ type: "string", maxLength: 5 },
 * { type: "null" }] }`: each constraining keyword goes into the branches of the other types, where
 * it applies as before (a keyword constrains only values of its own type), annotations stay outside.
 */
function typeUnionAsAnyOf(node: JsonSchema, types: readonly string[]): JsonSchema {
  const outside: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'type') continue;
    (ANNOTATIONS.has(keyword) ? outside : constraints)[keyword] = value;
  }
  return {
    ...outside,
    anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...constraints })),
  };
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
