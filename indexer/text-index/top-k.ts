/**
 * Top-k over a segment's matching documents without scoring each of them (dynamic pruning with
 * block maxima, block-max WAND's bound applied per document):
 * 1. Each candidate gets an upper bound: its static prior (the blend's query-independent part, 0
 *    without one) plus, for each scored list, the bound of the block that would hold it.
 * 2. The candidates with the highest bounds are scored first (a page with a high estimate first),
 *    which sets the entry threshold of the top k early.
 * 3. The others are scored only when their bound reaches the threshold, a chunk at a time and each
 *    chunk a list at a time (one list's postings stay in the cache meanwhile); the threshold rises
 *    between chunks.
 * A document is scored exactly as the exhaustive scorer does (same terms, same order of the sum),
 * so the top k and their scores are the exhaustive ones.
 */
import { findPosting } from './compact-segment.ts';
import type { QueryWork } from './query-budget.ts';
import { addBlockBounds, addExactBounds, addWeights, resetCursors, type ScoredList } from './scored-lists.ts';
import { postingWeight } from './scoring-plan.ts';
import type { LiveSegment } from './segment-set.ts';

/** Lists this many times shorter than the candidates are bounded exactly (scored-lists.ts). */
const EXACT_BOUND_RATIO = 2;

/** What top-k did, for benchmarks and tests. */
export interface PruningWork {
  /** Matching documents offered to top-k (after the page's filter). */
  candidates: number;
  /** Documents whose exact score was computed. */
  scoredDocuments: number;
  /** Posting weights computed (for scores, and for the bounds of short lists). */
  scoredWeights: number;
}

/**
 * What a document's key adds to its text score: the static prior (by ordinal; orders the hits, is
 * not part of the text score) and the exact-name bonus (ordinal → bonus; part of the text score).
 * Both are known before any posting is read, so each is its own exact bound.
 */
export interface DocumentExtras {
  prior: Float64Array | null;
  bonuses: Map<number, number> | null;
}

export const noPruningWork = (): PruningWork => ({ candidates: 0, scoredDocuments: 0, scoredWeights: 0 });

/**
 * Ranks `candidates` (ascending ordinals of matching, accepted documents) into `top`. `prior`
 * (by ordinal) is added to each text score to order the hits; absent, the text score alone.
 */
export function rankCandidates(segment: LiveSegment, candidates: Int32Array, lists: ScoredList[], extras: DocumentExtras, top: TopHits, work: PruningWork): void {
  const { prior, bonuses } = extras;
  const count = candidates.length;
  work.candidates += count;
  if (count === 0 || top.capacity <= 0) return;
  // A negative weight (a negative boost) bounds nothing: every candidate is scored.
  if (lists.some((list) => !(list.queryWeight >= 0))) {
    scoreInChunks(segment, candidates, null, null, lists, extras, top, work);
    return;
  }
  // Each list adds its bounds to every candidate in one pass over its blocks (or its postings).
  const bounds = new Float64Array(count);
  if (prior !== null) for (let i = 0; i < count; i++) bounds[i] = prior[candidates[i]];
  for (const list of lists) {
    if (list.docs.length * EXACT_BOUND_RATIO < count) addExactBounds(list, candidates, bounds, work);
    else addBlockBounds(list, candidates, bounds);
  }
  if (bonuses !== null) for (const [d, bonus] of bonuses) {
    const i = findPosting(candidates, 0, count, d);
    if (i >= 0) bounds[i] += bonus;
  }
  // The most promising first: their scores raise the threshold before the rest is visited.
  let seeded: Uint8Array | null = null;
  if (count > top.capacity) {
    const ids = segment.stored.postings.docIds;
    seeded = new Uint8Array(count);
    for (const i of largest(bounds, top.capacity)) {
      if (top.cannotEnter(bounds[i])) continue;
      seeded[i] = 1;
      const d = candidates[i];
      const text = scoreByLookup(d, lists, work) + (bonuses?.get(d) ?? 0);
      top.offer(prior === null ? text : text + prior[d], text, ids[d], segment, d);
    }
  }
  scoreInChunks(segment, candidates, bounds, seeded, lists, extras, top, work);
}

/** Candidates scored together between two looks at the threshold. */
const CHUNK = 128;

/**
 * Scores the candidates not seeded whose bound reaches the threshold (looked at again before each
 * chunk, as it rises; every candidate without bounds), a chunk at a time and each chunk a list at a
 * time, and offers them; the weights are summed in the lists' order, as the exhaustive scorer does.
 */
