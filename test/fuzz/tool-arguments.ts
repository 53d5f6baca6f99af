import fc from 'fast-check';
import {
  fuzzCharacter,
  hostileJson,
  hostileKey,
  hostileString,
  jsonOtherThan,
  smallHostileJson,
} from './arbitraries.js';
import { type FuzzJson, NumberLiteral, objectOf } from './json-text.js';

/**
 * Tool arguments derived from each tool's `inputSchema` as `tools/list` publishes it, so every
 * tool and parameter is covered, new ones included, without a list kept by hand.
 */

/** The part of JSON Schema the tools' input schemas use. */
export interface ParameterSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  enum?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: ParameterSchema;
  maxItems?: number;
  properties?: Record<string, ParameterSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

export interface ToolSchema {
  name: string;
  inputSchema: ParameterSchema;
}

/** Real values of the seeded data set, so that valid arguments also reach the handlers' happy paths. */
export interface KnownValues {
  /** Ids by the pattern they match, e.g. `^ld_[0-9A-Za-z]{10}$` → seeded lead ids. */
  idsByPattern: Record<string, string[]>;
}

/** One bad value and the field an `invalid_argument` error must name for it. */
export interface Poisoned {
  args: { [key: string]: FuzzJson };
  field: string;
}

const REALISTIC_TEXT = [
  'London',
  'Berlin',
  'München',
  'UK',
  'DE',
  'Bavaria',
  'engineer',
  'backend engineer',
  'Python',
  'Kubernetes',
  'Fintech',
  'bank',
  'data',
];

/** Parameters left out of generated valid arguments: a cursor has its own property. */
const UNGENERATED = new Set(['cursor']);

/** A value the schema accepts (as the server's parser reads it: strings are trimmed before length checks). */
function validValue(schema: ParameterSchema, known: KnownValues): fc.Arbitrary<FuzzJson> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return schema.pattern ? idLike(schema.pattern, known) : validText(schema.maxLength ?? 100);
    case 'integer':
    case 'number':
      return validInteger(schema.minimum ?? -(2 ** 31), schema.maximum ?? 2 ** 31);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(schema.items ?? {}, known), {
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object':
      return validArguments(schema, known);
    default:
      return smallHostileJson;
  }
}

/**
 * One `stringMatching` arbitrary per pattern, built once: building one costs fast-check far more
 * than drawing from it (about 3 s of a fuzz run's CPU when each case built its own), and the
 * argument arbitraries are built again for every case, inside `chain`.
 */
const matchingArbitraries = new Map<string, fc.Arbitrary<string>>();

function matching(pattern: string): fc.Arbitrary<string> {
  let arbitrary = matchingArbitraries.get(pattern);
  if (arbitrary === undefined) {
    arbitrary = fc.stringMatching(new RegExp(pattern));
    matchingArbitraries.set(pattern, arbitrary);
  }
  return arbitrary;
}

function idLike(pattern: string, known: KnownValues): fc.Arbitrary<FuzzJson> {
  const real = known.idsByPattern[pattern] ?? [];
  const generated = matching(pattern);
  return real.length > 0 ? fc.oneof(fc.constantFrom(...real), generated) : generated;
}

function validText(maxLength: number): fc.Arbitrary<FuzzJson> {
  return fc.oneof(
    fc.constantFrom(...REALISTIC_TEXT.filter((text) => text.length <= maxLength)),
    // A leading letter keeps it non-blank once trimmed; slicing by code units may leave a lone surrogate, which is fine.
    fc
      .string({ unit: fuzzCharacter, maxLength: Math.min(maxLength - 1, 30) })
      .map((text) => `x${text}`.slice(0, maxLength)),
  );
}

function validInteger(min: number, max: number): fc.Arbitrary<FuzzJson> {
  return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max)).chain((value) =>
    fc.constantFrom<FuzzJson>(
      value,
      // The same number written differently is the same number to the server.
      new NumberLiteral(`${value}.0`),
      new NumberLiteral(`${value}e0`),
      ...(value === 0 ? [new NumberLiteral('-0')] : []),
    ),
  );
}

/** An object the schema accepts: every required parameter, and any of the others. */
function validArguments(
  schema: ParameterSchema,
  known: KnownValues,
): fc.Arbitrary<{ [key: string]: FuzzJson }> {
  const properties = Object.entries(schema.properties ?? {}).filter(([name]) => !UNGENERATED.has(name));
  const required = new Set(schema.required ?? []);
  return fc
    .tuple(
      ...properties.map(([name, property]) =>
        required.has(name)
          ? validValue(property, known).map((value) => [name, value] as const)
          : fc.option(
              validValue(property, known).map((value) => [name, value] as const),
              { nil: undefined, freq: 2 },
            ),
      ),
    )
    .map((entries) => objectOf(entries.filter((entry) => entry !== undefined)))
    .filter(crossFieldRulesHold);
}

