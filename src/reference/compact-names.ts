/**
 * Compact stores for the gazetteer's hundreds of thousands of names (docs/performance.md,
 * "Memory"): the texts end to end in one UTF-8 buffer, and an index from a name to its places in
 * typed arrays, instead of a JavaScript string and a Map entry each. Every process that reads
 * places keeps them, so what they hold counts against the server's resident memory.
 */

const utf8 = new TextEncoder();

function grown<T extends Uint8Array | Int32Array | Uint32Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array);
  return next;
}

/** Texts stored end to end as UTF-8, each known by its number. */
export class Utf8Texts {
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  /** Where text `i` starts (and `i - 1` ends). */
  private starts = new Uint32Array(1 << 16);
  count = 0;

  add(text: string): number {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    const room = text.length * 3;
    if (this.used + room > this.bytes.length) {
      this.bytes = grown(this.bytes, Math.max(this.bytes.length * 2, this.used + room));
    }
    if (this.count + 2 > this.starts.length) this.starts = grown(this.starts, this.starts.length * 2);
    this.used += utf8.encodeInto(text, this.bytes.subarray(this.used)).written;
    this.starts[++this.count] = this.used;
    return this.count - 1;
  }

  text(index: number): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.used).toString(
      'utf8',
      this.starts[index],
      this.starts[index + 1],
    );
  }

  /** Whether text `index` is exactly `bytes`. */
  is(index: number, bytes: Uint8Array): boolean {
    // Compared in place: a name is looked up hundreds of thousands of times while the index is built.
    const start = this.starts[index] as number;
    if ((this.starts[index + 1] as number) - start !== bytes.length) return false;
    for (let offset = 0; offset < bytes.length; offset++) {
      if (this.bytes[start + offset] !== bytes[offset]) return false;
    }
    return true;
  }

  /** Gives back the room grown into beyond the last text. */
  trim(): void {
    this.bytes = this.bytes.slice(0, this.used);
    this.starts = this.starts.slice(0, this.count + 1);
  }
}

/** FNV-1a over the bytes: spreads names well enough, cheap in plain JavaScript. */
function hashOf(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash >>> 0;
}

/**
 * Names to the numbers (city slots) they name, each name's numbers in the order added, each
 * number once. An open-addressing hash table of name numbers, and per name a chain of entries.
 */
export class NameIndex {
  private readonly names = new Utf8Texts();
  /** Name number + 1 at each position, 0 where empty; at most half full. */
  private table: Int32Array;
  /** Per name, its first and last entry. */
  private firstEntry = new Int32Array(1 << 16);
  private lastEntry = new Int32Array(1 << 16);
  /** Per entry, the number it holds and the name's next entry (-1: none). */
  private entryValue = new Int32Array(1 << 16);
  private entryNext = new Int32Array(1 << 16);
  private entries = 0;
  private scratch = new Uint8Array(256);

  /** `expectedNames`: how many names it will hold, to size the table once. */
  constructor(expectedNames = 1024) {
    let length = 1024;
    while (length < expectedNames * 2) length *= 2;
    this.table = new Int32Array(length);
  }

  /** `name` as UTF-8, in a buffer reused from call to call. */
  private encoded(name: string): Uint8Array {
    if (name.length * 3 > this.scratch.length) this.scratch = new Uint8Array(name.length * 3);
    return this.scratch.subarray(0, utf8.encodeInto(name, this.scratch).written);
  }

  /** Adds `value` under `name` (already normalised), unless it is there. */
  add(name: string, value: number): void {
    const bytes = this.encoded(name);
    let position = this.position(bytes);
    let index = (this.table[position] as number) - 1;
    if (index === -1) {
      if ((this.names.count + 1) * 2 > this.table.length) {
        this.rehash(this.table.length * 2);
        // Rehashing used the scratch buffer `bytes` views.
        position = this.position(this.encoded(name));
      }
      index = this.names.add(name);
      this.table[position] = index + 1;
      if (index >= this.firstEntry.length) {
        this.firstEntry = grown(this.firstEntry, this.firstEntry.length * 2);
        this.lastEntry = grown(this.lastEntry, this.lastEntry.length * 2);
      }
      const entry = this.newEntry(value);
      this.firstEntry[index] = entry;
      this.lastEntry[index] = entry;
      return;
    }
    for (
      let entry = this.firstEntry[index] as number;
      entry !== -1;
      entry = this.entryNext[entry] as number
    ) {
      if (this.entryValue[entry] === value) return;
    }
    const entry = this.newEntry(value);
    this.entryNext[this.lastEntry[index] as number] = entry;
    this.lastEntry[index] = entry;
  }

  /** The numbers `name` (already normalised) names, in the order they were added. */
  get(name: string): number[] {
    const index = (this.table[this.position(this.encoded(name))] as number) - 1;
    const values: number[] = [];
    if (index === -1) return values;
    for (
      let entry = this.firstEntry[index] as number;
      entry !== -1;
      entry = this.entryNext[entry] as number
    ) {
      values.push(this.entryValue[entry] as number);
    }
    return values;
  }

  /** Gives back the room grown into beyond the last name and entry. */
  trim(): void {
    this.names.trim();
    this.firstEntry = this.firstEntry.slice(0, this.names.count);
    this.lastEntry = new Int32Array(0);
    this.entryValue = this.entryValue.slice(0, this.entries);
    this.entryNext = this.entryNext.slice(0, this.entries);
  }

  /** Where `bytes` is in the table, or the empty position it would take (linear probing). */
  private position(bytes: Uint8Array): number {
    const mask = this.table.length - 1;
    for (let position = hashOf(bytes) & mask; ; position = (position + 1) & mask) {
      const index = (this.table[position] as number) - 1;
      if (index === -1 || this.names.is(index, bytes)) return position;
    }
  }

  private rehash(length: number): void {
    const old = this.table;
    this.table = new Int32Array(length);
    for (const stored of old) {
      if (stored === 0) continue;
      this.table[this.position(this.encoded(this.names.text(stored - 1)))] = stored;
    }
  }

  private newEntry(value: number): number {
    if (this.entries === this.entryValue.length) {
      this.entryValue = grown(this.entryValue, this.entryValue.length * 2);
      this.entryNext = grown(this.entryNext, this.entryNext.length * 2);
    }
    this.entryValue[this.entries] = value;
    this.entryNext[this.entries] = -1;
    return this.entries++;
  }
}
