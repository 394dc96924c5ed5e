/**
 * Phrase matching over the postings' word positions: a page matches where the phrase's words
 * stand at their offsets from one another in one field. The rarest word drives; the others are
 * found by binary search, in the page's postings and then in their positions. Each position
 * checked is counted against the search's budget: a phrase of one common word repeated
 * (`"data data data …"`) checks every position of every page that has it. Beside required words,
 * only their candidates are checked ({@link phraseHolders}).
 */
import { findPosting, positionsOfPosting, termNumber, termPositions, termPostings, type CompactSegment, type TermPositions } from './compact-segment.ts';
import { seek } from './ordinal-lists.ts';
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

/**
 * Documents with every word of the phrase past which a phrase beside other required words reads
 * its words' whole positions (cached with the term) rather than each document's.
 */
const READ_EACH_BELOW = 32;

/**
 * The `candidates` (ascending ordinals) where the phrase occurs in one of the fields, for a phrase
 * beside required words: each word's postings are looked up for the candidates only, and a few
 * documents' positions are read one by one, not the words' whole positions (`apt-get source`
 * need not read every position of `get`). Once the budget is spent, those found until then.
 */
export function phraseHolders(segment: CompactSegment, phrase: readonly PhraseWord[], fields: readonly number[], candidates: Int32Array, budget: QueryBudget): Int32Array {
  const numbers = phrase.map((word) => termNumber(segment, word.term));
  if (numbers.some((t) => t < 0)) return new Int32Array(0);
  const held = new Uint8Array(candidates.length);
  // A document's own positions are each word's posting 0 ({@link singlePosting}).
  const first = numbers.map(() => 0);
  checking: for (const f of fields) {
    const field = segment.fields[f];
    if (numbers.some((t) => field.offsets[t] === field.offsets[t + 1])) continue;
    const lists = numbers.map((t) => termPostings(field, t).docs);
    // The candidates with every word (not yet found in another field), with each word's posting.
    const withAll: Array<{ i: number; postings: number[] }> = [];
    const cursors = lists.map(() => 0);
    for (let i = 0; i < candidates.length; i++) {
      if (held[i]) continue;
      const d = candidates[i];
      let all = true;
      for (let w = 0; w < lists.length && all; w++) {
        cursors[w] = seek(lists[w], cursors[w], lists[w].length, d);
        all = cursors[w] < lists[w].length && lists[w][cursors[w]] === d;
      }
      if (all) withAll.push({ i, postings: cursors.slice() });
    }
    const whole = withAll.length >= READ_EACH_BELOW ? numbers.map((t) => termPositions(field, t)) : null;
    for (const { i, postings } of withAll) {
      const words = whole ?? numbers.map((t, w) => singlePosting(positionsOfPosting(field, field.offsets[t] + postings[w])));
      const at = whole === null ? first : postings;
      const occurs = phraseOccurs(words, phrase, at, rarest(words, at), budget);
      if (occurs === null) break checking;
      if (occurs) held[i] = 1;
    }
  }
  const out = new Int32Array(candidates.length);
  let n = 0;
  for (let i = 0; i < candidates.length; i++) if (held[i]) out[n++] = candidates[i];
  return out.subarray(0, n);
}

/** One posting's positions as a word's positions with that posting at 0. */
const singlePosting = (positions: Uint16Array | Uint32Array): TermPositions => ({ starts: Int32Array.of(0, positions.length), base: 0, positions });

/** The word with the fewest positions in the document: it drives the check. */
function rarest(words: readonly TermPositions[], postings: readonly number[]): number {
  const count = (w: number) => words[w].starts[postings[w] + 1] - words[w].starts[postings[w]];
  let driver = 0;
  for (let w = 1; w < words.length; w++) if (count(w) < count(driver)) driver = w;
  return driver;
}