/**
 * The rules between parameters that JSON Schema cannot state (src/schemas/inputs.ts refines them):
 * a salary range in order, and a breakdown other than the grouping. A valid call keeps them.
 */
function crossFieldRulesHold(args: { [key: string]: FuzzJson }): boolean {
  const asNumber = (value: FuzzJson | undefined) =>
    value instanceof NumberLiteral ? Number(value.text) : typeof value === 'number' ? value : undefined;
  const min = asNumber(args.min_annual_salary);
  const max = asNumber(args.max_annual_salary);
  if (min !== undefined && max !== undefined && max < min) return false;
  return args.breakdown_by === undefined || args.breakdown_by !== args.group_by;
}

/** Values the schema refuses, each with the field the refusal must name (`path`, or deeper for lists and objects). */
function invalidValue(
  schema: ParameterSchema,
  path: string,
  known: KnownValues,
): fc.Arbitrary<{ value: FuzzJson; field: string }> {
  const here = (value: fc.Arbitrary<FuzzJson>) => value.map((item) => ({ value: item, field: path }));
  if (schema.enum) {
    const allowed = schema.enum;
    return fc.oneof(
      here(jsonOtherThan('string')),
      here(
        fc
          .oneof(
            fc.constantFrom(...allowed).map((value) => value.toLowerCase()),
            fc.constantFrom(...allowed).map((value) => value.toUpperCase()),
            fc.constantFrom(...allowed).map((value) => ` ${value}`),
            fc.string({ unit: fuzzCharacter, maxLength: 12 }),
          )
          .filter((value) => !allowed.includes(value)),
      ),
    );
  }
  switch (schema.type) {
    case 'string':
      return schema.pattern ? here(invalidId(schema.pattern)) : here(invalidText(schema));
    case 'integer':
    case 'number':
      return here(
        invalidInteger(
          schema.minimum ?? Number.NEGATIVE_INFINITY,
          schema.maximum ?? Number.POSITIVE_INFINITY,
        ),
      );
    case 'boolean':
      return here(jsonOtherThan('boolean'));
    case 'array':
      return invalidArray(schema, path, known);
    case 'object':
      return fc.oneof(
        here(jsonOtherThan('object')),
        poisonedArguments(schema, known).map(({ args, field }) => ({
          value: args,
          field: `${path}.${field}`,
        })),
      );
    default:
      throw new Error(`No invalid values for a parameter schema of type ${schema.type}`);
  }
}

function invalidId(pattern: string): fc.Arbitrary<FuzzJson> {
  const regex = new RegExp(pattern);
  const valid = matching(pattern);
  return fc.oneof(
    jsonOtherThan('string'),
    fc
      .oneof(
        valid.map((id) => `${id}x`),
        valid.map((id) => id.slice(0, -1)),
        valid.map((id) => ` ${id}`),
        valid.map((id) => id.toUpperCase()),
        valid.map((id) => `${id.slice(0, 3)}${'_'.repeat(10)}`),
        valid.map((id) => `${id}\u0000`),
        hostileString,
      )
      .filter((id) => !regex.test(id)),
  );
}

function invalidText(schema: ParameterSchema): fc.Arbitrary<FuzzJson> {
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const tooLong = Number.isFinite(max)
    ? [
        fc
          .tuple(
            fuzzCharacter.filter((character) => character.trim() === character && character.length === 1),
            fc.integer({ min: 1, max: 1000 }),
          )
          .map(([character, extra]) => character.repeat(max + extra)),
      ]
    : [];
  return fc.oneof(
    jsonOtherThan('string'),
    ...(schema.minLength !== undefined && schema.minLength > 0
      ? [fc.constantFrom('', ' ', '\t', '\n \r', '\u00a0', '\u3000', '\ufeff')]
      : []),
    ...tooLong,
  );
}

function invalidInteger(min: number, max: number): fc.Arbitrary<FuzzJson> {
  const outside: FuzzJson[] = [];
  if (Number.isFinite(min)) outside.push(min - 1, min - 1000);
  if (Number.isFinite(max)) outside.push(max + 1, max * 1000 + 1);
  if (min > 0) outside.push(new NumberLiteral('-0'), 0);
  return fc.oneof(
    jsonOtherThan('number'),
    fc.constantFrom(...outside),
    fc.constantFrom(
      new NumberLiteral('1e400'),
      new NumberLiteral('-1e400'),
      new NumberLiteral('123456789012345678901234567890'),
      new NumberLiteral('9007199254740993'),
      1.5,
      Number.EPSILON,
      -(2 ** 53),
    ),
    // Fractions inside the range, written as the client wrote them.
    fc
      .double({ min: Number.isFinite(min) ? min : -1e6, max: Number.isFinite(max) ? max : 1e6, noNaN: true })
      .filter((value) => !Number.isInteger(value)),
  );
}

