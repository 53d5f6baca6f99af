import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { estypes } from '@elastic/elasticsearch';
import { InvalidArgument } from '../errors.js';
import { MAX_CURSOR_LENGTH } from '../schemas/inputs.js';

/**
 * Opaque page cursors (docs/search-semantics.md, "Ordering and paging"). A cursor is
 * `<payload>.<signature>`, both base64url: the payload is JSON naming the tool, a fingerprint of
 * the search's arguments, the `search_after` position and how many results were already served;
 * the signature is an HMAC-SHA256 of the payload under the server secret. The server keeps no
 * state, so a cursor must carry everything the next page needs and be impossible to forge or move
 * to another search.
 */

export interface PagePosition {
  /** Sort values of the last result served; null when paging by offset (a ranking). */
  searchAfter: estypes.SortResults | null;
  /** Results already served by the earlier pages of this search. */
  served: number;
}

export const FIRST_PAGE: PagePosition = { searchAfter: null, served: 0 };

/** Arguments that do not change which results a search finds, so they may differ between pages. */
const UNBOUND_ARGUMENTS = new Set(['cursor', 'page_size']);

interface CursorPayload {
  v: 1;
  tool: string;
  args: string;
  after: estypes.SortResults | null;
  served: number;
}

/**
 * A stable fingerprint of the arguments that define a search. Pass the arguments after
 * parsing, so defaults are filled in and an omitted default equals the default sent
 * explicitly; undefined values and empty lists count as absent.
 */
export function argumentsFingerprint(args: Record<string, unknown>): string {
  const bound = Object.fromEntries(Object.entries(args).filter(([name]) => !UNBOUND_ARGUMENTS.has(name)));
  return createHash('sha256').update(canonicalJson(bound)).digest('base64url').slice(0, 22);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined && !(Array.isArray(item) && item.length === 0))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

function sign(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

export function encodeCursor(
  secret: string,
  search: { tool: string; args: Record<string, unknown>; position: PagePosition },
): string {
  const payload: CursorPayload = {
    v: 1,
    tool: search.tool,
    args: argumentsFingerprint(search.args),
    after: search.position.searchAfter,
    served: search.position.served,
  };
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${sign(secret, encoded).toString('base64url')}`;
}

/**
 * The position a cursor continues from. Throws `InvalidArgument` on `cursor` when it was
 * altered, was not issued by this server, or belongs to another tool or other arguments.
 */
export function decodeCursor(
  secret: string,
  tool: string,
  args: Record<string, unknown>,
  cursor: string,
): PagePosition {
  const payload = verifiedPayload(secret, cursor);
  if (payload.tool !== tool || payload.args !== argumentsFingerprint(args)) {
    throw new InvalidArgument(
      'cursor',
      `This cursor belongs to a different search. Send next_cursor back to ${tool} with exactly the same other arguments as the page it came from (only page_size may change), or leave cursor out to start again.`,
    );
  }
  return { searchAfter: payload.after, served: payload.served };
}

function verifiedPayload(secret: string, cursor: string): CursorPayload {
  if (cursor.length > MAX_CURSOR_LENGTH) {
    throw new InvalidArgument(
      'cursor',
      `This cursor is longer than any this server issues (at most ${MAX_CURSOR_LENGTH} characters). Pass next_cursor exactly as returned, or leave cursor out to start from the first page.`,
    );
  }
  const damaged = new InvalidArgument(
    'cursor',
    'This cursor is not valid: it was altered or not issued by this server. Pass next_cursor exactly as returned, or leave cursor out to start from the first page.',
  );
  const [encoded, signature, extra] = cursor.split('.');
  if (!encoded || !signature || extra !== undefined) throw damaged;
  const given = strictBase64url(signature);
  const expected = sign(secret, encoded);
  if (given === null || given.length !== expected.length || !timingSafeEqual(given, expected)) throw damaged;
  let payload: unknown;
  try {
    const json = strictBase64url(encoded);
    // Not canonical: a null payload, which the shape check below refuses.
    payload = json && JSON.parse(json.toString('utf8'));
  } catch {
    throw damaged;
  }
  if (!isCursorPayload(payload)) throw damaged;
  return payload;
}

/**
 * The bytes of canonical unpadded base64url text, or null. Node's decoder skips characters outside
 * the alphabet, padding and unused trailing bits, so many strings decode to the same bytes; only
 * the one spelling the encoder produces is accepted.
 */
function strictBase64url(text: string): Buffer | null {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

function isCursorPayload(value: unknown): value is CursorPayload {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate.v === 1 &&
    typeof candidate.tool === 'string' &&
    typeof candidate.args === 'string' &&
    Number.isSafeInteger(candidate.served) &&
    (candidate.served as number) >= 0 &&
    (candidate.after === null || Array.isArray(candidate.after))
  );
}
