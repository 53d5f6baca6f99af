import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FeedLine } from './load.js';

/** A line longer than this is refused rather than parsed: no record comes near it. */
const MAX_LINE_CHARACTERS = 1_000_000;

/** `stream` decompressed when its first two bytes are gzip's magic number, else as it is. */
async function gunzippedIfNeeded(stream: Readable): Promise<Readable> {
  const chunks = stream[Symbol.asyncIterator]();
  const first = await chunks.next();
  async function* everything(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield first.value as Buffer;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value as Buffer;
  }
  const whole = Readable.from(everything(), { objectMode: false });
  const head = first.done ? undefined : (first.value as Buffer);
  return head !== undefined && head[0] === 0x1f && head[1] === 0x8b ? whole.pipe(createGunzip()) : whole;
}

/** A file, or standard input for `-`, gzipped or not (its first bytes tell), as a byte stream. */
export function openFeed(file: string, stdin: Readable = process.stdin): Promise<Readable> {
  return gunzippedIfNeeded(file === '-' ? stdin : createReadStream(file, { highWaterMark: 1 << 20 }));
}

/**
 * The lines of an NDJSON stream, each parsed, numbered from 1. Blank lines are skipped; a line
 * that is not JSON, or longer than MAX_LINE_CHARACTERS, becomes an error entry with its line
 * number. Streaming: one line is held at a time.
 */
export async function* ndjsonLines(stream: Readable): AsyncGenerator<FeedLine> {
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  for await (const text of lines) {
    number++;
    if (text.trim() === '') continue;
    if (text.length > MAX_LINE_CHARACTERS) {
      yield { line: number, error: `longer than ${MAX_LINE_CHARACTERS.toLocaleString('en-GB')} characters` };
      continue;
    }
    try {
      yield { line: number, value: JSON.parse(text) };
    } catch (error) {
      yield { line: number, error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

/** Records already in memory (the seed's generators, the importers), numbered as lines. */
export function* numberedRecords(records: Iterable<unknown>): Generator<FeedLine> {
  let line = 0;
  for (const value of records) yield { line: ++line, value };
}
