/**
 * Just enough of the MongoDB wire protocol for a test proxy to tell which command a client message
 * carries. Every message starts with its total length (int32, little-endian) and, 12 bytes in,
 * its opcode. Commands travel as OP_MSG: flag bits, then sections; the section of kind 0 is the
 * command document, whose first key names the command and whose value names the collection
 * (`{ findAndModify: "accounts", ... }`).
 */

/** A command as a proxy sees it go by, e.g. `{ name: 'findAndModify', collection: 'accounts' }`. */
export interface MongoCommand {
  name: string;
  collection: string;
}

const HEADER_BYTES = 16;
const OP_MSG = 2013;
/** OP_MSG flag: the message ends with a 4-byte checksum. */
const CHECKSUM_PRESENT = 1;
const BSON_STRING = 0x02;

/** Splits the bytes received so far into complete messages and the start of the next one. */
export function splitMessages(received: Buffer): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let offset = 0;
  while (received.length - offset >= 4) {
    const length = received.readInt32LE(offset);
    if (received.length - offset < length) break;
    messages.push(received.subarray(offset, offset + length));
    offset += length;
  }
  return { messages, rest: received.subarray(offset) };
}

/**
 * The command of an OP_MSG message, or `null` for anything else (handshakes in the legacy format,
 * compressed messages, commands not aimed at a collection).
 */
export function commandOf(message: Buffer): MongoCommand | null {
  if (message.length <= HEADER_BYTES + 4 || message.readInt32LE(12) !== OP_MSG) return null;
  const end = message.length - (message.readUInt32LE(HEADER_BYTES) & CHECKSUM_PRESENT ? 4 : 0);
  let offset = HEADER_BYTES + 4;
  while (offset < end) {
    const kind = message.readUInt8(offset);
    offset += 1;
    if (kind === 0) return firstStringElement(message, offset);
    // Kind 1, a document sequence: its size (which counts itself) skips it.
    offset += message.readInt32LE(offset);
  }
  return null;
}

/** The first element of the BSON document at `start`, when its value is a string. */
function firstStringElement(message: Buffer, start: number): MongoCommand | null {
  let offset = start + 4;
  const type = message.readUInt8(offset);
  offset += 1;
  const nameEnd = message.indexOf(0, offset);
  const name = message.toString('utf8', offset, nameEnd);
  if (type !== BSON_STRING) return null;
  offset = nameEnd + 1;
  // A BSON string: its byte length (counting the trailing NUL), then the bytes.
  const length = message.readInt32LE(offset);
  return { name, collection: message.toString('utf8', offset + 4, offset + 4 + length - 1) };
}
