/**
 * Distances and rank correlations between PageRank vectors (the paper's §6).
 */

function checkSameLength(a: ArrayLike<number>, b: ArrayLike<number>): void {
  if (a.length !== b.length) throw new RangeError(`vectors differ in length: ${a.length} vs ${b.length}`);
}

/** ‖a − b‖₁ */
export function l1Distance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  checkSameLength(a, b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum;
}

/** ‖a − b‖∞ */
export function maxDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  checkSameLength(a, b);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/** The arithmetic mean of `values` (NaN when empty). */
export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

/** The middle value of `values` (the mean of the two middle ones for an even count; NaN when empty). */
export function median(values: ArrayLike<number>): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `E_L x / ‖E_L x‖₁`: the entries of `vector` at `pages`, in that order, scaled to sum 1. */
export function restrictAndNormalise(vector: ArrayLike<number>, pages: ArrayLike<number>): Float64Array {
  const out = new Float64Array(pages.length);
  let sum = 0;
  for (let k = 0; k < pages.length; k++) {
    out[k] = vector[pages[k]];
    sum += out[k];
  }
  if (sum > 0) for (let k = 0; k < out.length; k++) out[k] /= sum;
  return out;
}

/**
 * Kendall's τ-b with ties, O(n log n) (Knight 1966): sort by (x, y), count tied pairs, then count
 * the discordant pairs as the swaps of a merge sort on y.
 * τ-b = (n₀ − n₁ − n₂ + n₃ − 2·swaps) / √((n₀ − n₁)(n₀ − n₂)), with n₀ = n(n−1)/2, n₁ pairs tied in x,
 * n₂ tied in y, n₃ tied in both. Returns NaN when either vector is constant.
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number {
  checkSameLength(x, y);
  const n = x.length;
  if (n < 2) return Number.NaN;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => x[a] - x[b] || y[a] - y[b]);

  let tiedX = 0;
  let tiedXY = 0;
  let runX = 1;
  let runXY = 1;
  for (let k = 1; k < n; k++) {
    const a = order[k - 1];
    const b = order[k];
    if (x[a] === x[b]) {
      runX++;
      if (y[a] === y[b]) runXY++;
      else {
        tiedXY += (runXY * (runXY - 1)) / 2;
        runXY = 1;
      }
    } else {
      tiedX += (runX * (runX - 1)) / 2;
      tiedXY += (runXY * (runXY - 1)) / 2;
      runX = 1;
      runXY = 1;
    }
  }
  tiedX += (runX * (runX - 1)) / 2;
  tiedXY += (runXY * (runXY - 1)) / 2;

  // Merge sort the y values (in x order), counting inversions = discordant pairs.
  let values = new Float64Array(n);
  for (let k = 0; k < n; k++) values[k] = y[order[k]];
  let buffer = new Float64Array(n);
  let swaps = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const mid = Math.min(left + width, n);
      const right = Math.min(left + 2 * width, n);
      let i = left;
      let j = mid;
      let w = left;
      while (i < mid && j < right) {
        if (values[j] < values[i]) {
          swaps += mid - i;
          buffer[w++] = values[j++];
        } else buffer[w++] = values[i++];
      }
      while (i < mid) buffer[w++] = values[i++];
      while (j < right) buffer[w++] = values[j++];
    }
    const swap = values;
    values = buffer;
    buffer = swap;
  }

  let tiedY = 0;
  let runY = 1;
  for (let k = 1; k < n; k++) {
    if (values[k] === values[k - 1]) runY++;
    else {
      tiedY += (runY * (runY - 1)) / 2;
      runY = 1;
    }
  }
  tiedY += (runY * (runY - 1)) / 2;

  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  if (denominator === 0) return Number.NaN;
  return (pairs - tiedX - tiedY + tiedXY - 2 * swaps) / denominator;
}

export interface RankComparison {
  l1: number;
  linf: number;
  tau: number;
}

/** The paper's three measures between an estimate and the truth. */
export function compareRankings(estimate: ArrayLike<number>, truth: ArrayLike<number>): RankComparison {
  return { l1: l1Distance(estimate, truth), linf: maxDistance(estimate, truth), tau: kendallTauB(estimate, truth) };
}
