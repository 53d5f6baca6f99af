/**
 * JSON text with what `JSON.stringify` cannot write: number literals kept as written (`1e400`,
 * `-0`, integers beyond 2^53), keys in a chosen order with duplicates, and nesting deeper than a
 * recursive writer's stack allows. The fuzzer builds values from plain JSON data and these
 * markers; the server sees whatever `JSON.parse` makes of the text.
 */

/** A number written exactly as `text` (it must be a valid JSON number). */
export class NumberLiteral {
  constructor(readonly text: string) {}
}

/** An object written with these entries in this order, duplicate keys included. */
export class ObjectEntries {
  constructor(readonly entries: ReadonlyArray<readonly [string, FuzzJson]>) {}
}

/** `depth` nested arrays (or objects under the key "a") around `inner`. */
export class DeepNesting {
  constructor(
    readonly depth: number,
    readonly kind: 'array' | 'object',
    readonly inner: FuzzJson = null,
  ) {}
}

export type FuzzJson =
  | null
  | boolean
  | number
  | string
  | NumberLiteral
  | ObjectEntries
  | DeepNesting
  | FuzzJson[]
  | { [key: string]: FuzzJson };

/** The JSON text of `value`. Own `__proto__` keys are written like any other key. */
export function toJsonText(value: FuzzJson): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: FuzzJson, parts: string[]): void {
  if (value === null || typeof value === 'boolean') {
    parts.push(String(value));
  } else if (typeof value === 'number') {
    // Non-finite numbers have no JSON form; NumberLiteral is how a test sends 1e400.
    parts.push(Number.isFinite(value) ? (Object.is(value, -0) ? '-0' : String(value)) : 'null');
  } else if (typeof value === 'string') {
    parts.push(JSON.stringify(value));
  } else if (value instanceof NumberLiteral) {
    parts.push(value.text);
  } else if (value instanceof DeepNesting) {
    const [open, close] = value.kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
    parts.push(open.repeat(value.depth));
    write(value.inner, parts);
    parts.push(close.repeat(value.depth));
  } else if (value instanceof ObjectEntries) {
    writeEntries(value.entries, parts);
  } else if (Array.isArray(value)) {
    parts.push('[');
    value.forEach((item, index) => {
      if (index > 0) parts.push(',');
      write(item, parts);
    });
    parts.push(']');
  } else {
    writeEntries(
      Object.keys(value).map((key) => [key, value[key] as FuzzJson] as const),
      parts,
    );
  }
}

function writeEntries(entries: ReadonlyArray<readonly [string, FuzzJson]>, parts: string[]): void {
  parts.push('{');
  entries.forEach(([key, item], index) => {
    if (index > 0) parts.push(',');
    parts.push(JSON.stringify(key), ':');
    write(item, parts);
  });
  parts.push('}');
}

/** A plain object holding `entries` as own enumerable properties, `__proto__` included. */
export function objectOf(entries: Iterable<readonly [string, FuzzJson]>): { [key: string]: FuzzJson } {
  const object: { [key: string]: FuzzJson } = {};
  for (const [key, item] of entries) {
    Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** A short, printable description of a long text, for failure messages. */
export function abbreviate(text: string, max = 600): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
