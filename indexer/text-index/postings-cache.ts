/**
 * The postings a query reads, kept in memory up to a byte budget (least recently used first out).
 * Opened segments leave their postings in their files (paged-postings.ts): a million pages hold
 * gigabytes of postings and word positions, and a workload asks for the same few thousand terms
 * again and again. The operating system's page cache keeps the files' bytes; this cache keeps them
 * decoded as typed arrays, so a term asked for twice is read once.
 *
 * What a read keeps lies in the cache's own slabs (postings-arena.ts), reused as entries are
 * evicted. An evicted entry's memory is reused only after the current turn of the event loop: a
 * value from the cache may be used until then, not across an `await` (searches read and use their
 * lists synchronously).
 */
import { blockSize, PostingsArena } from './postings-arena.ts';
import { CacheEntries } from './postings-cache-entries.ts';

/** 1 GB: the lists a varied workload reads at a million pages (256 MB thrashed there). */
export const DEFAULT_POSTINGS_CACHE_BYTES = 1024 * 1024 * 1024;

/** Slabs beyond the budget, for blocks that wait out their turn and for fragmentation. */
const ARENA_SLACK = 1.125;

/** Where a read puts its bytes: a view of a slab or of a buffer of its own. */
export interface ReadMemory {
  buffer: ArrayBuffer;
  byteOffset: number;
}

/** What a read for the cache gives: its value, the bytes it counts for, and the number {@link PostingsCache.get}'s `view` makes the value again from. */
export interface CacheRead<T> {
  value: T;
  bytes: number;
  shape: number;
}

/**
 * The cache keeps no object of a read's: a value it holds is made again, on each hit, from the
 * read's memory and its shape (views of the slab: short-lived objects, never marked by a full
 * collection). So a read is kept only when it wrote into one piece of the slabs' memory.
 */
export class PostingsCache {
  private readonly entries = new CacheEntries();
  private used = 0;
  private nextFileId = 1;
  private readonly arena: PostingsArena;
  /** Address and byte length of each allocation of the read in progress (null: no read of the cache's is in progress). */
  private reading: number[] | null = null;
  /** The read in progress wrote into a buffer of its own: it cannot be kept. */
  private readSpilled = false;
  /** Address and byte length of the memory of evicted entries, freed once the current turn of the event loop is over. */
  private retired: number[] = [];
  /** Reads for the cache that did not fit in its slabs (buffers of their own). */
  spilled = 0;

  constructor(readonly budget = DEFAULT_POSTINGS_CACHE_BYTES) {
    this.arena = new PostingsArena(Math.ceil(budget * ARENA_SLACK));
  }

  /** Bytes of slabs reserved (none before the first read). */
  get reserved(): number {
    return this.arena.reserved;
  }

  /** Lists kept. */
  get count(): number {
    return this.entries.count;
  }

  /**
   * Memory for `byteLength` bytes that a file read fills: in the slabs during a read of
   * {@link get}'s (freed with its entry), else a buffer of its own (not zero-filled: every byte is
   * read into it, and never a slice of Node's shared pool).
   */
  memory(byteLength: number): ReadMemory {
    if (this.reading !== null) {
      const address = this.arena.allocate(byteLength);
      if (address >= 0) {
        this.reading.push(address, byteLength);
        return { buffer: this.arena.slabOf(address), byteOffset: this.arena.offsetOf(address) };
      }
      this.spilled++;
      this.readSpilled = true;
    }
    const buffer = Buffer.allocUnsafeSlow(byteLength);
    return { buffer: buffer.buffer as ArrayBuffer, byteOffset: buffer.byteOffset };
  }

  /** A number of its own for each file, part of the keys of what is read from it. */
  fileId(): number {
    return this.nextFileId++;
  }

  /** Bytes held now. */
  get size(): number {
    return this.used;
  }

  /**
   * The value under `key`: made by `view` from the memory and shape of what an earlier `read`
   * kept, else what `read` returns (kept when it fits in the budget, in one allocation of the
   * cache's {@link memory}).
   */
  get<T>(key: number, read: () => CacheRead<T>, view: (memory: ReadMemory, shape: number) => T): T {
    const hit = this.entries.find(key);
    if (hit >= 0) {
      this.entries.touch(hit);
      const address = this.entries.address(hit);
      return view({ buffer: this.arena.slabOf(address), byteOffset: this.arena.offsetOf(address) }, this.entries.shape(hit));
    }
    const outer = this.reading;
    const outerSpilled = this.readSpilled;
    const allocations: number[] = (this.reading = []);
    this.readSpilled = false;
    let done: CacheRead<T>;
    let spilled: boolean;
    try {
      done = read();
    } catch (error) {
      this.retire(allocations);
      throw error;
    } finally {
      spilled = this.readSpilled;
      this.reading = outer;
      this.readSpilled = outerSpilled;
    }
    // What the slabs hold counts when it is more than the reader said (blocks are rounded up).
    const bytes = allocations.length === 2 ? Math.max(done.bytes, blockSize(allocations[1])) : done.bytes;
    if (allocations.length !== 2 || spilled || bytes > this.budget) {
      this.retire(allocations);
      return done.value;
    }
    this.used += bytes;
    this.entries.add(key, allocations[0], allocations[1], bytes, done.shape);
    while (this.used > this.budget) {
      const oldest = this.entries.oldest;
      this.used -= this.entries.countedBytes(oldest);
      this.retire([this.entries.address(oldest), this.entries.size(oldest)]);
      this.entries.remove(oldest);
    }
    return done.value;
  }

  /** Frees allocations (address, byte length pairs) once the current turn is over (a caller of this turn may still read them). */
  private retire(allocations: readonly number[]): void {
    if (allocations.length === 0) return;
    if (this.retired.length === 0) setImmediate(() => this.freeRetired()).unref();
    for (const value of allocations) this.retired.push(value);
  }

  private freeRetired(): void {
    const retired = this.retired;
    this.retired = [];
    for (let i = 0; i < retired.length; i += 2) this.arena.free(retired[i], retired[i + 1]);
  }
}
