/**
 * The store's URL table, id ↔ URL, kept out of the JavaScript heap: every URL's UTF-8 bytes in one
 * growable buffer with an offsets array, and url → id by an open-addressing hash table of ids.
 * At a million URLs a Map and a string array held ~150 MB of small heap objects that every
 * garbage collection walked; here the same table is a handful of typed arrays.
 *
 * Ids are dense (0, 1, 2 …) and never removed. The hash is taken over the string's UTF-16 code
 * units, so a lookup neither encodes nor decodes an ASCII URL: it compares code units with the
 * stored bytes directly (a URL with other characters is decoded to compare, which is rare).
 */

const EMPTY = -1;
const MAX_LOAD = 0.5;

/** FNV-1a over UTF-16 code units (stable: the snapshot file keeps these hashes). */
export function hashUrl(url: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) {
    hash ^= url.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const encoder = new TextEncoder();

type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };
/** A string with lone surrogates as UTF-8 stores it (each one U+FFFD): what the table holds and finds. */
const storable = (url: string) => ((url as unknown as WellFormed).isWellFormed() ? url : (url as unknown as WellFormed).toWellFormed());

/** The arrays a table is made of (what the snapshot file holds). */
export interface UrlTableParts {
  count: number;
  /** `count + 1` entries: URL `id` is `bytes[offsets[id] .. offsets[id + 1])`. */
  offsets: Uint32Array;
  /** `count` entries: hashUrl of each URL. */
  hashes: Uint32Array;
  bytes: Uint8Array;
}

export class UrlTable {
  private count = 0;
  private bytes: Buffer;
  private offsets: Uint32Array;
  private hashes: Uint32Array;
  private slots: Int32Array;

  constructor(capacity = 1024) {
    const ids = Math.max(16, capacity);
    this.bytes = Buffer.allocUnsafeSlow(ids * 64);
    this.offsets = new Uint32Array(ids + 1);
    this.hashes = new Uint32Array(ids);
    this.slots = new Int32Array(slotCountFor(ids)).fill(EMPTY);
  }

  /**
   * A table made of the given arrays themselves (not copied: a snapshot read straight into them),
   * its hash slots rebuilt from the saved hashes. `bytes` may be longer than the URLs (room to grow).
   */
  static adopt(parts: UrlTableParts & { bytes: Buffer }): UrlTable {
    const table = new UrlTable(0);
    table.bytes = parts.bytes;
    table.offsets = parts.offsets;
    table.hashes = parts.hashes;
    table.count = parts.count;
    if (parts.offsets.length < parts.count + 1 || parts.hashes.length < parts.count) throw new RangeError('URL table parts shorter than their count');
    table.slots = new Int32Array(slotCountFor(parts.count + 1)).fill(EMPTY);
    for (let id = 0; id < parts.count; id++) table.place(id, table.hashes[id]);
    return table;
  }

  /** A table holding the given parts (copied), its hash slots rebuilt from the saved hashes. */
  static fromParts(parts: UrlTableParts): UrlTable {
    const table = new UrlTable(Math.ceil(parts.count * 1.25));
    const byteLength = parts.offsets[parts.count];
    table.growBytes(byteLength);
    table.bytes.set(parts.bytes.subarray(0, byteLength));
    table.offsets.set(parts.offsets.subarray(0, parts.count + 1));
    table.hashes.set(parts.hashes.subarray(0, parts.count));
    table.count = parts.count;
    for (let id = 0; id < parts.count; id++) table.place(id, table.hashes[id]);
    return table;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held (buffers at their capacity), for memory reports. */
  get memoryBytes(): number {
    return this.bytes.byteLength + this.offsets.byteLength + this.hashes.byteLength + this.slots.byteLength;
  }

  idOf(url: string): number | undefined {
    url = storable(url);
    const mask = this.slots.length - 1;
    const hash = hashUrl(url);
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id === EMPTY) return undefined;
      if (this.hashes[id] === hash && this.holds(id, url)) return id;
    }
  }

  /** The URL of an id; undefined past the table or for an id without one (empty). */
  urlOf(id: number): string | undefined {
    if (!(id >= 0 && id < this.count) || this.offsets[id + 1] === this.offsets[id]) return undefined;
    return this.bytes.toString('utf8', this.offsets[id], this.offsets[id + 1]);
  }

  /** Appends a URL the table does not hold yet; its id is the table's size before. */
  add(url: string): number {
    url = storable(url);
    const id = this.count;
    if (id + 1 >= this.offsets.length) this.growIds();
    const start = this.offsets[id];
    // At most 3 bytes per UTF-16 code unit.
    this.growBytes(start + url.length * 3);
    const { written } = encoder.encodeInto(url, this.bytes.subarray(start));
    this.offsets[id + 1] = start + written;
    const hash = hashUrl(url);
    this.hashes[id] = hash;
    this.count = id + 1;
    if (this.count > this.slots.length * MAX_LOAD) this.rehash(this.slots.length * 2);
    else this.place(id, hash);
    return id;
  }

  /** Views of the first `count` URLs (not copies: valid until the table grows). */
  parts(count = this.count): UrlTableParts {
    if (count > this.count) throw new RangeError(`the URL table holds ${this.count} URLs, not ${count}`);
    return {
      count,
      offsets: this.offsets.subarray(0, count + 1),
      hashes: this.hashes.subarray(0, count),
      bytes: this.bytes.subarray(0, this.offsets[count]),
    };
  }

  private holds(id: number, url: string): boolean {
    const start = this.offsets[id];
    const length = this.offsets[id + 1] - start;
    if (length < url.length) return false;
    for (let i = 0; i < url.length; i++) {
      const code = url.charCodeAt(i);
      if (code >= 0x80) return this.urlOf(id) === url;
      if (this.bytes[start + i] !== code) return false;
    }
    return length === url.length;
  }

  private place(id: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = id;
  }

  private rehash(slotCount: number): void {
    this.slots = new Int32Array(slotCount).fill(EMPTY);
    for (let id = 0; id < this.count; id++) this.place(id, this.hashes[id]);
  }

  private growIds(): void {
    const capacity = Math.max(16, this.hashes.length * 2);
    const offsets = new Uint32Array(capacity + 1);
    offsets.set(this.offsets);
    this.offsets = offsets;
    const hashes = new Uint32Array(capacity);
    hashes.set(this.hashes);
    this.hashes = hashes;
  }

  private growBytes(needed: number): void {
    if (needed <= this.bytes.byteLength) return;
    // Offsets are 32-bit: 4 GiB of URL bytes (tens of millions of URLs) is the table's limit.
    if (needed > 0xffffffff) throw new RangeError('the URL table is full (4 GiB of URLs)');
    const bytes = Buffer.allocUnsafeSlow(Math.min(0xffffffff, Math.max(needed, 1024, Math.ceil(this.bytes.byteLength * 1.5))));
    bytes.set(this.bytes.subarray(0, this.offsets[this.count]));
    this.bytes = bytes;
  }
}

function slotCountFor(ids: number): number {
  let slots = 16;
  while (slots * MAX_LOAD < ids) slots *= 2;
  return slots;
}
