/**
 * The version of each live page (document-version.ts), by page id, in typed arrays: an open
 * addressing table of ids with each version as a number (its 12 hex digits are 48 bits, exact in a
 * double). At a million pages a Map of version strings held two million heap objects and 61 MB,
 * which every full collection of the server's heap marked again; here they take 25 MB outside it.
 * A version that is not 12 hex digits (none lse writes) is kept as it is, in a Map beside.
 */

const EMPTY = -1;
const REMOVED = -2;
const MIN_CAPACITY = 16;
/** Ids and removed slots together fill at most this share of the table before it grows. */
const MAX_LOAD = 0.5;
const HEX_DIGITS = 12;

export class VersionTable {
  private ids: Int32Array;
  private versions: Float64Array;
  /** log2 of the capacity. */
  private bits: number;
  /** Slots holding an id or a removed mark. */
  private filled = 0;
  private count = 0;
  /** Versions that are not 12 hex digits, and ids that are not slot keys (not a 31-bit whole number). */
  private readonly others = new Map<number, string>();

  /** `expected`: how many ids it will hold (it grows past that as needed). */
  constructor(expected = 0) {
    const capacity = capacityFor(expected);
    this.ids = new Int32Array(capacity).fill(EMPTY);
    this.versions = new Float64Array(capacity);
    this.bits = Math.log2(capacity);
  }

  /** Live pages with a version. */
  get size(): number {
    return this.count + this.others.size;
  }

  get(id: number): string | undefined {
    if (!isKey(id)) return this.others.get(id);
    const slot = this.find(id);
    if (slot >= 0) return this.versions[slot].toString(16).padStart(HEX_DIGITS, '0');
    return this.others.get(id);
  }

  set(id: number, version: string): void {
    const value = isKey(id) ? versionNumber(version) : -1;
    if (value < 0) {
      this.delete(id);
      this.others.set(id, version);
      return;
    }
    if (this.others.size > 0) this.others.delete(id);
    const found = this.find(id);
    if (found >= 0) {
      this.versions[found] = value;
      return;
    }
    if ((this.filled + 1) / this.ids.length > MAX_LOAD) this.resize();
    let slot = this.home(id);
    while (this.ids[slot] >= 0) slot = (slot + 1) & (this.ids.length - 1);
    if (this.ids[slot] === EMPTY) this.filled++;
    this.ids[slot] = id;
    this.versions[slot] = value;
    this.count++;
  }

  /**
   * Writes the version of `id` as its 12 hex digits (ASCII) at `at`; false, writing nothing, when
   * the table keeps none as a number for it (none, or one in the Map beside).
   */
  writeHex(id: number, out: Uint8Array, at: number): boolean {
    if (!isKey(id)) return false;
    const slot = this.find(id);
    if (slot < 0) return false;
    const value = this.versions[slot];
    // The low 32 bits and the high 16, each in integer arithmetic.
    let low = value % 0x1_0000_0000;
    let high = (value - low) / 0x1_0000_0000;
    for (let i = HEX_DIGITS - 1; i >= 4; i--, low >>>= 4) out[at + i] = HEX[low & 15];
    for (let i = 3; i >= 0; i--, high >>>= 4) out[at + i] = HEX[high & 15];
    return true;
  }

  delete(id: number): boolean {
    if (this.others.delete(id)) return true;
    if (!isKey(id)) return false;
    const slot = this.find(id);
    if (slot < 0) return false;
    this.ids[slot] = REMOVED;
    this.count--;
    return true;
  }

  /** The slot holding `id`, or -1. */
  private find(id: number): number {
    const mask = this.ids.length - 1;
    for (let slot = this.home(id); ; slot = (slot + 1) & mask) {
      const held = this.ids[slot];
      if (held === id) return slot;
      if (held === EMPTY) return -1;
    }
  }

  private home(id: number): number {
    // A store's ids are dense: below the capacity an id is its own home, so a segment's ascending
    // ids are read in order, not from all over the table; each multiple of the capacity above
    // that is scrambled (Fibonacci hashing) before it is mixed in, so higher ids spread too.
    return (id ^ Math.imul(id >>> this.bits, 0x9e3779b1)) & (this.ids.length - 1);
  }

  /** Twice the live ids' room (at least), removed slots dropped. */
  private resize(): void {
    const { ids, versions } = this;
    const capacity = capacityFor(2 * (this.count + 1));
    this.ids = new Int32Array(capacity).fill(EMPTY);
    this.versions = new Float64Array(capacity);
    this.bits = Math.log2(capacity);
    this.filled = 0;
    this.count = 0;
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot];
      if (id < 0) continue;
      let to = this.home(id);
      while (this.ids[to] !== EMPTY) to = (to + 1) & (capacity - 1);
      this.ids[to] = id;
      this.versions[to] = versions[slot];
      this.filled++;
      this.count++;
    }
  }
}

/** Where the manifest reads versions from: the table, or the table with an update's changes. */
export interface VersionSource {
  get(id: number): string | undefined;
  /** As {@link VersionTable.writeHex}; `get` answers where it returns false. */
  writeHex(id: number, out: Uint8Array, at: number): boolean;
}

/**
 * The JSON array (UTF-8) of the versions of `ids` (`""` for a deleted ordinal or a page without one),
 * written as bytes: at 100k pages a string per version made serialising a segment's manifest part
 * three times slower.
 */
export function versionsJson(ids: Int32Array, deleted: Uint8Array | null, source: VersionSource): Uint8Array {
  let out = new Uint8Array(ids.length * (HEX_DIGITS + 3) + 2);
  let at = 0;
  const room = (bytes: number) => {
    if (at + bytes <= out.length) return;
    const grown = new Uint8Array(Math.max(out.length * 2, at + bytes));
    grown.set(out.subarray(0, at));
    out = grown;
  };
  out[at++] = 0x5b; // [
  for (let i = 0; i < ids.length; i++) {
    if (i > 0) out[at++] = 0x2c; // ,
    room(HEX_DIGITS + 3);
    if (deleted === null || !deleted[i]) {
      out[at] = 0x22; // "
      if (source.writeHex(ids[i], out, at + 1)) {
        out[at + HEX_DIGITS + 1] = 0x22;
        at += HEX_DIGITS + 2;
        continue;
      }
      const text = ENCODER.encode(JSON.stringify(source.get(ids[i]) ?? ''));
      room(text.length + 1);
      out.set(text, at);
      at += text.length;
      continue;
    }
    out[at++] = 0x22;
    out[at++] = 0x22;
  }
  room(1);
  out[at++] = 0x5d; // ]
  return out.subarray(0, at);
}

const ENCODER = new TextEncoder();
/** ASCII codes of the hex digits. */
const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

const isKey = (id: number) => Number.isInteger(id) && id >= 0 && id <= 0x7fffffff;

/** The smallest power of two that holds `count` ids within the load. */
function capacityFor(count: number): number {
  let capacity = MIN_CAPACITY;
  while (count / capacity > MAX_LOAD) capacity *= 2;
  return capacity;
}

/** The number of a version of 12 lower-case hex digits; -1 for any other string. */
function versionNumber(version: string): number {
  if (version.length !== HEX_DIGITS) return -1;
  let value = 0;
  for (let i = 0; i < HEX_DIGITS; i++) {
    const c = version.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}
