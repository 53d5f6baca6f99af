import type { z } from 'zod';

/**
 * A fast way through a zod schema for the values it accepts: the schema's definition (zod's
 * `_zod.def`, which zod documents for library authors) compiled once into plain functions that
 * check a value and build the same output zod's `safeParse` would (defaults filled in, strings
 * trimmed, keys in the schema's order). They only ever say "yes, and here is the output" or
 * "ask zod": a value they do not accept, and any part of a schema they do not know, goes to the
 * schema itself, so refusals and their messages stay zod's. Ingest checks every record, and most
 * are valid: zod's general machinery (an issue list and a result object per field) was about a
 * fifth of the loader's CPU (docs/performance.md, "Loading the feed").
 */

/** "Not accepted here": zod decides. */
const ASK_ZOD: unique symbol = Symbol('ask zod');
type Compiled = (value: unknown) => unknown;

interface CheckDef {
  check: string;
  when?: (payload: { value: unknown; issues: unknown[] }) => boolean;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
  tx?: (value: unknown) => unknown;
  fn?: (value: unknown) => unknown;
}

interface Internals {
  def: {
    type: string;
    checks?: Array<{ _zod: { def: CheckDef } }>;
    coerce?: boolean;
    shape?: Record<string, Schema>;
    catchall?: Schema;
    innerType?: Schema;
    element?: Schema;
    options?: Schema[];
    values?: unknown[];
    entries?: Record<string, unknown>;
    defaultValue?: unknown;
  } & Partial<CheckDef>;
  traits: Set<string>;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
}

interface Schema {
  _zod: Internals;
}

/** One of zod's checks on an already parsed value, or undefined when this compiler does not know it. */
function compileCheck(check: CheckDef): ((value: unknown) => unknown) | undefined {
  const passes = (test: (value: never) => boolean) => (value: unknown) =>
    test(value as never) ? value : ASK_ZOD;
  switch (check.check) {
    case 'overwrite': {
      const tx = check.tx;
      return tx && ((value) => tx(value));
    }
    case 'min_length':
      return passes((value: { length: number }) => value.length >= (check.minimum as number));
    case 'max_length':
      return passes((value: { length: number }) => value.length <= (check.maximum as number));
    case 'greater_than':
      return passes((value: number) =>
        check.inclusive ? value >= (check.value as number) : value > (check.value as number),
      );
    case 'less_than':
      return passes((value: number) =>
        check.inclusive ? value <= (check.value as number) : value < (check.value as number),
      );
    case 'number_format':
      return check.format === 'safeint' ? passes((value: number) => Number.isSafeInteger(value)) : undefined;
    case 'string_format': {
      // Only the formats that are a pattern test alone (others, such as URLs, check more).
      const pattern = check.pattern;
      if (!pattern || (check.format !== 'regex' && check.format !== 'date')) return undefined;
      return passes((value: string) => {
        pattern.lastIndex = 0;
        return pattern.test(value);
      });
    }
    case 'custom': {
      const fn = check.fn;
      return fn && passes((value) => Boolean(fn(value)));
    }
    default:
      return undefined;
  }
}

/** The schema's own type test and its checks, in zod's order: the type, then a format the schema is, then `.checks`. */
function withChecks(schema: Schema, parse: Compiled): Compiled {
  const { def, traits } = schema._zod;
  const checkDefs = [
    ...(traits.has('$ZodCheck') ? [def as CheckDef] : []),
    ...(def.checks ?? []).map((c) => c._zod.def),
  ];
  const steps: Array<{ when: CheckDef['when']; transforms: boolean; run: (value: unknown) => unknown }> = [];
  for (const check of checkDefs) {
    const run = compileCheck(check);
    if (!run) return () => ASK_ZOD;
    steps.push({ when: check.when, transforms: check.check === 'overwrite', run });
  }
  if (steps.length === 0) return parse;
  return (input) => {
    let value = parse(input);
    for (const step of steps) {
      if (value === ASK_ZOD) return ASK_ZOD;
      // A check that passes passes whether or not its `when` would run it; a transform asks first.
      if (step.transforms && step.when && !step.when({ value, issues: [] })) continue;
      const next = step.run(value);
      if (next === ASK_ZOD && step.when && !step.when({ value, issues: [] })) continue;
      value = next;
    }
    return value;
  };
}

