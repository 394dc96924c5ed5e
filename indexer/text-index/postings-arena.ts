/**
 * The memory the postings cache keeps its lists in: a few large slabs, allocated once and reused
 * as lists are evicted. Every list read into a buffer of its own grows V8's external memory, and
 * V8 starts a garbage collection each time that has grown by its limit since the last one, though
 * the heap holds nothing to free: at a million pages, the first searches after a start and the
 * searches beside an update paid for collections that freed nothing. Slabs keep external memory
 * flat once the cache is full.
 *
 * A buddy allocator over slabs of 2^k bytes: blocks are powers of two, aligned to their size, and
 * a freed block joins its free buddy into the block they were split from. An allocation takes the
 * smallest block that holds it and gives back its unused tail as smaller blocks, so it wastes less
 * than {@link MIN_BLOCK} bytes; it is freed as the blocks it kept.
 */

/** Smallest block: every allocation is aligned to it (any typed array can view it). */
export const MIN_BLOCK = 64;
const MIN_ORDER = 6;
/** Largest slab (64 MB); a smaller budget gets one slab of its size rounded up. */
const MAX_SLAB_ORDER = 26;

/** What an allocation of `byteLength` bytes holds: rounded up to {@link MIN_BLOCK}. */
export const blockSize = (byteLength: number): number => (byteLength <= MIN_BLOCK ? MIN_BLOCK : Math.ceil(byteLength / MIN_BLOCK) * MIN_BLOCK);

/**
 * An allocation is its address (slab × slab size + offset) and its size: numbers, not an object
 * for every list the cache holds, for every collection to mark. The buddy blocks it holds are
 * the aligned blocks that tile it, found again when it is freed.
 */
export class PostingsArena {
  private readonly slabs: ArrayBuffer[] = [];
  /** Free block addresses by order. */
  private readonly freeBlocks: Array<Set<number>> = [];
  readonly slabOrder: number;
  readonly maxSlabs: number;

  /** Slabs for `bytes` in all, reserved together on the first allocation. */
  constructor(bytes: number) {
    this.slabOrder = Math.max(MIN_ORDER, Math.min(MAX_SLAB_ORDER, Math.ceil(Math.log2(Math.max(1, bytes)))));
    this.maxSlabs = bytes < MIN_BLOCK ? 0 : Math.ceil(bytes / 2 ** this.slabOrder);
    for (let order = 0; order <= this.slabOrder; order++) this.freeBlocks.push(new Set());
  }

  /** Bytes of slabs reserved (none before the first allocation). */
  get reserved(): number {
    return this.slabs.length * 2 ** this.slabOrder;
  }

  /** Bytes in free blocks. */
  get available(): number {
    let bytes = 0;
    for (let order = MIN_ORDER; order <= this.slabOrder; order++) bytes += this.freeBlocks[order].size * 2 ** order;
    return bytes;
  }

  /** The address of `byteLength` bytes ({@link blockSize} of them), or −1 when no slab has room. */
  allocate(byteLength: number): number {
    const size = blockSize(byteLength);
    // The order of the smallest block that holds `size` (a power of two at least MIN_BLOCK).
    const order = 32 - Math.clz32(size - 1);
    if (order > this.slabOrder) return -1;
    const address = this.take(order);
    if (address < 0) return -1;
    const offset = this.offsetOf(address);
    const base = address - offset;
    // Give back the tail past `size`; keep the blocks before it (free finds them again).
    forEachAlignedBlock(offset + size, offset + 2 ** order, (at, o) => this.release(base + at, o));
    return address;
  }

  /** The slab an address lies in. */
  slabOf(address: number): ArrayBuffer {
    return this.slabs[Math.floor(address / 2 ** this.slabOrder)];
  }

  /** An address's offset in its slab. */
  offsetOf(address: number): number {
    return address % 2 ** this.slabOrder;
  }

  /**
   * Returns the memory of an allocation of `byteLength` bytes at `address`, once: nothing may read
   * it afterwards, and a second call would free it twice (the caller keeps track).
   */
  free(address: number, byteLength: number): void {
    const offset = this.offsetOf(address);
    const base = address - offset;
    forEachAlignedBlock(offset, offset + blockSize(byteLength), (at, o) => this.release(base + at, o));
  }

  /** The address of a free block of `order` (split from a larger one; the slabs are reserved on the first call), −1 for none. */
  private take(order: number): number {
    let from = order;
    while (from <= this.slabOrder && this.freeBlocks[from].size === 0) from++;
    if (from > this.slabOrder && this.slabs.length === 0 && this.maxSlabs > 0) {
      this.reserveSlabs();
      from = this.slabOrder;
    }
    if (from > this.slabOrder) return -1;
    const set = this.freeBlocks[from];
    const address = set.values().next().value as number;
    set.delete(address);
    // Split down to `order`, freeing the upper halves.
    while (from > order) {
      from--;
      this.freeBlocks[from].add(address + 2 ** from);
    }
    return address;
  }

  /**
   * Every slab at once, on the first allocation. Their pages are the system's until written to;
   * allocated as the cache grew, each slab would grow V8's external memory, and with it start a
   * collection, during the first searches.
   */
  private reserveSlabs(): void {
    for (let s = 0; s < this.maxSlabs; s++) {
      this.slabs.push(new ArrayBuffer(2 ** this.slabOrder));
      this.freeBlocks[this.slabOrder].add(s * 2 ** this.slabOrder);
    }
  }

  /** Frees a block, joining it with its free buddy as far as they go. */
  private release(address: number, order: number): void {
    while (order < this.slabOrder) {
      const size = 2 ** order;
      const buddy = address % (2 * size) === 0 ? address + size : address - size;
      if (!this.freeBlocks[order].delete(buddy)) break;
      address = Math.min(address, buddy);
      order++;
    }
    this.freeBlocks[order].add(address);
  }
}

/** Each buddy block (offset in its slab, order) that tiles `from`..`to`, in address order, each as large as its alignment allows. */
function forEachAlignedBlock(from: number, to: number, visit: (offset: number, order: number) => void): void {
  for (let at = from; at < to; ) {
    const order = alignedOrder(at, to - at);
    visit(at, order);
    at += 2 ** order;
  }
}

/** The largest order of a block at `offset` in its slab (aligned to it) no longer than `room` bytes (both under 2^31). */
function alignedOrder(offset: number, room: number): number {
  const fits = 31 - Math.clz32(room);
  if (offset === 0) return fits;
  const aligned = 31 - Math.clz32(offset & -offset);
  return aligned < fits ? aligned : fits;
}
