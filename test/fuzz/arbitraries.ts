import fc from 'fast-check';
import { DeepNesting, type FuzzJson, NumberLiteral, ObjectEntries, objectOf } from './json-text.js';

/**
 * Generators of hostile input. Values are `FuzzJson`: plain JSON plus markers for what
 * `JSON.stringify` cannot write (number literals such as `1e400`, duplicate keys, very deep
 * nesting). Expectations are always computed from what the server's `JSON.parse` makes of them.
 */

const LONE_SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF'];

/** Characters that break naive code: controls, NUL, lone surrogates, bidi overrides, escapes, combining marks. */
const oddCharacter = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\u0008',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u202e',
  '\ufeff',
  '\ufffd',
  '\uffff',
  ...LONE_SURROGATES,
  '"',
  '\\',
  '/',
  '<',
  '>',
  '&',
  "'",
  '`',
  '%',
  '$',
  '*',
  '?',
  '{',
  '}',
  '[',
  '.',
  ':',
  '\n',
  '\t',
  ' ',
  '😀',
  '👩‍💻',
  'é',
  'e\u0301',
  'ß',
  'İ',
  'ı',
  '中',
  'ض',
  '١',
);

/** One character of fuzz text: any code point, an odd one, or printable ASCII. */
export const fuzzCharacter = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: oddCharacter },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
);

/** Strings that look like other types, or that code often special-cases. */
const trickyString = fc.constantFrom(
  '',
  ' ',
  '   ',
  '\t\n',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '1e400',
  '5',
  ' 5',
  '5 ',
  '0x10',
  '1_000',
  '١٢',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  '$where',
  '{"$gt":""}',
  '*',
  '?',
  '\\',
  '"',
  '<script>alert(1)</script>',
  "'; DROP TABLE leads; --",
  // A template-injection probe, sent as the literal text.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder is the point
  '${7*7}',
  '%s%s%n',
  '../../etc/passwd',
  'a'.repeat(61),
  'a'.repeat(201),
  'a'.repeat(2001),
);

/** A string of `length` copies of one fuzz character: up to a few hundred KiB, some over the 1 MiB body cap once written. */
const hugeString = fc
  .record({ character: fuzzCharacter, length: fc.integer({ min: 1_000, max: 600_000 }) })
  .map(({ character, length }) => character.repeat(length));

export const hostileString = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: fuzzCharacter, maxLength: 40 }) },
  { weight: 3, arbitrary: trickyString },
  { weight: 1, arbitrary: hugeString },
);

/** Number literals as written in the JSON text: overflow, underflow, negative zero, beyond 2^53, odd forms. */
const numberLiteral = fc
  .constantFrom(
    '1e400',
    '-1e400',
    '1e-400',
    '-0',
    '-0.0',
    '0.0',
    '0e0',
    '1E2',
    '1e+2',
    '1.0',
    '25.0',
    '2.5e1',
    '1.5',
    '123456789012345678901234567890',
    '-123456789012345678901234567890',
    '9007199254740993',
    '1e308',
    '5e-324',
  )
  .map((text) => new NumberLiteral(text));

export const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, 1, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, Number.MAX_VALUE, 0.5, 1.5),
  numberLiteral,
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map((value) => new NumberLiteral(value.toString())),
);

/** Keys that prototype-pollution and naive lookups trip on, and names this server uses. */
export const hostileKey = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '__defineGetter__',
      '',
      ' ',
      'a.b',
      '0',
      '-1',
      '$where',
      '$gt',
      'task',
      '_meta',
      'name',
      'arguments',
      'cursor',
      'page_size',
      'jsonrpc',
      'id',
      'method',
      'params',
      'result',
      'error',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: fuzzCharacter, maxLength: 12 }) },
);

const leaf: fc.Arbitrary<FuzzJson> = fc.oneof(fc.constant(null), fc.boolean(), hostileNumber, hostileString);

/** Thousands of nested arrays or objects: recursive parsers and printers overflow their stack on these. */
const deepNesting: fc.Arbitrary<FuzzJson> = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 20, max: 2_000 }), fc.integer({ min: 2_000, max: 200_000 })),
    kind: fc.constantFrom('array' as const, 'object' as const),
  })
  .map(({ depth, kind }) => new DeepNesting(depth, kind));

/** Any JSON value, hostile at every level: odd keys, duplicate keys, odd numbers and strings, deep nesting. */
export const hostileJson: fc.Arbitrary<FuzzJson> = fc.letrec<{
  value: FuzzJson;
  array: FuzzJson;
  object: FuzzJson;
}>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    { weight: 6, arbitrary: leaf },
    { weight: 2, arbitrary: tie('array') },
    { weight: 2, arbitrary: tie('object') },
    { weight: 1, arbitrary: deepNesting },
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.oneof(
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((entries) => objectOf(entries)),
    // The same key twice: JSON.parse keeps the last one, other parsers the first.
    fc.tuple(hostileKey, tie('value'), tie('value')).map(
      ([key, first, second]) =>
        new ObjectEntries([
          [key, first],
          [key, second],
        ]),
    ),
  ),
})).value;

/** Small hostile values only: no huge strings or deep nesting, for places where many are combined. */
export const smallHostileJson: fc.Arbitrary<FuzzJson> = fc.oneof<fc.Arbitrary<FuzzJson>[]>(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  fc.oneof(fc.string({ unit: fuzzCharacter, maxLength: 20 }), trickyString),
  fc.constant<FuzzJson>([]),
  fc.constant<FuzzJson>({}),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { minLength: 1, maxLength: 3 }),
  fc
    .dictionary(hostileKey, fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { minKeys: 1, maxKeys: 2 })
    .map((dictionary) => objectOf(Object.entries(dictionary))),
);

/** A JSON value of any type but `type` (as `typeof` and Array.isArray tell JSON types apart once parsed). */
export function jsonOtherThan(
  type: 'string' | 'number' | 'boolean' | 'array' | 'object',
): fc.Arbitrary<FuzzJson> {
  const candidates: Record<typeof type, fc.Arbitrary<FuzzJson>> = {
    string: fc.string({ unit: fuzzCharacter, maxLength: 20 }),
    number: hostileNumber,
    boolean: fc.boolean(),
    array: fc.oneof(fc.constant<FuzzJson>([]), fc.array(smallHostileJson, { minLength: 1, maxLength: 3 })),
    object: fc.oneof(
      fc.constant<FuzzJson>({}),
      fc
        .dictionary(hostileKey, smallHostileJson, { minKeys: 1, maxKeys: 3 })
        .map((dictionary) => objectOf(Object.entries(dictionary))),
    ),
  };
  const others = (Object.keys(candidates) as (typeof type)[]).filter((other) => other !== type);
  return fc.oneof(fc.constant(null), ...others.map((other) => candidates[other]));
}
