/**
 * The postings cache's entries as typed arrays: an open-addressing table (linear probing,
 * deletion by shifting back, no tombstones) from a key to an entry number, and per entry its key,
 * its memory's address and size, the bytes it counts for, the number its list is viewed by, and
 * its place in a least-recently-used list. A Map of entry objects, each with its list's typed
 * arrays and an object for its memory, was six or more objects per cached list (about 150,000
 * at a million pages) for every garbage collection to mark.
 */

const EMPTY = -1;
/** Slots per entry at most: the table doubles beyond. */
const MAX_LOAD = 0.5;

export class CacheEntries {
  private capacity = 0;
  private keys = new Float64Array(0);
  private addresses = new Float64Array(0);
  private sizes = new Float64Array(0);
  private counted = new Float64Array(0);
  private shapes = new Int32Array(0);
  /** Least recently used first: `head` → next → … → `tail`. */
  private previous = new Int32Array(0);
  private next = new Int32Array(0);
  private head = EMPTY;
  private tail = EMPTY;
  /** Entry numbers not in use. */
  private unused = new Int32Array(0);
  private unusedCount = 0;
  private slots = new Int32Array(16).fill(EMPTY);
  count = 0;

  /** The entry of `key`, or −1. */
  find(key: number): number {
    const mask = this.slots.length - 1;
    for (let slot = homeSlot(key, mask); ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === EMPTY || this.keys[entry] === key) return entry;
    }
  }

  /** A new entry for `key` (not in the table), most recently used. */
  add(key: number, address: number, size: number, counted: number, shape: number): number {
    if (this.unusedCount === 0) this.grow();
    const entry = this.unused[--this.unusedCount];
    this.keys[entry] = key;
    this.addresses[entry] = address;
    this.sizes[entry] = size;
    this.counted[entry] = counted;
    this.shapes[entry] = shape;
    const mask = this.slots.length - 1;
    let slot = homeSlot(key, mask);
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = entry;
    this.count++;
    this.link(entry);
    return entry;
  }

  /** Makes an entry the most recently used. */
  touch(entry: number): void {
    if (entry === this.tail) return;
    this.unlink(entry);
    this.link(entry);
  }

  /** The least recently used entry, or −1. */
  get oldest(): number {
    return this.head;
  }

  /** Takes an entry out of the table. */
  remove(entry: number): void {
    const mask = this.slots.length - 1;
    let hole = homeSlot(this.keys[entry], mask);
    while (this.slots[hole] !== entry) hole = (hole + 1) & mask;
    // Shift back the entries after the hole that may sit there (their home lies at or before it).
    for (let slot = (hole + 1) & mask; this.slots[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const moved = this.slots[slot];
      const home = homeSlot(this.keys[moved], mask);
      if (((slot - home) & mask) >= ((slot - hole) & mask)) {
        this.slots[hole] = moved;
        hole = slot;
      }
    }
    this.slots[hole] = EMPTY;
    this.unlink(entry);
    this.unused[this.unusedCount++] = entry;
    this.count--;
  }

  address(entry: number): number {
    return this.addresses[entry];
  }

  size(entry: number): number {
    return this.sizes[entry];
  }

  countedBytes(entry: number): number {
    return this.counted[entry];
  }

  shape(entry: number): number {
    return this.shapes[entry];
  }

  private link(entry: number): void {
    this.previous[entry] = this.tail;
    this.next[entry] = EMPTY;
    if (this.tail === EMPTY) this.head = entry;
    else this.next[this.tail] = entry;
    this.tail = entry;
  }

  private unlink(entry: number): void {
    const before = this.previous[entry];
    const after = this.next[entry];
    if (before === EMPTY) this.head = after;
    else this.next[before] = after;
    if (after === EMPTY) this.tail = before;
    else this.previous[after] = before;
  }

  /** Doubles the entries, and the slots with them (every key placed again). */
  private grow(): void {
    const old = this.capacity;
    const capacity = Math.max(64, old * 2);
    const grown = <A extends Float64Array | Int32Array>(array: A, make: (n: number) => A): A => {
      const larger = make(capacity);
      larger.set(array);
      return larger;
    };
    const float = (n: number) => new Float64Array(n);
    const int = (n: number) => new Int32Array(n);
    this.keys = grown(this.keys, float);
    this.addresses = grown(this.addresses, float);
    this.sizes = grown(this.sizes, float);
    this.counted = grown(this.counted, float);
    this.shapes = grown(this.shapes, int);
    this.previous = grown(this.previous, int);
    this.next = grown(this.next, int);
    this.unused = grown(this.unused, int);
    // New entry numbers handed out lowest first.
    for (let entry = capacity - 1; entry >= old; entry--) this.unused[this.unusedCount++] = entry;
    this.capacity = capacity;
    let slotCount = this.slots.length;
    while (capacity > slotCount * MAX_LOAD) slotCount *= 2;
    if (slotCount === this.slots.length) return;
    this.slots = new Int32Array(slotCount).fill(EMPTY);
    const mask = slotCount - 1;
    for (let entry = this.head; entry !== EMPTY; entry = this.next[entry]) {
      let slot = homeSlot(this.keys[entry], mask);
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.slots[slot] = entry;
    }
  }
}

/** A key's first slot: its low and high 32 bits mixed (keys are integers below 2^53). */
function homeSlot(key: number, mask: number): number {
  let hash = Math.imul((key >>> 0) ^ Math.imul(Math.floor(key / 4294967296), 0x27d4eb2d), 0x9e3779b1);
  hash ^= hash >>> 15;
  return hash & mask;
}
