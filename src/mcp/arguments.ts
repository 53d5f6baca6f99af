import { z } from 'zod';
import { editsWithin, listInWords } from '../domain/words.js';
import { InvalidArgument } from '../errors.js';
import { fixedValuesMeant, withSingulars } from '../reference/fixed-values.js';
import { CURRENCY_NAMES, fixedValueKey } from '../reference/vocabulary.js';

/**
 * Validates a tool's arguments, turning the first problem into `InvalidArgument` whose
 * `details.field` is the dotted path of the bad value (`filters.radius_km`, `skills.2`) and
 * whose message says what to send instead: for a value outside a fixed list that means values
 * of it ("remote", "UK"), those values (docs/search-semantics.md, "Fixed values").
 */
export function parseToolArguments<Schema extends z.ZodType>(
  schema: Schema,
  args: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(args ?? {}, { reportInput: true, error: describeIssue });
  if (parsed.success) return parsed.data;
  const [first, ...others] = parsed.error.issues;
  if (!first) throw new InvalidArgument('arguments', 'The arguments are not valid.');
  const { field, message } = explainIssue(schema, first);
  const more =
    others.length > 0 ? ` (${others.length} more problem${others.length > 1 ? 's' : ''} after this one)` : '';
  throw new InvalidArgument(field, `${message}${more}`);
}

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

