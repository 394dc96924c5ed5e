/**
 * Top-k over the segments' matching documents without scoring each of them (dynamic pruning with
 * block maxima, block-max WAND's bound applied per document):
 * 1. Pages with an exact-name bonus are scored first, the most promising of all segments (by
 *    prior, bonus and the most the lists can give): they outrank nearly every other match, so when
 *    there are k of them the entry threshold is high before any other candidate is looked at.
 * 2. In each segment, once the top is full, a candidate whose prior (by level, prior-levels.ts)
 *    plus the most the lists give anywhere in the segment cannot enter is dropped at once.
 * 3. Each remaining candidate gets an upper bound: its prior plus, for each scored list, the bound
 *    of the block that would hold it. The candidates with the highest bounds are scored first.
 * 4. The others are scored only when their bound reaches the threshold, a chunk at a time and each
 *    chunk a list at a time (one list's postings stay in the cache meanwhile); the threshold rises
 *    between chunks.
 * A document is scored exactly as the exhaustive scorer does (same terms, same order of the sum),
 * so the top k and their scores are the exhaustive ones.
 */
import { findPosting } from './compact-segment.ts';
import { scratchOrdinals, seek } from './ordinal-lists.ts';
import type { QueryWork } from './query-budget.ts';
import { blockSummary } from './block-bounds.ts';
import { priorLevels } from './prior-levels.ts';
import { addBlockBounds, addExactBounds, addWeights, resetCursors, type ScoredList } from './scored-lists.ts';
import { postingWeight } from './scoring-plan.ts';
import type { LiveSegment } from './segment-set.ts';

/** Lists this many times shorter than the candidates are bounded exactly (scored-lists.ts). */
const EXACT_BOUND_RATIO = 2;
/**
 * When block bounds leave more than this share of a segment's candidates to score, lists up to
 * {@link REFINED_BOUND_LENGTH} times the candidates are bounded exactly too.
 */
const REFINE_WHEN_LEFT = 0.25;
const REFINED_BOUND_LENGTH = 8;

