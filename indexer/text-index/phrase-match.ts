/**
 * Phrase matching over the postings' word positions: a page matches where the phrase's words
 * stand at their offsets from one another in one field. The rarest word drives; the others are
 * found by binary search, in the page's postings and then in their positions. Each position
 * checked is counted against the search's budget: a phrase of one common word repeated
 * (`"data data data …"`) checks every position of every page that has it.
 */
import { findPosting, termNumber, termPositions, termPostings, type CompactSegment, type TermPositions } from './compact-segment.ts';
import type { QueryBudget } from './query-budget.ts';
import type { PhraseWord } from './query-analysis.ts';

/** Visits the ordinal of every document of the segment where the phrase occurs in one of the fields. */
export function forEachPhraseMatch(segment: CompactSegment, phrase: readonly PhraseWord[], fields: readonly number[], budget: QueryBudget, visit: (ordinal: number) => void): void {
  const numbers = phrase.map((word) => termNumber(segment, word.term));
  if (numbers.some((t) => t < 0)) return;
  for (const f of fields) {
    const field = segment.fields[f];
    if (numbers.some((t) => field.offsets[t] === field.offsets[t + 1])) continue;
    const lists = numbers.map((t) => termPostings(field, t).docs);
    let driver = 0;
    for (let i = 1; i < lists.length; i++) if (lists[i].length < lists[driver].length) driver = i;
    // Read once a document has every word: most of a rare word's pages lack a common one.
    let positions: TermPositions[] | null = null;
    const driving = lists[driver];
    for (let p = 0; p < driving.length; p++) {
      const d = driving[p];
      const postings = lists.map((docs, i) => (i === driver ? p : findPosting(docs, 0, docs.length, d)));
      if (postings.some((posting) => posting < 0)) continue;
      positions ??= numbers.map((t) => termPositions(field, t));
      const occurs = phraseOccurs(positions, phrase, postings, driver, budget);
      if (occurs === null) return;
      if (occurs) visit(d);
    }
  }
}

/** Whether the phrase occurs in this document's field; null once the budget is spent. */
function phraseOccurs(words: readonly TermPositions[], phrase: readonly PhraseWord[], postings: readonly number[], driver: number, budget: QueryBudget): boolean | null {
  const { starts, base, positions } = words[driver];
  for (let i = starts[postings[driver]] - base, end = starts[postings[driver] + 1] - base; i < end; i++) {
    if (!budget.checkPosition()) return null;
    const start = positions[i] - phrase[driver].offset;
    let all = true;
    for (let w = 0; w < phrase.length && all; w++) {
      if (w === driver) continue;
      const word = words[w];
      const p = postings[w];
      all = hasPosition(word.positions, word.starts[p] - word.base, word.starts[p + 1] - word.base, start + phrase[w].offset);
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
