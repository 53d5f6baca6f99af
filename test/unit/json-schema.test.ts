import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolJsonSchema } from '../../src/schemas/json-schema.js';

describe('toolJsonSchema', () => {
  const schema = z.looseObject({
    name: z.string().max(5).nullable().describe('may be null'),
    count: z.int().min(0).nullable(),
    nested: z.looseObject({ tags: z.array(z.string()) }).nullable(),
    open: z.strictObject({ a: z.boolean() }),
  });
  const json = toolJsonSchema(schema, 'output');

  it('writes a nullable value as an anyOf of single types, its constraints in the typed branch', () => {
    const properties = json.properties as Record<string, unknown>;
    expect(properties.name).toEqual({
      description: 'may be null',
      anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }],
    });
    expect(properties.count).toEqual({
      anyOf: [{ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, { type: 'null' }],
    });
    expect(JSON.stringify(json)).not.toContain('"type":[');
  });

  it("says a loose object's other properties are allowed with true, keeping strict objects closed", () => {
    expect(json.additionalProperties).toBe(true);
    expect(JSON.stringify(json)).not.toContain('"additionalProperties":{}');
    expect(
      (json.properties as Record<string, { additionalProperties: unknown }>).open?.additionalProperties,
    ).toBe(false);
  });

  it('accepts exactly the values zod accepts', () => {
    const validate = new AjvJsonSchemaValidator().getValidator(json as never);
    const values: unknown[] = [
      { name: 'abc', count: 1, nested: { tags: ['x'] }, open: { a: true } },
      { name: null, count: null, nested: null, open: { a: false }, extra: 1 },
      { name: 'abcdef', count: 1, nested: null, open: { a: true } },
      { name: 'a', count: -1, nested: null, open: { a: true } },
      { name: 'a', count: 1, nested: { tags: [1] }, open: { a: true } },
      { name: 'a', count: 1, nested: null, open: { a: true, b: 1 } },
      { name: 'a', nested: null, open: { a: true } },
    ];
    for (const value of values) {
      expect(validate(value).valid, JSON.stringify(value)).toBe(schema.safeParse(value).success);
    }
  });
});
