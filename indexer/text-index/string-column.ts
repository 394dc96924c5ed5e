/**
 * A list of strings in any order held in two typed arrays, as the term dictionary holds its
 * sorted terms (term-dictionary.ts; the encoding of both is unit-encoding.ts: each UTF-16 code unit as UTF-8
 * encodes a code point of that value, so lone surrogates survive and text without surrogates is
 * plain UTF-8). For columns of a string per page — a million titles or URLs as JS strings are a
 * million heap objects that every full garbage collection walks; here they are two objects, and a
 * string is made only when asked for ({@link StringColumn.at}).
 */
import { fitted } from '../growing-array.ts';
import { runSteps } from '../stepwise.ts';
import { IndexCorruptError } from './errors.ts';
import { decodeUnits, encodeInto, encodeKey, unitByteLength, unitsToString, wellFormed } from './unit-encoding.ts';

const EMPTY_SLOT = -1;

/** Entries in bytes and offsets: a column, or a term dictionary (entry i is bytes[offsets[i] .. offsets[i+1]]). */
export interface Entries {
  readonly bytes: Uint8Array;
  readonly offsets: Int32Array;
}

/** Entry i is bytes[offsets[i] .. offsets[i+1]]. */
export class StringColumn {
  readonly length: number;
  /** A Buffer over `bytes`, for its native UTF-8 decoding (made at the first read). */
  #text: Buffer | undefined;
  /** Entry numbers by a hash of their bytes, open addressing (made at the first {@link indexOf}). */
  #slots: Int32Array | undefined;

  constructor(
    readonly bytes: Uint8Array,
    readonly offsets: Int32Array,
  ) {
    this.length = offsets.length - 1;
  }

  static fromStrings(strings: readonly string[]): StringColumn {
    return runSteps(StringColumn.fromStringsSteps(strings));
  }

  /** {@link fromStrings}, yielding every `perStep` strings (a million titles of an old saved file). */
  static *fromStringsSteps(strings: readonly string[], perStep = Infinity): Generator<void, StringColumn> {
    let chars = 0;
    for (const text of strings) chars += text.length;
    const builder = new StringColumnBuilder({ entries: strings.length, bytes: chars + (chars >> 3) });
    for (let i = 0; i < strings.length; i++) {
      builder.add(strings[i]);
      if (i % perStep === perStep - 1) yield;
    }
    return builder.done();
  }

  /** A column of arrays read from a file, checked: an IndexCorruptError names `what` and the problem otherwise. */
  static fromFile(bytes: Uint8Array, offsets: Int32Array, what: string): StringColumn {
    return runSteps(StringColumn.fromFileSteps(bytes, offsets, what));
  }

  /**
   * {@link fromFile}, yielding after each `bytesPerStep` bytes checked: a million titles or URLs
   * are tens of megabytes, checked in about 2 ns a byte (a server loads them beside searches).
   */
  static *fromFileSteps(bytes: Uint8Array, offsets: Int32Array, what: string, bytesPerStep = Infinity): Generator<void, StringColumn> {
    const problem = yield* StringColumn.problemSteps(bytes, offsets, bytesPerStep);
    if (problem !== null) throw new IndexCorruptError(`${what}: ${problem}`);
    return new StringColumn(bytes, offsets);
  }

  /**
   * Why the arrays cannot be a column, or null when they can: offsets start at 0, never decrease
   * and end at the bytes' length, and each entry is whole units of the encoding.
   */
  static problemWith(bytes: Uint8Array, offsets: Int32Array): string | null {
    return runSteps(StringColumn.problemSteps(bytes, offsets, Infinity));
  }

  private static *problemSteps(bytes: Uint8Array, offsets: Int32Array, bytesPerStep: number): Generator<void, string | null> {
    const count = offsets.length - 1;
    if (count < 0 || offsets[0] !== 0 || offsets[count] !== bytes.length) return 'offsets that do not fit its bytes';
    let stepEnd = bytesPerStep;
    for (let i = 0; i < count; i++) {
      if (offsets[i + 1] < offsets[i]) return 'offsets that decrease';
      if (!wellFormed(bytes, offsets[i], offsets[i + 1])) return `entry ${i} that is not text`;
      if (offsets[i + 1] >= stepEnd) {
        stepEnd = offsets[i + 1] + bytesPerStep;
        yield;
      }
    }
    return null;
  }

  /** Entry i as a string. */
  at(i: number): string {
    const { bytes } = this;
    const from = this.offsets[i];
    const to = this.offsets[i + 1];
    // A surrogate's three bytes start 0xED 0xA0–0xBF; text without one is UTF-8, decoded natively.
    for (let b = from; b < to; b++) {
      if (bytes[b] === 0xed && bytes[b + 1] >= 0xa0) {
        const units = new Uint16Array(to - from);
        return unitsToString(units, decodeUnits(bytes, from, to, units));
      }
    }
    this.#text ??= Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return this.#text.toString('utf8', from, to);
  }