/** What top-k did, for benchmarks and tests. */
export interface PruningWork {
  /** Matching documents offered to top-k (after the page's filter). */
  candidates: number;
  /** Documents whose exact score was computed. */
  scoredDocuments: number;
  /** Posting weights computed (for scores, and for exact bounds). */
  scoredWeights: number;
  /** Segments bounded a second time, exactly for more lists, because block bounds left too many to score. */
  refinedSegments: number;
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

export const noPruningWork = (): PruningWork => ({ candidates: 0, scoredDocuments: 0, scoredWeights: 0, refinedSegments: 0 });

/** One segment's part of a query for top-k: its matching, accepted documents and its scored lists. */
export interface SegmentCandidates {
  segment: LiveSegment;
  /** Ascending ordinals. */
  candidates: Int32Array;
  lists: ScoredList[];
  extras: DocumentExtras;
}

/**
 * Ranks the candidates of every segment into `top`. `prior` (by ordinal) is added to each text
 * score to order the hits; absent, the text score alone.
 */
export function rankCandidates(parts: readonly SegmentCandidates[], top: TopHits, work: PruningWork): void {
  for (const part of parts) work.candidates += part.candidates.length;
  if (top.capacity <= 0) return;
  const most = parts.map(({ lists }) => mostOfLists(lists));
  const named = parts.map((part) => namedCandidates(part));
  const seeded = seedNamed(parts, named, most, top, work);
  parts.forEach((part, i) => rankSegment(part, named[i], most[i], seeded[i], top, work));
}

/** The most the lists can give any document of their segment (NaN with a negative weight: no bound). */
function mostOfLists(lists: readonly ScoredList[]): number {
  let most = 0;
  for (const list of lists) {
    if (!(list.queryWeight >= 0)) return NaN;
    const { listMaxFrequency, listMinLength } = blockSummary(list.field, list.term);
    most += list.queryWeight * postingWeight(list.idf, listMaxFrequency, listMinLength, list.averageLength, list.fieldBoost);
  }
  return most;
}

/** A segment's candidates with an exact-name bonus, ascending, with their bonuses. */
interface NamedCandidates {
  ordinals: Int32Array;
  bonuses: Float64Array;
}

function namedCandidates({ candidates, extras }: SegmentCandidates): NamedCandidates | null {
  const { bonuses } = extras;
  if (bonuses === null || candidates.length === 0) return null;
  const found: number[] = [];
  for (const d of bonuses.keys()) if (findPosting(candidates, 0, candidates.length, d) >= 0) found.push(d);
  if (found.length === 0) return null;
  const ordinals = Int32Array.from(found).sort();
  return { ordinals, bonuses: Float64Array.from(ordinals, (d) => bonuses.get(d)!) };
}

/**
 * Pages with an exact-name bonus outrank nearly every other match. The most promising of them
 * over all segments (by prior, bonus and the most the lists give) are scored first: when they
 * fill the top, each segment's bounds meet a threshold from its first candidate on. Returns, per segment,
 * the ordinals scored (ascending; null for none).
 */
function seedNamed(parts: readonly SegmentCandidates[], named: ReadonlyArray<NamedCandidates | null>, most: readonly number[], top: TopHits, work: PruningWork): Array<Int32Array | null> {
  // Every named candidate, as (segment, index in its named list), with its bound.
  const segments: number[] = [];
  const entries: number[] = [];
  const bounds: number[] = [];
  parts.forEach((part, p) => {
    const found = named[p];
    if (found === null || Number.isNaN(most[p])) return;
    const prior = part.extras.prior;
    for (let k = 0; k < found.ordinals.length; k++) {
      segments.push(p);
      entries.push(k);
      bounds.push((prior === null ? 0 : prior[found.ordinals[k]]) + found.bonuses[k] + most[p]);
    }
  });
  const seeds: number[][] = parts.map(() => []);
  for (const i of largest(Float64Array.from(bounds), Math.min(top.capacity, bounds.length))) {
    const p = segments[i];
    const { segment, lists, extras } = parts[p];
    const { ordinals, bonuses } = named[p]!;
    const d = ordinals[entries[i]];
    const text = scoreByLookup(d, lists, work) + bonuses[entries[i]];
    top.offer(segment, d, text, extras.prior);
    seeds[p].push(d);
  }
  return seeds.map((list) => (list.length === 0 ? null : Int32Array.from(list).sort()));
}

/** Ranks a segment's candidates but those already scored (`seeded`). */
function rankSegment(part: SegmentCandidates, named: NamedCandidates | null, most: number, seeded: Int32Array | null, top: TopHits, work: PruningWork): void {
  const { segment, lists, extras } = part;
  const { prior, bonuses } = extras;
  // A negative weight (a negative boost) bounds nothing: every candidate is scored.
  if (Number.isNaN(most)) {
    scoreInChunks(segment, remaining(part, named, most, seeded, -Infinity), null, null, lists, extras, top, work);
    return;
  }
  const candidates = remaining(part, named, most, seeded, top.entryFloor());
  const count = candidates.length;
  if (count === 0) return;
  const bounds = new Float64Array(count);
  addBounds(part, candidates, named, bounds, work);
  // The most promising first: their scores raise the threshold before the rest is visited.
  let chosen: Uint8Array | null = null;
  if (count > top.capacity) {
    chosen = new Uint8Array(count);
    for (const i of largest(bounds, top.capacity)) {
      if (top.cannotEnter(bounds[i])) continue;
      chosen[i] = 1;
      const d = candidates[i];
      const text = scoreByLookup(d, lists, work) + (bonuses?.get(d) ?? 0);
      top.offer(segment, d, text, prior);
    }
    // A block's bound is charged to every candidate in its range, holding the term or not: a list
    // of an expanded word, or a rare field, charges most candidates for weights they lack. When
    // that leaves most to score, bounding more lists exactly costs less than scoring them.
    if (left(bounds, chosen, top.entryFloor()) > count * REFINE_WHEN_LEFT) {
      refineBounds(lists, candidates, bounds, work);
      work.refinedSegments++;
    }
  }
  scoreInChunks(segment, candidates, bounds, chosen, lists, extras, top, work);
}

/**
 * Sets each candidate's bound: the level of its prior, its bonus, and what each list can give it,
 * exactly for lists {@link EXACT_BOUND_RATIO} times shorter than the candidates, else the bound of
 * the block that would hold it.
 */
function addBounds({ lists, extras }: SegmentCandidates, candidates: Int32Array, named: NamedCandidates | null, bounds: Float64Array, work: PruningWork): void {
  const count = candidates.length;
  const exactBelow = count / EXACT_BOUND_RATIO;
  const prior = extras.prior;
  if (prior !== null) {
    const { levels, values } = priorLevels(prior);
    for (let i = 0; i < count; i++) bounds[i] = values[levels[candidates[i]]];
  }
  for (const list of lists) {
    if (list.docs.length < exactBelow) addExactBounds(list, candidates, bounds, work);
    else addBlockBounds(list, candidates, bounds);
  }
  if (named !== null) {
    const { ordinals, bonuses: values } = named;
    for (let k = 0, i = 0; k < ordinals.length; k++) {
      i = seek(candidates, i, count, ordinals[k]);
      if (i < count && candidates[i] === ordinals[k]) bounds[i] += values[k];
    }
  }
}

/**
 * Bounds exactly the lists {@link addBounds} bounded by blocks that are shorter than
 * {@link REFINED_BOUND_LENGTH} times the candidates: each one's block bounds taken away, its exact
 * weights added. The rest of each bound stays (a sum rounded in another order is within the
 * threshold's margin).
 */
function refineBounds(lists: readonly ScoredList[], candidates: Int32Array, bounds: Float64Array, work: PruningWork): void {
  const count = candidates.length;
  for (const list of lists) {
    const length = list.docs.length;
    if (length < count / EXACT_BOUND_RATIO || length >= count * REFINED_BOUND_LENGTH) continue;
    addBlockBounds(list, candidates, bounds, -1);
    addExactBounds(list, candidates, bounds, work);
  }
}

/** Candidates not yet scored whose bound reaches `floor`. */
function left(bounds: Float64Array, chosen: Uint8Array, floor: number): number {
  let count = 0;
  for (let i = 0; i < bounds.length; i++) if (!chosen[i] && !(bounds[i] < floor)) count++;
  return count;
}

/**
 * The candidates left to rank: those not `seeded`, and (when the top is full, `floor` finite)
 * whose bound can enter: the level of its prior, its bonus, and the most the lists give anywhere
 * in the segment (`most`). Level values rise with the level, so without a bonus a candidate can
 * enter exactly when its level reaches the first level that can: one byte compared per candidate.
 */
function remaining({ candidates, extras }: SegmentCandidates, named: NamedCandidates | null, most: number, seeded: Int32Array | null, floor: number): Int32Array {
  const bounded = floor > -Infinity && !Number.isNaN(most);
  if (seeded === null && !bounded) return candidates;
  const prior = extras.prior;
  const levels = prior === null || !bounded ? null : priorLevels(prior);
  // Without levels every candidate's bound is `most` (plus its bonus): none enters below it, or all.
  const entering = !bounded ? 0 : levels === null ? (most < floor ? Infinity : 0) : firstLevelReaching(levels.values, most, floor);
  const namedOrdinals = named?.ordinals ?? NO_CANDIDATES;
  // Few candidates stay as a rule: they are gathered in reused memory and copied out.
  const kept = scratchOrdinals(candidates.length);
  let size = 0;
  let nextSeed = 0;
  let nextNamed = 0;
  for (let i = 0; i < candidates.length; i++) {
    const d = candidates[i];
    if (seeded !== null) {
      while (nextSeed < seeded.length && seeded[nextSeed] < d) nextSeed++;
      if (nextSeed < seeded.length && seeded[nextSeed] === d) continue;
    }
    const level = levels === null ? 0 : levels.levels[d];
    if (level < entering) {
      // Below the entering level: only a bonus can lift it.
      while (nextNamed < namedOrdinals.length && namedOrdinals[nextNamed] < d) nextNamed++;
      if (nextNamed === namedOrdinals.length || namedOrdinals[nextNamed] !== d) continue;
      const bound = (levels === null ? most : levels.values[level] + most) + named!.bonuses[nextNamed];
      if (bound < floor) continue;
    }
    kept[size++] = d;
  }
  return kept.slice(0, size);
}

/** The first level whose value plus `most` is not below `floor` (the last, NaN, always is: no finite level holds it). */
function firstLevelReaching(values: Float64Array, most: number, floor: number): number {
  let level = 0;
  while (level < values.length && values[level] + most < floor) level++;
  return level;
}

const NO_CANDIDATES = new Int32Array(0);

/** Candidates scored together between two looks at the threshold. */
const CHUNK = 128;

/**
 * Scores the candidates not seeded whose bound reaches the threshold (looked at again before each
 * chunk, as it rises; every candidate without bounds), a chunk at a time and each chunk a list at a
 * time, and offers them; the weights are summed in the lists' order, as the exhaustive scorer does.
 */
function scoreInChunks(segment: LiveSegment, candidates: Int32Array, bounds: Float64Array | null, seeded: Uint8Array | null, lists: readonly ScoredList[], extras: DocumentExtras, top: TopHits, work: PruningWork): void {
  const count = candidates.length;
  const { prior, bonuses } = extras;
  resetCursors(lists);
  const chunk = new Int32Array(Math.min(count, CHUNK));
  const text = new Float64Array(chunk.length);
  for (let i = 0; i < count; ) {
    let size = 0;
    // Offers come after the gathering: the threshold stays put meanwhile.
    const floor = top.entryFloor();
    for (; i < count && size < CHUNK; i++) if ((bounds === null || !(bounds[i] < floor)) && (seeded === null || !seeded[i])) chunk[size++] = candidates[i];
    const ordinals = chunk.subarray(0, size);
    work.scoredDocuments += size;
    text.fill(0, 0, size);
    for (const list of lists) addWeights(list, ordinals, text, work);
    for (let k = 0; k < size; k++) {
      const d = ordinals[k];
      const score = bonuses === null ? text[k] : text[k] + (bonuses.get(d) ?? 0);
      top.offer(segment, d, score, prior);
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
    return bound < this.entryFloor();
  }

  /** Keys below this surely lose to every kept hit (-Infinity until the top is full). */
  entryFloor(): number {
    if (this.heap.length < this.capacity) return -Infinity;
    const worst = this.heap[0].key;
    return worst - 1e-9 * (1 + Math.abs(worst));
  }

  /** Offers document `d` of `segment` by its text score; its key adds its prior when there is one. */
  offer(segment: LiveSegment, d: number, text: number, prior: Float64Array | null): void {
    if (this.capacity <= 0) return;
    const key = prior === null ? text : text + prior[d];
    const id = segment.stored.postings.docIds[d];
    if (this.heap.length < this.capacity) {
      this.heap.push({ key, score: text, id, segment, ordinal: d });
      this.siftUp(this.heap.length - 1);
      return;
    }
    // Most offers lose to the least kept hit: decided before a hit is made.
    if (ranksBelow(key, text, id, this.heap[0])) return;
    this.heap[0] = { key, score: text, id, segment, ordinal: d };
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
