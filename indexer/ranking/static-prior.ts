/**
 * The `prior` blend's link part as a static rank for the text index's top-k: per document of a
 * segment, `w · ln(r / r̃)` with the rank and scale the blend uses for that page (its group's
 * summed rank; its own for a page outside the page table). Added to the text score, it gives the
 * blended score exactly (same operations as blendScore), so the text index returns the best
 * pages by the blend itself and prunes with it. Computed once per segment for a group table.
 */
import type { CompactSegment } from '../text-index/compact-segment.ts';
import type { StaticPrior } from '../text-index/scorer.ts';
import { nextTurn } from '../stepwise.ts';
import { logRankPrior, type RankScale } from './blend.ts';
import type { GroupTable } from './hit-groups.ts';

/** A static prior whose values for a segment can also be made ahead of its first search, in steps. */
export interface PreparedPrior extends StaticPrior {
  /** Makes the segment's values `slice` documents per turn of the event loop (nothing when made). */
  prepare(segment: CompactSegment, slice?: number): Promise<void>;
}

/** Documents whose prior is made between two turns of the event loop (a few ms at a million pages). */
const SLICE = 16_384;

export function blendPrior(table: GroupTable, globalRank: (id: number) => number, globalScale: RankScale, weight: number): PreparedPrior {
  const cache = new WeakMap<CompactSegment, Float64Array>();
  const { facts, groupRank, groupRankScale } = table;
  const fill = (ids: Int32Array, values: Float64Array, from: number, to: number) => {
    for (let d = from; d < to; d++) {
      const row = facts.rowOf(ids[d]);
      values[d] = weight * (row >= 0 ? logRankPrior(groupRank[row], groupRankScale) : logRankPrior(globalRank(ids[d]), globalScale));
    }
  };
  return {
    of(segment) {
      let values = cache.get(segment);
      if (values === undefined) {
        values = new Float64Array(segment.docIds.length);
        fill(segment.docIds, values, 0, values.length);
        cache.set(segment, values);
      }
      return values;
    },
    async prepare(segment, slice = SLICE) {
      if (cache.has(segment)) return;
      const values = new Float64Array(segment.docIds.length);
      for (let from = 0; from < values.length; from += slice) {
        fill(segment.docIds, values, from, Math.min(values.length, from + slice));
        await nextTurn();
      }
      if (!cache.has(segment)) cache.set(segment, values);
    },
  };
}
