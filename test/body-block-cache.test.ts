/**
 * Passages' body blocks kept in memory: windows read through the cache equal windows read from
 * the stored bytes, a block kept is neither read nor inflated again, only the blocks not kept are
 * read (one span), and the cache stays within its budget, least recently used out first.
 */
import { describe, expect, it } from 'vitest';
import { blockKey, BodyBlockCache } from '../indexer/text-index/body-block-cache.ts';
import { bodyLayout, encodeBody, readRawRange, type ReadStored } from '../indexer/text-index/body-blocks.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { realDocPages } from './helpers/real-doc-pages.ts';

const BLOCK = 1_024;
const FILE = '/index/seg-000001.text.bin';

/** A body of real documentation text in blocks of BLOCK raw bytes, as a file of its stored bytes at `at`. */
function storedBody(at: number) {
  const text = realDocPages(40).map((doc) => doc.text).join('\n').slice(0, 60_000);
  const raw = new TextEncoder().encode(text);
  const { entries, chunks } = encodeBody(raw, text.length, BLOCK);
  const file = new Uint8Array(at + chunks.reduce((n, c) => n + c.length, 0));
  let end = at;
  for (const chunk of chunks) {
    file.set(chunk, end);
    end += chunk.length;
  }
  const layout = bodyLayout([at, ...entries], 'seg-000001');
  const reads: Array<[number, number]> = [];
  const read: ReadStored = (position, length) => {
    reads.push([position, length]);
    return file.slice(position, position + length);
  };
  return { raw, layout, read, reads };
}

describe('the body block cache', () => {
  it('gives the same windows, reading only the blocks it does not keep', () => {
    const { raw, layout, read, reads } = storedBody(100);
    expect(layout.blockStarts.length - 1).toBeGreaterThan(20);
    const cache = new BodyBlockCache(1 << 20);
    const kept = { cache, file: FILE };
    const random = seededRandom(5);
    for (let i = 0; i < 200; i++) {
      const from = Math.floor(random() * raw.length);
      const to = from + 1 + Math.floor(random() * 3 * BLOCK);
      expect(readRawRange(layout, from, to, read, 'seg-000001', kept)).toEqual(raw.slice(from, Math.min(to, raw.length)));
    }
    // Every block is kept now: the whole body again reads nothing.
    reads.length = 0;
    expect(readRawRange(layout, 0, raw.length, read, 'seg-000001', kept)).toEqual(raw);
    expect(reads).toEqual([]);
  });

  it('reads one span for the blocks not kept, and keeps within its budget', () => {
    const { raw, layout, read, reads } = storedBody(0);
    const cache = new BodyBlockCache(4 * BLOCK);
    const kept = { cache, file: FILE };
    // Blocks 2 and 3 kept; a window over blocks 1-5 misses 1, 4 and 5, and reads their span once.
    readRawRange(layout, 2 * BLOCK, 4 * BLOCK, read, 'seg-000001', kept);
    reads.length = 0;
    expect(readRawRange(layout, 1 * BLOCK + 10, 6 * BLOCK - 10, read, 'seg-000001', kept)).toEqual(raw.slice(BLOCK + 10, 6 * BLOCK - 10));
    const { at, blockStarts } = layout;
    expect(reads).toEqual([[at + blockStarts[1], blockStarts[6] - blockStarts[1]]]);
    // Four blocks of budget: 2 and 3 were used (2 first), then 1, 4 and 5 inflated: 2 went out.
    expect(cache.bytes).toBeLessThanOrEqual(4 * BLOCK);
    expect([1, 2, 3, 4, 5].map((b) => cache.get(blockKey(FILE, at + blockStarts[b])) !== undefined)).toEqual([true, false, true, true, true]);
    // Another file's block at the same position is another block.
    expect(cache.get(blockKey('/index/seg-000002.text.bin', at + blockStarts[3]))).toBeUndefined();
  });

  it('holds a copy of a view of a larger buffer, and nothing over its budget', () => {
    const cache = new BodyBlockCache(100);
    const big = new Uint8Array(1_000).fill(7);
    cache.set('a', big.subarray(10, 60));
    const block = cache.get('a')!;
    expect([block.byteLength, block.buffer.byteLength, block[0]]).toEqual([50, 50, 7]);
    cache.set('b', new Uint8Array(101));
    expect([cache.get('b'), cache.bytes]).toEqual([undefined, 50]);
    cache.set('a', new Uint8Array(80));
    expect(cache.bytes).toBe(80);
  });
});