/** Messages for the issues a schema has no message of its own for. */
function describeIssue(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${typeName(String(issue.expected))}`;
    case 'invalid_value': {
      const allowed = issue.values.map((value) => JSON.stringify(value)).join(', ');
      return issue.input === undefined ? `is required; one of: ${allowed}` : `must be one of: ${allowed}`;
    }
    case 'too_big':
      return `must be at most ${issue.maximum}`;
    case 'too_small':
      return `must be at least ${issue.minimum}`;
    default:
      return undefined;
  }
}

function typeName(expected: string): string {
  const names: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    array: 'a list',
    object: 'an object',
  };
  return names[expected] ?? `of type ${expected}`;
}

function explainIssue(schema: z.ZodType, issue: Issue): { field: string; message: string } {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const field = [...path, issue.keys[0] ?? ''].join('.');
    const allowed = objectKeysAt(schema, issue.path);
    const list = allowed.length > 0 ? `; the allowed parameters here are: ${allowed.join(', ')}` : '';
    const meant = parameterMeant(allowed, issue.keys[0] ?? '');
    const suggestion = meant === undefined ? '' : ` Did you mean "${meant}"?`;
    return { field, message: `Unknown parameter "${field}": remove it${list}.${suggestion}` };
  }
  if (path.length === 0) {
    return { field: 'arguments', message: `The arguments ${issue.message}.` };
  }
  const field = path.join('.');
  // A custom check compares several fields; echoing its input would echo every argument.
  const received =
    issue.input === undefined || issue.code === 'custom' ? '' : ` (received ${preview(issue.input)})`;
  return {
    field,
    message: `${field} ${issue.message}${received}.${valuesMeant(issue)}${amountMeant(issue)}`,
  };
}

/** A number written as text the way people write amounts: "50k", "£60,000", "1.2m", "€ 70 000". */
const WRITTEN_AMOUNT = /^([£€$])? ?(\d{1,3}(?:[, ]\d{3})+|\d+)(?:\.(\d{1,3}))? ?([km])?$/i;
const AMOUNT_SUFFIXES: Readonly<Record<string, number>> = { k: 1_000, m: 1_000_000 };
const LONGEST_WRITTEN_AMOUNT = 32;

/**
 * " Did you mean 50000?" for a number sent as the text of an amount ("50k"); with the currency
 * its sign names where the field is a salary. Else "".
 */
function amountMeant(issue: Issue): string {
  if (issue.code !== 'invalid_type' || typeof issue.input !== 'string') return '';
  if (issue.input.length > LONGEST_WRITTEN_AMOUNT) return '';
  const written = WRITTEN_AMOUNT.exec(issue.input.trim());
  if (!written) return '';
  const [, sign, whole = '', fraction, suffix] = written;
  // In whole units, so "1.1k" is 1100 exactly: the digits times the suffix, over the decimals.
  const digits = Number(`${whole.replace(/[, ]/g, '')}${fraction ?? ''}`);
  const amount =
    (digits * (AMOUNT_SUFFIXES[suffix?.toLowerCase() ?? ''] ?? 1)) / 10 ** (fraction?.length ?? 0);
  if (!Number.isSafeInteger(amount)) return '';
  const currency =
    sign && String(issue.path.at(-1)).endsWith('_salary')
      ? CURRENCY_NAMES.get(fixedValueKey(sign))?.[0]
      : undefined;
  return currency
    ? ` Did you mean ${amount}, with salary_currency "${currency}"?`
    : ` Did you mean ${amount}?`;
}

/** Edits within which a parameter's name is taken for a misspelling of an allowed one ("skill"). */
const PARAMETER_EDITS = 2;
/** A name of only shorter words ("id", "by") is in too many parameters' names to say which is meant. */
const MEANINGFUL_WORD = 4;

/**
 * The one allowed parameter an unknown name most likely means: its words all in the allowed name
 * ("min_salary" for min_annual_salary, "level" for experience_level), or a close spelling of it
 * or its singular ("skill", "loaction", "industries", "category"); else undefined, as when several
 * would do.
 */
function parameterMeant(allowed: readonly string[], typed: string): string | undefined {
  const name = typed.toLowerCase();
  const words = name.split(/[_\s-]+/).filter((word) => word !== '');
  const containing = words.some((word) => word.length >= MEANINGFUL_WORD)
    ? allowed.filter((known) => words.every((word) => known.split('_').includes(word)))
    : [];
  const forms = withSingulars(name);
  // Both sides' singulars: "category" is three edits from "categories" but none from its singular.
  const close = allowed.filter((known) =>
    withSingulars(known).some((knownForm) =>
      forms.some((form) => editsWithin(form, knownForm, PARAMETER_EDITS) <= PARAMETER_EDITS),
    ),
  );
  const meant = [...new Set([...containing, ...close])];
  return meant.length === 1 ? meant[0] : undefined;
}

/** " Did you mean "Remote"?" for a value outside a fixed list that means values of it; else "". */
function valuesMeant(issue: Issue): string {
  if (issue.code !== 'invalid_value' || typeof issue.input !== 'string') return '';
  const allowed = issue.values.filter((value): value is string => typeof value === 'string');
  const meant = fixedValuesMeant(allowed, issue.input);
  if (meant === undefined) return '';
  const values = meant.map((value) => JSON.stringify(value));
  if (meant.length === 1) return ` Did you mean ${values[0]}?`;
  // An item of a list takes each as an item; a field of one value, one of them.
  return typeof issue.path.at(-1) === 'number'
    ? ` Did you mean ${values.join(', ')}? Send each as an item of the list.`
    : ` Did you mean ${listInWords(values, 'or')}?`;
}

const PREVIEW_LENGTH = 60;

function preview(value: unknown): string {
  const json = jsonStart(value, PREVIEW_LENGTH);
  return json.length > PREVIEW_LENGTH ? `${json.slice(0, PREVIEW_LENGTH - 3)}...` : json;
}

/**
 * The JSON of `value`, or at least its first `max` characters: it stops writing once it has that
 * many, so a value nested thousands deep (which `JSON.stringify` cannot print) costs no more than a
 * short one. Numbers too large for a double, which JSON would show as null, show as the infinity
 * they were read as.
 */
function jsonStart(value: unknown, max: number): string {
  let json = '';
  const write = (item: unknown): void => {
    if (json.length > max) return;
    if (Array.isArray(item)) {
      json += '[';
      for (const [index, element] of item.entries()) {
        if (json.length > max) return;
        if (index > 0) json += ',';
        write(element);
      }
      json += ']';
    } else if (typeof item === 'object' && item !== null) {
      json += '{';
      for (const [index, key] of Object.keys(item).entries()) {
        if (json.length > max) return;
        json += `${index > 0 ? ',' : ''}${JSON.stringify(key.slice(0, max))}:`;
        write((item as Record<string, unknown>)[key]);
      }
      json += '}';
    } else if (typeof item === 'number' && !Number.isFinite(item)) {
      json += String(item);
    } else {
      json += JSON.stringify(typeof item === 'string' ? item.slice(0, max) : item) ?? String(item);
    }
  };
  write(value);
  return json;
}

/** The parameter names of the object schema at `path`, for telling the caller what is allowed. */
function objectKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: unknown = schema;
  for (const segment of [undefined, ...path]) {
    current = unwrap(current);
    if (segment === undefined) continue;
    if (current instanceof z.ZodObject) current = current.shape[String(segment)];
    else if (current instanceof z.ZodArray) current = current.element;
    else return [];
  }
  current = unwrap(current);
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodPipe
  ) {
    current = current instanceof z.ZodPipe ? current.in : current.unwrap();
  }
  return current;
}