  /**
   * The last entry equal to `text`, or -1 (as a Map filled in entry order answers). The first call
   * hashes every entry into slots of 4 bytes, two per entry at most: 8 MB for a million, where a
   * Map of a million strings held tens of MB of heap objects.
   */
  indexOf(text: string): number {
    const slots = (this.#slots ??= this.hashSlots());
    const key = encodeKey(text);
    const mask = slots.length - 1;
    for (let slot = hashBytes(key, 0, key.length) & mask; ; slot = (slot + 1) & mask) {
      const i = slots[slot];
      if (i === EMPTY_SLOT) return -1;
      if (this.equalsBytes(i, key, 0, key.length)) return i;
    }
  }

  /** The entries as strings (tests and small columns; a large one makes millions). */
  toArray(): string[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  private hashSlots(): Int32Array {
    const { bytes, offsets } = this;
    let size = 16;
    while (size < this.length * 2) size *= 2;
    const slots = new Int32Array(size).fill(EMPTY_SLOT);
    const mask = size - 1;
    for (let i = 0; i < this.length; i++) {
      const from = offsets[i];
      const to = offsets[i + 1];
      let slot = hashBytes(bytes, from, to) & mask;
      // An equal entry earlier gives way: the last one is found.
      while (slots[slot] !== EMPTY_SLOT && !this.equalsBytes(slots[slot], bytes, from, to)) slot = (slot + 1) & mask;
      slots[slot] = i;
    }
    return slots;
  }

  /** Whether entry i holds exactly source[from..to). */
  private equalsBytes(i: number, source: Uint8Array, from: number, to: number): boolean {
    const start = this.offsets[i];
    if (this.offsets[i + 1] - start !== to - from) return false;
    for (let k = 0; k < to - from; k++) if (this.bytes[start + k] !== source[from + k]) return false;
    return true;
  }
}

/** FNV-1a over bytes[from..to). */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let b = from; b < to; b++) hash = Math.imul(hash ^ bytes[b], 0x01000193);
  return hash >>> 0;
}

/**
 * Builds a column an entry at a time. Growing a large column copies it whole, and at a million
 * entries one such copy held the event loop for a tenth of a second: a builder that copies a
 * column (the page facts' URLs, the suggestions' titles at each update) is told its size ahead.
 */
export class StringColumnBuilder {
  private bytes: Uint8Array;
  private byteLength = 0;
  private offsets: Int32Array;
  private count = 0;

  /** `expected`: room for this many entries and bytes, so that the arrays are not grown by copying. */
  constructor(expected: { entries?: number; bytes?: number } = {}) {
    this.bytes = new Uint8Array(Math.max(4096, expected.bytes ?? 0));
    this.offsets = new Int32Array(Math.max(1024, (expected.entries ?? 0) + 1));
  }

  get length(): number {
    return this.count;
  }

  add(text: string): void {
    // Three bytes a unit at most; counted exactly only near the end of the room (a builder told its size).
    const most = text.length * 3;
    this.reserve(this.byteLength + most <= this.bytes.length ? most : encodedLength(text));
    this.byteLength = encodeInto(text, this.bytes, this.byteLength);
    this.offsets[++this.count] = this.byteLength;
  }

  /** Adds entry i of another column (its bytes, no string made). */
  addEntry(source: Entries, i: number): void {
    const from = source.offsets[i];
    const to = source.offsets[i + 1];
    this.reserve(to - from);
    // Byte by byte: entries are short, and a subarray to copy from would be an object each.
    const { bytes } = this;
    const sourceBytes = source.bytes;
    let at = this.byteLength;
    for (let b = from; b < to; b++) bytes[at++] = sourceBytes[b];
    this.byteLength = at;
    this.offsets[++this.count] = at;
  }

  /** Adds entries from … to − 1 of another column: their bytes in one copy, their offsets moved. */
  addEntries(source: Entries, from: number, to: number): void {
    if (to <= from) return;
    const start = source.offsets[from];
    const end = source.offsets[to];
    this.reserve(end - start, to - from);
    this.bytes.set(source.bytes.subarray(start, end), this.byteLength);
    const shift = this.byteLength - start;
    const offsets = this.offsets;
    const sourceOffsets = source.offsets;
    let count = this.count;
    for (let i = from + 1; i <= to; i++) offsets[++count] = sourceOffsets[i] + shift;
    this.count = count;
    this.byteLength += end - start;
  }

  /** The column. Arrays nearly full are handed over as views (no copy); others are trimmed. */
  done(): StringColumn {
    return new StringColumn(fitted(this.bytes, this.byteLength), fitted(this.offsets, this.count + 1));
  }

  /** Room for this many entries and bytes in all (a builder made small, told its size later). */
  expect(expected: { entries: number; bytes: number }): void {
    this.reserve(Math.max(0, expected.bytes - this.byteLength), Math.max(0, expected.entries - this.count));
  }

  /** Room for `entries` more entries of up to `byteCount` bytes together. */
  private reserve(byteCount: number, entries = 1): void {
    const needed = this.byteLength + byteCount;
    // Offsets are 32-bit signed.
    if (needed > 0x7fffffff) throw new RangeError('a string column holds at most 2 GiB of text');
    if (needed > this.bytes.length) {
      const bytes = new Uint8Array(Math.min(0x7fffffff, Math.max(needed, this.bytes.length * 2)));
      bytes.set(this.bytes.subarray(0, this.byteLength));
      this.bytes = bytes;
    }
    if (this.count + entries + 1 > this.offsets.length) {
      const offsets = new Int32Array(Math.max(this.count + entries + 1, this.offsets.length * 2));
      offsets.set(this.offsets);
      this.offsets = offsets;
    }
  }
}

/** Bytes of `text` in the column's encoding. */
function encodedLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) bytes += unitByteLength(text.charCodeAt(i));
  return bytes;
}