function invalidArray(
  schema: ParameterSchema,
  path: string,
  known: KnownValues,
): fc.Arbitrary<{ value: FuzzJson; field: string }> {
  const items = schema.items ?? {};
  const maxItems = schema.maxItems;
  const variants: fc.Arbitrary<{ value: FuzzJson; field: string }>[] = [
    jsonOtherThan('array').map((value) => ({ value, field: path })),
    // One bad element among valid ones: the error names the element.
    fc
      .tuple(
        fc.array(validValue(items, known), { maxLength: Math.max(0, Math.min((maxItems ?? 5) - 1, 4)) }),
        invalidValue(items, '', known),
        fc.nat(),
      )
      .map(([valid, bad, at]) => {
        const index = at % (valid.length + 1);
        const value = [...valid.slice(0, index), bad.value, ...valid.slice(index)];
        return { value, field: `${path}.${index}${bad.field}` };
      }),
  ];
  if (maxItems !== undefined) {
    variants.push(
      fc
        .array(validValue(items, known), { minLength: maxItems + 1, maxLength: maxItems + 3 })
        .map((value) => ({ value, field: path })),
    );
  }
  return fc.oneof(...variants);
}

/** Valid arguments but for exactly one parameter: wrong type, out of range, unknown, or a required one missing. */
export function poisonedArguments(schema: ParameterSchema, known: KnownValues): fc.Arbitrary<Poisoned> {
  const properties = Object.keys(schema.properties ?? {});
  const variants: fc.Arbitrary<Poisoned>[] = [
    // An unknown parameter, prototype keys included.
    fc
      .tuple(
        validArguments(schema, known),
        hostileKey.filter((key) => !properties.includes(key)),
        smallHostileJson,
      )
      .map(([args, key, value]) => ({ args: objectOf([...ownEntries(args), [key, value]]), field: key })),
  ];
  if (properties.length > 0) {
    variants.push(
      fc.tuple(validArguments(schema, known), fc.constantFrom(...properties)).chain(([args, name]) =>
        invalidValue(schema.properties?.[name] ?? {}, name, known).map((bad) => ({
          args: objectOf([...ownEntries(args).filter(([key]) => key !== name), [name, bad.value]]),
          field: bad.field,
        })),
      ),
    );
  }
  for (const name of schema.required ?? []) {
    variants.push(
      validArguments(schema, known).map((args) => ({
        args: objectOf(ownEntries(args).filter(([key]) => key !== name)),
        field: name,
      })),
    );
  }
  return fc.oneof(...variants);
}

/** Anything at all: valid arguments, valid, invalid and hostile values per parameter with unknown keys, or a whole hostile object. */
export function anyArguments(
  schema: ParameterSchema,
  known: KnownValues,
): fc.Arbitrary<{ [key: string]: FuzzJson }> {
  const properties = Object.entries(schema.properties ?? {});
  const perParameter = fc
    .tuple(
      ...properties.map(([name, property]) =>
        fc.option(
          fc
            .oneof(
              { weight: 3, arbitrary: validValue(property, known) },
              { weight: 2, arbitrary: invalidValue(property, name, known).map((bad) => bad.value) },
              { weight: 1, arbitrary: hostileJson },
            )
            .map((value) => [name, value] as const),
          { nil: undefined, freq: 2 },
        ),
      ),
      fc.array(fc.tuple(hostileKey, smallHostileJson), { maxLength: 2 }),
    )
    .map(([...parts]) => {
      const extra = parts.pop() as Array<[string, FuzzJson]>;
      const entries = (parts as Array<readonly [string, FuzzJson] | undefined>).filter(
        (entry) => entry !== undefined,
      );
      return objectOf([...entries, ...extra]);
    });
  const wholeObject = fc
    .array(fc.tuple(hostileKey, hostileJson), { maxLength: 4 })
    .map((entries) => objectOf(entries));
  // Valid arguments reach the handlers and the backends, with odd but acceptable text, numbers and ids.
  return fc.oneof(
    { weight: 3, arbitrary: validArguments(schema, known) },
    { weight: 4, arbitrary: perParameter },
    { weight: 1, arbitrary: wholeObject },
  );
}

function ownEntries(object: { [key: string]: FuzzJson }): Array<readonly [string, FuzzJson]> {
  return Object.keys(object).map((key) => [key, object[key] as FuzzJson] as const);
}
