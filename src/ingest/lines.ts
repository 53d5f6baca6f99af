import { createReadStream } from 'node:fs';
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

function tooLong(number: number): FeedLine {
  return { line: number, error: `longer than ${MAX_LINE_CHARACTERS.toLocaleString('en-GB')} characters` };
}

/** The line's entry: its parsed value, or why it is refused. */
function parsedLine(number: number, text: string): FeedLine {
  if (text.length > MAX_LINE_CHARACTERS) return tooLong(number);
  try {
    return { line: number, value: JSON.parse(text) };
  } catch (error) {
    return { line: number, error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * The lines of an NDJSON stream, each parsed, numbered from 1 (a `\r\n` ending is accepted).
 * Blank lines are skipped; a line that is not JSON, or longer than MAX_LINE_CHARACTERS, becomes
 * an error entry with its line number. Streaming: a chunk of the input and one unfinished line
 * are held at a time; a line past the limit is dropped as it arrives rather than kept.
 */
export async function* ndjsonLines(stream: Readable): AsyncGenerator<FeedLine> {
  stream.setEncoding('utf8');
  let number = 0;
  let pending = '';
  let overlong = false;
  for await (const chunk of stream as AsyncIterable<string>) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      number++;
      const text = overlong ? '' : pending + chunk.slice(start, end);
      start = end + 1;
      if (overlong) yield tooLong(number);
      else if (text.trim() !== '') yield parsedLine(number, text.endsWith('\r') ? text.slice(0, -1) : text);
      pending = '';
      overlong = false;
    }
    if (!overlong) pending += chunk.slice(start);
    if (pending.length > MAX_LINE_CHARACTERS) {
      overlong = true;
      pending = '';
    }
  }
  if (overlong) yield tooLong(number + 1);
  else if (pending.trim() !== '') yield parsedLine(number + 1, pending);
}

/** Records already in memory (the seed's generators, the importers), numbered as lines. */
export function* numberedRecords(records: Iterable<unknown>): Generator<FeedLine> {
  let line = 0;
  for (const value of records) yield { line: ++line, value };
}