function compileObject(def: Internals['def']): Compiled {
  const catchall = def.catchall?._zod.def.type;
  if (catchall !== undefined && catchall !== 'never') return () => ASK_ZOD;
  const fields = Object.entries(def.shape ?? {})
    .filter(([key]) => key !== '__proto__')
    .map(([key, schema]) => ({
      key,
      run: compile(schema),
      optin: schema._zod.optin,
      optional: schema._zod.optout === 'optional',
    }));
  const known = new Set(fields.map((field) => field.key));
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return ASK_ZOD;
    const record = input as Record<string, unknown>;
    const output: Record<string, unknown> = {};
    for (const field of fields) {
      const present = field.key in record;
      const value = field.run(record[field.key]);
      if (field.optin === undefined) {
        if (!present || value === ASK_ZOD) return ASK_ZOD;
        output[field.key] = value;
      } else if (field.optional) {
        if (value === ASK_ZOD) {
          if (present) return ASK_ZOD;
        } else if (field.optin === 'optional' ? present : value !== undefined || present) {
          output[field.key] = value;
        }
      } else {
        if (value === ASK_ZOD) return ASK_ZOD;
        if (field.optin === 'defaulted' || value !== undefined || present) output[field.key] = value;
      }
    }
    if (catchall === 'never') {
      for (const key in record) if (!known.has(key)) return ASK_ZOD;
    }
    return output;
  };
}

function compileType(schema: Schema): Compiled {
  const { def } = schema._zod;
  if (def.coerce) return () => ASK_ZOD;
  switch (def.type) {
    case 'string':
      return (value) => (typeof value === 'string' ? value : ASK_ZOD);
    case 'number':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? value : ASK_ZOD);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? value : ASK_ZOD);
    case 'literal': {
      const values = new Set(def.values);
      return (value) => (values.has(value) ? value : ASK_ZOD);
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (values.some((value) => typeof value !== 'string')) return () => ASK_ZOD;
      const accepted = new Set(values);
      return (value) => (accepted.has(value) ? value : ASK_ZOD);
    }
    case 'object':
      return compileObject(def);
    case 'array': {
      const element = compile(def.element as Schema);
      return (value) => {
        if (!Array.isArray(value)) return ASK_ZOD;
        const output = new Array<unknown>(value.length);
        for (let index = 0; index < value.length; index++) {
          const item = element(value[index]);
          if (item === ASK_ZOD) return ASK_ZOD;
          output[index] = item;
        }
        return output;
      };
    }
    case 'union': {
      if (def.inclusive === false) return () => ASK_ZOD; // an exclusive union (z.xor)
      const options = (def.options ?? []).map(compile);
      return (value) => {
        for (const option of options) {
          const output = option(value);
          if (output !== ASK_ZOD) return output;
        }
        return ASK_ZOD;
      };
    }
    case 'optional': {
      const inner = compile(def.innerType as Schema);
      const innerDefaulted = def.innerType?._zod.optin === 'defaulted';
      return (value) => (value === undefined && !innerDefaulted ? undefined : inner(value));
    }
    case 'nullable': {
      const inner = compile(def.innerType as Schema);
      return (value) => (value === null ? null : inner(value));
    }
    case 'default': {
      const inner = compile(def.innerType as Schema);
      return (value) => {
        if (value === undefined) return def.defaultValue;
        const output = inner(value);
        return output === undefined ? def.defaultValue : output;
      };
    }
    default:
      return () => ASK_ZOD;
  }
}

function compile(schema: Schema): Compiled {
  return withChecks(schema, compileType(schema));
}

/**
 * `schema`'s output for `value` when the compiled check accepts it, else `undefined`: then
 * `schema.safeParse(value)` decides (and says why it refuses). For schemas whose output is never
 * `undefined` (records are objects).
 */
export function compileAcceptance<T>(schema: z.ZodType<T>): (value: unknown) => T | undefined {
  const compiled = compile(schema as unknown as Schema);
  return (value) => {
    const output = compiled(value);
    return output === ASK_ZOD ? undefined : (output as T);
  };
}
