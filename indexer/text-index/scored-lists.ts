/**
 * A query's postings lists in one segment, one per scored term and field, with a cursor each.
 * Documents are visited in ascending ordinal order, so a cursor only moves forward (galloping).
 */
import { BLOCK_SIZE, blockSummary, type BlockSummary } from './block-bounds.ts';
import { termNumber, termPostings, type CompactSegment } from './compact-segment.ts';
import { INDEX_FIELDS } from './document.ts';
import { postingWeight, type ScoringPlan } from './scoring-plan.ts';

const FIELD_BOOSTS = INDEX_FIELDS.map((field) => field.boost);

export interface ScoredList {
  docs: Int32Array;
  tf: Uint16Array;
  lengths: Uint32Array;
  /** The term's postings are docs[from .. end). */
  from: number;
  end: number;
  cursor: number;
  /** The query vector's weight of this term and field, divided by the vector's length. */
  queryWeight: number;
  idf: number;
  fieldBoost: number;
  averageLength: number;
  blocks: BlockSummary;
  /** The block {@link boundAt} last looked at, and its bound (NaN until computed). */
  block: number;
  blockBound: number;
  /**
   * Bounded by its exact weights rather than by blocks: a list much shorter than the candidates
   * (a title, a rare word) holds few of them, and a block bound would charge every one its maximum.
   */
  exact: boolean;
}

/** The lists of the plan's terms in a segment, in the order their weights are summed. */
export function scoredLists(segment: CompactSegment, plan: ScoringPlan): ScoredList[] {
  const lists: ScoredList[] = [];
  for (const { term, weights, idf } of plan.terms) {
    const t = termNumber(segment, term);
    if (t < 0) continue;
    for (let f = 0; f < weights.length; f++) {
      if (weights[f] === 0) continue;
      const field = segment.fields[f];
      if (field.offsets[t] === field.offsets[t + 1]) continue;
      const { docs, tf } = termPostings(field, t);
      lists.push({
        docs,
        tf,
        lengths: field.lengths,
        from: 0,
        end: docs.length,
        cursor: 0,
        queryWeight: weights[f] / plan.magnitude[f],
        idf,
        fieldBoost: FIELD_BOOSTS[f],
        averageLength: plan.averageLengths[f],
        blocks: blockSummary(field, t),
        block: 0,
        blockBound: NaN,
        exact: false,
      });
    }
  }
  return lists;
}

/** The first index in docs[from .. end) at or after `from` whose document is ≥ `d` (end if none). */
export function seek(docs: Int32Array, from: number, end: number, d: number): number {
  if (from >= end || docs[from] >= d) return from;
  // Gallop: most seeks move a few postings, some jump far.
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < end && docs[hi] < d) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  // docs[lo] < d; the answer is in (lo, hi].
  lo++;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Moves the list's cursor to `d`; true when the list has it. */
export function advanceTo(list: ScoredList, d: number): boolean {
  const p = seek(list.docs, list.cursor, list.end, d);
  list.cursor = p;
  return p < list.end && list.docs[p] === d;
}

/** The weight `d` gets from the list's posting at its cursor (which must be on `d`). */
export function weightAtCursor(list: ScoredList, d: number): number {
  return list.queryWeight * postingWeight(list.idf, list.tf[list.cursor], list.lengths[d], list.averageLength, list.fieldBoost);
}

/**
 * An upper bound of what `d` gets from the list, from the summary of the block that would hold it
 * (0 when no block can; its exact weight for an `exact` list). Calls must come with ascending `d` until {@link resetCursors}.
 */
export function boundAt(list: ScoredList, d: number, work: { scoredWeights: number }): number {
  if (list.exact) {
    if (!advanceTo(list, d)) return 0;
    work.scoredWeights++;
    return weightAtCursor(list, d);
  }
  const { lastDoc } = list.blocks;
  let b = list.block;
  while (b < lastDoc.length && lastDoc[b] < d) b++;
  if (b !== list.block) {
    list.block = b;
    list.blockBound = NaN;
  }
  if (b === lastDoc.length || list.docs[list.from + b * BLOCK_SIZE] > d) return 0;
  if (Number.isNaN(list.blockBound)) {
    list.blockBound = list.queryWeight * postingWeight(list.idf, list.blocks.maxFrequency[b], list.blocks.minLength[b], list.averageLength, list.fieldBoost);
  }
  return list.blockBound;
}

export function resetCursors(lists: readonly ScoredList[]): void {
  for (const list of lists) {
    list.cursor = list.from;
    list.block = 0;
    list.blockBound = NaN;
  }
}
