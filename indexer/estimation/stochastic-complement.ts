/**
 * SC-Select (Davis & Dhillon 2006, §5.2.1; docs/estimation.md): the influence of crawling
 * frontier page `j` on the local pages, `Σ_{k∈L} |(S_j f)[k] − f[k]|`, where `S_j` is the
 * stochastic complement of the expanded chain `P_{F_j}` with respect to `F`.
 *
 * `S_j f − f = x_j + b_j·e + g_j·z`, so with `τ_j = −b_j/g_j` (and `g_j > 0`, `z ≥ 0`)
 *
 *     score(j) = g_j · Σ_{k∈L} |z[k] − τ_j|  +  Σ_{k∈L, x_j[k]≠0} (|x_j[k] + b_j + g_j z[k]| − |b_j + g_j z[k]|).
 *
 * The first sum is exact in O(log n) per candidate from the sorted `z` over `L` and its prefix
 * sums. The leak vector `x_j` is spread over the siblings of `j`; a hub linker's leaks are one
 * constant over its whole out-link row, so that row's part is again a sorted-prefix evaluation
 * (shared by every frontier page the hub links to) instead of a walk over the row.
 */
import { inDegrees, outDegrees, type LinkGraph } from '../graph.ts';
import { candidateCount, scoringSelector, type PageSelector, type SelectionInput } from './selection.ts';

export interface StochasticComplementOptions {
  /**
   * The paper's discretisation: evaluate the first sum only at `buckets` evenly spaced values of
   * `τ` and use the nearest (Algorithm 3's L1NormDiffs). Default: exact evaluation.
   */
  buckets?: number;
  /** Linkers with at least this many out-links are evaluated by sorted prefix sums (default 16). */
  hubThreshold?: number;
}

/** Σ|v − τ| over a fixed set of values, for any τ in O(log n). */
export class SortedDeviations {
  private readonly sorted: Float64Array;
  private readonly prefix: Float64Array;

  constructor(values: Float64Array) {
    this.sorted = Float64Array.from(values).sort();
    this.prefix = new Float64Array(this.sorted.length + 1);
    for (let i = 0; i < this.sorted.length; i++) this.prefix[i + 1] = this.prefix[i] + this.sorted[i];
  }

  get count(): number {
    return this.sorted.length;
  }

  /** Σ_i |v_i − τ| */
  sumAbsDeviation(tau: number): number {
    const n = this.sorted.length;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid] < tau) lo = mid + 1;
      else hi = mid;
    }
    const below = tau * lo - this.prefix[lo];
    const above = this.prefix[n] - this.prefix[lo] - tau * (n - lo);
    return below + above;
  }
}

/** The parts of the expansion shared by every candidate. */
interface ComplementModel {
  size: number;
  degree: Int32Array;
  /** `z = s̃ / (1 − w)`, how a new page's flow spreads over F. */
  z: Float64Array;
  /** Total PageRank of the dangling pages of F. */
  danglingMass: number;
}

function complementModel(input: SelectionInput): ComplementModel {
  const { graph, rank, alpha } = input;
  const size = graph.nodeCount;
  const degree = outDegrees(graph);
  const indegree = inDegrees(graph);
  const links = graph.edgeCount;
  const teleport = (1 - alpha) / (size + 1);
  const w = teleport;
  const z = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    // The new page's out-links are modelled ∝ in-degree inside F (uniform when F has no links).
    const s = links > 0 ? indegree[k] / links : 1 / size;
    z[k] = (alpha * s + teleport) / (1 - w);
  }
  let danglingMass = 0;
  for (let k = 0; k < size; k++) if (degree[k] === 0) danglingMass += rank[k];
  return { size, degree, z, danglingMass };
}

