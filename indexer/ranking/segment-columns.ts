/**
 * A value per document of each text-index segment, derived from the engine's tables (the static
 * prior, the facet combination): made once per segment and table, either at a search's first use
 * or ahead of it in slices between turns of the event loop (when a segment is about to become
 * visible, or after the tables change), and kept while the segment lives.
 */
import type { CompactSegment } from '../text-index/compact-segment.ts';
import { nextTurn } from '../stepwise.ts';

export interface SegmentColumn<Values> {
  /** The segment's values by document ordinal (made now when not made yet). */
  of(segment: CompactSegment): Values;
  /** Makes the segment's values `slice` documents per turn of the event loop (nothing when made). */
  prepare(segment: CompactSegment, slice?: number): Promise<void>;
  /** Whether the segment's values are made. */
  has(segment: CompactSegment): boolean;
}

/** Documents whose values are made between two turns of the event loop (a few ms at a million pages). */
export const COLUMN_SLICE = 16_384;

/**
 * A column whose values for documents [from, to) of a segment `fill` writes, reading the
 * segment's page ids. A class, not an object of closures: a search calls `of` at one place for
 * every table the engine switches to, and a new closure there was a new call target, for which V8
 * threw away the search's compiled code at a server's first switch of ranks or page facts.
 */
export class DerivedColumn<Values extends { length: number }> implements SegmentColumn<Values> {
  private readonly cache = new WeakMap<CompactSegment, Values>();

  constructor(
    private readonly make: (length: number) => Values,
    private readonly fill: (ids: Int32Array, values: Values, from: number, to: number) => void,
  ) {}

  of(segment: CompactSegment): Values {
    let values = this.cache.get(segment);
    if (values === undefined) {
      values = this.make(segment.docIds.length);
      this.fill(segment.docIds, values, 0, values.length);
      this.cache.set(segment, values);
    }
    return values;
  }

  async prepare(segment: CompactSegment, slice = COLUMN_SLICE): Promise<void> {
    if (this.cache.has(segment)) return;
    const values = this.make(segment.docIds.length);
    for (let from = 0; from < values.length; from += slice) {
      this.fill(segment.docIds, values, from, Math.min(values.length, from + slice));
      await nextTurn();
    }
    if (!this.cache.has(segment)) this.cache.set(segment, values);
  }

  has(segment: CompactSegment): boolean {
    return this.cache.has(segment);
  }
}
