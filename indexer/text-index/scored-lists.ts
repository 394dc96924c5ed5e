/**
 * A query's postings lists in one segment, one per scored term and field, with a cursor each.
 * Documents are visited in ascending ordinal order, so a cursor only moves forward (galloping).
 */
import { BLOCK_SIZE, blockSummary } from './block-bounds.ts';
import { termNumber, termPostings, type CompactSegment, type FieldPostings } from './compact-segment.ts';
import { INDEX_FIELDS } from './document.ts';
import { seek } from './ordinal-lists.ts';
import { postingWeight, type ScoringPlan } from './scoring-plan.ts';

const FIELD_BOOSTS = INDEX_FIELDS.map((field) => field.boost);

export interface ScoredList {
  docs: Int32Array;
  tf: Uint16Array;
  lengths: Uint32Array;
  cursor: number;
  /** The query vector's weight of this term and field, divided by the vector's length. */
  queryWeight: number;
  idf: number;
  fieldBoost: number;
  averageLength: number;
  /** Where the list comes from: its block summaries are made on first use (block-bounds.ts). */
  field: FieldPostings;
  term: number;
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
        cursor: 0,
        queryWeight: weights[f] / plan.magnitude[f],
        idf,
        fieldBoost: FIELD_BOOSTS[f],
        averageLength: plan.averageLengths[f],
        field,
        term: t,
      });
    }
  }
  return lists;
}

/**
 * Adds to each candidate's bound what it can get from the list: the bound of the block that would
 * hold it (the weight of the block's largest frequency and shortest length), 0 between blocks
 * (`sign` -1 takes the same away again).
 * Candidates are ascending, so one pass over the blocks and the candidates does it.
 */
export function addBlockBounds(list: ScoredList, candidates: Int32Array, bounds: Float64Array, sign: 1 | -1 = 1): void {
  const { lastDoc, maxFrequency, minLength } = blockSummary(list.field, list.term);
  let i = 0;
  for (let b = 0; b < lastDoc.length && i < candidates.length; b++) {
    const first = list.docs[b * BLOCK_SIZE];
    while (i < candidates.length && candidates[i] < first) i++;
    if (i === candidates.length || candidates[i] > lastDoc[b]) continue;
    const bound = sign * list.queryWeight * postingWeight(list.idf, maxFrequency[b], minLength[b], list.averageLength, list.fieldBoost);
    while (i < candidates.length && candidates[i] <= lastDoc[b]) bounds[i++] += bound;
  }
}

/**
 * Adds each candidate's exact weight from the list, where a block bound would charge every
 * candidate in a block's range its maximum (a title, a rare or expanded word): one pass over the
 * shorter of the two, galloping in the other.
 */
export function addExactBounds(list: ScoredList, candidates: Int32Array, bounds: Float64Array, work: { scoredWeights: number }): void {
  const { docs, tf, lengths, queryWeight, idf, averageLength, fieldBoost } = list;
  const n = candidates.length;
  if (docs.length > n) {
    weighFrom(list, 0, candidates, bounds, work);
    return;
  }
  let i = 0;
  let weights = 0;
  for (let p = 0; p < docs.length; p++) {
    const d = docs[p];
    if (candidates[i] < d) i = seek(candidates, i, n, d);
    if (i === n) break;
    if (candidates[i] !== d) continue;
    bounds[i] += queryWeight * postingWeight(idf, tf[p], lengths[d], averageLength, fieldBoost);
    weights++;
  }
  work.scoredWeights += weights;
}

/**
 * Adds each document's exact weight from the list (`documents`: ascending ordinals, after those of
 * the previous call since the cursors were reset), galloping to each from the list's cursor.
 */
export function addWeights(list: ScoredList, documents: Int32Array, into: Float64Array, work: { scoredWeights: number }): void {
  list.cursor = weighFrom(list, list.cursor, documents, into, work);
}

/** Adds each document's weight from the list, galloping from posting `from`; returns where it stopped. */
function weighFrom(list: ScoredList, from: number, documents: Int32Array, into: Float64Array, work: { scoredWeights: number }): number {
  const { docs, tf, lengths, queryWeight, idf, averageLength, fieldBoost } = list;
  const n = docs.length;
  const count = documents.length;
  let weights = 0;
  let p = from;
  for (let i = 0; i < count && p < n; i++) {
    const d = documents[i];
    if (docs[p] < d) p = seek(docs, p, n, d);
    if (p === n || docs[p] !== d) continue;
    into[i] += queryWeight * postingWeight(idf, tf[p], lengths[d], averageLength, fieldBoost);
    weights++;
  }
  work.scoredWeights += weights;
  return p;
}

export function resetCursors(lists: readonly ScoredList[]): void {
  for (const list of lists) {
    list.cursor = 0;
  }
}
