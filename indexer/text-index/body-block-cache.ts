/**
 * Inflated blocks of page bodies (body-blocks.ts), kept for the next passage that needs them, up
 * to a byte budget (least recently used first out). A search's passages read a window of each hit's
 * body: one or two blocks of 16 KB raw, each read from the segment's text file and inflated again
 * at every search that shows the page. Kept here, a page shown again costs neither the read nor
 * the inflation, and its bytes sit in the process's own memory: the kernel's page cache may drop
 * a file's pages (memory pressure, or a proactive reclaim), and a read that misses then waits for
 * the disk, behind a merge's writes for hundreds of milliseconds.
 */

/** Where a block came from: its file, and its stored position there (a segment's files never change). */
export type BlockKey = string;

export const blockKey = (file: string, storedPosition: number): BlockKey => `${storedPosition}@${file}`;

export class BodyBlockCache {
  private readonly blocks = new Map<BlockKey, Uint8Array>();
  private used = 0;

  constructor(readonly budget: number) {}

  get(key: BlockKey): Uint8Array | undefined {
    const block = this.blocks.get(key);
    if (block !== undefined) {
      // Most recently used last.
      this.blocks.delete(key);
      this.blocks.set(key, block);
    }
    return block;
  }

  set(key: BlockKey, inflated: Uint8Array): void {
    if (inflated.byteLength > this.budget) return;
    // A view of a larger buffer (zlib's output chunk) would keep all of it: the cache holds its own copy.
    const block = inflated.byteOffset === 0 && inflated.byteLength === inflated.buffer.byteLength ? inflated : inflated.slice();
    const previous = this.blocks.get(key);
    if (previous !== undefined) {
      this.used -= previous.byteLength;
      this.blocks.delete(key);
    }
    this.blocks.set(key, block);
    this.used += block.byteLength;
    for (const [oldest, evicted] of this.blocks) {
      if (this.used <= this.budget) break;
      this.blocks.delete(oldest);
      this.used -= evicted.byteLength;
    }
  }

  /** Bytes of blocks held. */
  get bytes(): number {
    return this.used;
  }
}
