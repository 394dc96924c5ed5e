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
  /** 32 less log2 of the capacity: a hash's top bits are its home slot. */
  private shift: number;
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
    this.shift = 32 - Math.log2(capacity);
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
    // Fibonacci hashing: consecutive ids (a store's are) spread over the table.
    return Math.imul(id, 0x9e3779b1) >>> this.shift;
  }

  /** Twice the live ids' room (at least), removed slots dropped. */
  private resize(): void {
    const { ids, versions } = this;
    const capacity = capacityFor(2 * (this.count + 1));
    this.ids = new Int32Array(capacity).fill(EMPTY);
    this.versions = new Float64Array(capacity);
    this.shift = 32 - Math.log2(capacity);
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
