/**
 * The version of each live page (document-version.ts), by page id, in a typed array indexed by
 * the id: a store's ids are dense, so the array is the column of versions, each as a number (its
 * 12 hex digits are 48 bits, exact in a double). At a million pages a Map of version strings held
 * two million heap objects and 61 MB, which every full collection of the server's heap marked
 * again; here they take 8 MB outside it. An open-addressing table with ids as their own home slots
 * did as well until an update: a changed page's id, deleted then set again, was looked for through
 * the whole run of consecutive ids after its slot, 0.16 s for the 1 % update at a million pages.
 * A version that is not 12 hex digits (none lse writes), or an id far beyond the others, is kept
 * as it is in a Map beside.
 */

const NONE = -1;
const MIN_CAPACITY = 16;
/** An id is given a slot while the array stays within this many slots per page it holds. */
const MAX_SLOTS_PER_PAGE = 4;
const HEX_DIGITS = 12;

export class VersionTable {
  /** Each id's version, or NONE. */
  private versions: Float64Array;
  /** Pages it was sized for: ids up to a few times this many get slots from the start. */
  private readonly expected: number;
  private count = 0;
  /** Versions that are not 12 hex digits, and ids without a slot (not whole numbers, or too sparse). */
  private readonly others = new Map<number, string>();
  /** At least the largest id in `others` (deletes there leave it as it was). */
  private besideMax = NONE;

  /** `expected`: how many ids it will hold (it grows past that as needed). */
  constructor(expected = 0) {
    this.expected = Math.max(0, Math.floor(expected));
    this.versions = new Float64Array(Math.max(MIN_CAPACITY, this.expected)).fill(NONE);
  }

  /** Live pages with a version. */
  get size(): number {
    return this.count + this.others.size;
  }

  /** Slots of the array (8 bytes each), for memory figures. */
  get slots(): number {
    return this.versions.length;
  }

  get(id: number): string | undefined {
    const value = this.valueOf(id);
    if (value >= 0) return value.toString(16).padStart(HEX_DIGITS, '0');
    return this.others.size > 0 ? this.others.get(id) : undefined;
  }

  set(id: number, version: string): void {
    const value = versionNumber(version);
    if (value < 0 || !this.hasSlot(id)) {
      this.delete(id);
      this.others.set(id, version);
      if (id > this.besideMax) this.besideMax = id;
      return;
    }
    if (this.others.size > 0) this.others.delete(id);
    if (this.versions[id] === NONE) this.count++;
    this.versions[id] = value;
  }

  /**
   * Writes the version of `id` as its 12 hex digits (ASCII) at `at`; false, writing nothing, when
   * the table keeps none as a number for it (none, or one in the Map beside).
   */
  writeHex(id: number, out: Uint8Array, at: number): boolean {
    const value = this.valueOf(id);
    if (value < 0) return false;
    // The low 32 bits and the high 16, each in integer arithmetic.
    let low = value % 0x1_0000_0000;
    let high = (value - low) / 0x1_0000_0000;
    for (let i = HEX_DIGITS - 1; i >= 4; i--, low >>>= 4) out[at + i] = HEX[low & 15];
    for (let i = 3; i >= 0; i--, high >>>= 4) out[at + i] = HEX[high & 15];
    return true;
  }

  delete(id: number): boolean {
    if (this.others.size > 0 && this.others.delete(id)) return true;
    if (this.valueOf(id) < 0) return false;
    this.versions[id] = NONE;
    this.count--;
    return true;
  }

  /** The version of `id` as a number, or NONE when it has none in the array. */
  private valueOf(id: number): number {
    return Number.isInteger(id) && id >= 0 && id < this.versions.length ? this.versions[id] : NONE;
  }

  /**
   * Whether `id` has a slot. The array grows to cover it, and the pages kept beside for want of a
   * slot, as far as it stays within a few slots per page.
   */
  private hasSlot(id: number): boolean {
    if (!Number.isInteger(id) || id < 0) return false;
    const length = this.versions.length;
    const beside = this.others.size > 0 ? this.besideMax : NONE;
    if (id < length && beside < length) return true;
    const room = MAX_SLOTS_PER_PAGE * (Math.max(this.size, this.expected) + 1) + MIN_CAPACITY;
    const cover = Math.max(id < room ? id : NONE, beside < room ? beside : NONE);
    if (cover >= length) this.grow(Math.min(room, Math.max(cover + 1, Math.ceil(length * 1.5))));
    return id < this.versions.length;
  }

  /** Grows the array to `capacity` slots and moves in the pages beside that now have one. */
  private grow(capacity: number): void {
    const grown = new Float64Array(capacity).fill(NONE);
    grown.set(this.versions);
    this.versions = grown;
    this.besideMax = NONE;
    for (const [id, version] of this.others) {
      const value = versionNumber(version);
      if (value >= 0 && Number.isInteger(id) && id >= 0 && id < capacity) {
        this.others.delete(id);
        grown[id] = value;
        this.count++;
      } else if (id > this.besideMax) this.besideMax = id;
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
