import { hash } from 'node:crypto';

/**
 * Documents as ingest writes them. A document's derived fields are serialised once and encoded
 * as UTF-8 straight into a shared chunk of memory; the SHA-256 of those bytes is its fingerprint,
 * and its `_source` is `seq` and `fingerprint` followed by the same bytes, copied once more into
 * the bulk request. Nothing is encoded twice and no buffer is allocated per document
 * (docs/performance.md, "Loading the feed").
 */

/** A document's derived fields (without `seq` and `fingerprint`) as JSON bytes, and their SHA-256. */
export interface Encoded {
  body: Buffer;
  fingerprint: string;
}

/** A document ready to write: its `_source` is the concatenation of `source`. */
export interface Serialised {
  fingerprint: string;
  source: Array<string | Uint8Array>;
}

/** Encoded documents are views of 1 MiB chunks; a chunk is freed once no document in it is held. */
const CHUNK_BYTES = 1 << 20;
let chunk = Buffer.alloc(0);
let used = 0;

function utf8(json: string): Buffer {
  // A UTF-16 unit takes at most 3 bytes of UTF-8: with this much room the write is never cut short.
  const room = json.length * 3;
  if (used + room > chunk.length) {
    chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
    used = 0;
  }
  const written = chunk.write(json, used);
  const bytes = chunk.subarray(used, used + written);
  used += written;
  return bytes;
}

export function encode(draft: object): Encoded {
  const body = utf8(JSON.stringify(draft));
  return { body, fingerprint: hash('sha256', body, 'base64url') };
}

/** The document as stored: `seq` and `fingerprint` first, then the encoded fields. */
export function withSeq({ body, fingerprint }: Encoded, seq: number): Serialised {
  return { fingerprint, source: [`{"seq":${seq},"fingerprint":"${fingerprint}",`, body.subarray(1)] };
}

export function serialise(draft: object, seq: number): Serialised {
  return withSeq(encode(draft), seq);
}

/** A stored document with changed fields, serialised again (its fingerprint follows the change). */
export function reserialise(doc: { seq: number; fingerprint: string }, change: object): Serialised {
  const { seq, fingerprint: _old, ...rest } = doc;
  return serialise({ ...rest, ...change }, seq);
}
