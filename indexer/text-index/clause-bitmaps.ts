/**
 * Bitmaps of the documents of a segment's common word clauses (a word's lists in the fields it is
 * searched in), kept with the segment. An all-words query keeps the candidates of its rarest word
 * that the other words' documents hold; a common word's bitmap costs one bit per posting to set,
 * which at a million pages was more than the rest of the matching. Postings never change within a
 * segment, so a bitmap made once serves every later query that asks the same word in the same
 * fields; only words whose documents are a large share of the segment are kept, within a byte
 * bound per segment.
 */
import type { CompactSegment } from './compact-segment.ts';
import { emptyBits, setBits } from './ordinal-lists.ts';

/** Bytes of bitmaps kept per segment (about 700 words at 90k documents a segment). */
const BYTES_PER_SEGMENT = 8 * 1024 * 1024;
const ENTRIES_PER_SEGMENT = 4_096;

interface SegmentBitmaps {
  byClause: Map<string, Uint32Array>;
  bytes: number;
}

const kept = new WeakMap<CompactSegment, SegmentBitmaps>();

/**
 * The bitmap of the documents of `lists` (the postings of one clause in `segment`, named by `key`:
 * its term numbers and fields). Made on first use and kept; callers must not write to it.
 */
export function clauseBitmap(segment: CompactSegment, key: string, lists: readonly Int32Array[]): Uint32Array {
  let entry = kept.get(segment);
  if (entry === undefined) kept.set(segment, (entry = { byClause: new Map(), bytes: 0 }));
  const found = entry.byClause.get(key);
  if (found !== undefined) return found;
  const bits = emptyBits(segment.docIds.length);
  setBits(bits, lists);
  if (entry.bytes + bits.byteLength > BYTES_PER_SEGMENT || entry.byClause.size >= ENTRIES_PER_SEGMENT) {
    entry.byClause.clear();
    entry.bytes = 0;
  }
  entry.byClause.set(key, bits);
  entry.bytes += bits.byteLength;
  return bits;
}
