/**
 * Block summaries: each block's last document, largest frequency and shortest length, against a
 * plain recount; and the summaries of long lists are kept however many short ones a workload asks
 * for (short ones are bounded and made again).
 */
import { describe, expect, it } from 'vitest';
import { BLOCK_SIZE, blockSummary, LONG_LIST } from '../indexer/text-index/block-bounds.ts';
import type { FieldPostings } from '../indexer/text-index/compact-segment.ts';
import { seededRandom } from '../indexer/seeded-random.ts';

/** A field of one list of `longLength` postings, then `shortLists` lists of one posting each. */
function field(longLength: number, shortLists: number, docCount: number): FieldPostings {
  const random = seededRandom(3);
  const docs: number[] = [];
  const tf: number[] = [];
  const offsets = [0];
  const step = docCount / longLength;
  for (let i = 0; i < longLength; i++) {
    docs.push(Math.floor(i * step));
    tf.push(1 + Math.floor(random() * 9));
  }
  offsets.push(docs.length);
  for (let s = 0; s < shortLists; s++) {
    docs.push(s % docCount);
    tf.push(1);
    offsets.push(docs.length);
  }
  return {
    offsets: Int32Array.from(offsets),
    docs: Int32Array.from(docs),
    tf: Uint16Array.from(tf),
    positionOffsets: new Int32Array(docs.length + 1),
    positions: new Uint16Array(0),
    lengths: Uint32Array.from({ length: docCount }, () => 5 + Math.floor(random() * 400)),
  };
}

describe('block summaries', () => {
  it('bound every block by a recount of its postings', () => {
    const f = field(LONG_LIST + 37, 0, 5_000);
    const summary = blockSummary(f, 0);
    const blocks = Math.ceil((LONG_LIST + 37) / BLOCK_SIZE);
    expect(summary.lastDoc).toHaveLength(blocks);
    for (let b = 0; b < blocks; b++) {
      const from = b * BLOCK_SIZE;
      const to = Math.min(LONG_LIST + 37, from + BLOCK_SIZE);
      const docs = Array.from(f.docs.subarray(from, to));
      expect(summary.lastDoc[b]).toBe(docs.at(-1));
      expect(summary.maxFrequency[b]).toBe(Math.max(...f.tf.subarray(from, to)));
      expect(summary.minLength[b]).toBe(Math.min(...docs.map((d) => f.lengths[d])));
    }
    expect(summary.listMaxFrequency).toBe(Math.max(...summary.maxFrequency));
    expect(summary.listMinLength).toBe(Math.min(...summary.minLength));
  });

  it("keep a long list's summary while thousands of short ones come and go", () => {
    const f = field(LONG_LIST, 10_000, 5_000);
    const long = blockSummary(f, 0);
    const firstShort = blockSummary(f, 1);
    for (let t = 1; t <= 10_000; t++) blockSummary(f, t);
    // Kept: viewed again where it was made.
    const longAgain = blockSummary(f, 0);
    expect(longAgain.lastDoc.buffer).toBe(long.lastDoc.buffer);
    expect(longAgain.lastDoc.byteOffset).toBe(long.lastDoc.byteOffset);
    expect(longAgain).toEqual(long);
    // The short ones are bounded: the first was dropped and is made again, equal.
    const again = blockSummary(f, 1);
    expect(again.lastDoc.buffer).not.toBe(firstShort.lastDoc.buffer);
    expect(again).toEqual(firstShort);
  });
});
