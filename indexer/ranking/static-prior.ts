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
import { DerivedColumn, COLUMN_SLICE, type SegmentColumn } from './segment-columns.ts';
import type { CompactSegment } from '../text-index/compact-segment.ts';
import { hasPriorLevels, prepareLevels } from '../text-index/prior-levels.ts';
import { nextTurn } from '../stepwise.ts';

/** A static prior whose values for a segment can also be made ahead of its first search, in steps. */
export type PreparedPrior = StaticPrior & SegmentColumn<Float64Array>;

export function blendPrior(table: GroupTable, globalRank: (id: number) => number, globalScale: RankScale, weight: number): PreparedPrior {
  const { facts, groupRank, groupRankScale } = table;
  return new BlendPrior(
    new DerivedColumn<Float64Array>(
      (length) => new Float64Array(length),
      (ids, values, from, to) => {
        for (let d = from; d < to; d++) {
          const row = facts.rowOf(ids[d]);
          values[d] = weight * (row >= 0 ? logRankPrior(groupRank[row], groupRankScale) : logRankPrior(globalRank(ids[d]), globalScale));
        }
      },
    ),
  );
}

/** The prior's column with its levels, which top-k reads its bounds from: made ahead too, not by a search (a class for the reason DerivedColumn is one). */
class BlendPrior implements PreparedPrior {
  constructor(private readonly column: DerivedColumn<Float64Array>) {}

  of(segment: CompactSegment): Float64Array {
    return this.column.of(segment);
  }

  async prepare(segment: CompactSegment, slice = COLUMN_SLICE): Promise<void> {
    await this.column.prepare(segment, slice);
    await prepareLevels(this.column.of(segment), slice, nextTurn);
  }

  has(segment: CompactSegment): boolean {
    return this.column.has(segment) && hasPriorLevels(this.column.of(segment));
  }
}
