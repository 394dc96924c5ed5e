/**
 * Phrase matching over the postings' word positions: a page matches where the phrase's words
 * stand at their offsets from one another in one field. The rarest word drives; the others are
 * found by binary search, in the page's postings and then in their positions. Each position
 * checked is counted against the search's budget: a phrase of one common word repeated
 * (`"data data data …"`) checks every position of every page that has it.
 */
import { findPosting, termNumber, type CompactSegment, type FieldPostings } from './compact-segment.ts';
import type { QueryBudget } from './query-budget.ts';
import type { PhraseWord } from './query-analysis.ts';

/** Visits the ordinal of every document of the segment where the phrase occurs in one of the fields. */
export function forEachPhraseMatch(segment: CompactSegment, phrase: readonly PhraseWord[], fields: readonly number[], budget: QueryBudget, visit: (ordinal: number) => void): void {
  const numbers = phrase.map((word) => termNumber(segment, word.term));
  if (numbers.some((t) => t < 0)) return;
  for (const f of fields) {
    const field = segment.fields[f];
    const ranges = numbers.map((t) => [field.offsets[t], field.offsets[t + 1]] as const);
    let driver = 0;
    for (let i = 1; i < ranges.length; i++) if (ranges[i][1] - ranges[i][0] < ranges[driver][1] - ranges[driver][0]) driver = i;
    const [from, to] = ranges[driver];
    for (let p = from; p < to; p++) {
      const d = field.docs[p];
      const postings = ranges.map(([start, end], i) => (i === driver ? p : findPosting(field.docs, start, end, d)));
      if (postings.some((posting) => posting < 0)) continue;
      const occurs = phraseOccurs(field, phrase, postings, driver, budget);
      if (occurs === null) return;
      if (occurs) visit(d);
    }
  }
}

/** Whether the phrase occurs in this document's field; null once the budget is spent. */
function phraseOccurs(field: FieldPostings, phrase: readonly PhraseWord[], postings: readonly number[], driver: number, budget: QueryBudget): boolean | null {
  const { positionOffsets, positions } = field;
  for (let i = positionOffsets[postings[driver]], end = positionOffsets[postings[driver] + 1]; i < end; i++) {
    if (!budget.checkPosition()) return null;
    const start = positions[i] - phrase[driver].offset;
    let all = true;
    for (let w = 0; w < phrase.length && all; w++) {
      if (w === driver) continue;
      all = hasPosition(positions, positionOffsets[postings[w]], positionOffsets[postings[w] + 1], start + phrase[w].offset);
    }
    if (all) return true;
  }
  return false;
}

/** Binary search in a posting's positions (ascending). */
function hasPosition(positions: Uint16Array | Uint32Array, from: number, to: number, wanted: number): boolean {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (positions[mid] < wanted) low = mid + 1;
    else high = mid;
  }
  return low < to && positions[low] === wanted;
}
