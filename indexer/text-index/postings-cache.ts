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
import { PostingsArena, type ArenaBlock } from './postings-arena.ts';

/** 1 GB: the lists a varied workload reads at a million pages (256 MB thrashed there). */
export const DEFAULT_POSTINGS_CACHE_BYTES = 1024 * 1024 * 1024;

/** Slabs beyond the budget, for blocks that wait out their turn and for fragmentation. */
const ARENA_SLACK = 1.125;

interface Entry {
  value: object;
  bytes: number;
  /** Its memory in the slabs: most reads take one block, kept without an array around it. */
  blocks: ArenaBlock | ArenaBlock[] | null;
}

/** Where a read puts its bytes: a view of a slab or of a buffer of its own. */
export interface ReadMemory {
  buffer: ArrayBuffer;
  byteOffset: number;
}

export class PostingsCache {
  private readonly entries = new Map<number, Entry>();
  private used = 0;
  private nextFileId = 1;
  private readonly arena: PostingsArena;
  /** The blocks of the read in progress (null: no read of the cache's is in progress). */
  private reading: ArenaBlock[] | null = null;
  /** Blocks of evicted entries, freed once the current turn of the event loop is over. */
  private retired: ArenaBlock[] = [];
  /** Reads for the cache that did not fit in its slabs (buffers of their own). */
  spilled = 0;

  constructor(readonly budget = DEFAULT_POSTINGS_CACHE_BYTES) {
    this.arena = new PostingsArena(Math.ceil(budget * ARENA_SLACK));
  }

  /** Bytes of slabs reserved (none before the first read). */
  get reserved(): number {
    return this.arena.reserved;
  }

  /**
   * Memory for `byteLength` bytes that a file read fills: in the slabs during a read of
   * {@link get}'s (freed with its entry), else a buffer of its own (not zero-filled: every byte is
   * read into it, and never a slice of Node's shared pool).
   */
  memory(byteLength: number): ReadMemory {
    if (this.reading !== null) {
      const block = this.arena.allocate(byteLength);
      if (block !== null) {
        this.reading.push(block);
        return block;
      }
      this.spilled++;
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

  /** The value under `key`, or what `read` returns (kept when it fits in the budget). */
  get<T extends object>(key: number, read: () => { value: T; bytes: number }): T {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Map order is insertion order: moving a hit to the end keeps the least recent first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as T;
    }
    const outer = this.reading;
    const blocks: ArenaBlock[] = (this.reading = []);
    let value: T;
    let bytes: number;
    try {
      ({ value, bytes } = read());
    } catch (error) {
      this.retire(blocks);
      throw error;
    } finally {
      this.reading = outer;
    }
    // What the slabs hold counts when it is more than the reader said (blocks are rounded up).
    let held = 0;
    for (const block of blocks) held += block.size;
    bytes = Math.max(bytes, held);
    if (bytes > this.budget) {
      this.retire(blocks);
      return value;
    }
    this.used += bytes;
    this.entries.set(key, { value, bytes, blocks: blocks.length === 0 ? null : blocks.length === 1 ? blocks[0] : blocks });
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
      this.retire(entry.blocks);
    }
    return value;
  }

  /** Frees `blocks` once the current turn is over (a caller of this turn may still read them). */
  private retire(blocks: ArenaBlock | ArenaBlock[] | null): void {
    if (blocks === null || (Array.isArray(blocks) && blocks.length === 0)) return;
    if (this.retired.length === 0) setImmediate(() => this.freeRetired()).unref();
    if (Array.isArray(blocks)) for (const block of blocks) this.retired.push(block);
    else this.retired.push(blocks);
  }

  private freeRetired(): void {
    const blocks = this.retired;
    this.retired = [];
    for (const block of blocks) this.arena.free(block);
  }
}
