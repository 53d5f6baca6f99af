import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { companyDirectory, generateCompanies } from '../../seed/generate-companies.js';
import { generateLeads } from '../../seed/generate-leads.js';
import { generateSignals } from '../../seed/generate-signals.js';
import { compileAcceptance } from '../../src/feed/compiled-check.js';
import { companyRecord, leadClosureRecord, leadRecord, signalRecord } from '../../src/feed/records.js';

/**
 * The compiled acceptance must say yes exactly when zod does, with exactly zod's output (the
 * same values, the same keys in the same order, `undefined` where zod keeps a key undefined):
 * every record ingest lets through it is derived as if zod had parsed it.
 */

/** Deep equality that also compares key order and own keys holding `undefined`. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.join('\u0000') !== keysB.join('\u0000')) return false;
  return keysA.every((key) =>
    sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function agreesWithZod(schema: z.ZodType, accept: (value: unknown) => unknown, value: unknown): boolean {
  const parsed = schema.safeParse(value);
  const accepted = accept(value);
  if (!parsed.success) return accepted === undefined;
  return accepted !== undefined && sameValue(accepted, parsed.data);
}

const OPTIONS = { seed: 42, now: '2026-11-01' };
const directory = companyDirectory(200, OPTIONS);
const samples = {
  leads: [...generateLeads(1500, directory, OPTIONS)] as unknown[],
  companies: [...generateCompanies(200, OPTIONS)] as unknown[],
  signals: [...generateSignals(300, directory, OPTIONS)] as unknown[],
};

/** Values that sit on the schemas' edges: padded, empty, too long, of another type, dates that are not days. */
const edgeValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    ' padded ',
    '\u00a0nbsp\u00a0',
    'tab\t',
    'x'.repeat(100),
    'x'.repeat(101),
    'x'.repeat(201),
    'x'.repeat(301),
    '2026-02-29',
    '2028-02-29',
    '2026-13-01',
    'https://ok.example/x',
    'https://bad example',
    'ftp://x',
    'DE',
    'XX',
    'EUR',
    'CHF',
    'open',
    'closed',
    'Full-time',
    'Remote',
    0,
    -1,
    1,
    1.5,
    60,
    61,
    90.5,
    1599,
    2200,
    100_000_001,
    Number.MAX_SAFE_INTEGER + 2,
    null,
    true,
    [],
    {},
    { key: 'demo-42-1' },
    { name: ' Acme ' },
    { key: 'a', name: 'b' },
    { text: 'Berlin' },
    { lat: 48.1, lon: 11.5 },
    { lat: 48.1 },
    { text: ' Munich ', lat: 48.1, lon: 11.5 },
    { min: 5, max: 3, currency: 'EUR', period: 'year' },
    { min: 3, max: 5, currency: 'EUR', period: 'day' },
    { min: 2, max: null },
    [' a ', 'b'],
    Array.from({ length: 51 }, () => 's'),
  ),
  fc.jsonValue({ maxDepth: 2 }),
  fc.anything({ maxDepth: 2 }),
);

type Mutation = { path: number; op: 'set' | 'delete' | 'pad' | 'extra' | 'undefined'; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.nat(),
  op: fc.constantFrom('set', 'delete', 'pad', 'extra', 'undefined'),
  value: edgeValue,
});

function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const nested = Object.entries(value).flatMap(([key, child]) => pathsOf(child, [...prefix, key]));
  return [prefix, ...nested];
}

function mutated(record: unknown, mutations: readonly Mutation[]): unknown {
  const copy = structuredClone(record) as Record<string, unknown>;
  for (const { path, op, value } of mutations) {
    const paths = pathsOf(copy).filter((candidate) => candidate.length > 0);
    const chosen = paths[path % paths.length];
    if (!chosen) continue;
    let parent = copy as Record<string, unknown>;
    for (const key of chosen.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    const key = chosen[chosen.length - 1] as string;
    if (op === 'delete') delete parent[key];
    else if (op === 'undefined') parent[key] = undefined;
    else if (op === 'extra') parent[`${key}_extra`] = value;
    else if (op === 'pad' && typeof parent[key] === 'string') parent[key] = ` ${parent[key]}\n`;
    else parent[key] = structuredClone(value);
  }
  return copy;
}

describe('the compiled acceptance of feed records', () => {
  const kinds: ReadonlyArray<readonly [keyof typeof samples, z.ZodType]> = [
    ['leads', leadRecord],
    ['companies', companyRecord],
    ['signals', signalRecord],
  ];

  it.each(kinds)('accepts every generated %s record with zod’s output', (kind, schema) => {
    const accept = compileAcceptance(schema);
    for (const record of samples[kind]) {
      expect(accept(record)).toBeDefined();
      expect(agreesWithZod(schema, accept, record)).toBe(true);
    }
  });

  it.each(kinds)('agrees with zod on changed %s records', (kind, schema) => {
    const accept = compileAcceptance(schema);
    fc.assert(
      fc.property(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 3 }), (index, mutations) => {
        const record = samples[kind][index % samples[kind].length];
        return agreesWithZod(schema, accept, mutated(record, mutations));
      }),
      { numRuns: 4000, seed: 30 },
    );
  });

  it('agrees with zod on closures and on values that are not records', () => {
    const accept = compileAcceptance(leadClosureRecord);
    const closure = { feed_version: 1, source: 'acme', source_id: 'req-1', status: 'closed' };
    expect(accept(closure)).toEqual(closure);
    fc.assert(
      fc.property(fc.array(mutation, { maxLength: 2 }), (mutations) =>
        agreesWithZod(leadClosureRecord, accept, mutated(closure, mutations)),
      ),
      { numRuns: 1000, seed: 30 },
    );
    for (const value of [null, 1, 'text', [], [closure], Object.create(closure)]) {
      expect(agreesWithZod(leadRecord, compileAcceptance(leadRecord), value)).toBe(true);
    }
  });

  it('leaves to zod what it does not know', () => {
    const schema = z.object({ when: z.iso.datetime(), site: z.url(), count: z.coerce.number() });
    const accept = compileAcceptance(schema);
    expect(accept({ when: '2026-11-01T00:00:00Z', site: 'https://a.example', count: 1 })).toBeUndefined();
  });
});
