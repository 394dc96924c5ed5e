/**
 * The blended ranking: text relevance combined with a page's link-based importance (its
 * estimated global PageRank, or the local PageRank before any estimation round).
 *
 * PageRank values span orders of magnitude, text scores (BM25) do not, so the link part is used
 * on a log scale:
 * - `log-linear`: `(1 − w)·t + w·ρ`, with `t` the text score divided by the best text score of
 *   the query, and `ρ ∈ [0, 1]` the page's log-PageRank placed between the collection's smallest
 *   and largest (a page at the median of the collection gets about 0.5).
 * - `multiplicative`: `t · (r / r̄)^w`, the rank as a prior on relevance (`r̄` the collection mean),
 *   so `w = 0` is text only and a page ten times the mean is boosted by 10^w.
 * - `saturating`: `(1 − w)·t + w · r / (r + r̃)`, the rank as query-independent evidence added to
 *   the text score through a saturating function (`r̃` the collection median, where it gives 1/2):
 *   a hub far above the median gains at most `w/2` over a median page, so the few pages every page
 *   links to (contents, indexes) cannot outrank a page that matches far better.
 * - `prior` (the default, weight 0.5): `s + w · ln(r / r̃)` on the query's own text score `s` (BM25,
 *   not divided by the best): a log-PageRank prior added to the relevance score, as
 *   query-independent evidence is added to BM25. The text scale is the query's, so a query
 *   matching rare words strongly (an identifier) is moved less by the rank than one made of
 *   common words. Of the four, it alone improved on text alone without losing on any judged set.
 */
import { runSteps } from '../stepwise.ts';

export const BLEND_MODES = ['log-linear', 'multiplicative', 'saturating', 'prior'] as const;
export type BlendMode = (typeof BLEND_MODES)[number];

/** The collection-wide facts the blend needs about the rank vector. */
export interface RankScale {
  minLog: number;
  maxLog: number;
  mean: number;
  /** Median of the positive values. */
  median: number;
}

export function rankScale(values: ArrayLike<number>): RankScale {
  return runSteps(rankScaleSteps(values));
}

/** Values scanned, or a partition's elements, between two yields of {@link rankScaleSteps}. */
const VALUES_PER_STEP = 131_072;

/** {@link rankScale} in steps of about {@link VALUES_PER_STEP} values (a server's switch to new ranks). */
export function* rankScaleSteps(values: ArrayLike<number>): Generator<void, RankScale> {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  const positive = new Float64Array(values.length);
  for (let from = 0; from < values.length; from += VALUES_PER_STEP) {
    const to = Math.min(values.length, from + VALUES_PER_STEP);
    for (let i = from; i < to; i++) {
      const v = values[i];
      if (!(v > 0)) continue;
      positive[count] = v;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      count++;
    }
    yield;
  }
  if (count === 0) return { minLog: 0, maxLog: 0, mean: 0, median: 0 };
  // The logarithm is monotone: the smallest log is the log of the smallest value.
  const minLog = Math.log(min);
  const maxLog = Math.log(max);
  const positives = positive.subarray(0, count);
  const middle = count >> 1;
  const upper = yield* selectNthSteps(positives, middle);
  // Below the middle are the smaller values: the lower middle is their largest.
  let lower = -Infinity;
  if (count % 2 === 0) for (let i = 0; i < middle; i++) if (positives[i] > lower) lower = positives[i];
  const median = count % 2 === 1 ? upper : (lower + upper) / 2;
  return { minLog, maxLog, mean: sum / count, median };
}

/**
 * The value at position `n` of `values` sorted ascending, found in linear time on average
 * (quickselect, the pivot the median of three); `values` is reordered so that those before `n`
 * are at most it. A median of a million ranks in a few ms, where sorting them took 200. Yields
 * after each partition of more than {@link VALUES_PER_STEP} values.
 */
function* selectNthSteps(values: Float64Array, n: number): Generator<void, number> {
  let lo = 0;
  let hi = values.length - 1;
  for (let rounds = 0; lo < hi; rounds++) {
    // Pathological inputs: sort the part left, as the worst case of quickselect is quadratic.
    if (rounds > 64) {
      values.subarray(lo, hi + 1).sort();
      break;
    }
    const partitioned = hi - lo;
    const mid = (lo + hi) >>> 1;
    const a = values[lo];
    const b = values[mid];
    const c = values[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i] = values[j];
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else break;
    if (partitioned > VALUES_PER_STEP) yield;
  }
  return values[n];
}

export interface BlendInput {
  textScore: number;
  /** The best text score among the query's hits (for normalisation). */
  bestTextScore: number;
  rank: number;
}

export interface BlendParts {
  score: number;
  /** Text score divided by the best of the query. */
  text: number;
  /** The link part as used by the mode: ρ for log-linear, (r/r̄)^w for multiplicative, r/(r + r̃) for saturating, ln(r/r̃) for prior. */
  link: number;
}

/** Position of `rank` on the collection's log scale, in [0, 1]. */
export function logRankPosition(rank: number, scale: RankScale): number {
  if (!(rank > 0) || scale.maxLog <= scale.minLog) return rank > 0 ? 1 : 0;
  return Math.min(1, Math.max(0, (Math.log(rank) - scale.minLog) / (scale.maxLog - scale.minLog)));
}

/** `r / (r + r̃)` in [0, 1): 0.5 at the collection's median (ranks unknown or absent: 0). */
export function saturatedRank(rank: number, scale: RankScale): number {
  if (!(rank > 0)) return 0;
  if (!(scale.median > 0)) return 0.5;
  return rank / (rank + scale.median);
}

/** `ln(r / r̃)`: 0 at the collection's median, and for a page whose rank is unknown. */
export function logRankPrior(rank: number, scale: RankScale): number {
  if (!(rank > 0) || !(scale.median > 0)) return 0;
  return Math.log(rank / scale.median);
}

export function blendScore(input: BlendInput, scale: RankScale, mode: BlendMode, weight: number): BlendParts {
  if (!(weight >= 0 && weight <= 1)) throw new RangeError(`blend weight must be in [0, 1], got ${weight}`);
  const text = input.bestTextScore > 0 ? input.textScore / input.bestTextScore : 0;
  if (mode === 'log-linear') {
    const link = logRankPosition(input.rank, scale);
    return { score: (1 - weight) * text + weight * link, text, link };
  }
  if (mode === 'prior') {
    const link = logRankPrior(input.rank, scale);
    return { score: input.textScore + weight * link, text, link };
  }
  if (mode === 'saturating') {
    const link = saturatedRank(input.rank, scale);
    return { score: (1 - weight) * text + weight * link, text, link };
  }
  const relative = scale.mean > 0 && input.rank > 0 ? input.rank / scale.mean : 1;
  const link = relative ** weight;
  return { score: text * link, text, link };
}
