/**
 * A sorted list of strings held in two typed arrays, outside the JS heap's string space: a
 * segment's terms and written words. At a million pages a segment set holds millions of terms;
 * as JS strings (internalized by JSON.parse) they made each full garbage collection walk and
 * clear millions of small objects. Here they are bytes, and a string is made only when asked for
 * ({@link TermDictionary.at}).
 *
 * The bytes are in the encoding of unit-encoding.ts, whose byte order is exactly the `<` order
 * of the strings: a binary search on bytes finds what one on the strings found.
 */

import { StringColumnBuilder } from './string-column.ts';
import { decodeUnits, encodeKey, MAX_APPLY, unitsToString, wellFormed } from './unit-encoding.ts';

/** Entry i is bytes[offsets[i] .. offsets[i+1]]; entries ascend in code-unit order, without duplicates. */
export class TermDictionary {
  readonly length: number;
  /**
   * starts[b]: the first entry whose first byte is b or more (the empty entry first), so that a
   * search starts in the range of its key's first byte: a few probes fewer, each a cache miss on
   * a large dictionary (with them, lookups are no slower than a binary search over strings).
   */
  private readonly starts = new Int32Array(257);

  constructor(
    readonly bytes: Uint8Array,
    readonly offsets: Int32Array,
  ) {
    this.length = offsets.length - 1;
    for (let b = 0, low = 0; b <= 256; b++) {
      let high = this.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if ((offsets[mid + 1] > offsets[mid] ? bytes[offsets[mid]] : -1) < b) low = mid + 1;
        else high = mid;
      }
      this.starts[b] = low;
    }
  }

  /** A dictionary of strings already sorted in code-unit order (`<`) and distinct. */
  static fromSorted(sorted: readonly string[]): TermDictionary {
    const builder = new DictionaryBuilder();
    for (const text of sorted) builder.addString(text);
    return builder.done();
  }

  /** Entry i as a string. */
  at(i: number): string {
    const { bytes, offsets } = this;
    const from = offsets[i];
    const to = offsets[i + 1];
    let ascii = true;
    for (let b = from; b < to; b++) {
      if (bytes[b] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii && to - from <= MAX_APPLY) return String.fromCharCode.apply(null, bytes.subarray(from, to) as unknown as number[]);
    const units = new Uint16Array(to - from);
    return unitsToString(units, decodeUnits(bytes, from, to, units));
  }

  /** The index of `text`, or -1. */
  find(text: string): number {
    if (isAscii(text)) {
      const i = this.lowerBoundAscii(text, 0);
      return i < this.length && this.compareAscii(i, text) === 0 ? i : -1;
    }
    const key = encodeKey(text);
    const i = this.lowerBoundBytes(key, 0);
    return i < this.length && this.compareAt(i, key) === 0 ? i : -1;
  }

  /** The first index at or after `from` whose entry is not below `key`. */
  lowerBound(key: string, from = 0): number {
    return isAscii(key) ? this.lowerBoundAscii(key, from) : this.lowerBoundBytes(encodeKey(key), from);
  }

  /** {@link lowerBound} for a key already encoded ({@link encodeKey}). */
  lowerBoundBytes(key: Uint8Array, from = 0): number {
    if (key.length === 0) return from;
    let low = Math.max(from, this.starts[key[0]]);
    let high = Math.max(low, this.starts[key[0] + 1]);
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compareAt(mid, key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The range [from, to) of entries that start with `prefix` (searched from `from`). */
  prefixRange(prefix: string, from = 0): [number, number] {
    const key = encodeKey(prefix);
    const start = this.lowerBoundBytes(key, from);
    return [start, this.pastPrefix(key, start)];
  }

  /**
   * The first index after `i` whose entry does not share entry i's first `byteLength` bytes: the
   * end of the range of entries with that prefix (entry i must have it).
   */
  pastPrefixOf(i: number, byteLength: number): number {
    const { bytes, offsets } = this;
    const prefix = offsets[i];
    let low = i + 1;
    let high = this.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const from = offsets[mid];
      let shares = offsets[mid + 1] - from >= byteLength;
      for (let k = 0; shares && k < byteLength; k++) shares = bytes[from + k] === bytes[prefix + k];
      if (shares) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * Sign of entry i compared with an ASCII string, read unit by unit (most query terms; no key
   * is encoded). A byte of 0x80 or more leads a unit of 0x80 or more: the sign is still right.
   */
  private compareAscii(i: number, key: string): number {
    const { bytes } = this;
    const from = this.offsets[i];
    const length = this.offsets[i + 1] - from;
    const n = Math.min(length, key.length);
    for (let k = 0; k < n; k++) {
      const difference = bytes[from + k] - key.charCodeAt(k);
      if (difference !== 0) return difference;
    }
    return length - key.length;
  }

  private lowerBoundAscii(key: string, from: number): number {
    if (key.length === 0) return from;
    const first = key.charCodeAt(0);
    let low = Math.max(from, this.starts[first]);
    let high = Math.max(low, this.starts[first + 1]);
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compareAscii(mid, key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Sign of entry i compared with an encoded key (bytes compare as the strings' code units do). */
  compareAt(i: number, key: Uint8Array): number {
    const { bytes } = this;
    const from = this.offsets[i];
    const length = this.offsets[i + 1] - from;
    const n = Math.min(length, key.length);
    for (let k = 0; k < n; k++) {
      const difference = bytes[from + k] - key[k];
      if (difference !== 0) return difference;
    }
    return length - key.length;
  }

  /** Whether entry i starts with an encoded key. */
  startsWithBytes(i: number, key: Uint8Array): boolean {
    const from = this.offsets[i];
    if (this.offsets[i + 1] - from < key.length) return false;
    for (let k = 0; k < key.length; k++) if (this.bytes[from + k] !== key[k]) return false;
    return true;
  }

  /** Sign of entry i of this dictionary compared with entry j of another, by bytes. */
  compareWith(i: number, other: TermDictionary, j: number): number {
    const a = this.bytes;
    const b = other.bytes;
    const aFrom = this.offsets[i];
    const bFrom = other.offsets[j];
    const aLength = this.offsets[i + 1] - aFrom;
    const bLength = other.offsets[j + 1] - bFrom;
    const n = Math.min(aLength, bLength);
    for (let k = 0; k < n; k++) {
      const difference = a[aFrom + k] - b[bFrom + k];
      if (difference !== 0) return difference;
    }
    return aLength - bLength;
  }

  /** The entries as strings (tests and small dictionaries; a large one makes millions). */
  toArray(): string[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  /**
   * Why the arrays cannot be a dictionary, or null when they can: offsets start at 0, never
   * decrease and end at the bytes' length, each entry is well-formed and above the one before.
   */
  static problemWith(bytes: Uint8Array, offsets: Int32Array): string | null {
    const count = offsets.length - 1;
    if (count < 0 || offsets[0] !== 0 || offsets[count] !== bytes.length) return 'offsets that do not fit its bytes';
    // Checked at each open (a segment of 100k pages has some 300k terms): entries are decoded
    // only when some byte is not ASCII, and each is compared with the one before up to where they part.
    const ascii = allAscii(bytes);
    for (let i = 0; i < count; i++) {
      const from = offsets[i];
      const to = offsets[i + 1];
      if (to < from) return 'offsets that decrease';
      if (!ascii) for (let b = from; b < to; b++) {
        if (bytes[b] >= 0x80) {
          if (!wellFormed(bytes, from, to)) return `entry ${i} that is not text`;
          break;
        }
      }
      if (i === 0) continue;
      const before = offsets[i - 1];
      const n = Math.min(from - before, to - from);
      let k = 0;
      while (k < n && bytes[before + k] === bytes[from + k]) k++;
      if (k === n ? from - before >= to - from : bytes[before + k] > bytes[from + k]) return `entry ${i} out of order`;
    }
    return null;
  }

  /** The first index at or after `from` whose entry lacks the prefix (entries from `from` on that have it come first). */
  private pastPrefix(prefix: Uint8Array, from: number): number {
    let low = from;
    let high = this.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.startsWithBytes(mid, prefix)) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** Builds a dictionary an entry at a time, in ascending order (a string column whose entries ascend). */
export class DictionaryBuilder {
  private readonly entries = new StringColumnBuilder();

  get length(): number {
    return this.entries.length;
  }

  addString(text: string): void {
    this.entries.add(text);
  }

  /** Adds entry i of another dictionary (its bytes, no string made). */
  addEntry(source: TermDictionary, i: number): void {
    this.entries.addEntry(source, i);
  }

  done(): TermDictionary {
    const { bytes, offsets } = this.entries.done();
    return new TermDictionary(bytes, offsets);
  }
}

export const emptyDictionary = (): TermDictionary => new TermDictionary(new Uint8Array(0), new Int32Array(1));

/** Whether every byte is below 0x80 (a word at a time where the bytes are aligned). */
function allAscii(bytes: Uint8Array): boolean {
  let b = 0;
  let high = 0;
  while (b < bytes.length && (bytes.byteOffset + b) % 4 !== 0) high |= bytes[b++];
  const words = (bytes.length - b) >>> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + b, words);
    for (let w = 0; w < words; w++) high |= view[w];
    b += words * 4;
  }
  while (b < bytes.length) high |= bytes[b++];
  return (high & 0x80808080) === 0;
}

function isAscii(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) >= 0x80) return false;
  return true;
}
