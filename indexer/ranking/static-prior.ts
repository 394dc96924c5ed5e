/**
 * The `prior` blend's link part as a static rank for the text index's top-k: per document of a
 * segment, `w · ln(r / r̃)` with the rank and scale the blend uses for that page (its group's
 * summed rank; its own for a page outside the page table). Added to the text score, it gives the
 * blended score exactly (same operations as blendScore), so the text index returns the best
 * pages by the blend itself and prunes with it. Computed once per segment for a group table.
 */
import type { StaticPrior } from '../text-index/scorer.ts';
import { logRankPrior, type RankScale } from './blend.ts';
import type { GroupTable } from './hit-groups.ts';
import { segmentColumn, COLUMN_SLICE, type SegmentColumn } from './segment-columns.ts';
import { hasPriorLevels, prepareLevels } from '../text-index/prior-levels.ts';
import { nextTurn } from '../stepwise.ts';

/** A static prior whose values for a segment can also be made ahead of its first search, in steps. */
export type PreparedPrior = StaticPrior & SegmentColumn<Float64Array>;

export function blendPrior(table: GroupTable, globalRank: (id: number) => number, globalScale: RankScale, weight: number): PreparedPrior {
  const { facts, groupRank, groupRankScale } = table;
  const column = segmentColumn(
    (length) => new Float64Array(length),
    (ids, values, from, to) => {
      for (let d = from; d < to; d++) {
        const row = facts.rowOf(ids[d]);
        values[d] = weight * (row >= 0 ? logRankPrior(groupRank[row], groupRankScale) : logRankPrior(globalRank(ids[d]), globalScale));
      }
    },
  );
  return {
    of: (segment) => column.of(segment),
    // Top-k reads its bounds from the prior's levels: made ahead too, not by a search.
    async prepare(segment, slice = COLUMN_SLICE) {
      await column.prepare(segment, slice);
      await prepareLevels(column.of(segment), slice, nextTurn);
    },
    has: (segment) => column.has(segment) && hasPriorLevels(column.of(segment)),
  };
}
