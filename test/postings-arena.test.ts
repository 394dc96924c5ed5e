/**
 * The slabs the postings cache keeps its lists in (postings-arena.ts): blocks never overlap, are
 * aligned and waste less than a minimum block, join back into whole slabs when freed; and the
 * cache reads real lists into them, reuses an evicted list's memory only after the turn of the
 * event loop in which it was evicted, and answers exactly as the lists read whole.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../indexer/seeded-random.ts';
import { nextTurn } from '../indexer/stepwise.ts';
import { termPostings, type TermPostings } from '../indexer/text-index/compact-segment.ts';
import { blockSize, MIN_BLOCK, PostingsArena } from '../indexer/text-index/postings-arena.ts';
import { PostingsCache, type ReadMemory } from '../indexer/text-index/postings-cache.ts';
import { openSegment, readSegment } from '../indexer/text-index/segment-files.ts';
import { realDocPages } from './helpers/real-doc-pages.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const { tempDir, openIndex } = tempIndexes('lse-arena-');

describe('postings arena', () => {
  it('gives blocks that never overlap, aligned, and joins them back into whole slabs', () => {
    const arena = new PostingsArena(4 * 1024 * 1024);
    const slab = 2 ** arena.slabOrder;
    const next = seededRandom(7);
    const live: Array<{ address: number; bytes: number }> = [];
    let refused = 0;
    for (let step = 0; step < 20_000; step++) {
      if (live.length > 0 && next() < 0.45) {
        // Free a live block at random (the last one takes its place).
        const i = Math.floor(next() * live.length);
        arena.free(live[i].address, live[i].bytes);
        live[i] = live[live.length - 1];
        live.pop();
        continue;
      }
      // Mostly short lists, some long ones, as a workload's postings are.
      const bytes = next() < 0.9 ? 1 + Math.floor(next() * 2_000) : 1 + Math.floor(next() * 300_000);
      const address = arena.allocate(bytes);
      if (address < 0) {
        refused++;
        continue;
      }
      const offset = arena.offsetOf(address);
      expect(offset % MIN_BLOCK).toBe(0);
      expect(blockSize(bytes)).toBeGreaterThanOrEqual(bytes);
      expect(blockSize(bytes) - bytes).toBeLessThan(MIN_BLOCK);
      expect(offset + blockSize(bytes)).toBeLessThanOrEqual(slab);
      // Its address: the slab's number times its size, plus the offset; the slab is one of the arena's.
      expect(address % slab).toBe(offset);
      expect(arena.slabOf(address).byteLength).toBe(slab);
      live.push({ address, bytes });
    }
    // No two live blocks share a byte.
    const ranges = live.map((block) => [block.address, blockSize(block.bytes)]).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBeGreaterThanOrEqual(ranges[i - 1][0] + ranges[i - 1][1]);
    expect(refused).toBeGreaterThan(0);
    for (const block of live) arena.free(block.address, block.bytes);
    expect(arena.available).toBe(arena.reserved);
    // Whole again: every slab can be taken in one block.
    for (let s = 0; s < arena.reserved / slab; s++) expect(arena.allocate(slab)).toBeGreaterThanOrEqual(0);
    expect(arena.allocate(1)).toBe(-1);
  });

  it('refuses what is larger than a slab, and has no slab for a budget of nothing', () => {
    const arena = new PostingsArena(100_000);
    expect(arena.allocate(2 ** arena.slabOrder + 1)).toBe(-1);
    expect(arena.allocate(2 ** arena.slabOrder)).toBeGreaterThanOrEqual(0);
    expect(new PostingsArena(0).allocate(8)).toBe(-1);
  });
});

describe('postings cache memory', () => {
  it('reuses evicted lists’ memory after their turn and reads every list as it is whole', async () => {
    const dir = await tempDir();
    const index = await openIndex(dir, { maxSegmentDocs: 1_000 });
    await index.rebuild(realDocPages(200));
    const name = index.handle.current.segments[0].stored.postings.name;
    await index.close();
    const indexDir = join(dir, 'index');
    const whole = (await readSegment(indexDir, name)).postings;
    const listBytes = whole.fields.reduce((sum, field) => sum + field.docs.length * 6, 0);
    // A budget of a tenth of the postings: every pass evicts and reads again.
    const cache = new PostingsCache(Math.floor(listBytes / 10));
    const paged = openSegment(indexDir, name, cache).postings;
    const copy = ({ docs, tf }: TermPostings) => [Array.from(docs), Array.from(tf)];
    let lists = 0;
    for (let pass = 0; pass < 3; pass++) {
      for (let f = 0; f < paged.fields.length; f++) {
        const terms = paged.fields[f].offsets.length - 1;
        for (let t = 0; t < terms; t++) {
          expect(copy(termPostings(paged.fields[f], t))).toEqual(copy(termPostings(whole.fields[f], t)));
          lists++;
          if (t % 50 === 49) await nextTurn();
        }
      }
    }
    expect(lists).toBeGreaterThan(3_000);
    // Evicted memory came back: at most a few reads found no room in the slabs.
    expect(cache.spilled).toBeLessThan(lists / 100);
    // One slab of the budget and its slack, rounded up to a power of two.
    expect(cache.reserved).toBeLessThan(2.25 * cache.budget + MIN_BLOCK);
  }, 120_000);

  it('keeps an evicted list’s bytes until the turn of its eviction is over', async () => {
    let reads = 0;
    const cache = new PostingsCache(4 * 1024);
    const view = (memory: ReadMemory, n: number) => new Uint8Array(memory.buffer, memory.byteOffset, n);
    const read = (fill: number) => () => {
      const memory = cache.memory(1_024);
      const bytes = view(memory, 1_024).fill(fill);
      reads++;
      return { value: bytes, bytes: 1_024, shape: 1_024 };
    };
    const first = cache.get(1, read(1), view);
    // More lists than the slab holds evict the first, and none of their reads lands on its bytes in
    // this turn: the last ones find no room and get buffers of their own.
    for (let key = 2; key <= 10; key++) cache.get(key, read(key), view);
    expect(first.every((byte) => byte === 1)).toBe(true);
    expect(cache.spilled).toBeGreaterThan(0);
    await nextTurn();
    for (let key = 11; key <= 18; key++) cache.get(key, read(key), view);
    // Now its memory is reused.
    expect(first.every((byte) => byte === 1)).toBe(false);
    expect(reads).toBe(18);
  });
});