function scoreInChunks(segment: LiveSegment, candidates: Int32Array, bounds: Float64Array | null, seeded: Uint8Array | null, lists: readonly ScoredList[], extras: DocumentExtras, top: TopHits, work: PruningWork): void {
  const count = candidates.length;
  const ids = segment.stored.postings.docIds;
  const { prior, bonuses } = extras;
  resetCursors(lists);
  const chunk = new Int32Array(Math.min(count, CHUNK));
  const text = new Float64Array(chunk.length);
  for (let i = 0; i < count; ) {
    let size = 0;
    for (; i < count && size < CHUNK; i++) if ((seeded === null || !seeded[i]) && (bounds === null || !top.cannotEnter(bounds[i]))) chunk[size++] = candidates[i];
    const ordinals = chunk.subarray(0, size);
    work.scoredDocuments += size;
    text.fill(0, 0, size);
    for (const list of lists) addWeights(list, ordinals, text, work);
    for (let k = 0; k < size; k++) {
      const d = ordinals[k];
      const score = bonuses === null ? text[k] : text[k] + (bonuses.get(d) ?? 0);
      top.offer(prior === null ? score : score + prior[d], score, ids[d], segment, d);
    }
  }
}

/** The exact score of `d` by binary search in each list (visits out of order; cursors untouched). */
function scoreByLookup(d: number, lists: readonly ScoredList[], work: PruningWork): number {
  work.scoredDocuments++;
  let text = 0;
  for (const list of lists) {
    const p = findPosting(list.docs, 0, list.docs.length, d);
    if (p < 0) continue;
    text += list.queryWeight * postingWeight(list.idf, list.tf[p], list.lengths[d], list.averageLength, list.fieldBoost);
    work.scoredWeights++;
  }
  return text;
}

/** Indexes of the `k` largest values (a min-heap of indexes; NaN counts as largest). */
function largest(values: Float64Array, k: number): Int32Array {
  const heap = new Int32Array(k);
  let size = 0;
  const less = (a: number, b: number) => values[a] < values[b] || (Number.isNaN(values[b]) && !Number.isNaN(values[a]));
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && less(heap[l], heap[m])) m = l;
      if (r < size && less(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let i = 0; i < values.length; i++) {
    if (size < k) {
      heap[size] = i;
      let c = size++;
      while (c > 0) {
        const parent = (c - 1) >> 1;
        if (!less(heap[c], heap[parent])) break;
        [heap[c], heap[parent]] = [heap[parent], heap[c]];
        c = parent;
      }
    } else {
      // Most values lose to the heap's least: compared with it directly (NaN counts as largest).
      const v = values[i];
      const least = values[heap[0]];
      if (v > least || (Number.isNaN(v) && !Number.isNaN(least))) {
        heap[0] = i;
        down(0);
      }
    }
  }
  return heap.subarray(0, size);
}

export interface TopHit {
  /** What hits are ordered by: the text score plus the document's prior. */
  key: number;
  score: number;
  id: number;
  segment: LiveSegment;
  ordinal: number;
}

/** The best `capacity` hits (see {@link worse}), kept in a min-heap of the worst. */
export class TopHits {
  private readonly heap: TopHit[] = [];

  constructor(readonly capacity: number) {}

  /**
   * Whether a document whose key is at most `bound` surely loses to every kept hit. The bound
   * adds the same weights as the score in another order, so a margin covers the rounding.
   */
  cannotEnter(bound: number): boolean {
    if (this.heap.length < this.capacity) return false;
    const worst = this.heap[0].key;
    return bound < worst - 1e-9 * (1 + Math.abs(worst));
  }

  offer(key: number, score: number, id: number, segment: LiveSegment, ordinal: number): void {
    if (this.capacity <= 0) return;
    if (this.heap.length < this.capacity) {
      this.heap.push({ key, score, id, segment, ordinal });
      this.siftUp(this.heap.length - 1);
      return;
    }
    // Most offers lose to the least kept hit: decided before a hit is made.
    if (ranksBelow(key, score, id, this.heap[0])) return;
    this.heap[0] = { key, score, id, segment, ordinal };
    this.siftDown(0);
  }

  sorted(): TopHit[] {
    return [...this.heap].sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }

  private siftUp(i: number): void {
    const { heap } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const { heap } = this;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && worse(heap[left], heap[worst])) worst = left;
      if (right < heap.length && worse(heap[right], heap[worst])) worst = right;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst], heap[i]];
      i = worst;
    }
  }
}

/** Lower key, then (equal blends) lower text score, then higher id: the order the engine sorts by. */
function worse(a: TopHit, b: TopHit): boolean {
  return ranksBelow(a.key, a.score, a.id, b);
}

function ranksBelow(key: number, score: number, id: number, b: TopHit): boolean {
  if (key !== b.key) return key < b.key;
  if (score !== b.score) return score < b.score;
  return id > b.id;
}
