/**
 * Every match of a query, handed over a segment at a time: the segment and the ordinals of its
 * matching documents. At a million pages a query has tens of thousands of matches; the search's
 * facet counts read them by segment and ordinal (each segment's facet combinations are a column
 * of its own, which stays in cache where a page-id → row lookup missed it twice a match), and
 * page ids are made only when something asks for them.
 */
import type { CompactSegment } from './compact-segment.ts';

/** One segment's matches: ascending ordinals of its documents. */
export interface SegmentMatches {
  segment: CompactSegment;
  ordinals: Int32Array;
}

export class MatchCollector {
  private readonly chunks: SegmentMatches[] = [];
  private count = 0;
  private joined: Int32Array | undefined;

  /** Adds a segment's matches (the collector keeps the array; it must not change afterwards). */
  add(segment: CompactSegment, ordinals: Int32Array): void {
    if (ordinals.length === 0) return;
    this.chunks.push({ segment, ordinals });
    this.count += ordinals.length;
    this.joined = undefined;
  }

  get length(): number {
    return this.count;
  }

  /** The matches by segment, in the order added. */
  segments(): readonly SegmentMatches[] {
    return this.chunks;
  }

  /** The page id of every match added, in the order added. */
  ids(): Int32Array {
    if (this.joined === undefined) {
      const joined = new Int32Array(this.count);
      let at = 0;
      for (const { segment, ordinals } of this.chunks) {
        const ids = segment.docIds;
        for (let i = 0; i < ordinals.length; i++) joined[at++] = ids[ordinals[i]];
      }
      this.joined = joined;
    }
    return this.joined;
  }
}