/** SC-Select's influence estimate for every frontier candidate. */
export function stochasticComplementScores(input: SelectionInput, options: StochasticComplementOptions = {}): Float64Array {
  const count = candidateCount(input);
  const scores = new Float64Array(count);
  const { graph, rank, alpha, isLocal, linkerOffsets, linkers } = input;
  if (count === 0 || graph.nodeCount === 0) return scores;
  const { size, degree, z, danglingMass: D } = complementModel(input);
  const hubThreshold = options.hubThreshold ?? 16;
  const { outOffsets, outTargets } = graph;

  const { localOffsets, localTargets } = localRows(graph, isLocal);
  const localZ: number[] = [];
  for (let k = 0; k < size; k++) if (isLocal[k]) localZ.push(z[k]);
  const local = new SortedDeviations(Float64Array.from(localZ));

  // Pass 1: the scalars g_j (flow j can pass on) and b_j (uniform shift) of every candidate.
  // Also each candidate's hub: its linker with the most out-links, if at least hubThreshold.
  const g = new Float64Array(count);
  const b = new Float64Array(count);
  const hubOf = new Int32Array(count);
  const teleportShare = (1 - alpha) / (size + 1);
  for (let c = 0; c < count; c++) {
    let flow = 0;
    let danglingLinkers = 0;
    let hub = -1;
    for (let e = linkerOffsets[c]; e < linkerOffsets[c + 1]; e++) {
      const k = linkers[e];
      const d = degree[k];
      if (d > 0) flow += rank[k] / (d + 1);
      else danglingLinkers += rank[k];
      if (d >= hubThreshold && (hub < 0 || d > degree[hub])) hub = k;
    }
    hubOf[c] = hub;
    g[c] =
      ((1 - alpha) * (1 - D)) / (size + 1) +
      alpha * flow +
      (alpha + teleportShare) * danglingLinkers +
      (D - danglingLinkers) / (size + 1);
    b[c] = -((1 - alpha) + alpha * D) / (size * (size + 1)) - (alpha * danglingLinkers) / (size + 1);
  }

  const baseSum = baseEvaluator(local, g, b, options.buckets);

  // Hubs: sorted z over each hub's local out-links, built once and shared by all its candidates.
  const hubRows = new Map<number, SortedDeviations>();
  const hubRow = (h: number): SortedDeviations => {
    let row = hubRows.get(h);
    if (!row) {
      const values: number[] = [];
      for (let e = localOffsets[h]; e < localOffsets[h + 1]; e++) values.push(z[localTargets[e]]);
      row = new SortedDeviations(Float64Array.from(values));
      hubRows.set(h, row);
    }
    return row;
  };
  const inRow = (h: number, target: number): boolean => {
    let lo = outOffsets[h];
    let hi = outOffsets[h + 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (outTargets[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo < outOffsets[h + 1] && outTargets[lo] === target;
  };

  // Pass 2: base term plus the leak corrections.
  const leak = new Float64Array(size);
  const touched = new Int32Array(size);
  const marked = new Uint8Array(size);
  for (let c = 0; c < count; c++) {
    const gj = g[c];
    const bj = b[c];
    let score = baseSum(c);

    const hub = hubOf[c];
    let hubLeak = 0;
    if (hub >= 0) {
      hubLeak = (alpha * rank[hub]) / (degree[hub] * (degree[hub] + 1));
      // Every local target t of the hub: |−hubLeak + b + g z[t]| − |b + g z[t]|, via g·Σ|z − τ|.
      const row = hubRow(hub);
      score += gj * (row.sumAbsDeviation((hubLeak - bj) / gj) - row.sumAbsDeviation(-bj / gj));
    }

    let touchedCount = 0;
    for (let e = linkerOffsets[c]; e < linkerOffsets[c + 1]; e++) {
      const k = linkers[e];
      // Most linkers of a large F have no local out-link: nothing leaks from them.
      if (localOffsets[k] === localOffsets[k + 1] || k === hub || degree[k] === 0) continue;
      const amount = (alpha * rank[k]) / (degree[k] * (degree[k] + 1));
      for (let t = localOffsets[k]; t < localOffsets[k + 1]; t++) {
        const target = localTargets[t];
        if (!marked[target]) {
          marked[target] = 1;
          touched[touchedCount++] = target;
        }
        leak[target] -= amount;
      }
    }
    for (let q = 0; q < touchedCount; q++) {
      const target = touched[q];
      // The value this component has without the leaks of the non-hub linkers.
      let without = bj + gj * z[target];
      if (hub >= 0 && inRow(hub, target)) without -= hubLeak;
      score += Math.abs(leak[target] + without) - Math.abs(without);
      leak[target] = 0;
      marked[target] = 0;
    }
    scores[c] = score;
  }
  return scores;
}

/**
 * Each page's out-links to local pages, in row order: the only targets a leak reaches. Built once
 * per call (O(|F| + links)) so that a candidate's linkers are not walked over their links to
 * global pages, which on a large F are nearly all of them.
 */
function localRows(graph: LinkGraph, isLocal: Uint8Array): { localOffsets: Int32Array; localTargets: Int32Array } {
  const { nodeCount, outOffsets, outTargets } = graph;
  const localOffsets = new Int32Array(nodeCount + 1);
  for (let i = 0; i < nodeCount; i++) {
    let n = 0;
    for (let e = outOffsets[i]; e < outOffsets[i + 1]; e++) n += isLocal[outTargets[e]];
    localOffsets[i + 1] = localOffsets[i] + n;
  }
  const localTargets = new Int32Array(localOffsets[nodeCount]);
  for (let e = 0, w = 0; e < outOffsets[nodeCount]; e++) if (isLocal[outTargets[e]]) localTargets[w++] = outTargets[e];
  return { localOffsets, localTargets };
}

/** `Σ_{k∈L} |b_j + g_j z[k]|` for candidate j: exact, or on the paper's grid of `buckets` values of τ. */
function baseEvaluator(local: SortedDeviations, g: Float64Array, b: Float64Array, buckets: number | undefined): (c: number) => number {
  if (buckets === undefined) return (c) => g[c] * local.sumAbsDeviation(-b[c] / g[c]);
  if (!(Number.isInteger(buckets) && buckets >= 2)) throw new RangeError(`SC-Select buckets must be an integer ≥ 2, got ${buckets}`);
  let low = Infinity;
  let high = -Infinity;
  for (let c = 0; c < g.length; c++) {
    const tau = -b[c] / g[c];
    low = Math.min(low, tau);
    high = Math.max(high, tau);
  }
  const step = high > low ? (high - low) / (buckets - 1) : 0;
  const table = new Float64Array(buckets);
  for (let i = 0; i < buckets; i++) table[i] = local.sumAbsDeviation(low + i * step);
  return (c) => {
    const slot = step > 0 ? Math.round((-b[c] / g[c] - low) / step) : 0;
    return g[c] * table[slot];
  };
}

export function stochasticComplementSelector(options: StochasticComplementOptions = {}): PageSelector {
  return scoringSelector('sc', (input) => stochasticComplementScores(input, options));
}
